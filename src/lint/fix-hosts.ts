/**
 * `--fix-schema`'s rewrites for what one host refuses that is no finding's
 * cause (src/lint/fix.ts offers each, per tool, and keeps it only where a
 * targeted host needs it). A host's sanitizing is one step: one keyword
 * removed alone changes nothing while another remains. None narrows: each
 * removes keywords or requirements (so accepts at least as much), says the
 * same thing another way, or shortens a description (no validation; the text
 * cut is lost, and the change says its lengths).
 */
import { CURRENT_2026_09 } from '../lab/profiles/gemini-api.js';
import { OPENAI_MAX_DESCRIPTION } from '../lab/profiles/openai-functions.js';
import { isObject, type ListedTool } from './types.js';

/** One host's rewrite of one tool: the tool after, and what changed (each with its path in the tool, "/inputSchema" by default). */
export interface HostRewrite {
  /** The step's name in the fix's choices; "host:" and the host it is for, where it is one host's. */
  key: string;
  /** The host it is for; absent where several hosts' refusals are mended by it. */
  host?: string;
  apply: (tool: ListedTool) => { tool: ListedTool; said: { what: string; path?: string }[] };
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

const REFS = new Set(['$ref', '$defs', 'definitions']);

const counted = (counts: Map<string, number>) => [...counts].map(([k, n]) => (n > 1 ? `"${k}" (${n} places)` : `"${k}"`)).join(', ');

/**
 * The Gemini API of 2025-06 took only "enum" and "date-time" as a string's format (its 400 "only 'enum' and
 * 'date-time' are supported for STRING type", src/lab/profiles/gemini-api.ts); ai-sdk-google refuses the others too.
 */
function formats(tool: ListedTool): ReturnType<HostRewrite['apply']> {
  let n = 0;
  const inputSchema = mapSchemas(tool.inputSchema, (node) => {
    if ('format' in node && node.format !== 'date-time') {
      delete node.format;
      n++;
    }
    return node;
  });
  return { tool: { ...tool, inputSchema }, said: n > 0 ? [{ what: `removed every "format" but "date-time" (${n})` }] : [] };
}

/**
 * The Gemini API's `parameters` field of 2026-09 refuses the whole request for
 * any keyword its Schema message lacks, an enum on a non-string, an enum value
 * "" and an array without items (src/lab/profiles/gemini-api.ts CURRENT_2026_09):
 * every such keyword removed but refs and their definitions, an enum of strings given "type": "string" (the
 * enum already allowed only strings), any other such enum removed, "items": {}
 * added (any item, as before).
 */
function geminiParameters(tool: ListedTool): ReturnType<HostRewrite['apply']> {
  const removed = new Map<string, number>();
  const notes = new Set<string>();
  const inputSchema = mapSchemas(tool.inputSchema, (n) => {
    for (const key of Object.keys(n))
      // Refs are inlined by their own rewrite (src/lint/fix-rewrites.ts), not removed: a $ref removed is any value.
      if (CURRENT_2026_09.unknownName(key) && !REFS.has(key)) {
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
  const said = [...(removed.size > 0 ? [{ what: `removed the keywords the Gemini API's Schema message lacks: ${counted(removed)}` }] : []), ...[...notes].map((what) => ({ what }))];
  return { tool: { ...tool, inputSchema }, said };
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

/** OpenAI function calling refuses the whole request for a tool description over 1,024 characters: the only host with a limit on it. */
function openaiDescription(tool: ListedTool): ReturnType<HostRewrite['apply']> {
  if (typeof tool.description !== 'string' || [...tool.description].length <= OPENAI_MAX_DESCRIPTION) return { tool, said: [] };
  const description = shortened(tool.description, OPENAI_MAX_DESCRIPTION);
  const what = `description shortened from ${[...tool.description].length} to ${[...description].length} characters, under the limit of ${OPENAI_MAX_DESCRIPTION.toLocaleString('en')} that openai-functions-2026-11 refuses the request over (cut at a sentence or word end; the rest is gone)`;
  return { tool: { ...tool, description }, said: [{ what, path: '/description' }] };
}

/**
 * Mastra's Google layer throws "does not support zod type: ZodIntersection"
 * for a required property whose schema is an anyOf without a "type" beside it
 * (what zod-from-json-schema makes of it; measured on the profile, which runs
 * @mastra/core 0.24.9): such a property is made optional, which the layer takes.
 */
function mastraGoogle(tool: ListedTool): ReturnType<HostRewrite['apply']> {
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
  return { tool: { ...tool, inputSchema }, said: names.length > 0 ? [{ what: `no longer required, being an anyOf: ${names.join(', ')}` }] : [] };
}

/** In the order they are offered, after every finding's rewrite; a host's own only when that host is targeted. */
export const HOST_REWRITES: readonly HostRewrite[] = [
  { key: 'format', apply: formats },
  { key: 'host:gemini-parameters-2026-09', host: 'gemini-parameters-2026-09', apply: geminiParameters },
  { key: 'host:mastra-google-2025-12', host: 'mastra-google-2025-12', apply: mastraGoogle },
  { key: 'host:openai-functions-2026-11', host: 'openai-functions-2026-11', apply: openaiDescription },
];
