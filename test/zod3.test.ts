/**
 * src/minimcp/zod3.ts writes, from zod 4's issues, the message zod 3 gives for
 * the same failure. The reference is the real zod 3 package (`zod3` =
 * zod@3.25.76), each schema written twice, once per zod, on the shapes the
 * kit's tools and breaks use: enums, a union of objects, a discriminated
 * union, a superRefine, arrays, literals, nested strict objects.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';
import { zod3Message } from '../src/minimcp/zod3.js';

const ByName4 = z.strictObject({ name: z.string() });
const ByParts4 = z.strictObject({ infinitive: z.string(), past: z.string(), pastParticiple: z.string() });
const ByName3 = z3.object({ name: z3.string() }).strict();
const ByParts3 = z3.object({ infinitive: z3.string(), past: z3.string(), pastParticiple: z3.string() }).strict();

const pairs: { name: string; v4: z.ZodType; v3: z3.ZodTypeAny; inputs: unknown[] }[] = [
  {
    name: 'enums, as conjugate declares them',
    v4: z.object({ tense: z.enum(['simple past', 'present perfect']), person: z.enum(['1st singular', '3rd singular']) }),
    v3: z3.object({ tense: z3.enum(['simple past', 'present perfect']), person: z3.enum(['1st singular', '3rd singular']) }),
    inputs: [{}, { tense: 'past' }, { tense: 3, person: null }, { tense: 'simple past', person: ['x'] }, undefined],
  },
  {
    name: 'a union of two strict objects (structural-anyof)',
    v4: z.object({ verb: z.union([ByName4, ByParts4]) }),
    v3: z3.object({ verb: z3.union([ByName3, ByParts3]) }),
    inputs: [{}, { verb: 'eat' }, { verb: { infinitive: 'sew', past: 'sewed' } }, { verb: { name: 'eat', extra: 1 } }, { verb: {} }],
  },
  {
    name: 'a discriminated union (discriminated-union)',
    v4: z.object({ verb: z.discriminatedUnion('kind', [ByName4.extend({ kind: z.literal('name') }), ByParts4.extend({ kind: z.literal('parts') })]) }),
    v3: z3.object({ verb: z3.discriminatedUnion('kind', [ByName3.extend({ kind: z3.literal('name') }), ByParts3.extend({ kind: z3.literal('parts') })]) }),
    inputs: [{ verb: { name: 'eat' } }, { verb: { kind: 'parts', infinitive: 'sew', past: 'sewed' } }, { verb: { kind: 'name' } }, { verb: 'eat' }],
  },
  {
    name: 'optional fields with a superRefine (the union labs\' fix)',
    v4: z.object({ verb: z.string(), past: z.string().optional() }).superRefine((a, ctx) => {
      if (a.past === undefined) ctx.addIssue({ code: 'custom', path: ['past'], message: 'is required for a verb the tutor does not know' });
    }),
    v3: z3.object({ verb: z3.string(), past: z3.string().optional() }).superRefine((a, ctx) => {
      if (a.past === undefined) ctx.addIssue({ code: 'custom', path: ['past'], message: 'is required for a verb the tutor does not know' });
    }),
    inputs: [{ verb: 'sew' }, { verb: 1 }, { verb: 'sew', past: null }],
  },
  {
    name: 'arrays and literals (update_profile, lessons)',
    v4: z.object({ goals: z.array(z.string()), kind: z.literal('name'), n: z.number() }),
    v3: z3.object({ goals: z3.array(z3.string()), kind: z3.literal('name'), n: z3.number() }),
    inputs: [{ goals: ['a', 2], kind: 'parts', n: '1' }, { goals: 'a' }, { goals: [], kind: 'name', n: Number.NaN }],
  },
  {
    name: 'a nested strict object',
    v4: z.object({ verb: z.strictObject({ name: z.string() }) }),
    v3: z3.object({ verb: z3.object({ name: z3.string() }).strict() }),
    inputs: [{ verb: { name: 'eat', past: 'ate', x: 1 } }, { verb: { past: 'ate' } }],
  },
];

describe.each(pairs)('$name', ({ v4, v3, inputs }) => {
  it.each(inputs.map((input) => [JSON.stringify(input) ?? 'undefined', input]))('%s', (_label, input) => {
    const real = v3.safeParse(input);
    const mine = v4.safeParse(input);
    expect(mine.success).toBe(real.success);
    if (!real.success) expect(zod3Message(mine.error, input)).toBe(real.error.message);
  });
});
