/**
 * `--fix-schema` never narrows a tool without saying so (issue 33), as a
 * property: on five real servers' recorded tools/list, for every tool, at
 * least 1,000 argument objects that the ORIGINAL inputSchema accepts (ajv,
 * the dialect its `$schema` names), generated from that schema by
 * fast-check; none may be refused by the FIXED schema unless a change at or
 * above the refused value's path says it narrows. And every targeted host
 * takes the fixed list (the host matrix of the output, run here on each
 * host's own code). The hosts targeted per server are chosen so the fix has
 * work to do.
 *
 * Beside them, a probe list written here after the issue's reports
 * (HubSpot's untyped `value`, Bright Data's `search_after` array without
 * items) and unions that merging or choosing a branch would narrow; and, on
 * every list, every rewrite the fix can offer for a cause (fix-rewrites.ts),
 * kept or not: one that does not say it narrows refuses none of the values.
 *
 * The generator and the path matching are this file's own, written from
 * JSON Schema, not from the code under test.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getProfile } from '../src/lab/profiles/index.js';
import { fixList, type Change } from '../src/lint/fix.js';
import { rewritesOf } from '../src/lint/fix-rewrites.js';
import { chooseHosts, hostVerdict, wholeListVerdict } from '../src/lint/hosts.js';
import { toolFindings } from '../src/lint/rules.js';
import type { ListedTool } from '../src/lint/types.js';
import { recorded } from './helpers/lint.js';

type Schema = Record<string, unknown>;
const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A local $ref ("#", "#/$defs/x", "#/definitions/x") read in `root`. */
function deref(root: Schema, ref: string): unknown {
  let node: unknown = root;
  for (const part of ref.replace(/^#\/?/, '').split('/').filter(Boolean)) node = isSchema(node) ? node[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return node;
}

/** Any JSON value, small: what an untyped node accepts (HubSpot's `value: 1000` among them). */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), { maxLength: 2 }),
  fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);

function stringOf(s: Schema): fc.Arbitrary<string> {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Math.max(min + 12, 12);
  switch (s.format) {
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'date':
      return fc.date({ min: new Date('2000-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case 'uri':
    case 'url':
      return fc.webUrl();
    case 'email':
      return fc.emailAddress();
    case 'uuid':
      return fc.uuid();
  }
  if (typeof s.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(s.pattern, 'u')).filter((v) => [...v].length >= min && [...v].length <= max);
    } catch {
      // A pattern fast-check cannot read: plain strings, most of them refused by the original and filtered out.
    }
  }
  return fc.string({ minLength: min, maxLength: Math.min(max, min + 8), unit: 'grapheme-ascii' });
}

function numberOf(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const low = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + (integer ? 1 : 1e-6) : -1000;
  const high = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - (integer ? 1 : 1e-6) : Math.max(low + 2000, 1000);
  return integer ? fc.integer({ min: Math.ceil(low), max: Math.floor(Math.min(high, Math.ceil(low) + 1e6)) }) : fc.double({ min: low, max: high, noNaN: true, noDefaultInfinity: true });
}

/** Values for one schema: most of them valid, the rest filtered out by the original's validator. */
function arbitrary(node: unknown, root: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (node === true || (isSchema(node) && Object.keys(node).length === 0)) return anyValue;
  if (!isSchema(node) || depth > 7) return fc.constant(null);
  if (typeof node.$ref === 'string') {
    const { $ref, ...rest } = node;
    const target = deref(root, $ref);
    return arbitrary(isSchema(target) ? { ...target, ...rest } : {}, root, depth + 1);
  }
  if ('const' in node) return fc.constant(node.const);
  if (Array.isArray(node.enum)) return fc.constantFrom(...node.enum);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = node[key];
    if (Array.isArray(branches) && branches.length > 0) {
      const { [key]: _, ...rest } = node;
      return fc.oneof(...branches.map((b) => arbitrary(isSchema(b) ? { ...rest, ...b } : b, root, depth + 1)));
    }
  }
  if (Array.isArray(node.allOf)) {
    const { allOf, ...rest } = node;
    const merged: Schema = { ...rest };
    for (const b of allOf as unknown[]) {
      const read = isSchema(b) && typeof b.$ref === 'string' ? deref(root, b.$ref) : b;
      if (!isSchema(read)) continue;
      for (const [k, v] of Object.entries(read)) {
        if (k === 'properties' && isSchema(merged.properties) && isSchema(v)) merged.properties = { ...merged.properties, ...v };
        else if (k === 'required' && Array.isArray(merged.required) && Array.isArray(v)) merged.required = [...merged.required, ...v];
        else merged[k] = v;
      }
    }
    return arbitrary(merged, root, depth + 1);
  }
  if (Array.isArray(node.type)) return fc.oneof(...node.type.map((type) => arbitrary({ ...node, type }, root, depth + 1)));
  const type = node.type ?? (isSchema(node.properties) ? 'object' : 'items' in node ? 'array' : undefined);
  switch (type) {
    case 'string':
      return stringOf(node);
    case 'integer':
    case 'number':
      return numberOf(node, type === 'integer');
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = typeof node.minItems === 'number' ? node.minItems : 0;
      const maxLength = Math.min(typeof node.maxItems === 'number' ? node.maxItems : 2, minLength + 2);
      const items = 'items' in node && !Array.isArray(node.items) ? arbitrary(node.items, root, depth + 1) : anyValue;
      return node.uniqueItems ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) }) : fc.array(items, { minLength, maxLength });
    }
    case 'object':
      return objectOf(node, root, depth);
    default:
      return anyValue;
  }
}

function objectOf(node: Schema, root: Schema, depth: number): fc.Arbitrary<unknown> {
  const properties = isSchema(node.properties) ? node.properties : {};
  const required = new Set(Array.isArray(node.required) ? node.required.filter((r): r is string => typeof r === 'string') : []);
  const known = fc.record(Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, arbitrary(v, root, depth + 1)])), { requiredKeys: [...required].filter((r) => r in properties) });
  // Required names no property defines, and keys beyond the properties where additionalProperties lets them in.
  const undefinedRequired = [...required].filter((r) => !(r in properties));
  const extra = node.additionalProperties === false ? fc.constant({}) : fc.dictionary(fc.constantFrom('extra_a', 'extra_b'), isSchema(node.additionalProperties) ? arbitrary(node.additionalProperties, root, depth + 1) : anyValue, { maxKeys: 1 });
  return fc.tuple(known, extra, fc.tuple(...undefinedRequired.map(() => anyValue))).map(([k, e, u]) => ({ ...e, ...Object.fromEntries(undefinedRequired.map((r, i) => [r, u[i]])), ...k }));
}

/** One validator per dialect (an Ajv instance compiles its meta-schemas when made: most of a compile's cost). */
const AJV = { draft7: new Ajv({ strict: false, validateFormats: false }), draft2020: new Ajv2020({ strict: false, validateFormats: false }) };

/** The validator of an inputSchema, in the dialect its $schema names (draft-07 otherwise, as MCP's SDK publishes). */
function validator(schema: Schema, dialect: unknown): ValidateFunction {
  const { $schema: _, ...rest } = schema;
  return (typeof dialect === 'string' && dialect.includes('2020-12') ? AJV.draft2020 : AJV.draft7).compile(rest);
}

/** At least 1,000 argument objects the original accepts (asserted per tool), from a seed of its own. */
function validArguments(tool: ListedTool, seed: number): unknown[] {
  const schema = tool.inputSchema as Schema;
  const valid = validator(schema, schema.$schema);
  const arb = arbitrary(schema, schema);
  const out: unknown[] = [];
  for (let round = 0; round < 12 && out.length < 1000; round++) out.push(...fc.sample(arb, { numRuns: 1000, seed: seed + round }).filter((v) => valid(v)));
  expect(out.length, `${tool.name}: valid argument objects generated`).toBeGreaterThanOrEqual(1000);
  return out.slice(0, 1000);
}

/**
 * Where in the arguments a change's schema path acts, as instance-path segments ("*" any key or index); null where
 * it cannot be told (inside a definition, which any $ref may reach: anywhere).
 */
function instancePrefix(path: string): string[] | null {
  const parts = path.replace(/^\/inputSchema/, '').split('/').slice(1);
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part === '$defs' || part === 'definitions') return null;
    if (part === 'properties' && i + 1 < parts.length) out.push(parts[++i]!.replace(/~1/g, '/').replace(/~0/g, '~'));
    else if (part === 'items' || part === 'additionalProperties') out.push('*');
    else if (part === 'patternProperties') [out.push('*'), i++];
    else if (['anyOf', 'oneOf', 'allOf'].includes(part) && /^\d+$/.test(parts[i + 1] ?? '')) i++;
    else break;
  }
  return out;
}

const under = (instancePath: string, prefix: string[] | null) => {
  if (prefix === null) return true;
  const parts = instancePath.split('/').slice(1);
  return prefix.length <= parts.length && prefix.every((p, i) => p === '*' || p === parts[i]);
};

/** The values the fixed schema refuses that no narrowing change at or above them accounts for. */
function unexplained(tool: ListedTool, fixed: ListedTool, samples: unknown[], changes: Change[], dialect: unknown): string[] {
  const valid = validator(fixed.inputSchema as Schema, dialect);
  const narrowing = changes.filter((c) => c.tool === tool.name && c.narrows).map((c) => instancePrefix(c.path));
  const out: string[] = [];
  for (const v of samples)
    if (!valid(v)) {
      const at = valid.errors?.[0]?.instancePath ?? '';
      if (!narrowing.some((p) => under(at, p))) out.push(`${tool.name}: ${JSON.stringify(v).slice(0, 200)} refused at "${at}" (${valid.errors?.[0]?.message})`);
    }
  return out;
}

/**
 * Written here after issue 33's reports: HubSpot's filter `value` with no type (a number or a string, by the
 * property it filters on), Bright Data's `search_after` cursor, an array without items; and unions whose merging or
 * first branch would narrow (a property typed differently by two branches, null beside objects, a string beside an
 * array and an object, a oneOf of scalars).
 */
const PROBE: ListedTool[] = [
  {
    name: 'crm_search',
    description: 'Search CRM objects by property filters.',
    inputSchema: {
      type: 'object',
      properties: {
        filters: {
          type: 'array',
          items: {
            type: 'object',
            properties: { propertyName: { type: 'string' }, operator: { type: 'string', enum: ['EQ', 'GT', 'LT'] }, value: { description: 'the value to compare with' } },
            required: ['propertyName', 'operator'],
          },
        },
      },
      required: ['filters'],
    },
  },
  {
    name: 'search_dataset',
    description: 'Search a dataset; pass search_after from the previous page to go on.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' }, search_after: { type: 'array', description: 'the cursor of the previous page' } }, required: ['query'] },
  },
  {
    name: 'pick',
    description: 'Pick a target.',
    inputSchema: {
      type: 'object',
      properties: {
        target: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        shape: { anyOf: [{ type: 'object', properties: { x: { type: 'number' } }, required: ['x'] }, { type: 'object', properties: { x: { type: 'string' }, y: { type: 'boolean' } } }, { type: 'null' }] },
        either: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'object', properties: { a: { type: 'boolean' } } }] },
      },
    },
  },
];

/**
 * Per list, the hosts targeted: where the fix has work to do. Notion: ai-sdk-google refuses its oneOf unions and
 * formats, Mastra's Google layer a required anyOf (one rewrite there narrows); GitHub: the 2025-02 Gemini field
 * refuses its union, the 2026-09 `parameters` field its $schema and additionalProperties; Sentry: OpenAI function
 * calling its long descriptions, ai-sdk-google its formats and type lists; server-everything: today's hosts.
 */
const CASES: { list: string; tools: () => ListedTool[]; hosts: string }[] = [
  { list: 'notion-mcp-server', tools: () => recorded('notion-mcp-server') as ListedTool[], hosts: 'ai-sdk-google-2026-11,mastra-google-2025-12' },
  { list: 'server-github', tools: () => recorded('server-github') as ListedTool[], hosts: 'continue-gemini-2025-02,gemini-parameters-2026-09' },
  { list: 'sentry-mcp', tools: () => recorded('sentry-mcp') as ListedTool[], hosts: 'openai-functions-2026-11,ai-sdk-google-2026-11,gemini-parameters-2026-09' },
  { list: 'playwright-mcp', tools: () => recorded('playwright-mcp') as ListedTool[], hosts: 'gemini-parameters-2026-09,vscode-copilot-2026-01' },
  { list: 'server-everything', tools: () => recorded('server-everything') as ListedTool[], hosts: 'today' },
  { list: 'probe (HubSpot, Bright Data, unions)', tools: () => PROBE, hosts: 'today' },
];

const hostsOf = (spec: string) => {
  const chosen = chooseHosts(spec);
  if (!('hosts' in chosen)) throw new Error(`no such hosts: ${spec}`);
  return chosen.hosts;
};

describe('--fix-schema narrows nothing it does not say, and every targeted host takes the output', () => {
  it.each(CASES)('$list, --hosts $hosts', async ({ tools: load, hosts: spec }) => {
    const tools = load();
    const hosts = hostsOf(spec);
    const { tools: fixed, changes } = await fixList(tools, hosts);
    expect(changes.length, 'the fix has work to do').toBeGreaterThan(0);
    const refused: string[] = [];
    for (const [i, tool] of tools.entries()) {
      const samples = validArguments(tool, 33 + i);
      refused.push(...unexplained(tool, fixed[i]!, samples, changes, (tool.inputSchema as Schema).$schema));
      // Every rewrite the fix could offer for a cause of the original, kept or not: unless it says it narrows, it refuses none.
      for (const finding of toolFindings(tool))
        for (const rewrite of rewritesOf(tool.inputSchema as Schema, finding)) {
          if (rewrite.narrows) continue;
          const alone = [{ tool: tool.name, rule: finding.rule, path: finding.path, what: rewrite.what }];
          refused.push(...unexplained(tool, { ...tool, inputSchema: rewrite.schema }, samples, alone, (tool.inputSchema as Schema).$schema).map((r) => `${finding.rule} offered: ${r}`));
        }
    }
    expect(refused.slice(0, 10)).toEqual([]);
    // The host matrix of the output on the targeted hosts: each tool, and the list in one request as a host sends it.
    const failing: string[] = [];
    for (const id of hosts) {
      const profile = getProfile(id)!;
      const perTool = await Promise.all(fixed.map((t) => hostVerdict(profile, t)));
      const whole = await wholeListVerdict(profile, fixed, perTool);
      for (const [i, v] of [...perTool.entries(), [-1, whole] as const]) if (['refused', 'dropped', 'unknown'].includes(v.verdict)) failing.push(`${id} ${i < 0 ? 'list' : fixed[i]!.name}: ${v.verdict} ${v.detail.split('\n')[0]}`);
    }
    expect(failing).toEqual([]);
  }, 120_000);
});
