/**
 * The `conjugate` tool: what an English grammar tutor's agent calls.
 *
 * Its parameters are declared with zod, the way TypeScript MCP servers are
 * written; registry.ts turns the declaration into the published schema. The
 * breaks in `breaks/` each change a line or two of this file.
 */
import { z } from 'zod';
import { KNOWN_VERBS, PERSONS, TENSES, conjugate, principalPartsOf, type KnownVerb, type Person, type Tense } from '../../conjugation/engine.js';
import { defineTool } from '../registry.js';

// strictObject publishes `additionalProperties: false`: an unknown key is an
// error the model hears about, not something silently dropped.
export const ConjugateArgs = z.strictObject({
  verb: z.enum(KNOWN_VERBS).describe('The verb, in its base form.'),
  tense: z.enum(TENSES).describe('The tense, in plain words, or "infinitive".'),
  person: z.enum(PERSONS).describe('The grammatical person and number.'),
});

/**
 * What the executor reads, declared by hand as ordinary code does. Nothing
 * ties it to the schema above: if the schema stops requiring a key, the
 * compiler will not say a word.
 */
interface ConjugateInput {
  verb: KnownVerb;
  tense: Tense;
  person: Person;
}

export const conjugateTool = defineTool({
  name: 'conjugate',
  title: 'Conjugate an English verb',
  description:
    'Conjugates an English verb for a grammar learner. Give the verb, the tense and the person; ' +
    'the answer is the verb phrase alone, e.g. "has eaten".',
  inputSchema: ConjugateArgs,
  annotations: { readOnlyHint: true },
  // Written the way ordinary code is: it trusts that its arguments were
  // validated at the boundary (registry.ts) and reads them directly.
  execute(args: ConjugateInput) {
    return conjugate(principalPartsOf(args.verb), args.tense, args.person);
  },
});
