/**
 * The model: a seeded stand-in for a small language model writing a tool call.
 *
 * It writes arguments by walking the schema it is shown, the way
 * grammar-constrained decoding does (design.md, "Model"):
 * - a `required` key is always written;
 * - an optional key may be skipped: at temperature > 0 the model may close the
 *   object as soon as the schema allows, far more often when the prompt does
 *   not state the value (knobs.ts);
 * - an enum value is copied from the prompt, or guessed among the options when
 *   the prompt does not say; a value the options lack cannot be written;
 * - an anyOf/oneOf branch is chosen by the intent of the prompt, among the
 *   branches the model can see;
 * - a tool with no published parameters gets whatever the model dares to guess
 *   from the words of the tool's description.
 * It knows nothing about variants: only the schema it was shown, the request,
 * and the error texts it was given.
 */
import { TENSES, PERSONS } from '../conjugation/engine.js';
import { scaled, type Knobs } from './knobs.js';
import type { Intent, JsonSchema, SeenTool, ToolIntent, TutorRequest } from './types.js';

export type ModelDecision = { kind: 'call'; args: Record<string, unknown> } | { kind: 'no-call'; reason: string };

/** What a concept of the request is called in a schema: a model matches parameter names to meaning. */
type Concept = 'verb' | 'past' | 'pastParticiple' | 'tense' | 'person';
const CONCEPT_OF_NAME: Record<string, Concept> = {
  verb: 'verb',
  name: 'verb',
  infinitive: 'verb',
  lemma: 'verb',
  base: 'verb',
  past: 'past',
  pastTense: 'past',
  pastParticiple: 'pastParticiple',
  participle: 'pastParticiple',
  past_participle: 'pastParticiple',
  tense: 'tense',
  person: 'person',
};
export const CONCEPTS: readonly Concept[] = ['verb', 'tense', 'person'];

export function conceptOf(name: string): Concept | undefined {
  return Object.hasOwn(CONCEPT_OF_NAME, name) ? CONCEPT_OF_NAME[name] : undefined;
}

/** A conjugation request (verb, tense, person), as opposed to a request for another tool. */
function isConjugation(intent: Intent | ToolIntent): intent is Intent {
  return 'verb' in intent && (typeof intent.verb === 'object' || !Array.isArray(intent.verb));
}

/** The value the request gives for a concept, or undefined when the prompt does not say. */
function intentValue(intent: Intent | ToolIntent, concept: string): string | undefined {
  if (!isConjugation(intent)) {
    const value = intent[concept];
    return typeof value === 'string' ? value : undefined;
  }
  const verb = intent.verb;
  switch (concept) {
    case 'verb':
      return typeof verb === 'string' ? verb : verb.infinitive;
    case 'past':
      return typeof verb === 'string' ? undefined : verb.past;
    case 'pastParticiple':
      return typeof verb === 'string' ? undefined : verb.pastParticiple;
    case 'tense':
      return intent.tense;
    case 'person':
      return intent.person;
    default:
      return undefined;
  }
}

/** A list the request gives (goals), or undefined. */
function intentList(intent: Intent | ToolIntent, name: string): string[] | undefined {
  if (isConjugation(intent)) return undefined;
  const value = intent[name];
  return Array.isArray(value) ? value : undefined;
}

/** What a parameter name means: for a conjugation, a known synonym (name -> verb); for other tools' requests, the name itself. */
function meaningOf(name: string, intent: Intent | ToolIntent): string | undefined {
  return isConjugation(intent) ? conceptOf(name) : name;
}

/** Words a model would use for a concept when it has to make one up. */
const VOCABULARY: Partial<Record<string, readonly string[]>> = { tense: TENSES, person: PERSONS };

/**
 * What the model has learned from error texts during one call: keys it must
 * write, keys it must drop, and the values an error said are allowed. Keys are
 * dotted paths ("verb", "verb.name").
 */
export interface Lessons {
  mustWrite: Set<string>;
  mustDrop: Set<string>;
  allowed: Map<string, string[]>;
}

export function noLessons(): Lessons {
  return { mustWrite: new Set(), mustDrop: new Set(), allowed: new Map() };
}

interface Context {
  intent: Intent | ToolIntent;
  lessons: Lessons;
  knobs: Knobs;
  rng: () => number;
}

type Written = { ok: true; value: unknown } | { ok: false; reason: string };

const isObject = (v: unknown): v is JsonSchema => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One tool call for one request. */
export function writeCall(tool: SeenTool, request: { intent: TutorRequest['intent'] | ToolIntent }, lessons: Lessons, knobs: Knobs, rng: () => number): ModelDecision {
  const ctx: Context = { intent: request.intent, lessons, knobs, rng };
  const properties = isObject(tool.inputSchema.properties) ? tool.inputSchema.properties : {};
  if (Object.keys(properties).length === 0 && !hasUnion(tool.inputSchema)) return guessArguments(tool, ctx);
  const written = writeValue(tool.inputSchema, undefined, '', ctx);
  if (!written.ok) return { kind: 'no-call', reason: written.reason };
  return { kind: 'call', args: (written.value ?? {}) as Record<string, unknown> };
}

function hasUnion(schema: JsonSchema): boolean {
  return Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf);
}

/**
 * No parameters were published. The model names arguments after the words of
 * the description ("Give the verb, the tense and the person"), each with the
 * chance `guessRate`, and always writes what an error told it to write.
 */
function guessArguments(tool: SeenTool, ctx: Context): ModelDecision {
  const words = new Set((tool.description ?? '').toLowerCase().match(/[a-z]+/g) ?? []);
  const args: Record<string, unknown> = {};
  // Other tools: what the request says, and whatever an error said is needed.
  const concepts = isConjugation(ctx.intent) ? CONCEPTS : [...new Set([...Object.keys(ctx.intent), ...ctx.lessons.mustWrite])];
  for (const concept of concepts) {
    const told = ctx.lessons.mustWrite.has(concept);
    const dares = words.has(concept.toLowerCase()) && ctx.rng() < scaled(ctx.knobs.guessRate, ctx.knobs.temperature);
    if (!told && !dares) continue;
    const list = intentList(ctx.intent, concept);
    if (list) {
      args[concept] = list;
      continue;
    }
    const asked = intentValue(ctx.intent, concept);
    const value = pickValue(asked, ctx.lessons.allowed.get(concept) ?? VOCABULARY[concept], ctx);
    if (value === undefined && asked !== undefined && told) {
      return { kind: 'no-call', reason: `the tool does not accept "${asked}" for ${concept}` };
    }
    if (value !== undefined) args[concept] = value;
    // Told it is needed, with nothing to say: the shortest value, as for a required string.
    else if (told && !isConjugation(ctx.intent)) args[concept] = '';
  }
  return { kind: 'call', args };
}

/** The prompt's value when allowed; otherwise a guess among the options (greedy at temperature 0: the first). */
function pickValue(value: string | undefined, options: readonly string[] | undefined, ctx: Context): string | undefined {
  if (value !== undefined && (!options || options.includes(value))) return value;
  if (!options || options.length === 0) return value;
  if (value !== undefined) return undefined; // the prompt asks for something the options lack
  return ctx.knobs.temperature === 0 ? options[0] : options[Math.floor(ctx.rng() * options.length)];
}

function writeValue(schema: unknown, concept: string | undefined, path: string, ctx: Context): Written {
  if (!isObject(schema)) return writeScalar({}, concept, path, ctx);
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches)) return writeBranch(branches, concept, path, ctx);
  if (schema.type === 'object' || isObject(schema.properties)) return writeObject(schema, path, ctx);
  // A list is copied from the request as it is (goals: ["travel", "exams"]).
  if (schema.type === 'array') return { ok: true, value: concept ? intentList(ctx.intent, concept) : undefined };
  return writeScalar(schema, concept, path, ctx);
}

/** A union: the branch the intent fills best, among those the model sees. Ties go to the first. */
function writeBranch(branches: unknown[], concept: string | undefined, path: string, ctx: Context): Written {
  let best: { score: number; branch: unknown } | undefined;
  for (const branch of branches) {
    const score = fit(branch, concept, ctx.intent);
    if (score > 0 && (!best || score > best.score)) best = { score, branch };
  }
  if (!best) return { ok: false, reason: `none of the ${branches.length} forms of ${path || 'the arguments'} can say this request` };
  return writeValue(best.branch, concept, path, ctx);
}

/** How many of a branch's keys the request has values for; 0 when a required key has none. */
function fit(branch: unknown, concept: string | undefined, intent: Intent | ToolIntent): number {
  if (!isObject(branch)) return 0;
  if (isObject(branch.properties)) {
    const required = Array.isArray(branch.required) ? branch.required : [];
    let score = 0;
    for (const [key, sub] of Object.entries(branch.properties)) {
      // A constant (a discriminator like kind: "byName") is copied, not chosen: it neither adds nor disqualifies.
      if (isObject(sub) && 'const' in sub) continue;
      const c = meaningOf(key, intent);
      const fillable = c !== undefined && intentValue(intent, c) !== undefined && isObject(sub) && accepts(sub, intentValue(intent, c)!);
      if (fillable) score++;
      else if (required.includes(key)) return 0;
    }
    return score;
  }
  if (branch.type === 'null') return 0;
  return concept !== undefined ? 0.5 : 0;
}

/** Whether a scalar schema can hold a value of the request (an enum that lacks it cannot). */
function accepts(schema: JsonSchema, value: string): boolean {
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  return schema.type === undefined || schema.type === 'string';
}

function writeObject(schema: JsonSchema, path: string, ctx: Context): Written {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const out: Record<string, unknown> = {};
  let closed = false;
  for (const [key, sub] of Object.entries(properties)) {
    const keyPath = path ? `${path}.${key}` : key;
    if (ctx.lessons.mustDrop.has(keyPath)) continue;
    const concept = meaningOf(key, ctx.intent);
    const mustWrite = required.includes(key) || ctx.lessons.mustWrite.has(keyPath);
    const known = concept !== undefined && (intentValue(ctx.intent, concept) !== undefined || intentList(ctx.intent, concept) !== undefined);
    if (!mustWrite) {
      if (closed) continue;
      // Grammar-constrained decoding offers "}" here: the object may close.
      const chance = known ? ctx.knobs.earlyClose : ctx.knobs.earlyCloseUnstated;
      if (ctx.knobs.temperature === 0 ? !known : ctx.rng() < scaled(chance, ctx.knobs.temperature)) {
        closed = true;
        continue;
      }
    }
    const written = writeValue(sub, concept, keyPath, ctx);
    if (written.ok) {
      if (written.value !== undefined) out[key] = written.value;
      // A required key the request says nothing about: the shortest value of its type.
      else if (mustWrite && isObject(sub) && !isConjugation(ctx.intent)) out[key] = sub.type === 'array' ? [] : sub.type === 'string' ? '' : undefined;
    } else if (mustWrite) {
      return written;
    }
  }
  return { ok: true, value: out };
}

function writeScalar(schema: JsonSchema, concept: string | undefined, path: string, ctx: Context): Written {
  if ('const' in schema) return { ok: true, value: schema.const };
  const value = concept ? intentValue(ctx.intent, concept) : undefined;
  const told = ctx.lessons.allowed.get(path);
  const enumOptions = Array.isArray(schema.enum) ? schema.enum.map(String) : undefined;
  const options = told ?? enumOptions ?? (value === undefined && concept ? VOCABULARY[concept] : undefined);
  const picked = pickValue(value, options, ctx);
  if (picked === undefined) {
    if (value !== undefined) return { ok: false, reason: `"${value}" is not among the options of ${path}` };
    return { ok: true, value: undefined };
  }
  return { ok: true, value: picked };
}

// ---------------------------------------------------------------------------
// Reading error texts
// ---------------------------------------------------------------------------

/**
 * Reads an error text. The model learns only from a text that names a
 * parameter and says what is wrong with it ("person: is required but
 * missing", "verb: Invalid option: expected one of ..."); a real model reads
 * such texts even about parameters it was never shown. Anything else ("Tool
 * conjugate failed: Cannot read properties of undefined") teaches nothing, and
 * the next attempt is a fresh sample.
 */
export function readError(text: string, lessons: Lessons, sentArgs: Record<string, unknown>, intent?: Intent | ToolIntent): boolean {
  const body = text
    .replace(/^(\s*MCP error -?\d+:\s*)+/, '')
    .replace(/^(Input validation error:\s*)?Invalid arguments for tool [^:]+:\s*/, '')
    // Pydantic's two-line form ("verb\n  Field required [type=missing, ...]") as one "verb: Field required" line.
    .replace(/^([A-Za-z_][\w.]*)\n\s+/gm, '$1: ');
  let understood = false;
  for (const segment of body.split(/;\s+|\n/)) {
    const match = /^\s*([A-Za-z_][\w.]*|\(arguments\))\s*:\s*(.+)$/.exec(segment);
    if (!match) continue;
    const [, parameter, problem] = match as unknown as [string, string, string];
    const leaf = parameter.split('.').pop()!;
    // Pydantic-style and zod-style texts name unknown keys in the problem itself.
    const unknownKey = /Unrecognized keys?:\s*"([^"]+)"/.exec(problem);
    if (unknownKey) {
      lessons.mustDrop.add(parameter === '(arguments)' ? unknownKey[1]! : `${parameter}.${unknownKey[1]}`);
      understood = true;
      continue;
    }
    // Any parameter an error names is heard for other tools; for a conjugation, the ones the model knows of.
    if (!conceptOf(leaf) && !(leaf in sentArgs) && !(intent && !isConjugation(intent))) continue;
    if (/not a parameter|unrecognized|not allowed|additional propert/i.test(problem)) {
      lessons.mustDrop.add(parameter);
      understood = true;
      continue;
    }
    // The options, not the value that was sent: "must be one of "a", "b" (got "c")".
    const options = [...problem.replace(/\(got .*\)\s*$/, '').matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
    if (/one of/i.test(problem) && options.length > 0) {
      lessons.allowed.set(parameter, options);
      if (getPath(sentArgs, parameter) === undefined) lessons.mustWrite.add(parameter);
      understood = true;
    } else if (/required|missing|received undefined/i.test(problem)) {
      lessons.mustWrite.add(parameter);
      understood = true;
    }
  }
  // The model keeps what it wrote and was not told to drop: it fixes the
  // call, it does not start from scratch.
  if (understood) for (const key of Object.keys(sentArgs)) if (!lessons.mustDrop.has(key)) lessons.mustWrite.add(key);
  return understood;
}

/** A policy refusal, not a mistake in the call: "Refused: ... the server is read-only". Asking again changes nothing. */
export function isRefusal(text: string): boolean {
  return /^(MCP error -?\d+:\s*)?Refused:/.test(text) || /\bread-only\b/i.test(text);
}

function getPath(value: unknown, path: string): unknown {
  let v = value;
  for (const key of path.split('.')) {
    if (!isObject(v)) return undefined;
    v = v[key];
  }
  return v;
}

/** Concepts of the request the arguments leave out: what "a call with missing arguments" means here. */
export function missingConcepts(args: Record<string, unknown> | undefined, intent: Intent | ToolIntent): Concept[] {
  const present = new Set<Concept>();
  const walk = (v: unknown) => {
    if (!isObject(v)) return;
    for (const [key, sub] of Object.entries(v)) {
      const c = conceptOf(key);
      if (c) present.add(c);
      walk(sub);
    }
  };
  walk(args);
  return CONCEPTS.filter((c) => intentValue(intent, c) !== undefined && !present.has(c));
}
