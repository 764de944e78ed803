/**
 * A lab in a live class (issue 24; src/learn/flow.ts with src/learn/live.ts),
 * through the real command in a fresh copy of the kit against a stub class
 * (test/helpers/class-stub.ts): before the instructor reveals the lab, the
 * prediction is locked, sent, and the command stops; a second try is a
 * revision; after the reveal the lab runs with the prediction locked before
 * it, not a new one, and --reflect writes the reflection. A class that is
 * down or hangs keeps the lab held (issue 35), said in one line; --unheld
 * runs it deliberately.
 *
 * The labs run with --seeds 1 --calls 20 (the lab's own runs, fewer of them):
 * what is tested is the flow around the run, not its figures.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshCopy } from './helpers/copy.js';
import { ClassStub, labIn } from './helpers/class-stub.js';
import { Terminal } from './helpers/pty.js';
import type { JournalEntry } from '../src/learn/journal.js';

let dir: string;
const stub = new ClassStub();
const LAB = 'root-transform-shape';
const SMALL = ['--seeds', '1', '--calls', '20'];

beforeAll(async () => {
  dir = freshCopy();
  await stub.start();
});
afterAll(() => stub.stop());
afterEach(() => stub.reset());

const journal = (name: string): JournalEntry[] =>
  readFileSync(join(dir, 'learners', name, 'notes', 'breaks.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as JournalEntry);

/** A predictions file (the format docs/learning.md gives --predict): the lab's three questions. */
function predictions(file: string, finalOk: number, failure: string, retries: number): string {
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify({ answers: { 'final-ok': finalOk, 'dominant-failure': failure, 'retries-per-failing-call': retries }, reasoning: `guess ${finalOk}` }));
  return path;
}

async function join_(name: string): Promise<void> {
  const ran = await labIn(dir, ['--join', stub.url, '--code', stub.code, '--learner', name]);
  expect(ran.status, ran.stderr).toBe(0);
}

describe('a lab the instructor has not revealed', () => {
  it('locks the prediction, sends it and stops; again: a revision; after the reveal: runs with the locked one, and --reflect writes the reflection', async () => {
    await join_('Ana');
    const first = predictions('ana-1.json', 40, '-32603', 2);
    const held = await labIn(dir, ['--variant', LAB, '--predict', first, '--reflect', 'too early', ...SMALL]);
    expect(held.status, held.stderr).toBe(0);
    expect(held.stderr).toBe('');
    expect(held.stdout).toContain(`Learner: Ana (learners/Ana/), in the class at ${stub.url}`);
    expect(held.stdout).toContain('Predictions saved and locked in learners/Ana/notes/breaks.md');
    // Told before the questions that nothing runs yet (not "locked once the run starts").
    expect(held.stdout).toContain('In this class the lab waits for the reveal');
    expect(held.stdout).not.toContain('locked once the run starts');
    expect(held.stdout).toContain(`Your prediction is with the class. The room discusses it, then the instructor reveals the measurement. Run the lab again to revise your prediction, or once the measurement is revealed, to run it: npm run lab -- --variant ${LAB}`);
    expect(held.stdout).toContain('--reflect: not written, as nothing ran yet');
    expect(held.stdout).not.toContain('Running');
    let entries = journal('Ana');
    expect(entries.map((e) => e.kind)).toEqual(['prediction']);
    expect(entries[0]!.data.answers).toEqual({ 'final-ok': 40, 'dominant-failure': 'rpc:-32603', 'retries-per-failing-call': 2 });
    expect(stub.kept.get(entries[0]!.id)).toEqual({ entry: entries[0], sends: 1 });

    // Run again before the reveal: a revision, sent, held again.
    const second = predictions('ana-2.json', 10, 'isError', 7);
    const revised = await labIn(dir, ['--variant', LAB, '--predict', second, ...SMALL]);
    expect(revised.status, revised.stderr).toBe(0);
    expect(revised.stdout).toContain('This will be saved as a revision');
    expect(revised.stdout).toContain('Your prediction is with the class.');
    entries = journal('Ana');
    expect(entries.map((e) => e.kind)).toEqual(['prediction', 'revision']);
    expect(stub.kept.get(entries[1]!.id)).toEqual({ entry: entries[1], sends: 1 });

    // The reveal: the lab runs, compared with the revision (locked before it), not with a file given now.
    stub.revealed = [LAB];
    const late = predictions('ana-3.json', 99, 'no-call', 0);
    const ran = await labIn(dir, ['--variant', LAB, '--predict', late, '--reflect', 'I assumed the shape kept the schema', ...SMALL]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stderr).toBe('');
    const revisedAt = entries[1]!.at.slice(0, 16).replace('T', ' ');
    expect(ran.stdout).toContain(`Your prediction locked on ${revisedAt} UTC is the one compared: it was made before this run, so it is not asked again.`);
    expect(ran.stdout).toContain('ana-3.json was not read: this run already has its prediction.');
    expect(ran.stdout).toContain('Your predictions next to what was measured');
    entries = journal('Ana');
    expect(entries.map((e) => e.kind)).toEqual(['prediction', 'revision', 'run', 'reflection']);
    const predicted = Object.fromEntries((entries[2]!.data.comparison as { question: string; predicted: unknown }[]).map((row) => [row.question, row.predicted]));
    expect(predicted).toEqual({ 'final-ok': 10, 'dominant-failure': 'isError', 'retries-per-failing-call': 7 });
    expect(entries[3]!.data).toEqual({ text: 'I assumed the shape kept the schema', lang: 'en' });
    // The class has every entry once, as written.
    for (const entry of entries) expect(stub.kept.get(entry.id)).toEqual({ entry, sends: 1 });
    const sent = JSON.parse(readFileSync(join(dir, 'learners', 'Ana', 'notes', '.sent.json'), 'utf8')).ids;
    expect(sent.sort()).toEqual(entries.map((e) => e.id).sort());
  });

  it('in a terminal: the questions, then held; after the reveal not asked again, and the reflection asked', async () => {
    await join_('Flo');
    const command = `node scripts/launch.mjs scripts/lab.ts --variant ${LAB} ${SMALL.join(' ')}`;
    const env = { LC_ALL: 'en_GB.UTF-8', INIT_CWD: dir };
    const term = new Terminal(command, dir, env);
    // Numbers first, then the typed outcome (src/learn/predictions.ts asks them in that order).
    let at = await term.answer(/\? Registered through `\.shape`, how many of 100 calls will end ok/, '60');
    at = await term.answer(/\? For each call whose first attempt failed/, '3', at);
    at = await term.answer(/\? Apart from ok, which result/, 'isError', at);
    await term.answer(/why do you expect that\?/, 'the shape is lost', at);
    await term.waitFor(/Your prediction is with the class\./);
    expect(await term.done()).toBe(0);
    expect(term.screen()).not.toContain('Running');
    const [prediction] = journal('Flo');
    expect(prediction!.data.answers).toEqual({ 'final-ok': 60, 'dominant-failure': 'isError', 'retries-per-failing-call': 3 });
    expect(stub.kept.get(prediction!.id)).toEqual({ entry: prediction, sends: 1 });

    stub.revealed = [LAB];
    const after = new Terminal(command, dir, env);
    await after.waitFor(/What did you assume that turned out wrong\?/, 60_000);
    after.type('that the schema survives .shape\r');
    expect(await after.done()).toBe(0);
    expect(after.screen()).toContain('is the one compared: it was made before this run, so it is not asked again.');
    expect(after.screen()).not.toMatch(/\? Registered through/);
    const entries = journal('Flo');
    expect(entries.map((e) => e.kind)).toEqual(['prediction', 'run', 'reflection']);
    for (const entry of entries) expect(stub.kept.get(entry.id)).toEqual({ entry, sends: 1 });
  }, 120_000);

  it('--no-predict does not run it before the reveal', async () => {
    await join_('Bo');
    const ran = await labIn(dir, ['--variant', LAB, '--no-predict', ...SMALL]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toContain(`The class has not seen this lab's measurement yet: predict first (npm run lab -- --variant ${LAB}); the lab runs once the instructor reveals it.`);
    expect(ran.stdout).not.toContain('Running');
  });

  it('in Spanish', async () => {
    await join_('Cía');
    const ran = await labIn(dir, ['--variant', LAB, '--predict', predictions('cia.json', 50, 'isError', 1), ...SMALL], { LC_ALL: 'es_ES.UTF-8' });
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toContain(`Participante: Cía (learners/Cía/), en la clase de ${stub.url}`);
    expect(ran.stdout).toContain('Tu predicción ya está en la clase.');
  });
});

describe('a class that does not answer: the lab stays held (issue 35)', () => {
  it('down: the prediction is locked and kept, one line says the lab stays held, no measurement is shown; --unheld runs it deliberately; the next command delivers', async () => {
    await join_('Dev');
    await stub.down();
    const ran = await labIn(dir, ['--variant', LAB, '--predict', predictions('dev.json', 50, 'isError', 1), '--reflect', 'offline', ...SMALL]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).not.toContain('Running');
    expect(ran.stdout).not.toContain('Your predictions next to what was measured');
    // The one line, with the reason and the way out.
    const line = `The class at ${stub.url} cannot be reached (cannot connect: ECONNREFUSED), so this lab stays held: its measurement is not shown before the instructor reveals it. To run it anyway: npm run lab -- --variant ${LAB} --unheld`;
    expect(ran.stdout.split('\n').filter((l) => l.includes('cannot be reached'))).toEqual([line]);
    expect(ran.stdout).not.toContain('Your prediction is with the class.');
    expect(ran.stderr).toBe('Not sent to the class (cannot connect: ECONNREFUSED): kept locally, will send later (1 waiting).\n');
    expect(journal('Dev').map((e) => e.kind)).toEqual(['prediction']);
    // --no-predict: the same line, nothing runs.
    const bare = await labIn(dir, ['--variant', LAB, '--no-predict', ...SMALL]);
    expect(bare.stdout).toContain(line);
    expect(bare.stdout).not.toContain('Running');

    // Deliberately: --unheld runs it, compared with the prediction locked before.
    const unheld = await labIn(dir, ['--variant', LAB, '--unheld', '--reflect', 'offline', ...SMALL]);
    expect(unheld.status, unheld.stderr).toBe(0);
    expect(unheld.stdout).toContain('Your predictions next to what was measured');
    const entries = journal('Dev');
    expect(entries.map((e) => e.kind)).toEqual(['prediction', 'run', 'reflection']);

    await stub.start();
    const next = await labIn(dir, ['--learners']);
    expect(next.stderr).toBe('');
    for (const entry of entries) expect(stub.kept.get(entry.id)).toEqual({ entry, sends: 1 });
  });

  it('in Spanish, the same line', async () => {
    await join_('Dora');
    await stub.down();
    const ran = await labIn(dir, ['--variant', LAB, '--no-predict', ...SMALL], { LC_ALL: 'es_ES.UTF-8' });
    expect(ran.stdout).toContain(`No se puede contactar con la clase en ${stub.url} (no se puede conectar: ECONNREFUSED), así que este laboratorio sigue retenido`);
    const help = await labIn(dir, ['--help'], { LC_ALL: 'es_ES.UTF-8' });
    expect(help.stdout).toMatch(/--unheld\s+ejecutar ya, a propósito, un laboratorio que la clase retiene/);
  });

  it('hanging: every request of the command together gives up within about a second, and the lab stays held', async () => {
    await join_('Eli');
    stub.mode = 'hang';
    const from = stub.received.length;
    const ran = await labIn(dir, ['--variant', LAB, '--predict', predictions('eli.json', 50, 'isError', 1), '--reflect', 'slow class', ...SMALL]);
    stub.mode = 'ok';
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).not.toContain('Your predictions next to what was measured');
    expect(ran.stdout).toContain(`The class at ${stub.url} cannot be reached (no answer within 1000 ms), so this lab stays held`);
    expect(ran.stderr).toBe('Not sent to the class (no answer within 1000 ms): kept locally, will send later (1 waiting).\n');
    // What the class saw: the request asking what is revealed, which used up the second; nothing after it was tried.
    const hung = stub.received.slice(from);
    expect(hung.map((r) => r.route)).toEqual(['/api/join']);
    await expect.poll(() => hung.every((r) => r.closedAt !== undefined)).toBe(true);
    const waited = hung.reduce((sum, r) => sum + (r.closedAt! - r.at), 0);
    expect(waited).toBeLessThan(1300);
    expect(journal('Eli').map((e) => e.kind)).toEqual(['prediction']);
  });
});
