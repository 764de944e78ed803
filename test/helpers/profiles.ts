/**
 * Helpers of the client-profile tests (test/profiles.test.ts, test/profiles-gemini.test.ts): a profile by id,
 * tools as tools/list gives them, what a profile shows or the error it refuses with, and the published schemas
 * they are fed. Every schema here is written out by hand; none is computed by the code under test.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { getProfile, type ClientProfile } from '../../src/lab/profiles/index.js';

export type Json = Record<string, unknown>;
type Published = Pick<Tool, 'name' | 'description' | 'inputSchema'>;

export function profile(id: string): ClientProfile {
  const p = getProfile(id);
  if (!p) throw new Error(`no profile ${id}`);
  return p;
}

/** Tools as tools/list gives them. Some of these schemas do not fit the SDK's Tool type on purpose. */
export function published(...schemas: Json[]): Published[] {
  return schemas.map((inputSchema, i) => ({
    name: i === 0 ? 'conjugate' : `tool${i}`,
    description: 'Conjugates an English verb.',
    inputSchema,
  })) as unknown as Published[];
}

/** The tools a profile shows, or the test fails with the rejection. */
export async function shown(id: string, ...schemas: Json[]): Promise<Json[]> {
  const view = await profile(id).present(published(...schemas));
  if ('rejected' in view) throw new Error(`${id} rejected: ${view.rejected}`);
  return view.tools.map((t) => t.inputSchema);
}

export async function rejection(id: string, ...schemas: Json[]): Promise<string> {
  const view = await profile(id).present(published(...schemas));
  if (!('rejected' in view)) throw new Error(`${id} accepted: ${JSON.stringify(view.tools)}`);
  return view.rejected;
}

// ---------------------------------------------------------------------------
// The published schemas, by hand

/** The kit's baseline shape: a strict object of three string enums. */
export const BASELINE: Json = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    verb: { type: 'string', enum: ['eat', 'go', 'sew'], description: 'The verb, in its base form.' },
    tense: { type: 'string', enum: ['simple past', 'present perfect'] },
    person: { type: 'string', enum: ['1st singular', '3rd singular'] },
  },
  required: ['verb', 'tense', 'person'],
  additionalProperties: false,
};

/** The baseline with `required` removed. */
export const NO_REQUIRED: Json = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    verb: { type: 'string', enum: ['eat', 'go', 'sew'], description: 'The verb, in its base form.' },
    tense: { type: 'string', enum: ['simple past', 'present perfect'] },
    person: { type: 'string', enum: ['1st singular', '3rd singular'] },
  },
  additionalProperties: false,
};

export const NAME_BRANCH: Json = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
  additionalProperties: false,
};
export const PARTS_BRANCH: Json = {
  type: 'object',
  properties: { infinitive: { type: 'string' }, past: { type: 'string' }, pastParticiple: { type: 'string' } },
  required: ['infinitive', 'past', 'pastParticiple'],
  additionalProperties: false,
};

/** A structural union: `verb` is an anyOf of two objects. */
export const ANY_OF_VERB: Json = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    verb: { anyOf: [NAME_BRANCH, PARTS_BRANCH] },
    tense: { type: 'string', enum: ['simple past', 'present perfect'] },
    person: { type: 'string', enum: ['1st singular', '3rd singular'] },
  },
  required: ['verb', 'tense', 'person'],
  additionalProperties: false,
};

/** `verb` is a discriminated union (oneOf, const discriminator), as zod 4.6.7 publishes z.discriminatedUnion. */
export const ONE_OF_VERB: Json = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    verb: {
      oneOf: [
        {
          type: 'object',
          properties: { kind: { type: 'string', const: 'name' }, name: { type: 'string' } },
          required: ['kind', 'name'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { kind: { type: 'string', const: 'parts' }, infinitive: { type: 'string' }, past: { type: 'string' } },
          required: ['kind', 'infinitive', 'past'],
          additionalProperties: false,
        },
      ],
    },
    tense: { type: 'string', enum: ['simple past', 'present perfect'] },
  },
  required: ['verb', 'tense'],
  additionalProperties: false,
};

/** What the SDK publishes for a transformed root: no parameters. */
export const EMPTY: Json = { type: 'object', properties: {} };

/** A union at the root. */
export const ROOT_ANY_OF: Json = {
  type: 'object',
  anyOf: [
    { type: 'object', properties: { verb: { type: 'string' } }, required: ['verb'] },
    { type: 'object', properties: { infinitive: { type: 'string' } }, required: ['infinitive'] },
  ],
};

/** A nullable written as a type list. */
export const TYPE_LIST: Json = {
  type: 'object',
  properties: {
    verb: { type: 'string' },
    note: { type: ['string', 'null'] },
  },
  required: ['verb'],
};

/** Read by hand: the three properties of BASELINE, as every profile that keeps them shows them. */
export const VERB = { type: 'string', enum: ['eat', 'go', 'sew'], description: 'The verb, in its base form.' };
export const TENSE = { type: 'string', enum: ['simple past', 'present perfect'] };
export const PERSON = { type: 'string', enum: ['1st singular', '3rd singular'] };

/** BASELINE without $schema and additionalProperties. */
export const BASELINE_STRIPPED: Json = { type: 'object', properties: { verb: VERB, tense: TENSE, person: PERSON }, required: ['verb', 'tense', 'person'] };
