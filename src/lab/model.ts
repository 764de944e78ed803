/**
 * The model: a seeded stand-in for a small language model writing a tool call.
 *
 * It knows what a real model would know, and nothing else: the request (its
 * meaning, src/lab/meanings.ts), the schema the host showed it, the texts it
 * got back (model-reading.ts), and English. It imports nothing from the
 * server or the conjugation engine (.dependency-cruiser.cjs).
 *
 * It writes arguments by walking the schema it is shown:
 * - a key it has a value for is written; a required one is left out now and
 *   then (`dropRequired`), an optional one more often (`dropStatedOptional`),
 *   and an optional one the request does not state usually is
 *   (`dropUnstatedOptional`); a required key the request says nothing about
 *   gets the shortest value of its type ("" or []), as a schema that wants
 *   every key asks ("" for a parameter a call does not use);
 * - where the schema lists options, it picks the option that says the
 *   request's meaning, mostly: now and then it writes its own words instead
 *   (`strayFromEnum`) or a neighbouring option (`wrongOption`); when no option
 *   can say it, it writes its own words anyway (`offList`), or else picks a
 *   listed option all the same or leaves the key out (`offListOmit`), as
 *   the small models of BFCL did; told by an error which options there are,
 *   it keeps to them and, when none says it, gives up;
 * - where the schema lists none, it writes the words a person would, the
 *   commonest first (meanings.ts), and the server accepts what it accepts;
 * - a union branch is chosen by what the request can fill, among the
 *   branches it is shown;
 * - a tool with no published parameters gets what it dares to guess from the
 *   words of the tool's description (`guessRate`).
 * Rates and their sources are in knobs.ts.
 */
import { atTemperature, type Knobs } from './knobs.js';
import { isMeaning, neighbours, optionFor, PERSON_MEANINGS, PHRASINGS, TENSE_MEANINGS, type Meaning } from './meanings.js';
import { CONCEPTS, intentList, intentValue, isConjugation, meaningOfKey } from './intent.js';
import type { Lessons } from './model-reading.js';
import type { Intent, JsonSchema, SeenTool, ToolIntent, TutorRequest } from './types.js';

export type ModelDecision = { kind: 'call'; args: Record<string, unknown> } | { kind: 'no-call'; reason: string };

interface Context {
  intent: Intent | ToolIntent;
  lessons: Lessons;
  knobs: Knobs;
  rng: () => number;
}

type Written = { ok: true; value: unknown } | { ok: false; reason: string };

const isObject = (v: unknown): v is JsonSchema => v !== null && typeof v === 'object' && !Array.isArray(v);

/** True with the knob's chance at this temperature. */
function chance(rate: number, ctx: Context): boolean {
  return ctx.rng() < atTemperature(rate, ctx.knobs.temperature);
}

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
    const dares = words.has(concept.toLowerCase()) && chance(ctx.knobs.guessRate, ctx);
    if (!told && !dares) continue;
    const list = intentList(ctx.intent, concept);
    if (list) {
      args[concept] = list;
      continue;
    }
    const written = writeScalar({}, concept, concept, ctx);
    if (!written.ok && told) return { kind: 'no-call', reason: written.reason };
    if (written.ok && written.value !== undefined) args[concept] = written.value;
    // Told it is needed, with nothing to say: the shortest value, as for a required string.
    else if (told && !isConjugation(ctx.intent)) args[concept] = '';
  }
  return { kind: 'call', args };
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

/**
 * A union: the branch the intent fills best, among those the model sees, and
 * not one an error said was the wrong shape. Ties go to the first.
 */
function writeBranch(branches: unknown[], concept: string | undefined, path: string, ctx: Context): Written {
  const tried = ctx.lessons.wrongShape.get(path) ?? new Set<number>();
  let best: { score: number; index: number } | undefined;
  branches.forEach((branch, index) => {
    if (tried.has(index)) return;
    const score = fit(branch, concept, ctx.intent);
    if (score > 0 && (!best || score > best.score)) best = { score, index };
  });
  if (!best) return { ok: false, reason: `none of the ${branches.length} forms of ${path || 'the arguments'} can say this request` };
  ctx.lessons.lastBranch.set(path, best.index);
  return writeValue(branches[best.index], concept, path, ctx);
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
      const c = meaningOfKey(key, intent);
      const value = c === undefined ? undefined : intentValue(intent, c);
      const fillable = value !== undefined && isObject(sub) && accepts(sub, value);
      if (fillable) score++;
      else if (required.includes(key)) return 0;
    }
    return score;
  }
  if (branch.type === 'null') return 0;
  return concept !== undefined ? 0.5 : 0;
}

/** Whether a scalar schema can hold a value of the request (an enum that cannot say it cannot). */
function accepts(schema: JsonSchema, value: string): boolean {
  if (Array.isArray(schema.enum)) {
    const options = schema.enum.map(String);
    return isMeaning(value) ? optionFor(value, options) !== undefined : options.includes(value);
  }
  return schema.type === undefined || schema.type === 'string';
}

function writeObject(schema: JsonSchema, path: string, ctx: Context): Written {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(properties)) {
    const keyPath = path ? `${path}.${key}` : key;
    if (ctx.lessons.mustDrop.has(keyPath)) continue;
    const concept = meaningOfKey(key, ctx.intent);
    const told = ctx.lessons.mustWrite.has(keyPath);
    const isRequired = required.includes(key);
    const known = concept !== undefined && (intentValue(ctx.intent, concept) !== undefined || intentList(ctx.intent, concept) !== undefined);
    // The keys a model leaves out: rarely a required one, sometimes a stated
    // optional one, usually an optional one the request says nothing about.
    // A key an error asked for is always written.
    if (!told) {
      const drop = isRequired ? ctx.knobs.dropRequired : known ? ctx.knobs.dropStatedOptional : ctx.knobs.dropUnstatedOptional;
      if (chance(drop, ctx) || (!isRequired && !known && ctx.knobs.temperature === 0)) continue;
    }
    const written = writeValue(sub, concept, keyPath, ctx);
    if (written.ok) {
      if (written.value !== undefined) out[key] = written.value;
      // A required key the request says nothing about: the shortest value of its type
      // (past: "" for "conjugate eat", as a schema that wants every key asks). For a
      // conjugation, a key only an error asked for is left out: the model has nothing to say there.
      else if (isObject(sub) && (isRequired || (told && !isConjugation(ctx.intent)))) {
        if (sub.type === 'array') out[key] = [];
        else if (sub.type === 'string' && !Array.isArray(sub.enum)) out[key] = '';
      }
    } else if (isRequired || told) {
      return written;
    }
  }
  return { ok: true, value: out };
}

/** A draw among words ranked most used first: greedy takes the first, sampling strays down the list. */
function ranked<T>(items: readonly T[], ctx: Context): T | undefined {
  if (items.length <= 1 || ctx.knobs.temperature === 0) return items[0];
  const weights = items.map((_, i) => Math.exp(-i / ctx.knobs.temperature));
  let r = ctx.rng() * weights.reduce((a, b) => a + b, 0);
  for (const [i, w] of weights.entries()) if ((r -= w) < 0) return items[i];
  return items.at(-1);
}

/** A guess at a meaning the request does not state (a required tense for "conjugate eat"): greedy takes the first. */
function guessMeaning(concept: string, ctx: Context): Meaning | undefined {
  const pool: readonly Meaning[] | undefined = concept === 'tense' ? TENSE_MEANINGS : concept === 'person' ? PERSON_MEANINGS : undefined;
  if (!pool) return undefined;
  return ctx.knobs.temperature === 0 ? pool[0] : pool[Math.floor(ctx.rng() * pool.length)];
}

/** A listed option when none is called for (greedy: the first; sampling: any, as BFCL's small models picked Eastern, Western, Northern). */
function anyOption(options: readonly string[], ctx: Context): string | undefined {
  return ctx.knobs.temperature === 0 ? options[0] : options[Math.floor(ctx.rng() * options.length)];
}

/** Words for a meaning, other than `avoid`: what a model writes when it strays. */
function ownWords(meaning: Meaning, avoid: string | undefined, ctx: Context): string {
  const words = PHRASINGS[meaning].filter((p) => p !== avoid);
  return ranked(words, ctx) ?? PHRASINGS[meaning][0]!;
}

function writeScalar(schema: JsonSchema, concept: string | undefined, path: string, ctx: Context): Written {
  if ('const' in schema) return { ok: true, value: schema.const };
  const stated = concept ? intentValue(ctx.intent, concept) : undefined;
  const told = ctx.lessons.allowed.get(path);
  const listed = Array.isArray(schema.enum) ? schema.enum.map(String) : undefined;
  const options = told ?? listed;
  // Told the options by an error: the model keeps to them.
  const strict = told !== undefined || ctx.lessons.keepToSchema.has(path);

  if (!options) {
    // No options shown: a person's words for the meaning, or the word itself.
    if (stated === undefined) {
      const guess = concept ? guessMeaning(concept, ctx) : undefined;
      return { ok: true, value: guess ? ranked(PHRASINGS[guess], ctx) : undefined };
    }
    return { ok: true, value: isMeaning(stated) ? ranked(PHRASINGS[stated], ctx) : stated };
  }

  // A value the request does not state, where options are listed: a guess among them.
  if (stated === undefined) return { ok: true, value: anyOption(options, ctx) };
  const meaning = isMeaning(stated) ? stated : undefined;
  const option = meaning ? optionFor(meaning, options) : options.includes(stated) ? stated : undefined;
  if (option === undefined) {
    // Nothing listed says it. Told the options by an error, the model gives up (the kit's assumption: BFCL has one turn).
    if (strict) return { ok: false, reason: `"${meaning ? PHRASINGS[meaning][0] : stated}" is not among the options of ${path}` };
    // Otherwise, as on BFCL simple_234 (knobs.ts): its own words now and then; else a listed option all the same, or the
    // key left out (never a key an error asked for). No small model gave up there.
    if (chance(ctx.knobs.offList, ctx)) return { ok: true, value: meaning ? ownWords(meaning, undefined, ctx) : stated };
    if (!ctx.lessons.mustWrite.has(path) && chance(ctx.knobs.offListOmit, ctx)) return { ok: true, value: undefined };
    return { ok: true, value: anyOption(options, ctx) };
  }
  if (!strict && meaning) {
    if (chance(ctx.knobs.strayFromEnum, ctx)) return { ok: true, value: ownWords(meaning, option, ctx) };
    if (chance(ctx.knobs.wrongOption, ctx)) {
      const near = neighbours(meaning)
        .map((m) => optionFor(m, options))
        .filter((o): o is string => o !== undefined);
      if (near.length > 0) return { ok: true, value: near[Math.floor(ctx.rng() * near.length)] };
    }
  }
  return { ok: true, value: option };
}
