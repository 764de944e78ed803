/**
 * A stand-in for the instructor's `npm run class -- serve`, for the tests of
 * the learner's side (test/class-join*.test.ts): a node:http server of a few
 * lines that answers POST /api/join and POST /api/entries as
 * src/learn/class-wire.ts says (a secret per device, issued at its first
 * join and wanted with every entry), keeps each entry once by id, and records
 * every request. It can refuse (403), fail (500), hang (never answer), answer
 * as another server would (200, a web page) or be down (closed, its port kept
 * for a restart). Not the real server on purpose:
 * these tests are about what the learner's laptop does, whoever answers.
 *
 * Also: the lab command as a child process in a fresh copy of the kit
 * (async, so that the stub in this process can answer it).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { JournalEntry } from '../../src/learn/journal.js';

export type StubMode = 'ok' | 'refuse' | 'fail' | 'hang' | 'down' | 'other';

export interface Received {
  route: string;
  body: any;
  /** performance.now() when the request had arrived, and when its connection closed. */
  at: number;
  closedAt?: number;
}

export class ClassStub {
  mode: StubMode = 'ok';
  code = 'K7QX2M';
  revealed: string[] = [];
  /** Ids the stub neither keeps nor acknowledges (a class that answers for part of a batch). */
  ignore = new Set<string>();
  readonly received: Received[] = [];
  /** What the class keeps: each entry once, with how many times it was sent. */
  readonly kept = new Map<string, { entry: JournalEntry; sends: number }>();
  /** The secret issued to each device at its first join, as the class does (src/learn/class-wire.ts SECRET_PATTERN). */
  readonly secrets = new Map<string, string>();
  private server?: Server;
  private port = 0;

  /** As every test expects the class: up, answering, nothing ignored, nothing revealed (a test that failed half-way may leave it otherwise). */
  async reset(): Promise<void> {
    if (this.mode === 'down') await this.start();
    this.mode = 'ok';
    this.ignore = new Set();
    this.revealed = [];
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (text += chunk));
      req.on('end', () => {
        const record: Received = { route: req.url ?? '', body: JSON.parse(text || 'null'), at: performance.now() };
        this.received.push(record);
        res.on('close', () => (record.closedAt = performance.now()));
        const reply = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (this.mode === 'hang') return;
        if (this.mode === 'fail') return reply(500, { error: 'the class server failed' });
        // Another server at the class's address: a 200 with a web page.
        if (this.mode === 'other') {
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end('<!doctype html><title>Welcome</title>');
        }
        if (this.mode === 'refuse' || record.body?.code !== this.code) return reply(403, { error: 'wrong join code' });
        const device = String(record.body.device);
        if (req.url === '/api/join') {
          if (!this.secrets.has(device)) this.secrets.set(device, randomBytes(32).toString('base64url'));
          else if (record.body.secret !== this.secrets.get(device)) return reply(409, { error: 'another laptop has this id' });
          return reply(200, { class: 'Room 1', revealed: this.revealed, secret: this.secrets.get(device) });
        }
        if (record.body.secret === undefined || record.body.secret !== this.secrets.get(device)) return reply(403, { error: 'no secret of this laptop' });
        const stored: string[] = [];
        const already: string[] = [];
        for (const entry of record.body.entries as JournalEntry[]) {
          if (this.ignore.has(entry.id)) continue;
          const had = this.kept.get(entry.id);
          if (had) {
            had.sends++;
            already.push(entry.id);
          } else {
            this.kept.set(entry.id, { entry, sends: 1 });
            stored.push(entry.id);
          }
        }
        reply(200, { stored, already, revealed: this.revealed });
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    this.mode = this.mode === 'down' ? 'ok' : this.mode;
    return this;
  }

  /** Closed (connection refused), the port kept: start() listens on it again. */
  async down(): Promise<void> {
    this.mode = 'down';
    await this.stop();
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The entries requests of this test so far, each request's entries. */
  entriesSent(from = 0): JournalEntry[][] {
    return this.received.slice(from).filter((r) => r.route === '/api/entries').map((r) => r.body.entries as JournalEntry[]);
  }
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** `npm run lab -- <args>` in the copy `dir`, without npm (what package.json runs), in English unless told. */
export function labIn(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return commandIn(dir, 'scripts/lab.ts', args, env);
}

/** Another of the kit's commands (`scripts/check.ts`), the same way. */
export function commandIn(dir: string, entry: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'INIT_CWD'));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(dir, 'scripts/launch.mjs'), entry, ...args], { cwd: dir, env: { ...clean, NO_COLOR: '1', LC_ALL: 'en_GB.UTF-8', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: performance.now() - started });
    });
  });
}
