/**
 * The requests the runner puts to the tutor's agent, and how a workload is
 * drawn from them. The requests themselves are data, written by hand in
 * src/lab/requests/: conjugations (a bank of 60 and a fixed eval of 30),
 * profile edits and lesson requests. Every `expected` there is typed out by
 * hand, never computed by the conjugation engine: test/workload.test.ts
 * cross-checks the two, so a disagreement points at a bug in one of them
 * instead of being copied over.
 *
 * An intent says what the words of a request mean, in the model's own terms
 * (src/lab/meanings.ts), never in the server's strings.
 */
import conjugateRequests from './requests/conjugate.json' with { type: 'json' };
import lessonRequests from './requests/lessons.json' with { type: 'json' };
import profileRequests from './requests/profile.json' with { type: 'json' };
import { isMeaning } from './meanings.js';
import type { LessonRequest, ProfileEdit, TutorRequest } from './types.js';

/** Checks what the JSON says against the types, once, at load: a typo in a request fails loudly. */
function checked<T extends { id: string; intent?: object }>(file: string, items: unknown[], meaningKeys: string[]): T[] {
  return items.map((item) => {
    const request = item as T;
    for (const key of meaningKeys) {
      const value = (request.intent as Record<string, unknown> | undefined)?.[key];
      if (value !== undefined && (typeof value !== 'string' || !isMeaning(value))) throw new Error(`${file}: ${request.id}: intent.${key} ${JSON.stringify(value)} is not a meaning of src/lab/meanings.ts`);
    }
    return request;
  });
}

export const REQUEST_BANK: readonly TutorRequest[] = checked<TutorRequest>('requests/conjugate.json', conjugateRequests.bank, ['tense', 'person']);
export const EVAL_SET: readonly TutorRequest[] = checked<TutorRequest>('requests/conjugate.json', conjugateRequests.evaluation, ['tense', 'person']);
export const PROFILE_EDITS: readonly ProfileEdit[] = profileRequests.edits as ProfileEdit[];
export const LESSON_REQUESTS: readonly LessonRequest[] = checked<LessonRequest>('requests/lessons.json', lessonRequests.requests, ['action']);

// ---------------------------------------------------------------------------
// Seeded randomness
// ---------------------------------------------------------------------------

/** Mulberry32: a small, fast 32-bit PRNG. Returns floats in [0, 1), the same sequence for the same seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One encoder for every hash: the runner hashes a seed for every attempt. */
const UTF8 = new TextEncoder();

/**
 * A stable 32-bit hash of the parts: FNV-1a over the UTF-8 bytes of the parts
 * joined with U+001F (unit separator), so ('a', 'bc') and ('ab', 'c') differ.
 * hashSeed('a') is FNV-1a('a') = 0xe40c292c.
 */
export function hashSeed(...parts: (string | number)[]): number {
  const bytes = UTF8.encode(parts.map(String).join('\u001f'));
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * n requests drawn from a bank with replacement, deterministic for (seed, n),
 * each a copy keeping its id plus "#k": 'b17#0', 'b03#1', ... The generator
 * depends on the seed and the salt only, so a draw of 10 is the first ten
 * items of a draw of 100.
 */
export function drawFrom<T extends { id: string }>(bank: readonly T[], seed: number, n: number, salt: string): T[] {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${n}`);
  const random = mulberry32(hashSeed(salt, seed));
  return Array.from({ length: n }, (_, k) => {
    const item = bank[Math.floor(random() * bank.length)]!;
    return { ...structuredClone(item), id: `${item.id}#${k}` };
  });
}

/** N conjugation requests drawn from the bank (salt 'workload'). */
export function drawWorkload(seed: number, n: number): TutorRequest[] {
  return drawFrom(REQUEST_BANK, seed, n, 'workload');
}
