import { describe, expect, it } from 'vitest';
import {
  KNOWN_VERBS,
  PERSONS,
  TENSES,
  conjugate,
  conjugateKnown,
  presentParticiple,
  principalPartsOf,
  regularPast,
  thirdPersonSingular,
  type KnownVerb,
  type Person,
  type PrincipalParts,
  type Tense,
} from '../src/conjugation/engine.js';
import type { Row } from './helpers/conjugation.js';

// Every expected form below is typed out by hand. None is derived from the engine.
// This file: the other 18 known verbs, principal parts, the spelling helpers, verbs given by their principal
// parts and every combination. The complete paradigms of be, have, do and study are in
// test/conjugation-paradigms.test.ts.

/**
 * The other 18 known verbs, at least five tenses each: infinitive, simple present
 * 3rd singular, simple past, present perfect and a continuous tense.
 */
const OTHER_VERBS: Row[] = [
  // go (irregular; consonant + o takes -es)
  ['go', 'infinitive', '1st singular', 'to go'],
  ['go', 'simple present', '3rd singular', 'goes'],
  ['go', 'simple past', '1st plural', 'went'],
  ['go', 'present perfect', '3rd singular', 'has gone'],
  ['go', 'present continuous', '3rd singular', 'is going'],

  // eat (irregular)
  ['eat', 'infinitive', '3rd plural', 'to eat'],
  ['eat', 'simple present', '3rd singular', 'eats'],
  ['eat', 'simple present', '1st singular', 'eat'],
  ['eat', 'simple past', '3rd singular', 'ate'],
  ['eat', 'present perfect', '1st singular', 'have eaten'],
  ['eat', 'present perfect', '3rd singular', 'has eaten'],
  ['eat', 'present continuous', '1st singular', 'am eating'],
  ['eat', 'present continuous', '3rd singular', 'is eating'],
  ['eat', 'present continuous', '2nd plural', 'are eating'],
  ['eat', 'present perfect continuous', '3rd singular', 'has been eating'],
  ['eat', 'past continuous', '1st singular', 'was eating'],
  ['eat', 'past continuous', '1st plural', 'were eating'],
  ['eat', 'past perfect', '2nd singular', 'had eaten'],
  ['eat', 'past perfect continuous', '3rd plural', 'had been eating'],
  ['eat', 'simple future', '3rd singular', 'will eat'],
  ['eat', 'future continuous', '1st plural', 'will be eating'],
  ['eat', 'future perfect', '2nd plural', 'will have eaten'],
  ['eat', 'future perfect continuous', '1st singular', 'will have been eating'],

  // write (irregular; silent e dropped before -ing)
  ['write', 'infinitive', '2nd singular', 'to write'],
  ['write', 'simple present', '3rd singular', 'writes'],
  ['write', 'simple past', '2nd plural', 'wrote'],
  ['write', 'present perfect', '3rd singular', 'has written'],
  ['write', 'past continuous', '3rd singular', 'was writing'],

  // see (irregular; the e of -ee is kept before -ing)
  ['see', 'infinitive', '1st plural', 'to see'],
  ['see', 'simple present', '3rd singular', 'sees'],
  ['see', 'simple past', '1st singular', 'saw'],
  ['see', 'present perfect', '2nd singular', 'have seen'],
  ['see', 'present continuous', '1st plural', 'are seeing'],

  // take (irregular; silent e dropped)
  ['take', 'infinitive', '3rd singular', 'to take'],
  ['take', 'simple present', '3rd singular', 'takes'],
  ['take', 'simple past', '3rd plural', 'took'],
  ['take', 'present perfect', '3rd singular', 'has taken'],
  ['take', 'past continuous', '2nd singular', 'were taking'],

  // make (irregular; silent e dropped)
  ['make', 'infinitive', '1st singular', 'to make'],
  ['make', 'simple present', '3rd singular', 'makes'],
  ['make', 'simple past', '2nd singular', 'made'],
  ['make', 'present perfect', '1st plural', 'have made'],
  ['make', 'future continuous', '3rd singular', 'will be making'],

  // read (irregular; past spelled like the infinitive)
  ['read', 'infinitive', '2nd plural', 'to read'],
  ['read', 'simple present', '3rd singular', 'reads'],
  ['read', 'simple past', '3rd singular', 'read'],
  ['read', 'present perfect', '3rd singular', 'has read'],
  ['read', 'past perfect continuous', '1st singular', 'had been reading'],

  // run (irregular; one syllable, final consonant doubled)
  ['run', 'infinitive', '1st singular', 'to run'],
  ['run', 'simple present', '3rd singular', 'runs'],
  ['run', 'simple past', '1st singular', 'ran'],
  ['run', 'present perfect', '3rd singular', 'has run'],
  ['run', 'present continuous', '3rd singular', 'is running'],

  // swim (irregular; one syllable, final consonant doubled)
  ['swim', 'infinitive', '1st singular', 'to swim'],
  ['swim', 'simple present', '3rd singular', 'swims'],
  ['swim', 'simple past', '3rd singular', 'swam'],
  ['swim', 'present perfect', '1st singular', 'have swum'],
  ['swim', 'past continuous', '3rd plural', 'were swimming'],

  // work (regular, plain -ed)
  ['work', 'infinitive', '1st singular', 'to work'],
  ['work', 'simple present', '3rd singular', 'works'],
  ['work', 'simple past', '1st singular', 'worked'],
  ['work', 'present perfect', '3rd singular', 'has worked'],
  ['work', 'present perfect continuous', '3rd singular', 'has been working'],

  // play (regular; vowel + y keeps the y)
  ['play', 'infinitive', '1st singular', 'to play'],
  ['play', 'simple present', '3rd singular', 'plays'],
  ['play', 'simple past', '3rd plural', 'played'],
  ['play', 'present perfect', '1st plural', 'have played'],
  ['play', 'present continuous', '3rd plural', 'are playing'],

  // try (regular; consonant + y)
  ['try', 'infinitive', '1st singular', 'to try'],
  ['try', 'simple present', '3rd singular', 'tries'],
  ['try', 'simple past', '1st singular', 'tried'],
  ['try', 'present perfect', '3rd singular', 'has tried'],
  ['try', 'present continuous', '1st singular', 'am trying'],

  // stop (regular; one syllable, final consonant doubled)
  ['stop', 'infinitive', '1st singular', 'to stop'],
  ['stop', 'simple present', '3rd singular', 'stops'],
  ['stop', 'simple past', '3rd singular', 'stopped'],
  ['stop', 'present perfect', '3rd singular', 'has stopped'],
  ['stop', 'past continuous', '1st singular', 'was stopping'],

  // plan (regular; one syllable, final consonant doubled)
  ['plan', 'infinitive', '1st singular', 'to plan'],
  ['plan', 'simple present', '3rd singular', 'plans'],
  ['plan', 'simple past', '1st plural', 'planned'],
  ['plan', 'present perfect', '2nd plural', 'have planned'],
  ['plan', 'present continuous', '1st plural', 'are planning'],
  ['plan', 'future perfect continuous', '3rd singular', 'will have been planning'],

  // love (regular; final e takes -d, silent e dropped before -ing)
  ['love', 'infinitive', '1st singular', 'to love'],
  ['love', 'simple present', '3rd singular', 'loves'],
  ['love', 'simple past', '1st singular', 'loved'],
  ['love', 'present perfect', '3rd singular', 'has loved'],
  ['love', 'present continuous', '3rd singular', 'is loving'],

  // watch (regular; -ch takes -es)
  ['watch', 'infinitive', '1st singular', 'to watch'],
  ['watch', 'simple present', '3rd singular', 'watches'],
  ['watch', 'simple past', '2nd singular', 'watched'],
  ['watch', 'present perfect', '1st singular', 'have watched'],
  ['watch', 'past continuous', '2nd plural', 'were watching'],

  // fix (regular; -x takes -es and is never doubled)
  ['fix', 'infinitive', '1st singular', 'to fix'],
  ['fix', 'simple present', '3rd singular', 'fixes'],
  ['fix', 'simple past', '3rd singular', 'fixed'],
  ['fix', 'present perfect', '3rd singular', 'has fixed'],
  ['fix', 'present continuous', '3rd singular', 'is fixing'],

  // visit (regular; two syllables stressed on the first: no doubling)
  ['visit', 'infinitive', '1st singular', 'to visit'],
  ['visit', 'simple present', '3rd singular', 'visits'],
  ['visit', 'simple past', '1st plural', 'visited'],
  ['visit', 'present perfect', '3rd singular', 'has visited'],
  ['visit', 'future continuous', '1st plural', 'will be visiting'],
];

describe('conjugateKnown: the other known verbs', () => {
  it.each(OTHER_VERBS)('%s, %s, %s -> %s', (verb, tense, person, expected) => {
    expect(conjugateKnown(verb, tense, person)).toBe(expected);
  });
});

describe('principalPartsOf', () => {
  const rows: [KnownVerb, string, string][] = [
    ['be', 'was/were', 'been'],
    ['have', 'had', 'had'],
    ['do', 'did', 'done'],
    ['go', 'went', 'gone'],
    ['eat', 'ate', 'eaten'],
    ['write', 'wrote', 'written'],
    ['see', 'saw', 'seen'],
    ['take', 'took', 'taken'],
    ['make', 'made', 'made'],
    ['read', 'read', 'read'],
    ['run', 'ran', 'run'],
    ['swim', 'swam', 'swum'],
    ['work', 'worked', 'worked'],
    ['play', 'played', 'played'],
    ['study', 'studied', 'studied'],
    ['try', 'tried', 'tried'],
    ['stop', 'stopped', 'stopped'],
    ['plan', 'planned', 'planned'],
    ['love', 'loved', 'loved'],
    ['watch', 'watched', 'watched'],
    ['fix', 'fixed', 'fixed'],
    ['visit', 'visited', 'visited'],
  ];
  it.each(rows)('%s / %s / %s', (verb, past, pastParticiple) => {
    expect(principalPartsOf(verb)).toEqual({ infinitive: verb, past, pastParticiple });
  });
});

describe('spelling helpers', () => {
  it.each([
    ['eat', 'eats'],
    ['study', 'studies'], // consonant + y -> ies
    ['try', 'tries'],
    ['play', 'plays'], // vowel + y -> s
    ['watch', 'watches'], // hissing sounds -> es
    ['fix', 'fixes'],
    ['wash', 'washes'],
    ['kiss', 'kisses'],
    ['buzz', 'buzzes'],
    ['go', 'goes'], // consonant + o -> es
    ['do', 'does'],
    ['echo', 'echoes'],
    ['have', 'has'], // irregular
    ['be', 'is'], // irregular
    ['mow', 'mows'],
  ])('thirdPersonSingular(%s) = %s', (infinitive, expected) => {
    expect(thirdPersonSingular(infinitive)).toBe(expected);
  });

  it.each([
    ['eat', 'eating'],
    ['work', 'working'],
    ['love', 'loving'], // silent e dropped
    ['make', 'making'],
    ['write', 'writing'],
    ['take', 'taking'],
    ['have', 'having'],
    ['argue', 'arguing'],
    ['be', 'being'], // e is the only vowel: kept
    ['see', 'seeing'], // -ee: kept
    ['agree', 'agreeing'],
    ['dye', 'dyeing'], // -ye: kept (dying is from die)
    ['hoe', 'hoeing'], // -oe: kept
    ['run', 'running'], // one syllable, CVC: doubled
    ['swim', 'swimming'],
    ['stop', 'stopping'],
    ['plan', 'planning'],
    ['quit', 'quitting'], // qu counts as a consonant
    ['fix', 'fixing'], // x, w, y never doubled
    ['mow', 'mowing'],
    ['play', 'playing'],
    ['visit', 'visiting'], // stressed on the first syllable: not doubled
    ['lie', 'lying'], // -ie -> -ying
    ['die', 'dying'],
    ['study', 'studying'], // y kept
    ['try', 'trying'],
  ])('presentParticiple(%s) = %s', (infinitive, expected) => {
    expect(presentParticiple(infinitive)).toBe(expected);
  });

  it.each([
    ['study', 'studied'], // consonant + y -> ied
    ['try', 'tried'],
    ['play', 'played'], // vowel + y -> yed
    ['stay', 'stayed'],
    ['love', 'loved'], // final e -> d
    ['hope', 'hoped'],
    ['agree', 'agreed'],
    ['die', 'died'],
    ['stop', 'stopped'], // one syllable, CVC: doubled
    ['plan', 'planned'],
    ['hop', 'hopped'],
    ['work', 'worked'], // plain -ed
    ['watch', 'watched'],
    ['fix', 'fixed'],
    ['mow', 'mowed'],
    ['visit', 'visited'],
  ])('regularPast(%s) = %s', (infinitive, expected) => {
    expect(regularPast(infinitive)).toBe(expected);
  });
});

describe('conjugate: verbs given by their principal parts', () => {
  const sew: PrincipalParts = { infinitive: 'sew', past: 'sewed', pastParticiple: 'sewn' };
  const mow: PrincipalParts = { infinitive: 'mow', past: 'mowed', pastParticiple: 'mowed' };
  // Two syllables stressed on the last: spelling alone can't tell, the doubled past does.
  const admit: PrincipalParts = { infinitive: 'admit', past: 'admitted', pastParticiple: 'admitted' };
  const picnic: PrincipalParts = { infinitive: 'picnic', past: 'picnicked', pastParticiple: 'picnicked' };
  // be is recognised by its infinitive, whatever past it is given.
  const be: PrincipalParts = { infinitive: 'be', past: 'was', pastParticiple: 'been' };

  const rows: [PrincipalParts, Tense, Person, string][] = [
    [sew, 'infinitive', '1st singular', 'to sew'],
    [sew, 'simple present', '3rd singular', 'sews'],
    [sew, 'simple past', '1st singular', 'sewed'],
    [sew, 'present perfect', '3rd singular', 'has sewn'],
    [sew, 'present continuous', '1st singular', 'am sewing'],
    [sew, 'past perfect', '3rd plural', 'had sewn'],
    [sew, 'future perfect continuous', '2nd singular', 'will have been sewing'],
    [mow, 'infinitive', '3rd plural', 'to mow'],
    [mow, 'simple present', '3rd singular', 'mows'],
    [mow, 'simple past', '2nd plural', 'mowed'],
    [mow, 'present perfect', '1st plural', 'have mowed'],
    [mow, 'present continuous', '3rd plural', 'are mowing'],
    [mow, 'past continuous', '3rd singular', 'was mowing'],
    [admit, 'simple present', '3rd singular', 'admits'],
    [admit, 'present continuous', '3rd singular', 'is admitting'],
    [picnic, 'past continuous', '1st plural', 'were picnicking'],
    [be, 'simple past', '2nd plural', 'were'],
    [be, 'simple present', '1st singular', 'am'],
  ];
  it.each(rows)('%o, %s, %s -> %s', (parts, tense, person, expected) => {
    expect(conjugate(parts, tense, person)).toBe(expected);
  });
});

describe('every combination', () => {
  it('conjugates all 22 x 13 x 6 combinations to a clean string', () => {
    let count = 0;
    for (const verb of KNOWN_VERBS) {
      for (const tense of TENSES) {
        for (const person of PERSONS) {
          const result = conjugate(principalPartsOf(verb), tense, person);
          expect(typeof result).toBe('string');
          expect(result).not.toContain('undefined');
          expect(result).toMatch(/^[a-z]+( [a-z]+)*$/); // non-empty, single spaces
          expect(conjugateKnown(verb, tense, person)).toBe(result);
          count++;
        }
      }
    }
    expect(count).toBe(22 * 13 * 6);
  });
});
