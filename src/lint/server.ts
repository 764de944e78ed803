/**
 * Starting any stdio MCP server, or reaching one over Streamable HTTP, and
 * reading its tools as a host does: a real `initialize` through the SDK's own
 * Client, then `tools/list`, page after page while the server gives a
 * `nextCursor`. Over HTTP the transport is the SDK's own
 * StreamableHTTPClientTransport (MCP 2025-03-26 and later, "Streamable
 * HTTP"), the one the MCP Inspector uses.
 *
 * The server is a child process in a process group of its own, so that what
 * it starts (an `npx` wrapper starts node, node may start more) ends with it:
 * closing ends its stdin, then signals the whole group, SIGTERM and at last
 * SIGKILL. Nothing is left behind, also when the server hangs, ignores
 * SIGTERM, or the linter itself is interrupted.
 *
 * Every line on the server's stdout must be a JSON-RPC message (MCP, stdio
 * transport: "The server MUST NOT write anything to its stdout that is not a
 * valid MCP message"); other lines are kept as samples, not parsed.
 * The result is taken as the server sent it, without the SDK's own check of
 * the Tool shape: a linter must read the schemas a stricter client refuses.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, ListRootsRequestSchema, McpError, type ClientCapabilities, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ServerFailure } from './types.js';

export interface ServerSpec {
  /** What the reports call it: a config entry's name, a variant, or the command. */
  label: string;
  command: string;
  args: string[];
  /** Added to the linter's own environment. */
  env?: Record<string, string>;
  cwd?: string;
}

/** A server reached over Streamable HTTP: its endpoint, and headers sent with every request (Authorization, ...). */
export interface HttpSpec {
  label: string;
  url: string;
  headers?: Record<string, string>;
}

/** The server did not start, wrote garbage, or did not answer in time: exit 2. */
export class StartError extends Error {
  constructor(readonly failure: ServerFailure) {
    super(failure.message);
  }
}

/**
 * What the linter's client may declare at initialize. Some servers list a
 * tool only to a client that declares what it needs (server-everything lists
 * get-roots-list only with roots, its elicitation tools only with
 * elicitation), so by default the linter declares what a broad host does and
 * sees every tool a host could. It answers roots/list with no roots; it
 * never calls a tool that would sample or elicit.
 */
export const CLIENT_CAPABILITIES = ['roots', 'sampling', 'elicitation'] as const;
export type ClientCapability = (typeof CLIENT_CAPABILITIES)[number];

function capabilitiesOf(declared: readonly ClientCapability[]): ClientCapabilities {
  return {
    ...(declared.includes('roots') ? { roots: { listChanged: false } } : {}),
    ...(declared.includes('sampling') ? { sampling: {} } : {}),
    ...(declared.includes('elicitation') ? { elicitation: { form: {}, url: {} } } : {}),
  };
}

/** Lines of stdout that were not JSON-RPC, and stderr, kept for the messages. */
const SAMPLE_LINES = 3;
const STDERR_LIMIT = 64 * 1024;
/** A cursor loop (a server that hands back the same cursor) is cut here. */
export const MAX_PAGES = 100;

/** Every server group still running: ended on the way out whatever happens. */
const live = new Set<ChildTransport>();
process.on('exit', () => {
  for (const transport of live) transport.killGroup('SIGKILL');
});

/** Ends every server started here at once (for a signal handler). */
export function killAllServers(): void {
  for (const transport of live) transport.killGroup('SIGKILL');
}

/** The SDK's Transport over a child process of our own (its StdioClientTransport cannot start one in its own group). */
class ChildTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  child: ChildProcess | undefined;
  garbage = 0;
  garbageSample: string[] = [];
  stderr = '';
  exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Whether it exited before the linter began to end it (a crash), not because it was ended. */
  exitedOnItsOwn = false;
  spawnError: Error | undefined;
  /** The revision initialize agreed on (the SDK's Client tells its transport). */
  protocolVersion: string | null = null;
  private buffer = '';
  private closing: Promise<void> | undefined;
  private closed = false;
  private exitPromise: Promise<void> = Promise.resolve();

  constructor(readonly spec: ServerSpec) {}

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async start(): Promise<void> {
    const group = process.platform !== 'win32';
    const child = spawn(this.spec.command, this.spec.args, {
      cwd: this.spec.cwd,
      env: { ...process.env, ...this.spec.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: group,
      windowsHide: true,
    });
    this.child = child;
    live.add(this);
    this.exitPromise = new Promise((resolve) => {
      child.once('close', () => resolve());
      child.once('error', () => resolve());
    });
    child.once('error', (error) => {
      this.spawnError = error;
      this.finish();
    });
    child.once('exit', (code, signal) => {
      this.exited = { code, signal };
      this.exitedOnItsOwn = this.closing === undefined;
    });
    child.once('close', () => this.finish());
    child.stdin!.on('error', () => {}); // EPIPE from a server that is gone: its exit says more
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => this.read(chunk));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (this.stderr.length < STDERR_LIMIT) this.stderr += chunk;
    });
  }

  private read(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      let message: JSONRPCMessage | undefined;
      try {
        const parsed = JSONRPCMessageSchema.safeParse(JSON.parse(line));
        if (parsed.success) message = parsed.data;
      } catch {
        // not JSON at all
      }
      if (message) this.onmessage?.(message);
      else {
        this.garbage++;
        if (this.garbageSample.length < SAMPLE_LINES) this.garbageSample.push(line.length > 120 ? `${line.slice(0, 117)}...` : line);
      }
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || this.closed) throw new Error('the server is not running');
    await new Promise<void>((resolve, reject) => stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve())));
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  /** A signal to the server's whole process group (or to the child alone where there are no groups). */
  killGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      if (process.platform !== 'win32') process.kill(-pid, signal);
      else this.child!.kill(signal);
    } catch {
      // ESRCH: nothing of the group is left
    }
  }

  /** stdin closed, a moment to exit, then SIGTERM and SIGKILL to the group; resolves when the server is gone. */
  close(): Promise<void> {
    this.closing ??= this.end();
    return this.closing;
  }

  private async end(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.stdin?.end();
    const gone = () => this.exited !== undefined || this.spawnError !== undefined;
    const wait = (ms: number) => Promise.race([this.exitPromise, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
    if (!gone()) await wait(300);
    if (!gone()) {
      this.killGroup('SIGTERM');
      await wait(1000);
    }
    // Whatever the server started and left running goes with the group.
    this.killGroup('SIGKILL');
    if (!gone()) await wait(1000);
    live.delete(this);
    this.finish();
  }

  /**
   * What stderr says, for a message: the server's own last error line first when it wrote one (node prints
   * "Error: Cannot find module '/x/server.js'" above a stack that ends in "requireStack: []"; Python its
   * "ModuleNotFoundError: ..." as the last line), then the last lines.
   */
  stderrTail(): string {
    const lines = this.stderr.trim().split('\n').map((l) => l.trimEnd()).filter(Boolean);
    if (lines.length === 0) return '';
    const tail = lines.slice(-3).join(' | ').slice(0, 300);
    const error = lastErrorLine(lines);
    return error === undefined || tail.includes(error) ? ` (stderr: ${tail})` : `: ${error} (stderr: ${tail})`;
  }
}

/**
 * The last line that names an error as runtimes print an uncaught one: "Error: ...", "TypeError: ...",
 * "Error [ERR_MODULE_NOT_FOUND]: ..." (node), "ModuleNotFoundError: ..." (Python), "panic: ..." (Go).
 */
const ERROR_LINE = /^(?:Uncaught )?(?:(?:[A-Za-z_][\w.]*)?(?:Error|Exception)(?: \[[A-Z0-9_]+\])?|panic): /;

export function lastErrorLine(lines: string[]): string | undefined {
  const line = [...lines].reverse().find((l) => ERROR_LINE.test(l.trim()));
  return line === undefined ? undefined : line.trim().slice(0, 300);
}

/** What a server answered to `tools/call` with no arguments (rule rejects-missing-arguments, with --contract). */
export type CallReply = { code: number; message: string } | { isError: boolean; text: string };

export interface Listing {
  serverName: string | null;
  serverVersion: string | null;
  protocolVersion: string | null;
  /** The server's capabilities, as initialize gave them. */
  capabilities: Record<string, unknown>;
  /** Every entry of every page, as sent. */
  tools: unknown[];
  pages: number;
  /** Set when the server handed back a cursor it had already given (the listing stopped there) or ran past MAX_PAGES. */
  cursorLoop: boolean;
  /** stdout lines that were not JSON-RPC: how many, and the first few. */
  garbage: number;
  garbageSample: string[];
  listedInMs: number;
}

const ListPage = z.object({ tools: z.array(z.unknown()), nextCursor: z.string().optional() }).passthrough();
const CallResult = z.object({ content: z.array(z.unknown()).optional(), isError: z.boolean().optional() }).passthrough();

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/**
 * A session with one server: initialize, every tools/list page, then (with
 * --contract) the calls with no arguments, then close. Throws StartError when
 * the server cannot be read, after ending it.
 */
export async function readServer(
  spec: ServerSpec | HttpSpec,
  timeoutMs: number,
  probe: string[] = [],
  declared: readonly ClientCapability[] = CLIENT_CAPABILITIES,
): Promise<Listing & { calls: Map<string, CallReply> }> {
  const http = 'url' in spec ? new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers ?? {} } }) : undefined;
  const child = 'url' in spec ? undefined : new ChildTransport(spec);
  const transport: Transport = http ?? child!;
  const close = async () => {
    if (child) return child.close();
    // DELETE ends the session on the server (Streamable HTTP, "Session Management"); a server may refuse it (405).
    await http!.terminateSession().catch(() => {});
    await http!.close();
  };
  const client = new Client({ name: 'schema-breaks-lint', version: '1' }, { capabilities: capabilitiesOf(declared) });
  if (declared.includes('roots')) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [] }));
  const started = performance.now();
  let stage = 'initialize';
  try {
    await client.connect(transport, { timeout: timeoutMs });
    const tools: unknown[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    let cursorLoop = false;
    stage = 'tools/list';
    do {
      const page = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, ListPage, { timeout: timeoutMs });
      pages++;
      tools.push(...page.tools);
      cursor = page.nextCursor;
      if (cursor !== undefined && (cursors.has(cursor) || pages >= MAX_PAGES)) {
        cursorLoop = true;
        break;
      }
      if (cursor !== undefined) cursors.add(cursor);
    } while (cursor !== undefined);
    const listedInMs = performance.now() - started;
    stage = 'tools/call';
    const calls = new Map<string, CallReply>();
    const listed = new Set(tools.map((t) => (t && typeof t === 'object' ? (t as { name?: unknown }).name : undefined)));
    for (const name of probe.filter((n) => listed.has(n))) {
      try {
        const result = await client.request({ method: 'tools/call', params: { name, arguments: {} } }, CallResult, { timeout: timeoutMs });
        const text = (result.content ?? []).map((c) => (c && typeof c === 'object' && (c as { type?: unknown }).type === 'text' ? String((c as { text?: unknown }).text) : '')).join('\n');
        calls.set(name, { isError: result.isError === true, text });
      } catch (error) {
        if (!(error instanceof McpError) || error.code === ErrorCode.RequestTimeout || error.code === ErrorCode.ConnectionClosed) throw error;
        calls.set(name, { code: error.code, message: error.message.replace(`MCP error ${error.code}: `, '') });
      }
    }
    const info = client.getServerVersion();
    return {
      serverName: typeof info?.name === 'string' ? info.name : null,
      serverVersion: typeof info?.version === 'string' ? info.version : null,
      protocolVersion: (child ? child.protocolVersion : http!.protocolVersion) ?? null,
      capabilities: (client.getServerCapabilities() ?? {}) as Record<string, unknown>,
      tools,
      pages,
      cursorLoop,
      garbage: child?.garbage ?? 0,
      garbageSample: child?.garbageSample ?? [],
      listedInMs,
      calls,
    };
  } catch (error) {
    await close();
    throw new StartError(http ? httpFailureOf(error, spec as HttpSpec, stage, timeoutMs) : failureOf(error, child!, stage, timeoutMs));
  } finally {
    await close();
  }
}

/** Says which way an HTTP server failed: not reached, answered with an HTTP error, did not answer, or answered wrong. */
function httpFailureOf(error: unknown, spec: HttpSpec, stage: string, timeoutMs: number): ServerFailure {
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return { kind: 'timeout', message: `${spec.url} did not answer ${stage} within ${seconds(timeoutMs)}` };
  // fetch fails with a TypeError whose cause names the socket error (ECONNREFUSED, ENOTFOUND).
  const cause = error instanceof Error && error.cause instanceof Error ? ((error.cause as NodeJS.ErrnoException).code ?? error.cause.message) : undefined;
  if (cause !== undefined && !(error instanceof StreamableHTTPError)) return { kind: 'connect', message: `cannot reach ${spec.url}: ${cause}` };
  const message = error instanceof Error ? error.message : String(error);
  const status = error instanceof StreamableHTTPError && error.code !== undefined && error.code > 0 ? ` (HTTP ${error.code})` : '';
  return { kind: 'protocol', message: `${stage} failed${status}: ${message.split('\n')[0]!.slice(0, 300)}` };
}

/** Says which way the server failed: never started, exited, wrote garbage, did not answer, or answered wrong. */
function failureOf(error: unknown, t: ChildTransport, stage: string, timeoutMs: number): ServerFailure {
  const garbage = t.garbage > 0 ? `; it wrote ${t.garbage} line${t.garbage === 1 ? '' : 's'} that ${t.garbage === 1 ? 'is' : 'are'} not JSON-RPC on stdout (${t.garbageSample.map((l) => JSON.stringify(l)).join(', ')})` : '';
  if (t.spawnError) {
    const code = (t.spawnError as NodeJS.ErrnoException).code;
    return { kind: 'spawn', message: `cannot start ${JSON.stringify(t.spec.command)}: ${code === 'ENOENT' ? 'no such command' : t.spawnError.message}` };
  }
  if (t.exited && t.exitedOnItsOwn) {
    const how = t.exited.signal ? `was killed by ${t.exited.signal}` : `exited with code ${t.exited.code}`;
    return { kind: 'exit', message: `the server ${how} before answering ${stage}${garbage}${t.stderrTail()}` };
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    const kind = t.garbage > 0 ? 'garbage' : 'timeout';
    const answered = stage === 'initialize' ? '' : ` (it answered initialize${stage === 'tools/call' ? ' and tools/list' : ''})`;
    return { kind, message: `the server did not answer ${stage} within ${seconds(timeoutMs)}${answered}${garbage}; it was ended${t.stderrTail()}` };
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return { kind: 'exit', message: `the server closed the connection before answering ${stage}${garbage}${t.stderrTail()}` };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'protocol', message: `${stage} failed: ${message.split('\n')[0]!.slice(0, 300)}${garbage}${t.stderrTail()}` };
}
