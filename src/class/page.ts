/**
 * The class report as one self-contained HTML page for a projector: big
 * type, one card per question, each chart an SVG (role="img", with a title
 * and a description) followed by the same numbers as a table.
 */
import type { Lang } from '../core/lang.js';
import { formatNumber, t } from '../core/messages/index.js';
import { esc, outcomeColour, page } from './html.js';
import { modelRunsSection } from './model-runs.js';
import { withoutDevice } from './discover.js';
import { changedAnswers, tallyNumbers, type ClassReport, type LabelQuestionSummary, type LabSummary, type NumberQuestionSummary, type QuestionSummary, type ReflectionGroup, type Tally, type Value } from './report.js';

const CSS = `
:root { --ink: #1a1a1a; --muted: #555; --line: #c8c8c8; --accent: #0b5394; --good: #2e7d32; --card: #fafafa; }
* { box-sizing: border-box; }
html { font-size: 22px; }
body { margin: 0; font-family: system-ui, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; line-height: 1.4; }
main { max-width: 1280px; margin: 0 auto; padding: 1.2rem 1.5rem 3rem; }
header.top { border-bottom: 4px solid var(--accent); margin-bottom: 1rem; padding-bottom: .6rem; }
.kicker { color: var(--muted); font-size: .9rem; letter-spacing: .04em; text-transform: uppercase; margin: 0; }
h1 { font-size: 2.4rem; margin: .1rem 0 .3rem; }
h2 { font-size: 1.9rem; margin: 2.2rem 0 .3rem; border-bottom: 2px solid var(--line); padding-bottom: .2rem; }
h2 code { font-size: .85em; }
h3 { font-size: 1.25rem; margin: 0 0 .5rem; font-weight: 600; }
h4 { font-size: 1.05rem; margin: 1rem 0 .3rem; color: var(--muted); }
.summary { font-size: 1.15rem; margin: .2rem 0; }
.labid { color: var(--muted); font-weight: normal; font-size: 1.1rem; margin-left: .4rem; font-family: ui-monospace, Menlo, Consolas, monospace; }
.notice { border-left: 8px solid #b26a00; background: #fff8e1; padding: .6rem 1rem; margin: .8rem 0; }
.notice.bad { border-color: #c62828; background: #ffebee; }
.notice ul { margin: .3rem 0 0; padding-left: 1.2rem; }
.notice code { font-size: .8rem; word-break: break-all; }
.empty { font-size: 1.6rem; margin: 3rem 0; color: var(--muted); }
.stats { font-size: 1.15rem; margin: .2rem 0 .6rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: .9rem 1.1rem; margin: 1rem 0; }
.qid { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .85rem; color: var(--muted); }
.chips { display: flex; flex-wrap: wrap; align-items: baseline; gap: .4rem 1.2rem; font-size: 1.1rem; margin: .3rem 0 .5rem; }
.chips b { font-size: 1.3rem; }
.chip-measured b { color: var(--accent); }
.differs { font-size: .95rem; color: #7a4a00; margin: .3rem 0; }
svg.chart { width: 100%; height: auto; display: block; }
details { margin: .4rem 0 0; font-size: .9rem; }
/* What a closed details holds is hidden anyway; said outright, so that no tool measuring the page counts it as text. */
details:not([open]) > :not(summary) { display: none; }
summary { cursor: pointer; color: var(--accent); }
table { border-collapse: collapse; margin: .4rem 0; font-size: .9rem; }
th, td { border: 1px solid var(--line); padding: .15rem .6rem; text-align: left; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.reflections ol { margin: .2rem 0; padding-left: 0; list-style: none; }
.reflections li { margin: .25rem 0; font-size: 1.1rem; display: flex; gap: .6rem; align-items: baseline; }
.count { display: inline-block; min-width: 2.6rem; text-align: right; font-weight: 700; color: var(--accent); font-variant-numeric: tabular-nums; }
.quote { overflow-wrap: anywhere; }
.muted { color: var(--muted); }
.overview { font-size: 1.1rem; margin: .4rem 0 0; padding-left: 1.6rem; }
.overview a { color: var(--accent); }
table.plain { width: 100%; font-size: 1rem; }
table.plain td { vertical-align: top; }
footer { margin-top: 2.5rem; border-top: 2px solid var(--line); padding-top: .6rem; font-size: .85rem; color: var(--muted); }
footer ul { columns: 3; padding-left: 1.1rem; }
@media print { html { font-size: 12pt; } .card { break-inside: avoid; } details { display: block; } }
`;

function show(value: Value, lang: Lang): string {
  return typeof value === 'number' ? formatNumber(value, lang) : value;
}

/** Round tick steps: 1, 2, 5 times a power of ten. */
function niceStep(span: number, target: number): number {
  const raw = span / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

let chartCounter = 0;

/** A stacked dot plot: one dot per learner's prediction, a line at the measured value. */
function dotPlot(q: NumberQuestionSummary, lang: Lang, labId: string): string {
  const values = [...q.predictions, ...(typeof q.measured?.value === 'number' ? [q.measured.value] : [])];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (lo === hi) {
    lo -= 1;
    hi += 1;
  }
  const step = niceStep(hi - lo, 6);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const W = 1000;
  const left = 50;
  const right = 50;
  const r = 11;
  const x = (v: number) => left + ((v - lo) / (hi - lo)) * (W - left - right);
  // Greedy stacking: each dot takes the lowest level where it overlaps no other dot.
  const levels: number[][] = [];
  const dots = q.predictions.map((v) => {
    const cx = x(v);
    let level = 0;
    while ((levels[level] ?? []).some((other) => Math.abs(other - cx) < 2 * r + 1)) level++;
    (levels[level] ??= []).push(cx);
    return { cx, level };
  });
  const top = 44;
  const stackHeight = Math.max(levels.length, 3) * (2 * r + 3);
  const axisY = top + stackHeight + 8;
  const H = axisY + 46;
  const id = `chart-${labId}-${q.id}-${chartCounter++}`.replace(/[^A-Za-z0-9_-]/g, '-');
  const measured = typeof q.measured?.value === 'number' ? q.measured.value : undefined;
  const title = t('class.predictionsOf', lang, { id: q.id });
  const desc = t('class.dotPlotDesc', lang, {
    lo: formatNumber(lo, lang),
    hi: formatNumber(hi, lang),
    value: measured === undefined ? '?' : formatNumber(measured, lang),
    min: formatNumber(q.min!, lang),
    median: formatNumber(q.median!, lang),
    max: formatNumber(q.max!, lang),
  });
  const ticks: string[] = [];
  for (let v = lo, i = 0; v <= hi + step / 2 && i < 40; v += step, i++) {
    const tx = x(v);
    ticks.push(`<line x1="${tx.toFixed(1)}" y1="${axisY}" x2="${tx.toFixed(1)}" y2="${axisY + 8}" stroke="#555" stroke-width="2"/><text x="${tx.toFixed(1)}" y="${axisY + 32}" text-anchor="middle" font-size="22" fill="#333">${esc(formatNumber(Math.round(v * 1e6) / 1e6, lang))}</text>`);
  }
  const circles = dots
    .map((d) => `<circle cx="${d.cx.toFixed(1)}" cy="${(axisY - 6 - r - d.level * (2 * r + 3)).toFixed(1)}" r="${r}" fill="#5c7c99" stroke="#fff" stroke-width="2"/>`)
    .join('');
  let line = '';
  if (measured !== undefined) {
    const mx = x(measured);
    const anchor = mx > W - 200 ? 'end' : mx < 200 ? 'start' : 'middle';
    line = `<line x1="${mx.toFixed(1)}" y1="${top - 6}" x2="${mx.toFixed(1)}" y2="${axisY}" stroke="#0b5394" stroke-width="4" stroke-dasharray="10 6"/><text x="${mx.toFixed(1)}" y="${top - 14}" text-anchor="${anchor}" font-size="24" font-weight="700" fill="#0b5394">${esc(t('class.measuredValue', lang, { value: `${formatNumber(measured, lang)}${q.unit === '%' ? '%' : ''}` }))}</text>`;
  }
  const svg = `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${id}-t ${id}-d" xmlns="http://www.w3.org/2000/svg"><title id="${id}-t">${esc(title)}</title><desc id="${id}-d">${esc(desc)}</desc>${line}<line x1="${left}" y1="${axisY}" x2="${W - right}" y2="${axisY}" stroke="#555" stroke-width="2"/>${ticks.join('')}${circles}</svg>`;
  const rows = q.distribution
    .map((d) => `<tr><td class="n">${esc(formatNumber(d.value, lang))}</td><td class="n">${d.learners}</td>${measured === undefined ? '' : `<td class="n">${esc(signed(d.value - measured, lang))}</td>`}</tr>`)
    .join('');
  const table = `<details><summary>${esc(t('class.dataTable', lang))}</summary><table><thead><tr><th class="n">${esc(t('class.prediction', lang))}</th><th class="n">${esc(t('class.learners', lang))}</th>${measured === undefined ? '' : `<th class="n">${esc(t('common.offBy', lang))}</th>`}</tr></thead><tbody>${rows}</tbody></table></details>`;
  return svg + table;
}

function signed(x: number, lang: Lang): string {
  const r = Math.round(x * 100) / 100;
  return r > 0 ? `+${formatNumber(r, lang)}` : formatNumber(r, lang);
}

/** Horizontal bars: how many learners typed each outcome, the measured one marked. */
function labelBars(q: LabelQuestionSummary, lang: Lang, labId: string): string {
  const shown = q.labels.slice(0, 8);
  const rest = q.labels.slice(8);
  const rows = rest.length > 0 ? [...shown.map((l) => ({ ...l, other: false })), { label: `… +${rest.length}`, learners: rest.reduce((s, l) => s + l.learners, 0), right: false, other: true }] : shown.map((l) => ({ ...l, other: false }));
  const W = 1000;
  const labelW = 300;
  const barH = 40;
  const gap = 12;
  const maxN = Math.max(1, ...rows.map((r) => r.learners));
  const H = rows.length * (barH + gap) + 10;
  const id = `chart-${labId}-${q.id}-${chartCounter++}`.replace(/[^A-Za-z0-9_-]/g, '-');
  const measured = typeof q.measured?.value === 'string' ? q.measured.value : '?';
  const title = t('class.predictionsOf', lang, { id: q.id });
  const desc = t('class.barsDesc', lang, { value: measured, right: q.right, answered: q.answered });
  const clip = (s: string) => ([...s].length > 22 ? `${[...s].slice(0, 21).join('')}…` : s);
  const bars = rows
    .map((row, i) => {
      const y = 5 + i * (barH + gap);
      const w = Math.max(4, (row.learners / maxN) * (W - labelW - 250));
      const colour = row.other ? '#9e9e9e' : outcomeColour(row.label);
      const mark = row.right ? `<text x="${labelW + w + 62}" y="${y + barH / 2 + 8}" font-size="24" font-weight="700" fill="#2e7d32">✓ ${esc(t('common.measured', lang))}</text>` : '';
      return `<text x="${labelW - 12}" y="${y + barH / 2 + 8}" text-anchor="end" font-size="24" font-family="ui-monospace, Menlo, Consolas, monospace" fill="#222"${row.right ? ' font-weight="700"' : ''}>${esc(clip(row.label))}</text><rect x="${labelW}" y="${y}" width="${w.toFixed(1)}" height="${barH}" rx="4" fill="${colour}"${row.right ? ' stroke="#1b5e20" stroke-width="4"' : ''}/><text x="${labelW + w + 12}" y="${y + barH / 2 + 8}" font-size="24" font-weight="700" fill="#222">${row.learners}</text>${mark}`;
    })
    .join('');
  const svg = `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${id}-t ${id}-d" xmlns="http://www.w3.org/2000/svg"><title id="${id}-t">${esc(title)}</title><desc id="${id}-d">${esc(desc)}</desc>${bars}</svg>`;
  const tableRows = q.labels.map((l) => `<tr><td><code>${esc(l.label)}</code></td><td class="n">${l.learners}</td><td>${l.right ? '✓' : ''}</td></tr>`).join('');
  const table = `<details><summary>${esc(t('class.dataTable', lang))}</summary><table><thead><tr><th>${esc(t('class.label', lang))}</th><th class="n">${esc(t('class.learners', lang))}</th><th>${esc(t('common.right', lang))}</th></tr></thead><tbody>${tableRows}</tbody></table></details>`;
  return svg + table;
}

function measuredNote(q: QuestionSummary, lang: Lang): string {
  if (!q.measured?.differs) return '';
  const values = q.measured.values.map((v) => `${show(v.value, lang)} (${t('class.learnerCount', lang, { count: v.learners })})`).join(', ');
  return `<p class="differs">${esc(t('class.measuredDiffer', lang, { values, value: show(q.measured.value, lang) }))}</p>`;
}

function questionCard(q: QuestionSummary, lang: Lang, labId: string): string {
  const head = `<h3>${esc(q.prompt)} <span class="qid">${esc(q.id)}</span></h3>`;
  const measuredChip = q.measured ? `<span class="chip-measured">${esc(t('common.measured', lang))} <b>${esc(show(q.measured.value, lang))}${q.unit === '%' ? '%' : ''}</b></span>` : '';
  if (q.answered === 0) {
    return `<section class="card">${head}<div class="chips">${measuredChip}</div>${measuredNote(q, lang)}<p class="muted">${esc(t('class.noPredictions', lang))}</p></section>`;
  }
  if (q.kind === 'number') {
    const chips = [
      `<span>${esc(t('class.answered', lang, { count: q.answered }))}</span>`,
      `<span>${esc(t('class.min', lang))} <b>${esc(formatNumber(q.min!, lang))}</b></span>`,
      `<span>${esc(t('class.median', lang))} <b>${esc(formatNumber(q.median!, lang))}</b></span>`,
      `<span>${esc(t('class.max', lang))} <b>${esc(formatNumber(q.max!, lang))}</b></span>`,
      measuredChip,
      q.medianOff === null ? '' : `<span>${esc(t('class.medianOff', lang))} <b>${esc(signed(q.medianOff, lang))}</b></span>`,
    ].join('');
    return `<section class="card">${head}<div class="chips">${chips}</div>${measuredNote(q, lang)}${dotPlot(q, lang, labId)}</section>`;
  }
  const chips = `<span>${esc(t('class.namedRight', lang, { right: q.right, answered: q.answered }))}</span>${measuredChip}`;
  return `<section class="card">${head}<div class="chips">${chips}</div>${measuredNote(q, lang)}${labelBars(q, lang, labId)}</section>`;
}

/** Lines grouped by language then by text (reflections, the why lines), each with how many learners wrote it. */
function lineGroups(className: string, title: string, groups: ReflectionGroup[], empty: string, lang: Lang): string {
  const head = `<h3>${esc(title)}</h3>`;
  if (groups.length === 0) return `<section class="card ${className}">${head}<p class="muted">${esc(empty)}</p></section>`;
  const body = groups
    .map((group) => {
      const shown = group.lines.slice(0, 10);
      const more = group.lines.length - shown.length;
      const items = shown.map((line) => `<li><span class="count">${line.learners}×</span><span class="quote">${esc(line.text)}</span></li>`).join('');
      return `<h4 lang="${group.lang === 'other' ? '' : group.lang}">${esc(t(`class.langName.${group.lang}`, lang))}</h4><ol${group.lang === 'other' ? '' : ` lang="${group.lang}"`}>${items}</ol>${more > 0 ? `<p class="muted">${esc(t('class.moreLines', lang, { count: more }))}</p>` : ''}`;
    })
    .join('');
  return `<section class="card ${className}">${head}${body}</section>`;
}

function reflections(lab: LabSummary, lang: Lang): string {
  return lineGroups('reflections', t('class.assumedWrong', lang), lab.reflections, t('class.noReflections', lang), lang);
}

function reasons(lab: LabSummary, lang: Lang): string {
  return lineGroups('reflections reasons', t('class.why', lang), lab.reasons, t('class.noReasons', lang), lang);
}

/** A tally in a table cell: n, min, median, max; or each label with its count. */
function tallyCell(kind: 'number' | 'label', tally: Tally, lang: Lang): string {
  if (tally.answered === 0) return '–';
  const numbers = kind === 'number' ? tallyNumbers(tally) : null;
  if (numbers) return esc(`n=${tally.answered} · ${t('class.min', lang)} ${formatNumber(numbers.min, lang)} · ${t('class.median', lang)} ${formatNumber(numbers.median, lang)} · ${t('class.max', lang)} ${formatNumber(numbers.max, lang)}`);
  return esc(`n=${tally.answered} · ${tally.distribution.map((d) => `${show(d.value, lang)} ${d.learners}`).join(' · ')}`);
}

/** The live view: every learner's first and latest prediction, run or not, and who revised what. */
function live(lab: LabSummary, lang: Lang): string {
  if (lab.live.predicted === 0) return '';
  const rows = lab.live.questions
    .filter((q) => q.first.answered + q.latest.answered > 0)
    .map((q) => `<tr><td><span class="qid">${esc(q.id)}</span></td><td>${tallyCell(q.kind, q.first, lang)}</td><td>${tallyCell(q.kind, q.latest, lang)}</td></tr>`)
    .join('');
  const table = `<table class="plain"><thead><tr><th>${esc(t('common.question', lang))}</th><th>${esc(t('class.first', lang))}</th><th>${esc(t('class.latest', lang))}</th></tr></thead><tbody>${rows}</tbody></table>`;
  const answer = (v: Value | null) => (v === null ? '–' : show(v, lang));
  const revised = lab.live.learners.filter((l) => l.revised);
  const who =
    revised.length === 0
      ? ''
      : `<h4>${esc(t('class.revisedTitle', lang))}</h4><table class="plain revisions"><thead><tr><th>${esc(t('class.learner', lang))}</th><th>${esc(t('class.first', lang))}</th><th>${esc(t('class.latest', lang))}</th></tr></thead><tbody>${revised
          .map((l) => {
            const changes = changedAnswers(l);
            return `<tr><td>${esc(l.learner)}</td><td>${esc(changes.map(([id, a]) => `${id} ${answer(a)}`).join(' · ') || '=')}</td><td>${esc(changes.map(([id, , b]) => `${id} ${answer(b)}`).join(' · ') || '=')}</td></tr>`;
          })
          .join('')}</tbody></table>`;
  return `<section class="card live"><h3>${esc(t('class.liveTitle', lang))}</h3><p class="stats">${esc(t('class.liveStats', lang, { predicted: lab.live.predicted, revised: lab.live.revised }))}</p>${table}${who}</section>`;
}

/** Questions nobody answered: one compact table instead of a card each. */
function unansweredTable(questions: QuestionSummary[], lang: Lang): string {
  if (questions.length === 0) return '';
  const rows = questions
    .map((q) => `<tr><td>${esc(q.prompt)} <span class="qid">${esc(q.id)}</span>${q.measured?.differs ? measuredNote(q, lang) : ''}</td><td class="n"><b>${q.measured ? esc(show(q.measured.value, lang)) : '–'}</b></td></tr>`)
    .join('');
  return `<section class="card"><h3>${esc(t('class.noPredictionsFor', lang))}</h3><table class="plain"><thead><tr><th>${esc(t('common.question', lang))}</th><th class="n">${esc(t('common.measured', lang))}</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function labSection(lab: LabSummary, lang: Lang): string {
  const head = `<h2 id="lab-${esc(lab.id)}">${esc(lab.title).replace(/`([^`]+)`/g, '<code>$1</code>')}<span class="labid">${esc(lab.id)}</span></h2>`;
  const stats = `<p class="stats">${esc(t('class.labStats', lang, { ran: lab.ran, learners: lab.learners, predicted: lab.predicted, revised: lab.revised }))}${lab.predictedNotRun > 0 ? ` · ${esc(t('class.predictedNotRun', lang, { count: lab.predictedNotRun }))}` : ''}</p>`;
  // Predictions and their why lines count whether or not anyone ran the lab (a live class predicts long before it runs).
  const predicted = lab.live.predicted > 0 ? `${live(lab, lang)}${reasons(lab, lang)}` : '';
  if (lab.ran === 0) return `<section class="lab">${head}${lab.learners > 0 ? stats : ''}<p class="muted">${esc(t('class.noRuns', lang))}</p>${predicted}</section>`;
  const answered = lab.questions.filter((q) => q.answered > 0);
  const unanswered = lab.questions.filter((q) => q.answered === 0);
  return `<section class="lab">${head}${stats}${answered.map((q) => questionCard(q, lang, lab.id)).join('')}${unansweredTable(unanswered, lang)}${predicted}${reflections(lab, lang)}</section>`;
}

/** The labs at a glance, linking to their sections. */
function overview(report: ClassReport, lang: Lang): string {
  const items = report.labs
    .map((lab) => `<li><a href="#lab-${esc(lab.id)}">${esc(lab.title).replace(/`([^`]+)`/g, '<code>$1</code>')}</a> <span class="muted">${esc(t('class.ranOf', lang, { ran: lab.ran, total: report.journals.length }))}</span></li>`)
    .join('');
  return `<nav aria-label="${esc(t('class.labsNav', lang))}"><ol class="overview">${items}</ol></nav>`;
}

export function renderClassPage(report: ClassReport): string {
  const { lang } = report;
  chartCounter = 0;
  const counted = t('class.journalsCounted', lang, { count: report.journals.length });
  const parts: string[] = [];
  parts.push(
    `<header class="top"><p class="kicker">${esc(t('class.kit', lang))}</p><h1>${esc(t('class.reportTitle', lang))}</h1><p class="summary">${esc(counted)}${report.unreadable.length > 0 ? ` · ${esc(t('class.unreadableCount', lang, { count: report.unreadable.length }))}` : ''} · ${esc(t('class.folder', lang))} <code>${esc(report.folder)}</code></p></header>`,
  );
  if (report.unreadable.length > 0) {
    const items = report.unreadable.map((u) => `<li><b>${esc(u.display)}</b>: ${esc(u.reason)}<br><code>${esc(withoutDevice(u.path))}</code></li>`).join('');
    parts.push(`<div class="notice bad" role="note"><b>${esc(t('class.unreadableTitle', lang))}</b><ul>${items}</ul></div>`);
  }
  for (const dup of report.duplicateNames) {
    parts.push(`<div class="notice" role="note"><b>${esc(t('class.duplicateNames', lang, { count: dup.journals.length, name: dup.name }))}</b>: ${dup.journals.map((d) => esc(d)).join(', ')}</div>`);
  }
  if (report.journals.length === 0) {
    parts.push(`<p class="empty">${esc(t('class.noJournals', lang, { folder: report.folder }))}<br><span style="font-size:1rem">${esc(t('class.noJournalsHint', lang))}</span></p>`);
  } else {
    parts.push(overview(report, lang));
    for (const lab of report.labs) parts.push(labSection(lab, lang));
    const sorted = [...report.journals].sort((a, b) => a.display.localeCompare(b.display, lang));
    const list = sorted.map((j) => `<li>${esc(j.display)} <span class="muted">(${esc(t('class.entries', lang, { count: j.entries }))})</span></li>`).join('');
    parts.push(`<footer><p><b>${esc(t('class.learnersList', lang))}</b></p><ul>${list}</ul><p>${esc(t('class.generated', lang))} ${esc(report.generatedAt.replace('T', ' ').slice(0, 16))} UTC</p></footer>`);
  }
  // Real-model runs saved in the folder, whether or not any journal is there.
  parts.splice(report.journals.length === 0 ? parts.length : parts.length - 1, 0, modelRunsSection(report.modelRuns ?? [], lang));
  return page({ lang, title: `${t('class.reportTitle', lang)} · schema-breaks`, css: CSS, body: `<main>${parts.join('\n')}</main>` });
}
