/**
 * The class server under pressure (issue 35, "The class under pressure"):
 * one hostile laptop must not hurt the room. Each case is an attack the
 * issue tried on 127.0.0.1, and after it a learner from another address is
 * still served, in the time the issue asks.
 *
 * The server runs in this process (createClassServer on a temporary class
 * folder), not as a child: the stale-lock case needs the server's own pid,
 * and the memory case its heap. The requests are a client of the test's own
 * (test/helpers/class-serve.ts). Expected figures are the issue's.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClassFolder } from '../src/class/class-folder.js';
import { discover } from '../src/class/discover.js';
import { renderClassPage } from '../src/class/page.js';
import { buildClassReport } from '../src/class/report.js';
import { Journal } from '../src/learn/journal.js';
import { createClassServer } from '../src/class/serve-http.js';
import { loadCatalogue } from '../src/learn/catalogue.js';
import { call, device, joined, prediction } from './helpers/class-serve.js';

let root: string;
let folder: ClassFolder;
let server: Server;
let port: number;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'class-pressure-'));
  folder = ClassFolder.open(join(root, 'class'));
  server = createClassServer({ classFolder: folder, labs: loadCatalogue(), lang: 'en', measured: () => ({}), onReveal: (lab, revealed) => folder.setRevealed(lab, revealed) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

/** A join from 127.0.0.1 and how long its answer took, in ms. */
async function timedJoin(learner = 'Ana', dev = device(1)): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const reply = await call(port, 'POST', '/api/join', { code: folder.code, learner, device: dev });
  return { status: reply.status, ms: performance.now() - started };
}

describe('D1: one address with 300 slow connections', () => {
  it('does not lock the room out: a join from another address is answered within 1 s, and the slow ones are closed within seconds', async () => {
    const SLOW = 300;
    const sockets: Socket[] = [];
    const closedAt: number[] = [];
    const started = performance.now();
    // Each from 127.0.0.2: the request line of a join, then one header byte a second (the slow client).
    await Promise.all(
      Array.from(
        { length: SLOW },
        () =>
          new Promise<void>((resolve) => {
            const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' });
            sockets.push(socket);
            socket.on('error', () => undefined);
            // Read what the server says (its 408), so that its close is seen when it comes.
            socket.resume();
            socket.on('close', () => closedAt.push(performance.now() - started));
            socket.once('connect', () => {
              socket.write('POST /api/join HTTP/1.1\r\nHost: x\r\n');
              const drip = setInterval(() => (socket.destroyed ? clearInterval(drip) : socket.write('X')), 1000);
              socket.once('close', () => clearInterval(drip));
              resolve();
            });
            socket.once('close', () => resolve());
          }),
      ),
    );
    try {
      await new Promise((r) => setTimeout(r, 300));
      const join = await timedJoin();
      expect(join.status).toBe(200);
      expect(join.ms).toBeLessThan(1000);
      // The deadline for the headers (src/class/connections.ts: 4 s, checked every 250 ms): every slow one is gone within seconds.
      await expect.poll(() => closedAt.length, { timeout: 8_000, interval: 200 }).toBe(SLOW);
      expect(Math.max(...closedAt)).toBeLessThan(6_000);
      console.log(`D1: join from 127.0.0.1 in ${join.ms.toFixed(0)} ms beside ${SLOW} slow connections from 127.0.0.2; the last slow one closed after ${Math.max(...closedAt).toFixed(0)} ms`);
    } finally {
      for (const s of sockets) s.destroy();
    }
  }, 30_000);
});

describe('D2: a secret per device', () => {
  const ANA = device(0xa1);
  const ANA2 = device(0xa2);
  const entries = (body: Record<string, unknown>, localAddress?: string) => call(port, 'POST', '/api/entries', { code: folder.code, learner: 'Ana', entries: [prediction(5)], ...body }, {}, localAddress);
  const anaJournal = () => new Journal(join(root, 'class', ANA, 'learners', 'Ana', 'notes')).read();

  it("an entry with another laptop's device id and not its secret is refused, and nothing reaches that laptop's journal; a join with it gets no secret", async () => {
    const ana = await joined(port, folder.code, 'Ana', ANA);
    const mine = prediction(40);
    expect((await entries({ device: ANA, secret: ana.secret, entries: [mine] })).status).toBe(200);
    // Mallory, from another address, knows Ana's device id (a page once showed it) and has a secret of her own laptop.
    const mallory = await joined(port, folder.code, 'Mallory', device(0xbad), '127.0.0.2');
    const noSecret = await entries({ device: ANA }, '127.0.0.2');
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.error).toMatch(/must have required property 'secret'/);
    for (const secret of [mallory.secret, 'A'.repeat(43)]) {
      const reply = await entries({ device: ANA, secret }, '127.0.0.2');
      expect(reply.status).toBe(403);
      expect(reply.body.error).toMatch(/^this laptop's id is not one the class gave a secret to, or the secret is wrong/);
    }
    // A join with Ana's id: refused (409), and no secret in the answer.
    const join = await call(port, 'POST', '/api/join', { code: folder.code, learner: 'Mallory', device: ANA }, {}, '127.0.0.2');
    expect(join.status).toBe(409);
    expect(JSON.stringify(join.body)).not.toContain(ana.secret);
    expect(anaJournal().map((e) => e.id)).toEqual([mine.id]);
    // Only the hash is kept in the folder.
    expect(readdirSync(join_(ANA)).sort()).toEqual(['device.json', 'learners']);
  });

  it('no page shows a device id: the projector state and the class report page name two Anas without their laptops', async () => {
    const second = await joined(port, folder.code, 'Ana', ANA2);
    expect((await entries({ device: ANA2, secret: second.secret, entries: [prediction(60)] })).status).toBe(200);
    const state = await call(port, 'GET', '/api/state', undefined, { authorization: `Bearer ${folder.token}` });
    expect(state.status).toBe(200);
    const text = JSON.stringify(state.body);
    expect(text).toContain('Ana (#1)');
    expect(text).toContain('Ana (#2)');
    const report = buildClassReport({ folder: join(root, 'class'), discovery: discover(join(root, 'class')), labs: loadCatalogue(), lang: 'en' });
    const page = renderClassPage(report);
    for (const shown of [text, page]) for (const id of readdirSync(join(root, 'class')).filter((f) => /^[0-9a-f]{16}$/.test(f))) expect(shown).not.toContain(id);
  });
});

describe('D3: a lock is never waited for on the event loop', () => {
  /** A journal's lock file as src/learn/journal-lock.ts writes one, left in the class's copy of a learner's notes. */
  function lockFor(dev: string, learner: string, pid: number): void {
    const notes = join(root, 'class', dev, 'learners', learner, 'notes');
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, '.breaks.lock'), JSON.stringify({ pid, host: hostname(), token: 'feedfacefeedface', time: Date.now() }));
  }

  it("a lock naming the server's own pid with another token is stale: the entry is kept within 100 ms, and the others are served", async () => {
    const who = await joined(port, folder.code, 'Lou', device(0x10c));
    const other = await joined(port, folder.code, 'Max', device(0x10d));
    // kill -9 in the middle of an append, and the server started again with the same pid (a container's pid 1).
    lockFor(who.device, 'Lou', process.pid);
    const started = performance.now();
    const [kept, served] = await Promise.all([
      call(port, 'POST', '/api/entries', { code: folder.code, ...who, entries: [prediction(10)] }),
      call(port, 'POST', '/api/entries', { code: folder.code, ...other, entries: [prediction(20)] }),
    ]);
    const ms = performance.now() - started;
    expect([kept.status, served.status]).toEqual([200, 200]);
    expect(kept.body.stored).toHaveLength(1);
    expect(ms).toBeLessThan(100);
    console.log(`D3: a stale lock with the server's pid: both entries answered in ${ms.toFixed(0)} ms`);
  }, 30_000);

  it('a lock held by another live process: 503 with Retry-After at once, and the others served', async () => {
    const who = await joined(port, folder.code, 'Ned', device(0x10e));
    const other = await joined(port, folder.code, 'Oli', device(0x10f));
    // The test runner's parent: alive, on this host, not the server.
    lockFor(who.device, 'Ned', process.ppid);
    const started = performance.now();
    const [busy, served] = await Promise.all([
      call(port, 'POST', '/api/entries', { code: folder.code, ...who, entries: [prediction(10)] }),
      call(port, 'POST', '/api/entries', { code: folder.code, ...other, entries: [prediction(20)] }),
    ]);
    // Not the 15 s the lock's wait took (a bound with room for a loaded machine: the stale-lock case above holds the 100 ms).
    expect(performance.now() - started).toBeLessThan(1000);
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.body.error).toMatch(/busy/);
    expect(served.status).toBe(200);
  }, 30_000);
});

describe('D5 and D6: entries the server cannot take are 400, never 500, and the kit\'s own checks apply', () => {
  const send = async (n: number, entry: unknown) => call(port, 'POST', '/api/entries', { code: folder.code, ...(await joined(port, folder.code, 'Pat', device(0x500 + n))), entries: [entry] });

  it('an entry nested 5,000 deep: 400, and the next learner is served', async () => {
    // Written as text: 5,000 levels overflow this process's own JSON.stringify too.
    const entry = JSON.stringify(prediction(5)).replace(/}}$/, `,"runs":[${'{"a":'.repeat(5000)}{}${'}'.repeat(5000)}]}}`);
    const who = await joined(port, folder.code, 'Pat', device(0x501));
    const reply = await call(port, 'POST', '/api/entries', `{"code":"${folder.code}","learner":"Pat","device":"${who.device}","secret":"${who.secret}","entries":[${entry}]}`);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('the request nests deeper than 32 levels');
    expect((await send(2, prediction(6))).status).toBe(200);
  });

  it('an unknown outcome label or a measured value out of its range: 400, as the lab command refuses them', async () => {
    const typo = prediction(5);
    (typo.data.answers as Record<string, unknown>)['dominant-failure'] = 'isEror';
    let reply = await send(3, typo);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatch(new RegExp(`^entry 1 \\(${typo.id}\\) refused: data/answers/dominant-failure: "?isEror"? is not`));
    // broken-schema's run, as the lab command writes one (labs/catalogue.json: missing-arguments is a percentage, 0 to 100).
    const run = (measured: Record<string, unknown>) => ({ id: `run-${Math.random().toString(16).slice(2)}`, kind: 'run', lab: 'broken-schema', at: '2026-12-03T10:10:00.000Z', data: { lang: 'en', measured } });
    const good = { 'missing-arguments': 42, 'dominant-failure': 'rpc:-32603' };
    for (const [i, bad] of [{ ...good, 'missing-arguments': 250 }, { ...good, 'missing-arguments': -1 }, { ...good, 'dominant-failure': 'isEror' }, { ...good, 'missing-arguments': '42' }].entries()) {
      reply = await send(4 + i, run(bad));
      expect(reply.status, JSON.stringify(bad)).toBe(400);
      expect(reply.body.error).toMatch(/refused: data\/measured\//);
    }
    expect((await send(9, run(good))).status).toBe(200);
  });
});

const join_ = (dev: string) => join(root, 'class', dev);
