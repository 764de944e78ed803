/**
 * `npm run class -- serve` refuses what it must, each with its status and a
 * line saying why, and keeps serving everyone else: after every refusal a
 * good learner's entry is still acknowledged and kept. The server is the real
 * command in a child process (test/helpers/class-serve.ts); the expected
 * statuses are the and the wire's (src/learn/class-wire.ts, RFC 9110
 * for their meaning), written here by hand.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Journal } from '../src/learn/journal.js';
import { cli } from './helpers/class-report.js';
import { call, device, joined, post, prediction, raw, startServe, type Served } from './helpers/class-serve.js';

let root: string;
let folder: string;
let served: Served;
const good = { learner: 'Ana', device: device(1) };
const kept: string[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'class-serve-'));
  folder = join(root, 'class');
  served = await startServe(folder);
}, 90_000);

afterAll(async () => {
  served?.child.kill('SIGKILL');
  await served?.ended;
  rmSync(root, { recursive: true, force: true });
});

/** A good learner sends a new entry: acknowledged as stored. Called after every refusal. */
async function stillServes(): Promise<void> {
  const entry = prediction(40);
  const reply = await post(served.port, '/api/entries', { code: served.code, ...(await joined(served.port, served.code, good.learner, good.device)), entries: [entry] });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.body.stored).toEqual([entry.id]);
  kept.push(entry.id);
}

/** Every probe from a laptop of its own: the good learner's rate (20 at once, then 4 a second) stays the good learner's. */
let probes = 0;
const probe = () => ({ learner: 'Bea', device: device(0x1000 + probes++) });
/** An entries request from a laptop that joined (its secret with it), `body` overriding any field. */
const entries = async (body: Record<string, unknown>, from = probe()) => post(served.port, '/api/entries', { code: served.code, ...(await joined(served.port, served.code, from.learner, from.device)), ...body });

describe('class serve: refusals, each with the server still serving', () => {
  it('joins with the right code and keeps an entry once, however often it is sent', async () => {
    const first = { learner: 'Ana', device: device(2) };
    const reply = await post(served.port, '/api/join', { code: served.code, ...first });
    expect(reply.status).toBe(200);
    // The device's secret (issue 35, D2): 32 random bytes, base64url.
    expect(reply.body).toEqual({ class: 'class', revealed: [], secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    // The code as a learner might type it, in lower case: the same code; the device's second join carries its secret, and gets the same one back.
    const again = await post(served.port, '/api/join', { code: served.code.toLowerCase(), ...first, secret: reply.body.secret });
    expect([again.status, again.body.secret]).toEqual([200, reply.body.secret]);
    const entry = prediction(30);
    const from = probe();
    expect((await entries({ entries: [entry] }, from)).body).toEqual({ stored: [entry.id], already: [], revealed: [] });
    expect((await entries({ entries: [entry] }, from)).body).toEqual({ stored: [], already: [entry.id], revealed: [] });
    expect((await entries({ entries: [entry, prediction(31, { kind: 'revision' })] }, from)).body.already).toEqual([entry.id]);
    // The same id twice in one batch: kept once.
    const twice = prediction(32, { kind: 'revision' });
    expect((await entries({ entries: [twice, twice] }, from)).body).toEqual({ stored: [twice.id], already: [twice.id], revealed: [] });
    expect(new Journal(join(folder, from.device, 'learners', from.learner, 'notes')).read().filter((e) => e.id === twice.id)).toHaveLength(1);
    await stillServes();
  });

  it('403 for a wrong or missing join code', async () => {
    const wrong = served.code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
    for (const code of [wrong, '', undefined]) {
      const reply = await entries({ code, entries: [prediction(1)] });
      expect(reply.status).toBe(403);
      expect(reply.body.error).toMatch(/wrong join code/);
      expect((await post(served.port, '/api/join', { code, ...probe() })).status).toBe(403);
    }
    await stillServes();
  });

  it('413 for a body over 256 KB, declared or not, and 400 for one entry over 32 KB', async () => {
    const entry = JSON.stringify({ code: served.code, ...good, entries: [prediction(1)] });
    // Declared too large: refused before a byte of the body is sent (the server would otherwise wait for it).
    const declared = await raw(served.port, `POST /api/entries HTTP/1.1\nHost: x\nContent-Type: application/json\nContent-Length: ${256 * 1024 + 1}`);
    expect(declared).toMatch(/^HTTP\/1\.1 413 /);
    expect(declared).toMatch(/"error":"the request is larger than 262144 bytes"/);
    // No Content-Length: 16 KB chunks, 2 MB in all, and a final chunk only if the server is still reading.
    function* chunks() {
      yield `${Buffer.byteLength(entry).toString(16)}\r\n${entry}\r\n`;
      for (let i = 0; i < 128; i++) yield `4000\r\n${' '.repeat(0x4000)}\r\n`;
      yield '0\r\n\r\n';
    }
    const chunked = await raw(served.port, 'POST /api/entries HTTP/1.1\nHost: x\nContent-Type: application/json\nTransfer-Encoding: chunked', chunks());
    expect(chunked).toMatch(/^HTTP\/1\.1 413 /);
    const long = prediction(1);
    (long.data as Record<string, unknown>).runs = Array.from({ length: 20 }, () => 'y'.repeat(2000));
    const reply = await entries({ entries: [long] });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe(`entry 1 (${long.id}) refused: it is larger than 32768 bytes`);
    await stillServes();
  });

  it('400 for an unknown lab, an unknown question, a number out of range, a text too long, an unsent kind; naming the entry', async () => {
    const first = prediction(1);
    const unknownLab = { ...prediction(1), lab: 'no-such-lab' };
    const from = probe();
    let reply = await entries({ entries: [first, unknownLab] }, from);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatch(new RegExp(`^entry 2 \\(${unknownLab.id}\\) refused: /lab must be equal to one of the allowed values \\(broken-schema, `));
    const question = prediction(1);
    (question.data.answers as Record<string, unknown>)['no-such-question'] = 3;
    reply = await entries({ entries: [question] });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe(`entry 1 (${question.id}) refused: data/answers must NOT have additional properties: no-such-question`);
    // missing-arguments is a percentage: 0 to 100 (labs/catalogue.json).
    const range = prediction(101);
    reply = await entries({ entries: [range] });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe(`entry 1 (${range.id}) refused: data/answers/missing-arguments must be <= 100`);
    const text = prediction(1);
    text.data.reasoning = 'z'.repeat(2001);
    expect((await entries({ entries: [text] })).status).toBe(400);
    const fixed = { ...prediction(1), kind: 'fixed' };
    reply = await entries({ entries: [fixed] });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatch(/\/kind must be equal to one of the allowed values \(prediction, revision, run, reflection\)/);
    // Nothing of a refused request was kept, not even its valid first entry.
    expect(existsSync(join(folder, from.device, 'learners'))).toBe(false);
    await stillServes();
  });

  it('400 for a hostile learner name or device, and nothing written outside the class folder', async () => {
    for (const learner of ['<img src=x onerror=alert(1)>', '../../escape', 'a/b', '..', '.hidden', 'x'.repeat(41), 'CON']) {
      const reply = await entries({ learner, entries: [prediction(1)] });
      expect(reply.status, learner).toBe(400);
      expect(reply.body.error).toMatch(/^The learner name .* is not allowed/);
    }
    for (const dev of ['../../../tmp', 'ABCDEF0123456789', '0123']) {
      const reply = await post(served.port, '/api/join', { code: served.code, learner: 'Ana', device: dev });
      expect(reply.status, dev).toBe(400);
      expect(reply.body.error).toMatch(/^the request is not valid: \/device must match pattern/);
    }
    expect(readdirSync(root)).toEqual(['class']);
    // Only class.json and one folder per device that sent something kept: 16 hex digits each.
    expect(readdirSync(folder).filter((f) => f !== 'class.json' && !/^[0-9a-f]{16}$/.test(f))).toEqual([]);
    expect(readdirSync(folder)).toContain(good.device);
    await stillServes();
  });

  it('401 without the token or with a wrong one, on the instructor\'s routes', async () => {
    expect((await call(served.port, 'GET', '/api/state')).status).toBe(401);
    expect((await call(served.port, 'GET', '/api/state', undefined, { authorization: 'Bearer nope' })).status).toBe(401);
    expect((await call(served.port, 'GET', '/api/state', undefined, { authorization: `Bearer ${served.token}x` })).status).toBe(401);
    expect((await post(served.port, '/api/reveal', { lab: 'broken-schema', revealed: true })).status).toBe(401);
    // The join code is not the token.
    expect((await call(served.port, 'GET', '/api/state', undefined, { authorization: `Bearer ${served.code}` })).status).toBe(401);
    expect((await call(served.port, 'GET', '/api/state', undefined, { authorization: `Bearer ${served.token}` })).status).toBe(200);
    await stillServes();
  });

  it('404, 405 and 415 for the wrong address, method or content type; 400 for a body that is not JSON', async () => {
    // The page itself needs no token (it holds no data), and may fetch nothing but this server.
    const page = await call(served.port, 'GET', '/');
    expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none';.* connect-src 'self'/);
    expect(page.body).not.toContain(served.token);
    expect((await call(served.port, 'GET', '/nope')).status).toBe(404);
    const method = await call(served.port, 'GET', '/api/join');
    expect(method.status).toBe(405);
    expect(method.headers.allow).toBe('POST');
    expect((await post(served.port, '/api/join', 'code=x', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post(served.port, '/api/join', '{"code":')).status).toBe(400);
    await stillServes();
  });

  it('429 for a flood from one device, with Retry-After, while another device is served', async () => {
    const flooder = await joined(served.port, served.code, 'Flo', device(3));
    // The join that brought the secret took one of the bucket's 20; a quarter of a second gives it back.
    await new Promise((r) => setTimeout(r, 300));
    const started = performance.now();
    const replies = await Promise.all(Array.from({ length: 80 }, () => post(served.port, '/api/join', { code: served.code, ...flooder })));
    const seconds = (performance.now() - started) / 1000;
    const accepted = replies.filter((r) => r.status === 200).length;
    const limited = replies.filter((r) => r.status === 429);
    // The bucket (serve-http.ts RATE.device): 20 at once, then 4 a second.
    expect(accepted).toBeGreaterThanOrEqual(20);
    expect(accepted).toBeLessThanOrEqual(20 + Math.ceil(4 * seconds));
    expect(limited.length).toBe(80 - accepted);
    expect(limited[0]!.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited[0]!.body.error).toMatch(/too many requests/);
    await stillServes();
  });

  it('429 for a flood from one address that names no device, while another address is served', async () => {
    // Linux answers on all of 127.0.0.0/8: the flood comes from 127.0.0.2, the good learner from 127.0.0.1.
    const started = performance.now();
    const statuses: number[] = [];
    for (let wave = 0; wave < 8; wave++) {
      const replies = await Promise.all(Array.from({ length: 50 }, () => call(served.port, 'GET', '/', undefined, {}, '127.0.0.2')));
      statuses.push(...replies.map((r) => r.status));
    }
    const seconds = (performance.now() - started) / 1000;
    const accepted = statuses.filter((s) => s === 200).length;
    // The bucket (serve-http.ts RATE.address): 300 at once, then 60 a second.
    expect(accepted).toBeGreaterThanOrEqual(300);
    expect(accepted).toBeLessThanOrEqual(300 + Math.ceil(60 * seconds));
    expect(statuses.filter((s) => s === 429).length).toBe(400 - accepted);
    await stillServes();
  });

  it('kept every acknowledged entry exactly once, in the journal class report reads', () => {
    const ids = new Journal(join(folder, good.device, 'learners', 'Ana', 'notes')).read().map((e) => e.id);
    expect(ids).toEqual(kept);
  });
});

describe('class serve: the command line', () => {
  it('--help shows serve and its options; a bad option is one line and exit 2', () => {
    const help = cli(['serve', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^ {2}serve \[FOLDER\] +the live class/m);
    for (const option of ['--port N', '--lan', '--name TEXT']) expect(help.stdout).toContain(option);
    const port = cli(['serve', '--port', 'abc']);
    expect([port.status, port.stderr]).toEqual([2, 'class serve: --port takes a number from 0 to 65535; got "abc"\nnpm run class -- serve --help\n']);
    const two = cli(['serve', 'a', 'b']);
    expect(two.status).toBe(2);
    expect(two.stderr.split('\n')[0]).toBe('class serve: serve takes one folder; got 2: a b');
  });
});
