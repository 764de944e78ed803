/**
 * The class report in a terminal: the same numbers as the page, a few lines
 * per question. Learner text is printed with control characters made visible,
 * so a name or a reflection cannot move the cursor or recolour the screen.
 */
import type { Lang } from '../core/lang.js';
import { formatNumber, t } from '../core/messages/index.js';
import { changedAnswers, tallyNumbers, type ClassReport, type LabSummary, type QuestionSummary, type ReflectionGroup, type Tally, type Value } from './report.js';
import { modelRunsLines } from './model-runs.js';

/** Learner text for a terminal: control characters (ESC included) shown as U+FFFD, one line, at most `max` characters. */
export function safe(text: string, max = 120): string {
  const clean = text.replace(/[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu, '\uFFFD');
  const chars = [...clean];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : clean;
}

const show = (v: Value, lang: Lang) => (typeof v === 'number' ? formatNumber(v, lang) : safe(v, 30));

/** A tiny distribution: counts in 12 buckets from min to max, as block characters. */
function spark(values: number[]): string {
  if (values.length < 2) return '';
  const lo = values[0]!;
  const hi = values.at(-1)!;
  if (lo === hi) return '';
  const buckets = new Array<number>(12).fill(0);
  for (const v of values) buckets[Math.min(11, Math.floor(((v - lo) / (hi - lo)) * 12))]!++;
  const top = Math.max(...buckets);
  return buckets.map((n) => (n === 0 ? '·' : '▁▂▃▄▅▆▇█'[Math.min(7, Math.ceil((n / top) * 8) - 1)])).join('');
}

function questionLines(q: QuestionSummary, lang: Lang): string[] {
  const measured = q.measured ? `${t('common.measured', lang)} ${show(q.measured.value, lang)}` : '';
  const lines: string[] = [];
  if (q.answered === 0) lines.push(`  ${q.id.padEnd(26)} ${measured.padEnd(22)} ${t('class.noPredictions', lang)}`);
  else if (q.kind === 'number') {
    const stats = `n=${q.answered}  ${t('class.min', lang)} ${formatNumber(q.min!, lang)}  ${t('class.median', lang)} ${formatNumber(q.median!, lang)}  ${t('class.max', lang)} ${formatNumber(q.max!, lang)}`;
    lines.push(`  ${q.id.padEnd(26)} ${measured.padEnd(22)} ${stats}  ${spark(q.predictions)}`);
  } else {
    lines.push(`  ${q.id.padEnd(26)} ${measured.padEnd(22)} ${t('class.namedRight', lang, { right: q.right, answered: q.answered })}`);
    lines.push(`  ${''.padEnd(26)} ${''.padEnd(22)} ${q.labels.slice(0, 6).map((l) => `${safe(l.label, 24)} ${l.learners}`).join(' · ')}${q.labels.length > 6 ? ' · …' : ''}`);
  }
  if (q.measured?.differs) {
    const values = q.measured.values.map((v) => `${show(v.value, lang)} (${v.learners})`).join(', ');
    lines.push(`    ! ${t('class.measuredDiffer', lang, { values, value: show(q.measured.value, lang) })}`);
  }
  return lines;
}

/** One tally on one line: n, min, median, max for numbers; the labels and their counts, most frequent first. */
function tallyLine(kind: 'number' | 'label', tally: Tally, lang: Lang): string {
  if (tally.answered === 0) return t('class.noAnswer', lang);
  const numbers = kind === 'number' ? tallyNumbers(tally) : null;
  if (numbers) return `n=${tally.answered}  ${t('class.min', lang)} ${formatNumber(numbers.min, lang)}  ${t('class.median', lang)} ${formatNumber(numbers.median, lang)}  ${t('class.max', lang)} ${formatNumber(numbers.max, lang)}`;
  const labels = tally.distribution.slice(0, 5).map((d) => `${show(d.value, lang)} ${d.learners}`);
  return `n=${tally.answered}  ${labels.join(' · ')}${tally.distribution.length > 5 ? ' · …' : ''}`;
}

/** The live view: every learner's first and latest prediction, run or not; who revised, and how. */
function liveLines(lab: LabSummary, lang: Lang): string[] {
  if (lab.live.predicted === 0) return [];
  const out = [`  ${t('class.liveStats', lang, { predicted: lab.live.predicted, revised: lab.live.revised })}`];
  const first = t('class.first', lang);
  const latest = t('class.latest', lang);
  const width = Math.max(first.length, latest.length);
  for (const q of lab.live.questions) {
    if (q.first.answered + q.latest.answered === 0) continue;
    out.push(`    ${q.id.padEnd(26)} ${first.padEnd(width)}  ${tallyLine(q.kind, q.first, lang)}`);
    out.push(`    ${''.padEnd(26)} ${latest.padEnd(width)}  ${tallyLine(q.kind, q.latest, lang)}`);
  }
  const revised = lab.live.learners.filter((l) => l.revised);
  if (revised.length > 0) out.push(`  ${t('class.revisedTitle', lang)}:`);
  const answer = (v: Value | null) => (v === null ? t('class.noAnswer', lang) : show(v, lang));
  for (const learner of revised.slice(0, 10)) {
    const changes = changedAnswers(learner).map(([id, a, b]) => `${id} ${answer(a)} → ${answer(b)}`);
    out.push(`    ${safe(learner.learner, 40)}: ${changes.join(' · ') || '='}`);
  }
  if (revised.length > 10) out.push(`    ${t('class.moreLines', lang, { count: revised.length - 10 })}`);
  return out;
}

/** Grouped lines (reflections, reasons): a title per language, the five most frequent lines with how many wrote them. */
function lineGroups(title: string, groups: ReflectionGroup[], lang: Lang): string[] {
  const out: string[] = [];
  for (const group of groups) {
    out.push(`  ${title} (${t(`class.langName.${group.lang}`, lang)}):`);
    for (const line of group.lines.slice(0, 5)) out.push(`    ${String(line.learners).padStart(3)}× ${safe(line.text)}`);
    if (group.lines.length > 5) out.push(`         ${t('class.moreLines', lang, { count: group.lines.length - 5 })}`);
  }
  return out;
}

export function renderClassTerminal(report: ClassReport): string {
  const { lang } = report;
  const out: string[] = [];
  if (report.journals.length === 0) {
    out.push(t('class.noJournals', lang, { folder: report.folder }));
    out.push(t('class.noJournalsHint', lang));
  } else {
    const counted = t('class.journalsCounted', lang, { count: report.journals.length });
    out.push(`${t('class.reportTitle', lang)}: ${report.folder} · ${counted}`);
  }
  for (const u of report.unreadable) out.push(`  ✗ ${safe(u.path, 200)}: ${safe(u.reason, 200)}`);
  if (report.unreadable.length > 0) out.push(`    (${t('class.unreadableCount', lang, { count: report.unreadable.length })})`);
  for (const dup of report.duplicateNames) out.push(`  ! ${t('class.duplicateNames', lang, { count: dup.journals.length, name: safe(dup.name, 40) })}: ${dup.journals.map((d) => safe(d, 80)).join(', ')}`);
  for (const lab of report.labs) {
    out.push('');
    out.push(`${lab.id} · ${lab.title}`);
    if (lab.ran === 0) {
      out.push(`  ${t('class.noRuns', lang)}${lab.predictedNotRun > 0 ? ` ${t('class.predictedNotRun', lang, { count: lab.predictedNotRun })}` : ''}`);
    } else {
      out.push(`  ${t('class.labStats', lang, { ran: lab.ran, learners: lab.learners, predicted: lab.predicted, revised: lab.revised })}${lab.predictedNotRun > 0 ? ` · ${t('class.predictedNotRun', lang, { count: lab.predictedNotRun })}` : ''}`);
      for (const q of lab.questions) out.push(...questionLines(q, lang));
    }
    // Predictions count whether or not the lab was run (a live class predicts long before it runs).
    out.push(...liveLines(lab, lang));
    out.push(...lineGroups(t('class.why', lang), lab.reasons, lang));
    out.push(...lineGroups(t('class.assumedWrong', lang), lab.reflections, lang));
  }
  out.push(...modelRunsLines(report.modelRuns ?? [], lang));
  return out.join('\n');
}
