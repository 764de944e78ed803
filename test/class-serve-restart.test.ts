/**
 * The class server killed with kill -9 in the middle of a stream of entries
 * and started again on the same folder: the same join code and token, every
 * entry it acknowledged there exactly once, the rest delivered by a resend
 * (acknowledged entries come back as `already`), and `npm run class -- report`
 * reads the folder as it is. Then a reveal: kept across a restart, measured
 * by the server, and carried in the projector's state only while revealed.
 *
 * The learners here are a tiny client of the test's own
 * (test/helpers/class-serve.ts), not the learner's side.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from './helpers/class-report.js';
import { call, device, joined, post, prediction, startServe, type Served } from './helpers/class-serve.js';
import { REPO } from './helpers/server.js';

const roots: string[] = [];
const running: Served[] = [];
afterAll(async () => {
  for (const s of running) {
    s.child.kill('SIGKILL');
    await s.ended;
  }
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function tempFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'class-serve-restart-'));
  roots.push(root);
  return join(root, 'class');
}

async function start(folder: string): Promise<Served> {
  const s = await startServe(folder);
  running.push(s);
  return s;
}

/** A journal's ids, read as raw lines (not through the Journal class, whose reader refuses duplicates). */
function idsIn(folder: string, dev: string, learner: string): string[] {
  const text = readFileSync(join(folder, dev, 'learners', learner, 'notes', 'breaks.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { id: string }).id);
}

describe('class serve: kill -9 and restart', () => {
  it('keeps every acknowledged entry exactly once; a resend delivers the rest without duplicates', async () => {
    const folder = tempFolder();
    const first = await start(folder);
    const LEARNERS = 16;
    const REQUESTS = 12;
    const learners = Array.from({ length: LEARNERS }, (_, i) => ({ name: `L${i + 1}`, device: device(100 + i), sent: [] as ReturnType<typeof prediction>[][], acked: new Set<string>() }));
    let ackedRequests = 0;
    let killed = false;
    const kill = () => {
      if (killed) return;
      killed = true;
      first.child.kill('SIGKILL');
    };
    // Each learner sends its entries two at a time, one request after another; the server dies once 80 requests were acknowledged.
    // Each laptop joins first: its secret goes with every entry (issue 35, D2), and the restarted class still knows it.
    for (const l of learners) await joined(first.port, first.code, l.name, l.device);
    await Promise.all(
      learners.map(async (l) => {
        for (let r = 0; r < REQUESTS; r++) {
          const batch = [prediction(r), prediction(r + 1, { kind: 'revision' })];
          l.sent.push(batch);
          if (killed) continue;
          try {
            const reply = await post(first.port, '/api/entries', { code: first.code, ...(await joined(first.port, first.code, l.name, l.device)), entries: batch });
            if (reply.status === 200) {
              for (const id of [...reply.body.stored, ...reply.body.already]) l.acked.add(id);
              if (++ackedRequests >= 80) kill();
            }
          } catch {
            // The server is gone: this batch is not acknowledged; the learner keeps it.
          }
        }
      }),
    );
    kill();
    expect(await first.ended).toBe('SIGKILL');
    const acked = learners.reduce((n, l) => n + l.acked.size, 0);
    const all = LEARNERS * REQUESTS * 2;
    expect(acked).toBeGreaterThanOrEqual(160);
    expect(acked).toBeLessThan(all);

    // Every acknowledged entry is there, once, before anything is resent.
    for (const l of learners) {
      let ids: string[] = [];
      try {
        ids = idsIn(folder, l.device, l.name);
      } catch {
        // never reached the server
      }
      for (const id of l.acked) expect(ids.filter((x) => x === id), `${l.name} ${id}`).toHaveLength(1);
      expect(new Set(ids).size).toBe(ids.length);
    }

    const second = await start(folder);
    expect([second.code, second.token]).toEqual([first.code, first.token]);
    // Each learner resends everything (its whole queue in batches of 24 <= 50): the acknowledged come back as already.
    for (const l of learners) {
      const entries = l.sent.flat();
      const reply = await post(second.port, '/api/entries', { code: second.code, ...(await joined(second.port, second.code, l.name, l.device)), entries });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(new Set([...reply.body.stored, ...reply.body.already])).toEqual(new Set(entries.map((e) => e.id)));
      for (const id of l.acked) expect(reply.body.already).toContain(id);
      expect(idsIn(folder, l.device, l.name).sort()).toEqual(entries.map((e) => e.id).sort());
    }
    // No temp file of an interrupted append is left beside a journal once it was appended to again.
    for (const l of learners) expect(readdirSync(join(folder, l.device, 'learners', l.name, 'notes')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 180_000);

  it('class report reads the class folder: two Anas on two laptops stay two', async () => {
    const folder = tempFolder();
    const s = await start(folder);
    // broken-schema's measured figures as a run entry carries them (the values of test/helpers/class-report.ts's BS_MEASURED).
    const measured = { 'missing-arguments': 42, 'dominant-failure': 'rpc:-32603', 'dominant-failure-mcpserver': 'isError', 'retries-per-failing-call': 3, 'ok-drop-low-level': 13.33, 'ok-drop-mcpserver': 3.33 };
    const story = [
      { learner: 'Ana', device: device(1), predicted: 30 },
      { learner: 'Ben', device: device(2), predicted: 50 },
      { learner: 'Ana', device: device(3), predicted: 70 },
    ];
    for (const [i, who] of story.entries()) {
      const p = prediction(who.predicted, { at: `2026-12-03T10:0${i}:00.000Z` });
      const run = { id: `run-${i}`, kind: 'run', lab: 'broken-schema', at: `2026-12-03T10:1${i}:00.000Z`, data: { settings: { seed: 1, calls: 100 }, lang: 'en', measured, comparison: [{ question: 'missing-arguments', predicted: who.predicted, measured: 42, off: who.predicted - 42 }] } };
      const reflection = { id: `why-${i}`, kind: 'reflection', lab: 'broken-schema', at: `2026-12-03T10:2${i}:00.000Z`, data: { text: 'I thought the schema would catch it', lang: 'en' } };
      const reply = await post(s.port, '/api/entries', { code: s.code, ...(await joined(s.port, s.code, who.learner, who.device)), entries: [p, run, reflection] });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }
    const result = cli(['report', folder, '--json']);
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    // Two Anas are numbered, never shown with their laptop's device id (issue 35, D2).
    expect(report.journals.map((j: { display: string }) => j.display).sort()).toEqual(['Ana (#1)', 'Ana (#2)', 'Ben']);
    const lab = report.labs.find((l: { id: string }) => l.id === 'broken-schema');
    expect([lab.learners, lab.ran, lab.predicted]).toEqual([3, 3, 3]);
    const q = lab.questions.find((x: { id: string }) => x.id === 'missing-arguments');
    // Predictions 30, 50, 70: the median is 50, 8 above the measured 42.
    expect([q.predictions, q.median, q.medianOff]).toEqual([[30, 50, 70], 50, 8]);
  }, 120_000);

  it('a reveal survives a restart, the server measures the lab as its sheet does, and the state carries it only while revealed', async () => {
    const folder = tempFolder();
    let s = await start(folder);
    const state = async () => (await call(s.port, 'GET', '/api/state', undefined, { authorization: `Bearer ${s.token}` })).body;
    const reveal = (revealed: boolean) => post(s.port, '/api/reveal', { lab: 'broken-schema', revealed }, { authorization: `Bearer ${s.token}` });
    // The projector's state (src/class/projector.ts): per lab, revealed or not, and per question the server's measurement or null.
    type Shown = { value: number | string; range?: [number, number]; seeds?: number } | null;
    const lab = async () => ((await state()).labs as { id: string; revealed: boolean; questions: { id: string; measured: Shown }[] }[]).find((l) => l.id === 'broken-schema')!;
    const shownOf = async () => Object.fromEntries((await lab()).questions.map((q) => [q.id, q.measured]));
    expect((await lab()).revealed).toBe(false);
    expect(Object.values(await shownOf()).every((m) => m === null)).toBe(true);
    expect((await reveal(true)).body).toEqual({ revealed: ['broken-schema'] });
    const started = Date.now();
    while (!/Measured broken-schema/.test(s.output())) {
      expect(Date.now() - started, s.output()).toBeLessThan(150_000);
      await new Promise((r) => setTimeout(r, 200));
    }
    const m = await shownOf();
    // The sheet's figures (labs/broken-schema/README.md, written by `npm run sheets` at the lab's defaults: seeds 1 to 5, 100 calls).
    const sheet = readFileSync(join(REPO, 'labs', 'broken-schema', 'README.md'), 'utf8');
    const row = (id: string) => new RegExp(`\\| \`${id}\` \\| [^|]+ \\| ([^|]+) \\|`).exec(sheet)![1]!.trim();
    expect(row('missing-arguments')).toBe(`${m['missing-arguments']!.value}% (${m['missing-arguments']!.range![0]}–${m['missing-arguments']!.range![1]})`);
    expect(row('dominant-failure')).toBe(`\`${m['dominant-failure']!.value}\``);
    expect(row('retries-per-failing-call')).toBe(`${m['retries-per-failing-call']!.value} (${m['retries-per-failing-call']!.range![0]}–${m['retries-per-failing-call']!.range![1]})`);
    expect(m['missing-arguments']!.seeds).toBe(5);
    const kept = JSON.parse(readFileSync(join(folder, 'measured', 'broken-schema.json'), 'utf8'));
    expect(kept.seeds).toEqual([1, 2, 3, 4, 5]);
    expect(Object.fromEntries(Object.entries(kept.questions as Record<string, { value: unknown }>).map(([id, q]) => [id, q.value]))).toEqual(Object.fromEntries(Object.entries(m).map(([id, q]) => [id, q!.value])));

    s.child.kill('SIGKILL');
    await s.ended;
    s = await start(folder);
    // Kept: revealed, and measured without measuring again.
    expect(s.output()).not.toMatch(/Measuring/);
    expect(await shownOf()).toEqual(m);
    expect((await post(s.port, '/api/join', { code: s.code, learner: 'Ana', device: device(1) })).body.revealed).toEqual(['broken-schema']);
    expect((await reveal(false)).body).toEqual({ revealed: [] });
    expect((await lab()).revealed).toBe(false);
    expect(Object.values(await shownOf()).every((q) => q === null)).toBe(true);
  }, 240_000);
});
