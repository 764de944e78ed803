/**
 * A long run says how far it is: on a terminal, once it has run more than a
 * second, a progress line counts the requests of all its runs together (the
 * newcomer who typed --calls 1000 saw nothing for a minute). Off a terminal
 * nothing is written, so --json and a redirected report stay clean.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KNOBS } from '../src/lab/knobs.js';
import { getProfile } from '../src/lab/profiles/index.js';
import { runLab } from '../src/lab/side-by-side.js';
import { lab } from './helpers/lab.js';
import { REPO } from './helpers/server.js';

/** The eval set's size, counted by hand in src/lab/requests/conjugate.json ("evaluation"). */
const EVAL_ITEMS = 30;

describe('progress', () => {
  it('counts every request of every run against one fixed total, and ends at it', async () => {
    const seen: [number, number][] = [];
    await runLab({
      variant: 'broken-schema',
      settings: { client: getProfile('faithful')!, server: 'mcpserver-1.32', seed: 1, calls: 20, knobs: DEFAULT_KNOBS },
      seeds: 2,
      solution: true,
      json: true,
      onProgress: (done, total) => seen.push([done, total]),
    });
    // Baseline, variant and solution, for each of two seeds: 20 requests and the eval each.
    const total = 2 * 3 * (20 + EVAL_ITEMS);
    expect(new Set(seen.map(([, t]) => t))).toEqual(new Set([total]));
    expect(seen.at(-1)).toEqual([total, total]);
    expect(seen.every(([done], i) => i === 0 || done >= seen[i - 1]![0])).toBe(true);
  });

  it('shows on a terminal for a long run, and never off one', () => {
    const args = ['--variant', 'baseline', '--calls', '1000', '--seeds', '3'];
    // `script` gives the command a terminal, as a learner's shell does.
    const tty = spawnSync('script', ['-qec', ['node', 'scripts/launch.mjs', 'scripts/lab.ts', ...args].join(' '), '/dev/null'], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', LANG: 'en_GB.UTF-8' }, timeout: 120_000 });
    expect(tty.status, tty.stdout).toBe(0);
    // The baseline alone, three seeds: 1000 requests and the eval each, several seconds of running.
    expect(tty.stdout).toMatch(/requests run: \d+ of 3090/);
    const piped = lab(args);
    expect(piped.status, piped.stderr).toBe(0);
    expect(`${piped.stdout}${piped.stderr}`).not.toMatch(/requests run/);
  });
});
