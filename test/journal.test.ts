import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CorruptJournalError, Journal, JournalBusyError, type JournalEntry } from '../src/learn/journal.js';
import {
  LearnerNameError,
  learnerDir,
  rememberLearner,
  rememberedLearner,
  validateLearnerName,
} from '../src/learn/learner.js';
import { BLOB_LENGTH, bigRender, blobFor } from './fixtures/journal-shared.js';

const here = path.dirname(fileURLToPath(import.meta.url));

// ------------------------------------------------------------------ helpers

const temps: string[] = [];
function fresh(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-test-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function notesDir(root: string, name = 'ana'): string {
  return path.join(root, 'learners', name, 'notes');
}

function bytes(file: string): Buffer {
  return fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0);
}

function expectPrefix(before: Buffer, after: Buffer): void {
  expect(after.length).toBeGreaterThanOrEqual(before.length);
  // Compare without dumping megabytes into a failure message.
  expect(after.subarray(0, before.length).equals(before), 'earlier bytes must be a prefix of the new file').toBe(true);
}

function markers(md: string): string[] {
  return [...md.matchAll(/^<!-- entry (\S+) -->$/gm)].map((m) => m[1] ?? '');
}

function expectCorrupt(fn: () => unknown, line: number, reason: RegExp, file: string): CorruptJournalError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(CorruptJournalError);
  const err = caught as CorruptJournalError;
  expect(err.line).toBe(line);
  expect(err.file).toBe(file);
  expect(err.reason).toMatch(reason);
  expect(err.message).toContain(file);
  expect(err.message).toContain(`line ${line}`);
  expect(err.message).toMatch(/left untouched/);
  return err;
}

const KILLS = Number(process.env.JOURNAL_KILLS ?? 30);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves when the child has printed `text` on stdout; returns everything printed so far. */
function waitForOutput(child: ChildProcess, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(text)) {
        child.stdout?.off('data', onData);
        resolve(out);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`child exited (${code ?? signal}) before printing ${JSON.stringify(text)}: ${out}`)));
  });
}

async function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return { code: child.exitCode, signal: child.signalCode };
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return { code, signal };
}

// The child processes run a bundle of the fixtures (built once; starts in ~50 ms, unlike tsx).
let bundleDir = '';
let writerJs = '';
let promptJs = '';
beforeAll(() => {
  bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-bundle-'));
  writerJs = path.join(bundleDir, 'journal-writer.mjs');
  promptJs = path.join(bundleDir, 'journal-prompt.mjs');
  for (const [entry, outfile] of [
    ['journal-writer.ts', writerJs],
    ['journal-prompt.ts', promptJs],
  ] as const) {
    buildSync({ entryPoints: [path.join(here, 'fixtures', entry)], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile, logLevel: 'error' });
  }
});
afterAll(() => {
  if (bundleDir) fs.rmSync(bundleDir, { recursive: true, force: true });
});

// ------------------------------------------------------------------ learner names

describe('learner names', () => {
  const refused: [string, RegExp][] = [
    ['../x', /'\.\.'/],
    ['a/b', /'\/'/],
    ['a\\b', /'\\'/],
    ['a\u0000b', /NUL/],
    ['.hidden', /starts with '\.'/],
    ['..', /'\.\.'/],
    ['', /empty/],
    [' ', /empty/],
    ['a'.repeat(41), /41 characters long; the limit is 40/],
    ['ana\nbob', /control character U\+000A \(line break\)/],
    ['a\tb', /control character U\+0009 \(tab\)/],
    ['ana:b', /':'/],
    ['-ana', /must start with a letter or digit/],
    ['CON', /reserved device name/],
  ];
  it.each(refused)('refuses %j with a message naming the problem', (name, problem) => {
    expect(() => validateLearnerName(name)).toThrow(LearnerNameError);
    try {
      validateLearnerName(name);
    } catch (err) {
      expect((err as Error).message).toMatch(problem);
      // ...and says what is allowed.
      expect((err as Error).message).toMatch(/letters or digits/);
    }
    expect(() => learnerDir('/repo', name)).toThrow(LearnerNameError);
  });

  it.each([
    ['Ana', 'Ana'],
    ['José María', 'José María'],
    ['ana-2', 'ana-2'],
    ['Zoë_K.', 'Zoë_K.'],
    ['  Ana  ', 'Ana'],
    ['Jose\u0301', 'José'], // decomposed é becomes the composed one (NFC)
    ['a'.repeat(40), 'a'.repeat(40)],
  ])('accepts %j as %j', (raw, expected) => {
    expect(validateLearnerName(raw)).toBe(expected);
  });

  it('learnerDir is a direct child of <root>/learners', () => {
    const root = fresh();
    for (const name of ['Ana', 'José María', 'ana-2', 'Zoë_K.']) {
      const dir = learnerDir(root, name);
      expect(path.dirname(dir)).toBe(path.join(root, 'learners'));
      expect(path.basename(dir)).toBe(name.normalize('NFC'));
    }
    expect(() => learnerDir(root, '../../etc')).toThrow(LearnerNameError);
  });

  it('learnerDir refuses a learner folder that is a symlink out of learners/', () => {
    const root = fresh();
    const outside = fresh();
    fs.mkdirSync(path.join(root, 'learners'), { recursive: true });
    fs.symlinkSync(outside, path.join(root, 'learners', 'eve'), 'dir');
    expect(() => learnerDir(root, 'eve')).toThrow(/outside the learners folder/);
  });

  it('remembers the current learner (atomic file, round trip, invalid content ignored)', () => {
    const root = fresh();
    expect(rememberedLearner(root)).toBeUndefined();
    rememberLearner(root, 'José María');
    expect(rememberedLearner(root)).toBe('José María');
    rememberLearner(root, '  Zoë_K. ');
    expect(rememberedLearner(root)).toBe('Zoë_K.');
    expect(fs.readFileSync(path.join(root, 'learners', '.current'), 'utf8')).toBe('Zoë_K.\n');
    expect(fs.readdirSync(path.join(root, 'learners'))).toEqual(['.current']); // no temp files left
    expect(() => rememberLearner(root, '../x')).toThrow(LearnerNameError);
    expect(rememberedLearner(root)).toBe('Zoë_K.');
    fs.writeFileSync(path.join(root, 'learners', '.current'), '../../etc\n');
    expect(rememberedLearner(root)).toBeUndefined();
  });
});

// ------------------------------------------------------------------ journal basics

describe('journal', () => {
  it('round-trips entries and fills in id and at', () => {
    const dir = notesDir(fresh());
    const journal = new Journal(dir);
    expect(journal.read()).toEqual([]);
    const a = journal.append({ kind: 'prediction', lab: 'broken-schema', data: { seed: 42, settings: { temperature: 0 }, prediction: 'the agent retries' } });
    const b = journal.append({ kind: 'run', lab: 'broken-schema', data: { figures: [1, 2.5, 3], note: 'line one\nline two' }, at: '2024-05-01T10:00:00.000Z', id: 'my-id' });
    expect(a.id).toMatch(/^\d{4}-\d\d-\d\dT.*-[0-9a-f]{8}$/);
    expect(Date.parse(a.at)).not.toBeNaN();
    expect(b).toMatchObject({ id: 'my-id', at: '2024-05-01T10:00:00.000Z' });
    expect(journal.read()).toEqual([a, b]);
    expect(new Journal(dir).read()).toEqual([a, b]);

    const jsonl = fs.readFileSync(path.join(dir, 'breaks.jsonl'), 'utf8');
    expect(jsonl.split('\n')).toHaveLength(3); // two lines + the empty string after the final newline
    const md = fs.readFileSync(path.join(dir, 'breaks.md'), 'utf8');
    expect(md.startsWith("# ana's break notes\n")).toBe(true);
    expect(markers(md)).toEqual([a.id, 'my-id']);
    expect(md).toContain(`## broken-schema · prediction · ${a.at}`);
    expect(md).toContain('- **seed**: 42');
    expect(md).toContain('```json\n{\n  "temperature": 0\n}\n```');
    expect(md).toContain('```text\nline one\nline two\n```');
    // Nothing else lying around: no temp files, no lock.
    expect(fs.readdirSync(dir).sort()).toEqual(['breaks.jsonl', 'breaks.md']);
  });

  it('refuses invalid entries without writing anything', () => {
    const dir = notesDir(fresh());
    const journal = new Journal(dir);
    journal.append({ kind: 'run', lab: 'x', data: {}, id: 'one' });
    const before = [bytes(journal.jsonlPath), bytes(journal.markdownPath)];
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const bad: unknown[] = [
      { kind: 'guess', lab: 'x', data: {} },
      { kind: 'run', lab: '', data: {} },
      { kind: 'run', lab: 'x', data: [] },
      { kind: 'run', lab: 'x', data: circular },
      { kind: 'run', lab: 'x', data: {}, id: 'one' }, // duplicate id
      { kind: 'run', lab: 'x', data: {}, id: 'has space' },
      { kind: 'run', lab: 'x', data: {}, at: 'yesterday' },
    ];
    for (const entry of bad) expect(() => journal.append(entry as never)).toThrow(TypeError);
    const throwingRender = new Journal(dir, {
      render: () => {
        throw new Error('render bug');
      },
    });
    expect(() => throwingRender.append({ kind: 'run', lab: 'x', data: {} })).toThrow('render bug');
    expect(bytes(journal.jsonlPath).equals(before[0]!)).toBe(true);
    expect(bytes(journal.markdownPath).equals(before[1]!)).toBe(true);
    expect(journal.read()).toHaveLength(1);
  });

  it('never changes earlier entries: old bytes of both files are a prefix of the new ones', () => {
    const dir = notesDir(fresh());
    const journal = new Journal(dir);
    let jsonl: Buffer = Buffer.alloc(0);
    let md: Buffer = Buffer.alloc(0);
    const seen: JournalEntry[] = [];
    for (let i = 0; i < 12; i++) {
      seen.push(journal.append({ kind: 'reflection', lab: `lab-${i % 3}`, data: { i, text: `é ü 漢字 😀 "quotes" \\ \n newline ${'x'.repeat(i * 50)}` } }));
      const nextJsonl = bytes(journal.jsonlPath);
      const nextMd = bytes(journal.markdownPath);
      expectPrefix(jsonl, nextJsonl);
      expectPrefix(md, nextMd);
      expect(nextJsonl.length).toBeGreaterThan(jsonl.length);
      expect(nextMd.length).toBeGreaterThan(md.length);
      jsonl = nextJsonl;
      md = nextMd;
      expect(journal.read()).toEqual(seen);
    }
  });

  it('property: any sequence of entries round-trips and only ever extends both files', () => {
    const dataArb = fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 });
    const kindArb = fc.constantFrom<JournalEntry['kind']>('prediction', 'revision', 'run', 'reflection', 'fixed', 'reset');
    fc.assert(
      fc.property(fc.array(fc.record({ kind: kindArb, lab: fc.constantFrom('broken-schema', 'lab 2', 'ünïcode'), data: dataArb }), { minLength: 1, maxLength: 6 }), (entries) => {
        const dir = notesDir(fresh());
        const journal = new Journal(dir);
        const stored: JournalEntry[] = [];
        let jsonl: Buffer = Buffer.alloc(0);
        let md: Buffer = Buffer.alloc(0);
        for (const e of entries) {
          stored.push(journal.append(e));
          expectPrefix(jsonl, (jsonl = bytes(journal.jsonlPath)));
          expectPrefix(md, (md = bytes(journal.markdownPath)));
        }
        expect(journal.read()).toEqual(stored);
        expect(markers(md.toString('utf8'))).toEqual(stored.map((e) => e.id));
      }),
      { numRuns: 25 },
    );
  });

  it('appends after a hand-edited breaks.md without touching what the learner wrote', () => {
    const dir = notesDir(fresh());
    const journal = new Journal(dir);
    journal.append({ kind: 'prediction', lab: 'broken-schema', data: { guess: 'loops' } });
    fs.appendFileSync(journal.markdownPath, '\nMy own thoughts: I was wrong about *everything* (no newline at end)');
    const edited = bytes(journal.markdownPath);
    const b = journal.append({ kind: 'reflection', lab: 'broken-schema', data: { why: 'the enum' } });
    const md = bytes(journal.markdownPath);
    expectPrefix(edited, md);
    expect(md.subarray(edited.length).toString()).toBe(`\n\n<!-- entry ${b.id} -->\n## broken-schema · reflection · ${b.at}\n\n- **why**: the enum\n`);
  });

  it('starts a journal next to a breaks.md the learner wrote by hand (no jsonl yet)', () => {
    const dir = notesDir(fresh());
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'breaks.md'), '# My notes\n\nSomething I wrote before.\n');
    const before = bytes(path.join(dir, 'breaks.md'));
    const journal = new Journal(dir);
    const a = journal.append({ kind: 'run', lab: 'l', data: {} });
    expectPrefix(before, bytes(journal.markdownPath));
    expect(markers(fs.readFileSync(journal.markdownPath, 'utf8'))).toEqual([a.id]);
  });

  it('ignores and then removes temp files left by a killed run', () => {
    const dir = notesDir(fresh());
    const journal = new Journal(dir);
    const a = journal.append({ kind: 'run', lab: 'l', data: {} });
    fs.writeFileSync(path.join(dir, '.breaks.jsonl.999999.abcdef.tmp'), '{"half an ent');
    fs.writeFileSync(path.join(dir, '.breaks.md.999999.abcdef.tmp'), '## half a blo');
    expect(journal.read()).toEqual([a]);
    journal.append({ kind: 'run', lab: 'l', data: {} });
    expect(fs.readdirSync(dir).sort()).toEqual(['breaks.jsonl', 'breaks.md']);
  });
});

// ------------------------------------------------------------------ corruption

describe('a corrupt journal is reported, never rewritten', () => {
  function setup() {
    const dir = notesDir(fresh());
    const journal = new Journal(dir);
    journal.append({ kind: 'prediction', lab: 'broken-schema', data: { guess: 'a' } });
    journal.append({ kind: 'run', lab: 'broken-schema', data: { tokens: 1234 } });
    journal.append({ kind: 'reflection', lab: 'broken-schema', data: { text: 'because' } });
    return journal;
  }

  function damageAndCheck(journal: Journal, damage: (lines: string[], text: string) => Buffer | string, line: number, reason: RegExp) {
    const text = fs.readFileSync(journal.jsonlPath, 'utf8');
    fs.writeFileSync(journal.jsonlPath, damage(text.split('\n'), text));
    const jsonl = bytes(journal.jsonlPath);
    const md = bytes(journal.markdownPath);
    const files = fs.readdirSync(journal.dir).sort();
    expectCorrupt(() => journal.read(), line, reason, journal.jsonlPath);
    expectCorrupt(() => journal.append({ kind: 'fixed', lab: 'broken-schema', data: {} }), line, reason, journal.jsonlPath);
    expectCorrupt(() => journal.recover(), line, reason, journal.jsonlPath);
    expect(bytes(journal.jsonlPath).equals(jsonl)).toBe(true);
    expect(bytes(journal.markdownPath).equals(md)).toBe(true);
    expect(fs.readdirSync(journal.dir).sort()).toEqual(files); // no lock or temp file left behind
  }

  it('a garbage line', () => {
    damageAndCheck(setup(), (l) => [l[0], 'this is not json', l[1], l[2], ''].join('\n'), 2, /not valid JSON/);
  });

  it('a truncated last line (no final newline)', () => {
    damageAndCheck(setup(), (_l, text) => text.slice(0, text.length - 20), 3, /last line is incomplete/);
  });

  it('a line cut in the middle of the file', () => {
    damageAndCheck(setup(), (l) => [l[0], (l[1] ?? '').slice(0, 30), l[2], ''].join('\n'), 2, /not valid JSON/);
  });

  it('valid JSON that is not an entry', () => {
    damageAndCheck(setup(), (l) => [l[0], l[1], '[1,2,3]', ''].join('\n'), 3, /JSON array/);
    damageAndCheck(setup(), (l) => [l[0], JSON.stringify({ ...JSON.parse(l[1] ?? ''), kind: 'oops' }), l[2], ''].join('\n'), 2, /'kind'/);
  });

  it('an empty line, a duplicated line, bytes that are not UTF-8', () => {
    damageAndCheck(setup(), (l) => [l[0], '', l[1], l[2], ''].join('\n'), 2, /empty/);
    damageAndCheck(setup(), (l) => [l[0], l[1], l[1], l[2], ''].join('\n'), 3, /already used/);
    damageAndCheck(setup(), (_l, text) => Buffer.concat([Buffer.from(text), Buffer.from([0xff, 0xfe, 0x0a])]), 4, /UTF-8/);
  });
});

// ------------------------------------------------------------------ recovery

describe('breaks.md recovery', () => {
  it('after a crash between the jsonl rename and the md rename, the next append adds the missing block first', () => {
    const dir = notesDir(fresh());
    const journal = new Journal(dir);
    const a = journal.append({ kind: 'prediction', lab: 'l', data: { n: 1 } });
    const mdAfterA = bytes(journal.markdownPath);
    const b = journal.append({ kind: 'run', lab: 'l', data: { n: 2 } });
    const mdAfterB = bytes(journal.markdownPath);
    // Simulate the crash: breaks.jsonl has b, breaks.md is still as it was after a.
    fs.writeFileSync(journal.markdownPath, mdAfterA);
    expect(journal.read()).toEqual([a, b]); // read() does not write...
    expect(bytes(journal.markdownPath).equals(mdAfterA)).toBe(true);
    const c = journal.append({ kind: 'reflection', lab: 'l', data: { n: 3 } });
    const md = bytes(journal.markdownPath);
    expectPrefix(mdAfterA, md);
    expectPrefix(mdAfterB, md); // b's block is exactly what it would have been
    expect(markers(md.toString())).toEqual([a.id, b.id, c.id]);
  });

  it('recover() catches breaks.md up without adding an entry, and recreates a missing breaks.md', () => {
    const dir = notesDir(fresh());
    const journal = new Journal(dir);
    const a = journal.append({ kind: 'prediction', lab: 'l', data: { n: 1 } });
    const mdAfterA = bytes(journal.markdownPath);
    const b = journal.append({ kind: 'run', lab: 'l', data: { n: 2 } });
    const full = bytes(journal.markdownPath);
    expect(journal.recover()).toBe(0);
    fs.writeFileSync(journal.markdownPath, mdAfterA);
    expect(journal.recover()).toBe(1);
    expect(bytes(journal.markdownPath).equals(full)).toBe(true);
    fs.rmSync(journal.markdownPath);
    expect(journal.recover()).toBe(2);
    expect(bytes(journal.markdownPath).equals(full)).toBe(true);
    expect(journal.read()).toEqual([a, b]);
  });
});

// ------------------------------------------------------------------ locking

describe('two processes', () => {
  it('concurrent appenders in separate processes lose no entry', async () => {
    const dir = notesDir(fresh());
    const perChild = 15;
    const children = [0, 1, 2].map(() => spawn(process.execPath, [writerJs, 'count', dir, String(perChild)], { stdio: ['ignore', 'pipe', 'inherit'] }));
    const exits = await Promise.all(children.map(exitOf));
    expect(exits).toEqual(children.map(() => ({ code: 0, signal: null })));
    const entries = new Journal(dir).read();
    expect(entries).toHaveLength(3 * perChild);
    const got = new Set(entries.map((e) => `${String(e.data.pid)}:${String(e.data.n)}`));
    for (const child of children) for (let n = 0; n < perChild; n++) expect(got.has(`${child.pid}:${n}`)).toBe(true);
    expect(markers(fs.readFileSync(path.join(dir, 'breaks.md'), 'utf8'))).toEqual(entries.map((e) => e.id));
    expect(fs.readdirSync(dir).sort()).toEqual(['breaks.jsonl', 'breaks.md']);
  });

  it('a lock left by a dead process is broken; a live lock makes append wait, then give up without writing', async () => {
    const dir = notesDir(fresh());
    const journal = new Journal(dir, { lockTimeoutMs: 300 });
    journal.append({ kind: 'run', lab: 'l', data: {} });
    const dead = spawn(process.execPath, ['-e', '']);
    await exitOf(dead);
    fs.writeFileSync(journal.lockPath, JSON.stringify({ pid: dead.pid, host: os.hostname(), token: 'x', time: Date.now() }));
    journal.append({ kind: 'run', lab: 'l', data: {} });
    expect(fs.existsSync(journal.lockPath)).toBe(false);

    // A stale lock moved aside by a lock breaker that was killed before deleting it: removed once
    // the breaker is gone; kept while the breaker lives (it may still need to put it back).
    const leftAside = path.join(dir, `.breaks.lock.stale.${dead.pid}.0123456789ab`);
    const liveAside = path.join(dir, `.breaks.lock.stale.${process.pid}.0123456789ab`);
    fs.writeFileSync(leftAside, '{"pid":1}');
    fs.writeFileSync(liveAside, '{"pid":1}');
    journal.append({ kind: 'run', lab: 'l', data: {} });
    expect(fs.existsSync(leftAside)).toBe(false);
    expect(fs.existsSync(liveAside)).toBe(true);
    fs.rmSync(liveAside);

    // An empty lock file (writer killed between creating and filling it), a while ago.
    fs.writeFileSync(journal.lockPath, '');
    const past = new Date(Date.now() - 5_000);
    fs.utimesSync(journal.lockPath, past, past);
    journal.append({ kind: 'run', lab: 'l', data: {} });
    expect(fs.existsSync(journal.lockPath)).toBe(false);

    const live = JSON.stringify({ pid: process.pid, host: os.hostname(), token: 'live', time: Date.now() });
    fs.writeFileSync(journal.lockPath, live);
    const before = [bytes(journal.jsonlPath), bytes(journal.markdownPath)];
    const t0 = Date.now();
    expect(() => journal.append({ kind: 'run', lab: 'l', data: {} })).toThrow(JournalBusyError);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(fs.readFileSync(journal.lockPath, 'utf8')).toBe(live);
    expect(bytes(journal.jsonlPath).equals(before[0]!)).toBe(true);
    expect(bytes(journal.markdownPath).equals(before[1]!)).toBe(true);
    expect(journal.read()).toHaveLength(4);
  });
});

// ------------------------------------------------------------------ interruptions

describe('interrupted runs', () => {
  it('Ctrl+C at a prompt leaves the journal exactly as it was', async () => {
    const dir = notesDir(fresh());
    const journal = new Journal(dir);
    journal.append({ kind: 'prediction', lab: 'broken-schema', data: { guess: 'first' } });
    const before = [bytes(journal.jsonlPath), bytes(journal.markdownPath)];
    for (const mode of ['handler', 'default'] as const) {
      const child = spawn(process.execPath, [promptJs, dir, mode], { stdio: ['pipe', 'pipe', 'inherit'] });
      const out = await waitForOutput(child, 'What do you predict?');
      expect(out).toContain('You have 1 notes');
      child.kill('SIGINT');
      const exit = await exitOf(child);
      expect(exit).toEqual(mode === 'handler' ? { code: 130, signal: null } : { code: null, signal: 'SIGINT' });
      expect(bytes(journal.jsonlPath).equals(before[0]!)).toBe(true);
      expect(bytes(journal.markdownPath).equals(before[1]!)).toBe(true);
      expect(fs.readdirSync(dir).sort()).toEqual(['breaks.jsonl', 'breaks.md']);
    }
    // The same fixture does append when answered, so the test above is not vacuous.
    const child = spawn(process.execPath, [promptJs, dir, 'handler'], { stdio: ['pipe', 'pipe', 'inherit'] });
    await waitForOutput(child, 'What do you predict?');
    child.stdin?.end('the agent loops\n');
    expect(await exitOf(child)).toEqual({ code: 0, signal: null });
    expect(journal.read().map((e) => e.data.answer)).toEqual([undefined, 'the agent loops']);
  });

  it('kill -9 at random moments during big appends never leaves a broken journal', async () => {
    const root = fresh();
    const dir = notesDir(root, 'kim');
    const journal = new Journal(dir, { render: bigRender });
    const header = "# kim's break notes\n";
    const block = (e: JournalEntry) => `\n<!-- entry ${e.id} -->\n${bigRender(e)}\n`;
    let prevJsonl: Buffer = Buffer.alloc(0);
    let prevMd: Buffer = Buffer.alloc(0);
    let prevEntries: JournalEntry[] = [];
    let prevShown = 0;
    const stats = { kills: 0, mdBehind: 0, tempFilesLeft: 0, lockLeft: 0, maxEntriesPerRun: 0 };

    const check = () => {
      // 1. The journal parses completely: no broken line anywhere.
      const entries = journal.read();
      // 2. Entries only grew, and the earlier ones are unchanged.
      expect(entries.length).toBeGreaterThanOrEqual(prevEntries.length);
      expect(entries.slice(0, prevEntries.length)).toEqual(prevEntries);
      // 3. No partial entry: every payload is complete and belongs to its entry.
      for (const e of entries.slice(prevEntries.length)) {
        expect(e.kind).toBe('run');
        expect(typeof e.data.blob === 'string' && e.data.blob.length).toBe(BLOB_LENGTH);
        expect(e.data.blob === blobFor(Number(e.data.pid), Number(e.data.n))).toBe(true);
      }
      // 4. Earlier bytes of both files are a prefix of the new ones.
      const jsonl = bytes(journal.jsonlPath);
      const md = bytes(journal.markdownPath);
      expectPrefix(prevJsonl, jsonl);
      expectPrefix(prevMd, md);
      // 5. breaks.md is the header plus complete blocks for the first k entries, in order
      //    (k < n only when a kill fell between the two renames; recovered below).
      const mdText = md.toString('utf8');
      const shown = markers(mdText).length;
      expect(shown).toBeGreaterThanOrEqual(prevShown);
      expect(shown).toBeLessThanOrEqual(entries.length);
      if (md.length > 0) {
        expect(mdText === header + entries.slice(0, shown).map(block).join(''), 'breaks.md holds only complete blocks').toBe(true);
      }
      if (shown < entries.length) stats.mdBehind++;
      // A kill before the first write leaves no notes folder at all: the journal as it was.
      if (fs.existsSync(dir) && fs.readdirSync(dir).some((f) => f.endsWith('.tmp'))) stats.tempFilesLeft++;
      if (fs.existsSync(journal.lockPath)) stats.lockLeft++;
      stats.maxEntriesPerRun = Math.max(stats.maxEntriesPerRun, entries.length - prevEntries.length);
      prevEntries = entries;
      prevJsonl = jsonl;
      prevMd = md;
      prevShown = shown;
    };

    const started = Date.now();
    for (let i = 0; i < KILLS; i++) {
      const child = spawn(process.execPath, [writerJs, 'loop', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
      await waitForOutput(child, 'started');
      await sleep(Math.random() * 50);
      child.kill('SIGKILL');
      expect(await exitOf(child)).toEqual({ code: null, signal: 'SIGKILL' });
      stats.kills++;
      check();
    }
    expect(prevEntries.length, 'the children must have written something').toBeGreaterThan(0);

    // Recovery: one more append catches breaks.md up and clears the leftovers.
    const last = journal.append({ kind: 'run', lab: 'kill-test', data: { pid: 0, n: 0, blob: blobFor(0, 0) } });
    check();
    expect(markers(prevMd.toString('utf8'))).toEqual(prevEntries.map((e) => e.id));
    expect(prevEntries.at(-1)).toEqual(last);
    expect(fs.readdirSync(dir).sort()).toEqual(['breaks.jsonl', 'breaks.md']);
    console.log(`kill -9 test: ${JSON.stringify({ ...stats, entries: prevEntries.length, jsonlBytes: prevJsonl.length, ms: Date.now() - started })}`);
  });
});
