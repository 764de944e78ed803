/**
 * A small English conjugation engine.
 *
 * A verb is described by its three principal parts (eat / ate / eaten). Every tense
 * is then built from those parts, the -ing form and the auxiliaries be, have and will.
 * Only `be` needs special treatment: it is the one verb with separate forms
 * for the persons (am / is / are, was / were).
 *
 * The output is the verb phrase without a pronoun: conjugate(eat, 'present perfect',
 * '3rd singular') is 'has eaten'.
 */

export const KNOWN_VERBS = ['be', 'have', 'do', 'go', 'eat', 'write', 'see', 'take', 'make', 'read', 'run', 'swim', 'work', 'play', 'study', 'try', 'stop', 'plan', 'love', 'watch', 'fix', 'visit'] as const;
export type KnownVerb = (typeof KNOWN_VERBS)[number];

export const TENSES = ['infinitive', 'simple present', 'present continuous', 'present perfect', 'present perfect continuous', 'simple past', 'past continuous', 'past perfect', 'past perfect continuous', 'simple future', 'future continuous', 'future perfect', 'future perfect continuous'] as const;
export type Tense = (typeof TENSES)[number];

export const PERSONS = ['1st singular', '2nd singular', '3rd singular', '1st plural', '2nd plural', '3rd plural'] as const;
export type Person = (typeof PERSONS)[number];

/** The three forms a learner's dictionary gives for a verb. */
export interface PrincipalParts {
  infinitive: string;
  past: string;
  pastParticiple: string;
}

// ---------------------------------------------------------------------------
// Spelling rules
// ---------------------------------------------------------------------------

/**
 * The doubling rule (stop -> stopped, stopping): before a suffix that starts with a
 * vowel, a final consonant is doubled when it follows a single vowel in a stressed
 * syllable. Otherwise "stoping" would read like "stope + ing".
 *
 * Spelling cannot show stress (VISit -> visiting, but adMIT -> admitting), so we
 * double only in one-syllable verbs, whose only syllable is always stressed.
 * Final w, x and y are never doubled: w and y are part of a vowel sound (mow, play)
 * and x already sounds like two consonants, "ks" (fix).
 */
function doublesFinalConsonant(verb: string): boolean {
  const word = verb.replace(/qu/g, 'q'); // the u in "qu" is a consonant sound: quit -> quitting
  const syllables = word.match(/[aeiouy]+/g)?.length ?? 0; // count vowel groups
  return syllables === 1 && /[^aeiou][aeiou][^aeiouwxy]$/.test(word);
}

/** Simple present, 3rd person singular: thirdPersonSingular('study') = 'studies'. */
export function thirdPersonSingular(infinitive: string): string {
  // The only two verbs whose 3rd singular is not spelled by rule (modals aside).
  if (infinitive === 'be') return 'is';
  if (infinitive === 'have') return 'has';
  // Consonant + y: y -> ies (study -> studies). Vowel + y just adds s (play -> plays).
  if (/[^aeiou]y$/.test(infinitive)) return infinitive.slice(0, -1) + 'ies';
  // After a hissing sound, s needs a vowel to be heard: watch -> watches, fix -> fixes.
  if (/(s|x|z|ch|sh)$/.test(infinitive)) return infinitive + 'es';
  // Consonant + o takes -es: go -> goes, do -> does, echo -> echoes.
  if (/[^aeiou]o$/.test(infinitive)) return infinitive + 'es';
  return infinitive + 's';
}

/** The -ing form: presentParticiple('run') = 'running'. */
export function presentParticiple(infinitive: string): string {
  // -ie becomes -y, to avoid "ii": lie -> lying, die -> dying.
  if (infinitive.endsWith('ie')) return infinitive.slice(0, -2) + 'ying';
  // A silent final e is dropped: love -> loving, write -> writing, argue -> arguing.
  // It is kept when it is sounded: in -ee, -oe, -ye (seeing, hoeing, dyeing), and when
  // it is the word's only vowel (be -> being).
  const stem = infinitive.slice(0, -1);
  if (/[^eoy]e$/.test(infinitive) && /[aeiouy]/.test(stem)) return stem + 'ing';
  if (doublesFinalConsonant(infinitive)) return infinitive + infinitive.slice(-1) + 'ing';
  return infinitive + 'ing';
}

/** The -ed form of a regular verb: regularPast('plan') = 'planned'. */
export function regularPast(infinitive: string): string {
  // A final e only needs -d: love -> loved, agree -> agreed, die -> died.
  if (infinitive.endsWith('e')) return infinitive + 'd';
  // Consonant + y: y -> ied (study -> studied). Vowel + y keeps the y (play -> played).
  if (/[^aeiou]y$/.test(infinitive)) return infinitive.slice(0, -1) + 'ied';
  if (doublesFinalConsonant(infinitive)) return infinitive + infinitive.slice(-1) + 'ed';
  return infinitive + 'ed';
}

/**
 * The -ing form used by conjugate(). The past can tell us what spelling cannot:
 * if a regular past adds a consonant before -ed (admit -> admitted, picnic -> picnicked),
 * -ing adds the same one (admitting, picnicking), since both suffixes start with a vowel.
 */
function ingFormOf({ infinitive, past }: PrincipalParts): string {
  const ending = past.startsWith(infinitive) ? past.slice(infinitive.length) : '';
  if (/^[^aeiouy]ed$/.test(ending)) return infinitive + ending.charAt(0) + 'ing';
  return presentParticiple(infinitive);
}

// ---------------------------------------------------------------------------
// Principal parts
// ---------------------------------------------------------------------------

/** Past and past participle of the irregular known verbs, kept by hand. */
const IRREGULAR: Partial<Record<KnownVerb, Omit<PrincipalParts, 'infinitive'>>> = {
  be: { past: 'was/were', pastParticiple: 'been' }, // conjugate() picks was or were by person
  have: { past: 'had', pastParticiple: 'had' },
  do: { past: 'did', pastParticiple: 'done' },
  go: { past: 'went', pastParticiple: 'gone' },
  eat: { past: 'ate', pastParticiple: 'eaten' },
  write: { past: 'wrote', pastParticiple: 'written' },
  see: { past: 'saw', pastParticiple: 'seen' },
  take: { past: 'took', pastParticiple: 'taken' },
  make: { past: 'made', pastParticiple: 'made' },
  read: { past: 'read', pastParticiple: 'read' }, // spelled the same, pronounced "red"
  run: { past: 'ran', pastParticiple: 'run' },
  swim: { past: 'swam', pastParticiple: 'swum' },
};

/** Principal parts of a known verb, from a hand-kept irregular table; regular verbs get -ed by the spelling rules. */
export function principalPartsOf(verb: KnownVerb): PrincipalParts {
  const irregular = IRREGULAR[verb];
  if (irregular) return { infinitive: verb, ...irregular };
  const past = regularPast(verb); // regular verbs: past = past participle = -ed form
  return { infinitive: verb, past, pastParticiple: past };
}

/**
 * Whether a verb is one the table knows. Used by no file of src/ itself: the
 * structural-anyof and discriminated-union breaks and solutions call it (and
 * principalPartsByName) when they let a verb come by name or by its parts.
 */
export function isKnownVerb(name: string): name is KnownVerb {
  return (KNOWN_VERBS as readonly string[]).includes(name);
}

/** Principal parts of a verb by name: a known verb from the table, any other verb by the regular rules. */
export function principalPartsByName(name: string): PrincipalParts {
  if (isKnownVerb(name)) return principalPartsOf(name);
  const past = regularPast(name);
  return { infinitive: name, past, pastParticiple: past };
}

// ---------------------------------------------------------------------------
// Conjugation
// ---------------------------------------------------------------------------

/** Conjugate any verb given its principal parts. `be` is recognised by its infinitive and gets am/is/are, was/were. */
export function conjugate(parts: PrincipalParts, tense: Tense, person: Person): string {
  const { infinitive, past, pastParticiple } = parts;
  const isBe = infinitive === 'be';
  const ing = ingFormOf(parts);

  // The auxiliaries are the only words that change with the person
  // (apart from the -s of the simple present).
  const thirdSingular = person === '3rd singular';
  const am = person === '1st singular' ? 'am' : thirdSingular ? 'is' : 'are';
  const was = person === '1st singular' || thirdSingular ? 'was' : 'were';
  const have = thirdSingular ? 'has' : 'have';

  switch (tense) {
    case 'infinitive':
      return `to ${infinitive}`;
    case 'simple present':
      if (isBe) return am;
      return thirdSingular ? thirdPersonSingular(infinitive) : infinitive;
    case 'present continuous':
      return `${am} ${ing}`;
    case 'present perfect':
      return `${have} ${pastParticiple}`;
    case 'present perfect continuous':
      return `${have} been ${ing}`;
    case 'simple past':
      return isBe ? was : past;
    case 'past continuous':
      return `${was} ${ing}`;
    case 'past perfect':
      return `had ${pastParticiple}`;
    case 'past perfect continuous':
      return `had been ${ing}`;
    case 'simple future':
      return `will ${infinitive}`;
    case 'future continuous':
      return `will be ${ing}`;
    case 'future perfect':
      return `will have ${pastParticiple}`;
    case 'future perfect continuous':
      return `will have been ${ing}`;
    default:
      // Unreachable for typed callers; guards plain-JS callers against a typo.
      throw new Error(`Unknown tense: ${String(tense satisfies never)}`);
  }
}

/** Convenience: conjugate(principalPartsOf(verb), tense, person). */
export function conjugateKnown(verb: KnownVerb, tense: Tense, person: Person): string {
  return conjugate(principalPartsOf(verb), tense, person);
}
