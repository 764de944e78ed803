/**
 * The learner profile: one read tool and one full-replace update tool.
 *
 * `update_profile` replaces the whole profile, as an HTTP PUT does: the
 * caller sends the full desired state, and a field the call leaves out is
 * cleared. The fields the operation stores are PROFILE_FIELDS (the contract's
 * list, contract/tutor-api.json); the fields a caller can send are the ones
 * the zod declaration below publishes. When the two drift apart, data is lost
 * with success all the way through (the schema-drift lab).
 */
import { z } from 'zod';
import { InvalidArgumentsError } from '../errors.js';
import { defineTool } from '../registry.js';

export const LEVELS = ['A1', 'A2', 'B1', 'B2', 'C1', 'C2'] as const;
export type Level = (typeof LEVELS)[number];

export interface LearnerProfile {
  name: string;
  level: Level | '';
  goals: string[];
  reminder: string;
  nativeLanguage: string;
}

/** Every field the operation stores, and what it holds once cleared. */
export const PROFILE_FIELDS: { [K in keyof LearnerProfile]: LearnerProfile[K] } = {
  name: '',
  level: '',
  goals: [],
  reminder: '',
  nativeLanguage: '',
};

/** The tutor's learners, as each server process starts with them. */
function seedProfiles(): Map<string, LearnerProfile> {
  return new Map([
    ['ana', { name: 'Ana', level: 'B1', goals: ['travel', 'past tenses'], reminder: 'daily 18:00', nativeLanguage: 'Spanish' }],
    ['ben', { name: 'Ben', level: 'A2', goals: ['work emails'], reminder: 'weekdays 08:30', nativeLanguage: 'German' }],
    ['chloe', { name: 'Chloé', level: 'C1', goals: ['exam', 'phrasal verbs'], reminder: 'off', nativeLanguage: 'French' }],
  ]);
}

const profiles = seedProfiles();

function known(learner: string): LearnerProfile {
  const profile = profiles.get(learner);
  if (!profile) throw new InvalidArgumentsError([{ parameter: 'learner', problem: `must be one of ${[...profiles.keys()].map((k) => `"${k}"`).join(', ')} (got ${JSON.stringify(learner)})` }]);
  return profile;
}

const Learner = z.string().describe('The learner\'s id, e.g. "ana".');

export const getProfileTool = defineTool({
  name: 'get_profile',
  title: 'Read a learner profile',
  description: "Reads a learner's profile: name, level, goals, reminder and native language, as JSON.",
  inputSchema: z.strictObject({ learner: Learner }),
  annotations: { readOnlyHint: true },
  execute(args: { learner: string }) {
    return JSON.stringify(known(args.learner));
  },
});

// Every field is required: strict hosts (OpenAI) need every property listed
// in `required`, and a full replace needs every field anyway.
export const UpdateProfileArgs = z.strictObject({
  learner: Learner,
  name: z.string().describe('The name the tutor uses.'),
  level: z.enum(LEVELS).describe('CEFR level.'),
  goals: z.array(z.string()).describe('What the learner wants to work on.'),
  reminder: z.string().describe('When to remind the learner, e.g. "daily 18:00", or "off".'),
  nativeLanguage: z.string().describe("The learner's first language."),
});

export const updateProfileTool = defineTool({
  name: 'update_profile',
  title: 'Replace a learner profile',
  description:
    "Replaces a learner's profile with the one given. Send the full desired state: read the profile first, " +
    'change what you need, and send every field back. A field you leave out is cleared.',
  inputSchema: UpdateProfileArgs,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  // A PUT over the operation's fields: whatever the call does not carry is cleared.
  execute(args: Partial<LearnerProfile> & { learner: string }) {
    known(args.learner);
    const next = Object.fromEntries(
      Object.entries(PROFILE_FIELDS).map(([field, empty]) => [field, (args as Record<string, unknown>)[field] ?? empty]),
    ) as unknown as LearnerProfile;
    profiles.set(args.learner, next);
    return `Replaced the profile of ${args.learner}: ${JSON.stringify(next)}`;
  },
});
