/**
 * The sweep keeps each run by content (src/class/sweep-cache.ts): a second
 * sweep with nothing changed measures nothing, and a change to any input of a
 * run (its server's bytes, its settings, the model's knobs, the runner's or a
 * profile's code) measures that run again, and only the runs it reaches.
 *
 * Through the real thing: the sweep command in its own process, on a copy of
 * the kit in a temporary folder (its node_modules linked to the kit's), where
 * each input is changed in turn, as an instructor edits while preparing.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync, appendFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from './helpers/server.js';
import { linkHosts } from './helpers/kit-copy.js';

/**
 * The sweep asked for: two labs under one client and one server build, 3 calls.
 * Its runs, counted by hand from the patches and labs/catalogue.json:
 * - broken-schema (conjugations): the baseline, the break, the break with its fix (which adds a check: other bytes) = 3;
 * - unreachable-filter (lessons, so a baseline of its own): the baseline, the break; its fix puts back
 *   the very line the break takes out, so it is the baseline's server with the same settings, measured once = 2.
 * Five runs, two cells.
 */
const ARGS = ['--labs', 'broken-schema,unreachable-filter', '--clients', 'faithful', '--servers', 'low-level', '--calls', '3', '--jobs', '1', '--lang', 'en', '--out', 'out/sweep.html'];
const RUNS = 5;
const CELLS = 2;

let kit: string;

/** The sweep command in the copy: what its cache line says. */
function sweepIn(extra: string[] = []): { measured: number; cachedRuns: number; cachedCells: number } {
  const result = spawnSync(process.execPath, ['scripts/launch.mjs', 'scripts/class.ts', 'sweep', ...ARGS, ...extra], {
    cwd: kit,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', INIT_CWD: kit },
    timeout: 240_000,
  });
  expect(result.status, result.stderr).toBe(0);
  const line = /cache \(out\/sweep-cache\/\): (\d+) of (\d+) cells taken from it \((\d+) runs\), (\d+) runs measured now/.exec(result.stdout);
  expect(line, result.stdout).not.toBeNull();
  expect(Number(line![2])).toBe(CELLS);
  return { cachedCells: Number(line![1]), cachedRuns: Number(line![3]), measured: Number(line![4]) };
}

/** Replaces one exact text in a file of the copy (failing when it is not there, so that no step changes nothing by mistake). */
function edit(file: string, from: string, to: string): void {
  const path = join(kit, file);
  const text = readFileSync(path, 'utf8');
  expect(text.includes(from), `${file} has ${from}`).toBe(true);
  writeFileSync(path, text.replace(from, to));
}

/** A statement with an effect, which no bundler leaves out: the file's bundles change bytes, and nothing it computes does. */
const touch = (file: string) => appendFileSync(join(kit, file), `\n(globalThis as Record<string, unknown>).sweepCacheTest = ${JSON.stringify(file)};\n`);

beforeAll(() => {
  kit = mkdtempSync(join(tmpdir(), 'schema-breaks-sweep-cache-'));
  for (const dir of ['src', 'contract', 'labs', 'breaks', 'solutions', 'scripts']) cpSync(join(REPO, dir), join(kit, dir), { recursive: true });
  for (const file of ['package.json', 'package-lock.json', 'tsconfig.json']) if (existsSync(join(REPO, file))) cpSync(join(REPO, file), join(kit, file));
  symlinkSync(join(REPO, 'node_modules'), join(kit, 'node_modules'), 'dir');
  linkHosts(kit);
});

afterAll(() => {
  if (kit) rmSync(kit, { recursive: true, force: true });
});

describe('the sweep, run again', () => {
  /**
   * Each step changes one thing in the copy, from where the step before left
   * it, then sweeps with ARGS (and the step's options): the runs it must
   * measure, counted by hand (the rest come from the cache).
   */
  const STEPS: [what: string, change: () => string[] | void, measured: number, cachedCells: number][] = [
    ['the first sweep: every run', () => {}, RUNS, 0],
    ['nothing changed: none', () => {}, 0, CELLS],
    ['--fresh: every run again', () => ['--fresh'], RUNS, 0],
    ['another seed (a setting): every run', () => ['--seed', '2'], RUNS, 0],
    ['another number of calls (a setting): every run', () => ['--calls', '4'], RUNS, 0],
    ['back to the first settings: none, they were kept', () => {}, 0, CELLS],
    [
      // Its fix puts back the line its break changes: the fixed server is the same bytes as before, kept.
      "broken-schema's break (its fix's context with it): its break alone, not its fix, not its baseline, not the other lab",
      () => {
        edit('breaks/broken-schema.patch', '+}).partial();', "+}).partial().describe('Conjugates a verb.');");
        edit('solutions/broken-schema.patch', '-}).partial();', "-}).partial().describe('Conjugates a verb.');");
      },
      1,
      1,
    ],
    ["broken-schema's fix alone: its fix", () => edit('solutions/broken-schema.patch', "problem: 'is required but missing'", "problem: 'is required, and missing'"), 1, 1],
    ["the model's knobs (src/lab/knobs.ts): every run", () => edit('src/lab/knobs.ts', 'dropRequired: 16 / 8403,', 'dropRequired: 17 / 8403,'), RUNS, 0],
    ["the runner's code (src/lab/runner.ts): every run", () => touch('src/lab/runner.ts'), RUNS, 0],
    ["the client profile's code (src/lab/profiles/faithful.ts): every run", () => touch('src/lab/profiles/faithful.ts'), RUNS, 0],
    ["the server's own sources (src/minimcp/server.ts, in every server): every run", () => touch('src/minimcp/server.ts'), RUNS, 0],
    ['code no run reads (the sweep page, src/class/sweep-page.ts): none', () => touch('src/class/sweep-page.ts'), 0, CELLS],
  ];

  // A cell comes from the cache when all its runs do: after a change to one lab, the other lab's cell.
  it.each(STEPS.map((step, i) => [i + 1, ...step] as const))('step %i, %s', (_i, _what, change, measured, cells) => {
    const options = change() ?? [];
    expect(sweepIn(options)).toEqual({ measured, cachedRuns: RUNS - measured, cachedCells: cells });
  }, 240_000);
});

describe('the folder of runs', () => {
  /**
   * The sweep keeps the 4,000 runs used last (src/class/sweep-cache.ts says why that many): runs of an older version
   * of the kit, used by no sweep since, go first. Filled here with 4,000 runs nothing reads, dated 2020, the runs the
   * steps above kept dated 2019, then one sweep that changes nothing: the folder is 4,000 runs after it, and of the
   * runs kept before it, exactly the five it used (taking a run marks it used; the other 2019 runs are the oldest).
   */
  it('ends each sweep by removing all but the 4,000 runs used last', () => {
    const folder = join(kit, 'out', 'sweep-cache');
    // The runs this sweep uses are in the folder (measured now, or kept by the steps above).
    sweepIn();
    const before = new Set(readdirSync(folder));
    for (let i = 0; i < 4000; i++) {
      const file = join(folder, `${i.toString(16).padStart(64, '0')}.json`);
      writeFileSync(file, '{}\n');
      const at = new Date(Date.UTC(2020, 0, 1) + i * 1000);
      utimesSync(file, at, at);
    }
    const older = new Date('2019-01-01T00:00:00Z');
    for (const f of before) utimesSync(join(folder, f), older, older);
    expect(sweepIn()).toEqual({ measured: 0, cachedRuns: RUNS, cachedCells: CELLS });
    const after = readdirSync(folder).filter((f) => f.endsWith('.json'));
    expect(after.length).toBe(4000);
    expect(before.size).toBeGreaterThanOrEqual(RUNS);
    expect(after.filter((f) => before.has(f)).length).toBe(RUNS);
  }, 240_000);
});
