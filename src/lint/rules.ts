/**
 * The linter's rules: what is wrong with a published tool, with no contract
 * to compare against. Each rule reads the tool as tools/list gave it and
 * says what real hosts do with the shape it finds (docs/sources.md, "The
 * linter", cites each). The structural-union rule is the contract's own
 * (src/contract/rules.ts, `no-structural-union`, same detector), with `$ref`
 * branches resolved first.
 *
 * A keyword or shape the linter was not taught is a finding (`untaught`),
 * never a silent pass: what a host makes of it is then in the host matrix,
 * which runs every host profile on every schema whatever it holds.
 */
import { isStructuredBranch, RULES as CONTRACT_RULES } from '../contract/rules.js';
import { OPENAI_MAX_DESCRIPTION, OPENAI_MAX_TOOLS } from '../lab/profiles/openai-functions.js';
import { codePoints } from '../lab/profiles/shared.js';
import { eachSchema, followRef, reach, recursion, refUses, type Reach } from './refs.js';
import { isObject, segment, type Finding, type ListedTool, type Severity } from './types.js';

export const LINT_RULES = {
  'no-structural-union': { severity: 'error', title: 'no anyOf/oneOf with more than one structured (object or array) branch, at any depth' },
  'root-object': { severity: 'error', title: 'the inputSchema root is a plain object: "type": "object", no union, allOf or $ref at the top' },
  'no-parameters': { severity: 'error', title: 'a tool whose description takes arguments publishes parameters' },
  ref: { severity: 'warning', title: '$ref and $defs/definitions: some hosts refuse them, others drop or rewrite them' },
  'ref-unresolved': { severity: 'error', title: 'every $ref resolves inside the schema' },
  'unused-defs': { severity: 'warning', title: 'every $defs/definitions entry is referenced (an unused one is sent in every tools/list and validates nothing)' },
  'ref-cycle': { severity: 'warning', title: 'no recursive $ref (a schema that cannot be written out in full)' },
  'type-list': { severity: 'warning', title: '"type" is one type, not a list' },
  'all-of': { severity: 'warning', title: 'no allOf' },
  'one-of': { severity: 'warning', title: 'no oneOf, even of scalars' },
  'array-items': { severity: 'error', title: 'every array says what its items are' },
  const: { severity: 'warning', title: 'no const' },
  untyped: { severity: 'warning', title: 'every parameter says what it takes (a type, enum, const or union)' },
  'invalid-schema': { severity: 'error', title: 'properties, required, enum and subschemas have the shapes JSON Schema gives them' },
  untaught: { severity: 'warning', title: 'every keyword is one the linter was taught (src/lint/rules.ts, TAUGHT)' },
  'tool-name': { severity: 'error', title: 'tool names hosts accept: 1 to 64 of A-Z a-z 0-9 _ - (MCP allows . and up to 128)' },
  'duplicate-name': { severity: 'error', title: 'each tool name once per server' },
  'stdout-json-rpc-only': { severity: 'error', title: 'the server writes nothing but JSON-RPC messages on stdout' },
  'tools-capability': { severity: 'warning', title: 'a server with tools declares the tools capability' },
  'list-weight': { severity: 'warning', title: 'tools/list stays under a tenth of a 128,000-token window (src/lint/weight.ts says why)' },
  'list-shape': { severity: 'error', title: 'every tools/list entry is a tool with a name, and pages end' },
  'description-length': { severity: 'error', title: 'tool descriptions of at most 1,024 characters (OpenAI function calling refuses a request with a longer one)' },
  'tool-count': { severity: 'error', title: 'at most 128 tools in one tools/list (OpenAI function calling refuses a request with more)' },
  'schema-dialect': { severity: 'warning', title: 'no "$schema", or one every host\'s validator compiles (draft-07)' },
  format: { severity: 'warning', title: '"format" only with the values the hosts take' },
  examples: { severity: 'warning', title: 'no "examples" (a keyword some model APIs refuse)' },
  'open-root': { severity: 'warning', title: 'no "additionalProperties": true at the root' },
  'required-undefined': { severity: 'error', title: '"required" names only properties the schema defines' },
  'host-refusal': { severity: 'error', title: 'no targeted host refuses or drops the tool (a cause no other rule names: the host\'s own text)' },
} as const satisfies Record<string, { severity: Severity; title: string }>;

export type LintRuleId = keyof typeof LINT_RULES;

/** A rule's one-line title, the linter's or (with --contract) the contract's. */
export function ruleTitle(rule: string): string {
  if (Object.hasOwn(LINT_RULES, rule)) return LINT_RULES[rule as LintRuleId].title;
  if (Object.hasOwn(CONTRACT_RULES, rule)) return `${CONTRACT_RULES[rule as keyof typeof CONTRACT_RULES]} (contract rule)`;
  return rule;
}

/** Keywords that only annotate. */
const ANNOTATIONS = ['title', 'description', 'default', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly', '$anchor'];

/**
 * Every keyword the linter knows: the annotations; the validation keywords
 * whose fate on each host the profiles model (so the host matrix says what
 * becomes of them); and the applicators the rules above read. The root may
 * also say its dialect (`$schema`) and id.
 */
export const TAUGHT: ReadonlySet<string> = new Set([
  ...ANNOTATIONS,
  'type', 'enum', 'const', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties',
  'items', 'minItems', 'maxItems', 'uniqueItems',
  'anyOf', 'oneOf', 'allOf', '$ref', '$defs', 'definitions',
]);
const ROOT_ONLY = new Set(['$schema', '$id']);

/** Keywords whose value is a map of schemas, a schema, or a list of schemas (where a boolean is no schema). */
const SCHEMA_MAPS = ['properties', '$defs', 'definitions'];

/**
 * Whether a description reads as taking arguments, and the words that say
 * so: a docstring's "Args:" section, an imperative "Give the verb ...", "takes
 * a ...", or parameters named. "takes no arguments" is not. A heuristic: the
 * finding quotes what it matched.
 */
export function takesArguments(description: unknown): string | null {
  if (typeof description !== 'string') return null;
  if (/\b(no|without|zero)\s+(parameters|arguments|args|inputs?)\b/i.test(description)) return null;
  const patterns = [
    /\b((?:args|arguments|parameters|params|inputs?)\s*:)/i,
    /(?:^|[.;:!?]\s+)((?:give|pass|provide|specify|supply|enter|send)\s+(?:it\s+|me\s+)?(?:the|a|an|your|one|two|three)\s+[\w-]+)/i,
    /\b((?:takes|accepts|requires|expects)\s+(?:a|an|the|one|two|three|\d+)\s+[\w-]+)/i,
    /\b((?:with|using)\s+(?:the|a|an)\s+[\w-]+\s+(?:parameter|argument))\b/i,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(description);
    if (match) return (match[1] ?? match[0]).trim();
  }
  return null;
}

function finding(rule: LintRuleId, path: string, message: string, severity: Severity = LINT_RULES[rule].severity): Finding {
  return { rule, severity, path, message };
}

/**
 * Names hosts accept. MCP 2025-11-25 "Tool names"; the OpenAI and Gemini function name rules; Anthropic's name pattern.
 * Each is judged by the hosts (src/lint/hurt.ts): an error where a targeted host refuses the name, else a warning or info.
 */
function nameFindings(name: string): Finding[] {
  if (name.length === 0 || name.length > 128 || /[^A-Za-z0-9_.-]/.test(name)) {
    const bad = [...new Set(name.replace(/[A-Za-z0-9_.-]/g, ''))].map((c) => JSON.stringify(c)).join(' ');
    return [
      finding(
        'tool-name',
        '/name',
        `tool name ${JSON.stringify(name)} ${name.length === 0 ? 'is empty' : name.length > 128 ? `has ${name.length} characters` : `has ${bad}`}: MCP says 1 to 128 of A-Z a-z 0-9 _ - . ` +
          'and the model APIs refuse the request for anything else (OpenAI and Anthropic: ^[a-zA-Z0-9_-]{1,64}$ and {1,128}$; Gemini: letters, digits, _ . : -, up to 64)',
      ),
    ];
  }
  const found: Finding[] = [];
  if (name.includes('.'))
    found.push(finding('tool-name', '/name', `tool name ${JSON.stringify(name)} has a dot: MCP allows it, but OpenAI's and Anthropic's APIs refuse it (^[a-zA-Z0-9_-]); use _ or -`, 'warning'));
  if (/^[0-9]/.test(name))
    found.push(finding('tool-name', '/name', `tool name ${JSON.stringify(name)} starts with a digit: Gemini takes a function name only if it starts with a letter or an underscore`, 'warning'));
  if (name.length > 64)
    found.push(
      finding('tool-name', '/name', `tool name ${JSON.stringify(name)} has ${name.length} characters: OpenAI and Gemini take at most 64, and hosts add a prefix of their own (Claude Code: mcp__<server>__)`, 'warning'),
    );
  return found;
}

/** The root of the inputSchema: a plain object, or what it is instead. */
function rootFindings(tool: ListedTool): Finding[] {
  const schema = tool.inputSchema;
  if (!isObject(schema))
    return [finding('root-object', '/inputSchema', `inputSchema is ${schema === undefined ? 'missing' : JSON.stringify(schema)}, not a schema object: MCP's Tool requires one, and SDK clients refuse the whole tool list`)];
  const found: Finding[] = [];
  if (schema.type !== 'object')
    found.push(
      finding(
        'root-object',
        '/inputSchema/type',
        `the root has ${'type' in schema ? `"type": ${JSON.stringify(schema.type)}` : 'no "type"'}, not "object": MCP's Tool requires "type": "object", the MCP SDK's client refuses the whole tools/list ` +
          'for it (so Claude Code, Continue and gemini-cli lose every tool of the server), and OpenAI strict mode refuses the request',
      ),
    );
  for (const key of ['anyOf', 'oneOf', 'allOf', 'not', '$ref'])
    if (key in schema)
      found.push(
        finding(
          'root-object',
          `/inputSchema/${segment(key)}`,
          key === '$ref'
            ? "$ref at the root: the parameters are not written out where hosts read them (Langflow reads only the root's own properties, Gemini's legacy field has no $ref); publish the object itself"
            : key === 'not'
              ? '"not" at the root: OpenAI strict mode refuses "not" anywhere, and no host shows the model what it excludes; publish the object itself'
              : `${key} at the root: Claude's API refuses oneOf, allOf or anyOf at the top level of input_schema (a 400 for the whole request), OpenAI strict mode refuses a root that is not a plain object; ` +
              'publish one object whose properties cover every case, and let the tool tell them apart',
        ),
      );
  const properties = isObject(schema.properties) ? Object.keys(schema.properties) : [];
  const says = takesArguments(tool.description);
  if (properties.length === 0 && schema.additionalProperties !== false && says && found.length === 0)
    found.push(
      finding(
        'no-parameters',
        '/inputSchema/properties',
        `publishes no parameters, but its description takes some ("${says}"): no host can tell the model what to send. A root .transform(), .pipe(), union or ` +
          'intersection in zod is published as {"type":"object","properties":{}} while the server still validates (typescript-sdk#2145)',
      ),
    );
  return found;
}

/** One subschema's findings (its children are visited on their own); `base` is where the schema sits in the tool. */
function nodeFindings(node: unknown, pointer: string, parentKey: string | undefined, inputSchema: unknown, base: string): Finding[] {
  const at = `${base}${pointer}`;
  const root = pointer === '';
  if (typeof node === 'boolean')
    return root ? [] : [finding('untaught', at, `a boolean schema (${node}: ${node ? 'any value' : 'no value'}) where a schema object is expected: the linter was not taught it, and hosts read it differently`)];
  if (parentKey === 'dependencies' && Array.isArray(node)) return []; // draft-07 property dependencies: a list of names
  if (!isObject(node)) return [finding('invalid-schema', at, `${JSON.stringify(node)} is not a schema`)];
  const found: Finding[] = [];
  for (const key of Object.keys(node)) {
    if (TAUGHT.has(key) || (root && ROOT_ONLY.has(key))) continue;
    const vendor = key.startsWith('x-');
    found.push(
      finding(
        'untaught',
        `${at}/${segment(key)}`,
        vendor
          ? `vendor keyword "${key}": JSON Schema ignores it`
          : `keyword "${key}": the linter was not taught it, so no rule here says what it costs`,
      ),
    );
  }
  if ('properties' in node && !isObject(node.properties)) found.push(finding('invalid-schema', `${at}/properties`, `"properties" is ${JSON.stringify(node.properties)}, not an object of schemas`));
  if ('required' in node && !(Array.isArray(node.required) && node.required.every((r) => typeof r === 'string')))
    found.push(finding('invalid-schema', `${at}/required`, `"required" is ${JSON.stringify(node.required)}, not a list of names: the MCP SDK's client (1.12 on) refuses the tool list for it`));
  if ('enum' in node && !(Array.isArray(node.enum) && node.enum.length > 0)) found.push(finding('invalid-schema', `${at}/enum`, `"enum" is ${JSON.stringify(node.enum)}, not a list of values`));
  if (Array.isArray(node.type))
    found.push(
      finding(
        'type-list',
        `${at}/type`,
        `"type": ${JSON.stringify(node.type)}, a list of types`,
      ),
    );
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('array') && !('items' in node))
    found.push(finding('array-items', at, 'an array with no "items": the model is not told what goes in it'));
  if (Array.isArray(node.items)) found.push(finding('untaught', `${at}/items`, '"items" as a list of schemas (a tuple): the linter was not taught it, and hosts that read items as one schema misread it'));
  if ('const' in node)
    found.push(finding('const', `${at}/const`, `"const": ${JSON.stringify(node.const)}`));
  if ('allOf' in node)
    found.push(finding('all-of', `${at}/allOf`, `allOf of ${Array.isArray(node.allOf) ? node.allOf.length : '?'} schemas`));
  if (Array.isArray(node.oneOf) && structuredCount(node.oneOf, inputSchema) <= 1)
    found.push(
      finding('one-of', `${at}/oneOf`, `oneOf of ${node.oneOf.length} branches, at most one structured`),
    );
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    const structured = structuredCount(list, inputSchema);
    if (structured > 1)
      found.push(
        finding(
          'no-structural-union',
          `${at}/${key}`,
          `${key} with ${structured} structured branches (of ${list.length})`,
        ),
      );
  }
  if (typeof node.format === 'string') found.push(finding('format', `${at}/format`, `"format": ${JSON.stringify(node.format)}`));
  if ('examples' in node) found.push(finding('examples', `${at}/examples`, `"examples" (${Array.isArray(node.examples) ? `${node.examples.length} values` : JSON.stringify(node.examples)})`));
  // The dialect of the inputSchema, which hosts compile or send on; an outputSchema's is the client's business.
  if (root && base === '/inputSchema' && '$schema' in node) found.push(finding('schema-dialect', `${at}/$schema`, `"$schema": ${JSON.stringify(node.$schema)}`));
  if (root && node.additionalProperties === true) found.push(finding('open-root', `${at}/additionalProperties`, '"additionalProperties": true at the root'));
  if (Array.isArray(node.required)) {
    const defined = isObject(node.properties) ? node.properties : {};
    node.required.forEach((name, i) => {
      if (typeof name === 'string' && !Object.hasOwn(defined, name))
        found.push(finding('required-undefined', `${at}/required/${i}`, `"required" names ${JSON.stringify(name)}, which "properties" does not define here`));
    });
  }
  const typed = 'type' in node || ['enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref', 'not', 'properties', 'items'].some((k) => k in node);
  // `additionalProperties: {}` is a free-form map by design (any value under any other key, as an absent
  // additionalProperties allows): nothing is left untold that a type would tell (issue 33).
  const freeForm = parentKey === 'additionalProperties' && Object.keys(node).length === 0;
  if (!root && !typed && !freeForm && parentKey !== undefined && !['not', 'if', 'then', 'else', '$defs', 'definitions'].includes(parentKey))
    found.push(finding('untyped', at, 'no type, enum, const or union: any value passes, and the model is told nothing of what to send'));
  return found;
}

/** Branches that are (or may be) objects or arrays, a $ref branch read through its target. */
function structuredCount(branches: unknown[], inputSchema: unknown): number {
  return branches.filter((branch) => isStructuredBranch(isObject(branch) && typeof branch.$ref === 'string' ? (followRef(inputSchema, branch) ?? branch) : branch)).length;
}

/** The keyword a pointer's last step went through ("properties" for /properties/verb, "anyOf" for /anyOf/0). */
function parentKeyOf(pointer: string): string | undefined {
  const parts = pointer.split('/');
  if (parts.length < 2) return undefined;
  const last = parts[parts.length - 1]!;
  const before = parts[parts.length - 2]!;
  return /^\d+$/.test(last) || SCHEMA_MAPS.includes(before) || ['patternProperties', 'dependentSchemas', 'dependencies'].includes(before) ? before : last;
}

function refFindings(inputSchema: unknown, base: string, reached: Reach): Finding[] {
  const found: Finding[] = [];
  const uses = refUses(inputSchema, base).filter((use) => reached.live.has(use.at.slice(base.length)));
  for (const use of uses) {
    if (use.target === null) {
      found.push(finding('ref-unresolved', `${use.at}/$ref`, `$ref ${JSON.stringify(use.ref)} does not resolve in this schema: ${use.why}`));
      continue;
    }
    if (followRef(inputSchema, { $ref: use.ref }) === null) {
      found.push(finding('ref-unresolved', `${use.at}/$ref`, `$ref ${JSON.stringify(use.ref)} starts a chain of refs that never reaches a schema`));
      continue;
    }
    found.push(
      finding(
        'ref',
        `${use.at}/$ref`,
        `$ref ${JSON.stringify(use.ref)} (resolved here to ${base}${use.target})`,
      ),
    );
  }
  for (const defs of reached.defs) {
    const key = defs.pointer.slice(defs.pointer.lastIndexOf('/') + 1);
    if (defs.unused.length < defs.entries)
      found.push(finding('ref', `${base}${defs.pointer}`, `"${key}" with ${defs.entries - defs.unused.length} of its ${defs.entries} entries referenced`));
    if (defs.unused.length > 0) {
      const bytes = defs.unused.reduce((n, u) => n + u.bytes, 0);
      found.push({
        ...finding(
          'unused-defs',
          `${base}${defs.pointer}`,
          `${defs.unused.length === defs.entries ? `all ${defs.entries}` : `${defs.unused.length} of the ${defs.entries}`} "${key}" entries are referenced by nothing in this schema (${defs.unused.map((u) => u.name).join(', ')}): ` +
            `${bytes} bytes sent in every tools/list that validate nothing (not linted here)`,
        ),
        bytes,
      });
    }
  }
  for (const loop of recursion(inputSchema, uses, base))
    found.push(
      finding(
        'ref-cycle',
        `${base}${loop.target}`,
        `a recursive schema: ${base}${loop.target} reaches itself again through the $ref at ${loop.closedAt}, so it cannot be written out in full; a host that inlines refs stops somewhere (see the host matrix)`,
      ),
    );
  return found;
}

/** The findings of one published schema (inputSchema or outputSchema), in the part of it the tool can reach. */
function schemaFindings(schema: Record<string, unknown>, base: string): Finding[] {
  const found: Finding[] = [];
  const reached = reach(schema);
  eachSchema(schema, (node, pointer) => {
    if (reached.live.has(pointer)) found.push(...nodeFindings(node, pointer, parentKeyOf(pointer), schema, base));
  });
  found.push(...refFindings(schema, base, reached));
  return found;
}

/** Every finding of one tool's own, without the names of the others: its name, its inputSchema and its outputSchema (MCP 2025-06-18 on). */
export function toolFindings(tool: ListedTool): Finding[] {
  const found = [...nameFindings(tool.name), ...descriptionFindings(tool), ...rootFindings(tool)];
  if (isObject(tool.inputSchema)) found.push(...schemaFindings(tool.inputSchema, '/inputSchema'));
  if (isObject(tool.outputSchema)) found.push(...schemaFindings(tool.outputSchema, '/outputSchema'));
  return found;
}

/** The tools of a list with the names that come twice. */
export function duplicateNames(tools: ListedTool[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const tool of tools) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
  return new Map([...counts].filter(([, n]) => n > 1));
}

/** A list longer than a host takes in one request (OpenAI function calling's cap, the one limit on a list's length the profiles model): a finding of the server's, judged on the whole list (src/lint/hurt.ts listHurts). */
export function toolCountFinding(count: number): Finding | null {
  return count > OPENAI_MAX_TOOLS ? finding('tool-count', '', `${count} tools in one tools/list, over ${OPENAI_MAX_TOOLS}`) : null;
}

/** A description longer than a host takes (OpenAI function calling's 1,024, counted in code points as the API counts). */
function descriptionFindings(tool: ListedTool): Finding[] {
  if (typeof tool.description !== 'string') return [];
  const length = codePoints(tool.description);
  return length > OPENAI_MAX_DESCRIPTION ? [finding('description-length', '/description', `the description has ${length} characters, over ${OPENAI_MAX_DESCRIPTION}`)] : [];
}

export function duplicateFinding(name: string, times: number): Finding {
  return finding('duplicate-name', '/name', `"${name}" is published ${times} times: MCP says names are unique within a server, and a host keeps one of them, which one unsaid`);
}

/** What tools/list held besides tools: entries that are no tool. Each is returned with the index it had. */
export function splitEntries(entries: unknown[]): { tools: ListedTool[]; findings: Finding[] } {
  const tools: ListedTool[] = [];
  const findings: Finding[] = [];
  entries.forEach((entry, i) => {
    if (isObject(entry) && typeof entry.name === 'string') tools.push(entry as ListedTool);
    else findings.push(finding('list-shape', `/tools/${i}`, `tools/list entry ${i} is not a tool with a string "name" (${JSON.stringify(entry)?.slice(0, 80)}): hosts on the MCP SDK refuse the whole list for it`));
  });
  return { tools, findings };
}

/** Findings about the server as a whole, from how it answered. */
export function serverFindings(listing: { garbage: number; garbageSample: string[]; capabilities: Record<string, unknown>; toolCount: number; cursorLoop: boolean }): Finding[] {
  const found: Finding[] = [];
  if (listing.garbage > 0)
    found.push(
      finding(
        'stdout-json-rpc-only',
        '',
        `wrote ${listing.garbage} line${listing.garbage === 1 ? '' : 's'} on stdout that ${listing.garbage === 1 ? 'is' : 'are'} not JSON-RPC (${listing.garbageSample.map((l) => JSON.stringify(l)).join(', ')}): ` +
          "MCP's stdio transport says the server MUST NOT; the MCP SDK's client reports an error for each such line and skips it. Write logs to stderr.",
      ),
    );
  if (listing.toolCount > 0 && !isObject(listing.capabilities.tools))
    found.push(finding('tools-capability', '', 'initialize declares no "tools" capability but tools/list answers: MCP says a server with tools MUST declare it, and a host that goes by capabilities never asks for them'));
  if (listing.cursorLoop) found.push(finding('list-shape', '', 'tools/list hands back a cursor it gave before (or pages without end): the listing stopped there'));
  return found;
}
