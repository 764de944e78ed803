/**
 * npm run sheets: rewrites what lab sheets take from elsewhere: the diffs they
 * include from breaks/ and solutions/, and the figures region, measured from
 * a run of the lab's own runs over its seeds (100 calls, seeds 1 on), and
 * labs/<id>/baseline.json, the baseline's figures the lab shows before its
 * questions, from the same run.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { HELP_OPTION, optionsHelp, parseOptions } from '../src/core/options.js';
import { runCommand, UserError } from '../src/core/user-error.js';
import { join } from 'node:path';
import { REPO } from '../src/lab/paths.js';
import { seedsFrom } from '../src/lab/side-by-side.js';
import { LANGS, loadCatalogue, type LabResults, type Lang } from '../src/learn/catalogue.js';
import { LAB_DEFAULTS, runLabSeeds } from '../src/learn/lab-runs.js';
import { labSheetFiles } from '../src/learn/sheet-sync.js';
import { figureValue, withQuotedFigures } from '../src/learn/sheets.js';

/** The calls of each run a sheet's figures come from, seeds 1 on: a plain lab run's. */
const CALLS = LAB_DEFAULTS.calls;

const OPTIONS = [
  { name: 'check', kind: 'boolean', help: 'change nothing; exit 1 when a sheet is out of date' },
  { name: 'diffs', kind: 'boolean', help: 'only the diffs (fast: no runs)' },
  HELP_OPTION,
] as const;

const USAGE = `Usage: npm run sheets -- [<lab> ...] [options]

Rewrites the diffs each lab sheet includes, its measured figures and the lab's baseline.json (every lab, or the labs named).

${optionsHelp(OPTIONS)}`;

async function main(): Promise<number> {
  const labs = loadCatalogue();
  const { values, positionals: only } = parseOptions(OPTIONS, process.argv.slice(2), (message) => new UserError(`${message} (npm run sheets -- --help)`), { positionals: true });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const unknown = only.filter((id) => !labs.some((l) => l.id === id));
  if (unknown.length > 0) throw new UserError(`unknown lab "${unknown[0]}"; one of: ${labs.map((l) => l.id).join(', ')}`, 2);
  let stale = 0;
  /** Writes `text` to `path` when it differs (or, with --check, says it is out of date). */
  const sync = (path: string, text: string) => {
    if (existsSync(path) && readFileSync(path, 'utf8') === text) return;
    stale++;
    if (values.check) console.log(`out of date: ${path}`);
    else {
      writeFileSync(path, text);
      console.log(`updated ${path}`);
    }
  };
  const chosen = labs.filter((l) => only.length === 0 || only.includes(l.id));
  // Every chosen lab measured first: a sheet or a page of docs/ may quote another lab's figures.
  const measured = new Map<string, LabResults[]>();
  if (!values.diffs) {
    for (const lab of chosen) measured.set(lab.id, (await runLabSeeds(lab, LAB_DEFAULTS)).perSeed);
  }
  const quoted = (lang: Lang) => (labId: string, questionId: string) => {
    const perSeed = measured.get(labId);
    const question = labs.find((l) => l.id === labId)?.questions.find((q) => q.id === questionId);
    if (perSeed && !question) throw new UserError(`a quoted figure names ${labId} ${questionId}, which is not a question of the catalogue`);
    return perSeed && question ? figureValue(question, perSeed, lang) : undefined;
  };
  for (const lab of chosen) {
    const perSeed = measured.get(lab.id);
    // The baseline's figures the lab shows before its questions (src/learn/reference.ts), and the sheets (src/learn/sheet-sync.ts).
    for (const file of labSheetFiles(lab, perSeed, seedsFrom(1, perSeed?.length ?? 1), CALLS, quoted)) sync(file.path, file.text);
  }
  // docs/workshop.md quotes figures in its table of what each lab shows; README.md and the other pages of docs/ may too.
  const pages: [string, Lang][] = [
    ...LANGS.map((lang): [string, Lang] => [join(REPO, lang === 'en' ? 'README.md' : `README.${lang}.md`), lang]),
    ...readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f): [string, Lang] => [join(REPO, 'docs', f), 'en']),
  ];
  for (const [path, lang] of pages) {
    if (existsSync(path)) sync(path, withQuotedFigures(readFileSync(path, 'utf8'), quoted(lang)));
  }
  if (values.check && stale > 0) return 1;
  if (stale === 0) console.log('every sheet is up to date');
  return 0;
}

process.exitCode = await runCommand('sheets', main);
