/**
 * The host matrix: for each tool and each host profile, one verdict, from
 * the very profile code the labs run (src/lab/profiles/): the host presents
 * the tool, and either refuses it (`lost: 'request'`: the model's API fails
 * the whole request), drops it (`lost: 'server'`: the host's MCP client
 * discards the server's tools), or shows the model a schema, which is
 * compared with the published one (src/lint/loss.ts). The host's own
 * argument check runs once on a call the model could send (every required
 * parameter given), to see what the host changes on the way (Langflow sends
 * `null` for every optional parameter left out).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { HISTORIC_HOSTS, PROFILES, TODAY_SINCE, TODAYS_API_FIELDS, TODAYS_HOSTS, type ClientProfile } from '../lab/profiles/index.js';
import type { Evidence, Presented, Shown } from '../lab/profiles/shared.js';
import type { SeenTool } from '../lab/types.js';
import { schemaLosses } from './loss.js';
import { isObject, type HostVerdict, type ListedTool, type Loss } from './types.js';
import type { Answers } from './verdicts.js';
import { UserError } from '../core/user-error.js';

export const HOST_IDS: readonly string[] = PROFILES.map((p) => p.id);

/**
 * `--hosts`: which host profiles the linter runs. 'today' (the default: the host versions released since
 * TODAY_SINCE, src/lab/profiles/index.ts), 'api' (today's model API fields, for an app that passes schemas
 * through unchanged), 'historic' (the ones before, which the labs teach, with `faithful`),
 * 'all', or a comma-separated list of ids. The ids come back in the order of PROFILES, so every report's columns
 * keep one order. Anything else is `{ unknown }`: the words that are no set and no id (the caller says so in one line).
 */
export const HOST_SETS = { today: TODAYS_HOSTS, api: TODAYS_API_FIELDS, historic: HISTORIC_HOSTS, all: HOST_IDS } as const;
export type HostSet = keyof typeof HOST_SETS;

export function chooseHosts(spec: string | undefined = 'today'): { hosts: readonly string[] } | { unknown: string[] } {
  const words = spec.split(',').map((w) => w.trim()).filter(Boolean);
  const unknown = words.filter((w) => !Object.hasOwn(HOST_SETS, w) && !HOST_IDS.includes(w));
  if (words.length === 0) return { unknown: [spec] };
  if (unknown.length > 0) return { unknown };
  const chosen = new Set(words.flatMap((w) => (Object.hasOwn(HOST_SETS, w) ? HOST_SETS[w as HostSet] : [w])));
  return { hosts: HOST_IDS.filter((id) => chosen.has(id)) };
}

/** What `--hosts` takes, in words, for its help and its usage error. */
export function hostSetsHelp(): string {
  return `today (hosts released since ${TODAY_SINCE}: ${TODAYS_HOSTS.join(', ')}), api (the model APIs' own fields, for an app that passes schemas through unchanged: ${TODAYS_API_FIELDS.join(', ')}), historic (${HISTORIC_HOSTS.join(', ')}), all, or a comma-separated list of ids`;
}

/** The hosts a report was judged on, in the order of PROFILES. */
export function reportHosts(report: { server: { hosts: Record<string, unknown> } }): string[] {
  return HOST_IDS.filter((id) => Object.hasOwn(report.server.hosts, id));
}

type Published = Pick<Tool, 'name' | 'description' | 'inputSchema'>;

function published(tools: ListedTool[]): Published[] {
  return tools.map((t) => ({ name: t.name, ...(typeof t.description === 'string' ? { description: t.description } : {}), inputSchema: t.inputSchema })) as Published[];
}

/** A value the seen schema accepts, good enough to get past a host's own check. */
function sample(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > 8) return 'x';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  for (const key of ['anyOf', 'oneOf']) {
    const list = schema[key];
    if (Array.isArray(list) && list.length > 0) return sample(list.find((b) => !(isObject(b) && b.type === 'null')) ?? list[0], depth + 1);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return typeof schema.minItems === 'number' && schema.minItems > 0 ? Array.from({ length: schema.minItems }, () => sample(schema.items, depth + 1)) : [];
    case 'object':
      return requiredSample(schema, depth + 1);
    default:
      return 'x';
  }
}

function requiredSample(schema: Record<string, unknown>, depth = 0): Record<string, unknown> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  return Object.fromEntries(required.filter((name) => Object.hasOwn(properties, name)).map((name) => [name, sample(properties[name], depth)]));
}

/** What the host's own check does to a call with every required parameter: keys it adds, drops or rewrites. */
async function sentLosses(profile: ClientProfile, seen: SeenTool): Promise<Loss[]> {
  const args = requiredSample(seen.inputSchema);
  const checked = await profile.validate(seen, structuredClone(args));
  if (!checked.ok) {
    // The host's validator could not compile the schema's dialect: Ajv's draft-07 class, as gemini-cli 0.17 uses it,
    // throws "no schema with key or ref" for a `$schema` it has no meta-schema for (draft 2020-12: speakeasy-api/gram#863,
    // google-gemini/gemini-cli#14970); Ajv caches by schema object, so only the tool's first call fails, before the
    // server sees it (gemini-cli-2025-11.ts).
    // Any other refusal of this sample call may be the sample's fault (a pattern, a format), so it is not reported.
    const dialect = /^no schema with key or ref "([^"]*)"/.exec(checked.error);
    return dialect ? [{ kind: 'dialect', path: '/inputSchema/$schema', what: `the host's validator (Ajv, draft-07) cannot compile $schema ${dialect[1]}: the tool's first call fails before the server sees it` }] : [];
  }
  const out: Loss[] = [];
  // A parameter left out and sent with its own published default tells the server nothing new; null (or anything else) does.
  const properties = isObject(seen.inputSchema.properties) ? seen.inputSchema.properties : {};
  const isDefault = (k: string) => isObject(properties[k]) && 'default' in (properties[k] as object) && JSON.stringify((properties[k] as Record<string, unknown>).default) === JSON.stringify(checked.args[k]);
  const added = Object.keys(checked.args).filter((k) => !Object.hasOwn(args, k) && !isDefault(k));
  if (added.length > 0)
    out.push({
      kind: 'sent',
      path: '/inputSchema/properties',
      what: `sends ${added.map((k) => `${k}: ${JSON.stringify(checked.args[k])}`).join(', ')} when the model leaves ${added.length === 1 ? 'it' : 'them'} out`,
    });
  const dropped = Object.keys(args).filter((k) => !Object.hasOwn(checked.args, k));
  if (dropped.length > 0) out.push({ kind: 'sent', path: '/inputSchema/properties', what: `does not send ${dropped.join(', ')}` });
  return out;
}

/** Where a loss is, in words: "root", "properties/tense". */
export function where(path: string): string {
  const rest = path.replace(/^\/inputSchema/, '').replace(/^\//, '');
  return rest === '' ? (path.startsWith('/inputSchema') ? 'root' : path.slice(1) || 'tool') : rest;
}

export function lossDetail(lost: Loss[]): string {
  return lost.map((l) => `${l.what} (${where(l.path)})`).join('; ');
}

/**
 * A profile that throws on a schema is the kit's fault, and says so instead of passing or crashing the linter. A
 * host whose framework is not installed (a UserError: src/lab/profiles/shared.ts onFirstUse) is the person's to
 * fix: the lint stops with the line that says what to install.
 */
function failed(profile: ClientProfile, error: unknown): HostVerdict {
  if (error instanceof UserError) throw error;
  return { verdict: 'unknown', detail: `the kit's ${profile.id} profile could not read this schema (${error instanceof Error ? error.message : String(error)}): a bug in src/lab/profiles/, please report it` };
}

/** A host that will not show the tools: its API refuses the request, or its MCP client drops the server. */
function rejection(view: { rejected: string; lost: 'request' | 'server'; evidence?: Evidence }): HostVerdict {
  return { verdict: view.lost === 'request' ? 'refused' : 'dropped', detail: view.rejected, takesDown: view.lost, ...(view.evidence ? { evidence: view.evidence } : {}) };
}

/**
 * A verdict with what it rests on (issue 33, "provenance on every verdict"): the rejection's own evidence, else the
 * profile's; an assumption is unconfirmed whatever the profile says. A verdict the kit could not reach has none.
 */
function stamped(profile: ClientProfile, verdict: HostVerdict): HostVerdict {
  const evidence = verdict.evidence ?? profile.evidence;
  if (verdict.verdict === 'unknown' || !evidence) return verdict;
  return { ...verdict, evidence: evidence.kind === 'assumed' ? { ...evidence, unconfirmed: true } : evidence };
}

/** One host, one tool; answered from `answers` where this very question was asked before (src/lint/verdicts.ts). */
export function hostVerdict(profile: ClientProfile, tool: ListedTool, answers?: Answers): Promise<HostVerdict> {
  return answers ? answers.ask(profile.id, { tool }, () => askedOne(profile, tool)) : askedOne(profile, tool);
}

async function askedOne(profile: ClientProfile, tool: ListedTool): Promise<HostVerdict> {
  try {
    return stamped(profile, await presentOne(profile, tool));
  } catch (error) {
    return failed(profile, error);
  }
}

async function presentOne(profile: ClientProfile, tool: ListedTool): Promise<HostVerdict> {
  const view = await profile.present(published([tool]));
  if ('rejected' in view) return rejection(view);
  // The tool was presented alone, so what is shown is this tool, renamed or not (the OpenAI Agents SDK shows
  // `get-sum` as `get_sum`: a loss of kind 'name'). Nothing shown: the host left this tool out on its own and
  // would show the others (Claude Code 2.1.235, a top-level union).
  const seen = view.tools[0];
  if (!seen) return { verdict: 'dropped', detail: view.skipped?.find((s) => s.name === tool.name)?.reason ?? 'the host does not show this tool', takesDown: 'tool' };
  const lost = [...schemaLosses(tool, seen), ...(await sentLosses(profile, seen))];
  return lost.length === 0 ? { verdict: 'accepted', detail: 'shown as published' } : { verdict: 'lossy', detail: lossDetail(lost), lost };
}

/** One host, every tool of the server in one request, as a host sends them (`perTool`: each tool's verdict on this host). */
export function wholeListVerdict(profile: ClientProfile, tools: ListedTool[], perTool: HostVerdict[], answers?: Answers): Promise<HostVerdict> {
  return answers ? answers.ask(profile.id, { list: tools }, () => askedList(profile, tools, perTool)) : askedList(profile, tools, perTool);
}

async function askedList(profile: ClientProfile, tools: ListedTool[], perTool: HostVerdict[]): Promise<HostVerdict> {
  let view: Presented;
  try {
    view = await profile.present(published(tools));
  } catch (error) {
    return failed(profile, error);
  }
  if ('rejected' in view) return stamped(profile, rejection(view));
  return stamped(profile, listVerdict(tools, view, perTool));
}

function listVerdict(tools: ListedTool[], view: Shown, perTool: HostVerdict[]): HostVerdict {
  const lossy = perTool.filter((v) => v.verdict === 'lossy').length;
  if (perTool.some((v) => v.verdict === 'unknown')) return { verdict: 'unknown', detail: 'the profile could not read every tool' };
  // Tools the host leaves out one by one: the server still works, with fewer tools; unless it left out every one,
  // which is the server dropped (VS Code and MongoDB's 27 tools of a 2020-12 $schema: issue 33).
  const alone = tools.length - view.tools.length;
  if (alone > 0 && view.tools.length === 0)
    return { verdict: 'dropped', detail: `every tool (${tools.length}) left out by the host: ${perTool.find((v) => v.takesDown === 'tool')?.detail.split('\n')[0] ?? 'none shown'}`, takesDown: 'server' };
  if (alone > 0) return { verdict: 'lossy', detail: `${alone} of ${tools.length} tool${tools.length === 1 ? '' : 's'} left out by the host, the others shown${lossy > 0 ? `; ${lossy} lossy` : ''}` };
  if (lossy === 0) return { verdict: 'accepted', detail: tools.length === 0 ? 'no tools' : `every tool shown as published` };
  return { verdict: 'lossy', detail: `${lossy} of ${tools.length} tool${tools.length === 1 ? '' : 's'} lossy` };
}

/**
 * Imports every host framework the matrix runs (ClientProfile.load), all at once, for a caller to start while it
 * waits on something else: the linter starts it beside the server's start, so the two overlap instead of adding
 * up (issue 22: the four frameworks take about a third of a second to load). A load that fails is not reported
 * here: the profile's own present() meets the same failure and the matrix says so (failed()).
 */
export function loadHosts(): Promise<void> {
  return Promise.allSettled(PROFILES.map((p) => p.load?.())).then(() => undefined);
}

/**
 * The matrix: per tool a verdict per host, and per host the whole list's, on
 * every host in the order of PROFILES (src/lint/lint.ts shows the targeted
 * ones, and names any host a finding hurts).
 */
export async function hostMatrix(
  tools: ListedTool[],
  answers?: Answers,
  targets: readonly string[] = HOST_IDS,
): Promise<{ perTool: Record<string, HostVerdict>[]; whole: Record<string, HostVerdict>; notAsked: string[] }> {
  const perTool: Record<string, HostVerdict>[] = tools.map(() => ({}));
  const whole: Record<string, HostVerdict> = {};
  const notAsked: string[] = [];
  for (const profile of PROFILES) {
    try {
      const verdicts = await Promise.all(tools.map((tool) => hostVerdict(profile, tool, answers)));
      whole[profile.id] = await wholeListVerdict(profile, tools, verdicts, answers);
      verdicts.forEach((v, i) => (perTool[i]![profile.id] = v));
    } catch (error) {
      // A host whose framework is not installed (the learner install: failed() above) is left out of the matrix when
      // the author does not target it; a targeted one stops the lint with the line that says what to install.
      if (!(error instanceof UserError) || targets.includes(profile.id)) throw error;
      notAsked.push(profile.id);
    }
  }
  return { perTool, whole, notAsked };
}
