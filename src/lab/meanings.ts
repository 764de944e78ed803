/**
 * What the stand-in model knows of English grammar: the meanings a request
 * can have (a tense, a grammatical person, an action on lessons) and the
 * words people use for each. It is the model's knowledge, not the server's:
 * nothing here comes from the server or the conjugation engine (a dependency
 * rule in .dependency-cruiser.cjs says so), and the server's own strings are
 * only here because they are also words people use.
 *
 * Meanings are named with the Leipzig Glossing Rules' abbreviations (PRS
 * present, PST past, FUT future, PRF perfect, PROG progressive, INF
 * infinitive, SG/PL, 1/2/3): a notation for the meaning, not any tool's
 * spelling of it.
 *
 * The phrasings are the names grammars and teaching sites give (docs/sources.md,
 * "Words for tenses and persons": Cambridge Dictionary grammar, British
 * Council LearnEnglish, Wikipedia "Uses of English verb forms"). Their order,
 * most used first, is the kit's assumption: at temperature 0 the model writes
 * the first, and a sampling model strays further down the list.
 */

export const TENSE_MEANINGS = [
  'inf',
  'prs',
  'prs.prog',
  'prs.prf',
  'prs.prf.prog',
  'pst',
  'pst.prog',
  'pst.prf',
  'pst.prf.prog',
  'fut',
  'fut.prog',
  'fut.prf',
  'fut.prf.prog',
] as const;
export type TenseMeaning = (typeof TENSE_MEANINGS)[number];

export const PERSON_MEANINGS = ['1sg', '2sg', '3sg', '1pl', '2pl', '3pl'] as const;
export type PersonMeaning = (typeof PERSON_MEANINGS)[number];

/** The lessons tool's actions, as a person asks for them. */
export const ACTION_MEANINGS = ['list', 'get', 'create', 'delete'] as const;
export type ActionMeaning = (typeof ACTION_MEANINGS)[number];

export type Meaning = TenseMeaning | PersonMeaning | ActionMeaning;

/** The words people use for each meaning, most used first (the order is an assumption). */
export const PHRASINGS: Record<Meaning, readonly string[]> = {
  inf: ['infinitive', 'to-infinitive', 'base form'],
  prs: ['simple present', 'present simple', 'present tense', 'present'],
  'prs.prog': ['present continuous', 'present progressive'],
  'prs.prf': ['present perfect', 'present perfect simple'],
  'prs.prf.prog': ['present perfect continuous', 'present perfect progressive'],
  pst: ['simple past', 'past simple', 'past tense', 'preterite'],
  'pst.prog': ['past continuous', 'past progressive'],
  'pst.prf': ['past perfect', 'past perfect simple', 'pluperfect'],
  'pst.prf.prog': ['past perfect continuous', 'past perfect progressive'],
  fut: ['simple future', 'future simple', 'future tense', 'will future'],
  'fut.prog': ['future continuous', 'future progressive'],
  'fut.prf': ['future perfect', 'future perfect simple'],
  'fut.prf.prog': ['future perfect continuous', 'future perfect progressive'],
  '1sg': ['first person singular', '1st person singular', 'I', '1st singular', '1sg'],
  '2sg': ['second person singular', '2nd person singular', 'you (singular)', '2nd singular', '2sg'],
  '3sg': ['third person singular', '3rd person singular', 'he/she/it', '3rd singular', '3sg'],
  '1pl': ['first person plural', '1st person plural', 'we', '1st plural', '1pl'],
  '2pl': ['second person plural', '2nd person plural', 'you (plural)', '2nd plural', '2pl'],
  '3pl': ['third person plural', '3rd person plural', 'they', '3rd plural', '3pl'],
  list: ['list', 'show', 'search'],
  get: ['get', 'read', 'open'],
  create: ['create', 'add', 'new'],
  delete: ['delete', 'remove'],
};

/** The concept a meaning belongs to. */
export function conceptOfMeaning(meaning: string): 'tense' | 'person' | 'action' | undefined {
  if ((TENSE_MEANINGS as readonly string[]).includes(meaning)) return 'tense';
  if ((PERSON_MEANINGS as readonly string[]).includes(meaning)) return 'person';
  if ((ACTION_MEANINGS as readonly string[]).includes(meaning)) return 'action';
  return undefined;
}

export function isMeaning(value: string): value is Meaning {
  return Object.hasOwn(PHRASINGS, value);
}

/** How a reader compares words: case, spaces, hyphens and underscores do not matter. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .trim();
}

/**
 * Which of the listed options says this meaning, as a reader of English
 * picks it: an option that is one of the meaning's phrasings. Undefined when
 * none is (the options cannot say it, or say it in words the model does not
 * know).
 */
export function optionFor(meaning: Meaning, options: readonly string[]): string | undefined {
  const words = NORMALISED_PHRASINGS.get(meaning)!;
  return options.find((option) => words.has(normalisedOption(option)));
}

/**
 * An option as a reader compares it, remembered: the model reads a tool's
 * options on every call (a verb enum of some forty words), and the options
 * are the tools' few words. Bounded all the same, for a server that lists
 * new words on every call.
 */
const NORMALISED_OPTIONS = new Map<string, string>();
function normalisedOption(option: string): string {
  let known = NORMALISED_OPTIONS.get(option);
  if (known === undefined) {
    if (NORMALISED_OPTIONS.size >= 10_000) NORMALISED_OPTIONS.clear();
    known = normalise(option);
    NORMALISED_OPTIONS.set(option, known);
  }
  return known;
}

/** Each meaning's phrasings as a reader compares them, made once: the model reads options on every call. */
const NORMALISED_PHRASINGS = new Map((Object.keys(PHRASINGS) as Meaning[]).map((m) => [m, new Set(PHRASINGS[m].map(normalise))]));

/**
 * Meanings a reader mixes up with this one: the same concept, differing in
 * one feature (pst.prf and pst.prf.prog; 3sg and 3pl; prs.prf and pst.prf).
 * What a model picks when it picks the wrong option.
 */
export function neighbours(meaning: Meaning): Meaning[] {
  const concept = conceptOfMeaning(meaning);
  if (concept === 'action' || concept === undefined) return [];
  const pool: readonly Meaning[] = concept === 'tense' ? TENSE_MEANINGS : PERSON_MEANINGS;
  const features = (m: string) => (concept === 'person' ? [m[0]!, m.slice(1)] : m.split('.'));
  const mine = features(meaning);
  return pool.filter((other) => {
    if (other === meaning) return false;
    const theirs = features(other);
    if (concept === 'person') return theirs.filter((f, i) => f === mine[i]).length === 1;
    const shared = theirs.filter((f) => mine.includes(f)).length;
    return Math.abs(theirs.length - mine.length) <= 1 && shared >= Math.min(theirs.length, mine.length) - (theirs.length === mine.length ? 1 : 0) && shared > 0;
  });
}
