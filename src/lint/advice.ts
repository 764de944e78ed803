/**
 * One line of advice per finding: what to change in the published schema,
 * and, where the zod idiom that publishes the shape is known (zod 4.6.7, as
 * docs/sources.md, "Publishing and the .shape idiom", says: z.literal publishes "const",
 * .nullable() a type list, z.union of objects "anyOf", z.discriminatedUnion
 * and z.xor "oneOf"), what to write in zod instead.
 */
import type { Finding } from './types.js';

const ADVICE: Record<string, string | ((f: Finding) => string)> = {
  'no-structural-union':
    'publish one object whose properties cover every branch (optional where a branch lacks them) and tell the cases apart in the tool; zod: one z.object with .optional() fields, not z.union or z.discriminatedUnion of objects',
  'one-of': 'for scalars, one "type" or an "enum"; zod: z.enum([...]) or one type, not z.xor or z.discriminatedUnion',
  'all-of': 'write the merged object out: one "properties" holding every field; zod: a.extend(b.shape)',
  // Read before the hosts are said at the end of the message (src/lint/lint.ts gives the advice first).
  const: (f) => `write "enum": [${f.message.replace(/^"const": /, '')}] instead of "const"; zod: z.enum([value]) instead of z.literal(value)`,
  'type-list': 'publish one "type" and leave the parameter out of "required" where null meant "not given"; zod: .optional() instead of .nullable()',
  ref: 'inline each definition where it is used and drop "$defs"/"definitions"; a generator\'s inline option does it (zod-to-json-schema: $refStrategy "none"; zod 4 toJSONSchema: no .meta({ id }) on shared parts)',
  'ref-unresolved': 'point the $ref at a definition in the same schema ("#/$defs/NAME"), or write the schema it names in place',
  'ref-cycle': 'if hosts must see it whole, cut the recursion at a fixed depth, or take the nested part as a JSON string the tool parses',
  'unused-defs': 'drop the definitions nothing references from the published schema: publish each tool with only the definitions its own $refs reach',
  'array-items': 'say what the items are: "items": {"type": "string"} or the item\'s schema; zod: z.array(z.string()), not a bare z.array',
  untaught: (f) => (/vendor keyword/.test(f.message) ? 'remove the vendor keyword from the published schema (keep it in your own metadata)' : 'remove the keyword if the model does not need it; the host matrix says what each host makes of it'),
  untyped: 'give the parameter a "type" or an "enum"; zod: a concrete type, not z.any() or z.unknown()',
  'invalid-schema': 'write it as JSON Schema gives it: "properties" an object of schemas, "required" a list of names, "enum" a non-empty list',
  'root-object': 'publish a plain object at the root: "type": "object" with its "properties"; zod: register a z.object (or its .shape), not a union, .transform() or .pipe()',
  'no-parameters': 'publish the parameters: register the z.object itself and move any .transform() or .pipe() into the handler (typescript-sdk#2145)',
  'tool-name': 'rename the tool to 1 to 64 of A-Z a-z 0-9 _ -, starting with a letter or _ (no dots, no spaces); shorter still where a host puts a prefix before it (Claude Code: mcp__<server>__)',
  'description-length': 'keep the description under 1,024 characters: what the tool does and when to use it; move a usage guide into the parameters\' own descriptions or the server\'s instructions',
  'tool-count': 'publish fewer tools: one tool per task with an action parameter, or split the server so a host enables only what it needs (at most 128 in one list)',
  'schema-dialect': 'leave "$schema" out of the published schema, or publish draft-07; zod 4: z.toJSONSchema(schema, { target: "draft-7" }), or delete $schema before registering',
  format: 'leave "format" out where a targeted host refuses it, and say the format in the description ("an ISO 8601 date")',
  examples: 'move the examples into the description ("e.g. ...") and drop "examples"',
  'open-root': 'leave "additionalProperties" out at the root (it means true already), or publish false if extra keys are an error',
  'required-undefined': 'define each required property under "properties", or take its name out of "required"',
  'host-refusal': 'read the host\'s own text (the matrix\'s why line); if the shape is one the linter should name, report it to the kit',
  'duplicate-name': 'give each tool its own name',
  'stdout-json-rpc-only': 'write logs to stderr (console.error), never to stdout',
  'tools-capability': 'declare "tools": {} among the server capabilities at initialize',
  'list-shape': 'give every tools/list entry a string "name", and end the pages (no nextCursor on the last)',
  'list-weight': 'shorten the longest descriptions, drop what no tool references, and split rarely used tools into a server of their own',
};

export function adviceFor(finding: Finding): string {
  const advice = ADVICE[finding.rule];
  if (advice === undefined) return 'see the contract rule in src/contract/rules.ts';
  return typeof advice === 'string' ? advice : advice(finding);
}
