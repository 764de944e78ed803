/**
 * How the stand-in model reads the texts that come back: what it learns from
 * an error, and when it learns nothing.
 *
 * A model learns only from a text that names a parameter and says what is
 * wrong with it. It knows the forms such texts take the way a model trained
 * on code knows them, not from this server: zod 4's lines ("Invalid option:
 * expected one of "a"|"b" at tense"), zod 3's issues as JSON (`"path":
 * ["person"], "message": "Required"`), Pydantic's ("verb\n  Field required
 * [type=missing, ...]"), a validator's ("must have required property
 * 'person'") and plain "parameter: problem". A text that names nothing
 * ("Cannot read properties of undefined (reading 'endsWith')") teaches
 * nothing, and the next attempt is a fresh sample.
 */
import { conceptOf, isConjugation } from './intent.js';
import type { Intent, ToolIntent } from './types.js';

/**
 * What the model has learned from error texts during one request: keys it
 * must write, keys it must drop, the values an error said are allowed, values
 * it must take from the schema as listed, union branches an error said were
 * the wrong shape. Keys are dotted paths ("verb", "verb.name").
 */
export interface Lessons {
  mustWrite: Set<string>;
  mustDrop: Set<string>;
  allowed: Map<string, string[]>;
  keepToSchema: Set<string>;
  wrongShape: Map<string, Set<number>>;
  /** The union branch the last call used, per path: what "the wrong shape" refers to. */
  lastBranch: Map<string, number>;
}

export function noLessons(): Lessons {
  return { mustWrite: new Set(), mustDrop: new Set(), allowed: new Map(), keepToSchema: new Set(), wrongShape: new Map(), lastBranch: new Map() };
}

/** One thing an error text says about one parameter. */
export type Finding =
  | { path: string; kind: 'missing' }
  | { path: string; kind: 'options'; options: string[] }
  | { path: string; kind: 'unknown-keys'; keys: string[] }
  | { path: string; kind: 'wrong-shape' }
  | { path: string; kind: 'not-listed' };

/** The framing agents, clients and SDKs put around the message itself. */
function body(text: string): string {
  return text
    .replace(/^An error occurred while running the tool\. Please try again\. Error:\s*/, '')
    .replace(/^(\s*MCP error -?\d+:\s*)+/, '')
    .replace(/^Invalid input:\s*(?=\d+ validation errors? for )/, '')
    .replace(/^(Input validation error:\s*)?Invalid arguments for tool [^:]+:\s*/, '')
    .replace(/^the strict-mode output for '[^']+' does not match its schema:\s*/, '');
}

/** "verb[2].name" and ["verb", 2, "name"] alike as "verb.2.name". */
function dotted(path: string | unknown[]): string {
  if (Array.isArray(path)) return path.map(String).join('.');
  return path.replace(/\[(\d+)\]/g, '.$1');
}

const quoted = (text: string) => [...text.matchAll(/"([^"]*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2]!);

/** zod 3's issues, as JSON. */
function fromZod3(issues: Record<string, unknown>[], out: Finding[]): void {
  for (const issue of issues) {
    const path = dotted(Array.isArray(issue.path) ? issue.path : []);
    const code = issue.code;
    if (code === 'invalid_type' && issue.received === 'undefined') out.push({ path, kind: 'missing' });
    if (code === 'invalid_type' && typeof issue.expected === 'string' && issue.expected.includes("'")) out.push({ path, kind: 'options', options: quoted(issue.expected) });
    if (code === 'invalid_enum_value' || code === 'invalid_union_discriminator') out.push({ path, kind: 'options', options: (issue.options as unknown[]).map(String) });
    if (code === 'unrecognized_keys') out.push({ path, kind: 'unknown-keys', keys: (issue.keys as unknown[]).map(String) });
    if (code === 'invalid_union') out.push({ path, kind: 'wrong-shape' });
    if (code === 'custom' && /required|missing/i.test(String(issue.message))) out.push({ path, kind: 'missing' });
  }
}

/** One line or segment of text about one parameter. */
function fromLine(bulleted: string, out: Finding[]): void {
  // A list of problems, one per bullet: "- verb: Invalid option: expected one of ..." (Mastra's tool validation,
  // @mastra/core 0.24.9 src/tools/validation.ts validateToolInput: "Please fix the following errors and try
  // again:\n- <path, or root>: <message>").
  const line = bulleted.replace(/^\s*[-*•]\s+(?:root:\s*)?/, '');
  // Pydantic, two lines joined: "verb: Field required [type=missing, ...]".
  // zod 4 (as the MCP SDK prints it): "<message> at <path>"; at the root "<message>".
  const at = /^(.*) at ((?!object root)[A-Za-z_][\w.[\]]*)$/.exec(line);
  const named = /^([A-Za-z_][\w.]*)\s*:\s*(.+)$/.exec(line);
  let path: string;
  let problem: string;
  if (at) [path, problem] = [dotted(at[2]!), at[1]!];
  else if (named && !/^(Invalid|Unrecognized|Expected)/.test(line)) [path, problem] = [dotted(named[1]!), named[2]!];
  else [path, problem] = ['', line.replace(/ at object root$/, '')];

  const unknownKeys = /Unrecognized keys?:\s*(.+)$/.exec(problem) ?? /Unrecognized key\(s\) in object:\s*(.+)$/.exec(problem);
  if (unknownKeys) {
    out.push({ path, kind: 'unknown-keys', keys: quoted(unknownKeys[1]!) });
    return;
  }
  const property = /must have required property '([^']+)'/.exec(problem);
  if (property) {
    out.push({ path: path ? `${path}.${property[1]}` : property[1]!, kind: 'missing' });
    return;
  }
  // A JSON Schema validator's words (ajv): "arguments/tense must be equal to one of the allowed values"; gemini-cli
  // names the data "params" (schemaValidator.ts at 079dfef2: errorsText(errors, { dataVar: 'params' })).
  const unlisted = /^(?:arguments|data|params)((?:\/[^\s/]+)*) must be equal to one of the allowed values/.exec(line);
  if (unlisted) {
    out.push({ path: unlisted[1]!.split('/').filter(Boolean).join('.'), kind: 'not-listed' });
    return;
  }
  if (/not a parameter|not allowed|additional propert/i.test(problem) && path) {
    const [parent, key] = path.includes('.') ? [path.slice(0, path.lastIndexOf('.')), path.slice(path.lastIndexOf('.') + 1)] : ['', path];
    out.push({ path: parent, kind: 'unknown-keys', keys: [key] });
    return;
  }
  // The options, not the value that was sent: 'must be one of "a", "b" (got "c")'.
  const options = quoted(problem.replace(/\(got .*\)\s*$/, '').replace(/,?\s*received .*$/, ''));
  if (/one of|Expected '/i.test(problem) && options.length > 0) {
    out.push({ path, kind: 'options', options });
    if (/received undefined|Required/i.test(problem)) out.push({ path, kind: 'missing' });
    return;
  }
  if (/required|missing|received undefined/i.test(problem)) {
    out.push({ path, kind: 'missing' });
    return;
  }
  if (/^Invalid input$/.test(problem.trim()) && path) out.push({ path, kind: 'wrong-shape' });
}

/** Everything a text says about parameters, in the forms a model knows. */
export function findings(text: string): Finding[] {
  const message = body(text.trim());
  const out: Finding[] = [];
  const json = message.startsWith('[') ? (() => {
    try {
      return JSON.parse(message) as unknown;
    } catch {
      return undefined;
    }
  })() : undefined;
  if (Array.isArray(json)) {
    fromZod3(json as Record<string, unknown>[], out);
    return out;
  }
  const lines = message
    // Pydantic's two-line form ("verb\n  Field required [type=missing, ...]") as one "verb: Field required" line.
    .replace(/^([A-Za-z_][\w.]*)\n\s+/gm, '$1: ')
    .split(/\n|;\s+|,\s+(?=arguments)/);
  for (const line of lines) if (line.trim()) fromLine(line.trim(), out);
  return out;
}

/**
 * Reads an error text into the lessons of the request. Returns whether the
 * model understood anything. A conjugation request hears only parameters it
 * knows of (a concept name, or a key it sent); a request for another tool
 * hears any parameter an error names.
 */
export function readError(text: string, lessons: Lessons, sentArgs: Record<string, unknown>, intent?: Intent | ToolIntent): boolean {
  let understood = false;
  const hears = (path: string) => {
    if (intent && !isConjugation(intent)) return true;
    const leaf = path.split('.').pop()!;
    return path === '' || conceptOf(leaf) !== undefined || leaf in sentArgs || getPath(sentArgs, path) !== undefined;
  };
  for (const finding of findings(text)) {
    switch (finding.kind) {
      case 'unknown-keys':
        for (const key of finding.keys) lessons.mustDrop.add(finding.path ? `${finding.path}.${key}` : key);
        understood = true;
        break;
      case 'missing':
        if (!hears(finding.path) || finding.path === '') break;
        lessons.mustWrite.add(finding.path);
        understood = true;
        break;
      case 'options':
        if (!hears(finding.path) || finding.path === '') break;
        lessons.allowed.set(finding.path, finding.options);
        if (getPath(sentArgs, finding.path) === undefined) lessons.mustWrite.add(finding.path);
        understood = true;
        break;
      case 'not-listed':
        lessons.keepToSchema.add(finding.path);
        understood = true;
        break;
      case 'wrong-shape': {
        if (!hears(finding.path)) break;
        const used = lessons.lastBranch.get(finding.path);
        if (used === undefined) break;
        const tried = lessons.wrongShape.get(finding.path) ?? new Set<number>();
        tried.add(used);
        lessons.wrongShape.set(finding.path, tried);
        understood = true;
        break;
      }
    }
  }
  // The model keeps what it wrote and was not told to drop: it fixes the
  // call, it does not start from scratch.
  if (understood) for (const key of Object.keys(sentArgs)) if (!lessons.mustDrop.has(key)) lessons.mustWrite.add(key);
  return understood;
}

/**
 * An answer, not a mistake in the call: a policy refusal ("Refused: ... the
 * server is read-only") or the thing asked for does not exist ("no lesson
 * "L8""). Asking again changes nothing, and a model stops and tells the user.
 */
export function isFinal(text: string): boolean {
  const message = body(text);
  return /^Refused:/.test(message) || /\bread-only\b/i.test(text) || /^[\w.]+: no \w+ "[^"]*"/.test(message) || /\bdoes not exist\b/.test(message);
}

function getPath(value: unknown, path: string): unknown {
  let v = value;
  for (const key of path.split('.')) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}
