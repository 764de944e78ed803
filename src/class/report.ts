/**
 * The class report's numbers, computed from the journals alone: per lab, who
 * ran it and who predicted before running, each question's predictions against
 * what was measured, and what learners wrote they had assumed wrong.
 *
 * Rules (docs/workshop.md, "After the lab: the class report", says the same):
 * - A learner's prediction for a lab is their latest 'prediction' or
 *   'revision' entry before their latest 'run' entry of that lab (journal
 *   order). Learners who predicted but never ran are counted apart.
 * - The measured value of a question comes from the learners' latest runs
 *   (`data.measured`, or the run's comparison rows in older journals). When
 *   the runs disagree (another seed, another workload size) every value is
 *   listed with how many runs gave it, and the most common one is the
 *   reference (on a tie, the one found first, journals sorted by path).
 * - Numeric predictions: count, min, median, max, the distribution and the
 *   median distance to the reference. Label predictions: normalised with the
 *   lab's own `normaliseLabel`, counted, and compared with the reference.
 * - Reflections ("what I assumed wrong"): grouped by the language the learner
 *   wrote in, then by text, ignoring case and runs of white space; each text
 *   counts the learners who wrote it (once each), most frequent first, and is
 *   shown as most of them wrote it (on a tie, in sentence case if one was).
 * - The live view (`live`, what the projector of `class serve` shows): every
 *   learner with a 'prediction' or 'revision' entry for the lab, whether or
 *   not they ran it; their FIRST such entry and their LATEST one (journal
 *   order), each question's answers counted both ways. A learner revised when
 *   they locked more than one (the lab writes every later one as a
 *   'revision', src/learn/flow.ts).
 * - The "why" lines (`reasons`): the reasoning written with each prediction
 *   and revision, grouped exactly like reflections.
 *
 * Everything a learner typed (names, labels, reflections) stays as it was
 * here; the HTML and terminal renderers escape it.
 */
import type { Lab, Lang, Question } from '../learn/catalogue.js';
import { normaliseLabel } from '../learn/catalogue.js';
import { promptOnRun } from '../learn/predictions.js';
import type { JournalEntry } from '../learn/journal.js';
import type { Discovery, ReadJournal } from './discover.js';
import type { ModelRunSummary } from './model-runs.js';

export const CLASS_REPORT_FORMAT = 'schema-breaks/class-report';
/** Bump when a field changes meaning or goes away; adding a field does not. */
export const CLASS_REPORT_VERSION = 1;

export type Value = number | string;

export interface Measured {
  /** The reference: the value most runs measured. */
  value: Value;
  /** Every value measured, with how many learners' latest runs gave it, most common first. */
  values: { value: Value; learners: number }[];
  /** True when the runs did not all measure the same value. */
  differs: boolean;
}

interface QuestionBase {
  id: string;
  prompt: string;
  unit: string | null;
  /** null when nobody has run the lab. */
  measured: Measured | null;
  /** Learners whose counted prediction answers this question. */
  answered: number;
}

export interface NumberQuestionSummary extends QuestionBase {
  kind: 'number';
  /** Every answer, ascending (anonymous). */
  predictions: number[];
  min: number | null;
  median: number | null;
  max: number | null;
  /** Median of (prediction - measured reference); null without predictions or a numeric reference. */
  medianOff: number | null;
  /** How many learners gave each value, ascending by value. */
  distribution: { value: number; learners: number }[];
}

export interface LabelQuestionSummary extends QuestionBase {
  kind: 'label';
  /** Each normalised label typed, with how many learners typed it and whether it is the measured reference; most frequent first. */
  labels: { label: string; learners: number; right: boolean }[];
  /** Learners whose label matches the measured reference. */
  right: number;
}

export type QuestionSummary = NumberQuestionSummary | LabelQuestionSummary;

export interface ReflectionGroup {
  /** 'en', 'es', or 'other' (no or another language recorded). */
  lang: Lang | 'other';
  /** Most frequent first; `text` is the most common way it was written (white space collapsed). */
  lines: { text: string; learners: number }[];
}

/** A tally of one question's answers: how many learners gave each, numbers ascending by value, labels most frequent first. (Not figures.ts's Spread, a figure's mean and range over seeds.) */
export interface Tally {
  answered: number;
  distribution: { value: Value; learners: number }[];
}

/** One locked prediction or revision, its answers read as the report reads them (labels normalised; null when not answered). */
export interface LockedAnswers {
  kind: 'prediction' | 'revision';
  at: string;
  answers: Record<string, Value | null>;
}

export interface LiveLearner {
  /** As the report names the journal (untrusted text). */
  learner: string;
  ran: boolean;
  revised: boolean;
  first: LockedAnswers;
  latest: LockedAnswers;
}

export interface LiveQuestion {
  id: string;
  kind: 'number' | 'label';
  /** Each learner's first prediction. */
  first: Tally;
  /** Each learner's latest prediction or revision. */
  latest: Tally;
}

/** Predictions as they are locked, whether or not the learner ran the lab: what the room sees before the reveal. */
export interface LiveSummary {
  /** Learners with at least one prediction or revision for this lab. */
  predicted: number;
  /** Of those, how many locked more than one (their latest is a revision). */
  revised: number;
  /** In journal order (the journals sorted by path). */
  learners: LiveLearner[];
  questions: LiveQuestion[];
}

export interface LabSummary {
  id: string;
  title: string;
  /** Journals with any entry for this lab. */
  learners: number;
  /** Journals with at least one run of this lab. */
  ran: number;
  /** Of those, how many had predicted before their latest run. */
  predicted: number;
  /** Of those, how many had revised (their counted prediction is a revision). */
  revised: number;
  /** Journals with a prediction but no run of this lab. */
  predictedNotRun: number;
  questions: QuestionSummary[];
  reflections: ReflectionGroup[];
  live: LiveSummary;
  /** The "why" lines written with predictions and revisions, grouped like reflections. */
  reasons: ReflectionGroup[];
}

export interface ClassReport {
  format: typeof CLASS_REPORT_FORMAT;
  version: typeof CLASS_REPORT_VERSION;
  /** The folder searched, as given. */
  folder: string;
  generatedAt: string;
  lang: Lang;
  journals: { learner: string; origin: string; path: string; display: string; entries: number }[];
  unreadable: { learner: string; origin: string; path: string; display: string; reason: string; line: number | null }[];
  duplicateNames: { name: string; journals: string[] }[];
  labs: LabSummary[];
  /** Lab reports of real-model runs saved anywhere in the folder (src/class/model-runs.ts). */
  modelRuns: ModelRunSummary[];
}

const round = (x: number) => Math.round(x * 100) / 100;

export function median(sorted: number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return round(sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2);
}

/** Whitespace collapsed and trimmed; what a reflection line is shown as. */
export function tidyLine(text: string): string {
  return text.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** The key two reflection lines are "the same" by: case and white space ignored. */
export function lineKey(text: string): string {
  return tidyLine(text).toLocaleLowerCase('und');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One answer from a prediction entry, if it has the right type for the question. */
function answerOf(question: Question, entry: JournalEntry): Value | undefined {
  const answers = entry.data.answers;
  if (!isObject(answers)) return undefined;
  const raw = answers[question.id];
  if (question.kind === 'number') return typeof raw === 'number' && Number.isFinite(raw) ? raw : undefined;
  if (typeof raw === 'number' && Number.isFinite(raw)) return normaliseLabel(String(raw)); // a code written as a JSON number
  return typeof raw === 'string' && raw.trim() !== '' ? normaliseLabel(raw) : undefined;
}

/** What a run entry measured for a question, if it recorded it. */
function measuredOf(question: Question, entry: JournalEntry): Value | undefined {
  const valid = (v: unknown): v is Value => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v !== '');
  const measured = entry.data.measured;
  if (isObject(measured) && valid(measured[question.id])) return measured[question.id] as Value;
  const rows = entry.data.comparison;
  if (Array.isArray(rows)) {
    const row = rows.find((r) => isObject(r) && r.question === question.id) as Record<string, unknown> | undefined;
    if (row && valid(row.measured)) return row.measured;
  }
  return undefined;
}

interface LearnerLab {
  journal: ReadJournal;
  latestRun?: JournalEntry;
  counted?: JournalEntry;
  hasPrediction: boolean;
  /** Every 'prediction' and 'revision' entry, in journal order. */
  predictions: JournalEntry[];
  reflections: JournalEntry[];
}

function learnerLab(journal: ReadJournal, labId: string): LearnerLab | undefined {
  const entries = journal.entries.filter((e) => e.lab === labId);
  if (entries.length === 0) return undefined;
  let runAt = -1;
  entries.forEach((e, i) => {
    if (e.kind === 'run') runAt = i;
  });
  const isPrediction = (e: JournalEntry) => e.kind === 'prediction' || e.kind === 'revision';
  const counted = runAt === -1 ? undefined : entries.slice(0, runAt).filter(isPrediction).at(-1);
  return {
    journal,
    latestRun: runAt === -1 ? undefined : entries[runAt],
    counted,
    hasPrediction: entries.some(isPrediction),
    predictions: entries.filter(isPrediction),
    reflections: entries.filter((e) => e.kind === 'reflection' && typeof e.data.text === 'string' && !e.data.hint),
  };
}

function measuredFor(question: Question, runs: JournalEntry[]): Measured | null {
  const counts = new Map<string, { value: Value; learners: number; first: number }>();
  runs.forEach((run, i) => {
    const value = measuredOf(question, run);
    if (value === undefined) return;
    const key = JSON.stringify(question.kind === 'label' && typeof value === 'string' ? normaliseLabel(value) : value);
    const seen = counts.get(key);
    if (seen) seen.learners++;
    else counts.set(key, { value: question.kind === 'label' && typeof value === 'string' ? normaliseLabel(value) : value, learners: 1, first: i });
  });
  if (counts.size === 0) return null;
  const values = [...counts.values()].sort((a, b) => b.learners - a.learners || a.first - b.first);
  return { value: values[0]!.value, values: values.map(({ value, learners }) => ({ value, learners })), differs: values.length > 1 };
}

function summariseQuestion(lab: Lab, question: Question, lang: Lang, counted: JournalEntry[], runs: JournalEntry[]): QuestionSummary {
  const measured = measuredFor(question, runs);
  const base = { id: question.id, prompt: promptOnRun(lab, question, lang), unit: question.unit ?? null, measured };
  const answers = counted.map((e) => answerOf(question, e)).filter((v): v is Value => v !== undefined);
  if (question.kind === 'number') {
    const predictions = (answers as number[]).slice().sort((a, b) => a - b);
    const distribution: NumberQuestionSummary['distribution'] = [];
    for (const value of predictions) {
      const last = distribution.at(-1);
      if (last && last.value === value) last.learners++;
      else distribution.push({ value, learners: 1 });
    }
    const reference = typeof measured?.value === 'number' ? measured.value : undefined;
    return {
      ...base,
      kind: 'number',
      answered: predictions.length,
      predictions,
      min: predictions[0] ?? null,
      median: median(predictions),
      max: predictions.at(-1) ?? null,
      medianOff: reference === undefined ? null : median(predictions.map((p) => round(p - reference)).sort((a, b) => a - b)),
      distribution,
    };
  }
  const reference = typeof measured?.value === 'string' ? measured.value : undefined;
  const counts = new Map<string, number>();
  for (const label of answers as string[]) counts.set(label, (counts.get(label) ?? 0) + 1);
  const labels = [...counts.entries()]
    .map(([label, learners]) => ({ label, learners, right: label === reference }))
    .sort((a, b) => b.learners - a.learners || Number(b.right) - Number(a.right) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  return { ...base, kind: 'label', answered: answers.length, labels, right: labels.find((l) => l.right)?.learners ?? 0 };
}

/** How well a way of writing a line reads as the group's label: sentence case first, then anything but all capitals. */
function readability(text: string): number {
  const first = [...text][0] ?? '';
  const sentence = first !== first.toLocaleLowerCase('und') ? 1 : 0;
  const shouting = text === text.toLocaleUpperCase('und') && text !== text.toLocaleLowerCase('und') ? 1 : 0;
  return sentence * 2 - shouting * 3;
}

/** Lines of text, one list per learner (a reflection's `text`, a prediction's `reasoning`), grouped by language then by line. */
function groupLines(people: JournalEntry[][], field: 'text' | 'reasoning'): ReflectionGroup[] {
  type Group = { learners: number; first: number; spellings: Map<string, number> };
  const groups = new Map<ReflectionGroup['lang'], Map<string, Group>>();
  let order = 0;
  for (const entries of people) {
    const said = new Set<string>();
    for (const entry of entries) {
      const raw = entry.data[field];
      if (typeof raw !== 'string') continue;
      const text = tidyLine(raw);
      if (text === '') continue;
      const lang: ReflectionGroup['lang'] = entry.data.lang === 'en' || entry.data.lang === 'es' ? entry.data.lang : 'other';
      const key = lineKey(text);
      if (said.has(`${lang}\u0000${key}`)) continue; // a learner counts once per line
      said.add(`${lang}\u0000${key}`);
      const group = groups.get(lang) ?? new Map<string, Group>();
      groups.set(lang, group);
      const seen = group.get(key) ?? { learners: 0, first: order++, spellings: new Map<string, number>() };
      group.set(key, seen);
      seen.learners++;
      seen.spellings.set(text, (seen.spellings.get(text) ?? 0) + 1);
    }
  }
  // Shown as the most common way it was written; on a tie, the one that reads best, then the first.
  const label = (g: Group) => [...g.spellings.entries()].sort((a, b) => b[1] - a[1] || readability(b[0]) - readability(a[0]))[0]![0];
  const langOrder: ReflectionGroup['lang'][] = ['en', 'es', 'other'];
  return langOrder
    .filter((lang) => groups.has(lang))
    .map((lang) => ({
      lang,
      lines: [...groups.get(lang)!.values()].sort((a, b) => b.learners - a.learners || a.first - b.first).map((g) => ({ text: label(g), learners: g.learners })),
    }));
}

function lockedAnswers(lab: Lab, entry: JournalEntry): LockedAnswers {
  return {
    kind: entry.kind === 'revision' ? 'revision' : 'prediction',
    at: entry.at,
    answers: Object.fromEntries(lab.questions.map((q) => [q.id, answerOf(q, entry) ?? null])),
  };
}

/** Answers counted: numbers ascending by value, labels most frequent first (on a tie, alphabetical). */
export function tallyOf(kind: Question['kind'], answers: (Value | null)[]): Tally {
  const given = answers.filter((v): v is Value => v !== null);
  const counts = new Map<Value, number>();
  for (const value of given) counts.set(value, (counts.get(value) ?? 0) + 1);
  const distribution = [...counts.entries()].map(([value, learners]) => ({ value, learners }));
  if (kind === 'number') distribution.sort((a, b) => (a.value as number) - (b.value as number));
  else distribution.sort((a, b) => b.learners - a.learners || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return { answered: given.length, distribution };
}

/** A numeric tally's least, median and greatest answer; null with no answers. */
export function tallyNumbers(tally: Tally): { min: number; median: number; max: number } | null {
  const all = tally.distribution.flatMap((d) => new Array<number>(d.learners).fill(d.value as number));
  if (all.length === 0) return null;
  return { min: all[0]!, median: median(all)!, max: all.at(-1)! };
}

/** The questions whose answer changed between a learner's first and latest prediction, each as [question id, first, latest]. */
export function changedAnswers(learner: LiveLearner): [string, Value | null, Value | null][] {
  return Object.keys(learner.latest.answers)
    .filter((id) => learner.first.answers[id] !== learner.latest.answers[id])
    .map((id) => [id, learner.first.answers[id] ?? null, learner.latest.answers[id] ?? null]);
}

function summariseLive(lab: Lab, people: LearnerLab[]): LiveSummary {
  const learners: LiveLearner[] = people
    .filter((p) => p.predictions.length > 0)
    .map((p) => ({
      learner: p.journal.display,
      ran: p.latestRun !== undefined,
      revised: p.predictions.length > 1,
      first: lockedAnswers(lab, p.predictions[0]!),
      latest: lockedAnswers(lab, p.predictions.at(-1)!),
    }));
  return {
    predicted: learners.length,
    revised: learners.filter((l) => l.revised).length,
    learners,
    questions: lab.questions.map((q) => ({
      id: q.id,
      kind: q.kind,
      first: tallyOf(q.kind, learners.map((l) => l.first.answers[q.id] ?? null)),
      latest: tallyOf(q.kind, learners.map((l) => l.latest.answers[q.id] ?? null)),
    })),
  };
}

export function summariseLab(lab: Lab, journals: ReadJournal[], lang: Lang): LabSummary {
  const people = journals.map((j) => learnerLab(j, lab.id)).filter((p): p is LearnerLab => p !== undefined);
  const ran = people.filter((p) => p.latestRun !== undefined);
  const counted = ran.map((p) => p.counted).filter((e): e is JournalEntry => e !== undefined);
  return {
    id: lab.id,
    title: lab.title[lang],
    learners: people.length,
    ran: ran.length,
    predicted: counted.length,
    revised: counted.filter((e) => e.kind === 'revision').length,
    predictedNotRun: people.filter((p) => p.latestRun === undefined && p.hasPrediction).length,
    questions: lab.questions.map((q) => summariseQuestion(lab, q, lang, counted, ran.map((p) => p.latestRun!))),
    reflections: groupLines(people.map((p) => p.reflections), 'text'),
    live: summariseLive(lab, people),
    reasons: groupLines(people.map((p) => p.predictions), 'reasoning'),
  };
}

export function buildClassReport(options: { folder: string; discovery: Discovery; labs: Lab[]; lang: Lang; now?: Date; modelRuns?: ModelRunSummary[] }): ClassReport {
  const { discovery, labs, lang } = options;
  return {
    format: CLASS_REPORT_FORMAT,
    version: CLASS_REPORT_VERSION,
    folder: options.folder,
    generatedAt: (options.now ?? new Date()).toISOString(),
    lang,
    journals: discovery.journals.map(({ learner, origin, path, display, entries }) => ({ learner, origin, path, display, entries: entries.length })),
    unreadable: discovery.unreadable.map(({ learner, origin, path, display, reason, line }) => ({ learner, origin, path, display, reason, line })),
    duplicateNames: discovery.duplicateNames,
    labs: discovery.journals.length === 0 ? [] : labs.map((lab) => summariseLab(lab, discovery.journals, lang)),
    modelRuns: options.modelRuns ?? [],
  };
}
