/**
 * npm run sheets: rewrites the diffs that lab sheets include from breaks/ and
 * solutions/. With --check, changes nothing and exits 1 when a sheet is out of date.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../src/lab/paths.js';
import { withIncludes } from '../src/learn/sheets.js';

const check = process.argv.includes('--check');
let stale = 0;
for (const lab of readdirSync(join(REPO, 'labs'), { withFileTypes: true }).filter((d) => d.isDirectory())) {
  for (const file of readdirSync(join(REPO, 'labs', lab.name)).filter((f) => f.endsWith('.md'))) {
    const path = join(REPO, 'labs', lab.name, file);
    const text = readFileSync(path, 'utf8');
    const synced = withIncludes(text);
    if (synced === text) continue;
    stale++;
    if (check) console.log(`out of date: labs/${lab.name}/${file}`);
    else {
      writeFileSync(path, synced);
      console.log(`updated labs/${lab.name}/${file}`);
    }
  }
}
if (check && stale > 0) process.exitCode = 1;
else if (stale === 0) console.log('every sheet includes the current diffs');
