/**
 * The learner's side of the live class (issue 24, src/learn/class-link.ts and
 * live.ts): `npm run lab -- --join URL --code CODE`, and the queue of entries
 * each later command sends, through the real command in a fresh copy of the
 * kit, against a stub class in this process (test/helpers/class-stub.ts).
 * The held flow (a lab waiting for the reveal) is test/class-join-flow.test.ts.
 *
 * Expected values are written here by hand: the entries (as the journal
 * format of src/learn/journal.ts writes them), the wire's fields
 * (src/learn/class-wire.ts) and the texts the issue asks for.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshCopy } from './helpers/copy.js';
import { ClassStub, commandIn, labIn } from './helpers/class-stub.js';
import type { JournalEntry } from '../src/learn/journal.js';

let dir: string;
const stub = new ClassStub();

beforeAll(async () => {
  dir = freshCopy();
  await stub.start();
});
afterAll(() => stub.stop());
afterEach(() => stub.reset());

const learnerFile = (name: string, ...parts: string[]) => join(dir, 'learners', name, ...parts);
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const sentIds = (name: string): string[] => (existsSync(learnerFile(name, 'notes', '.sent.json')) ? readJson(learnerFile(name, 'notes', '.sent.json')).ids.slice().sort() : []);

async function joined(name: string): Promise<{ joinedAt: string; device: string; secret: string }> {
  stub.mode = 'ok';
  const ran = await labIn(dir, ['--join', stub.url, '--code', stub.code, '--learner', name]);
  expect(ran.status, ran.stderr).toBe(0);
  return readJson(learnerFile(name, 'class.json'));
}

/** Journal lines written by hand, as breaks.jsonl holds them (one JSON object a line: id, kind, lab, at, data). */
function write(name: string, entries: JournalEntry[]): void {
  mkdirSync(learnerFile(name, 'notes'), { recursive: true });
  appendFileSync(learnerFile(name, 'notes', 'breaks.jsonl'), entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
}

/** Entries of every kind, `seconds` after `joinedAt`, with ids made of `tag`. */
function entriesAfter(joinedAt: string, tag: string): { sent: JournalEntry[]; kept: JournalEntry[] } {
  const at = (seconds: number) => new Date(Date.parse(joinedAt) + seconds * 1000).toISOString();
  const prediction: JournalEntry = { id: `${tag}-prediction`, kind: 'prediction', lab: 'broken-schema', at: at(1), data: { answers: { 'missing-arguments': 30, 'dominant-failure': '-32603' }, reasoning: 'partial calls crash inside', lang: 'en' } };
  const fixed: JournalEntry = { id: `${tag}-fixed`, kind: 'fixed', lab: 'broken-schema', at: at(2), data: { note: 'fixed', lang: 'en' } };
  const run: JournalEntry = { id: `${tag}-run`, kind: 'run', lab: 'broken-schema', at: at(3), data: { measured: { 'missing-arguments': 31.4 }, lang: 'en' } };
  const reflection: JournalEntry = { id: `${tag}-reflection`, kind: 'reflection', lab: 'broken-schema', at: at(4), data: { text: 'I expected -32602 «ñ»', lang: 'en' } };
  const before: JournalEntry = { id: `${tag}-before`, kind: 'prediction', lab: 'broken-schema', at: '2020-01-01T00:00:00.000Z', data: { answers: {}, reasoning: '', lang: 'en' } };
  // Sent: prediction, revision, run, reflection written since the join; kept on the laptop: 'fixed', and what came before the join.
  return { sent: [prediction, run, reflection], kept: [before, fixed] };
}

describe('--join URL --code CODE', () => {
  it('asks the class, remembers it beside the learner, and says so; a rejoin keeps the device; --leave forgets it', async () => {
    const from = stub.received.length;
    // The code as read off a projector: lower case, a space in it.
    const ran = await labIn(dir, ['--join', `${stub.url}/`, '--code', 'k7q x2m', '--learner', 'Ana']);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stderr).toBe('');
    expect(ran.stdout).toContain(`Joined the class "Room 1" at ${stub.url}`);
    expect(ran.stdout).toContain(`Learner: Ana (learners/Ana/), in the class at ${stub.url}`);
    const link = readJson(learnerFile('Ana', 'class.json'));
    expect(Object.keys(link).sort()).toEqual(['code', 'device', 'joinedAt', 'secret', 'url']);
    // The secret the class issued to this laptop at its first join (issue 35, D2), kept beside the device.
    expect(link.secret).toBe(stub.secrets.get(link.device));
    expect(link.url).toBe(stub.url);
    expect(link.code).toBe('K7QX2M');
    expect(link.device).toMatch(/^[0-9a-f]{16}$/);
    expect(Math.abs(Date.parse(link.joinedAt) - Date.now())).toBeLessThan(60_000);
    expect(stub.received.slice(from)).toHaveLength(1);
    expect(stub.received[from]!.route).toBe('/api/join');
    expect(stub.received[from]!.body).toEqual({ code: 'K7QX2M', learner: 'Ana', device: link.device });
    expect(readFileSync(join(dir, 'learners', '.current'), 'utf8')).toBe('Ana\n');

    const again = await labIn(dir, ['--join', stub.url, '--code', 'K7QX2M']);
    expect(again.status, again.stderr).toBe(0);
    expect(readJson(learnerFile('Ana', 'class.json'))).toEqual(link);

    const left = await labIn(dir, ['--leave']);
    expect(left.status, left.stderr).toBe(0);
    expect(left.stdout).toContain(`Left the class at ${stub.url}`);
    expect(existsSync(learnerFile('Ana', 'class.json'))).toBe(false);
    expect((await labIn(dir, ['--leave'])).stdout).toContain('Not in a class: nothing to leave.');
  });

  it('a wrong code: one line, exit 2, nothing remembered', async () => {
    const ran = await labIn(dir, ['--join', stub.url, '--code', 'AAAAAA', '--learner', 'Bea']);
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(`lab: The class at ${stub.url} refused the code AAAAAA: check it on the projector and join again. Nothing was remembered.\n`);
    expect(existsSync(learnerFile('Bea'))).toBe(false);
  });

  it('an address where another server answers: one line, exit 2, nothing remembered', async () => {
    stub.mode = 'other';
    const ran = await labIn(dir, ['--join', stub.url, '--code', stub.code, '--learner', 'Ivo']);
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(`lab: ${stub.url} did not take the join (its answer is not a class's): is it the address the instructor shows? Nothing was remembered.\n`);
    expect(existsSync(learnerFile('Ivo'))).toBe(false);
  });

  it('a class that does not answer: remembered all the same, one line saying so', async () => {
    const down = new ClassStub();
    await down.start();
    await down.down();
    const ran = await labIn(dir, ['--join', down.url, '--code', 'K7QX2M', '--learner', 'Cy']);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(new RegExp(`^The class at ${down.url} did not answer \\(cannot connect: ECONNREFUSED\\)\\. Remembered all the same`, 'm'));
    expect(readJson(learnerFile('Cy', 'class.json')).url).toBe(down.url);
    expect(readJson(learnerFile('Cy', 'class.json')).secret).toBeUndefined();

    // No secret yet (issue 35, D2): once the class answers, a join brings it before the first entry goes.
    await down.start();
    const { joinedAt } = readJson(learnerFile('Cy', 'class.json'));
    write('Cy', entriesAfter(joinedAt, 'cy').sent.slice(0, 1));
    const from = down.received.length;
    const next = await labIn(dir, ['--learners', '--learner', 'Cy']);
    expect(next.stderr).toBe('');
    expect(down.received.slice(from).map((r) => r.route)).toEqual(['/api/join', '/api/entries']);
    const secret = readJson(learnerFile('Cy', 'class.json')).secret;
    expect(secret).toBe(down.secrets.get(readJson(learnerFile('Cy', 'class.json')).device));
    expect(down.received.at(-1)!.body.secret).toBe(secret);
    await down.stop();
  });

  // Each: the arguments, and the one line it must give (hand-written from the options' rules).
  const BAD: [string[], string][] = [
    [['--code', 'K7QX2M'], '--code goes with --join: npm run lab -- --join http://ADDRESS:PORT --code K7QX2M'],
    [['--join', 'ftp://127.0.0.1:8000', '--code', 'K7QX2M'], "--join takes the class's address as the instructor shows it, http://ADDRESS:PORT (got ftp://127.0.0.1:8000)"],
    [['--join', 'not a url', '--code', 'K7QX2M'], "--join takes the class's address as the instructor shows it, http://ADDRESS:PORT (got not a url)"],
    [['--join', 'http://127.0.0.1:8000'], '--join needs the join code the instructor shows: --join http://127.0.0.1:8000 --code CODE'],
    [['--join', 'http://127.0.0.1:8000', '--code', 'K7Q1'], '--code takes the 6-character code the instructor shows (got K7Q1, 4 characters)'],
    [['--leave', '--join', 'http://127.0.0.1:8000', '--code', 'K7QX2M'], '--leave and --join exclude each other'],
    [['--join', 'http://127.0.0.1:8000', '--code', 'K7QX2M', '--json'], '--join does not go with --json (it prints one JSON document and nothing else)'],
    [['--reflect', 'why'], '--reflect goes with a run of a lab: --variant broken-schema --reflect "TEXT"'],
    [['--variant', 'broken-schema', '--read', '--reflect', 'why'], '--reflect goes with a run of a lab: --variant broken-schema --reflect "TEXT"'],
    [['--variant', 'broken-schema', '--no-predict', '--reflect', 'why'], '--reflect says what you assumed that turned out wrong, so it goes with a prediction: leave out --no-predict'],
    [['--variant', 'broken-schema', '--reflect', '  '], '--reflect takes a text: --reflect "what I assumed that turned out wrong"'],
    [['--variant', 'broken-schema', '--reflect', 'é'.repeat(2001)], '--reflect takes at most 2000 characters (got 2001)'],
  ];
  const shown = (args: string[]) => args.map((a) => (a.length > 40 ? `<${a.length} characters>` : JSON.stringify(a))).join(' ');
  it.each(BAD.map(([args, line]) => ({ args, line, shown: shown(args) })))('refuses $shown in one line', async ({ args, line }) => {
    const ran = await labIn(dir, args);
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(`lab: ${line}\n(npm run lab -- --help for the options)\n`);
    expect(ran.stdout).toBe('');
  });

  it('says it in Spanish too', async () => {
    const ran = await labIn(dir, ['--code', 'K7QX2M'], { LC_ALL: 'es_ES.UTF-8' });
    expect(ran.status).toBe(2);
    expect(ran.stderr.split('\n')[0]).toBe('lab: --code va con --join: npm run lab -- --join http://DIRECCIÓN:PUERTO --code K7QX2M');
    const help = await labIn(dir, ['--help'], { LC_ALL: 'es_ES.UTF-8' });
    expect(help.stdout).toMatch(/--join URL\s+unirte a la clase en directo en URL/);
    expect(help.stdout).toMatch(/--reflect TEXT\s+tras la ejecución, guardar TEXTO como tu reflexión/);
  });
});

describe('the queue', () => {
  it('goes as written, at the start of the next command; exactly the ids the class acknowledged are remembered', async () => {
    const { joinedAt, device, secret } = await joined('Bo');
    const { sent, kept } = entriesAfter(joinedAt, 'bo');
    write('Bo', [kept[0]!, sent[0]!, kept[1]!, sent[1]!, sent[2]!]);
    // The class answers for two of the three: the run is neither kept nor acknowledged.
    stub.ignore = new Set(['bo-run']);
    const from = stub.received.length;
    const ran = await labIn(dir, ['--learners']);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stderr).toBe('');
    expect(stub.received.slice(from).map((r) => r.route)).toEqual(['/api/entries']);
    expect(stub.received[from]!.body).toEqual({ code: 'K7QX2M', learner: 'Bo', device, secret, entries: sent });
    expect(sentIds('Bo')).toEqual(['bo-prediction', 'bo-reflection']);

    // The next command sends what was not acknowledged, and only that.
    stub.ignore = new Set();
    const next = stub.received.length;
    expect((await labIn(dir, ['--learners'])).status).toBe(0);
    expect(stub.entriesSent(next)).toEqual([[sent[1]]]);
    expect(sentIds('Bo')).toEqual(['bo-prediction', 'bo-reflection', 'bo-run']);

    // Nothing waits: no request at all.
    const idle = stub.received.length;
    expect((await labIn(dir, ['--learners'])).status).toBe(0);
    expect(stub.received.length).toBe(idle);
  });

  it('npm run check sends it too, before it looks at the workspace', async () => {
    const { joinedAt } = await joined('Hal');
    const { sent } = entriesAfter(joinedAt, 'hal');
    write('Hal', sent);
    const from = stub.received.length;
    const check = await commandIn(dir, 'scripts/check.ts', ['broken-schema', '--learner', 'Hal']);
    // No workspace yet: the check fails as it always did, and the entries went all the same.
    expect(check.status).toBe(2);
    expect(check.stderr).toMatch(/^check: /);
    expect(stub.entriesSent(from)).toEqual([sent]);
  });

  it('a resend is idempotent: the class keeps each entry once and acknowledges it again', async () => {
    const { joinedAt } = await joined('Di');
    const { sent } = entriesAfter(joinedAt, 'di');
    write('Di', sent);
    expect((await labIn(dir, ['--learners'])).status).toBe(0);
    expect(sentIds('Di')).toEqual(['di-prediction', 'di-reflection', 'di-run']);
    // The laptop forgets what was acknowledged (a copy of the kit moved, a crash before .sent.json was written): all is sent again.
    rmSync(learnerFile('Di', 'notes', '.sent.json'));
    const from = stub.received.length;
    expect((await labIn(dir, ['--learners'])).status).toBe(0);
    expect(stub.entriesSent(from)).toEqual([sent]);
    for (const entry of sent) expect(stub.kept.get(entry.id)).toEqual({ entry, sends: 2 });
    expect(sentIds('Di')).toEqual(['di-prediction', 'di-reflection', 'di-run']);
  });

  // The line each outage gives (hand-written), and how the class is made to fail.
  const OUTAGES: [string, (s: ClassStub) => Promise<void> | void, string, string][] = [
    ['down', (s) => s.down(), 'cannot connect: ECONNREFUSED', ''],
    ['failing (500)', (s) => void (s.mode = 'fail'), 'it answered 500: the class server failed', ''],
    ['answering as another server (200, a web page)', (s) => void (s.mode = 'other'), "its answer is not a class's", ''],
    // The class no longer takes the code: only a new join delivers, and the line says how.
    ['refusing (403)', (s) => void (s.mode = 'refuse'), 'it answered 403: wrong join code', 'If the instructor shows another code now, join again: npm run lab -- --join URL --code CODE\n'],
  ];
  let outages = 0;
  it.each(OUTAGES)('a class %s: the command goes on as before, says once what waits; the next command delivers it', async (_, fail, reason, more) => {
    const name = `Ed${++outages}`;
    const { joinedAt } = await joined(name);
    const { sent } = entriesAfter(joinedAt, name);
    write(name, sent);
    // The command's output with a class that answers but keeps nothing: the same command must say the same with a class that fails.
    stub.ignore = new Set(sent.map((e) => e.id));
    const alone = await labIn(dir, ['--learners', '--learner', name]);
    expect(alone.stderr).toBe('');
    stub.ignore = new Set();
    await fail(stub);
    const ran = await labIn(dir, ['--learners', '--learner', name]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stderr).toBe(`Not sent to the class (${reason}): kept locally, will send later (3 waiting).\n${more.replace('URL', stub.url)}`);
    expect(ran.stdout).toBe(alone.stdout);
    expect(sentIds(name)).toEqual([]);

    if (stub.mode === 'down') await stub.start();
    stub.mode = 'ok';
    const from = stub.received.length;
    const next = await labIn(dir, ['--learners', '--learner', name]);
    expect(next.stderr).toBe('');
    expect(stub.entriesSent(from)).toEqual([sent]);
    expect(sentIds(name)).toEqual(sent.map((e) => e.id).sort());
  });

  it('in Spanish, the same line', async () => {
    const { joinedAt } = await joined('Flor');
    write('Flor', entriesAfter(joinedAt, 'flor').sent.slice(0, 1));
    stub.mode = 'fail';
    const ran = await labIn(dir, ['--learners', '--learner', 'Flor'], { LC_ALL: 'es_ES.UTF-8' });
    stub.mode = 'ok';
    expect(ran.stderr).toBe('No se ha enviado a la clase (respondió 500: the class server failed): se guarda aquí y se enviará más tarde (1 pendiente).\n');
  });

  it('a class that hangs costs a command about one second in all, however many requests it would take', async () => {
    const { joinedAt } = await joined('Gus');
    // 120 entries: three requests of at most 50 (LIMITS.entriesPerRequest), had the class answered.
    const at = (i: number) => new Date(Date.parse(joinedAt) + 1000 + i).toISOString();
    write('Gus', Array.from({ length: 120 }, (_, i): JournalEntry => ({ id: `gus-${i}`, kind: 'prediction', lab: 'broken-schema', at: at(i), data: { answers: { 'missing-arguments': i % 101 }, reasoning: '', lang: 'en' } })));
    await stub.down();
    const quick = await labIn(dir, ['--learners', '--learner', 'Gus']);
    await stub.start();
    stub.mode = 'hang';
    const from = stub.received.length;
    const slow = await labIn(dir, ['--learners', '--learner', 'Gus']);
    stub.mode = 'ok';
    expect(slow.status).toBe(0);
    expect(slow.stderr).toBe('Not sent to the class (no answer within 1000 ms): kept locally, will send later (120 waiting).\n');
    // The class saw one request (the first batch), which the laptop gave up on after about a second; the others were not tried.
    const hung = stub.received.slice(from);
    expect(hung.map((r) => r.body.entries.length)).toEqual([50]);
    await expect.poll(() => hung[0]!.closedAt).toBeDefined();
    // Held about the second, as the class saw it (the same span timed across two commands' wall clocks is at the mercy
    // of the suite's load: once a class that was down took longer than one that hung).
    expect(hung[0]!.closedAt! - hung[0]!.at).toBeGreaterThan(600);
    expect(hung[0]!.closedAt! - hung[0]!.at).toBeLessThan(1300);
    // And the whole command: no more than about a second more than with a class that is down (the same command, the same output).
    expect(slow.stdout).toBe(quick.stdout);
    expect(slow.ms - quick.ms).toBeLessThan(1800);
    // Delivered by the next command, in three requests.
    const next = stub.received.length;
    expect((await labIn(dir, ['--learners', '--learner', 'Gus'])).stderr).toBe('');
    expect(stub.entriesSent(next).map((batch) => batch.length)).toEqual([50, 50, 20]);
    expect(sentIds('Gus')).toHaveLength(120);
  });
});
