/**
 * Whose work a command acts for, and what Ctrl+C kept: two learners sharing
 * one copy of the kit (issue 23, points 3 and 4), through the real commands
 * as child processes and a real terminal for the prompts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshCopy } from './helpers/copy.js';
import { launched, SHORT_RUN } from './helpers/lab.js';
import { Terminal } from './helpers/pty.js';

const EN = { LANG: 'en_GB.UTF-8' };

/** The command typed at the copy's root: INIT_CWD as npm sets it (not the one this test run inherited). */
function lab(dir: string, args: string[]) {
  return launched('scripts/lab.ts', args, dir, { ...EN, INIT_CWD: dir });
}
function check(dir: string, args: string[]) {
  return launched('scripts/check.ts', args, dir, { ...EN, INIT_CWD: dir });
}
const firstLine = (text: string) => text.split('\n')[0];
const journal = (dir: string, name: string) =>
  readFileSync(join(dir, 'learners', name, 'notes', 'breaks.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { kind: string; lab: string });

describe('every learner command says whom it acts for', () => {
  it('on its first line, and check names the learner it looked for and who has a workspace', () => {
    const dir = freshCopy();
    // Written by hand: the line the issue asks for, with the folder as typed from the kit's root.
    const ana = 'Learner: Ana María (learners/Ana María/)';
    const bea = 'Learner: Bea (learners/Bea/)';

    const run = lab(dir, ['--variant', 'broken-schema', '--no-predict', '--learner', 'Ana María', ...SHORT_RUN]);
    expect(run.status, run.stderr).toBe(0);
    expect(firstLine(run.stdout)).toBe(ana);
    const ws = lab(dir, ['--variant', 'broken-schema', '--workspace']);
    expect(ws.status, ws.stderr).toBe(0);
    expect(firstLine(ws.stdout)).toBe(ana);

    // Bea takes over the copy: her commands say so, and check does not pretend Ana's workspace is not there.
    expect(lab(dir, ['--variant', 'broken-schema', '--no-predict', '--learner', 'Bea', ...SHORT_RUN]).status).toBe(0);
    const catalogue = lab(dir, []);
    expect(firstLine(catalogue.stdout)).toBe(bea);
    const read = lab(dir, ['--variant', 'broken-schema', '--read']);
    expect(firstLine(read.stdout)).toBe(bea);
    const hint = lab(dir, ['--variant', 'broken-schema', '--hint', '2']);
    expect(firstLine(hint.stdout)).toBe(bea);
    const none = check(dir, ['broken-schema']);
    expect(none.status).toBe(2);
    expect(firstLine(none.stdout)).toBe(bea);
    expect(none.stderr).toMatch(/^check: Bea has no workspace for broken-schema yet \(learners\/Bea\/workspace\/broken-schema\)/);
    expect(none.stderr).toContain('Learners with a workspace for broken-schema: Ana María.');
    expect(none.stderr).toContain('npm run check -- broken-schema --learner "Ana María"');

    // Ana's fix, checked as Ana: her check and her reset say it is hers.
    const file = join(dir, 'learners', 'Ana María', 'workspace', 'broken-schema', 'src', 'minimcp', 'tools', 'conjugate.ts');
    // Lab 1's fix as the sheet words it: the break undone and the executor typed from the schema.
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('}).partial();', '});')
        .replace(/interface ConjugateInput \{[^}]*\}/, 'type ConjugateInput = z.infer<typeof ConjugateArgs>;'),
    );
    const fixed = check(dir, ['broken-schema', '--learner', 'Ana María']);
    expect(fixed.status, fixed.stdout + fixed.stderr).toBe(0);
    expect(firstLine(fixed.stdout)).toBe(ana);
    const reset = lab(dir, ['--variant', 'broken-schema', '--reset', '--yes', '--learner', 'Bea']);
    expect(reset.status, reset.stderr).toBe(0);
    expect(firstLine(reset.stdout)).toBe(bea);

    // --learners: both, with their labs run and fixed (counted by hand from the commands above), Bea current.
    const list = lab(dir, ['--learners']);
    expect(list.status, list.stderr).toBe(0);
    const lines = list.stdout.split('\n');
    expect(lines.find((l) => l.includes('Ana María'))).toMatch(/^ {2}Ana María\s+1 run · 1 fixed$/);
    expect(lines.find((l) => l.includes('Bea'))).toMatch(/^\* Bea\s+1 run · 0 fixed\s+\(current/);
  }, 120_000);

  it('a hint shows the learner\'s own folder, not learners/<name>/', () => {
    const dir = freshCopy();
    expect(lab(dir, ['--variant', 'broken-schema', '--no-predict', '--learner', 'Ana María', ...SHORT_RUN]).status).toBe(0);
    const hint = lab(dir, ['--variant', 'broken-schema', '--hint', '2']);
    expect(hint.status, hint.stderr).toBe(0);
    expect(hint.stdout).not.toContain('<name>');
    expect(hint.stdout.replace(/\s+/g, ' ')).toContain('learners/Ana María/workspace/broken-schema/src/minimcp/tools/conjugate.ts');
  }, 60_000);
});

describe('Ctrl+C says what was kept', () => {
  /** Predictions from a file (no answers needed): the prompts left are the run and the reflection after it. */
  function predicted(dir: string): string {
    writeFileSync(join(dir, 'p.json'), JSON.stringify({ answers: {}, reasoning: 'a guess' }));
    return 'npm run --silent lab -- --variant broken-schema --learner Bea --predict p.json';
  }

  it('at the last question: the prediction and the run, not the reflection; the learner is remembered', async () => {
    const dir = freshCopy();
    const term = new Terminal(predicted(dir), dir, EN);
    await term.waitFor(/What did you assume/, 90_000);
    term.type('\u0003');
    expect(await term.done()).toBe(130);
    expect(term.screen()).toContain('Interrupted: your prediction and the run are saved in learners/Bea/notes/breaks.md; your reflection was not.');
    expect(term.screen()).not.toContain('nothing was written');
    expect(journal(dir, 'Bea').map((e) => e.kind)).toEqual(['prediction', 'run']);
    expect(readFileSync(join(dir, 'learners', '.current'), 'utf8').trim()).toBe('Bea');
  }, 120_000);

  it('during the run: the locked prediction, and the run was not saved', async () => {
    const dir = freshCopy();
    // 1,000 calls a seed: a run long enough for Ctrl+C to land inside it, even on a fast machine.
    const term = new Terminal(`${predicted(dir)} --calls 1000`, dir, EN);
    await term.waitFor(/Running: /, 60_000);
    term.type('\u0003');
    expect(await term.done()).toBe(130);
    expect(term.screen()).toContain('Interrupted: your prediction is locked in learners/Bea/notes/breaks.md; the run was not saved (run it again: npm run lab -- --variant broken-schema).');
    expect(journal(dir, 'Bea').map((e) => e.kind)).toEqual(['prediction']);
    expect(readFileSync(join(dir, 'learners', '.current'), 'utf8').trim()).toBe('Bea');
  }, 120_000);

  it('before anything is written: nothing, and no learner is remembered', async () => {
    const dir = freshCopy();
    const term = new Terminal('npm run --silent lab -- --variant broken-schema --learner Bea', dir, EN);
    await term.waitFor(/^\? /m, 60_000);
    term.type('\u0003');
    expect(await term.done()).toBe(130);
    expect(term.screen()).toContain('Interrupted: nothing was written for this run.');
    expect(existsSync(join(dir, 'learners', 'Bea', 'notes', 'breaks.jsonl'))).toBe(false);
    expect(existsSync(join(dir, 'learners', '.current'))).toBe(false);
  }, 60_000);
});
