/**
 * Test helpers: the real server as a child process over stdio.
 * `connect` talks through the SDK client, as a host would; `rawServer` writes
 * raw lines, for the inputs no SDK client would ever send.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** The bundled baseline server, built once per test run by test/setup/build-server.ts. */
export const SERVER_JS = inject('serverJs');

export async function connect(args: string[] = [], server = SERVER_JS, env: Record<string, string> = {}): Promise<{ client: Client; close: () => Promise<void> }> {
  // The SDK passes a child only a few safe variables unless told otherwise.
  const transport = new StdioClientTransport({ command: process.execPath, args: [server, ...args], stderr: 'pipe', env: { ...getDefaultEnvironment(), ...env } });
  const client = new Client({ name: 'schema-breaks-tests', version: '0.1.0' });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

export interface RawReply {
  jsonrpc?: string;
  id?: string | number | null;
  result?: any;
  error?: { code: number; message: string; data?: unknown };
}

/** A server driven line by line. Replies are collected as they come. */
export class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly replies: RawReply[] = [];
  exited: { code: number | null; signal: string | null } | undefined;
  stderr = '';
  private buffer = '';
  private waiters: { test: (r: RawReply) => boolean; resolve: (r: RawReply) => void }[] = [];

  /** `start` replaces `node <server> <args>`, e.g. a start from the server's snapshot (serverCommand). */
  constructor(args: string[] = [], server = SERVER_JS, start?: { command: string; args: string[] }) {
    this.child = start ? spawn(start.command, start.args, { stdio: 'pipe' }) : spawn(process.execPath, [server, ...args], { stdio: 'pipe' });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      // A reply of 20 MB arrives in many chunks: look for its end in the new chunk only, not in all of it so far.
      const complete = chunk.includes('\n');
      this.buffer += chunk;
      if (!complete) return;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) !== -1) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        const reply = JSON.parse(line) as RawReply; // stdout must carry JSON only: a non-JSON line fails the test
        this.replies.push(reply);
        this.waiters = this.waiters.filter((w) => (w.test(reply) ? (w.resolve(reply), false) : true));
      }
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      if (this.stderr.length < 1_000_000) this.stderr += chunk;
    });
    this.child.on('exit', (code, signal) => (this.exited = { code, signal }));
    // Writing to a server that died is reported by the tests that check `exited`, not as an unhandled EPIPE.
    this.child.stdin.on('error', () => {});
  }

  /** Writes raw text; a newline is added. */
  send(line: string): Promise<void> {
    return new Promise((resolve, reject) => this.child.stdin.write(`${line}\n`, (e) => (e ? reject(e) : resolve())));
  }

  request(id: string | number, method: string, params?: unknown): Promise<RawReply> {
    const reply = this.waitFor((r) => r.id === id);
    const sent = this.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
    return sent.then(() => reply);
  }

  waitFor(test: (r: RawReply) => boolean, timeoutMs = 10_000): Promise<RawReply> {
    const found = this.replies.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching reply within ${timeoutMs} ms; stderr: ${this.stderr.slice(-500)}`)), timeoutMs);
      this.waiters.push({ test, resolve: (r) => (clearTimeout(timer), resolve(r)) });
    });
  }

  async initialize(): Promise<void> {
    await this.request('init', 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } });
    await this.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise((r) => this.child.once('exit', r));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3000);
    await gone;
    clearTimeout(timer);
  }
}
