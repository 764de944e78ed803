/**
 * npm run sheets: rewrites what lab sheets take from elsewhere: the diffs they
 * include from breaks/ and solutions/, and the figures region, measured from
 * a run of the lab's own runs over its seeds (100 calls, seeds 1 on), and
 * labs/<id>/baseline.json, the baseline's figures the lab shows before its
 * questions, from the same run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { HELP_OPTION, optionsHelp, parseOptions } from '../src/core/options.js';
import { runCommand, UserError } from '../src/core/user-error.js';
import { LANGS, loadCatalogue } from '../src/learn/catalogue.js';
import { runLabSeeds } from '../src/learn/lab-runs.js';
import { baselineFigures, baselinePath, writeBaselineText } from '../src/learn/reference.js';
import { figuresRegion, hasFigures, sheetPath, withFigures, withIncludes } from '../src/learn/sheets.js';

/** The calls of each run a sheet's figures come from, seeds 1 on. */
const CALLS = 100;

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
  for (const lab of labs.filter((l) => only.length === 0 || only.includes(l.id))) {
    const files = LANGS.map((lang) => ({ lang, path: sheetPath(lab.id, lang) })).filter((f) => existsSync(f.path));
    const measured = !values.diffs ? await runLabSeeds(lab, { seed: 1, calls: CALLS }) : undefined;
    // The baseline's figures the lab shows before its questions (src/learn/reference.ts).
    if (measured) {
      const path = baselinePath(lab.id);
      const text = writeBaselineText(baselineFigures(lab, measured.perSeed, measured.seeds, CALLS));
      if (!existsSync(path) || readFileSync(path, 'utf8') !== text) {
        stale++;
        if (values.check) console.log(`out of date: ${path}`);
        else {
          writeFileSync(path, text);
          console.log(`updated ${path}`);
        }
      }
    }
    for (const { lang, path } of files) {
      const text = readFileSync(path, 'utf8');
      let synced = withIncludes(text);
      if (measured && hasFigures(text)) synced = withFigures(synced, figuresRegion(lab, measured.perSeed, measured.seeds, lang));
      if (synced === text) continue;
      stale++;
      if (values.check) console.log(`out of date: ${path}`);
      else {
        writeFileSync(path, synced);
        console.log(`updated ${path}`);
      }
    }
  }
  if (values.check && stale > 0) return 1;
  if (stale === 0) console.log('every sheet is up to date');
  return 0;
}

process.exitCode = await runCommand('sheets', main);
