/**
 * An OpenAI-compatible chat-completions endpoint: OpenAI itself, and the
 * servers a workshop laptop runs (Ollama, llama.cpp's server, vLLM, LM
 * Studio), which all take `POST {base}/chat/completions` with `tools`
 * (docs/sources.md, "A real model").
 *
 * Bounded and polite: at most `concurrency` requests in flight, a timeout per
 * request, and 429 or 5xx answers retried with a growing pause (a
 * `Retry-After` is honoured), counted apart from the agent's retries. The
 * API key goes into the Authorization header and nowhere else: no error
 * message, transcript or report carries it.
 */
import type { JsonSchema } from '../types.js';
import { UserError } from '../../core/user-error.js';

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters: JsonSchema };
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools: ChatTool[];
  tool_choice: 'auto';
  temperature: number;
  seed: number;
}

/** The part of a chat-completions answer the agent reads: the first choice's message and why it stopped. */
export interface ChatAnswer {
  content: string | null;
  toolCalls: ChatToolCall[];
  finishReason: string | null;
}

/** Where requests go: the network, or a recording (src/lab/chat/transcript.ts). */
export interface ChatTransport {
  /** Where the model is, for the report (never with a key). */
  readonly baseUrl: string;
  /** One completion; `retries` counts the 429/5xx answers retried on the way. */
  send(request: ChatRequest): Promise<{ answer: ChatAnswer; retries: number; raw: unknown }>;
}

/** The endpoint answered, but not with a completion the agent can use (after its retries): the request ends `model-error`. */
export class EndpointError extends Error {
  constructor(
    message: string,
    /** 429/5xx answers retried before giving up: they count with the others. */
    readonly retries = 0,
  ) {
    super(message);
  }
}

/** The endpoint cannot be used at all (nothing answers at the URL, or it takes no tools): one line, exit 2. */
export class EndpointUnusable extends UserError {}

export interface EndpointOptions {
  baseUrl: string;
  apiKey?: string;
  /** Requests in flight at once (default 2). */
  concurrency?: number;
  /** One request's time limit, retries apart (default 120 s: a small local model on a laptop CPU is slow). */
  timeoutMs?: number;
  /** 429 and 5xx answers retried per request (default 4). */
  maxRetries?: number;
  /** The first pause before a retry; it doubles each time (default 1 s). */
  backoffMs?: number;
}

/** "http://localhost:11434/v1/" and "http://localhost:11434/v1" are one endpoint. */
export function normaliseBaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EndpointUnusable(`--base-url is not a URL: ${url} (e.g. http://localhost:11434/v1)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new EndpointUnusable(`--base-url must be http or https: ${url}`);
  // A key written into the URL would end up in the report: refuse it.
  if (parsed.username || parsed.password) throw new EndpointUnusable('--base-url must not carry a user or password; give the key with --api-key-env');
  return parsed.href.replace(/\/+$/, '');
}

/** A counting semaphore: at most `limit` holders at once, the rest wait in order. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(limit: number) {
    this.free = Math.max(1, limit);
  }
  async take(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    return () => {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The error text an OpenAI-compatible server puts in its body: `{"error": {"message": ...}}`, `{"error": "..."}`, or the body itself. */
function bodyMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    const error = parsed.error;
    const message = typeof error === 'string' ? error : (error?.message ?? parsed.message);
    if (message) return message;
  } catch {
    // Not JSON: the text itself.
  }
  return body.trim().slice(0, 300);
}

/** Does an error say the model or server cannot take tools? (Ollama: "... does not support tools"; llama.cpp's server without --jinja: "tools param requires --jinja flag", before that "Unsupported param: tools".) */
export function saysNoTools(message: string): boolean {
  return /does not support tools|tools? (?:are|is) not supported|tools param requires|function calling is not (?:supported|enabled)|unsupported.*\btools?\b/i.test(message);
}

/** The first choice of a completion, checked: an answer without it is the endpoint's fault, not the model's. */
export function readAnswer(raw: unknown): ChatAnswer {
  const choice = (raw as { choices?: { message?: { content?: unknown; tool_calls?: unknown }; finish_reason?: unknown }[] } | null)?.choices?.[0];
  if (!choice?.message) throw new EndpointError(`the endpoint's answer has no choices[0].message: ${JSON.stringify(raw).slice(0, 200)}`);
  const calls = Array.isArray(choice.message.tool_calls) ? choice.message.tool_calls : [];
  const toolCalls: ChatToolCall[] = calls.map((c: { id?: unknown; function?: { name?: unknown; arguments?: unknown } }, i: number) => ({
    id: typeof c.id === 'string' && c.id ? c.id : `call_${i}`,
    type: 'function',
    function: {
      name: String(c.function?.name ?? ''),
      // Some servers send the arguments as an object rather than the JSON text the protocol specifies.
      arguments: typeof c.function?.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function?.arguments ?? {}),
    },
  }));
  const content = typeof choice.message.content === 'string' ? choice.message.content : null;
  return { content, toolCalls, finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null };
}

export class ChatEndpoint implements ChatTransport {
  readonly baseUrl: string;
  private readonly slots: Slots;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly backoffMs: number;

  constructor(private readonly options: EndpointOptions) {
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    this.slots = new Slots(options.concurrency ?? 2);
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.maxRetries = options.maxRetries ?? 4;
    this.backoffMs = options.backoffMs ?? 1000;
  }

  /** A server may echo the key in an error (OpenAI masks most of it; others need not): it never reaches a message. */
  private redact(text: string): string {
    const key = this.options.apiKey;
    return key ? text.replaceAll(key, '[key]') : text;
  }

  private headers(): Record<string, string> {
    return { 'content-type': 'application/json', ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) };
  }

  async send(request: ChatRequest): Promise<{ answer: ChatAnswer; retries: number; raw: unknown }> {
    const release = await this.slots.take();
    try {
      for (let retries = 0; ; retries++) {
        let response: Response;
        try {
          response = await fetch(`${this.baseUrl}/chat/completions`, { method: 'POST', headers: this.headers(), body: JSON.stringify(request), signal: AbortSignal.timeout(this.timeoutMs) });
        } catch (error) {
          throw new EndpointError(`${this.baseUrl}/chat/completions: ${describeNetworkError(error, this.timeoutMs)}`, retries);
        }
        const body = await response.text();
        if (response.ok) {
          let raw: unknown;
          try {
            raw = JSON.parse(body);
          } catch {
            throw new EndpointError(`the endpoint's answer is not JSON: ${body.slice(0, 200)}`, retries);
          }
          try {
            return { answer: readAnswer(raw), retries, raw };
          } catch (error) {
            throw new EndpointError((error as Error).message, retries);
          }
        }
        const message = this.redact(bodyMessage(body));
        // Ollama answers 400 ("... does not support tools"), llama.cpp's server 500 ("tools param requires --jinja flag",
        // earlier "Unsupported param: tools"): retrying changes nothing, whatever the status.
        if (response.status !== 429 && saysNoTools(message)) {
          throw new EndpointUnusable(`the endpoint at ${this.baseUrl} takes no tools with model ${request.model}: ${message}`);
        }
        // A wrong key, URL or model name fails every request alike: say so once, rather than measure a run of errors.
        // (OpenAI answers 401 to a bad key; Ollama 404 to an unknown model, "model \"x\" not found, try pulling it
        // first"; any server 404 to a base URL without its /v1.)
        if (response.status === 401 || response.status === 403) {
          throw new EndpointUnusable(`the endpoint at ${this.baseUrl} refused the request (HTTP ${response.status}: ${message}); check the key (--api-key-env names the variable that holds it)`);
        }
        if (response.status === 404) {
          throw new EndpointUnusable(`no chat completions for model ${request.model} at ${this.baseUrl}/chat/completions (HTTP 404: ${message || 'not found'}); check --base-url (it usually ends in /v1) and --model-name`);
        }
        const retryable = response.status === 429 || response.status >= 500;
        if (!retryable || retries >= this.maxRetries) throw new EndpointError(`HTTP ${response.status} from ${this.baseUrl}/chat/completions: ${message}`, retries);
        await sleep(retryAfterMs(response.headers.get('retry-after')) ?? this.backoffMs * 2 ** retries);
      }
    } finally {
      release();
    }
  }
}

/** A Retry-After header in seconds (an HTTP date is rare from these servers: the backoff applies then), capped at a minute. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null || !/^\d+(\.\d+)?$/.test(header.trim())) return undefined;
  return Math.min(60_000, Number(header) * 1000);
}

/** Why a fetch failed: past its time limit, or what its "fetch failed" hides (the cause's code, ECONNREFUSED or ENOTFOUND, or its message, "bad port"). */
function describeNetworkError(error: unknown, timeoutMs: number): string {
  if ((error as Error).name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }).cause;
  const code = cause?.code ?? cause?.errors?.find((e) => e.code)?.code;
  if (code) return code;
  return cause?.message || String((error as Error).message ?? error);
}

/**
 * Is anything there? One GET of `{base}/models` (every server above answers
 * it; any HTTP status counts as there), within `timeoutMs`: a wrong URL fails
 * in seconds, before any server is started.
 */
export async function checkReachable(baseUrl: string, apiKey: string | undefined, timeoutMs = 3000): Promise<void> {
  const base = normaliseBaseUrl(baseUrl);
  try {
    const response = await fetch(`${base}/models`, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
  } catch (error) {
    throw new EndpointUnusable(`cannot reach the model endpoint at ${base}: ${describeNetworkError(error, timeoutMs)}`);
  }
}
