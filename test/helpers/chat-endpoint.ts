/**
 * A small OpenAI-compatible endpoint for tests: real HTTP on 127.0.0.1, the
 * documented chat-completions wire format (choices[0].message with
 * `tool_calls`, `finish_reason`), and a script that decides each answer.
 * It knows nothing of the kit's model: the default script reads the user's
 * words from the request bank (the data file) and writes the baseline
 * server's values from a table written here by hand.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface ChatBody {
  model: string;
  messages: { role: string; content: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; description?: string; parameters: Record<string, unknown> } }[];
  temperature?: number;
  seed?: number;
}

/** What the endpoint answers to one request. */
export type Reply =
  | { kind: 'tool-calls'; calls: { name: string; arguments: string }[] }
  | { kind: 'text'; content: string }
  | { kind: 'status'; status: number; body: string; headers?: Record<string, string> }
  | { kind: 'slow'; ms: number; then: Reply };

export type Script = (body: ChatBody, n: number) => Reply;

export interface ScriptedEndpoint {
  baseUrl: string;
  /** Every request body received, in arrival order. */
  bodies: ChatBody[];
  /** Every Authorization header received. */
  authorizations: (string | undefined)[];
  /** How the script answered each request (its `kind`), in arrival order. */
  replies: Reply['kind'][];
  /** The most chat requests that were in flight at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

let callIds = 0;

function completion(reply: Extract<Reply, { kind: 'tool-calls' } | { kind: 'text' }>, model: string): unknown {
  const message =
    reply.kind === 'text'
      ? { role: 'assistant', content: reply.content }
      : { role: 'assistant', content: null, tool_calls: reply.calls.map((c) => ({ id: `call_${++callIds}`, type: 'function', function: { name: c.name, arguments: c.arguments } })) };
  return {
    id: `chatcmpl-${callIds}`,
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message, finish_reason: reply.kind === 'text' ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

export async function startEndpoint(script: Script): Promise<ScriptedEndpoint> {
  const bodies: ChatBody[] = [];
  const authorizations: (string | undefined)[] = [];
  const replies: Reply['kind'][] = [];
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const server: Server = createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'scripted', object: 'model' }] }));
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const body = JSON.parse(await readBody(req)) as ChatBody;
    const n = bodies.push(body) - 1;
    authorizations.push(req.headers.authorization);
    let reply = script(body, n);
    replies.push(reply.kind);
    while (reply.kind === 'slow') {
      const { ms, then } = reply;
      await new Promise((r) => setTimeout(r, ms));
      if (res.destroyed || req.destroyed) return;
      reply = then;
    }
    if (reply.kind === 'status') {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(reply.body);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(reply, body.model)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    bodies,
    authorizations,
    replies,
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------
// The default script: a careful tutor's model

/** The baseline server's words for each meaning of the request bank (src/lab/requests/conjugate.json), written by hand from its published enums. */
const TENSE: Record<string, string> = {
  inf: 'infinitive',
  prs: 'simple present',
  'prs.prog': 'present continuous',
  'prs.prf': 'present perfect',
  'prs.prf.prog': 'present perfect continuous',
  pst: 'simple past',
  'pst.prog': 'past continuous',
  'pst.prf': 'past perfect',
  'pst.prf.prog': 'past perfect continuous',
  fut: 'simple future',
  'fut.prog': 'future continuous',
  'fut.prf': 'future perfect',
  'fut.prf.prog': 'future perfect continuous',
};
const PERSON: Record<string, string> = { '1sg': '1st singular', '2sg': '2nd singular', '3sg': '3rd singular', '1pl': '1st plural', '2pl': '2nd plural', '3pl': '3rd plural' };

interface BankEntry {
  prompt: string;
  intent: { verb: string | { infinitive: string }; tense?: string; person?: string };
}

const bank = (root: string): BankEntry[] => {
  const data = JSON.parse(readFileSync(join(root, 'src', 'lab', 'requests', 'conjugate.json'), 'utf8')) as { bank: BankEntry[]; evaluation: BankEntry[] };
  return [...data.bank, ...data.evaluation];
};

/** The arguments a careful model writes for a prompt of the bank, or undefined when the prompt does not say all three. */
export function tutorArguments(root: string, prompt: string): Record<string, string> | undefined {
  const entry = bank(root).find((e) => e.prompt === prompt);
  if (!entry?.intent.tense || !entry.intent.person) return undefined;
  const verb = typeof entry.intent.verb === 'string' ? entry.intent.verb : entry.intent.verb.infinitive;
  return { verb, tense: TENSE[entry.intent.tense]!, person: PERSON[entry.intent.person]! };
}

/**
 * Calls conjugate once with the bank's meaning in the server's words; after
 * any tool output, answers in words (a second call is never made). A prompt
 * that does not say all three gets a question back instead of a call.
 */
export function tutorScript(root: string): Script {
  return (body) => {
    const last = body.messages.at(-1)!;
    if (last.role === 'tool') return { kind: 'text', content: `The tutor says: ${last.content}` };
    const prompt = body.messages.find((m) => m.role === 'user')!.content!;
    const args = tutorArguments(root, prompt);
    if (!args) return { kind: 'text', content: 'Which tense and person do you mean?' };
    return { kind: 'tool-calls', calls: [{ name: 'conjugate', arguments: JSON.stringify(args) }] };
  };
}
