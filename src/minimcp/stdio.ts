/**
 * The stdio transport: one JSON-RPC message per line on stdin, one per line on
 * stdout.
 *
 * Why not the SDK's StdioServerTransport? Two behaviours of it (1.32.2,
 * `server/stdio.js` and `shared/stdio.js`) would let bad input decide what a
 * learner measures:
 * - a line that is not JSON, or not a JSON-RPC message, is dropped with no
 *   reply, where JSON-RPC 2.0 answers -32700 (parse error) or -32600
 *   (invalid request);
 * - a message larger than STDIO_DEFAULT_MAX_BUFFER_SIZE (10 MiB) makes the
 *   transport close itself: one huge request takes the server off the air.
 * This transport answers both and keeps serving. Everything else (requests,
 * dispatch, -32601 for unknown methods) is the SDK's Protocol.
 */
import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A line longer than this is discarded and answered with -32600. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

type RequestId = string | number | null;

export class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** True while skipping the rest of a line that was too long. */
  private discarding = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly maxMessageBytes = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
  }

  private readonly onData = (chunk: Buffer): void => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, newline));
      const line = Buffer.concat(this.pending, this.pendingBytes);
      const wasDiscarding = this.discarding;
      this.pending = [];
      this.pendingBytes = 0;
      this.discarding = false;
      if (wasDiscarding) this.reject(null, ErrorCode.InvalidRequest, `Message larger than ${this.maxMessageBytes} bytes`);
      else this.handleLine(line.toString('utf8').replace(/\r$/, ''));
      start = newline + 1;
    }
    this.take(chunk.subarray(start));
  };

  private take(piece: Buffer): void {
    if (this.discarding || piece.length === 0) return;
    if (this.pendingBytes + piece.length > this.maxMessageBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      this.discarding = true;
      return;
    }
    this.pending.push(piece);
    this.pendingBytes += piece.length;
  }

  private handleLine(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.reject(null, ErrorCode.ParseError, 'Parse error: not valid JSON');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      this.onmessage?.(parsed.data);
      return;
    }
    // Not a JSON-RPC message. Answer with its id when it has a usable one;
    // something that looks like a notification (a method and no id) gets no
    // reply, as JSON-RPC 2.0 says notifications never do.
    const object = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    const id = object && (typeof object.id === 'string' || typeof object.id === 'number') ? object.id : null;
    if (object && !('id' in object) && typeof object.method === 'string') return;
    const why = Array.isArray(value) ? 'batches are not supported' : 'not a JSON-RPC 2.0 request';
    this.reject(id, ErrorCode.InvalidRequest, `Invalid request: ${why}`);
  }

  private reject(id: RequestId, code: number, message: string): void {
    // The SDK's message types require an id; JSON-RPC 2.0 says it is null when the request's id could not be read.
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private readonly onEnd = (): void => {
    void this.close();
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    this.pending = [];
    this.onclose?.();
  }
}
