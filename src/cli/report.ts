/**
 * `npm run report -- <saved.json> [-o page.html] [--lang en|es]`: a saved
 * `npm run lab -- --json` result as an HTML page (src/report/html.ts). Every
 * bad input is one line and exit code 2.
 */
import { HELP_OPTION, optionsHelp, parseOptions } from '../core/options.js';
import { LANGS, type Lang } from '../learn/catalogue.js';
import { detectLang } from '../core/lang.js';
import { runCommand, UserError } from '../core/user-error.js';
import { labSheetQuote, readSavedReport, writeReportPage } from '../report/write.js';
import { basename } from 'node:path';
import { fromUser } from '../core/cwd.js';
import { fileRule, outputFile, wroteLine } from '../core/file-option.js';
import { REPO } from '../lab/paths.js';

const OPTIONS = [
  { name: 'output', kind: 'string', short: 'o', value: 'FILE', help: "where to write the page (default: out/ with the saved file's name, .html for .json)" },
  { name: 'lang', kind: 'string', value: 'en|es', help: 'language of the page (default: from the locale)' },
  HELP_OPTION,
] as const;

const USAGE = `Usage: npm run report -- <saved.json> [options]

Turns a saved result of \`npm run -s lab -- ... --json > saved.json\` into one
self-contained HTML page (no network; opens from disk). -s keeps npm's own
lines out of the saved file.

${optionsHelp(OPTIONS)}

${fileRule(detectLang())}`;

const fail = (message: string) => new UserError(`${message} (npm run report -- --help)`);

function reportMain(argv: string[]): number {
  const { values, positionals } = parseOptions(OPTIONS, argv, fail, { positionals: true });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw fail(positionals.length === 0 ? 'which file?' : 'one file at a time');
  if (values.lang !== undefined && !(LANGS as readonly string[]).includes(values.lang)) throw fail(`unknown language "${values.lang}"; one of: ${LANGS.join(', ')}`);
  // Read from the folder the command was typed in (src/core/cwd.ts), not the package root npm moves to; the page
  // where -o says, else into the kit's out/ (src/core/file-option.ts).
  const file = fromUser(positionals[0]!);
  const lang = (values.lang as Lang | undefined) ?? detectLang();
  const output = outputFile(values.output, REPO, `${basename(file).replace(/\.json$/i, '')}.html`);
  const report = readSavedReport(file, lang);
  writeReportPage(output, { report, lang, sheet: labSheetQuote(report.variant, lang) });
  process.stdout.write(`${wroteLine(output, lang)}\n`);
  return 0;
}

/** The command: its exit code; a user error is its one line on stderr (src/core/user-error.ts). */
export function main(argv: string[]): Promise<number> {
  return runCommand('report', () => reportMain(argv));
}
