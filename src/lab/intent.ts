/**
 * What a request means, as the model reads it: which concept a parameter name
 * stands for, and the value the request gives for it. Shared by the model's
 * writing (model.ts) and reading (model-reading.ts).
 */
import type { Intent, ToolIntent } from './types.js';

/** What a concept of a conjugation request is called in a schema: a model matches parameter names to meaning. */
export type Concept = 'verb' | 'past' | 'pastParticiple' | 'tense' | 'person';
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
export function isConjugation(intent: Intent | ToolIntent): intent is Intent {
  return 'verb' in intent && (typeof intent.verb === 'object' || !Array.isArray(intent.verb));
}

/** The value the request gives for a concept: a word, a meaning, or undefined when the prompt does not say. */
export function intentValue(intent: Intent | ToolIntent, concept: string): string | undefined {
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
export function intentList(intent: Intent | ToolIntent, name: string): string[] | undefined {
  if (isConjugation(intent)) return undefined;
  const value = intent[name];
  return Array.isArray(value) ? value : undefined;
}

/** What a parameter name means: for a conjugation, a known synonym (name -> verb); for other tools' requests, the name itself. */
export function meaningOfKey(name: string, intent: Intent | ToolIntent): string | undefined {
  return isConjugation(intent) ? conceptOf(name) : name;
}


const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

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
