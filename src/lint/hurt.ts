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
 * its optional parameters, whatever its union does), and this finding does
 * not claim the refusal.
 */
import { getProfile } from '../lab/profiles/index.js';
import { hostVerdict } from './hosts.js';
import { atPointer, followRef, pointerParts, reach } from './refs.js';
import { isObject, type Finding, type HostVerdict, type Hurt, type ListedTool } from './types.js';
import type { Answers } from './verdicts.js';

/** The rules whose cause is a shape a host reads, so the matrix can say who it hurts. The others keep their rule's severity. */
export const HOST_JUDGED: ReadonlySet<string> = new Set([
  'no-structural-union', 'one-of', 'all-of', 'const', 'type-list', 'ref', 'ref-unresolved', 'unused-defs', 'array-items', 'untaught', 'untyped',
]);

const FAILS = new Set(['refused', 'dropped']);

/** Whether a host takes a tool: neither refused nor dropped, and an answer the kit could reach. */
const takes = (verdict: HostVerdict) => !FAILS.has(verdict.verdict) && verdict.verdict !== 'unknown';

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** The object branches of a union merged into one object, every property optional; else its first branch that is not null. */
export function mergedBranches(branches: unknown[], schema: unknown): Record<string, unknown> {
  const read = branches.map((b) => (isObject(b) && typeof b.$ref === 'string' ? (followRef(schema, b) ?? b) : b)).filter((b) => !(isObject(b) && b.type === 'null'));
  const objects = read.filter((b): b is Record<string, unknown> => isObject(b) && (b.type === 'object' || isObject(b.properties)));
  if (objects.length > 0 && objects.length === read.length) {
    const properties: Record<string, unknown> = {};
    for (const o of objects) if (isObject(o.properties)) for (const [k, v] of Object.entries(o.properties)) if (!(k in properties)) properties[k] = v;
    return { type: 'object', properties };
  }
  const first = read[0];
  return isObject(first) ? clone(first) : {};
}

/** Every $ref of a schema replaced by what it points at (up to a depth: a recursive schema keeps its refs there), its definition maps removed. */
export function inlined(schema: Record<string, unknown>): Record<string, unknown> | null {
  const expand = (node: unknown, depth: number): unknown => {
    if (Array.isArray(node)) return node.map((n) => expand(n, depth));
    if (!isObject(node)) return node;
    if (typeof node.$ref === 'string') {
      if (depth > 12) throw new Error('recursive');
      const target = followRef(schema, node);
      if (target === null || target === undefined) throw new Error('unresolved');
      const { $ref: _, ...rest } = node;
      return expand({ ...(isObject(target) ? target : {}), ...rest }, depth + 1);
    }
    return Object.fromEntries(Object.entries(node).filter(([k]) => k !== '$defs' && k !== 'definitions').map(([k, v]) => [k, expand(v, depth)]));
  };
  try {
    return expand(schema, 0) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/**
 * The inputSchema with one finding's cause taken away, as the kit would fix
 * it; null when the kit has no such rewrite (then no host is asked).
 */
export function withoutCause(schema: Record<string, unknown>, finding: Finding): Record<string, unknown> | null {
  if (!finding.path.startsWith('/inputSchema')) return null;
  const pointer = finding.path.slice('/inputSchema'.length);
  const at = pointer.lastIndexOf('/');
  const key = pointer.slice(at + 1);
  const out = clone(schema);
  const parentOf = (p: string) => atPointer(out, p);
  switch (finding.rule) {
    case 'ref':
      return inlined(out);
    case 'unused-defs': {
      const container = parentOf(pointer);
      if (!isObject(container)) return null;
      const unused = new Set(reach(schema).defs.find((d) => d.pointer === pointer)?.unused.map((u) => u.name) ?? []);
      for (const name of unused) delete container[name];
      if (Object.keys(container).length === 0) delete (parentOf(pointer.slice(0, at)) as Record<string, unknown>)[key];
      return out;
    }
    case 'no-structural-union':
    case 'one-of':
    case 'all-of': {
      const node = parentOf(pointer.slice(0, at));
      if (!isObject(node) || !Array.isArray(node[key])) return null;
      const merged = mergedBranches(node[key] as unknown[], schema);
      delete node[key];
      for (const [k, v] of Object.entries(merged)) if (!(k in node)) node[k] = v;
      return out;
    }
    case 'const': {
      const node = parentOf(pointer.slice(0, at));
      if (!isObject(node)) return null;
      if (!('enum' in node)) node.enum = [node.const];
      delete node.const;
      return out;
    }
    case 'type-list': {
      const node = parentOf(pointer.slice(0, at));
      if (!isObject(node) || !Array.isArray(node.type)) return null;
      node.type = node.type.find((t) => t !== 'null') ?? 'string';
      return out;
    }
    case 'ref-unresolved':
    case 'untaught': {
      const node = parentOf(pointer.slice(0, at));
      if (!isObject(node)) return null;
      delete node[key];
      return out;
    }
    case 'array-items': {
      const node = parentOf(pointer);
      if (!isObject(node)) return null;
      node.items = { type: 'string' };
      return out;
    }
    case 'untyped': {
      const node = parentOf(pointer);
      if (!isObject(node)) return null;
      node.type = 'string';
      return out;
    }
    default:
      return null;
  }
}

/**
 * The rules whose cause is one keyword of one schema, named by the finding's
 * path. Not a union: its branches are schemas with keywords of their own (an
 * `additionalProperties` a host refuses), and a refusal of the union asked
 * about alone would be theirs as often as its own.
 */
const KEYWORD_RULES: ReadonlySet<string> = new Set(['untaught', 'const', 'type-list']);

/**
 * A finding's keyword alone (`probe`), on the path to it from the root, and
 * the same without it (`control`): every schema on the way cut down to its
 * type and the one step down (a property, `items` or `additionalProperties`),
 * the schema that holds the keyword to its type and the keyword. Null for a
 * rule whose cause is not one keyword, a path through anything else (a
 * union's branch, a definition), or a keyword whose value refers elsewhere.
 */
export function keywordAlone(schema: Record<string, unknown>, finding: Finding): { probe: Record<string, unknown>; control: Record<string, unknown> } | null {
  if (!KEYWORD_RULES.has(finding.rule) || !finding.path.startsWith('/inputSchema')) return null;
  const parts = pointerParts(finding.path.slice('/inputSchema'.length));
  if (parts === null || parts.length === 0) return null;
  const key = parts.at(-1)!;
  /** The schemas on the way down, each with the step taken from it. */
  const path: { node: Record<string, unknown>; step: 'properties' | 'items' | 'additionalProperties'; name?: string }[] = [];
  let owner: unknown = schema;
  for (let i = 0; i < parts.length - 1; i++) {
    if (!isObject(owner)) return null;
    const part = parts[i]!;
    if (part === 'properties' && i + 1 < parts.length - 1 && isObject(owner.properties)) {
      const name = parts[++i]!;
      path.push({ node: owner, step: part, name });
      owner = owner.properties[name];
    } else if (part === 'items' || part === 'additionalProperties') {
      path.push({ node: owner, step: part });
      owner = owner[part];
    } else return null;
  }
  if (!isObject(owner) || !Object.hasOwn(owner, key) || JSON.stringify(owner[key]).includes('"$ref"')) return null;
  const holder = owner;
  const typeOf = (node: Record<string, unknown>, fallback?: string) => (typeof node.type === 'string' ? { type: node.type } : fallback ? { type: fallback } : {});
  // The root of an inputSchema is an object (MCP); a type list is the keyword itself, not kept beside it.
  const holderType = key === 'type' ? {} : typeOf(holder, path.length === 0 ? 'object' : undefined);
  const build = (withKeyword: boolean) => {
    let node: Record<string, unknown> = { ...holderType, ...(withKeyword ? { [key]: clone(holder[key]) } : {}) };
    for (const { node: here, step, name } of [...path].reverse()) {
      node = step === 'properties' ? { ...typeOf(here, 'object'), properties: { [name!]: node } } : step === 'items' ? { ...typeOf(here, 'array'), items: node } : { ...typeOf(here, 'object'), additionalProperties: node };
    }
    return node;
  };
  return { probe: build(true), control: build(false) };
}

/** The first line of a host's text, for a message. */
function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

/**
 * The hosts one finding's cause hurts. `verdicts` are the tool's, by host id;
 * `ask` answers a host's verdict on another inputSchema (cached by the caller).
 */
export async function hurtsOf(
  tool: ListedTool,
  finding: Finding,
  verdicts: Record<string, HostVerdict>,
  ask: (host: string, inputSchema: Record<string, unknown>) => Promise<HostVerdict>,
): Promise<Hurt[]> {
  const hurts: Hurt[] = [];
  let without: Record<string, unknown> | null | undefined;
  let alone: ReturnType<typeof keywordAlone> | undefined;
  for (const [host, v] of Object.entries(verdicts)) {
    if (FAILS.has(v.verdict)) {
      if (!isObject(tool.inputSchema)) continue;
      if (without === undefined) without = withoutCause(tool.inputSchema, finding);
      if (without === null) continue;
      if (takes(await ask(host, without))) {
        hurts.push({ host, verdict: v.verdict as 'refused' | 'dropped', what: firstLine(v.detail) });
        continue;
      }
      if (alone === undefined) alone = keywordAlone(tool.inputSchema, finding);
      if (alone === null) continue;
      const [control, probe] = await Promise.all([ask(host, alone.control), ask(host, alone.probe)]);
      if (takes(control) && FAILS.has(probe.verdict)) hurts.push({ host, verdict: v.verdict as 'refused' | 'dropped', what: firstLine(probe.detail) });
    } else if (v.verdict === 'lossy') {
      const here = (v.lost ?? []).filter((l) => l.path === finding.path);
      if (here.length > 0) hurts.push({ host, verdict: 'lossy', what: here.map((l) => l.what).join('; ') });
    }
  }
  return hurts;
}

/** "refused for it by a, b; dropped for it by c; lost on d, e (what)": the hosts in a few words, for a message. */
export function hurtSentence(hurts: Hurt[]): string {
  if (hurts.length === 0) return 'no host of the matrix refuses, drops or loses anything here because of it';
  const of = (verdict: Hurt['verdict']) => hurts.filter((h) => h.verdict === verdict);
  // The hosts' own texts are in each hurt's `what` and in the matrix: a message that quoted each would bury the finding.
  return [
    of('refused').length > 0 ? `refused for it by ${of('refused').map((h) => h.host).join(', ')}` : '',
    of('dropped').length > 0 ? `dropped for it by ${of('dropped').map((h) => h.host).join(', ')}` : '',
    of('lossy').length > 0 ? `lost on ${of('lossy').map((h) => h.host).join(', ')} (${[...new Set(of('lossy').map((h) => h.what))].join('; ')})` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/**
 * A refusal that no one cause explains: a tool with two keywords a host
 * refuses, each enough alone, where taking either away still leaves the
 * other. The tool's causes are taken away together, in order, until the host
 * takes the tool; then each is put back in turn and kept out only if the host
 * refuses again without it: the smallest set found this way is blamed, so a
 * tool a targeted host refuses is never left with warnings only.
 */
async function sharedCauses(
  schema: Record<string, unknown>,
  causes: Finding[],
  host: string,
  ask: (host: string, inputSchema: Record<string, unknown>) => Promise<HostVerdict>,
): Promise<Finding[]> {
  const takesWithout = async (without: Finding[]) => {
    let rewritten: Record<string, unknown> = schema;
    for (const cause of without) rewritten = withoutCause(rewritten, cause) ?? rewritten;
    return takes(await ask(host, rewritten));
  };
  const removed: Finding[] = [];
  for (const cause of causes) {
    if (withoutCause(schema, cause) === null) continue;
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

/**
 * Each host-judged finding of each tool given its hurts, its severity from
 * the targeted hosts, and the hurts said at the end of its message.
 */
export async function judgeByHosts(tools: ListedTool[], findings: Finding[][], verdicts: Record<string, HostVerdict>[], targets: readonly string[], answers?: Answers): Promise<void> {
  const cache = new Map<string, Promise<HostVerdict>>();
  for (const [i, tool] of tools.entries()) {
    const ask = (host: string, inputSchema: Record<string, unknown>) => {
      const key = `${host}\u0000${JSON.stringify(inputSchema)}`;
      let answer = cache.get(key);
      if (!answer) {
        const profile = getProfile(host)!;
        cache.set(key, (answer = hostVerdict(profile, { ...tool, inputSchema }, answers)));
      }
      return answer;
    };
    const judged: Finding[] = [];
    for (const finding of findings[i]!) {
      if (!HOST_JUDGED.has(finding.rule)) continue;
      if (finding.path.startsWith('/outputSchema')) {
        finding.hurts = [];
        finding.severity = 'warning';
        finding.message = `in outputSchema, which no host of the matrix shows a model (clients check structuredContent against it): ${finding.message}`;
        continue;
      }
      finding.hurts = await hurtsOf(tool, finding, verdicts[i]!, ask);
      judged.push(finding);
    }
    // A host that refuses or drops the tool, blamed on no one cause: the causes it takes together.
    if (isObject(tool.inputSchema)) {
      for (const [host, v] of Object.entries(verdicts[i]!)) {
        if (!FAILS.has(v.verdict) || judged.some((f) => f.hurts!.some((h) => h.host === host && h.verdict !== 'lossy'))) continue;
        for (const cause of await sharedCauses(tool.inputSchema, judged, host, ask)) {
          cause.hurts!.push({ host, verdict: v.verdict as 'refused' | 'dropped', what: firstLine(v.detail) });
        }
      }
    }
    for (const finding of judged) {
      finding.severity = finding.hurts!.some((h) => h.verdict !== 'lossy' && targets.includes(h.host)) ? 'error' : 'warning';
      finding.message = `${finding.message}: ${hurtSentence(finding.hurts!)}`;
    }
  }
}
