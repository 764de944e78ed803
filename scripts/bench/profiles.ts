/**
 * Each client profile's own CPU, its host framework called bare: for the
 * sweep's floor (scripts/bench.ts section 5). Every run of the sweep has its
 * profile present the server's tool list to the model once (a framework's
 * conversion of the tools: mastra's JSON Schema to zod and back, langchain's,
 * the AI SDK's...), and check every call the model writes (its `validate`:
 * the framework's validation and shaping of one call's arguments, and its own
 * call path down to the MCP client, which mastra and the AI SDK run with a
 * fake callTool: src/lab/profiles/). No runner, no model, no agent loop, no
 * server: the profile's two methods in a loop, in this process.
 *
 * The tools are the baseline's as tools/list gave them; the arguments are the
 * calls a run of each workload on the baseline wrote (the faithful profile,
 * which checks nothing: the model's own arguments), each checked by every
 * profile as its runs check them.
 */
import process from 'node:process';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { SeenTool } from '../../src/lab/types.js';
import { ServerConnection } from '../../src/lab/connection.js';
import { DEFAULT_KNOBS } from '../../src/lab/knobs.js';
import { getProfile, type ClientProfile } from '../../src/lab/profiles/index.js';
import { run, WORKLOADS, type Workload } from '../../src/lab/runner.js';
import { serverCommand } from '../../src/lab/variants.js';
import { BUILD } from './measure.js';

/** A profile's own CPU, in µs: presenting the tool list once, and checking one call's arguments, by workload. */
export interface ProfileCpu {
  presentUs: number;
  checkUs: Partial<Record<Workload, number>>;
}

/** One call as the model wrote it: the tool and its arguments, before the host's check. */
interface Written {
  tool: string;
  args: Record<string, unknown>;
}

/** The calls a run of `workload` on the baseline wrote, every attempt with arguments. */
async function writtenCalls(serverJs: string, workload: Workload, calls: number): Promise<Written[]> {
  const client = getProfile('faithful')!;
  const result = await run('baseline', serverJs, { client, server: BUILD, seed: 1, calls, knobs: DEFAULT_KNOBS, workload });
  const records = [...(result.records?.workload ?? []), ...(result.records?.eval ?? [])];
  return records.flatMap((r) => r.attempts.flatMap((a) => (a.tool && a.args ? [{ tool: a.tool, args: a.args }] : [])));
}

/** CPU of this process, in µs, spent by `work` (awaited). */
async function cpuUs(work: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

/** Rounds of each measure; the least is kept: the framework's own cost, with as little as possible of the machine's other work in it. */
const ROUNDS = 3;

async function least(work: () => Promise<void>): Promise<number> {
  let best = Infinity;
  for (let r = 0; r < ROUNDS; r++) best = Math.min(best, await cpuUs(work));
  return best;
}

async function measureProfile(profile: ClientProfile, tools: Tool[], written: Map<Workload, Written[]>, presents: number): Promise<ProfileCpu> {
  const view = await profile.present(tools);
  const checkable = new Map<Workload, { tool: SeenTool; args: Record<string, unknown> }[]>();
  if ('tools' in view)
    for (const [workload, calls] of written) {
      const shown = calls.flatMap((c) => {
        const tool = view.tools.find((t) => t.name === c.tool);
        return tool ? [{ tool, args: c.args }] : [];
      });
      if (shown.length > 0) checkable.set(workload, shown);
    }
  const presentAll = async () => {
    for (let i = 0; i < presents; i++) await profile.present(tools);
  };
  // Each check is given its own copy of the arguments, made before the clock starts (a host may rewrite them).
  const checkAll = (calls: { tool: SeenTool; args: Record<string, unknown> }[]) => {
    const copies = calls.map((c) => structuredClone(c.args));
    return async () => {
      for (let i = 0; i < calls.length; i++) await profile.validate(calls[i]!.tool, copies[i]!);
    };
  };
  // Warm-up, every measure once: the framework loaded (onFirstUse) and its code compiled, as in a sweep's worker
  // after its first runs.
  await presentAll();
  for (const calls of checkable.values()) await checkAll(calls)();
  const presentUs = (await least(presentAll)) / presents;
  const checkUs: ProfileCpu['checkUs'] = {};
  for (const [workload, calls] of checkable) {
    if (calls.length === 0) continue; // no call to check: no figure (never 0/0)
    let best = Infinity;
    for (let r = 0; r < ROUNDS; r++) best = Math.min(best, await cpuUs(checkAll(calls)));
    checkUs[workload] = best / calls.length;
  }
  return { presentUs, checkUs };
}

/** Every profile's own CPU (ids as asked), on the baseline server bundle `serverJs`. */
export async function profilesCpu(serverJs: string, ids: readonly string[], calls: number, presents: number): Promise<Map<string, ProfileCpu>> {
  const written = new Map<Workload, Written[]>();
  for (const workload of WORKLOADS) written.set(workload, await writtenCalls(serverJs, workload, calls));
  const connection = new ServerConnection(serverCommand(serverJs, ['--build', BUILD]), DEFAULT_KNOBS.callTimeoutMs);
  let tools: Tool[];
  try {
    tools = await connection.listTools();
  } finally {
    await connection.close();
  }
  const out = new Map<string, ProfileCpu>();
  for (const id of ids) {
    const profile = getProfile(id);
    if (!profile) throw new Error(`unknown client profile ${id}`);
    out.set(id, await measureProfile(profile, tools, written, presents));
  }
  return out;
}
