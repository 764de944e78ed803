/**
 * zod 3's `ZodError.message`, written from zod 4's issues.
 *
 * Servers on SDK 1.13 to 1.20 declared their tools in zod 3 (the SDK took a
 * zod 3 raw shape), and answered bad arguments with
 * `Invalid arguments for tool X: ${error.message}`, where zod 3's message is
 * its issues as indented JSON. The kit declares its tools in zod 4 (pinned),
 * so the `mcpserver-1.20` build translates: each zod 4 issue becomes the zod 3
 * issue the same mistake gives, with zod 3's codes, field order and words
 * (zod 3.25 `ZodError`, `locales/en.ts`, `types.ts`). A missing enum value is
 * zod 3's "Required" (zod 4 says which values it takes); a wrong one is
 * "Invalid enum value. Expected 'a' | 'b', received 'c'".
 *
 * test/zod3.test.ts compares this with the real zod 3 package on the shapes
 * the kit's tools and breaks use; an issue code not handled here falls back to
 * `{code, path, message}` with zod 4's words.
 */

interface Zod4Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
  values?: unknown[];
  keys?: string[];
  errors?: Zod4Issue[][];
  note?: string;
  discriminator?: string;
  options?: unknown[];
}

type Zod3Issue = Record<string, unknown>;

/** zod 3 `getParsedType`: the `received` of its issues. */
function parsedType(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isNaN(value) ? 'nan' : 'number';
  if (typeof value === 'object') return 'object';
  return typeof value;
}

/** zod 3 `util.joinValues`: strings in single quotes, joined by " | ". */
function joinValues(values: unknown[], separator = ' | '): string {
  return values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))).join(separator);
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** zod 4 writes `expected` for a record as "record" and for z.int() as "int"; zod 3 says "object" and "integer". */
function zod3Expected(expected: string | undefined): string {
  if (expected === 'record') return 'object';
  if (expected === 'int') return 'integer';
  return expected ?? 'unknown';
}

function translate(issue: Zod4Issue, base: PropertyKey[], input: unknown): Zod3Issue[] {
  const path = [...base, ...issue.path];
  const value = valueAt(input, path);
  switch (issue.code) {
    case 'invalid_type': {
      const expected = zod3Expected(issue.expected);
      const received = parsedType(value);
      return [{ code: 'invalid_type', expected, received, path, message: received === 'undefined' ? 'Required' : `Expected ${expected}, received ${received}` }];
    }
    case 'invalid_value': {
      const values = issue.values ?? [];
      if (values.length === 1) {
        // z.literal
        return [{ received: value, code: 'invalid_literal', expected: values[0], path, message: `Invalid literal value, expected ${JSON.stringify(values[0])}` }];
      }
      // z.enum: a string outside the options, or no string at all.
      if (typeof value !== 'string') {
        const received = parsedType(value);
        const expected = joinValues(values);
        return [{ expected, received, code: 'invalid_type', path, message: received === 'undefined' ? 'Required' : `Expected ${expected}, received ${received}` }];
      }
      return [{ received: value, code: 'invalid_enum_value', options: values, path, message: `Invalid enum value. Expected ${joinValues(values)}, received '${value}'` }];
    }
    case 'unrecognized_keys':
      return [{ code: 'unrecognized_keys', keys: issue.keys ?? [], path, message: `Unrecognized key(s) in object: ${joinValues(issue.keys ?? [], ', ')}` }];
    case 'invalid_union': {
      if (issue.discriminator !== undefined || issue.note === 'No matching discriminator') {
        const options = issue.options ?? [];
        return [{ code: 'invalid_union_discriminator', options, path, message: `Invalid discriminator value. Expected ${joinValues(options)}` }];
      }
      // Each branch's issues, as a ZodError serialises: {issues, name}.
      const unionErrors = (issue.errors ?? []).map((branch) => ({ issues: branch.flatMap((i) => translate(i, path, input)), name: 'ZodError' }));
      return [{ code: 'invalid_union', unionErrors, path, message: 'Invalid input' }];
    }
    case 'custom':
      return [{ code: 'custom', path, message: issue.message }];
    default:
      return [{ code: issue.code, path, message: issue.message }];
  }
}

/** The message of the zod 3 error for the same failure: its issues as JSON, indented by two spaces. */
export function zod3Message(error: unknown, input: unknown): string {
  const issues = ((error as { issues?: Zod4Issue[] } | null)?.issues ?? []) as Zod4Issue[];
  return JSON.stringify(
    issues.flatMap((issue) => translate(issue, [], input)),
    null,
    2,
  );
}
