/**
 * One variant server as a client sees it: a child process spoken to over stdio
 * by the SDK's own Client, as a real host does. Every way a call can end is
 * turned into an outcome label here; nothing here knows which variant runs.
 *
 * A server that crashes, hangs or writes garbage cannot hang the runner: every
 * request has a timeout, a dead server is restarted a bounded number of times,
 * and `close()` kills what is left. One that did none of these can serve
 * another run (`reusable`, `beginRun`; server-pool.ts says when).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { OutcomeLabel } from './types.js';

export interface ServerCommand {
  command: string;
  args: string[];
}

export interface CallOutcome {
  label: OutcomeLabel;
  /** The text the server sent: the tool's answer, the isError text, or the JSON-RPC error's message as it was on the wire. */
  text: string;
  latencyMs: number;
  /** For a timeout: how long the client waited, in seconds. */
  timeoutSeconds?: number;
}

/** How many times a run restarts a server that died or stopped answering. */
const RESTARTS = 2;
/** After this many timeouts in a row, the server is taken for hung and restarted. */
const TIMEOUTS_BEFORE_RESTART = 2;
/** stderr kept per server, for the report's sample of the executor's traces. */
const STDERR_LIMIT = 64 * 1024;

export class ServerConnection {
  private client: Client | undefined;
  private transport: StdioClientTransport | undefined;
  private restartsLeft = RESTARTS;
  private timeoutsInARow = 0;
  /** Why the server is down when the next call needs it, for the notes. */
  private downBecause = 'it exited';
  /** Set once the server is beyond saving: every later call ends at once with this. */
  private dead: CallOutcome | undefined;
  stderr = '';
  /** After a new run began on a server that was mid-line on stderr: the rest of that line is the last run's. */
  private skipToNewline = false;
  /** Lines on the server's stdout that were not JSON-RPC. */
  garbageLines = 0;
  exits = 0;
  /** Set by anything but a plain answer: a timeout, an exit, a restart, garbage. A troubled server is never lent to another run (server-pool.ts). */
  private troubled = false;
  notes: string[] = [];

  /**
   * Starting a server and listing its tools may take longer than one call on
   * a loaded machine (CI on two busy cores): a short per-call timeout must
   * not turn a slow start into a verdict on the server.
   */
  private readonly startTimeoutMs: number;

  constructor(
    private readonly server: ServerCommand,
    private readonly timeoutMs: number,
  ) {
    this.startTimeoutMs = Math.max(timeoutMs, 10_000);
  }

  private async start(): Promise<void> {
    const transport = new StdioClientTransport({ ...this.server, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => {
      let text = chunk.toString('utf8');
      if (this.skipToNewline) {
        const end = text.indexOf('\n');
        if (end < 0) return;
        this.skipToNewline = false;
        text = text.slice(end + 1);
      }
      if (this.stderr.length < STDERR_LIMIT) this.stderr += text;
    });
    transport.onerror = (error) => {
      if (/JSON|Unexpected token|parse/i.test(String(error))) {
        this.garbageLines++;
        this.troubled = true;
      }
    };
    const client = new Client({ name: 'schema-breaks-runner', version: '0.1.0' });
    this.transport = transport;
    this.client = client;
    client.onclose = () => {
      if (this.client === client) {
        this.exits++;
        this.troubled = true;
        this.client = undefined;
      }
    };
    try {
      await client.connect(transport, { timeout: this.startTimeoutMs });
    } catch (error) {
      this.troubled = true;
      throw error;
    }
  }

  /**
   * Can this server serve another run as if it were fresh? Only when it is
   * up and nothing but answers came back: no timeout, exit, restart or
   * garbage, and its stderr was kept whole.
   */
  get reusable(): boolean {
    return this.client !== undefined && !this.troubled && !this.dead && this.stderr.length < STDERR_LIMIT;
  }

  /**
   * The start of another run on a server that is already up: what the last
   * run counted (calls, stderr, notes) starts again from nothing. Call it
   * only after `settledStderr()`, so that no trace of the last run is still
   * on its way.
   */
  beginRun(): void {
    this.skipToNewline = this.stderr !== '' && !this.stderr.endsWith('\n');
    this.stderr = '';
    this.calls = 0;
    this.garbageLines = 0;
    this.exits = 0;
    this.notes = [];
    this.restartsLeft = RESTARTS;
    this.timeoutsInARow = 0;
  }

  /** tools/list, as a client sees it. Throws with a plain message when the server never answers. */
  async listTools(): Promise<Tool[]> {
    try {
      await this.ensureStarted();
      const { tools } = await this.client!.listTools(undefined, { timeout: this.startTimeoutMs });
      return tools;
    } catch (error) {
      this.troubled = true;
      throw new Error(`the server did not answer tools/list: ${describe(error)}${this.stderrTail()}`);
    }
  }

  private async ensureStarted(): Promise<void> {
    if (this.client) return;
    await this.stop();
    await this.start();
  }

  /** tools/call requests sent so far. */
  calls = 0;

  /** The server process's id while it runs (the SDK transport's). */
  get pid(): number | null {
    return this.transport?.pid ?? null;
  }

  /**
   * Waits, briefly, until the server's stderr holds a trace line for every
   * tools/call sent: minimcp writes its trace before its reply, but the two
   * pipes are read apart, and a reply can overtake the trace. Returns the
   * stderr read so far. A server that writes no traces costs `waitMs`.
   */
  async settledStderr(waitMs = 500): Promise<string> {
    const traced = () => (this.stderr.match(/ tools\/call /g) ?? []).length;
    const until = performance.now() + waitMs;
    while (traced() < this.calls && performance.now() < until && this.stderr.length < STDERR_LIMIT) await new Promise((r) => setTimeout(r, 2));
    return this.stderr;
  }

  /**
   * One tools/call. `checkOutput` (the default): through the SDK's `Client.callTool`, which checks the result against
   * the outputSchema `tools/list` published (a result without `structuredContent` throws McpError -32600, one that does
   * not validate -32602; @modelcontextprotocol/sdk 1.32.2 client/index.js `callTool`), as a host on the SDK's client
   * does. `false`: the request alone, parsed as a CallToolResult and nothing more, as a host whose own MCP client never
   * reads the published outputSchema (a profile's `checksOutputSchema: false`).
   */
  async call(name: string, args: Record<string, unknown>, checkOutput = true): Promise<CallOutcome> {
    if (this.dead) return { ...this.dead, latencyMs: 0 };
    this.calls++;
    const started = performance.now();
    try {
      if (!this.client) {
        const hung = this.downBecause !== 'it exited';
        if (this.restartsLeft-- <= 0) return this.giveUp(hung ? 'timeout' : 'server-exit', `the server ${hung ? 'stopped answering' : 'exited'} and was restarted ${RESTARTS} times`);
        this.notes.push(`restarted the server after ${this.downBecause}`);
        this.troubled = true;
        this.downBecause = 'it exited';
        await this.ensureStarted();
      }
      const params = { name, arguments: args };
      const result = checkOutput
        ? await this.client!.callTool(params, undefined, { timeout: this.timeoutMs })
        : await this.client!.request({ method: 'tools/call', params }, CallToolResultSchema, { timeout: this.timeoutMs });
      this.timeoutsInARow = 0;
      const content = Array.isArray(result.content) ? result.content : [];
      const text = content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
      return { label: result.isError ? 'isError' : 'ok', text, latencyMs: performance.now() - started };
    } catch (error) {
      return this.failed(error, performance.now() - started);
    }
  }

  private async failed(error: unknown, latencyMs: number): Promise<CallOutcome> {
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      this.troubled = true;
      if (++this.timeoutsInARow >= TIMEOUTS_BEFORE_RESTART) {
        // Taken for hung: stopped now, restarted by the next call.
        this.timeoutsInARow = 0;
        this.downBecause = `${TIMEOUTS_BEFORE_RESTART} timeouts in a row`;
        await this.stop();
      }
      return { label: 'timeout', text: `no answer within ${this.timeoutMs} ms`, latencyMs, timeoutSeconds: this.timeoutMs / 1000 };
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      this.troubled = true;
      this.client = undefined;
      return { label: 'server-exit', text: `the server exited${this.stderrTail()}`, latencyMs };
    }
    // The SDK client's McpError puts "MCP error <code>: " before the message the
    // server sent; an agent on another SDK (the Python one) sees the message alone.
    if (error instanceof McpError) return { label: `rpc:${error.code}`, text: error.message.replace(`MCP error ${error.code}: `, ''), latencyMs };
    // Not a protocol answer at all: the process is gone, or its reply was not a valid result.
    this.troubled = true;
    if (!this.client || /closed|EPIPE|spawn/i.test(describe(error))) {
      this.client = undefined;
      return { label: 'server-exit', text: describe(error), latencyMs };
    }
    return { label: 'bad-reply', text: describe(error), latencyMs };
  }

  private giveUp(label: OutcomeLabel, why: string): CallOutcome {
    this.notes.push(`gave up on the server: ${why}`);
    this.dead = { label, text: why, latencyMs: 0 };
    void this.stop();
    return this.dead;
  }

  private stderrTail(): string {
    const tail = this.stderr.trim().split('\n').slice(-3).join(' | ');
    return tail ? ` (stderr: ${tail})` : '';
  }

  private async stop(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    // Everything the server wrote to stderr is read before close() returns.
    const stderrEnded = new Promise<void>((resolve) => {
      const stream = transport?.stderr as import('node:stream').Readable | null | undefined;
      if (!stream || stream.readableEnded) resolve();
      else stream.once('end', resolve).once('close', resolve);
    });
    // client.close() ends stdin, then SIGTERM, then SIGKILL (SDK client/stdio.js): no process is left behind.
    if (client) await client.close().catch(() => {});
    else if (transport) await transport.close().catch(() => {});
    await Promise.race([stderrEnded, new Promise((resolve) => setTimeout(resolve, 500).unref())]);
  }

  async close(): Promise<void> {
    await this.stop();
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
