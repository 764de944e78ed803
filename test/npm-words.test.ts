/**
 * The commands as a newcomer types them, through the real `npm run` (issue
 * 23, points 5 and 6): the lab as a plain word with or without `--`, a
 * forgotten `--` named (npm keeps an option it does not know as its own
 * config, npm_config_<name>, and passes the script the rest), and every path
 * read from the folder the command was typed in (npm moves to the package
 * root and keeps that folder as INIT_CWD).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshCopy } from './helpers/copy.js';
import { SHORT_RUN } from './helpers/lab.js';

/** This test run's own environment without what an npm around it left there: the npm below sets its own. */
const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|INIT_CWD$)/i.test(key)));

function npm(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync('npm', ['run', '--silent', ...args], { cwd, encoding: 'utf8', env: { ...clean, NO_COLOR: '1', LANG: 'en_GB.UTF-8', ...env }, timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the lab as a plain word', () => {
  const dir = freshCopy();

  it.each([
    ['npm run lab broken-schema -- --hint 1', ['lab', 'broken-schema', '--', '--hint', '1']],
    ['npm run lab -- broken-schema --hint 1', ['lab', '--', 'broken-schema', '--hint', '1']],
  ])('%s shows the hint', (_typed, args) => {
    const result = npm(dir, args);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Hint 1$/m);
  });

  it('npm run lab broken-schema, with no `--` at all, is the lab (here: no learner named, then no terminal to predict in)', () => {
    // The lab's path first asks whose notes (a prediction locked earlier may spare the questions), then for a terminal.
    const result = npm(dir, ['lab', 'broken-schema']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^lab: Who is this for\? Add --learner/);
    const named = npm(dir, ['lab', 'broken-schema', '--', '--learner', 'Ana']);
    expect(named.status).toBe(2);
    expect(named.stderr).toMatch(/^lab: This terminal cannot answer questions/);
  });

  it.each([
    ['npm run check broken-schema -- --learner Ann', ['check', 'broken-schema', '--', '--learner', 'Ann']],
    ['npm run check -- broken-schema --learner Ann', ['check', '--', 'broken-schema', '--learner', 'Ann']],
  ])('%s looks for that lab', (_typed, args) => {
    const result = npm(dir, args);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^check: Ann has no workspace for broken-schema yet/);
  });
});

describe('a forgotten `--`', () => {
  const dir = freshCopy();

  // Each line written by hand from what npm does with the command (npm_config_<name>=true, the rest to the script).
  it.each([
    ['a string option', ['lab', '--variant', 'broken-schema'], 'lab: npm took --variant for itself: put `--` before the kit\'s options: npm run lab -- --variant broken-schema'],
    ['a flag npm reads as its own --read-only', ['lab', '--read', 'broken-schema'], 'lab: npm took --read for itself: put `--` before the kit\'s options: npm run lab -- --read broken-schema'],
    ['a flag npm does not know', ['lab', '--solution', 'broken-schema'], 'lab: npm took --solution for itself: put `--` before the kit\'s options: npm run lab -- --solution broken-schema'],
    ['an option of check', ['check', 'broken-schema', '--learner=Ann'], 'check: npm took --learner for itself: put `--` before the kit\'s options: npm run check -- --learner Ann broken-schema (npm run check -- --help)'],
  ])('%s is named, with the command to type', (_what, args, line) => {
    const result = npm(dir, args);
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(line);
  });

  it('the command it suggests works', () => {
    const result = npm(dir, ['lab', '--', '--read', 'broken-schema']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Learner: /);
  });

  it("npm's own settings in the environment (CI's npm_config_yes, a --json) give no false hint", () => {
    const result = npm(dir, ['lab', '--', 'broken-schema', '--hint', '1'], { npm_config_yes: 'true', npm_config_json: 'true', npm_config_all: 'true', npm_config_read_only: 'false' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Hint 1$/m);
  });
});

describe('paths typed in a subfolder', () => {
  it('--predict and --html are read and written there, and the notes are shown from there', () => {
    const dir = freshCopy();
    const sub = join(dir, 'my-work');
    mkdirSync(sub);
    writeFileSync(join(sub, 'p.json'), JSON.stringify({ answers: {}, reasoning: 'from my folder' }));
    const result = npm(sub, ['lab', '--', 'broken-schema', '--predict', 'p.json', '--learner', 'Cy', '--html', './page.html', ...SHORT_RUN]);
    expect(result.status, result.stderr).toBe(0);
    // Outside the folder typed in, a path is shown whole (src/core/cwd.ts, forUser): one to copy from where the learner is.
    expect(result.stdout.split('\n')[0]).toBe(`Learner: Cy (${join(dir, 'learners', 'Cy')}/)`);
    expect(result.stdout).toContain(`locked in ${join(dir, 'learners', 'Cy', 'notes', 'breaks.md')}`);
    expect(result.stdout).toMatch(/^wrote page\.html$/m);
    expect(existsSync(join(sub, 'page.html'))).toBe(true);
    expect(readFileSync(join(dir, 'learners', 'Cy', 'notes', 'breaks.jsonl'), 'utf8')).toContain('from my folder');
  }, 120_000);

  it('npm run report -- r.json reads and writes there', () => {
    const dir = freshCopy();
    const sub = join(dir, 'my-work');
    mkdirSync(sub);
    const run = npm(sub, ['lab', '--', '--variant', 'broken-schema', '--json', '--calls', '20']);
    expect(run.status, run.stderr).toBe(0);
    writeFileSync(join(sub, 'r.json'), run.stdout);
    const report = npm(sub, ['report', '--', 'r.json']);
    expect(report.status, report.stderr).toBe(0);
    // No -o: the page goes into the kit's out/ (src/core/file-option.ts), named as a path from where it was typed.
    expect(report.stdout.trim()).toBe(`wrote ${join(dir, 'out', 'r.html')}`);
    expect(existsSync(join(dir, 'out', 'r.html'))).toBe(true);
    const named = npm(sub, ['report', '--', 'r.json', '-o', 'mine.html']);
    expect(named.status, named.stderr).toBe(0);
    expect(existsSync(join(sub, 'mine.html'))).toBe(true);
    const missing = npm(sub, ['report', '--', 'nothere.json']);
    expect(missing.stderr).toMatch(/^report: nothere\.json: no such file/);
  }, 120_000);
});
