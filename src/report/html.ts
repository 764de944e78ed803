/**
 * The HTML report: one self-contained page (inline CSS and inline SVG, no
 * script, no network; it opens from disk) for a lab report, or for a lab's
 * runs with the predictions made of them. Made to be read on a projector
 * (20px text, charts 1000px wide, textures and direct labels besides colour)
 * and with a screen reader (every chart an image with a title and a
 * description, followed by a table with the same numbers).
 *
 * Everything that comes from outside (learner names, answers, reasoning,
 * server texts, the host's rejection) is escaped; the lab sheet is rendered
 * with marked, its raw HTML escaped and its links turned into text.
 */
import { Marked, type Tokens } from 'marked';
import { compactDiff, REPORT_FORMAT_VERSION, runNotes, type LabReport } from '../lab/report.js';
import type { RunResult } from '../lab/runner.js';
import type { Lang } from '../core/lang.js';
import { formatNumber, sentence, t, type MessageId } from '../core/messages/index.js';
import { figure } from '../lab/figures.js';
import type { Lab, LabResults } from '../learn/catalogue.js';
import { NEUTRAL, outcomeSwatch } from './colours.js';
import { barChart, esc, safeId, type Bar, type Panel } from './svg.js';
import { outcomeMeaning } from '../lab/outcomes.js';
import { dataTable, figureBlock, inlineCode, PAGE_NUMBERS } from './parts.js';
import { questionBlock, whoOf, type PagePrediction } from './questions.js';
import { standInComparison } from './model-compare.js';

export type { PagePrediction } from './questions.js';

export type PageInput = ({ report: LabReport } | { lab: Lab; results: LabResults; predictions?: PagePrediction[]; /** The lab's results for each of its seeds; the first is `results`. */ perSeed?: LabResults[] }) & {
  lang: Lang;
  /** Markdown to quote from the lab sheet (e.g. its hypothesis). */
  sheet?: string;
};

type Role = 'baseline' | 'variant' | 'solution';

interface ShownRun {
  role: Role;
  /** The role in the page's language: "baseline", "variante". */
  name: string;
  /** The role and what ran: "variant · broken-schema". */
  full: string;
  run: RunResult;
}

const ROLE_NAMES: Record<Role, MessageId> = { baseline: 'common.baseline', variant: 'page.variant', solution: 'page.solution' };

function shownRuns(report: LabReport, lang: Lang): ShownRun[] {
  const entries: [Role, RunResult | undefined][] = [
    ['baseline', report.runs.baseline],
    ['variant', report.runs.variant],
    ['solution', report.runs.solution],
  ];
  return entries
    .filter((e): e is [Role, RunResult] => e[1] !== undefined)
    .map(([role, run]) => {
      const name = t(ROLE_NAMES[role], lang);
      return { role, name, full: run.variant === name ? run.variant : `${name} · ${run.variant}`, run };
    });
}

/** Labels in a stable order: ok first, then the most frequent, then by name. */
function labelOrder(histograms: Record<string, number>[]): string[] {
  const totals = new Map<string, number>();
  for (const h of histograms) for (const [label, n] of Object.entries(h)) totals.set(label, (totals.get(label) ?? 0) + n);
  return [...totals.keys()].sort((a, b) => Number(b === 'ok') - Number(a === 'ok') || totals.get(b)! - totals.get(a)! || a.localeCompare(b));
}

// ---------------------------------------------------------------------------
// Charts of one report
// ---------------------------------------------------------------------------

function outcomeChart(id: string, title: string, runs: ShownRun[], pick: (run: RunResult) => Record<string, number>, labels: string[], lang: Lang): string {
  const share = (n: number, calls: number) => (calls === 100 ? String(n) : `${n} · ${formatNumber(calls ? (100 * n) / calls : 0, lang, { ...PAGE_NUMBERS, decimals: 0 })}%`);
  const panels: Panel[] = runs.map((r) => ({
    title: r.full,
    bars: labels.map((label): Bar => ({ key: label, label, value: pick(r.run)[label] ?? 0, text: share(pick(r.run)[label] ?? 0, r.run.calls), swatch: outcomeSwatch(label) })),
  }));
  const desc = runs.map((r) => `${r.full}: ${labels.map((l) => `${l} ${pick(r.run)[l] ?? 0}`).join(', ')} (${t('common.calls', lang)}: ${r.run.calls}).`).join(' ');
  const chart = barChart({
    id,
    title,
    desc,
    panels,
    max: Math.max(...runs.map((r) => r.run.calls)),
    legend: labels.map((label) => ({ key: label, label, swatch: outcomeSwatch(label) })),
    integer: true,
  });
  const table = dataTable(title, [t('page.label', lang), ...runs.map((r) => r.full)], labels.map((l) => [l, ...runs.map((r) => String(pick(r.run)[l] ?? 0))]), id);
  return figureBlock(chart, table);
}

function retriesChart(id: string, runs: ShownRun[], lang: Lang): string {
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r.run.retries.distribution ?? {})))].sort((a, b) => Number(a) - Number(b));
  const name = (k: string) => t('page.retries', lang, { count: Number(k) });
  const title = t('page.retriesTitle', lang);
  const panels: Panel[] = runs.map((r) => ({
    title: r.full,
    bars: keys.map((k): Bar => ({ key: `retries-${k}`, label: name(k), value: r.run.retries.distribution?.[k] ?? 0, swatch: NEUTRAL })),
  }));
  const desc = runs.map((r) => `${r.full}: ${keys.map((k) => `${name(k)} ${r.run.retries.distribution?.[k] ?? 0}`).join(', ')}.`).join(' ');
  const chart = barChart({ id, title, desc, panels, max: Math.max(...runs.map((r) => r.run.calls)), integer: true });
  return figureBlock(chart, dataTable(title, [title.split(':')[0]!, ...runs.map((r) => r.full)], keys.map((k) => [name(k), ...runs.map((r) => String(r.run.retries.distribution?.[k] ?? 0))]), id));
}

function runBars(id: string, title: string, runs: ShownRun[], value: (r: RunResult) => number, text: (r: RunResult) => string, lang: Lang, max?: number, integer = true): string {
  const panels: Panel[] = [{ title: '', bars: runs.map((r): Bar => ({ key: r.role, label: r.name, value: value(r.run), text: text(r.run), swatch: NEUTRAL })) }];
  const desc = runs.map((r) => `${r.full}: ${text(r.run)}.`).join(' ');
  const chart = barChart({ id, title, desc, panels, max, integer, tick: (v) => formatNumber(v, lang, PAGE_NUMBERS) });
  return figureBlock(chart, dataTable(title, [t('common.run', lang), title.split(':')[0]!], runs.map((r) => [r.full, text(r.run)]), id));
}

function latencyChart(id: string, runs: ShownRun[], lang: Lang): string {
  const title = t('page.latencyTitle', lang);
  const ms = (v: number) => `${formatNumber(v, lang, PAGE_NUMBERS)} ms`;
  const panels: Panel[] = (['p50', 'p95'] as const).map((p) => ({
    title: p,
    bars: runs.map((r): Bar => ({ key: r.role, label: r.name, value: r.run.latencyMs[p], text: ms(r.run.latencyMs[p]), swatch: NEUTRAL })),
  }));
  const desc = runs.map((r) => `${r.full}: p50 ${ms(r.run.latencyMs.p50)}, p95 ${ms(r.run.latencyMs.p95)}.`).join(' ');
  const chart = barChart({ id, title, desc, panels, tick: (v) => formatNumber(v, lang, PAGE_NUMBERS) });
  return figureBlock(chart, dataTable(title, [t('common.run', lang), 'p50 (ms)', 'p95 (ms)'], runs.map((r) => [r.full, formatNumber(r.run.latencyMs.p50, lang, PAGE_NUMBERS), formatNumber(r.run.latencyMs.p95, lang, PAGE_NUMBERS)]), id));
}

function keyFigures(runs: ShownRun[], lang: Lang): string {
  const pct = (x: number) => `${formatNumber(x * 100, lang, { ...PAGE_NUMBERS, decimals: 0 })}%`;
  const rows: [string, (r: RunResult) => string, boolean][] = [
    // The figures the terminal report shows too, under the same words (src/lab/figures.ts); written as a page writes numbers.
    [figure('ok').label[lang], (r) => `${r.finalOutcomes.ok ?? 0}/${r.calls}`, true],
    [figure('missingArguments').label[lang], (r) => (r.missingArguments ? pct(r.missingArguments.share) : '–'), true],
    [figure('retriesPerCall').label[lang], (r) => formatNumber(r.retries.perCall, lang, PAGE_NUMBERS), true],
    [t('page.retriesPerFailingCall', lang), (r) => formatNumber(r.retries.perFailingCall, lang, PAGE_NUMBERS), true],
    [figure('accuracy').label[lang], (r) => `${r.accuracy.correct}/${r.accuracy.total}`, true],
    [figure('silentWrong').label[lang], (r) => String(r.silentWrong), true],
    [t('common.latency', lang), (r) => `${formatNumber(r.latencyMs.p50, lang, PAGE_NUMBERS)} / ${formatNumber(r.latencyMs.p95, lang, PAGE_NUMBERS)}`, false],
    [t('page.host', lang), (r) => (r.host.accepted ? t('page.hostAccepted', lang) : t('page.hostRefusedShort', lang)), true],
  ];
  let anyChanged = false;
  const body = rows
    .map(([name, value, compare]) => {
      const base = value(runs[0]!.run);
      const cells = runs.map((r, i) => {
        const v = value(r.run);
        const changed = compare && i > 0 && v !== base;
        anyChanged ||= changed;
        return changed ? `<td class="changed">${esc(v)}<span class="sr-only"> ${esc(t('page.changed', lang))}</span></td>` : `<td>${esc(v)}</td>`;
      });
      return `<tr><th scope="row">${esc(name)}</th>${cells.join('')}</tr>`;
    })
    .join('');
  return (
    `<table class="figures"><caption>${esc(t('page.keyFigures', lang))}</caption><thead><tr><th scope="col">${esc(t('common.figure', lang))}</th>${runs.map((r) => `<th scope="col">${esc(r.name)}${r.run.variant !== r.name ? `<br><span class="sub">${esc(r.run.variant)}</span>` : ''}</th>`).join('')}</tr></thead><tbody>${body}</tbody></table>` +
    (anyChanged ? `<p class="note">${esc(t('page.changedNote', lang))}</p>` : '')
  );
}

function schemaDiff(report: LabReport, lang: Lang): string {
  const changed = report.schemaDiff.some((l) => !l.startsWith('  '));
  if (!changed) return `<p class="note">${esc(t('common.noDifference', lang))}</p>`;
  const lines = compactDiff(report.schemaDiff).map((line) => {
    if (line.startsWith('+')) return `<span class="add"><span class="sr-only">${esc(t('page.added', lang))} </span>${esc(line)}</span>`;
    if (line.startsWith('-')) return `<span class="del"><span class="sr-only">${esc(t('page.removed', lang))} </span>${esc(line)}</span>`;
    return `<span class="ctx">${esc(line)}</span>`;
  });
  return `<pre class="diff">${lines.join('')}</pre>`;
}

function glossary(labels: string[], lang: Lang): string {
  const known = labels.filter((l) => outcomeMeaning(l, lang) !== undefined);
  if (known.length === 0) return '';
  return `<details class="glossary"><summary>${esc(t('page.glossaryTitle', lang))}</summary><dl>${known.map((l) => `<dt><code>${esc(l)}</code></dt><dd>${esc(outcomeMeaning(l, lang)!)}</dd>`).join('')}</dl></details>`;
}

/** Everything about one lab report: refusals, key figures, the charts, the schema diff, the server's traces. */
function reportBody(report: LabReport, lang: Lang, prefix: string, level: 2 | 3): string {
  const h = `h${level}`;
  const runs = shownRuns(report, lang);
  const s = report.settings;
  const out: string[] = [];
  out.push(
    `<p class="settings">${esc(t('common.client', lang))} <strong>${esc(s.client)}</strong> · ${esc(t('common.server', lang))} <strong>${esc(s.server)}</strong> · ${esc(t('common.seed', lang))} ${esc(s.seed)} · ${esc(s.calls)} ${esc(t('common.calls', lang))} · ${esc(t('common.temperature', lang))} ${esc(formatNumber(s.temperature, lang, PAGE_NUMBERS))}</p>`,
  );
  for (const line of runNotes(report, lang)) out.push(`<p class="build">${esc(line)}</p>`);
  for (const r of runs) {
    if (!r.run.host.accepted) {
      out.push(`<div class="refusal" role="note"><p><strong><span aria-hidden="true">⚠ </span>${esc(sentence(t('common.hostRefused', lang), lang))} (${esc(r.full)}, ${esc(r.run.client)}):</strong></p><blockquote><code>${esc(r.run.host.rejection)}</code></blockquote></div>`);
    }
    for (const note of r.run.serverNotes ?? []) out.push(`<div class="server-note" role="note"><p><strong>${esc(t('page.serverNote', lang))} (${esc(r.full)}):</strong> ${esc(note)}</p></div>`);
  }
  out.push(keyFigures(runs, lang));
  // With a real model: its figures next to the stand-in's, run by run.
  out.push(standInComparison(report, lang));

  // One order of labels for both outcome charts: the same label on the same row, the same legend.
  const labels = labelOrder(runs.flatMap((r) => [r.run.outcomes, r.run.finalOutcomes]));
  out.push(`<${h}>${esc(t('page.outcomesTitle', lang))}</${h}>`, outcomeChart(`${prefix}-outcomes`, t('page.outcomesTitle', lang), runs, (r) => r.outcomes, labels, lang));
  out.push(`<${h}>${esc(t('page.finalTitle', lang))}</${h}>`, outcomeChart(`${prefix}-final`, t('page.finalTitle', lang), runs, (r) => r.finalOutcomes, labels, lang));
  out.push(glossary(labels, lang));

  out.push(`<${h}>${esc(t('page.retriesTitle', lang))}</${h}>`, retriesChart(`${prefix}-retries`, runs, lang));

  const total = Math.max(...runs.map((r) => r.run.accuracy.total));
  const accuracyTitle = t('page.accuracyTitle', lang, { total });
  out.push(
    `<${h}>${esc(accuracyTitle)}</${h}>`,
    runBars(`${prefix}-accuracy`, accuracyTitle, runs, (r) => r.accuracy.correct, (r) => `${r.accuracy.correct}/${r.accuracy.total} · ${formatNumber(r.accuracy.total ? (100 * r.accuracy.correct) / r.accuracy.total : 0, lang, { ...PAGE_NUMBERS, decimals: 0 })}%`, lang, total),
  );
  out.push(`<${h}>${esc(t('page.silentTitle', lang))}</${h}>`, runBars(`${prefix}-silent`, t('page.silentTitle', lang), runs, (r) => r.silentWrong, (r) => String(r.silentWrong), lang, 1));
  out.push(`<${h}>${esc(t('page.latencyTitle', lang))}</${h}>`, latencyChart(`${prefix}-latency`, runs, lang));

  out.push(`<${h}>${esc(t('page.schemaTitle', lang))}</${h}>`, schemaDiff(report, lang));

  const variant = report.runs.variant;
  if (variant && (variant.stderrSample ?? []).length > 0) {
    out.push(`<${h}>${esc(sentence(t('common.stderr', lang, { run: variant.variant }), lang))}</${h}>`);
    out.push(`<pre class="stderr">${variant.stderrSample.map((l) => esc(l.length > 300 ? `${l.slice(0, 297)}...` : l)).join('\n')}</pre>`);
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------
// The lab sheet
// ---------------------------------------------------------------------------

/** Markdown to HTML with the sheet's raw HTML shown as text, links as text (no href leaves the page), images as their alt text. */
function renderSheet(markdown: string): string {
  const md = new Marked({
    gfm: true,
    async: false,
    renderer: {
      html(token: Tokens.HTML | Tokens.Tag) {
        return esc(token.text);
      },
      link(token: Tokens.Link) {
        const text = this.parser.parseInline(token.tokens);
        return token.text === token.href ? `<span class="link">${text}</span>` : `${text} <span class="link">(${esc(token.href)})</span>`;
      },
      image(token: Tokens.Image) {
        return esc(token.text);
      },
    },
  });
  return md.parse(markdown.replace(/<!--[\s\S]*?-->/g, ''), { async: false });
}

// ---------------------------------------------------------------------------
// The page
// ---------------------------------------------------------------------------

const CSS = `
:root { color-scheme: light; }
html { font-size: 20px; }
body { margin: 0; background: #ffffff; color: #111111; font-family: system-ui, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif; line-height: 1.45; }
main { max-width: 1080px; margin: 0 auto; padding: 1.2rem 1.6rem 3rem; }
h1 { font-size: 2rem; line-height: 1.2; margin: 0.4em 0 0.3em; }
h2 { font-size: 1.55rem; margin: 2.2em 0 0.6em; padding-bottom: 0.2em; border-bottom: 4px solid #111111; }
h3 { font-size: 1.2rem; margin: 1.8em 0 0.4em; }
h4 { font-size: 1.05rem; margin: 1.4em 0 0.3em; }
p { margin: 0.5em 0; }
code, pre { font-family: ui-monospace, 'DejaVu Sans Mono', 'Cascadia Mono', Menlo, Consolas, monospace; }
code { background: #eeeeee; padding: 0.05em 0.25em; border-radius: 3px; font-size: 0.95em; }
.settings { font-size: 1.05rem; }
.build, .note { color: #333333; }
nav ul { margin: 0.3em 0; }
a { color: #0b4f9c; }
.sheet { margin: 1em 0; padding: 0.4em 1.2em; border-left: 8px solid #555555; background: #f4f4f4; }
.sheet h1, .sheet h2, .sheet h3 { font-size: 1.15rem; border: 0; margin: 0.8em 0 0.3em; padding: 0; }
.sheet .link { font-size: 0.85em; color: #333333; }
.sheet pre { overflow-x: auto; background: #ffffff; padding: 0.5em; border: 1px solid #999999; font-size: 0.8rem; }
figure.chart-block { margin: 0.4em 0 1.4em; }
.chart-wrap { overflow-x: auto; }
svg.chart { display: block; width: 100%; min-width: 600px; max-width: 1040px; height: auto; }
table { border-collapse: collapse; margin: 0.6em 0; }
caption { text-align: left; font-weight: 700; font-size: 1.2rem; padding: 0.3em 0; }
th .sub { font-weight: 400; font-size: 0.85rem; white-space: nowrap; }
th, td { padding: 0.3em 0.8em; border-bottom: 1px solid #888888; text-align: right; vertical-align: top; }
th:first-child { text-align: left; }
thead th { border-bottom: 3px solid #111111; }
td.changed { font-weight: 700; text-decoration: underline; text-decoration-thickness: 3px; text-underline-offset: 4px; }
table.answers th, table.answers td { text-align: left; }
td.right { color: #0b5d1e; font-weight: 700; }
td.wrong { color: #a00016; font-weight: 700; }
.chip { display: inline-flex; align-items: center; gap: 0.4em; font-size: 1.15rem; font-weight: 700; }
.chip-swatch { display: inline-block; width: 1.1em; height: 1.1em; background: var(--chip); border: 2px solid #111111; border-radius: 3px; }
.measured-label { font-size: 1.15rem; }
.refusal { border-left: 10px solid #c62828; background: #fdecec; padding: 0.5em 1em; margin: 0.8em 0; }
.refusal blockquote { margin: 0.3em 0; }
.refusal code { background: transparent; white-space: pre-wrap; word-break: break-word; }
.server-note { border-left: 10px solid #6e6e6e; background: #f1f1f1; padding: 0.3em 1em; margin: 0.6em 0; }
pre.diff, pre.stderr { font-size: 18px; line-height: 1.4; background: #f7f7f7; border: 1px solid #888888; padding: 0.6em 0.8em; overflow-x: auto; }
pre.diff span { display: block; }
pre.diff .add { background: #d2f5dc; color: #063d16; font-weight: 700; }
pre.diff .del { background: #ffd9dc; color: #7a0010; font-weight: 700; }
pre.diff .ctx { color: #333333; }
pre.stderr { font-size: 16px; white-space: pre-wrap; word-break: break-word; }
details.glossary { margin: 0.2em 0 1em; }
details.glossary summary { cursor: pointer; font-weight: 700; }
details.glossary dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2em 1em; margin: 0.5em 0; }
details.glossary dd { margin: 0; }
section.question + section.question { border-top: 2px solid #bbbbbb; margin-top: 1.2em; }
.qid { margin: 0; font-size: 0.85rem; color: #333333; }
blockquote.reasoning { margin: 0.4em 0; padding: 0.2em 1em; border-left: 6px solid #0072b2; background: #eef6fb; }
footer { margin-top: 3em; font-size: 0.8rem; color: #333333; }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; border: 0; }
@media print { h2 { break-before: auto; } figure.chart-block { break-inside: avoid; } }
`;

function page(lang: Lang, title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="schema-breaks">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
${body}
<footer><p>${esc(t('page.footer', lang, { version: REPORT_FORMAT_VERSION }))}</p></footer>
</main>
</body>
</html>
`;
}

/** One self-contained HTML page for a lab report, or for a lab's runs and the predictions made of them. */
export function renderReportPage(input: PageInput): string {
  const { lang } = input;
  const sheet = input.sheet?.trim() ? `<section class="sheet" aria-label="${esc(t('page.fromSheet', lang))}">${renderSheet(input.sheet)}</section>` : '';
  if ('report' in input) {
    const report = input.report;
    const title = `schema-breaks: ${report.variant}`;
    const body = `<header><p class="note">${esc(t('page.pageTitle', lang))}</p><h1>${esc(title)}</h1></header>\n${sheet}\n${reportBody(report, lang, 'r', 2)}`;
    return page(lang, `${title} · ${report.settings.client} · ${report.settings.server}`, body);
  }

  const { lab, results } = input;
  const predictions = input.predictions ?? [];
  const runNames = [...lab.runs.map((r) => r.name).filter((n) => results[n]), ...Object.keys(results).filter((n) => !lab.runs.some((r) => r.name === n))];
  const out: string[] = [];
  out.push(`<header><p class="note">${esc(t('page.labPageTitle', lang))} · <code>${esc(lab.id)}</code></p><h1>${inlineCode(lab.title[lang])}</h1></header>`);
  out.push(
    `<nav aria-label="${esc(t('page.contents', lang))}"><ul><li><a href="#predictions">${esc(t('page.predictionsTitle', lang))}</a></li>${runNames
      .map((n) => `<li><a href="#run-${safeId(n)}">${esc(t('page.runHeading', lang, { name: n }))}: ${esc(results[n]!.settings.client)}, ${esc(results[n]!.settings.server)}</a></li>`)
      .join('')}</ul></nav>`,
  );
  out.push(sheet);
  out.push(`<h2 id="predictions">${esc(t('page.predictionsTitle', lang))}</h2>`);
  if (predictions.length === 0) out.push(`<p class="note">${esc(t('page.noPredictions', lang))}</p>`);
  lab.questions.forEach((q, i) => out.push(questionBlock(lab, q, i, input.perSeed ?? [results], predictions, lang)));
  const reasons = predictions.map((p, i) => ({ who: whoOf(predictions, i, lang), text: p.reasoning?.trim() })).filter((r) => r.text);
  if (reasons.length > 0) {
    out.push(`<h3>${esc(t('page.reasoningTitle', lang))}</h3>`);
    for (const r of reasons) out.push(`<blockquote class="reasoning"><p><strong>${esc(r.who)}:</strong> ${esc(r.text)}</p></blockquote>`);
  }
  for (const name of runNames) {
    const report = results[name]!;
    out.push(`<h2 id="run-${safeId(name)}">${esc(t('page.runHeading', lang, { name }))}: ${esc(report.settings.client)}, ${esc(report.settings.server)}</h2>`);
    out.push(reportBody(report, lang, `run-${safeId(name)}`, 3));
  }
  return page(lang, `schema-breaks: ${lab.id}`, out.join('\n'));
}
