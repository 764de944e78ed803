/**
 * The journal across processes: concurrent appenders lose no entry, a dead
 * process's lock is broken and a live one waited for; Ctrl+C at a prompt
 * leaves the journal as it was, and kill -9 at random moments never leaves a
 * broken journal. The child processes run a bundle of test/fixtures/
 * journal-writer.ts and journal-prompt.ts. (The journal in one process is
 * test/journal-files.test.ts; the shared helpers are test/helpers/journal.ts.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Journal, JournalBusyError, type JournalEntry } from '../src/learn/journal.js';
import { BLOB_LENGTH, bigRender, blobFor } from './fixtures/journal-shared.js';
import { bytes, expectPrefix, fresh, markers, notesDir, removeFreshDirs } from './helpers/journal.js';

const here = path.dirname(fileURLToPath(import.meta.url));

afterEach(removeFreshDirs);

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

    // Another live process's lock (this one's parent): a lock naming this very process with a token it does not hold is stale (issue 35, D3).
    const live = JSON.stringify({ pid: process.ppid, host: os.hostname(), token: 'live', time: Date.now() });
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
      // Every other kill waits for a first complete append, then falls at a random moment of the
      // next ones; the others fall anywhere from the start. On a loaded machine an append can take
      // longer than the 50 ms window, and kills timed from "started" alone then never let a child
      // finish one (CI once saw 30 kills and no entry).
      await waitForOutput(child, i % 2 === 1 ? 'appended 0' : 'started');
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
