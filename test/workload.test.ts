import { describe, expect, it } from 'vitest';
import {
  KNOWN_VERBS,
  PERSONS,
  TENSES,
  conjugate,
  principalPartsOf,
  regularPast,
  type KnownVerb,
  type Person,
  type PrincipalParts,
  type Tense,
} from '../src/conjugation/engine.js';
import type { TutorRequest } from '../src/lab/types.js';
import { EVAL_SET, REQUEST_BANK, drawWorkload, hashSeed, mulberry32 } from '../src/lab/workload.js';

const ALL = [...REQUEST_BANK, ...EVAL_SET];

/**
 * The requests' meanings (Leipzig abbreviations, src/lab/meanings.ts) as the
 * engine spells them: written out here by hand, apart from both, so that the
 * answers can be checked against the engine without the model reading the
 * engine's strings.
 */
const ENGINE_TENSE: Record<string, Tense> = {
  inf: 'infinitive', prs: 'simple present', 'prs.prog': 'present continuous', 'prs.prf': 'present perfect', 'prs.prf.prog': 'present perfect continuous',
  pst: 'simple past', 'pst.prog': 'past continuous', 'pst.prf': 'past perfect', 'pst.prf.prog': 'past perfect continuous',
  fut: 'simple future', 'fut.prog': 'future continuous', 'fut.prf': 'future perfect', 'fut.prf.prog': 'future perfect continuous',
};
const ENGINE_PERSON: Record<string, Person> = { '1sg': '1st singular', '2sg': '2nd singular', '3sg': '3rd singular', '1pl': '1st plural', '2pl': '2nd plural', '3pl': '3rd plural' };

const isKnown = (verb: string): verb is KnownVerb => (KNOWN_VERBS as readonly string[]).includes(verb);
const verbName = (r: TutorRequest): string => (typeof r.intent.verb === 'string' ? r.intent.verb : r.intent.verb.infinitive);
const partsOf = (r: TutorRequest): PrincipalParts =>
  typeof r.intent.verb === 'string' ? principalPartsOf(r.intent.verb as KnownVerb) : r.intent.verb;
const isComplete = (r: TutorRequest): boolean => r.intent.tense !== undefined && r.intent.person !== undefined;

describe('request bank and eval set', () => {
  it('has unique ids of the expected shape', () => {
    const ids = ALL.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of REQUEST_BANK) expect(r.id).toMatch(/^b\d\d$/);
    for (const r of EVAL_SET) expect(r.id).toMatch(/^e\d\d$/);
    expect(EVAL_SET.map((r) => r.id)).toEqual(Array.from({ length: 30 }, (_, i) => `e${String(i + 1).padStart(2, '0')}`));
  });

  it('the bank has about 60 requests in the planned mix', () => {
    expect(REQUEST_BANK.length).toBe(60);
    const principal = REQUEST_BANK.filter((r) => typeof r.intent.verb !== 'string');
    const vague = REQUEST_BANK.filter((r) => r.clarity === 'vague');
    const clearKnown = REQUEST_BANK.filter((r) => r.clarity === 'clear' && typeof r.intent.verb === 'string');
    expect(clearKnown.length).toBe(33);
    expect(vague.length).toBe(18);
    expect(principal.length).toBe(9);
    expect(principal.every((r) => r.clarity === 'clear')).toBe(true);
  });

  it('the eval has 30 clear items, each with expected; 24 known verbs and 6 by principal parts', () => {
    expect(EVAL_SET.length).toBe(30);
    for (const r of EVAL_SET) {
      expect(r.clarity).toBe('clear');
      expect(isComplete(r)).toBe(true);
      expect(typeof r.expected).toBe('string');
    }
    expect(EVAL_SET.filter((r) => typeof r.intent.verb === 'string').length).toBe(24);
    expect(EVAL_SET.filter((r) => typeof r.intent.verb !== 'string').length).toBe(6);
  });

  it('a bank item has expected exactly when its intent has verb, tense and person', () => {
    for (const r of REQUEST_BANK) {
      expect({ id: r.id, hasExpected: r.expected !== undefined }).toEqual({ id: r.id, hasExpected: isComplete(r) });
    }
    // Clear prompts always state all three.
    for (const r of REQUEST_BANK.filter((x) => x.clarity === 'clear')) expect(isComplete(r), r.id).toBe(true);
    // Most vague prompts leave something out.
    expect(REQUEST_BANK.filter((r) => r.clarity === 'vague' && !isComplete(r)).length).toBe(16);
  });

  it('the bank covers all 22 known verbs and all 13 tenses', () => {
    const withAnswer = REQUEST_BANK.filter((r) => r.expected !== undefined);
    expect(new Set(withAnswer.map(verbName).filter(isKnown))).toEqual(new Set(KNOWN_VERBS));
    expect(new Set(withAnswer.map((r) => ENGINE_TENSE[r.intent.tense!]))).toEqual(new Set(TENSES));
  });

  it('the eval does not repeat a (verb, tense, person) from the bank', () => {
    const key = (r: TutorRequest) => `${verbName(r)}|${r.intent.tense}|${r.intent.person}`;
    const bankKeys = new Set(REQUEST_BANK.filter(isComplete).map(key));
    for (const r of EVAL_SET) expect(bankKeys.has(key(r)), r.id).toBe(false);
  });

  it('intent values are valid', () => {
    for (const r of ALL) {
      const { verb, tense, person } = r.intent;
      if (tense !== undefined) expect(TENSES, r.id).toContain(ENGINE_TENSE[tense]);
      if (person !== undefined) expect(PERSONS, r.id).toContain(ENGINE_PERSON[person]);
      if (typeof verb === 'string') {
        expect(KNOWN_VERBS, r.id).toContain(verb);
      } else {
        expect(Object.keys(verb).sort(), r.id).toEqual(['infinitive', 'past', 'pastParticiple']);
        for (const form of Object.values(verb)) expect(form, r.id).toMatch(/^[a-z]+$/);
        // Outside the known list, and irregular: the -ed rule would give a wrong form.
        expect(isKnown(verb.infinitive), r.id).toBe(false);
        expect(regularPast(verb.infinitive) === verb.past && verb.past === verb.pastParticiple, r.id).toBe(false);
      }
    }
  });

  it('prompts name the verb, and principal-parts prompts give all three parts', () => {
    for (const r of ALL) {
      const prompt = r.prompt.toLowerCase();
      expect(prompt, r.id).toContain(verbName(r));
      if (typeof r.intent.verb !== 'string') {
        for (const form of Object.values(r.intent.verb)) expect(prompt, r.id).toContain(form);
      }
    }
  });

  it('expected answers are a bare verb phrase, without a pronoun', () => {
    for (const r of ALL.filter((x) => x.expected !== undefined)) {
      expect(r.expected, r.id).toMatch(/^[a-z]+( [a-z]+)*$/);
      expect(r.expected, r.id).not.toMatch(/^(i|you|he|she|it|we|they) /);
    }
  });

  // Both sides are written independently: a failure here means one of them is
  // wrong. Look at the English before touching either.
  it('hand-written answers agree with the engine', () => {
    const disagreements: string[] = [];
    for (const r of ALL) {
      if (r.expected === undefined || r.intent.tense === undefined || r.intent.person === undefined) continue;
      const got = conjugate(partsOf(r), ENGINE_TENSE[r.intent.tense]!, ENGINE_PERSON[r.intent.person]!);
      if (got !== r.expected) disagreements.push(`${r.id}: expected '${r.expected}', engine '${got}'`);
    }
    expect(disagreements).toEqual([]);
  });
});

describe('seeded randomness', () => {
  it('hashSeed is FNV-1a: stable, 32-bit, separator-aware', () => {
    expect(hashSeed()).toBe(0x811c9dc5);
    expect(hashSeed('a')).toBe(0xe40c292c);
    expect(hashSeed('workload', 7)).toBe(hashSeed('workload', '7'));
    expect(hashSeed('a', 'bc')).not.toBe(hashSeed('ab', 'c'));
    const h = hashSeed('anything', 123);
    expect(Number.isInteger(h) && h >= 0 && h < 2 ** 32).toBe(true);
  });

  it('mulberry32 is deterministic and stays in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
    expect(new Set(xs).size).toBeGreaterThan(990);
    expect(mulberry32(43)()).not.toBe(xs[0]);
  });
});

describe('drawWorkload', () => {
  it('is deterministic for (seed, n) and has n items', () => {
    const first = drawWorkload(7, 100);
    expect(first).toHaveLength(100);
    expect(drawWorkload(7, 100)).toEqual(first);
    expect(drawWorkload(8, 100).map((r) => r.id)).not.toEqual(first.map((r) => r.id));
    expect(drawWorkload(7, 0)).toEqual([]);
  });

  it('keeps the bank id with a #k position suffix and the bank item unchanged otherwise', () => {
    const bankById = new Map(REQUEST_BANK.map((r) => [r.id, r]));
    const drawn = drawWorkload(7, 100);
    drawn.forEach((r, k) => {
      const match = /^(b\d\d)#(\d+)$/.exec(r.id);
      expect(match, r.id).not.toBeNull();
      expect(Number(match![2])).toBe(k);
      const source = bankById.get(match![1]!);
      expect(source).toBeDefined();
      expect({ ...r, id: source!.id }).toEqual(source);
    });
    // Drawing with replacement from 60: 100 draws must repeat some item.
    expect(new Set(drawn.map((r) => r.id.split('#')[0])).size).toBeLessThan(100);
  });

  it('does not share mutable intent objects with the bank', () => {
    const drawn = drawWorkload(3, 200);
    for (const r of drawn) {
      const source = REQUEST_BANK.find((b) => b.id === r.id.split('#')[0])!;
      expect(r.intent).not.toBe(source.intent);
      if (typeof source.intent.verb !== 'string') expect(r.intent.verb).not.toBe(source.intent.verb);
    }
  });

  it('rejects a bad n', () => {
    expect(() => drawWorkload(1, -1)).toThrow(RangeError);
    expect(() => drawWorkload(1, 2.5)).toThrow(RangeError);
  });
});
