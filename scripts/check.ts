/** npm run check -- <lab> [--learner NAME] [--lang en|es]: is your workspace fixed? See src/learn/check.ts. */
import { HELP_OPTION, optionsHelp, parseOptions } from '../src/core/options.js';
import { runCommand, UserError } from '../src/core/user-error.js';
import { LANGS, loadCatalogue, type Lang } from '../src/learn/catalogue.js';
import { runCheck } from '../src/learn/flow.js';
import { detectLang } from '../src/core/lang.js';
import { REPO } from '../src/lab/paths.js';
import { rememberedLang } from '../src/learn/learner.js';

const OPTIONS = [
  { name: 'learner', kind: 'string', value: 'NAME', help: 'whose workspace (default: the learner last named)' },
  { name: 'lang', kind: 'string', value: 'en|es', help: 'language of the verdict (default: the last one asked for, else the locale)' },
  HELP_OPTION,
] as const;

const fail = (message: string) => new UserError(`${message} (npm run check -- --help)`);

async function main(): Promise<number> {
  const labs = loadCatalogue();
  const { values, positionals } = parseOptions(OPTIONS, process.argv.slice(2), fail, { positionals: true });
  if (values.help) {
    process.stdout.write(`Usage: npm run check -- <lab> [options]\n\nIs your workspace of <lab> fixed? Type-checks it, runs the contract tests and the lab's runs,\nand compares them with the kit's reference solution.\n\n${optionsHelp(OPTIONS)}\n\nLabs: ${labs.map((l) => l.id).join(', ')}\n`);
    return 0;
  }
  const lab = labs.find((l) => l.id === positionals[0]);
  if (positionals.length !== 1 || !lab) throw fail(`${positionals[0] === undefined ? 'which lab' : positionals.length > 1 ? 'one lab at a time' : `unknown lab "${positionals[0]}"`}; one of: ${labs.map((l) => l.id).join(', ')}`);
  if (values.lang !== undefined && !(LANGS as readonly string[]).includes(values.lang)) throw fail(`unknown language "${values.lang}"; one of: ${LANGS.join(', ')}`);
  return runCheck(lab, { learner: values.learner, lang: (values.lang as Lang | undefined) ?? rememberedLang(REPO) ?? detectLang() });
}

// Every user error (a corrupt journal, a bad learner name, no workspace) is one line and exit 2.
process.exitCode = await runCommand('check', main);
