/**
 * Predictions: asked before the run (numbers first, then one line of
 * reasoning: a guess made after seeing options teaches less, so outcome labels
 * are typed, not picked), or read from a file when there is no terminal; and,
 * after the run, put next to what was measured.
 */
import { readFileSync } from 'node:fs';
import { input } from './prompts.js';
import { OUTCOMES } from '../lab/outcomes.js';
import { isOutcomeLabel, measureAcross, normaliseLabel, questionRun, unitWord, type Lab, type Lang, type LabResults, type Measured, type Question } from './catalogue.js';
import { formatNumber, t } from '../core/messages/index.js';
import { runInWords } from './reference.js';
import { UserError } from '../core/user-error.js';
import { forUser } from '../core/cwd.js';
import { LIMITS } from './class-wire.js';

export interface Prediction {
  /** By question id; null when the learner gave no answer. */
  answers: Record<string, number | string | null>;
  reasoning: string;
}

export class PredictionFileError extends UserError {}

/** Checks one typed answer; returns the value, or an error message for the prompt. */
export function parseAnswer(question: Question, typed: string, lang: Lang): { value: number | string | null } | { error: string } {
  const text = typed.trim();
  if (text === '') return { value: null };
  if (question.kind === 'label') {
    const label = normaliseLabel(text);
    // A typo ("isEror") is refused, not saved as a prediction nobody can match.
    if (!isOutcomeLabel(label)) return { error: t('learn.notALabel', lang, { typed: text, labels: [...Object.keys(OUTCOMES), '-32602', '-32603'].join(', ') }) };
    return { value: label };
  }
  const value = Number(text.replace(',', '.').replace(/%$/, ''));
  const min = question.min ?? Number.NEGATIVE_INFINITY;
  const max = question.max ?? Number.POSITIVE_INFINITY;
  if (!Number.isFinite(value) || value < min || value > max) return { error: t('learn.numberRange', lang, { min, max }) };
  return { value };
}

/**
 * A question as the learner reads it: the prompt, its unit, and the run that
 * answers it in words ("on the low-level server, shown as published"): a
 * question is always about one configuration.
 */
export function questionMessage(lab: Lab, question: Question, lang: Lang): string {
  const unit = question.unit ? ` [${unitWord(question.unit, lang)}]` : '';
  return `${question.prompt[lang]}${unit}${onRun(lab, question, lang)} ${t('learn.skip', lang)}`;
}

/** " (on the low-level server, shown as published)": the run a question is scored on, in words. */
function onRun(lab: Lab, question: Question, lang: Lang): string {
  const run = questionRun(lab, question);
  return run ? ` (${runInWords(run, lang)})` : '';
}

/** A question's prompt with its run in words: what every page that lists the questions shows (a prompt alone may say "And here"). */
export function promptOnRun(lab: Lab, question: Question, lang: Lang): string {
  return `${question.prompt[lang]}${onRun(lab, question, lang)}`;
}

/**
 * The order the questions are asked in: the numbers first, then the outcome
 * labels, each in the catalogue's order (a label is typed, not picked, and
 * asked last: a guess made after seeing options teaches less). The terminal
 * and the printed handout (src/class/handout.ts) both ask in this order.
 */
export function askingOrder<Q extends Pick<Question, 'kind'>>(questions: readonly Q[]): Q[] {
  return [...questions].sort((a, b) => Number(a.kind !== 'number') - Number(b.kind !== 'number'));
}

/** Asks the lab's questions in the terminal, then one line of why for them all. A Ctrl+C rejects with inquirer's ExitPromptError. */
export async function askPredictions(lab: Lab, lang: Lang): Promise<Prediction> {
  const answers: Prediction['answers'] = {};
  for (const question of askingOrder(lab.questions)) {
    const typed = await input({
      message: questionMessage(lab, question, lang),
      validate: (text) => {
        const parsed = parseAnswer(question, text, lang);
        return 'error' in parsed ? parsed.error : true;
      },
    });
    const parsed = parseAnswer(question, typed, lang);
    answers[question.id] = 'value' in parsed ? parsed.value : null;
  }
  const reasoning = await input({ message: `${t('learn.reasoning', lang)} ${t('learn.skip', lang)}`, validate: (typed) => tooLong(typed, lang) ?? true });
  return { answers, reasoning: reasoning.trim() };
}

/** Answers from a JSON file: {"answers": {"<question id>": value, ...}, "reasoning": "..."}. */
export function readPredictionFile(path: string, lab: Lab, lang: Lang): Prediction {
  // Named as the learner would type it from where they are (src/core/cwd.ts).
  const file = forUser(path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new PredictionFileError(`cannot read predictions from ${file}: ${(error as Error).message.replaceAll(path, file)}`);
  }
  const body = parsed as { answers?: Record<string, unknown>; reasoning?: unknown };
  if (!body || typeof body !== 'object' || typeof body.answers !== 'object' || body.answers === null) {
    throw new PredictionFileError(`${file} needs an "answers" object keyed by question id (${lab.questions.map((q) => q.id).join(', ')})`);
  }
  const answers: Prediction['answers'] = {};
  for (const key of Object.keys(body.answers)) {
    if (!lab.questions.some((q) => q.id === key)) throw new PredictionFileError(`${file}: "${key}" is not a question of ${lab.id}; its questions are ${lab.questions.map((q) => q.id).join(', ')}`);
  }
  for (const question of lab.questions) {
    const raw = body.answers[question.id];
    if (raw === undefined || raw === null) {
      answers[question.id] = null;
      continue;
    }
    const parsedAnswer = parseAnswer(question, String(raw), lang);
    if ('error' in parsedAnswer) throw new PredictionFileError(`${file}: ${question.id} must be ${parsedAnswer.error}`);
    answers[question.id] = parsedAnswer.value;
  }
  const reasoning = typeof body.reasoning === 'string' ? body.reasoning.trim() : '';
  const long = tooLong(reasoning, lang);
  if (long) throw new PredictionFileError(`${file}: "reasoning": ${long}`);
  return { answers, reasoning };
}

/**
 * A text a learner writes (a reasoning, a reflection) past the class's bound
 * (LIMITS.textChars, src/learn/class-wire.ts): refused as it is typed, since
 * a live class refuses the entry, and an entry it refuses would wait in the
 * learner's queue for ever.
 */
export function tooLong(text: string, lang: Lang): string | undefined {
  const count = [...text.trim()].length;
  return count > LIMITS.textChars ? t('learn.textTooLong', lang, { max: LIMITS.textChars, count }) : undefined;
}

export interface ComparisonRow {
  question: string;
  predicted: number | string | null;
  /** Over the lab's seeds: the mean for a number, the most common label. */
  measured: number | string;
  /** Numbers: the least and the most one seed gave. */
  range?: [number, number];
  /** How many seeds the measurement is over. */
  seeds: number;
  /** Signed distance for numbers (predicted - measured mean); for labels, whether they match. */
  off: number | boolean | null;
  /** Numbers: whether the prediction falls inside the seeds' range. */
  withinRange?: boolean;
}

/** Each question's prediction next to its measurement over the lab's seeds (one LabResults per seed). */
export function compare(lab: Lab, prediction: Prediction | undefined, perSeed: LabResults[]): ComparisonRow[] {
  return lab.questions.map((question) => {
    const m: Measured = measureAcross(question.figure, perSeed);
    const predicted = prediction?.answers[question.id] ?? null;
    const row: ComparisonRow = { question: question.id, predicted, measured: m.value, seeds: perSeed.length, off: null };
    if (m.min !== undefined && m.max !== undefined) row.range = [m.min, m.max];
    if (predicted !== null) {
      if (typeof m.value === 'number' && typeof predicted === 'number') {
        row.off = Math.round((predicted - m.value) * 100) / 100;
        if (row.range) row.withinRange = predicted >= row.range[0] && predicted <= row.range[1];
      } else row.off = predicted === m.value;
    }
    return row;
  });
}

/**
 * The table after a lab's run. `predicted: false` (a run with --no-predict)
 * leaves out the columns a prediction fills: a column of "(no answer)" would
 * read as answers skipped, not as none asked.
 */
export function renderComparison(lab: Lab, rows: ComparisonRow[], lang: Lang, { predicted: asked = true }: { predicted?: boolean } = {}): string {
  const seeds = rows[0]?.seeds ?? 1;
  const lines = [t(asked ? 'learn.compareTitle' : 'learn.measuredTitle', lang), seeds > 1 ? t('learn.compareSeeds', lang, { count: seeds }) : '', ''];
  const cells = rows.map((row) => {
    const off =
      row.off === null ? '' : typeof row.off === 'boolean' ? (row.off ? t('common.right', lang) : t('common.wrong', lang)) : row.off === 0 ? '0' : `${row.off > 0 ? '+' : ''}${formatNumber(row.off, lang)}`;
    const predicted = row.predicted === null ? t('common.noAnswer', lang) : typeof row.predicted === 'number' ? formatNumber(row.predicted, lang) : row.predicted;
    const measured = typeof row.measured === 'number' ? formatNumber(row.measured, lang) : row.measured;
    const range = row.range ? (row.range[0] === row.range[1] ? '' : `${formatNumber(row.range[0], lang)}–${formatNumber(row.range[1], lang)}`) : '';
    // Only where there is a range to be inside or outside of.
    const inside = row.withinRange === undefined || range === '' ? '' : ` ${t(row.withinRange ? 'learn.inRange' : 'learn.outOfRange', lang)}`;
    return { cells: [row.question, predicted, measured, range, off], inside };
  });
  const header = [t('common.question', lang), t('common.predicted', lang), t('common.measured', lang), t('learn.range', lang), t('common.offBy', lang)];
  // Without predictions: the question, what was measured and its range (columns 0, 2, 3).
  const kept = asked ? [0, 1, 2, 3, 4] : [0, 2, 3];
  const pick = (c: string[]) => kept.map((i) => c[i]!);
  // Each column as wide as its widest cell in this language ("(sin respuesta)" is wider than "(no answer)"), two spaces apart.
  const widths = pick(header).map((h, i) => Math.max(h.length, ...cells.map((c) => pick(c.cells)[i]!.length)) + 2);
  const line = (c: string[]) => c.map((text, i) => (i === 0 ? text.padEnd(widths[i]!) : text.padStart(widths[i]!))).join('');
  lines.push(line(pick(header)));
  for (const c of cells) lines.push(`${line(pick(c.cells))}${asked ? c.inside : ''}`);
  for (const question of lab.questions) lines.push(`  ${question.id}: ${promptOnRun(lab, question, lang)}`);
  return lines.join('\n');
}
