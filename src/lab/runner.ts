/**
 * The runner: one run is one server (baseline, variant or solution), one
 * client profile, one spec era and one seed, driving the workload and the
 * eval through the agent loop. It sees only what a client sees.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { SpecEra } from '../minimcp/errors.js';
import { runRequest, TOOL_NAME, type CallRecord, type HostView } from './agent.js';
import { ServerConnection } from './connection.js';
import type { Knobs } from './knobs.js';
import { figures, type Figures } from './metrics.js';
import type { ClientProfile } from './profiles.js';
import { drawWorkload, EVAL_SET } from './workload.js';

export interface RunSettings {
  client: ClientProfile;
  spec: SpecEra;
  seed: number;
  calls: number;
  knobs: Knobs;
}

export interface RunResult extends Figures {
  /** 'baseline', the break's id, or '<id>+solution'. */
  variant: string;
  client: string;
  spec: SpecEra;
  seed: number;
  calls: number;
  temperature: number;
  /** The conjugate tool's inputSchema as the client got it from tools/list, or null. */
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
 * with this node; the runner adds `--spec`.
 */
export async function run(variant: string, server: string | string[], settings: RunSettings): Promise<RunResult> {
  const { client: profile, spec, seed, calls, knobs } = settings;
  const script = typeof server === 'string' ? [server] : server;
  const connection = new ServerConnection({ command: process.execPath, args: [...script, '--spec', spec] }, knobs.callTimeoutMs);
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
    const published = tools?.find((t) => t.name === TOOL_NAME);

    const workload: CallRecord[] = [];
    for (const request of drawWorkload(seed, calls)) workload.push(await runRequest(request, view, profile, connection, knobs, seed));
    // The eval's draws are keyed by its own request ids (e01..e30), apart from the
    // workload's, so --calls does not move the accuracy figure.
    const evaluation: CallRecord[] = [];
    for (const request of EVAL_SET) evaluation.push(await runRequest(request, view, profile, connection, knobs, seed));

    const seen = 'tools' in view ? (view.tools.find((t) => t.name === TOOL_NAME)?.inputSchema ?? null) : null;
    if (connection.garbageLines > 0) serverNotes.push(`the server wrote ${connection.garbageLines} line(s) to stdout that are not JSON-RPC`);
    serverNotes.push(...connection.notes);
    return {
      variant,
      client: profile.id,
      spec,
      seed,
      calls,
      temperature: knobs.temperature,
      publishedSchema: (published?.inputSchema as Record<string, unknown> | undefined) ?? null,
      host: 'rejected' in view ? { accepted: false, rejection: view.rejected } : { accepted: true, seenSchema: seen },
      ...figures(workload, evaluation),
      stderrSample: stderrSample(connection.stderr),
      serverNotes,
      records: { workload, eval: evaluation },
    };
  } finally {
    await connection.close();
  }
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
