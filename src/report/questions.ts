/**
 * The lab page's questions: each prediction question with what was measured
 * (over the lab's seeds) and every learner's answer, a number on one axis or a
 * label next to the measured one.
 */
import { measureAcross, normaliseLabel, unitWord, type Lab, type LabResults, type Lang, type Question } from '../learn/catalogue.js';
import { promptOnRun } from '../learn/predictions.js';
import { outcomeSwatch } from './colours.js';
import { formatNumber, t } from '../core/messages/index.js';
import { dataTable, figureBlock, PAGE_NUMBERS } from './parts.js';
import { esc, numberLine, safeId } from './svg.js';

/** One learner's answers, as the page shows them. */
export interface PagePrediction {
  /** Whose prediction (untrusted text); "you" when absent and alone. */
  learner?: string;
  /** By question id; null when not answered. */
  answers: Record<string, number | string | null>;
  reasoning?: string;
}


export function whoOf(predictions: PagePrediction[], i: number, lang: Lang): string {
  const name = predictions[i]!.learner?.trim();
  if (name) return name;
  return predictions.length === 1 ? t('page.you', lang) : t('page.learnerN', lang, { n: i + 1 });
}

function withUnit(value: number, question: Question, lang: Lang): string {
  if (question.unit === '%') return `${formatNumber(value, lang, PAGE_NUMBERS)}%`;
  return question.unit ? `${formatNumber(value, lang, PAGE_NUMBERS)} ${unitWord(question.unit, lang)}` : formatNumber(value, lang, PAGE_NUMBERS);
}

function signed(value: number, lang: Lang): string {
  return value === 0 ? '0' : `${value > 0 ? '+' : '−'}${formatNumber(Math.abs(value), lang, PAGE_NUMBERS)}`;
}

export function questionBlock(lab: Lab, question: Question, index: number, perSeed: LabResults[], predictions: PagePrediction[], lang: Lang): string {
  const prompt = promptOnRun(lab, question, lang);
  const id = `q-${index + 1}-${safeId(question.id)}`;
  // Over the lab's seeds: the mean, or the commonest label.
  let measured: number | string | undefined;
  try {
    measured = measureAcross(question.figure, perSeed).value;
  } catch {
    measured = undefined;
  }
  const out: string[] = [`<section class="question" aria-labelledby="${id}-h"><h3 id="${id}-h">${esc(prompt)}</h3>`];
  out.push(`<p class="qid"><code>${esc(question.id)}</code></p>`);
  const answers = predictions.map((p, i) => ({ who: whoOf(predictions, i, lang), value: p.answers[question.id] ?? null }));
  const unanswered = answers.filter((a) => a.value === null).map((a) => a.who);

  if (measured === undefined) {
    out.push(`<p class="note">${esc(t('common.measured', lang))}: ${esc(t('page.notMeasured', lang))}</p>`);
  } else if (question.kind === 'number' && typeof measured === 'number') {
    const numeric = answers
      .map((a) => ({ who: a.who, value: typeof a.value === 'number' ? a.value : typeof a.value === 'string' && a.value.trim() !== '' && Number.isFinite(Number(a.value)) ? Number(a.value) : null }))
      .filter((a): a is { who: string; value: number } => a.value !== null);
    const m = measured;
    const points = numeric.map((a) => ({ name: a.who, value: a.value, label: `${a.who}: ${withUnit(a.value, question, lang)} (${signed(Math.round((a.value - m) * 100) / 100, lang)})` }));
    // The axis: the data, 0 when the question allows it, within the question's range where the data allows it.
    const values = [m, ...numeric.map((a) => a.value)];
    const qMin = question.min ?? -Infinity;
    const qMax = question.max ?? Infinity;
    let lo = Math.min(...values);
    let hi = Math.max(...values);
    if (qMin <= 0 && 0 <= qMax) (lo = Math.min(lo, 0)), (hi = Math.max(hi, 0));
    const pad = (hi - lo) * 0.08 || 1;
    // Padding, but never across zero nor out of the question's range (unless a value is there).
    lo = Math.min(Math.max(lo - pad, qMin, lo >= 0 ? 0 : -Infinity), ...values);
    hi = Math.max(Math.min(hi + pad, qMax, hi <= 0 ? 0 : Infinity), ...values);
    // Every value the same (a count of 0, nobody predicting otherwise): one whole step up from it, inside the question's range, not an axis of zero width.
    if (hi === lo) hi = Math.min(lo + 1, qMax) > lo ? Math.min(lo + 1, qMax) : hi;
    if (hi === lo) lo = Math.max(hi - 1, qMin);
    // Whole numbers on the axis (counts) are ticked at whole numbers.
    const integer = values.every(Number.isInteger);
    const measuredText = withUnit(m, question, lang);
    const desc = t('page.numberLineDesc', lang, {
      lo: formatNumber(lo, lang, PAGE_NUMBERS),
      hi: formatNumber(hi, lang, PAGE_NUMBERS),
      measured: measuredText,
      predictions: points.map((p) => p.label).join('; ') || t('page.noPredictions', lang),
    });
    const chart = numberLine({
      id,
      title: prompt,
      desc,
      min: lo,
      max: hi,
      measured: { value: m, label: `${t('common.measured', lang)}: ${measuredText}` },
      predictions: points,
      integer,
      tick: (v) => (question.unit === '%' ? `${formatNumber(v, lang, PAGE_NUMBERS)}%` : formatNumber(v, lang, PAGE_NUMBERS)),
    });
    const rows = [
      [t('common.measured', lang), measuredText, ''],
      ...answers.map((a) => {
        const v = numeric.find((n) => n.who === a.who && a.value !== null);
        return v ? [a.who, withUnit(v.value, question, lang), signed(Math.round((v.value - m) * 100) / 100, lang)] : [a.who, t('common.noAnswer', lang), ''];
      }),
    ];
    out.push(figureBlock(chart, dataTable(prompt, [t('page.who', lang), t('common.predicted', lang), t('common.offBy', lang)], rows, id)));
  } else {
    // A label question: what each learner typed next to what was measured.
    const m = String(measured);
    const swatch = outcomeSwatch(m);
    out.push(
      `<p class="measured-label">${esc(t('common.measured', lang))}: <span class="chip" style="--chip:${swatch.colour}"><span class="chip-swatch" aria-hidden="true"></span><code>${esc(m)}</code></span></p>`,
    );
    if (answers.length > 0) {
      out.push(
        `<table class="answers"><caption class="sr-only">${esc(prompt)}</caption><thead><tr><th scope="col">${esc(t('page.who', lang))}</th><th scope="col">${esc(t('common.predicted', lang))}</th><th scope="col">${esc(t('common.measured', lang))}</th><th scope="col"></th></tr></thead><tbody>` +
          answers
            .map((a) => {
              if (a.value === null) return `<tr><th scope="row">${esc(a.who)}</th><td>${esc(t('common.noAnswer', lang))}</td><td><code>${esc(m)}</code></td><td></td></tr>`;
              const right = normaliseLabel(String(a.value)) === m;
              return `<tr><th scope="row">${esc(a.who)}</th><td><code>${esc(a.value)}</code></td><td><code>${esc(m)}</code></td><td class="${right ? 'right' : 'wrong'}"><span aria-hidden="true">${right ? '✓' : '✗'} </span>${esc(t(right ? 'common.right' : 'common.wrong', lang))}</td></tr>`;
            })
            .join('') +
          `</tbody></table>`,
      );
    }
  }
  if (question.kind === 'number' && unanswered.length > 0 && measured !== undefined) out.push(`<p class="note">${esc(t('page.noAnswerFrom', lang))} ${unanswered.map(esc).join(', ')}</p>`);
  out.push('</section>');
  return out.join('\n');
}
