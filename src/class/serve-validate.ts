/**
 * What the class server accepts from a learner's laptop: JSON Schemas built
 * from the catalogue (ajv) for the requests and each entry, then the kit's
 * own checks of what a learner types (issue 35, D6): an outcome label the
 * kit refuses ("isEror") or a measured value outside its question's range is
 * refused here as the lab command refuses it (src/learn/predictions.ts
 * parseAnswer, over the catalogue's questions), not by a second copy of the
 * labels or the ranges. And a body nested deeper than any the kit writes is
 * refused before anything walks it recursively (D5: 5,000 levels overflowed
 * the stack while serialising, a 500).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { LANGS, type Lab, type Lang } from '../learn/catalogue.js';
import { DEVICE_PATTERN, LIMITS, SECRET_PATTERN, SENT_KINDS, type EntriesRequest, type JoinRequest, type RevealRequest } from '../learn/class-wire.js';
import { ID_PATTERN, type JournalEntry } from '../learn/journal.js';
import { parseAnswer } from '../learn/predictions.js';

/**
 * Levels of nesting a request may have: the kit's deepest (a run entry's
 * figures: request, entries, entry, data, figures, run, outcomes, a count)
 * is 8; 32 leaves room and stays far from any stack's limit.
 */
export const MAX_DEPTH = 32;

/** How deeply a parsed JSON value nests, counted without recursion (so a hostile depth cannot overflow the stack), stopping past `limit`. */
export function depthOf(value: unknown, limit = MAX_DEPTH): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(node)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * The kit's own checks of an entry's answers and measured values, after its
 * schema: undefined, or why not. A prediction's or revision's answers, and a
 * run's measured values, are each read as the lab command reads a typed
 * answer (parseAnswer: a known outcome label, a number within the
 * question's range).
 */
export function kitProblem(lab: Lab, entry: JournalEntry, lang: Lang): string | undefined {
  const values = entry.kind === 'prediction' || entry.kind === 'revision' ? ['answers', entry.data.answers] : entry.kind === 'run' ? ['measured', entry.data.measured] : undefined;
  if (!values || values[1] === null || typeof values[1] !== 'object') return undefined;
  for (const [id, value] of Object.entries(values[1] as Record<string, unknown>)) {
    const question = lab.questions.find((q) => q.id === id);
    if (!question || value === null) continue;
    // A number question takes a number and a label question a label: "12" is not a measured figure.
    const typed = question.kind === 'number' ? (typeof value === 'number' ? String(value) : undefined) : typeof value === 'string' ? value : undefined;
    const parsed = typed === undefined ? { error: question.kind === 'number' ? 'must be a number' : 'must be an outcome label' } : parseAnswer(question, typed, lang);
    if ('error' in parsed) return `data/${values[0]}/${id}: ${parsed.error}`;
  }
  return undefined;
}

/** A refusal: the status and the one line the client reads. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const ISO_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$';

function dataSchema(lab: Lab, kind: (typeof SENT_KINDS)[number]): object {
  const lang = { enum: [...LANGS] };
  const text = { type: 'string', maxLength: LIMITS.textChars };
  const ids = lab.questions.map((q) => q.id);
  if (kind === 'prediction' || kind === 'revision') {
    const answers = Object.fromEntries(
      lab.questions.map((q) => [q.id, q.kind === 'number' ? { type: ['number', 'null'], ...(q.min !== undefined ? { minimum: q.min } : {}), ...(q.max !== undefined ? { maximum: q.max } : {}) } : { type: ['string', 'null'], maxLength: 64 }]),
    );
    return { type: 'object', required: ['answers'], properties: { answers: { type: 'object', additionalProperties: false, properties: answers }, reasoning: text, lang, runs: { type: 'array', maxItems: 20 } } };
  }
  if (kind === 'reflection') return { type: 'object', required: ['text'], properties: { text, lang } };
  const measuredValue = { type: ['number', 'string', 'null'], maxLength: 64 };
  return {
    type: 'object',
    properties: {
      lang,
      measured: { type: 'object', additionalProperties: false, properties: Object.fromEntries(ids.map((id) => [id, measuredValue])) },
      comparison: { type: 'array', maxItems: ids.length, items: { type: 'object', required: ['question'], properties: { question: { enum: ids } } } },
    },
  };
}

export interface Validators {
  join: ValidateFunction<JoinRequest>;
  entries: ValidateFunction<EntriesRequest>;
  reveal: ValidateFunction<RevealRequest>;
  entry: ValidateFunction<JournalEntry>;
  /** By "<lab>/<kind>". */
  data: Map<string, ValidateFunction>;
}

export function buildValidators(labs: readonly Lab[]): Validators {
  const ajv = new Ajv({ allowUnionTypes: true });
  const labIds = labs.map((l) => l.id);
  const who = {
    code: { type: 'string', maxLength: 64 },
    learner: { type: 'string', maxLength: 200 },
    device: { type: 'string', pattern: DEVICE_PATTERN.source },
    secret: { type: 'string', pattern: SECRET_PATTERN.source },
  };
  const entry = {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'kind', 'lab', 'at', 'data'],
    properties: {
      id: { type: 'string', pattern: ID_PATTERN.source },
      kind: { enum: [...SENT_KINDS] },
      lab: { enum: labIds },
      at: { type: 'string', pattern: ISO_TIME },
      data: { type: 'object' },
    },
  };
  const data = new Map<string, ValidateFunction>();
  for (const lab of labs) for (const kind of SENT_KINDS) data.set(`${lab.id}/${kind}`, ajv.compile(dataSchema(lab, kind)));
  return {
    join: ajv.compile<JoinRequest>({ type: 'object', additionalProperties: false, required: ['code', 'learner', 'device'], properties: who }),
    entries: ajv.compile<EntriesRequest>({
      type: 'object',
      additionalProperties: false,
      required: ['code', 'learner', 'device', 'secret', 'entries'],
      // Each entry is checked on its own (`entry`), so that a refusal names the entry by its number and id.
      properties: { ...who, entries: { type: 'array', minItems: 1, maxItems: LIMITS.entriesPerRequest, items: { type: 'object' } } },
    }),
    entry: ajv.compile<JournalEntry>(entry),
    reveal: ajv.compile<RevealRequest>({ type: 'object', additionalProperties: false, required: ['lab', 'revealed'], properties: { lab: { enum: labIds }, revealed: { type: 'boolean' } } }),
    data,
  };
}

/** ajv's first error as words: "/entries/2/lab must be equal to one of the allowed values (…)". */
export function why(errors: ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  if (!e) return 'invalid';
  const allowed = e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')})` : '';
  const extra = e.keyword === 'additionalProperties' ? `: ${(e.params as { additionalProperty: string }).additionalProperty}` : '';
  return `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${allowed}${extra}`;
}

