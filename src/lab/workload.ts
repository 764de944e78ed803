/**
 * The requests the runner puts to the tutor's agent: a bank to draw workloads
 * from, and a fixed eval of 30.
 *
 * Every `expected` below is typed out by hand as a literal string. None is
 * computed by the conjugation engine: the test cross-checks the two, so a
 * disagreement points at a bug in one of them instead of being copied over.
 *
 * Persons follow the pronouns: I = 1st singular, you (one person) = 2nd
 * singular, he/she/it = 3rd singular, we = 1st plural, you all = 2nd plural,
 * they = 3rd plural. `expected` is the verb phrase alone, without the pronoun.
 */
import type { TutorRequest } from './types.js';

// ---------------------------------------------------------------------------
// The bank: 60 requests
//   b01-b33  clear, known verb, verb + tense + person stated      (33, 55%)
//   b34-b51  vague: b34-b49 leave out the tense, the person or both (16),
//            b50-b51 state all three, but loosely ("like, yesterday")   (2)
//   b52-b60  clear, a verb outside the known list, given by its
//            principal parts                                           (9, 15%)
// ---------------------------------------------------------------------------

export const REQUEST_BANK: readonly TutorRequest[] = [
  // --- clear, known verbs ----------------------------------------------------
  {
    id: 'b01',
    prompt: "How do I say 'she has eaten'? I need eat in the present perfect, 3rd person singular.",
    intent: { verb: 'eat', tense: 'present perfect', person: '3rd singular' },
    clarity: 'clear',
    expected: 'has eaten',
  },
  {
    id: 'b02',
    prompt: "Conjugate 'swim' in the past continuous for 'we'.",
    intent: { verb: 'swim', tense: 'past continuous', person: '1st plural' },
    clarity: 'clear',
    expected: 'were swimming',
  },
  {
    id: 'b03',
    prompt: "What's the simple past of 'be' with 'they'?",
    intent: { verb: 'be', tense: 'simple past', person: '3rd plural' },
    clarity: 'clear',
    expected: 'were',
  },
  {
    id: 'b04',
    prompt: "Simple present of 'be' for 'I', please. I keep writing 'I is'.",
    intent: { verb: 'be', tense: 'simple present', person: '1st singular' },
    clarity: 'clear',
    expected: 'am',
  },
  {
    id: 'b05',
    prompt: "Is it 'he have' or 'he has'? Give me 'have' in the simple present for 'he'.",
    intent: { verb: 'have', tense: 'simple present', person: '3rd singular' },
    clarity: 'clear',
    expected: 'has',
  },
  {
    id: 'b06',
    prompt: "I want to say I finished my homework. What is 'do' in the present perfect for 'I'?",
    intent: { verb: 'do', tense: 'present perfect', person: '1st singular' },
    clarity: 'clear',
    expected: 'have done',
  },
  {
    id: 'b07',
    prompt: "Present perfect continuous of 'go', first person singular (I).",
    intent: { verb: 'go', tense: 'present perfect continuous', person: '1st singular' },
    clarity: 'clear',
    expected: 'have been going',
  },
  {
    id: 'b08',
    prompt: "My teacher asked for 'write' in the past perfect, talking to one person: 'you ___ the letter before I arrived'.",
    intent: { verb: 'write', tense: 'past perfect', person: '2nd singular' },
    clarity: 'clear',
    expected: 'had written',
  },
  {
    id: 'b09',
    prompt: "Can you conjugate 'see' in the simple future for 'you all' (plural you)?",
    intent: { verb: 'see', tense: 'simple future', person: '2nd plural' },
    clarity: 'clear',
    expected: 'will see',
  },
  {
    id: 'b10',
    prompt: "Future perfect of 'take' with 'they', please.",
    intent: { verb: 'take', tense: 'future perfect', person: '3rd plural' },
    clarity: 'clear',
    expected: 'will have taken',
  },
  {
    id: 'b11',
    prompt: "He ___ dinner right now. I need 'make' in the present continuous, 3rd person singular.",
    intent: { verb: 'make', tense: 'present continuous', person: '3rd singular' },
    clarity: 'clear',
    expected: 'is making',
  },
  {
    id: 'b12',
    prompt: "What's the simple past of 'read' for 'I'? Does the spelling change?",
    intent: { verb: 'read', tense: 'simple past', person: '1st singular' },
    clarity: 'clear',
    expected: 'read',
  },
  {
    id: 'b13',
    prompt: "Conjugate 'run' in the future continuous, 1st person plural.",
    intent: { verb: 'run', tense: 'future continuous', person: '1st plural' },
    clarity: 'clear',
    expected: 'will be running',
  },
  {
    id: 'b14',
    prompt: "Past perfect continuous of 'work' for 'she'? As in 'she ___ there for ten years before it closed'.",
    intent: { verb: 'work', tense: 'past perfect continuous', person: '3rd singular' },
    clarity: 'clear',
    expected: 'had been working',
  },
  {
    id: 'b15',
    prompt: "The cat ___ with the ball every morning. Simple present of 'play' for 'it'?",
    intent: { verb: 'play', tense: 'simple present', person: '3rd singular' },
    clarity: 'clear',
    expected: 'plays',
  },
  {
    id: 'b16',
    prompt: "How do I spell the simple past of 'study' with 'he'?",
    intent: { verb: 'study', tense: 'simple past', person: '3rd singular' },
    clarity: 'clear',
    expected: 'studied',
  },
  {
    id: 'b17',
    prompt: "Simple past of 'try', 2nd person singular: 'you ___ your best'.",
    intent: { verb: 'try', tense: 'simple past', person: '2nd singular' },
    clarity: 'clear',
    expected: 'tried',
  },
  {
    id: 'b18',
    prompt: "The bus ___ here. Give me 'stop' in the present continuous for 'it'.",
    intent: { verb: 'stop', tense: 'present continuous', person: '3rd singular' },
    clarity: 'clear',
    expected: 'is stopping',
  },
  {
    id: 'b19',
    prompt: "Is it 'planed' or 'planned'? Simple past of 'plan' for 'we'.",
    intent: { verb: 'plan', tense: 'simple past', person: '1st plural' },
    clarity: 'clear',
    expected: 'planned',
  },
  {
    id: 'b20',
    prompt: "My worksheet has a row for 'they'. What goes in the infinitive column for 'love'?",
    intent: { verb: 'love', tense: 'infinitive', person: '3rd plural' },
    clarity: 'clear',
    expected: 'to love',
  },
  {
    id: 'b21',
    prompt: "Future perfect continuous of 'watch' for 'you all'. By nine you all ___ TV for five hours.",
    intent: { verb: 'watch', tense: 'future perfect continuous', person: '2nd plural' },
    clarity: 'clear',
    expected: 'will have been watching',
  },
  {
    id: 'b22',
    prompt: "Conjugate 'fix' in the present perfect with 'they'.",
    intent: { verb: 'fix', tense: 'present perfect', person: '3rd plural' },
    clarity: 'clear',
    expected: 'have fixed',
  },
  {
    id: 'b23',
    prompt: "'visit', past continuous, first person singular. Is there a double t?",
    intent: { verb: 'visit', tense: 'past continuous', person: '1st singular' },
    clarity: 'clear',
    expected: 'was visiting',
  },
  {
    id: 'b24',
    prompt: "What's the present perfect of 'be' for 'she'? Like 'she ___ to Paris twice'.",
    intent: { verb: 'be', tense: 'present perfect', person: '3rd singular' },
    clarity: 'clear',
    expected: 'has been',
  },
  {
    id: 'b25',
    prompt: "Past perfect of 'have' with 'we'. Is 'had had' really correct?",
    intent: { verb: 'have', tense: 'past perfect', person: '1st plural' },
    clarity: 'clear',
    expected: 'had had',
  },
  {
    id: 'b26',
    prompt: "Simple past of 'do', he.",
    intent: { verb: 'do', tense: 'simple past', person: '3rd singular' },
    clarity: 'clear',
    expected: 'did',
  },
  {
    id: 'b27',
    prompt: "When we arrived, they ___ home. I need 'go' in the past perfect, 3rd person plural.",
    intent: { verb: 'go', tense: 'past perfect', person: '3rd plural' },
    clarity: 'clear',
    expected: 'had gone',
  },
  {
    id: 'b28',
    prompt: "Fill in the table: 'eat', infinitive, 1st person plural (we).",
    intent: { verb: 'eat', tense: 'infinitive', person: '1st plural' },
    clarity: 'clear',
    expected: 'to eat',
  },
  {
    id: 'b29',
    prompt: "Does 'watch' take -s or -es in the simple present with 'she'?",
    intent: { verb: 'watch', tense: 'simple present', person: '3rd singular' },
    clarity: 'clear',
    expected: 'watches',
  },
  {
    id: 'b30',
    prompt: "Simple present, 3rd person singular (he) of 'fix'.",
    intent: { verb: 'fix', tense: 'simple present', person: '3rd singular' },
    clarity: 'clear',
    expected: 'fixes',
  },
  {
    id: 'b31',
    prompt: "They ___ all night. Present perfect continuous of 'study' for 'they'.",
    intent: { verb: 'study', tense: 'present perfect continuous', person: '3rd plural' },
    clarity: 'clear',
    expected: 'have been studying',
  },
  {
    id: 'b32',
    prompt: "Conjugate 'try' in the future perfect for 'I'.",
    intent: { verb: 'try', tense: 'future perfect', person: '1st singular' },
    clarity: 'clear',
    expected: 'will have tried',
  },
  {
    id: 'b33',
    prompt: "Was or were? Simple past of 'be' for 'he'.",
    intent: { verb: 'be', tense: 'simple past', person: '3rd singular' },
    clarity: 'clear',
    expected: 'was',
  },

  // --- vague: tense, person or both left out ---------------------------------
  { id: 'b34', prompt: 'conjugate eat for me', intent: { verb: 'eat' }, clarity: 'vague' },
  { id: 'b35', prompt: "how does 'study' go?", intent: { verb: 'study' }, clarity: 'vague' },
  { id: 'b36', prompt: "give me 'run' for he", intent: { verb: 'run', person: '3rd singular' }, clarity: 'vague' },
  { id: 'b37', prompt: "What's the past of 'see'?", intent: { verb: 'see', tense: 'simple past' }, clarity: 'vague' },
  {
    id: 'b38',
    prompt: "can you do 'write' in the future perfect",
    intent: { verb: 'write', tense: 'future perfect' },
    clarity: 'vague',
  },
  {
    id: 'b39',
    prompt: "I always mix up 'be'... what is it with 'we'?",
    intent: { verb: 'be', person: '1st plural' },
    clarity: 'vague',
  },
  { id: 'b40', prompt: "Forms of 'take' please", intent: { verb: 'take' }, clarity: 'vague' },
  { id: 'b41', prompt: "what about 'make' with they?", intent: { verb: 'make', person: '3rd plural' }, clarity: 'vague' },
  { id: 'b42', prompt: "'swim' present perfect?", intent: { verb: 'swim', tense: 'present perfect' }, clarity: 'vague' },
  { id: 'b43', prompt: "help with 'have'", intent: { verb: 'have' }, clarity: 'vague' },
  { id: 'b44', prompt: "'stop' for I", intent: { verb: 'stop', person: '1st singular' }, clarity: 'vague' },
  { id: 'b45', prompt: 'how do you conjugate plan', intent: { verb: 'plan' }, clarity: 'vague' },
  {
    id: 'b46',
    prompt: "Show me 'try' in the present continuous.",
    intent: { verb: 'try', tense: 'present continuous' },
    clarity: 'vague',
  },
  { id: 'b47', prompt: "what's the -ing thing for 'visit'?", intent: { verb: 'visit' }, clarity: 'vague' },
  {
    id: 'b48',
    prompt: "'love' for you all?",
    intent: { verb: 'love', person: '2nd plural' },
    clarity: 'vague',
  },
  {
    id: 'b49',
    prompt: "Do 'read' in the past perfect continuous pls",
    intent: { verb: 'read', tense: 'past perfect continuous' },
    clarity: 'vague',
  },
  // --- vague wording, but verb, tense and person can all be read off it ------
  {
    id: 'b50',
    prompt: "what's 'go' for she, like, yesterday?",
    intent: { verb: 'go', tense: 'simple past', person: '3rd singular' },
    clarity: 'vague',
    expected: 'went',
  },
  {
    id: 'b51',
    prompt: "me + 'work' + this time tomorrow, in the middle of it?",
    intent: { verb: 'work', tense: 'future continuous', person: '1st singular' },
    clarity: 'vague',
    expected: 'will be working',
  },

  // --- clear, verbs outside the known list, given by principal parts ---------
  {
    id: 'b52',
    prompt: "My textbook says 'sew, sewed, sewn'. What is the present perfect of sew for 'she'?",
    intent: { verb: { infinitive: 'sew', past: 'sewed', pastParticiple: 'sewn' }, tense: 'present perfect', person: '3rd singular' },
    clarity: 'clear',
    expected: 'has sewn',
  },
  {
    id: 'b53',
    prompt: "sing, sang, sung: what's the simple past for 'they'?",
    intent: { verb: { infinitive: 'sing', past: 'sang', pastParticiple: 'sung' }, tense: 'simple past', person: '3rd plural' },
    clarity: 'clear',
    expected: 'sang',
  },
  {
    id: 'b54',
    prompt: "The verb is drive (drove, driven). I need the past perfect for 'I'.",
    intent: { verb: { infinitive: 'drive', past: 'drove', pastParticiple: 'driven' }, tense: 'past perfect', person: '1st singular' },
    clarity: 'clear',
    expected: 'had driven',
  },
  {
    id: 'b55',
    prompt: "Principal parts: fly, flew, flown. Future perfect, 1st person plural (we)?",
    intent: { verb: { infinitive: 'fly', past: 'flew', pastParticiple: 'flown' }, tense: 'future perfect', person: '1st plural' },
    clarity: 'clear',
    expected: 'will have flown',
  },
  {
    id: 'b56',
    prompt: "begin / began / begun. Present perfect for 'you', talking to one friend?",
    intent: { verb: { infinitive: 'begin', past: 'began', pastParticiple: 'begun' }, tense: 'present perfect', person: '2nd singular' },
    clarity: 'clear',
    expected: 'have begun',
  },
  {
    id: 'b57',
    prompt: "throw, threw, thrown. He ___ the ball yesterday: simple past for 'he'?",
    intent: { verb: { infinitive: 'throw', past: 'threw', pastParticiple: 'thrown' }, tense: 'simple past', person: '3rd singular' },
    clarity: 'clear',
    expected: 'threw',
  },
  {
    id: 'b58',
    prompt: "My dictionary lists choose, chose, chosen. Present perfect of choose with 'they'?",
    intent: { verb: { infinitive: 'choose', past: 'chose', pastParticiple: 'chosen' }, tense: 'present perfect', person: '3rd plural' },
    clarity: 'clear',
    expected: 'have chosen',
  },
  {
    id: 'b59',
    prompt: "speak - spoke - spoken. Past perfect for 'you all'?",
    intent: { verb: { infinitive: 'speak', past: 'spoke', pastParticiple: 'spoken' }, tense: 'past perfect', person: '2nd plural' },
    clarity: 'clear',
    expected: 'had spoken',
  },
  {
    id: 'b60',
    prompt: "Using sing, sang, sung: future perfect for 'he'. By Friday he ___ in every show.",
    intent: { verb: { infinitive: 'sing', past: 'sang', pastParticiple: 'sung' }, tense: 'future perfect', person: '3rd singular' },
    clarity: 'clear',
    expected: 'will have sung',
  },
];

// ---------------------------------------------------------------------------
// The eval: 30 clear requests, none repeating a bank (verb, tense, person)
//   e01-e24  known verbs (24)
//   e25-e30  verbs outside the known list, by principal parts (6)
// ---------------------------------------------------------------------------

export const EVAL_SET: readonly TutorRequest[] = [
  {
    id: 'e01',
    prompt: "Simple present of 'be' for 'he'.",
    intent: { verb: 'be', tense: 'simple present', person: '3rd singular' },
    clarity: 'clear',
    expected: 'is',
  },
  {
    id: 'e02',
    prompt: "What is 'be' in the simple present for 'you all'?",
    intent: { verb: 'be', tense: 'simple present', person: '2nd plural' },
    clarity: 'clear',
    expected: 'are',
  },
  {
    id: 'e03',
    prompt: "Simple past of 'be' for 'you', one person: 'you ___ late yesterday'.",
    intent: { verb: 'be', tense: 'simple past', person: '2nd singular' },
    clarity: 'clear',
    expected: 'were',
  },
  {
    id: 'e04',
    prompt: "Conjugate 'be' in the simple past, first person singular (I).",
    intent: { verb: 'be', tense: 'simple past', person: '1st singular' },
    clarity: 'clear',
    expected: 'was',
  },
  {
    id: 'e05',
    prompt: "Simple present of 'have' with 'they'.",
    intent: { verb: 'have', tense: 'simple present', person: '3rd plural' },
    clarity: 'clear',
    expected: 'have',
  },
  {
    id: 'e06',
    prompt: "Present perfect of 'have' for 'she', as in 'she ___ a cold all week'.",
    intent: { verb: 'have', tense: 'present perfect', person: '3rd singular' },
    clarity: 'clear',
    expected: 'has had',
  },
  {
    id: 'e07',
    prompt: "Simple present of 'study' for 'she'. Studys or studies?",
    intent: { verb: 'study', tense: 'simple present', person: '3rd singular' },
    clarity: 'clear',
    expected: 'studies',
  },
  {
    id: 'e08',
    prompt: "Give me 'try' in the simple future for 'you all'.",
    intent: { verb: 'try', tense: 'simple future', person: '2nd plural' },
    clarity: 'clear',
    expected: 'will try',
  },
  {
    id: 'e09',
    prompt: "Present continuous of 'run' for 'they'.",
    intent: { verb: 'run', tense: 'present continuous', person: '3rd plural' },
    clarity: 'clear',
    expected: 'are running',
  },
  {
    id: 'e10',
    prompt: "Simple past of 'stop' with 'we'.",
    intent: { verb: 'stop', tense: 'simple past', person: '1st plural' },
    clarity: 'clear',
    expected: 'stopped',
  },
  {
    id: 'e11',
    prompt: "Past perfect of 'plan', 3rd person singular (he).",
    intent: { verb: 'plan', tense: 'past perfect', person: '3rd singular' },
    clarity: 'clear',
    expected: 'had planned',
  },
  {
    id: 'e12',
    prompt: "Present perfect continuous of 'swim' for 'I'.",
    intent: { verb: 'swim', tense: 'present perfect continuous', person: '1st singular' },
    clarity: 'clear',
    expected: 'have been swimming',
  },
  {
    id: 'e13',
    prompt: "The slogan says 'I'm loving it'. What is 'love' in the present continuous for 'I'?",
    intent: { verb: 'love', tense: 'present continuous', person: '1st singular' },
    clarity: 'clear',
    expected: 'am loving',
  },
  {
    id: 'e14',
    prompt: "Past continuous of 'make' for 'you all'.",
    intent: { verb: 'make', tense: 'past continuous', person: '2nd plural' },
    clarity: 'clear',
    expected: 'were making',
  },
  {
    id: 'e15',
    prompt: "Future continuous of 'write' with 'she'.",
    intent: { verb: 'write', tense: 'future continuous', person: '3rd singular' },
    clarity: 'clear',
    expected: 'will be writing',
  },
  {
    id: 'e16',
    prompt: "Simple present of 'do' for 'he'.",
    intent: { verb: 'do', tense: 'simple present', person: '3rd singular' },
    clarity: 'clear',
    expected: 'does',
  },
  {
    id: 'e17',
    prompt: "Simple present of 'go' for 'she': 'she ___ to school by bus'.",
    intent: { verb: 'go', tense: 'simple present', person: '3rd singular' },
    clarity: 'clear',
    expected: 'goes',
  },
  {
    id: 'e18',
    prompt: "Simple past of 'watch' for 'you' (one person).",
    intent: { verb: 'watch', tense: 'simple past', person: '2nd singular' },
    clarity: 'clear',
    expected: 'watched',
  },
  {
    id: 'e19',
    prompt: "Future perfect of 'fix' for 'we'.",
    intent: { verb: 'fix', tense: 'future perfect', person: '1st plural' },
    clarity: 'clear',
    expected: 'will have fixed',
  },
  {
    id: 'e20',
    prompt: "Past perfect continuous of 'visit' for 'I'.",
    intent: { verb: 'visit', tense: 'past perfect continuous', person: '1st singular' },
    clarity: 'clear',
    expected: 'had been visiting',
  },
  {
    id: 'e21',
    prompt: "Present perfect of 'read' with 'he'.",
    intent: { verb: 'read', tense: 'present perfect', person: '3rd singular' },
    clarity: 'clear',
    expected: 'has read',
  },
  {
    id: 'e22',
    prompt: "We ___ our friends tonight. Present continuous of 'see' for 'we'.",
    intent: { verb: 'see', tense: 'present continuous', person: '1st plural' },
    clarity: 'clear',
    expected: 'are seeing',
  },
  {
    id: 'e23',
    prompt: "Worksheet row 'she', infinitive column, verb 'take'.",
    intent: { verb: 'take', tense: 'infinitive', person: '3rd singular' },
    clarity: 'clear',
    expected: 'to take',
  },
  {
    id: 'e24',
    prompt: "Future perfect continuous of 'eat' for 'they'.",
    intent: { verb: 'eat', tense: 'future perfect continuous', person: '3rd plural' },
    clarity: 'clear',
    expected: 'will have been eating',
  },
  {
    id: 'e25',
    prompt: "sew, sewed, sewn. Past perfect for 'they'?",
    intent: { verb: { infinitive: 'sew', past: 'sewed', pastParticiple: 'sewn' }, tense: 'past perfect', person: '3rd plural' },
    clarity: 'clear',
    expected: 'had sewn',
  },
  {
    id: 'e26',
    prompt: "The verb ring goes ring, rang, rung. Present perfect for 'I'?",
    intent: { verb: { infinitive: 'ring', past: 'rang', pastParticiple: 'rung' }, tense: 'present perfect', person: '1st singular' },
    clarity: 'clear',
    expected: 'have rung',
  },
  {
    id: 'e27',
    prompt: "freeze, froze, frozen: simple past for 'she'.",
    intent: { verb: { infinitive: 'freeze', past: 'froze', pastParticiple: 'frozen' }, tense: 'simple past', person: '3rd singular' },
    clarity: 'clear',
    expected: 'froze',
  },
  {
    id: 'e28',
    prompt: "fly / flew / flown. Present perfect for 'it': the bird ___ away.",
    intent: { verb: { infinitive: 'fly', past: 'flew', pastParticiple: 'flown' }, tense: 'present perfect', person: '3rd singular' },
    clarity: 'clear',
    expected: 'has flown',
  },
  {
    id: 'e29',
    prompt: "wear, wore, worn. Future perfect for 'you', one person.",
    intent: { verb: { infinitive: 'wear', past: 'wore', pastParticiple: 'worn' }, tense: 'future perfect', person: '2nd singular' },
    clarity: 'clear',
    expected: 'will have worn',
  },
  {
    id: 'e30',
    prompt: "steal - stole - stolen. Past perfect for 'we'?",
    intent: { verb: { infinitive: 'steal', past: 'stole', pastParticiple: 'stolen' }, tense: 'past perfect', person: '1st plural' },
    clarity: 'clear',
    expected: 'had stolen',
  },
];

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

/**
 * A stable 32-bit hash of the parts: FNV-1a over the UTF-8 bytes of the parts
 * joined with U+001F (unit separator), so ('a', 'bc') and ('ab', 'c') differ.
 * hashSeed('a') is FNV-1a('a') = 0xe40c292c.
 */
export function hashSeed(...parts: (string | number)[]): number {
  const bytes = new TextEncoder().encode(parts.map(String).join('\u001f'));
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * N requests drawn from the bank with replacement, deterministic for (seed, n).
 * Item k (0-based) keeps its bank id with `#k` appended: 'b17#0', 'b03#1', ...
 * The generator depends on the seed only, so drawWorkload(s, 10) is the first
 * ten items of drawWorkload(s, 100).
 */
export function drawWorkload(seed: number, n: number): TutorRequest[] {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${n}`);
  const random = mulberry32(hashSeed('workload', seed));
  const drawn: TutorRequest[] = [];
  for (let k = 0; k < n; k++) {
    const item = REQUEST_BANK[Math.floor(random() * REQUEST_BANK.length)]!;
    const verb = typeof item.intent.verb === 'string' ? item.intent.verb : { ...item.intent.verb };
    drawn.push({ ...item, id: `${item.id}#${k}`, intent: { ...item.intent, verb } });
  }
  return drawn;
}
