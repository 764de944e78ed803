/** npm run report -- <saved.json> [-o page.html] [--lang en|es]: a saved `npm run lab -- --json` result as an HTML page. See src/report/html.ts. */
import { parseArgs } from 'node:util';
import { LANGS, type Lang } from '../src/learn/catalogue.js';
import { detectLang } from '../src/learn/i18n.js';
import { runCommand } from '../src/core/user-error.js';
import { labSheetQuote, readSavedReport, writeReportPage } from '../src/report/write.js';

const USAGE = `Usage: npm run report -- <saved.json> [-o page.html] [--lang en|es]

Turns a saved result of \`npm run lab -- ... --json > saved.json\` into one
self-contained HTML page (no network; opens from disk). The page goes next to
the file with .html for .json unless -o says where.`;

function main(): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      strict: true,
      options: { output: { type: 'string', short: 'o' }, lang: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    process.stderr.write(`report: ${(error as Error).message.split('\n')[0]}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1) {
    process.stderr.write(`report: ${positionals.length === 0 ? 'which file?' : 'one file at a time'} (npm run report -- <saved.json> [-o page.html] [--lang en|es])\n`);
    return 2;
  }
  if (values.lang !== undefined && !(LANGS as readonly string[]).includes(values.lang)) {
    process.stderr.write(`report: unknown language "${values.lang}"; one of: ${LANGS.join(', ')}\n`);
    return 2;
  }
  const file = positionals[0]!;
  const output = values.output ?? `${file.replace(/\.json$/i, '')}.html`;
  const lang = (values.lang as Lang | undefined) ?? detectLang();
  const report = readSavedReport(file);
  writeReportPage(output, { report, lang, sheet: labSheetQuote(report.variant, lang) });
  process.stdout.write(`wrote ${output}\n`);
  return 0;
}

process.exitCode = await runCommand('report', main);
