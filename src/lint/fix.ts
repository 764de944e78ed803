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
