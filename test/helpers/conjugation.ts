/** Helpers of the conjugation engine's tests (test/conjugation.test.ts, test/conjugation-paradigms.test.ts). */
import type { KnownVerb, Person, Tense } from '../../src/conjugation/engine.js';

/** One hand-typed expected form: a known verb, a tense, a person and what the engine must give. */
export type Row = [verb: KnownVerb, tense: Tense, person: Person, expected: string];
