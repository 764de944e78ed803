/**
 * Shared by the class server's tests (test/class-serve*.test.ts): the real
 * command, `npm run class -- serve FOLDER --port 0`, started as a child
 * process through the launcher as npm runs it, and a tiny HTTP client of the
 * test's own (not the learner's side, src/learn/class-link.ts), so that what
 * the server is sent is exactly what the test wrote.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { REPO } from './server.js';

export interface Served {
  child: ChildProcess;
  port: number;
  code: string;
  token: string;
  /** Everything the server printed so far. */
  output: () => string;
  /** Resolves when the process has ended: its exit code, or the signal's name. */
  ended: Promise<number | string>;
}

const ENV = { ...process.env, LANG: 'en_GB.UTF-8', LC_ALL: '', LC_MESSAGES: '', NO_COLOR: '1' };

/** Starts the server and waits for the lines that give its port, join code and token. */
export async function startServe(folder: string, args: string[] = []): Promise<Served> {
  const child = spawn(process.execPath, ['scripts/launch.mjs', 'scripts/class.ts', 'serve', folder, '--port', '0', ...args], { cwd: REPO, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const ended = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const started = Date.now();
  while (!/Listening on port \d+/.test(out)) {
    if (child.exitCode !== null) throw new Error(`class serve ended before listening:\n${out}`);
    if (Date.now() - started > 60_000) throw new Error(`class serve did not start within 60 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  // The lines an instructor reads (src/class/serve.ts's banner).
  const port = Number(/Listening on port (\d+)/.exec(out)![1]);
  const code = /--code ([A-Z0-9]+)/.exec(out)![1]!;
  const token = /#token=(\S+)/.exec(out)![1]!;
  return { child, port, code, token, output: () => out, ended };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * One request. `body` is sent as given when it is a string or a Buffer
 * (the refusal tests), as JSON otherwise. A server that answers before it
 * read the whole body (413) may reset the connection while we still write:
 * the reply, when it came, is what counts.
 */
export function call(port: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}, localAddress?: string): Promise<Reply> {
  const bytes = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? Buffer.from(body) : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, agent: false, ...(localAddress ? { localAddress } : {}), headers: { ...(bytes ? { 'content-type': 'application/json', 'content-length': String(bytes.length) } : {}), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // a page, not JSON
          }
          resolve({ status: res.statusCode!, headers: res.headers, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (bytes) req.write(bytes, () => undefined);
    req.end();
  });
}

/**
 * A request written on a raw socket: `head` (the request line and headers), then `chunks` one after another
 * while the server still reads. The reply is read even when the server closes the connection while we still
 * write (what "stop reading" means), which node:http's client reports as an EPIPE instead.
 */
export function raw(port: number, head: string, chunks: Iterable<string> = []): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.setEncoding('utf8').on('data', (d: string) => (reply += d));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(reply));
    socket.write(`${head.replace(/\n/g, '\r\n')}\r\n\r\n`);
    const rest = chunks[Symbol.iterator]();
    const more = (): void => {
      for (let next = rest.next(); !next.done; next = rest.next()) {
        if (socket.destroyed) return;
        if (!socket.write(next.value)) return void socket.once('drain', more);
      }
    };
    more();
  });
}

export const post = (port: number, path: string, body: unknown, headers: Record<string, string> = {}) => call(port, 'POST', path, body, headers);

let counter = 0;
/** A prediction entry as src/learn/flow.ts writes one for broken-schema. */
export function prediction(missingArguments: number | null, extra: { id?: string; at?: string; kind?: 'prediction' | 'revision' } = {}) {
  counter += 1;
  return {
    id: extra.id ?? `2026-12-03T10:00:00.000Z-${process.pid.toString(16)}${String(counter).padStart(6, '0')}`,
    kind: extra.kind ?? 'prediction',
    lab: 'broken-schema',
    at: extra.at ?? '2026-12-03T10:00:00.000Z',
    data: { answers: { 'missing-arguments': missingArguments, 'dominant-failure': 'rpc:-32603' }, reasoning: 'because the schema says so', lang: 'en' },
  };
}

/** A device id as the learner's side makes one: 16 hex digits. */
export const device = (n: number) => n.toString(16).padStart(16, '0');

const secrets = new Map<string, string>();
/**
 * A learner on a laptop, joined as the learner's side joins (issue 35, D2):
 * the first join of a device brings the secret every entry must carry. Kept
 * per server and device, so that a second call (or a restarted server on the
 * same folder) uses the same one.
 */
export async function joined(port: number, code: string, learner: string, dev: string, localAddress?: string): Promise<{ learner: string; device: string; secret: string }> {
  const key = `${code}/${dev}`;
  if (!secrets.has(key)) {
    const reply = await call(port, 'POST', '/api/join', { code, learner, device: dev }, {}, localAddress);
    if (reply.status !== 200) throw new Error(`join of ${learner} on ${dev}: ${reply.status} ${JSON.stringify(reply.body)}`);
    secrets.set(key, reply.body.secret);
  }
  return { learner, device: dev, secret: secrets.get(key)! };
}
