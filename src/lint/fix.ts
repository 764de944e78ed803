/**
 * `--fix-schema OUT.json`: the tools with their inputSchemas rewritten by the
 * kit's own transformations (src/lint/hurt.ts `withoutCause`, the same
 * rewrite the linter uses to ask a host whether a cause is what it refuses),
 * one finding at a time until none that a host reads is left or none can be
 * rewritten, each change listed. What the hosts then make of the rewritten
 * list is judged by the same host matrix, beside the original's.
 *
 * What it does not rewrite: a recursive schema (its refs cannot be inlined),
 * and whatever a host refuses that is no finding here (a `format` the legacy
 * Gemini field does not know, `additionalProperties` there, OpenAI strict
 * mode's every-property-required): the matrix of the output shows those.
 */
import { getProfile } from '../lab/profiles/index.js';
import { HOST_JUDGED, withoutCause } from './hurt.js';
import { reach } from './refs.js';
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
      return 'the type list replaced by its first type that is not "null"';
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
      const rewritten = withoutCause(schema, f);
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
 * list, none newly): the Gemini API takes only "enum" and "date-time" as a
 * string's format (its 400 "only 'enum' and 'date-time' are supported for
 * STRING type", src/lab/profiles/gemini-api.ts), and its legacy field has no
 * "additionalProperties" nor a "null" type (docs/facts.md, section 2).
 */
export const HOST_REWRITES: { what: string; apply: (node: Record<string, unknown>) => Record<string, unknown> }[] = [
  {
    what: 'removed every "format" but "date-time"',
    apply: (n) => {
      if ('format' in n && n.format !== 'date-time') delete n.format;
      return n;
    },
  },
  {
    what: 'dropped the "null" branch of every two-branch union with null (the parameter left optional instead)',
    apply: (n) => {
      for (const key of ['anyOf', 'oneOf']) {
        const list = n[key];
        if (!Array.isArray(list) || list.length !== 2) continue;
        const other = list.find((b) => !(isObject(b) && b.type === 'null'));
        if (other === undefined || list.every((b) => !(isObject(b) && b.type === 'null'))) continue;
        delete n[key];
        if (isObject(other)) for (const [k, v] of Object.entries(other)) if (!(k in n)) n[k] = v;
      }
      return n;
    },
  },
  {
    what: 'removed every "additionalProperties"',
    apply: (n) => {
      delete n.additionalProperties;
      return n;
    },
  },
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

/** The host rewrites that help, applied in turn to every tool, each listed with the hosts it brings round. */
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
  return current;
}
