/**
 * Which hosts a finding's cause hurts, read from the host matrix, and the
 * severity that follows: an error only where a host the author targets
 * refuses or drops the tool because of it; otherwise a warning that names who
 * is hurt (issue 22, "Severity follows the hosts").
 *
 * A host that loses something is hurt where its loss sits at the finding's
 * path (src/lint/loss.ts gives each loss a path). A host that refuses or
 * drops the whole tool is asked once more, on the tool with this one cause
 * taken away (`withoutCause`, the kit's own rewrite of that shape): if it
 * then takes the tool, the cause is what it refuses. If it still refuses,
 * another cause refuses it too, and this one is asked about alone
 * (`keywordAlone`): its keyword on the path to it, every schema on the way
 * cut down to its type, against the same without the keyword. A host that
 * takes the second and refuses the first refuses this cause wherever it
 * stands: Firecrawl's `propertyNames` on Gemini's `parameters` field, in
 * tools the field refuses first for their 2020-12 `$schema`. Else another
 * cause decides (GitHub's create_pull_request_review: Continue's legacy
 * Gemini field refuses its additionalProperties first, OpenAI strict mode
 * its optional parameters, whatever its union does). So each cause is also
 * judged with every OTHER cause of the tool rewritten away (issue 33: "no
 * cause hides another"): MongoDB's create-index, refused by ai-sdk-google for
 * its oneOf and dropped by VS Code for its 2020-12 $schema, names both.
 *
 * What no rule names is still said: a targeted host that refuses or drops a
 * tool (or the whole list) for a cause no finding carries gets a
 * `host-refusal` finding with the host's own text, so the exit code never
 * passes what the matrix shows refused. A refusal whose evidence is
 * unconfirmed (src/lint/evidence.ts; the verdict's evidence, src/lint/hosts.ts stamped) makes a warning, never an error alone; a
 * finding that hurts no targeted host is `info`.
 */
import { getProfile, PROFILES } from '../lab/profiles/index.js';
import { hostVerdict, wholeListVerdict } from './hosts.js';
import { keywordAlone, toolWithoutCause, withoutAll } from './rewrite.js';
import { OPENAI_MAX_TOOLS } from '../lab/profiles/openai-functions.js';
import type { Finding, HostVerdict, Hurt, ListedTool, Severity } from './types.js';
import type { Answers } from './verdicts.js';

/** The rules whose cause is something a host reads, so the matrix can say who it hurts. The others keep their rule's severity. */
export const HOST_JUDGED: ReadonlySet<string> = new Set([
  'no-structural-union', 'one-of', 'all-of', 'const', 'type-list', 'ref', 'ref-unresolved', 'unused-defs', 'array-items', 'untaught', 'untyped',
  'tool-name', 'description-length', 'schema-dialect', 'format', 'examples', 'open-root', 'required-undefined',
]);

const FAILS = new Set(['refused', 'dropped']);
const fails = (verdict: HostVerdict) => FAILS.has(verdict.verdict);

/** Whether a host takes a tool: neither refused nor dropped, and an answer the kit could reach. */
const takes = (verdict: HostVerdict) => !fails(verdict) && verdict.verdict !== 'unknown';

/** The first line of a host's text, for a message. */
function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

type Ask = (host: string, tool: ListedTool) => Promise<HostVerdict>;

/** Whether a schema declares draft-07, the dialect of the hosts' validators (Ajv's default, VS Code's language service). */
function isDraft07(schema: unknown): boolean {
  const declared = typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>).$schema : undefined;
  return typeof declared === 'string' && /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/.test(declared);
}

/** A refusal or drop, as a hurt: unconfirmed when the verdict's evidence is. */
function failure(host: string, v: HostVerdict, what = firstLine(v.detail)): Hurt {
  return { host, verdict: v.verdict as 'refused' | 'dropped', what, ...(v.evidence?.unconfirmed ? { unconfirmed: true as const } : {}) };
}

/**
 * The hosts one finding's cause hurts. `verdicts` are the tool's, by host id; `others` the tool's other host-judged
 * findings; `ask` answers a host's verdict on another version of the tool (cached by the caller).
 */
export async function hurtsOf(tool: ListedTool, finding: Finding, others: Finding[], verdicts: Record<string, HostVerdict>, ask: Ask): Promise<Hurt[]> {
  const hurts: Hurt[] = [];
  let without: ListedTool | null | undefined;
  let othersGone: { with: ListedTool; without: ListedTool } | null | undefined;
  let alone: ReturnType<typeof keywordAlone> | undefined;
  for (const [host, v] of Object.entries(verdicts)) {
    if (fails(v)) {
      // Alone: the tool with this cause taken away.
      if (without === undefined) without = toolWithoutCause(tool, finding);
      if (without === null) continue;
      if (takes(await ask(host, without))) {
        hurts.push(failure(host, v));
        continue;
      }
      // With every other cause taken away: refused with this one, taken without it.
      if (othersGone === undefined) {
        const rest = withoutAll(tool, others);
        const both = withoutAll(tool, [...others, finding]);
        othersGone = others.length > 0 && JSON.stringify(both) !== JSON.stringify(rest) ? { with: rest, without: both } : null;
      }
      if (othersGone) {
        // Without it the same for every finding of the tool (every cause gone, asked once): asked first, so that a host
        // refusing the tool with every cause gone (a cause no rule names) is not asked about each finding with it.
        if (takes(await ask(host, othersGone.without))) {
          const withIt = await ask(host, othersGone.with);
          if (fails(withIt)) {
            hurts.push(failure(host, v, firstLine(withIt.detail)));
            continue;
          }
        }
      }
      // Its keyword alone, on the path to it (keywordAlone).
      if (alone === undefined) alone = typeof tool.inputSchema === 'object' && tool.inputSchema !== null ? keywordAlone(tool.inputSchema as Record<string, unknown>, finding) : null;
      if (alone === null) continue;
      const [control, probe] = await Promise.all([ask(host, { ...tool, inputSchema: alone.control }), ask(host, { ...tool, inputSchema: alone.probe })]);
      if (takes(control) && fails(probe)) hurts.push(failure(host, v, firstLine(probe.detail)));
    } else if (v.verdict === 'lossy') {
      const here = (v.lost ?? []).filter((l) => l.path === finding.path);
      if (here.length > 0) hurts.push({ host, verdict: 'lossy', what: here.map((l) => l.what).join('; ') });
    }
  }
  return hurts;
}

/**
 * "refused for it by a, b; dropped for it by c; lost on d, e (what)": the hosts in a few words, for a message.
 * `stillFailing`: the targeted hosts that refuse or drop the tool for other causes, so that a cause no host is hurt
 * by is never said to hurt no one while the tool is still refused.
 */
export function hurtSentence(hurts: Hurt[], stillFailing: string[] = []): string {
  const of = (verdict: Hurt['verdict']) => hurts.filter((h) => h.verdict === verdict);
  const mark = (h: Hurt) => `${h.host}${h.unconfirmed ? ' (unconfirmed)' : ''}`;
  // The hosts' own texts are in each hurt's `what` and in the matrix: a message that quoted each would bury the finding.
  const said = [
    of('refused').length > 0 ? `refused for it by ${of('refused').map(mark).join(', ')}` : '',
    of('dropped').length > 0 ? `dropped for it by ${of('dropped').map(mark).join(', ')}` : '',
    of('lossy').length > 0 ? `lost on ${of('lossy').map((h) => h.host).join(', ')} (${[...new Set(of('lossy').map((h) => h.what))].join('; ')})` : '',
  ].filter(Boolean);
  const others = stillFailing.filter((host) => !hurts.some((h) => h.host === host && h.verdict !== 'lossy'));
  if (others.length > 0) said.push(`still refused or dropped for another cause by ${others.join(', ')} (the tool's other findings)`);
  return said.length > 0 ? said.join('; ') : 'no host of the matrix refuses, drops or loses anything here because of it';
}

/**
 * A refusal that no one cause explains: a tool with two keywords a host
 * refuses, each enough alone, where taking either away still leaves the
 * other. The tool's causes are taken away together, in order, until the host
 * takes the tool; then each is put back in turn and kept out only if the host
 * refuses again without it: the smallest set found this way is blamed.
 */
async function sharedCauses(tool: ListedTool, causes: Finding[], host: string, ask: Ask): Promise<Finding[]> {
  const takesWithout = async (without: Finding[]) => takes(await ask(host, withoutAll(tool, without)));
  const removed: Finding[] = [];
  for (const cause of causes) {
    if (toolWithoutCause(tool, cause) === null) continue;
    removed.push(cause);
    if (!(await takesWithout(removed))) continue;
    let needed = [...removed];
    for (const cause of removed) {
      const fewer = needed.filter((c) => c !== cause);
      if (await takesWithout(fewer)) needed = fewer;
    }
    return needed;
  }
  return [];
}

/** error: a targeted host refuses or drops because of it, on confirmed evidence; warning: a targeted host is hurt otherwise; info: none is. */
export function severityOf(hurts: Hurt[], targets: readonly string[]): Severity {
  const targeted = hurts.filter((h) => targets.includes(h.host));
  if (targeted.some((h) => h.verdict !== 'lossy' && !h.unconfirmed)) return 'error';
  return targeted.length > 0 ? 'warning' : 'info';
}

/** A targeted host's refusal or drop that no finding carries: said with the host's own text. */
export function hostRefusal(host: string, v: HostVerdict, targets: readonly string[], scope: 'tool' | 'list'): Finding {
  const hurts = [failure(host, v)];
  return {
    rule: 'host-refusal',
    severity: severityOf(hurts, targets),
    path: '',
    message: `${host} ${v.verdict === 'dropped' ? 'drops' : 'refuses'} ${scope === 'tool' ? 'the tool' : 'the whole tools/list'} for a cause no rule of the linter names: ${firstLine(v.detail)}`,
    hurts,
  };
}

/**
 * Each host-judged finding of each tool given its hurts, its severity from
 * the targeted hosts, and the hurts said at the end of its message; then a
 * host-refusal finding for each targeted host that still refuses a tool no
 * finding blames it for.
 */
export async function judgeByHosts(tools: ListedTool[], findings: Finding[][], verdicts: Record<string, HostVerdict>[], targets: readonly string[], answers?: Answers): Promise<void> {
  const cache = new Map<string, Promise<HostVerdict>>();
  for (const [i, tool] of tools.entries()) {
    const ask: Ask = (host, asked) => {
      const key = `${host}\u0000${JSON.stringify(asked)}`;
      let answer = cache.get(key);
      if (!answer) cache.set(key, (answer = hostVerdict(getProfile(host)!, asked, answers)));
      return answer;
    };
    const judged: Finding[] = [];
    for (const finding of findings[i]!) {
      if (!HOST_JUDGED.has(finding.rule)) continue;
      if (finding.path.startsWith('/outputSchema')) {
        // No host of the matrix shows a model the outputSchema; the MCP SDK's client checks structuredContent against it.
        finding.hurts = [];
        finding.severity = 'info';
        finding.message = `in outputSchema, which no host of the matrix shows a model (clients check structuredContent against it): ${finding.message}`;
        continue;
      }
      judged.push(finding);
    }
    for (const finding of judged) finding.hurts = await hurtsOf(tool, finding, judged.filter((f) => f !== finding), verdicts[i]!, ask);
    // A host that refuses or drops the tool, blamed on no one cause: the causes it takes together.
    const blamed = (host: string) => judged.some((f) => f.hurts!.some((h) => h.host === host && h.verdict !== 'lossy'));
    for (const [host, v] of Object.entries(verdicts[i]!)) {
      if (!fails(v) || blamed(host)) continue;
      for (const cause of await sharedCauses(tool, judged, host, ask)) cause.hurts!.push(failure(host, v));
    }
    const stillFailing = targets.filter((host) => verdicts[i]![host] && fails(verdicts[i]![host]!));
    // A name outside what MCP itself allows (1 to 128 of A-Z a-z 0-9 _ - .) breaks the spec whatever the hosts do.
    const nameBreaksMcp = tool.name.length === 0 || tool.name.length > 128 || /[^A-Za-z0-9_.-]/.test(tool.name);
    for (const finding of judged) {
      finding.severity = finding.rule === 'tool-name' && nameBreaksMcp ? 'error' : severityOf(finding.hurts!, targets);
      finding.message = `${finding.message}: ${hurtSentence(finding.hurts!, stillFailing)}`;
    }
    // A draft-07 $schema is what every validator of the matrix compiles, and what zod 3 and most SDKs publish: it is
    // said only where a targeted host refuses the keyword itself (Gemini's parameters field), not as info on every tool.
    const quiet = (f: Finding) => f.rule === 'schema-dialect' && f.severity === 'info' && isDraft07(tool.inputSchema);
    findings[i] = findings[i]!.filter((f) => !quiet(f));
    // What the matrix shows refused on a targeted host is a finding, whatever the cause; a tool with an error of a rule
    // no host judges (a root that is not an object, a schema of the wrong shape) has its cause named already.
    const broken = findings[i]!.some((f) => !HOST_JUDGED.has(f.rule) && f.severity === 'error');
    for (const host of stillFailing) if (!blamed(host) && !broken) findings[i]!.push(hostRefusal(host, verdicts[i]![host]!, targets, 'tool'));
  }
}

/**
 * The server's own findings judged on the whole list: `tool-count` hurts a host that refuses the list and takes its
 * first OPENAI_MAX_TOOLS tools; then a host-refusal finding for each targeted host that refuses or drops the whole
 * list while no tool alone and no finding of the server's explains it.
 */
export async function judgeList(
  tools: ListedTool[],
  serverFindings: Finding[],
  perTool: Record<string, HostVerdict>[],
  whole: Record<string, HostVerdict>,
  targets: readonly string[],
  answers?: Answers,
): Promise<void> {
  for (const finding of serverFindings.filter((f) => f.rule === 'tool-count')) {
    finding.hurts = [];
    for (const profile of PROFILES) {
      const v = whole[profile.id];
      if (!v || !fails(v)) continue;
      const fewer = tools.slice(0, OPENAI_MAX_TOOLS);
      if (takes(await wholeListVerdict(profile, fewer, perTool.slice(0, OPENAI_MAX_TOOLS).map((t) => t[profile.id]!), answers))) finding.hurts.push(failure(profile.id, v));
    }
    finding.severity = severityOf(finding.hurts, targets);
    finding.message = `${finding.message}: ${hurtSentence(finding.hurts)}`;
  }
  for (const host of targets) {
    const v = whole[host];
    if (!v || !fails(v)) continue;
    const byTool = perTool.some((t) => t[host] && fails(t[host]!));
    const byServer = serverFindings.some((f) => f.hurts?.some((h) => h.host === host && h.verdict !== 'lossy'));
    if (!byTool && !byServer) serverFindings.push(hostRefusal(host, v, targets, 'list'));
  }
}
