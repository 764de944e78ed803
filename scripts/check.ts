/** npm run check -- <lab> [--learner NAME] [--lang en|es]: is your workspace fixed? See src/learn/check.ts. */
import { parseArgs } from 'node:util';
import { LANGS, loadCatalogue, type Lang } from '../src/learn/catalogue.js';
import { runCommand } from '../src/core/user-error.js';
import { runCheck } from '../src/learn/flow.js';
import { detectLang } from '../src/learn/i18n.js';
import { REPO } from '../src/lab/paths.js';
import { rememberedLang } from '../src/learn/learner.js';

async function main(): Promise<number> {
  const labs = loadCatalogue();
  let parsed;
  try {
    parsed = parseArgs({ args: process.argv.slice(2), allowPositionals: true, strict: true, options: { learner: { type: 'string' }, lang: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    process.stderr.write(`check: ${(error as Error).message.split('\n')[0]}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const usage = `Usage: npm run check -- <lab> [--learner NAME] [--lang en|es]\nLabs: ${labs.map((l) => l.id).join(', ')}`;
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const lab = labs.find((l) => l.id === positionals[0]);
  if (positionals.length !== 1 || !lab) {
    process.stderr.write(`check: ${positionals[0] === undefined ? 'which lab?' : `unknown lab "${positionals[0]}"`}; one of: ${labs.map((l) => l.id).join(', ')}\n`);
    return 2;
  }
  if (values.lang !== undefined && !(LANGS as readonly string[]).includes(values.lang)) {
    process.stderr.write(`check: unknown language "${values.lang}"; one of: ${LANGS.join(', ')}\n`);
    return 2;
  }
  return runCheck(lab, { learner: values.learner, lang: (values.lang as Lang | undefined) ?? rememberedLang(REPO) ?? detectLang() });
}

// Every user error (a corrupt journal, a bad learner name, no workspace) is one line and exit 2.
process.exitCode = await runCommand('check', main);
