/**
 * Requests for the tutor's other tools, written by hand: profile edits (read,
 * change one field, write the whole profile back) and lesson requests (list,
 * get, create, delete). Expected answers are typed out from the lessons the
 * server starts with (src/minimcp/tools/lessons.ts); the bank only creates
 * C2 lessons and deletes the C1 one, so the lists it expects (A1 to B2) stay
 * true whatever order a workload draws them in.
 */
import type { LessonRequest, ProfileEdit } from './types.js';
import { hashSeed, mulberry32 } from './workload.js';

export const PROFILE_EDITS: readonly ProfileEdit[] = [
  { id: 'p01', kind: 'profile-edit', prompt: "Ana passed her exam: set her level to B2.", learner: 'ana', field: 'level', value: 'B2' },
  { id: 'p02', kind: 'profile-edit', prompt: 'Ben wants his reminders at 7:45 on weekdays now.', learner: 'ben', field: 'reminder', value: 'weekdays 07:45' },
  { id: 'p03', kind: 'profile-edit', prompt: "Change Chloé's goals to exam and idioms.", learner: 'chloe', field: 'goals', value: ['exam', 'idioms'] },
  { id: 'p04', kind: 'profile-edit', prompt: 'Ben moved up: his level is B1.', learner: 'ben', field: 'level', value: 'B1' },
  { id: 'p05', kind: 'profile-edit', prompt: 'Ana would like to be called Anita.', learner: 'ana', field: 'name', value: 'Anita' },
  { id: 'p06', kind: 'profile-edit', prompt: "Chloé's first language is Italian, not French.", learner: 'chloe', field: 'nativeLanguage', value: 'Italian' },
  { id: 'p07', kind: 'profile-edit', prompt: 'Add conditionals to Ben: his goals are work emails and conditionals.', learner: 'ben', field: 'goals', value: ['work emails', 'conditionals'] },
  { id: 'p08', kind: 'profile-edit', prompt: 'Ana wants her reminder at 20:00 every day.', learner: 'ana', field: 'reminder', value: 'daily 20:00' },
  { id: 'p09', kind: 'profile-edit', prompt: 'Chloé is C2 now.', learner: 'chloe', field: 'level', value: 'C2' },
  { id: 'p10', kind: 'profile-edit', prompt: "Ben's name should read Benjamin.", learner: 'ben', field: 'name', value: 'Benjamin' },
];

const A1 = 'L1 Present simple (A1)\nL2 To be: am, is, are (A1)';
const A2 = 'L3 Past simple: regular verbs (A2)\nL4 Irregular past forms (A2)';
const B1 = 'L5 Present perfect (B1)\nL6 Past continuous (B1)';
const B2 = 'L7 Future perfect (B2)';

export const LESSON_REQUESTS: readonly LessonRequest[] = [
  { id: 'l01', kind: 'lessons', prompt: 'Which A1 lessons are there?', intent: { action: 'list', level: 'A1' }, mutation: false, expected: A1 },
  { id: 'l02', kind: 'lessons', prompt: 'List the A2 lessons, please.', intent: { action: 'list', level: 'A2' }, mutation: false, expected: A2 },
  { id: 'l03', kind: 'lessons', prompt: 'Show me the B1 lessons.', intent: { action: 'list', level: 'B1' }, mutation: false, expected: B1 },
  { id: 'l04', kind: 'lessons', prompt: 'What is there for B2?', intent: { action: 'list', level: 'B2' }, mutation: false, expected: B2 },
  { id: 'l05', kind: 'lessons', prompt: 'Open lesson L5.', intent: { action: 'get', lessonId: 'L5' }, mutation: false, expected: '{"id":"L5","title":"Present perfect","level":"B1"}' },
  { id: 'l06', kind: 'lessons', prompt: 'What is lesson L3 about?', intent: { action: 'get', lessonId: 'L3' }, mutation: false, expected: '{"id":"L3","title":"Past simple: regular verbs","level":"A2"}' },
  { id: 'l07', kind: 'lessons', prompt: 'Delete lesson L8, nobody takes it.', intent: { action: 'delete', lessonId: 'L8' }, mutation: true },
  { id: 'l08', kind: 'lessons', prompt: "Create a C2 lesson called 'Inversion after negative adverbials'.", intent: { action: 'create', level: 'C2', title: 'Inversion after negative adverbials' }, mutation: true },
  { id: 'l09', kind: 'lessons', prompt: "Add a C2 lesson: 'Mixed conditionals'.", intent: { action: 'create', level: 'C2', title: 'Mixed conditionals' }, mutation: true },
  { id: 'l10', kind: 'lessons', prompt: 'Remove lesson L8.', intent: { action: 'delete', lessonId: 'L8' }, mutation: true },
  { id: 'l11', kind: 'lessons', prompt: 'List the A1 lessons for a new student.', intent: { action: 'list', level: 'A1' }, mutation: false, expected: A1 },
  { id: 'l12', kind: 'lessons', prompt: 'Which lessons are B1?', intent: { action: 'list', level: 'B1' }, mutation: false, expected: B1 },
];

/** n requests drawn from a bank, seeded, with replacement; each keeps its id plus "#k". */
export function drawFrom<T extends { id: string }>(bank: readonly T[], seed: number, n: number, salt: string): T[] {
  const random = mulberry32(hashSeed(salt, seed));
  return Array.from({ length: n }, (_, k) => {
    const item = bank[Math.floor(random() * bank.length)]!;
    return { ...structuredClone(item), id: `${item.id}#${k}` };
  });
}
