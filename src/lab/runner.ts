/**
 * The runner: one run is one server (baseline, variant or solution), one
 * client profile, one server build and one seed, driving the workload and the
 * eval through the agent loop. It sees only what a client sees.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerBuild } from '../minimcp/errors.js';
import { runLessonRequest, runProfileEdit, runRequest, TOOL_NAME, type CallRecord, type HostView } from './agent.js';
import { ServerConnection } from './connection.js';
import type { Knobs } from './knobs.js';
import { figures, type Figures } from './metrics.js';
import type { ClientProfile } from './profiles.js';
import { drawFrom, LESSON_REQUESTS, PROFILE_EDITS } from './tasks.js';
import { drawWorkload, EVAL_SET } from './workload.js';

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
}

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
  const script = typeof server === 'string' ? [server] : server;
  const connection = new ServerConnection({ command: process.execPath, args: [...script, '--build', build, ...(readOnly ? ['--read-only'] : [])] }, knobs.callTimeoutMs);
  try {
    let tools: Tool[] | undefined;
    const serverNotes: string[] = [];
    let view: HostView;
    try {
      tools = await connection.listTools();
      view = profile.present(tools);
    } catch (error) {
      const reason = (error as Error).message;
      serverNotes.push(reason);
      view = { unreachable: /timed out|timeout/i.test(reason) ? 'timeout' : 'server-exit', reason };
    }
    const published = tools?.find((t) => t.name === WORKLOAD_TOOL[workload]);

    const records: CallRecord[] = [];
    if (workload === 'conjugate') for (const request of drawWorkload(seed, calls)) records.push(await runRequest(request, view, profile, connection, knobs, seed));
    if (workload === 'profile') for (const request of drawFrom(PROFILE_EDITS, seed, calls, 'profile')) records.push(await runProfileEdit(request, view, profile, connection, knobs, seed));
    if (workload === 'lessons') for (const request of drawFrom(LESSON_REQUESTS, seed, calls, 'lessons')) records.push(await runLessonRequest(request, view, profile, connection, knobs, seed));
    // The eval's draws are keyed by its own request ids (e01..e30), apart from the
    // workload's, so --calls does not move the accuracy figure.
    const evaluation: CallRecord[] = [];
    for (const request of EVAL_SET) evaluation.push(await runRequest(request, view, profile, connection, knobs, seed));
    const errorProbe = await probeErrorMessages(records, connection);
    // Stopped before its stderr is read: a reply on stdout can overtake the
    // trace the server wrote just before it on stderr, and the sample must
    // not depend on which pipe was read first.
    await connection.close();

    const seen = 'tools' in view ? (view.tools.find((t) => t.name === WORKLOAD_TOOL[workload])?.inputSchema ?? null) : null;
    if (connection.garbageLines > 0) serverNotes.push(`the server wrote ${connection.garbageLines} line(s) to stdout that are not JSON-RPC`);
    serverNotes.push(...connection.notes);
    return {
      variant,
      client: profile.id,
      server: build,
      seed,
      calls,
      temperature: knobs.temperature,
      workload,
      readOnly,
      errorProbe,
      publishedSchema: (published?.inputSchema as Record<string, unknown> | undefined) ?? null,
      host: 'rejected' in view ? { accepted: false, rejection: view.rejected } : { accepted: true, seenSchema: seen },
      ...figures(records, evaluation, readOnly),
      stderrSample: stderrSample(connection.stderr),
      serverNotes,
      records: { workload: records, eval: evaluation },
    };
  } finally {
    await connection.close();
  }
}

/**
 * The error-message probe: take the first call of the workload that worked
 * and send it again once per argument, each time without that argument (at
 * any depth). A message "names" the argument when one of its "parameter:
 * problem" parts ends with the argument's name. Nothing here knows the
 * variant: the calls come from the workload, the verdict from the texts.
 */
export async function probeErrorMessages(records: CallRecord[], connection: ServerConnection): Promise<{ named: number; total: number }> {
  for (const record of records) {
    // The call of the request that carried the most arguments and worked (an edit's write, not its reads).
    const worked = record.attempts
      .filter((a) => a.label === 'ok' && a.args && a.tool)
      .sort((a, b) => leafPaths(b.args!).length - leafPaths(a.args!).length)[0];
    if (!worked?.args || !worked.tool) continue;
    const tool = worked.tool;
    let named = 0;
    let refused = 0;
    for (const path of leafPaths(worked.args)) {
      const outcome = await connection.call(tool, without(worked.args, path));
      // An argument the call can do without (an optional one) says nothing about the messages.
      if (outcome.label === 'ok') continue;
      refused++;
      const leaf = path.at(-1)!;
      if (new RegExp(`(^|[\\s;.(])${leaf}\\s*:`).test(outcome.text.replace(/^(MCP error -?\d+:\s*)+/, ''))) named++;
    }
    return { named, total: refused };
  }
  return { named: 0, total: 0 };
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
