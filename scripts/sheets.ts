/**
 * npm run sheets: rewrites what lab sheets take from elsewhere: the diffs they
 * include from breaks/ and solutions/, and the figures region, measured from
 * a run of the lab's own runs over its seeds (100 calls, seeds 1 on).
 * With --check, changes nothing and exits 1 when a sheet is out of date.
 * With --diffs, only the diffs (fast: no runs). Lab ids as arguments: only those labs' sheets.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { LANGS, loadCatalogue } from '../src/learn/catalogue.js';
import { runLabSeeds } from '../src/learn/lab-runs.js';
import { figuresRegion, hasFigures, sheetPath, withFigures, withIncludes } from '../src/learn/sheets.js';

const check = process.argv.includes('--check');
const diffsOnly = process.argv.includes('--diffs');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
let stale = 0;
for (const lab of loadCatalogue().filter((l) => only.length === 0 || only.includes(l.id))) {
  const files = LANGS.map((lang) => ({ lang, path: sheetPath(lab.id, lang) })).filter((f) => existsSync(f.path));
  const measured = !diffsOnly && files.some((f) => hasFigures(readFileSync(f.path, 'utf8'))) ? await runLabSeeds(lab, { seed: 1, calls: 100 }) : undefined;
  for (const { lang, path } of files) {
    const text = readFileSync(path, 'utf8');
    let synced = withIncludes(text);
    if (measured) synced = withFigures(synced, figuresRegion(lab, measured.perSeed, measured.seeds, lang));
    if (synced === text) continue;
    stale++;
    if (check) console.log(`out of date: ${path}`);
    else {
      writeFileSync(path, synced);
      console.log(`updated ${path}`);
    }
  }
}
if (check && stale > 0) process.exitCode = 1;
else if (stale === 0) console.log('every sheet is up to date');
