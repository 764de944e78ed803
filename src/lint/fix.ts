/**
 * `--fix-schema OUT.json`: the tools with their inputSchemas rewritten by the
 * kit's own transformations so that the chosen hosts (`--hosts`) take them,
 * each change listed; what the hosts make of the rewritten list is judged by
 * the same host matrix, beside the original's.
 *
 * The rule every rewrite keeps: the output is valid JSON Schema and means at
 * most LESS strict than the original: whatever the original accepted, the
 * rewrite accepts (a keyword removed, a union merged into one object of
 * optional properties, a required property made optional, refs inlined, const
 * as a one-value enum, a type list as an anyOf of its types). A description
 * shortened is no validation, but text lost: each says its lengths.
 * Known exceptions, from hurt.ts's `withoutCause` (listed as they are made):
 * a union whose branches are not all objects becomes its first non-null branch,
 * and a node without "type" or "items" gets the string type; both stricter.
 *
 * Two stages. First, one finding at a time (`withoutCause`, the rewrite the
 * linter uses to ask a host whether a cause is what it refuses; definitions
 * first) until none a host reads can be rewritten. Then, for each chosen host
 * that still refuses, that host's whole sanitizing in ONE step (SANITIZERS):
 * one keyword removed alone changes nothing while another remains, so a
 * one-rewrite-at-a-time search never gets there. A sanitizing is kept only when
 * it turns its host round and no other chosen host newly refuses.
 * Not rewritten: a recursive schema (its refs cannot be inlined).
 */
import { CURRENT_2026_09 } from '../lab/profiles/gemini-api.js';
import { getProfile } from '../lab/profiles/index.js';
import { OPENAI_MAX_DESCRIPTION } from '../lab/profiles/openai-functions.js';
import { HOST_JUDGED } from './hurt.js';
import { withoutCause } from './rewrite.js';
import { atPointer, reach } from './refs.js';
import { toolFindings } from './rules.js';
import { isObject, type Finding, type ListedTool } from './types.js';

export interface Change {
  tool: string;
  rule: string;
  /** Where, in the schema as it was before this change. */
  path: string;
  what: string;
}

/** The order causes are rewritten in: definitions first (inlining changes every path under them), then the rest as found. */
const FIRST = ['unused-defs', 'ref'];

function described(f: Finding, schema: Record<string, unknown>): string {
  switch (f.rule) {
    case 'unused-defs':
      return `removed the ${reach(schema).defs.find((d) => `/inputSchema${d.pointer}` === f.path)?.unused.length ?? ''} definitions nothing references`.replace('  ', ' ');
    case 'ref':
      return 'inlined every $ref and removed "$defs"/"definitions"';
    case 'no-structural-union':
    case 'one-of':
    case 'all-of':
      return `${f.path.slice(f.path.lastIndexOf('/') + 1)} replaced by one object of every branch's properties, none required (or its first branch, when not all are objects)`;
    case 'const':
      return `"const" written as an enum of its one value`;
    case 'type-list':
      return 'the type list written as an anyOf of one type each';
    case 'untaught':
    case 'ref-unresolved':
      return `removed "${f.path.slice(f.path.lastIndexOf('/') + 1)}"`;
    case 'array-items':
      return 'added "items": {"type": "string"}';
    case 'untyped':
      return 'added "type": "string"';
    default:
      return f.rule;
  }
}

/**
 * A type list written as an anyOf of one type each: the same instances pass
 * (hurt.ts's `withoutCause` keeps only the first type, which would refuse the
 * others, stricter than the original).
 */
function typesAsUnion(schema: Record<string, unknown>, f: Finding): Record<string, unknown> | null {
  const out = structuredClone(schema);
  const node = atPointer(out, f.path.slice('/inputSchema'.length, f.path.lastIndexOf('/')));
  if (!isObject(node) || !Array.isArray(node.type) || 'anyOf' in node) return null;
  const types = node.type;
  delete node.type;
  node.anyOf = types.map((type) => ({ type }));
  return out;
}

/** One tool rewritten until no host-read finding of its inputSchema can be rewritten further. */
function fixOne(tool: ListedTool, changes: Change[]): ListedTool {
  let current = tool;
  for (let step = 0; step < 200; step++) {
    if (!isObject(current.inputSchema)) return current;
    const schema = current.inputSchema;
    const findings = toolFindings(current)
      .filter((f) => HOST_JUDGED.has(f.rule) && f.path.startsWith('/inputSchema'))
      .sort((a, b) => Number(FIRST.includes(b.rule)) - Number(FIRST.includes(a.rule)));
    let done = false;
    for (const f of findings) {
      const rewritten = f.rule === 'type-list' ? typesAsUnion(schema, f) : withoutCause(schema, f);
      if (rewritten === null || JSON.stringify(rewritten) === JSON.stringify(schema)) continue;
      changes.push({ tool: tool.name, rule: f.rule, path: f.path, what: described(f, schema) });
      current = { ...current, inputSchema: rewritten };
      done = true;
      break;
    }
    if (!done) return current;
  }
  return current;
}

export function fixTools(tools: ListedTool[]): { tools: ListedTool[]; changes: Change[] } {
  const changes: Change[] = [];
  return { tools: tools.map((t) => fixOne(t, changes)), changes };
}

/** A copy of a schema with `fn` applied to every subschema (never to a property's name, nor to the values of keywords). */
function mapSchemas(node: unknown, fn: (node: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = { ...fn({ ...node }) };
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions'])
    if (isObject(out[key])) out[key] = Object.fromEntries(Object.entries(out[key] as object).map(([k, v]) => [k, mapSchemas(v, fn)]));
  for (const key of ['items', 'additionalProperties', 'not']) if (isObject(out[key])) out[key] = mapSchemas(out[key], fn);
  for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map((b) => mapSchemas(b, fn));
  return out;
}

/**
 * Rewrites for what a host refuses that is no finding here, each kept only
 * when the host matrix says it helps (fewer chosen hosts refuse or drop the
 * list, none newly): the Gemini API of 2025-06 took only "enum" and "date-time"
 * as a string's format (its 400 "only 'enum' and 'date-time' are supported for
 * STRING type", src/lab/profiles/gemini-api.ts).
 */
export const HOST_REWRITES: { what: string; apply: (node: Record<string, unknown>) => Record<string, unknown> }[] = [
  {
    what: 'removed every "format" but "date-time"',
    apply: (n) => {
      if ('format' in n && n.format !== 'date-time') delete n.format;
      return n;
    },
  },
];

/** A host's whole sanitizing of a list: the tools rewritten, and one line per tool it changed. */
interface Sanitizer {
  host: string;
  apply: (tools: ListedTool[]) => { tools: ListedTool[]; said: { tool: string; what: string; path?: string }[] };
}

const counted = (counts: Map<string, number>) => [...counts].map(([k, n]) => (n > 1 ? `"${k}" (${n} places)` : `"${k}"`)).join(', ');

/**
 * The Gemini API's `parameters` field of 2026-09 refuses the whole request for
 * any keyword its Schema message lacks, an enum on a non-string, an enum value
 * "" and an array without items (src/lab/profiles/gemini-api.ts CURRENT_2026_09).
 * Removing one keyword alone changes nothing while another remains, so the
 * host's whole sanitizing is one step: every such keyword removed, an enum of
 * strings given "type": "string" (the enum already allowed only strings), any
 * other such enum removed, "items": {} added (any item, as before).
 */
function geminiParameters(tools: ListedTool[]): ReturnType<Sanitizer['apply']> {
  const said: { tool: string; what: string }[] = [];
  const out = tools.map((tool) => {
    const removed = new Map<string, number>();
    const notes = new Set<string>();
    const inputSchema = mapSchemas(tool.inputSchema, (n) => {
      for (const key of Object.keys(n))
        if (CURRENT_2026_09.unknownName(key)) {
          removed.set(key, (removed.get(key) ?? 0) + 1);
          delete n[key];
        }
      if (Array.isArray(n.enum) && n.type !== 'string') {
        if (n.type === undefined && n.enum.every((v) => typeof v === 'string')) {
          n.type = 'string';
          notes.add('"type": "string" added to an enum of strings');
        } else {
          delete n.enum;
          notes.add('"enum" removed where the type is not a string');
        }
      }
      if (Array.isArray(n.enum) && n.enum.includes('')) {
        delete n.enum;
        notes.add('an "enum" with the value "" removed');
      }
      if (n.type === 'array' && !('items' in n)) {
        n.items = {};
        notes.add('"items": {} added to an array without items');
      }
      return n;
    });
    if (removed.size > 0) said.push({ tool: tool.name, what: `removed the keywords the Gemini API's Schema message lacks: ${counted(removed)}` });
    for (const note of notes) said.push({ tool: tool.name, what: note });
    return { ...tool, inputSchema };
  });
  return { tools: out, said };
}

/**
 * Cut at the last sentence end (". ", "! ", "? " or a line break) that keeps at
 * least half the limit, else at the last space, else at the limit; counted in
 * code points as OpenAI counts (src/lab/profiles/openai-functions.ts).
 */
export function shortened(text: string, limit: number): string {
  const points = [...text];
  if (points.length <= limit) return text;
  const head = points.slice(0, limit).join('');
  const sentence = Math.max(...['. ', '! ', '? ', '.\n', '\n'].map((end) => head.lastIndexOf(end) + (end === '\n' ? 0 : 1)));
  if (sentence >= limit / 2) return head.slice(0, sentence).trimEnd();
  const space = head.lastIndexOf(' ');
  return (space > 0 ? head.slice(0, space) : head).trimEnd();
}

/** OpenAI function calling refuses the whole request for a tool description over 1,024 characters: each such description shortened to fit. */
function openaiFunctions(tools: ListedTool[]): ReturnType<Sanitizer['apply']> {
  const said: { tool: string; what: string; path?: string }[] = [];
  const out = tools.map((tool) => {
    if (typeof tool.description !== 'string' || [...tool.description].length <= OPENAI_MAX_DESCRIPTION) return tool;
    const description = shortened(tool.description, OPENAI_MAX_DESCRIPTION);
    said.push({ tool: tool.name, what: `description shortened from ${[...tool.description].length} to ${[...description].length} characters (cut at a sentence or word end; the rest is gone)`, path: '/description' });
    return { ...tool, description };
  });
  return { tools: out, said };
}

/**
 * Mastra's Google layer throws "does not support zod type: ZodIntersection"
 * for a required property whose schema is an anyOf without a "type" beside it
 * (what zod-from-json-schema makes of it; measured on the profile, which runs
 * @mastra/core 0.24.9): such a property is made optional, which the layer takes.
 */
function mastraGoogle(tools: ListedTool[]): ReturnType<Sanitizer['apply']> {
  const said: { tool: string; what: string }[] = [];
  const out = tools.map((tool) => {
    const names: string[] = [];
    const inputSchema = mapSchemas(tool.inputSchema, (n) => {
      if (!Array.isArray(n.required) || !isObject(n.properties)) return n;
      const props = n.properties;
      const keep = n.required.filter((name) => !(typeof name === 'string' && isObject(props[name]) && Array.isArray(props[name].anyOf) && !('type' in props[name])));
      if (keep.length < n.required.length) {
        names.push(...n.required.filter((name) => !keep.includes(name)).map(String));
        if (keep.length > 0) n.required = keep;
        else delete n.required;
      }
      return n;
    });
    if (names.length > 0) said.push({ tool: tool.name, what: `no longer required, being an anyOf: ${names.join(', ')}` });
    return { ...tool, inputSchema };
  });
  return { tools: out, said };
}

export const SANITIZERS: Sanitizer[] = [
  { host: 'gemini-parameters-2026-09', apply: geminiParameters },
  { host: 'openai-functions-2026-11', apply: openaiFunctions },
  { host: 'mastra-google-2025-12', apply: mastraGoogle },
];

/** The chosen hosts that refuse or drop a list, or leave a tool of it out. */
async function failing(tools: ListedTool[], hosts: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const id of hosts) {
    const profile = getProfile(id);
    if (!profile) continue;
    try {
      const view = await profile.present(tools.map((t) => ({ name: t.name, ...(typeof t.description === 'string' ? { description: t.description } : {}), inputSchema: t.inputSchema })) as never);
      if ('rejected' in view || view.tools.length < tools.length) out.add(id);
    } catch {
      out.add(id);
    }
  }
  return out;
}

/**
 * The host rewrites that help, applied in turn to every tool, then each
 * refusing host's whole sanitizing in one step, kept when that host no longer
 * refuses and no other chosen host newly does; each change listed with the
 * hosts it brings round.
 */
export async function hostRewrites(tools: ListedTool[], hosts: readonly string[], changes: Change[]): Promise<ListedTool[]> {
  let current = tools;
  let refusing = await failing(current, hosts);
  for (const rewrite of HOST_REWRITES) {
    if (refusing.size === 0) break;
    const next = current.map((t) => ({ ...t, inputSchema: mapSchemas(t.inputSchema, rewrite.apply) }));
    if (JSON.stringify(next) === JSON.stringify(current)) continue;
    const after = await failing(next, hosts);
    if (after.size < refusing.size && [...after].every((h) => refusing.has(h))) {
      changes.push({ tool: '(every tool)', rule: 'host', path: '/inputSchema', what: `${rewrite.what}: now taken by ${[...refusing].filter((h) => !after.has(h)).join(', ')}` });
      current = next;
      refusing = after;
    }
  }
  for (const sanitizer of SANITIZERS) {
    if (!refusing.has(sanitizer.host)) continue;
    const next = sanitizer.apply(current);
    if (next.said.length === 0) continue;
    const after = await failing(next.tools, hosts);
    if (after.has(sanitizer.host) || ![...after].every((h) => refusing.has(h))) continue;
    const taken = [...refusing].filter((h) => !after.has(h)).join(', ');
    for (const s of next.said) changes.push({ tool: s.tool, rule: 'host', path: s.path ?? '/inputSchema', what: `${s.what} (${sanitizer.host}'s sanitizing): now taken by ${taken}` });
    current = next.tools;
    refusing = after;
  }
  return current;
}
