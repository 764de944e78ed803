/**
 * Transcripts of a real model's run: `--record DIR` keeps every request and
 * answer as JSON lines (one file per run), `--replay DIR` answers from them
 * with no network. A run recorded once at home can be shown in class and
 * tested in CI, and replays to the same figures: everything else in a run is
 * deterministic, so the same answers give the same calls.
 *
 * An answer is found by its request (the whole body, keys sorted): the same
 * conversation asks the same thing. The same request asked several times (two
 * requests of the workload with the same words) is answered in recorded order.
 * Nothing with a key is ever written: requests carry none (the key travels in
 * a header the transcript never sees).
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../core/user-error.js';
import { readAnswer, type ChatAnswer, type ChatRequest, type ChatTransport } from './endpoint.js';

export const TRANSCRIPT_FORMAT = 'schema-breaks/model-transcript';
export const TRANSCRIPT_VERSION = 1;

/** The first line of a transcript: what it is and where the model was. */
interface Header {
  format: typeof TRANSCRIPT_FORMAT;
  version: number;
  run: string;
  model: string;
  baseUrl: string;
}

interface Exchange {
  key: string;
  request: ChatRequest;
  answer: unknown;
  retries: number;
}

/** A transcript that cannot be read or does not have what the run asks: one line, exit 2. */
export class TranscriptError extends UserError {}

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((k) => [k, stable((value as Record<string, unknown>)[k])]));
  return value;
}

/** A request's identity: the hash of its body with keys sorted. */
export function requestKey(request: ChatRequest): string {
  return createHash('sha256').update(JSON.stringify(stable(request))).digest('hex').slice(0, 32);
}

/** A run's file name: its variant, client, server build and seed (one transcript per run of a lab). */
export function transcriptFile(dir: string, run: { variant: string; client: string; server: string; seed: number; workload: string; readOnly: boolean }): string {
  const name = [run.variant, run.client, run.server, run.workload, ...(run.readOnly ? ['read-only'] : []), `seed${run.seed}`].join('.').replace(/[^\w.+-]/g, '_');
  return join(dir, `${name}.jsonl`);
}

/** Writes every exchange of `inner` to `file` as it happens, so Ctrl+C keeps what was measured. */
export class RecordingTransport implements ChatTransport {
  readonly baseUrl: string;
  constructor(
    private readonly inner: ChatTransport,
    private readonly file: string,
    header: Omit<Header, 'format' | 'version'>,
  ) {
    this.baseUrl = inner.baseUrl;
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ format: TRANSCRIPT_FORMAT, version: TRANSCRIPT_VERSION, ...header } satisfies Header)}\n`);
  }

  async send(request: ChatRequest): Promise<{ answer: ChatAnswer; retries: number; raw: unknown }> {
    const got = await this.inner.send(request);
    const line: Exchange = { key: requestKey(request), request, answer: got.raw, retries: got.retries };
    appendFileSync(this.file, `${JSON.stringify(line)}\n`);
    return got;
  }
}

/** Answers from a transcript; a request it does not hold is an error (the run differs from the one recorded). */
export class ReplayTransport implements ChatTransport {
  readonly baseUrl: string;
  readonly model: string;
  private readonly answers = new Map<string, Exchange[]>();

  constructor(private readonly file: string) {
    if (!existsSync(file)) throw new TranscriptError(`no transcript for this run: ${file} (record one with --record)`);
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
    let header: Header;
    try {
      header = JSON.parse(lines[0] ?? '') as Header;
    } catch {
      throw new TranscriptError(`${file} is not a transcript (its first line is not JSON)`);
    }
    if (header.format !== TRANSCRIPT_FORMAT) throw new TranscriptError(`${file} is not a transcript (format ${JSON.stringify(header.format)})`);
    if (header.version !== TRANSCRIPT_VERSION) throw new TranscriptError(`${file} is transcript version ${header.version}; this kit reads version ${TRANSCRIPT_VERSION}`);
    this.baseUrl = header.baseUrl;
    this.model = header.model;
    lines.slice(1).forEach((line, i) => {
      let exchange: Exchange;
      try {
        exchange = JSON.parse(line) as Exchange;
      } catch {
        // A run stopped with Ctrl+C may leave a last line half written: what comes before it still replays.
        if (i === lines.length - 2) return;
        throw new TranscriptError(`${file}: line ${i + 2} is not JSON`);
      }
      const queue = this.answers.get(exchange.key) ?? [];
      queue.push(exchange);
      this.answers.set(exchange.key, queue);
    });
  }

  async send(request: ChatRequest): Promise<{ answer: ChatAnswer; retries: number; raw: unknown }> {
    const queue = this.answers.get(requestKey(request));
    const exchange = queue?.shift();
    if (!exchange) throw new TranscriptError(`${this.file} has no answer to a request this run makes (the run differs from the recorded one: another kit version, variant, client or seed?)`);
    return { answer: readAnswer(exchange.answer), retries: exchange.retries, raw: exchange.answer };
  }
}
