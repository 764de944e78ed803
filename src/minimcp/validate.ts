/**
 * Argument validation at the boundary, with ajv, against the published schema:
 * what a client is shown is what the server enforces. Each ajv error becomes an
 * ArgumentProblem that names the parameter and says what is wrong in words a
 * model can act on.
 */
import { Ajv, type ErrorObject } from 'ajv';
import type { ArgumentProblem } from './errors.js';

// allErrors: report every problem at once, so a model can fix them in one go.
// strict: false: published schemas may carry keywords ajv does not know.
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });

/** "/verb/name" -> "verb.name"; the root is "(arguments)". */
function parameterPath(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (child !== undefined) parts.push(child);
  return parts.length > 0 ? parts.join('.') : '(arguments)';
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** Long values (a 10 MB string) are cut so that an error stays readable. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function toProblem(error: ErrorObject, root: unknown): ArgumentProblem {
  const value = valueAt(root, error.instancePath);
  switch (error.keyword) {
    case 'required':
      return { parameter: parameterPath(error.instancePath, String(error.params.missingProperty)), problem: 'is required but missing' };
    case 'additionalProperties':
      return { parameter: parameterPath(error.instancePath, String(error.params.additionalProperty)), problem: 'is not a parameter of this tool' };
    case 'enum':
      return {
        parameter: parameterPath(error.instancePath),
        problem: `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')} (got ${shown(value)})`,
      };
    case 'type':
      return { parameter: parameterPath(error.instancePath), problem: `must be ${error.params.type} (got ${describeType(value)})` };
    case 'anyOf':
    case 'oneOf':
      return { parameter: parameterPath(error.instancePath), problem: `must match exactly one of the accepted forms (${error.keyword})` };
    default:
      return { parameter: parameterPath(error.instancePath), problem: error.message ?? error.keyword };
  }
}

function valueAt(root: unknown, instancePath: string): unknown {
  let value = root;
  for (const key of instancePath.split('/').filter(Boolean)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return value;
}

/**
 * Compiles the published schema once. Errors inside the branches of an
 * anyOf/oneOf are folded into the union's own error: listing every branch's
 * complaint would bury the one line a model needs. A union whose branches all
 * carry a constant-valued property (a discriminator, as zod's
 * discriminatedUnion publishes `kind: {const: ...}`) is not folded: the
 * discriminator says which branch was meant, and that branch's own errors are
 * reported. That is why a discriminated union gives better messages.
 */
export function compileArgumentCheck(schema: object): (args: unknown) => ArgumentProblem[] {
  const validate = ajv.compile(schema);
  return (args) => {
    if (validate(args)) return [];
    let errors = validate.errors ?? [];
    const extra: ArgumentProblem[] = [];
    for (const union of errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')) {
      const base = union.schemaPath.replace(/\/(anyOf|oneOf)$/, '');
      const inBranch = (e: ErrorObject, i?: number) => e.schemaPath.startsWith(`${base}/${union.keyword}/${i ?? ''}`);
      const branches = nodeAt(schema, union.schemaPath) as Record<string, unknown>[] | undefined;
      const discriminator = branches ? discriminatorOf(branches) : undefined;
      const value = valueAt(args, union.instancePath);
      if (!discriminator || !branches || value === null || typeof value !== 'object' || Array.isArray(value)) {
        errors = errors.filter((e) => !inBranch(e)); // folded into the union's one line
        continue;
      }
      const tags = branches.map((b) => (b.properties as Record<string, { const: unknown }>)[discriminator]!.const);
      const tag = (value as Record<string, unknown>)[discriminator];
      const chosen = tags.findIndex((t) => t === tag);
      const where = parameterPath(union.instancePath, discriminator);
      const options = tags.map((t) => JSON.stringify(t)).join(', ');
      if (chosen === -1) {
        extra.push({ parameter: where, problem: tag === undefined ? `is required but missing (one of ${options})` : `must be one of ${options} (got ${shown(tag)})` });
        errors = errors.filter((e) => e !== union && !inBranch(e));
      } else {
        errors = errors.filter((e) => e !== union && (!inBranch(e) || inBranch(e, chosen)));
      }
    }
    const problems = [...extra, ...errors.map((e) => toProblem(e, args))];
    const seen = new Set<string>();
    return problems.filter((p) => {
      const key = `${p.parameter}\u0000${p.problem}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  };
}

/** The schema node an ajv schemaPath ("#/properties/verb/oneOf") points at. */
function nodeAt(schema: unknown, schemaPath: string): unknown {
  let node = schema;
  for (const key of schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** A property every branch declares with a `const`: the branch's tag. */
function discriminatorOf(branches: Record<string, unknown>[]): string | undefined {
  const first = branches[0]?.properties as Record<string, { const?: unknown }> | undefined;
  if (!first) return undefined;
  return Object.keys(first).find((key) =>
    branches.every((b) => {
      const prop = (b.properties as Record<string, { const?: unknown }> | undefined)?.[key];
      return prop !== undefined && 'const' in prop;
    }),
  );
}

/** zod's issues, in the same words: each names its path and what is wrong. */
export function zodProblems(error: unknown): ArgumentProblem[] {
  const issues = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues ?? [];
  return issues.map((issue) => ({
    parameter: issue.path.length > 0 ? issue.path.map(String).join('.') : '(arguments)',
    problem: issue.message,
  }));
}
