/**
 * The vocabulary the runner's parts share. Nothing here knows what a variant
 * is supposed to do: the runner sees what a client sees (the published
 * schema, results, errors) and the user's request.
 */
import type { PersonMeaning, TenseMeaning } from './meanings.js';

/** A verb given in full, as a learner's dictionary lists it: "sew, sewed, sewn". */
export interface VerbParts {
  infinitive: string;
  past: string;
  pastParticiple: string;
}

/**
 * What the user of the tutor asked for, in meanings (src/lab/meanings.ts),
 * not in any tool's words. A field is missing when the prompt does not say it
 * ("conjugate eat for me" says no tense and no person). `verb` is the word
 * the user wrote ("eat"), or its principal parts for a verb given in full.
 */
export interface Intent {
  verb: string | VerbParts;
  tense?: TenseMeaning;
  person?: PersonMeaning;
}

/**
 * The intent of a request for another tool: the values the user's words give,
 * keyed by the parameter name a model would match them to (learner, level,
 * goals, action, lessonId, ...).
 */
export type ToolIntent = Record<string, string | string[]>;

/** One request from the bank: the words, what they mean, and the answer a tutor must give. */
export interface TutorRequest {
  id: string;
  prompt: string;
  intent: Intent;
  /** "vague" prompts leave things unsaid or say them loosely; a sampling model skips more there. */
  clarity: 'clear' | 'vague';
  /** Written by hand, only when the prompt states verb, tense and person. Never computed by the engine. */
  expected?: string;
}

/** A JSON Schema object, as it travels on the wire. */
export type JsonSchema = Record<string, unknown>;

/** A tool as a model is shown it by its host: possibly degraded from what the server published. */
export interface SeenTool {
  name: string;
  description?: string;
  inputSchema: JsonSchema;
}

/**
 * How one attempt ended, as a label:
 * ok, isError, rpc:<code> (e.g. rpc:-32603), client-rejected (the host refused
 * the tool list before anything ran), client-invalid (the host's own check of
 * the model's arguments failed; nothing was sent), no-call (the model made no
 * call: the request cannot be said with the schema it sees), timeout,
 * server-exit.
 */
export type OutcomeLabel = string;

/** "Set Ana's level to B2": read the profile, change one field, write it back. */
export interface ProfileEdit {
  id: string;
  kind: 'profile-edit';
  prompt: string;
  learner: string;
  field: string;
  value: string | string[];
  /** An edit with an expected outcome: every other field kept. */
  expected?: undefined;
}

/** "List my B1 lessons", "Delete lesson L3". */
export interface LessonRequest {
  id: string;
  kind: 'lessons';
  prompt: string;
  intent: ToolIntent;
  /** A change to the tutor's data (create, delete): what read-only mode must refuse. */
  mutation: boolean;
  /** Written by hand: the tool's answer a correct call gives. */
  expected?: string;
}
