/**
 * `--fix-schema OUT.json`: the tools rewritten so that the targeted hosts
 * (`--hosts`) take them, with only the changes those hosts need, each listed
 * with the hosts it is for; what the hosts make of the rewritten list is
 * judged by the same host matrix, beside the original's.
 *
 * The rewrites: for each finding's cause, the kit's ways to write it away
 * (src/lint/fix-rewrites.ts), then each targeted host's sanitizing
 * (src/lint/fix-hosts.ts: the Gemini API's `parameters` field, Mastra's
 * Google layer, formats; a description over OpenAI function calling's 1,024
 * characters, shortened only when that host is targeted). Every rewrite
 * accepts whatever the original did, save those that say they narrow:
 * `narrows: true` on the change and "narrows: ..." in its words.
 *
 * Per tool, judged through the host matrix (`hostVerdict`) on the targeted
 * hosts alone:
 *  1. A tool no targeted host refuses, drops or loses anything of is left as
 *     published.
 *  2. Every cause is written away the most faithful way; if a targeted host
 *     still refuses, the rewrites that tell the model less (a union removed),
 *     then those that narrow, are tried in their place, kept only if fewer
 *     targeted hosts refuse.
 *  3. Each change, last first, is taken back (or a more faithful rewrite put
 *     in its place) if no targeted host is worse without it. A change that
 *     shows the model the same in a form more hosts read (a ref inlined, a
 *     union of objects merged) is kept against a loss too; one that removes
 *     or narrows something, only against a refusal or a drop (a keyword
 *     removed because a host drops it would be lost on every host). One cause
 *     taken away alone may change nothing while another remains (a tool
 *     refused for its oneOf and its formats), so changes are pruned from the
 *     whole, not added one at a time; only the hosts that fail or lose
 *     something of the original are asked here.
 *  4. A tool that any targeted host took before and refuses after is left as
 *     published.
 * Each host is asked once per schema, about many tools at once where it can
 * be (a framework's awaits overlap).
 * Not rewritten: a recursive schema's refs (they cannot be inlined).
 */
import { getProfile } from '../lab/profiles/index.js';
import { HOST_REWRITES } from './fix-hosts.js';
import { FIXED_RULES, rewritesOf, type Rewrite } from './fix-rewrites.js';
import { hostVerdict } from './hosts.js';
import { toolFindings } from './rules.js';
import { isObject, type HostVerdict, type ListedTool } from './types.js';
import type { Answers } from './verdicts.js';

export interface Change {
  tool: string;
  rule: string;
  /** Where, in the tool as it was before this change. */
  path: string;
  /** In words, ending with the hosts it is for; "narrows: ..." where it does. */
  what: string;
  /** Set when a value the original accepted may be refused after (what says which). */
  narrows?: true;
}

/** One change a replay made: which choice (`key`), which of its rewrites (`index`), and the change in words. */
interface Step {
  key: string;
  rule: string;
  path: string;
  what: string;
  narrows?: string;
  shows?: true;
  index: number;
}

/** How far the rewrites may go: 0 the most faithful, 1 the most hosts take without narrowing, 2 narrowing too. */
type Level = 0 | 1 | 2;

/** What a replay may offer: rewrites that remove or narrow only where a targeted host fails the tool (`widen`), and the sanitizing of those hosts alone. */
interface Offer {
  widen: boolean;
  failing: ReadonlySet<string>;
}

function defaultIndex(rewrites: Rewrite[], level: Level, widen: boolean): number {
  const allowed = rewrites.flatMap((r, i) => (widen || r.shows ? [i] : []));
  const faithful = allowed.filter((i) => !rewrites[i]!.narrows);
  return level === 0 ? (faithful[0] ?? -1) : level === 1 ? (faithful.at(-1) ?? -1) : (allowed.at(-1) ?? -1);
}

const FIRST = (rule: string) => (rule === 'unused-defs' || rule === 'ref' ? 0 : 1);

/**
 * The tool with every cause written away as `choice` says (a rewrite's index, -1 for none; else the level's),
 * then every host rewrite offered (-1 for none): deterministic, so that a choice changed and replayed differs in
 * that choice alone.
 */
function replay(tool: ListedTool, offer: Offer, choice: Map<string, number>, level: Level): { tool: ListedTool; steps: Step[] } {
  let current = tool;
  const steps: Step[] = [];
  const handled = new Set<string>();
  for (let n = 0; n < 200; n++) {
    const schema = current.inputSchema as Record<string, unknown>;
    const findings = toolFindings(current)
      .filter((f) => FIXED_RULES.includes(f.rule) && f.path.startsWith('/inputSchema') && !handled.has(`${f.rule} ${f.path}`))
      .sort((a, b) => FIRST(a.rule) - FIRST(b.rule));
    let applied = false;
    for (const f of findings) {
      const key = `${f.rule} ${f.path}`;
      handled.add(key);
      const rewrites = rewritesOf(schema, f);
      const index = choice.get(key) ?? defaultIndex(rewrites, level, offer.widen);
      const rewrite = rewrites[index];
      if (!rewrite || JSON.stringify(rewrite.schema) === JSON.stringify(schema)) continue;
      steps.push({ key, rule: f.rule, path: f.path, what: rewrite.what, ...(rewrite.narrows ? { narrows: rewrite.narrows } : {}), ...(rewrite.shows ? { shows: true as const } : {}), index });
      current = { ...current, inputSchema: rewrite.schema };
      applied = true;
      break;
    }
    if (!applied) break;
  }
  for (const rewrite of HOST_REWRITES) {
    if (!offer.widen || (rewrite.host && !offer.failing.has(rewrite.host)) || choice.get(rewrite.key) === -1) continue;
    const after = rewrite.apply(current);
    if (after.said.length === 0) continue;
    for (const s of after.said) steps.push({ key: rewrite.key, rule: 'host', path: s.path ?? '/inputSchema', what: s.what, index: 0 });
    current = after.tool;
  }
  return { tool: current, steps };
}

/** What one targeted host does with a tool, in the two things the fix weighs: whether it fails it, and how much it loses. */
interface Outcome {
  fails: boolean;
  lost: number;
}
/** One host's outcome on one tool, asked once per schema. */
type Ask = (host: string, tool: ListedTool) => Promise<Outcome>;

const FAILS = new Set(['refused', 'dropped', 'unknown']);

function outcome(v: HostVerdict): Outcome {
  return { fails: FAILS.has(v.verdict), lost: v.verdict === 'lossy' ? (v.lost?.length ?? 1) : 0 };
}

const isWorse = (t: Outcome, c: Outcome, losses: boolean) => (t.fails && !c.fails) || (losses && !t.fails && !c.fails && t.lost > c.lost);

/**
 * The hosts of `suspects` worse off with `trial` than with `current`: failing where they did not, or (`losses`)
 * losing more. Only the hosts a change can be for are asked (those that fail the original tool, or lose something
 * of it): every question costs a run of the host's own code, and a host that took the original whole is asked
 * about the result in the end (fixList, step 4).
 */
async function worseHosts(trial: ListedTool, current: ListedTool, losses: boolean, suspects: readonly string[], ask: Ask): Promise<string[]> {
  const pairs = await Promise.all(suspects.map((h) => Promise.all([ask(h, trial), ask(h, current)])));
  return suspects.filter((_, i) => isWorse(pairs[i]![0], pairs[i]![1], losses));
}

/** One tool, its changes chosen as the header says (steps 1 to 3; fixList does step 4). */
async function fixTool(tool: ListedTool, hosts: readonly string[], ask: Ask): Promise<{ tool: ListedTool; changes: Change[] }> {
  const unchanged = { tool, changes: [] };
  if (!isObject(tool.inputSchema)) return unchanged;
  const original = await Promise.all(hosts.map((h) => ask(h, tool)));
  const failing = hosts.filter((_, i) => original[i]!.fails);
  const lossy = hosts.filter((_, i) => original[i]!.lost > 0);
  if (failing.length === 0 && lossy.length === 0) return unchanged;
  const offer: Offer = { widen: failing.length > 0, failing: new Set(failing) };
  // Escalated only as far as fewer of the hosts that refuse the original refuse the rewrite.
  const stillFailing = async (t: ListedTool) => (await Promise.all(failing.map((h) => ask(h, t)))).filter((o) => o.fails).length;
  let level: Level = 0;
  let current = replay(tool, offer, new Map(), 0);
  let failures = await stillFailing(current.tool);
  for (const next of [1, 2] as const) {
    if (failures === 0) break;
    const trial = replay(tool, offer, new Map(), next);
    const trialFailures = await stillFailing(trial.tool);
    if (trialFailures < failures) [level, current, failures] = [next, trial, trialFailures];
  }
  const choice = new Map(current.steps.map((s) => [s.key, s.index]));
  const forHosts = new Map<string, string[]>();
  // Last first; a step that a change brought in (a rewrite put in another's place) is weighed too.
  const weighed = new Set<string>();
  const nextStep = () => [...current.steps].reverse().find((s) => !weighed.has(s.key));
  for (let step = nextStep(); step; step = nextStep()) {
    const key = step.key;
    weighed.add(key);
    for (const alternative of [-1, ...Array.from({ length: step.index }, (_, i) => i)]) {
      const trial = replay(tool, offer, new Map(choice).set(key, alternative), level);
      // Taken back, a change must cost no host anything (one that removes or narrows something, no refusal); a more
      // faithful rewrite in its place is weighed on refusals alone: a union removed loses nothing on a host because
      // it tells nothing.
      const losses = alternative === -1 && step.shows === true;
      const worse = await worseHosts(trial.tool, current.tool, losses, [...new Set([...failing, ...(losses ? lossy : [])])], ask);
      if (alternative === -1) forHosts.set(key, worse);
      if (worse.length > 0) continue;
      choice.set(key, alternative);
      current = trial;
      break;
    }
  }
  const changes = current.steps.map((s): Change => {
    const forThem = forHosts.get(s.key) ?? [];
    const what = `${s.what}${s.narrows ? `; narrows: ${s.narrows}` : ''}${forThem.length > 0 ? ` (for ${forThem.join(', ')})` : ''}`;
    return { tool: tool.name, rule: s.rule, path: s.path, what, ...(s.narrows ? { narrows: true as const } : {}) };
  });
  return { tool: current.tool, changes };
}

/**
 * The tools rewritten for `targets`, and every change. `before`: each tool's verdicts on the targeted hosts, where
 * the caller has them already (the report's matrix); `answers`: the verdict cache (src/lint/verdicts.ts).
 */
export async function fixList(tools: ListedTool[], targets: readonly string[], options: { before?: Record<string, HostVerdict>[]; answers?: Answers } = {}): Promise<{ tools: ListedTool[]; changes: Change[] }> {
  const hosts = targets.filter((id) => getProfile(id));
  const asked = new Map<string, Promise<Outcome>>();
  const keyOf = (host: string, tool: ListedTool) => `${host}\u0000${JSON.stringify([tool.name, tool.description, tool.inputSchema])}`;
  const ask: Ask = (host, tool) => {
    const key = keyOf(host, tool);
    if (!asked.has(key)) asked.set(key, hostVerdict(getProfile(host)!, tool, options.answers).then(outcome));
    return asked.get(key)!;
  };
  // A host asked about many tools at once answers sooner than one at a time (its framework's awaits overlap).
  const askAll = async (list: ListedTool[]) => {
    for (const h of hosts) await Promise.all(list.map((t) => ask(h, t)));
  };
  tools.forEach((tool, i) => {
    for (const h of hosts) if (options.before?.[i]?.[h]) asked.set(keyOf(h, tool), Promise.resolve(outcome(options.before[i]![h]!)));
  });
  await askAll(tools);
  const fixed = await Promise.all(tools.map((tool) => fixTool(tool, hosts, ask)));
  // Step 4: a tool that a targeted host took before and fails after is left as published.
  await askAll(fixed.filter((f) => f.changes.length > 0).map((f) => f.tool));
  for (const [i, f] of fixed.entries()) {
    const after = await Promise.all(hosts.map(async (h) => isWorse(await ask(h, f.tool), await ask(h, tools[i]!), false)));
    if (after.some(Boolean)) fixed[i] = { tool: tools[i]!, changes: [] };
  }
  return { tools: fixed.map((f) => f.tool), changes: fixed.flatMap((f) => f.changes) };
}
