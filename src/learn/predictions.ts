/**
 * Predictions: asked before the run (numbers first, then one line of
 * reasoning: a guess made after seeing options teaches less, so outcome labels
 * are typed, not picked), or read from a file when there is no terminal; and,
 * after the run, put next to what was measured.
 */
import { readFileSync } from 'node:fs';
import { input } from '@inquirer/prompts';
import { measure, normaliseLabel, type Lab, type Lang, type LabResults, type Question } from './catalogue.js';
import { t } from './i18n.js';

export interface Prediction {
  /** By question id; null when the learner gave no answer. */
  answers: Record<string, number | string | null>;
  reasoning: string;
}

export class PredictionFileError extends Error {}

/** Units as the learner reads them. */
const UNITS: Record<string, Record<Lang, string>> = { points: { en: 'points', es: 'puntos' } };

/** Checks one typed answer; returns the value, or an error message for the prompt. */
export function parseAnswer(question: Question, typed: string, lang: Lang): { value: number | string | null } | { error: string } {
  const text = typed.trim();
  if (text === '') return { value: null };
  if (question.kind === 'label') return { value: normaliseLabel(text) };
  const value = Number(text.replace(',', '.').replace(/%$/, ''));
  const min = question.min ?? Number.NEGATIVE_INFINITY;
  const max = question.max ?? Number.POSITIVE_INFINITY;
  if (!Number.isFinite(value) || value < min || value > max) return { error: t('numberRange', lang, { min, max }) };
  return { value };
}

/** Asks the lab's questions in the terminal. A Ctrl+C rejects with inquirer's ExitPromptError. */
export async function askPredictions(lab: Lab, lang: Lang): Promise<Prediction> {
  const answers: Prediction['answers'] = {};
  const numbersFirst = [...lab.questions].sort((a, b) => Number(a.kind !== 'number') - Number(b.kind !== 'number'));
  for (const question of numbersFirst) {
    const unit = question.unit ? ` [${UNITS[question.unit]?.[lang] ?? question.unit}]` : '';
    const typed = await input({
      message: `${question.prompt[lang]}${unit} ${t('skip', lang)}`,
      validate: (text) => {
        const parsed = parseAnswer(question, text, lang);
        return 'error' in parsed ? parsed.error : true;
      },
    });
    const parsed = parseAnswer(question, typed, lang);
    answers[question.id] = 'value' in parsed ? parsed.value : null;
  }
  const reasoning = await input({ message: `${t('reasoning', lang)} ${t('skip', lang)}` });
  return { answers, reasoning: reasoning.trim() };
}

/** Answers from a JSON file: {"answers": {"<question id>": value, ...}, "reasoning": "..."}. */
export function readPredictionFile(file: string, lab: Lab, lang: Lang): Prediction {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new PredictionFileError(`cannot read predictions from ${file}: ${(error as Error).message}`);
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
  return { answers, reasoning: typeof body.reasoning === 'string' ? body.reasoning.trim() : '' };
}

export interface ComparisonRow {
  question: string;
  predicted: number | string | null;
  measured: number | string;
  /** Signed distance for numbers (predicted - measured); for labels, whether they match. */
  off: number | boolean | null;
}

export function compare(lab: Lab, prediction: Prediction | undefined, results: LabResults): ComparisonRow[] {
  return lab.questions.map((question) => {
    const measured = measure(question.figure, results);
    const predicted = prediction?.answers[question.id] ?? null;
    let off: ComparisonRow['off'] = null;
    if (predicted !== null) off = typeof measured === 'number' && typeof predicted === 'number' ? Math.round((predicted - measured) * 100) / 100 : predicted === measured;
    return { question: question.id, predicted, measured, off };
  });
}

export function renderComparison(lab: Lab, rows: ComparisonRow[], lang: Lang): string {
  const lines = [t('compareTitle', lang), ''];
  const width = Math.max(...lab.questions.map((q) => q.id.length), 8) + 2;
  lines.push(`${t('question', lang).padEnd(width)}${t('predicted', lang).padStart(14)}${t('measured', lang).padStart(14)}${t('off', lang).padStart(12)}`);
  for (const row of rows) {
    const off =
      row.off === null ? '' : typeof row.off === 'boolean' ? (row.off ? t('right', lang) : t('wrong', lang)) : row.off === 0 ? '0' : `${row.off > 0 ? '+' : ''}${row.off}`;
    const predicted = row.predicted === null ? t('unanswered', lang) : String(row.predicted);
    lines.push(`${row.question.padEnd(width)}${predicted.padStart(14)}${String(row.measured).padStart(14)}${off.padStart(12)}`);
  }
  for (const question of lab.questions) lines.push(`  ${question.id}: ${question.prompt[lang]}`);
  return lines.join('\n');
}
