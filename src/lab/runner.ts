/**
 * The runner: one run is one server (baseline, variant or solution), one
 * client profile, one server build and one seed, driving the workload and the
 * eval through the agent loop. It sees only what a client sees.
 */
import { UserError } from '../core/user-error.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerBuild } from '../minimcp/errors.js';
import { runLessonRequest, runProfileEdit, runRequest, TOOL_NAME, type CallRecord, type HostView } from './agent.js';
import { ServerConnection } from './connection.js';
import { sharesServer, type ServerPool } from './server-pool.js';
import { serverCommand } from './variants.js';
import { KNOB_SOURCES, type Knobs } from './knobs.js';
import { figures, type Figures } from './metrics.js';
import { findings } from './model-reading.js';
import type { ClientProfile } from './profiles/index.js';
import { drawFrom, drawWorkload, EVAL_SET, LESSON_REQUESTS, PROFILE_EDITS } from './workload.js';
import { INSTRUCTIONS, runChatLessonRequest, runChatProfileEdit, runChatRequest, type ChatModel, type ChatUsage } from './chat/agent.js';
import type { LessonRequest, ProfileEdit, TutorRequest } from './types.js';

/** Which requests a run sends: conjugations (the default), profile edits, or lesson requests. */
export const WORKLOADS = ['conjugate', 'profile', 'lessons'] as const;
export type Workload = (typeof WORKLOADS)[number];

/** The tool a workload is about: the one whose published schema a report shows. */
export const WORKLOAD_TOOL: Record<Workload, string> = { conjugate: TOOL_NAME, profile: 'update_profile', lessons: 'lessons' };

export interface RunSettings {
  client: ClientProfile;
  /** Which real server build the variant server reproduces (src/minimcp/errors.ts). */
  server: ServerBuild;
  seed: number;
  calls: number;
  knobs: Knobs;
  workload?: Workload;
  /** Start the server with --read-only. */
  readOnly?: boolean;
  /** A real model behind an OpenAI-compatible endpoint instead of the stand-in (src/lab/chat/). */
  chat?: ChatModel & { concurrency: number };
  /** Called after each request of the workload and the eval: how many are done of how many. */
  onProgress?: (done: number, total: number) => void;
  /** Ctrl+C: no new request starts; what was measured is kept, and the run says it was stopped. */
  signal?: AbortSignal;
  /** Server processes lent from run to run (server-pool.ts): used by the conjugate workload, which changes nothing on the server. */
  pool?: ServerPool;
}

/** Who wrote the calls: the seeded stand-in (src/lab/model.ts), or a real model at an endpoint. */
export type RunModel =
  | { kind: 'stand-in'; name: string; knobs: Knobs; assumptions: (keyof Knobs)[] }
  | { kind: 'openai'; name: string; baseUrl: string; instructions: string; temperature: number; requests: number; httpRetries: number };

export interface RunResult extends Figures {
  /** 'baseline', the break's id, or '<id>+solution'. */
  variant: string;
  client: string;
  server: ServerBuild;
  seed: number;
  calls: number;
  temperature: number;
  workload: Workload;
  readOnly: boolean;
  /** Who wrote the calls: the stand-in model with its knobs, and which of them are assumptions rather than counted rates. */
  model: RunModel;
  /** Set when the run was stopped (Ctrl+C) before all its requests ran: the figures are those of the requests that ran. */
  interrupted?: true;
  /** The agent loop around the model: whose defaults it follows, and its limits. */
  agent: { policy: string; maxTurns: number; callTimeoutMs: number };
  /** Do the server's errors name what is wrong? One call per argument left out of a call that worked; `total` counts the calls the server refused. */
  errorProbe: { named: number; total: number };
  /** The inputSchema of the workload's tool (conjugate, update_profile or lessons) as the client got it from tools/list, or null. */
  publishedSchema: Record<string, unknown> | null;
  /** What the host did with the tool list: 'accepted', or its rejection text. */
  host: { accepted: true; seenSchema: Record<string, unknown> | null } | { accepted: false; rejection: string };
  /** Lines of the server's stderr: the executor's traces. */
  stderrSample: string[];
  /** What happened to the server process: restarts, garbage on stdout, a start that failed. */
  serverNotes: string[];
  /** Every call, for the curious and for the report's examples. */
  records?: { workload: CallRecord[]; eval: CallRecord[] };
}

/**
 * One run. `server` is the server's script and its own arguments, started
 * with this node; the runner adds `--build`.
 */
export async function run(variant: string, server: string | string[], settings: RunSettings): Promise<RunResult> {
  const { client: profile, server: build, seed, calls, knobs, workload = 'conjugate', readOnly = false } = settings;
  const [script, ...own] = typeof server === 'string' ? [server] : server;
  const command = serverCommand(script!, [...own, '--build', build, ...(readOnly ? ['--read-only'] : [])]);
  // Conjugations change nothing on the server: a process that served an earlier run serves this one as a fresh one would.
  const pool = sharesServer(workload) ? settings.pool : undefined;
  const connection = pool ? pool.take(command, knobs.callTimeoutMs) : new ServerConnection(command, knobs.callTimeoutMs);
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await (pool ? pool.give(connection) : connection.close());
  };
  try {
    let tools: Tool[] | undefined;
    const serverNotes: string[] = [];
    let view: HostView;
    try {
      tools = await connection.listTools();
      view = await profile.present(tools);
    } catch (error) {
      // A host whose framework is not installed (src/lab/profiles/shared.ts onFirstUse) is the person's to fix,
      // not the server's failure: the command says what to install, and nothing is measured.
      if (error instanceof UserError) throw error;
      const reason = (error as Error).message;
      serverNotes.push(reason);
      view = { unreachable: /timed out|timeout/i.test(reason) ? 'timeout' : 'server-exit', reason };
    }
    const published = tools?.find((t) => t.name === WORKLOAD_TOOL[workload]);

    const usage: ChatUsage = { requests: 0, httpRetries: 0 };
    const { chat, signal } = settings;
    const requests = workloadRequests(workload, seed, calls);
    const total = requests.length + EVAL_SET.length;
    let done = 0;
    const one = async (request: AnyRequest): Promise<CallRecord> => {
      const record = await runOne(request, view, profile, connection, knobs, seed, chat, usage);
      settings.onProgress?.(++done, total);
      return record;
    };
    // A real model is slow: conjugations and the eval (which change nothing on the server) go a few at a time.
    // Profile edits and lesson changes stay in order, as the stand-in runs them.
    const parallel = chat && workload === 'conjugate' ? chat.concurrency : 1;
    const records = await inTurn(requests, parallel, one, signal);
    // The eval's draws are keyed by its own request ids (e01..e30), apart from the
    // workload's, so --calls does not move the accuracy figure.
    const evaluation = await inTurn(EVAL_SET, chat ? chat.concurrency : 1, one, signal);
    const interrupted = signal?.aborted === true;
    // The probe's calls are not the workload's: the stderr sample is taken from
    // what the server wrote before the probe began.
    const settled = await connection.settledStderr();
    // Whole lines only: the sample must not depend on where a pipe read ended.
    const workloadStderr = settled.slice(0, settled.lastIndexOf('\n') + 1);
    const errorProbe = await probeErrorMessages(records, connection);
    // A process of its own is closed first, so that nothing it writes on its way out is missed; one lent by
    // a pool is read before it goes back, as the next run that takes it starts these counts from nothing.
    if (!pool) await release();
    if (connection.garbageLines > 0) serverNotes.push(`the server wrote ${connection.garbageLines} line(s) to stdout that are not JSON-RPC`);
    serverNotes.push(...connection.notes);
    await release();

    const seen = 'tools' in view ? (view.tools.find((t) => t.name === WORKLOAD_TOOL[workload])?.inputSchema ?? null) : null;
    return {
      variant,
      client: profile.id,
      server: build,
      seed,
      calls: interrupted ? records.length : calls,
      temperature: knobs.temperature,
      workload,
      readOnly,
      model: chat
        ? { kind: 'openai', name: chat.name, baseUrl: chat.transport.baseUrl, instructions: INSTRUCTIONS, temperature: chat.temperature, requests: usage.requests, httpRetries: usage.httpRetries }
        : { kind: 'stand-in', name: 'seeded stand-in for a small open model (src/lab/model.ts)', knobs: { ...knobs }, assumptions: assumedKnobs() },
      ...(interrupted ? { interrupted: true as const } : {}),
      agent: { policy: AGENT_POLICY, maxTurns: knobs.maxTurns, callTimeoutMs: knobs.callTimeoutMs },
      errorProbe,
      publishedSchema: (published?.inputSchema as Record<string, unknown> | undefined) ?? null,
      host: 'rejected' in view ? { accepted: false, rejection: view.rejected } : { accepted: true, seenSchema: seen },
      ...figures(records, evaluation, readOnly, knobs.maxTurns),
      stderrSample: stderrSample(workloadStderr),
      serverNotes,
      records: { workload: records, eval: evaluation },
    };
  } finally {
    await release();
  }
}

type AnyRequest = TutorRequest | ProfileEdit | LessonRequest;

function workloadRequests(workload: Workload, seed: number, calls: number): AnyRequest[] {
  if (workload === 'profile') return drawFrom(PROFILE_EDITS, seed, calls, 'profile');
  if (workload === 'lessons') return drawFrom(LESSON_REQUESTS, seed, calls, 'lessons');
  return drawWorkload(seed, calls);
}

/** One request through the agent loop: the stand-in's, or a real model's conversation. */
function runOne(request: AnyRequest, view: HostView, profile: ClientProfile, connection: ServerConnection, knobs: Knobs, seed: number, chat: RunSettings['chat'], usage: ChatUsage): Promise<CallRecord> {
  const kind = 'kind' in request ? request.kind : 'conjugation';
  if (chat) {
    const model = { ...chat, maxTurns: knobs.maxTurns };
    if (kind === 'profile-edit') return runChatProfileEdit(request as ProfileEdit, view, profile, connection, model, seed, usage);
    if (kind === 'lessons') return runChatLessonRequest(request as LessonRequest, view, profile, connection, model, seed, usage);
    return runChatRequest(request as TutorRequest, view, profile, connection, model, seed, usage);
  }
  if (kind === 'profile-edit') return runProfileEdit(request as ProfileEdit, view, profile, connection, knobs, seed);
  if (kind === 'lessons') return runLessonRequest(request as LessonRequest, view, profile, connection, knobs, seed);
  return runRequest(request as TutorRequest, view, profile, connection, knobs, seed);
}

/** Runs `items` with at most `parallel` at once, results in the items' order; after `signal` aborts, no new one starts. */
async function inTurn<T, R>(items: readonly T[], parallel: number, work: (item: T) => Promise<R>, signal?: AbortSignal): Promise<R[]> {
  const results: (R | undefined)[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (next < items.length && !signal?.aborted && !failed) {
      const i = next++;
      try {
        results[i] = await work(items[i]!);
      } catch (error) {
        // One lane's error ends the others too: nothing more is sent to an endpoint that cannot be used.
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, items.length)) }, lane));
  return results.filter((r): r is R => r !== undefined);
}

/** The agent loop's policy, as the report names it (src/lab/agent.ts). */
export const AGENT_POLICY = 'OpenAI Agents SDK defaults (openai-agents-python v0.22.0): every result and error to the model, no resend, max_turns 10';

/** The knobs whose values are assumptions, not counted from a published evaluation. */
export function assumedKnobs(): (keyof Knobs)[] {
  return (Object.keys(KNOB_SOURCES) as (keyof Knobs)[]).filter((k) => KNOB_SOURCES[k].kind === 'assumption');
}

/**
 * The error-message probe: take the first call of the workload that worked
 * and send it again once per argument, each time without that argument (at
 * any depth). A message "names" the argument when it says that this argument
 * is missing or which values it takes, as the model reads such texts
 * (model-reading.ts). Nothing here knows the variant: the calls come from the
 * workload, the verdict from the texts.
 */
export async function probeErrorMessages(records: CallRecord[], connection: ServerConnection): Promise<{ named: number; total: number }> {
  const probed = probedCall(records);
  if (!probed) return { named: 0, total: 0 };
  const { tool, args, paths } = probed;
  let named = 0;
  let refused = 0;
  for (const path of paths) {
    const outcome = await connection.call(tool, without(args, path));
    // An argument the call can do without (an optional one) says nothing about the messages.
    if (outcome.label === 'ok') continue;
    refused++;
    // Named: the text says this very argument is missing, or which values it takes, in a form a reader of
    // error texts knows (the model's reader, model-reading.ts), not just that something about its parent is wrong.
    const where = path.join('.');
    if (findings(outcome.text).some((f) => f.path === where && (f.kind === 'missing' || f.kind === 'options'))) named++;
  }
  return { named, total: refused };
}

/**
 * The call the probe sends again, and the arguments it leaves out one at a time (one call each): of the first
 * request that has a call that worked, the call that carried the most arguments (an edit's write, not its reads).
 * Also counted by the sweep (src/class/sweep-worker.ts): the probe's calls are calls its floor must count.
 */
export function probedCall(records: CallRecord[]): { tool: string; args: Record<string, unknown>; paths: string[][] } | undefined {
  for (const record of records) {
    const worked = record.attempts
      .filter((a) => a.label === 'ok' && a.args && a.tool)
      .sort((a, b) => leafPaths(b.args!).length - leafPaths(a.args!).length)[0];
    if (worked?.args && worked.tool) return { tool: worked.tool, args: worked.args, paths: leafPaths(worked.args) };
  }
  return undefined;
}

function leafPaths(value: Record<string, unknown>, prefix: string[] = []): string[][] {
  return Object.entries(value).flatMap(([key, sub]) =>
    sub !== null && typeof sub === 'object' && !Array.isArray(sub) ? leafPaths(sub as Record<string, unknown>, [...prefix, key]) : [[...prefix, key]],
  );
}

function without(value: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const copy = structuredClone(value);
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  delete node[path.at(-1)!];
  return copy;
}

/**
 * A few distinct lines of stderr, crashes first: what the executor said.
 * Distinct by their text with the arguments taken out, so that 100 identical
 * traces show once.
 */
export function stderrSample(stderr: string, limit = 6): string[] {
  const lines = stderr.split('\n').filter((l) => l.trim() !== '' && !/ serving .* over stdio/.test(l));
  const shape = (l: string) => l.replace(/\{.*?\}(?=[: ]|$)/, '{…}');
  const seen = new Set<string>();
  const distinct = lines.filter((l) => !seen.has(shape(l)) && (seen.add(shape(l)), true));
  const rank = (l: string) => (/threw|Error/.test(l) ? 0 : /invalid|rejected/.test(l) ? 1 : 2);
  return distinct.sort((a, b) => rank(a) - rank(b)).slice(0, limit);
}
