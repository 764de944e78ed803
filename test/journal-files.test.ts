/**
 * The journal in one process: append and read round-trip and only ever extend
 * breaks.jsonl and breaks.md; a corrupt journal is reported, never rewritten;
 * breaks.md is caught up after a crash. (Learner names are
 * test/learner-names.test.ts; several processes, Ctrl+C and kill -9 are
 * test/journal.test.ts; the shared helpers are test/helpers/journal.ts.)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { CorruptJournalError, Journal, type JournalEntry } from '../src/learn/journal.js';
import { bytes, expectPrefix, fresh, markers, notesDir, removeFreshDirs } from './helpers/journal.js';

afterEach(removeFreshDirs);

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

  it('markdown: false keeps breaks.jsonl only (the live class\'s copy): no breaks.md, entries and ids as ever', () => {
    const dir = notesDir(fresh());
    const journal = new Journal(dir, { markdown: false });
    const stored = journal.appendAll([
      { kind: 'prediction', lab: 'broken-schema', data: { answers: { 'missing-arguments': 30 } }, id: 'given-1', at: '2026-12-03T10:00:00.000Z' },
      { kind: 'run', lab: 'broken-schema', data: {} },
    ]);
    expect(stored[0]).toMatchObject({ id: 'given-1', at: '2026-12-03T10:00:00.000Z' });
    expect(fs.existsSync(path.join(dir, 'breaks.md'))).toBe(false);
    expect(journal.recover()).toBe(0);
    expect(fs.existsSync(path.join(dir, 'breaks.md'))).toBe(false);
    expect(new Journal(dir).read().map((e) => e.kind)).toEqual(['prediction', 'run']);
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
