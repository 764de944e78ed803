/**
 * The serve terminal's log (issue 35, "The screens" and "What to build"): one
 * line per event with who and what and a running count per lab; a learner's
 * command joining again, or a resend, is no new line. And after `q`, nothing
 * typed while the server stops is echoed or left for the shell. The server is
 * the real command (test/helpers/class-serve.ts; the keys in a real
 * pseudo-terminal, test/helpers/pty.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { device, joined, post, prediction, startServe } from './helpers/class-serve.js';
import { Terminal } from './helpers/pty.js';
import { REPO } from './helpers/server.js';

const roots: string[] = [];
const terminals: Terminal[] = [];
afterAll(async () => {
  for (const term of terminals.filter((t) => t.exitCode === undefined)) {
    term.type('q');
    await term.done(20_000);
  }
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
function tempFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'class-serve-log-'));
  roots.push(root);
  return join(root, 'class');
}

/** The lines the server printed after its banner. */
const logLines = (output: string) => output.split('\n').slice(output.split('\n').findIndex((l) => /Listening on port/.test(l)) + 1).filter((l) => l.trim() !== '' && !/^No terminal for keys/.test(l));

describe('class serve: the log an instructor follows', () => {
  it('one line per event, who and what, with a count per lab; joining again and resending add nothing', async () => {
    const folder = tempFolder();
    const served = await startServe(folder);
    try {
      // A laptop's first join brings its secret (issue 35, D2); every learner's command joins again with it: said once.
      const ana = await joined(served.port, served.code, 'Ana', device(1));
      const bea = await joined(served.port, served.code, 'Bea', device(2));
      const send = (who: typeof ana, entries: unknown[]) => post(served.port, '/api/entries', { code: served.code, ...who, entries });
      for (const who of [ana, bea, ana]) expect((await post(served.port, '/api/join', { code: served.code, ...who })).status).toBe(200);
      const first = prediction(20);
      expect((await send(ana, [first])).status).toBe(200);
      // A resend (the reply was lost): kept once, said once.
      expect((await send(ana, [first])).body.already).toEqual([first.id]);
      expect((await send(bea, [prediction(40)])).status).toBe(200);
      expect((await send(ana, [prediction(25, { kind: 'revision' })])).status).toBe(200);
      await new Promise((r) => setTimeout(r, 200));
      expect(logLines(served.output())).toEqual([
        'Ana joined (1 learner in the class).',
        'Bea joined (2 learners in the class).',
        'Ana predicted broken-schema (1 of 2)',
        'Bea predicted broken-schema (2 of 2)',
        'Ana revised their prediction of broken-schema (2 of 2 predicted)',
      ]);
    } finally {
      served.child.kill('SIGTERM');
      await served.ended;
    }
    // A restart counts on from the folder: Ana is known, Cy is the third.
    const again = await startServe(folder);
    try {
      expect((await post(again.port, '/api/join', { code: again.code, ...(await joined(again.port, again.code, 'Ana', device(1))) })).status).toBe(200);
      const cy = await joined(again.port, again.code, 'Cy', device(3));
      expect((await post(again.port, '/api/entries', { code: again.code, ...cy, entries: [prediction(10)] })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 200));
      expect(logLines(again.output())).toEqual(['Cy joined (3 learners in the class).', 'Cy predicted broken-schema (3 of 3)']);
    } finally {
      again.child.kill('SIGTERM');
      await again.ended;
    }
  }, 120_000);
});

describe('class serve: q', () => {
  it('a key typed while the server stops is neither echoed nor left for the shell', async () => {
    const folder = tempFolder();
    // The shell's part: what reaches it once the server has ended, between AFTER< and >END.
    const term = new Terminal(`bash -c 'node scripts/launch.mjs scripts/class.ts serve ${folder} --port 0; printf "AFTER<"; read -r -t 2 -n 1 key; printf "%s>END" "$key"'`, REPO, { LANG: 'en_GB.UTF-8', LC_ALL: '' });
    terminals.push(term);
    let at = await term.waitFor(/q quits/, 60_000);
    // 1 reveals the first lab and starts its measurement: q while it runs, then q again while the server stops.
    term.type('1');
    at = await term.waitFor(/Measuring broken-schema/, 10_000, at);
    term.type('q');
    const stopping = await term.waitFor(/Stopping: |Class stopped\./, 10_000, at);
    term.type('q');
    await term.waitFor(/>END/, 120_000, stopping);
    const tail = term.screen().slice(stopping);
    expect(tail).toMatch(/AFTER<>END/);
    // No line of the tail is the echoed key.
    expect(tail.split('\n').filter((line) => /^q/.test(line.trim()))).toEqual([]);
    expect(await term.done(10_000)).toBe(0);
  }, 200_000);
});
