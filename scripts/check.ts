/** npm run check -- <lab> [--learner NAME] [--lang en|es]: is your workspace fixed? See src/learn/check.ts. */
import { parseArgs } from 'node:util';
import { LANGS, loadCatalogue, type Lang } from '../src/learn/catalogue.js';
import { FlowError, runCheck } from '../src/learn/flow.js';
import { detectLang } from '../src/learn/i18n.js';
import { LearnerNameError } from '../src/learn/learner.js';

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
  try {
    return await runCheck(lab, { learner: values.learner, lang: (values.lang as Lang | undefined) ?? detectLang() });
  } catch (error) {
    if (error instanceof FlowError || error instanceof LearnerNameError) {
      process.stderr.write(`check: ${error.message}\n`);
      return 2;
    }
    if (error instanceof Error && error.name === 'ExitPromptError') return 130;
    throw error;
  }
}

process.exitCode = await main();
