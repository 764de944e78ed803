/**
 * The sweep's page: a grid, a row per lab, a column per client profile and
 * server build, each cell the baseline, the break and the fix as outcome
 * bars. Self-contained: inline CSS and SVG, no script, nothing fetched.
 */
import type { Lang } from '../core/lang.js';
import { formatNumber, t, type MessageId } from '../core/messages/index.js';
import { figure } from '../lab/figures.js';
import { buildDescription } from '../lab/report.js';
import { OUTCOMES } from '../lab/outcomes.js';
import { esc, outcomeColour, page } from './html.js';
import { canonical, okShare, pct, SWEEP_FORMAT, SWEEP_FORMAT_VERSION, type SweepCell, type SweepLab, type SweepReport, type SweepRun, type SweepTiming, type Verdict } from './sweep-model.js';

// ---------------------------------------------------------------------------
// The page
// ---------------------------------------------------------------------------

/** Labels in the legend's order: as the outcome table lists them, then the others by name. */
function labelOrder(labels: Iterable<string>): string[] {
  const known = Object.keys(OUTCOMES);
  const rank = (l: string) => (known.includes(l) ? known.indexOf(l) : known.length);
  return [...new Set(labels)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The facts a cell shows beside a bar, each a symbol on the projector and words for a screen reader (a figure's own label where it is one). */
const FACTS: { id: 'silentWrong' | 'cleared' | 'mutations' | 'retries'; symbol: string; words: (lang: Lang) => string; cls: string; value: (r: SweepRun) => number }[] = [
  { id: 'silentWrong', symbol: '✗', words: (lang) => figure('silentWrong').label[lang], cls: 'wrong', value: (r) => r.silentWrong },
  { id: 'cleared', symbol: '∅', words: (lang) => t('sweep.cleared', lang), cls: 'wrong', value: (r) => r.fieldsCleared },
  { id: 'mutations', symbol: '✎', words: (lang) => t('sweep.mutations', lang), cls: 'wrong', value: (r) => r.mutationsThroughReadOnly },
  { id: 'retries', symbol: '↻', words: (lang) => t('sweep.retries', lang), cls: 'retry', value: (r) => r.retries.total },
];

type Kind = 'baseline' | 'variant' | 'solution';

/** Each run's name in a cell, in words. */
const LONG: Record<Kind, MessageId> = { baseline: 'common.baseline', variant: 'sweep.variantLong', solution: 'sweep.solutionLong' };

/** The page's reading of a verdict: a worse break whose answers end the same, only with more retries, is told apart. */
type Shade = Verdict | 'costly';

function shade(cell: SweepCell): Shade {
  const { variant, baseline } = cell.runs;
  if (cell.verdict.variant !== 'worse') return cell.verdict.variant;
  const sameEnd = FACTS.filter((f) => f.id !== 'retries').every((f) => f.value(variant) === f.value(baseline)) &&
    canonical(variant.finalOutcomes) === canonical(baseline.finalOutcomes) && variant.accuracy.correct === baseline.accuracy.correct;
  return sameEnd ? 'costly' : 'worse';
}

const SHADES: Shade[] = ['worse', 'costly', 'mixed', 'different', 'better', 'same'];

const TINTS: Record<Shade, string> = {
  worse: '#f9d3d3',
  costly: '#fcebea',
  mixed: '#fde9b0',
  different: '#fdf1cf',
  better: '#d5efdb',
  same: '#eceef1',
};

/** A stacked bar of how the calls of a run ended, with its title and description. */
function outcomeBar(run: SweepRun, caption: string, lang: Lang, id: string, width = 96, height = 16): string {
  const counts = run.finalOutcomes;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const parts = labelOrder(Object.keys(counts)).map((label) => ({ label, n: counts[label]! }));
  let x = 0;
  const rects = parts
    .map((p) => {
      const w = total === 0 ? 0 : (p.n / total) * width;
      const rect = `<rect x="${x.toFixed(2)}" y="0" width="${w.toFixed(2)}" height="${height}" fill="${outcomeColour(p.label)}"/>`;
      x += w;
      return rect;
    })
    .join('');
  const desc = t('sweep.ended', lang, { total, parts: parts.map((p) => `${p.label} ${p.n}`).join(', ') }) + (run.host.accepted ? '' : `; ${t('common.hostRefused', lang)}`);
  // Stretched by CSS to what the cell leaves (the same in every cell: the columns are equal), never distorted: it holds rectangles only.
  return (
    `<svg class="bar" role="img" aria-labelledby="${id}t ${id}d" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" preserveAspectRatio="none">` +
    `<title id="${id}t">${esc(caption)}</title><desc id="${id}d">${esc(desc)}</desc>` +
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#fff"/>${rects}` +
    `<rect x="0" y="0" width="${width}" height="${height}" fill="none" stroke="#444" stroke-width="2" vector-effect="non-scaling-stroke"/></svg>`
  );
}

/**
 * One run of a cell: its bar, its share ending ok, and its facts. The
 * baseline shows every fact that is not zero; the break and the fix only
 * those that differ from the baseline (a cell is narrow, and the difference
 * is the finding).
 */
function runLine(run: SweepRun, kind: Kind, lang: Lang, where: string, id: string, baseline: SweepRun, short = false): string {
  const caption = `${t(LONG[kind], lang)}, ${where}`;
  const facts: string[] = [];
  for (const f of FACTS) {
    const n = f.value(run);
    if (kind === 'baseline' ? n > 0 : n !== f.value(baseline)) facts.push(`<span class="${f.cls}"><span aria-hidden="true">${f.symbol}${n}</span><span class="sr">${n} ${esc(f.words(lang))}</span></span>`);
  }
  // The run's name for a screen reader (sighted readers have the row's key column); a fix that falls short is marked here too.
  const mark = short ? '<span class="warn" aria-hidden="true">⚠</span>' : '';
  return (
    `<div class="run run-${kind}"><span class="sr">${esc(t(LONG[kind], lang))}: </span>${outcomeBar(run, caption, lang, id)}` +
    `<span class="pct">${mark}${pct(okShare(run))}<span class="sr"> ${esc(t('sweep.okShare', lang))}</span></span><span class="facts">${facts.join(' ')}</span></div>`
  );
}

function cellHtml(cell: SweepCell, lang: Lang, id: string): string {
  const where = `${cell.lab}, ${cell.client}, ${cell.server}`;
  const look = shade(cell);
  const classes = ['cell', `v-${look}`];
  const short = cell.verdict.solutionFallsShort;
  if (short) classes.push('short');
  const base = cell.runs.baseline;
  const lines = [runLine(base, 'baseline', lang, where, `${id}b`, base), runLine(cell.runs.variant, 'variant', lang, where, `${id}v`, base)];
  if (cell.runs.solution) lines.push(runLine(cell.runs.solution, 'solution', lang, where, `${id}s`, base, short));
  const said = [t(`sweep.cellVariant.${look}`, lang)];
  const s = cell.verdict.solution;
  if (s !== null) said.push(t(`sweep.cellSolution.${short ? 'short' : s === 'better' || s === 'different' ? s : 'same'}`, lang));
  if (!cell.runs.variant.host.accepted) said.push(`${t('sweep.variantLong', lang)}: ${t('common.hostRefused', lang)}.`);
  if (cell.runs.solution && !cell.runs.solution.host.accepted) said.push(`${t('sweep.solutionLong', lang)}: ${t('common.hostRefused', lang)}.`);
  return `<td class="${classes.join(' ')}">${lines.join('')}<span class="sr">${esc(said.join(' '))}</span></td>`;
}

/** Every line of a cell is this tall, and so is every line of the row's key: they line up. */
const LINE = 24;

const CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; padding: 10px 14px 20px; font: 16px/1.25 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #111; background: #fff; }
header { display: flex; flex-wrap: wrap; align-items: baseline; column-gap: 24px; }
h1 { font-size: 26px; margin: 0; }
h2 { font-size: 21px; margin: 16px 0 6px; }
p { margin: 2px 0; }
.sr { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.summary { font-size: 19px; font-weight: 700; }
.intro { font-size: 15px; color: #222; }
.legend { display: flex; flex-wrap: wrap; gap: 2px 14px; align-items: center; margin: 3px 0; font-size: 15px; }
.legend strong { font-weight: 600; }
.swatch { display: inline-block; width: 18px; height: 14px; border: 1px solid #444; vertical-align: -2px; margin-right: 5px; }
table.grid { border-collapse: separate; border-spacing: 3px; width: 100%; table-layout: fixed; margin-top: 4px; }
.grid thead { position: sticky; top: 0; z-index: 1; background: #fff; }
.grid th { background: #20242c; color: #fff; padding: 3px 5px; text-align: center; vertical-align: top; font-size: 17px; border-radius: 4px; }
.grid th .sub { display: block; font-weight: 400; font-size: 12px; color: #d6dbe4; line-height: 1.15; margin-top: 1px; }
.grid th.server { background: #3a4050; font-size: 13px; font-weight: 600; font-variant-numeric: tabular-nums; padding: 1px 2px; }
.grid th.labname { width: 132px; font-size: 14.5px; line-height: 1.15; text-align: left; padding: 3px 4px; }
.grid th.labname .sub { font-size: 11.5px; }
.grid th.labname code { font-size: 11.5px; color: #d6dbe4; font-weight: 400; overflow-wrap: anywhere; }
.grid th.key { width: var(--key-width, 42px); background: #3a4050; font-size: 13px; font-weight: 400; text-align: right; padding: 5px 4px 3px; }
.grid th.key span { display: block; height: ${LINE}px; line-height: ${LINE}px; }
.grid th.key .k-variant { font-weight: 700; }
td.cell { border: 3px solid transparent; border-radius: 5px; padding: 2px 1px 2px 2px; vertical-align: top; }
${SHADES.map((s) => `td.v-${s}, .tint-${s} { background: ${TINTS[s]}; }`).join('\n')}
td.short { border-color: #b00020; }
.run { display: flex; align-items: center; column-gap: 3px; white-space: nowrap; height: ${LINE}px; }
svg.bar { flex: 0 0 30%; display: block; height: 14px; }
.pct { flex: 0 0 2.45em; font-size: 14.5px; font-weight: 700; font-variant-numeric: tabular-nums; text-align: right; }
.run-variant .pct { color: #000; }
.facts { position: relative; flex: 1 1 auto; min-width: 0; max-height: ${LINE}px; overflow: hidden; white-space: normal; font-size: 12px; line-height: 12px; font-variant-numeric: tabular-nums; letter-spacing: -0.2px; }
.facts > span { white-space: nowrap; }
.warn { color: #b00020; font-weight: 700; margin-right: 1px; }
.wrong { color: #9a0000; font-weight: 700; }
.retry { color: #333; }
.refused { color: #1565c0; font-weight: 700; }
@media (max-width: 1500px) {
  body { font-size: 14px; padding: 6px 6px 14px; }
  .grid th { font-size: 14px; padding: 2px 3px; }
  .grid th.labname { width: 100px; font-size: 13px; }
  .grid th.key { font-size: 11px; }
  svg.bar { flex-basis: 26%; }
  .grid th.server { font-size: 11px; }
  .pct { font-size: 12.5px; }
  .facts { font-size: 10.5px; }
}
ul.findings { margin: 3px 0; padding-left: 22px; }
ul.findings li { margin: 3px 0; }
code, .rejection { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 14px; }
.rejection { background: #f3f3f3; padding: 0 3px; white-space: pre-wrap; }
footer { margin-top: 12px; font-size: 14px; color: #444; }
`;

function labSettings(lab: SweepLab, lang: Lang): string {
  const bits = [t(`sweep.workload.${lab.workload}`, lang), ...(lab.readOnly ? [t('sweep.readOnly', lang)] : [])];
  return bits.join(' · ');
}

export function renderPage(report: SweepReport, lang: Lang, timing?: SweepTiming): string {
  const cellAt = (lab: SweepLab, client: string, server: string) =>
    report.cells.find((c) => c.lab === lab.id && c.workload === lab.workload && c.readOnly === lab.readOnly && c.client === client && c.server === server);
  const { seed, calls } = report.settings;
  const header =
    `<tr><th scope="col" rowspan="2" class="labname">${esc(t('sweep.lab', lang))}</th><th scope="col" rowspan="2" class="key"></th>` +
    report.clients.map((c) => `<th scope="colgroup" colspan="${report.servers.length}" title="${esc(c.title)}">${esc(c.id)}<span class="sub">${esc(c.asOf)}</span></th>`).join('') +
    '</tr>\n<tr>' +
    report.clients.map((c) => report.servers.map((server) => `<th scope="col" class="server"><span class="sr">${esc(c.id)}, ${esc(t('sweep.server', lang))} </span>${esc(server)}</th>`).join('')).join('') +
    '</tr>';
  const key = (['baseline', 'variant', 'solution'] as const).map((k) => `<span class="k-${k}">${esc(t(`sweep.key.${k}`, lang))}</span>`).join('');
  // Wide enough for the longest run name in this language (bold, 13px).
  const keyWidth = Math.ceil(12 + 8.6 * Math.max(...(['baseline', 'variant', 'solution'] as const).map((k) => t(`sweep.key.${k}`, lang).length)));
  let n = 0;
  const body = report.labs
    .map((lab) => {
      const cells = report.clients.flatMap((c) =>
        report.servers.map((server) => {
          const cell = cellAt(lab, c.id, server);
          return cell ? cellHtml(cell, lang, `c${++n}`) : '<td class="cell"></td>';
        }),
      );
      const labCell = `<th scope="row" class="labname">${esc(lab.title[lang])}<br><code>${esc(lab.id)}</code><span class="sub">${esc(labSettings(lab, lang))}</span></th>`;
      return `<tr>${labCell}<th class="key" aria-hidden="true">${key}</th>${cells.join('')}</tr>`;
    })
    .join('\n');

  const runs = report.cells.flatMap((c) => [c.runs.baseline, c.runs.variant, ...(c.runs.solution ? [c.runs.solution] : [])]);
  const labels = labelOrder(runs.flatMap((r) => Object.keys(r.finalOutcomes)));
  const swatches = labels.map((l) => `<span><span class="swatch" style="background:${outcomeColour(l)}" aria-hidden="true"></span>${esc(l)}</span>`).join('');
  const shades = SHADES.filter((s) => report.cells.some((c) => shade(c) === s));
  const tints = shades.map((s) => `<span><span class="swatch tint-${s}" aria-hidden="true"></span>${esc(t(`sweep.shade.${s}`, lang))}</span>`).join('');
  const facts = FACTS.filter((f) => runs.some((r) => f.value(r) > 0)).map((f) => `<span><span aria-hidden="true">${f.symbol} N: </span>${esc(f.words(lang))}</span>`);
  if (facts.length > 0) facts.push(`<span>${esc(t('sweep.factsRule', lang))}</span>`);

  const short = report.cells.filter((c) => c.verdict.solutionFallsShort);
  const differ = report.cells.filter((c) => c.verdict.variant !== 'same').length;
  const title = (id: string) => report.labs.find((l) => l.id === id)?.title[lang] ?? id;
  const findings =
    short.length === 0
      ? `<p>${esc(t('sweep.noFindings', lang))}</p>`
      : `<ul class="findings">${short
          .map((c) => {
            const s = c.runs.solution!;
            const b = c.runs.baseline;
            const bits = [`ok ${pct(okShare(b))} → ${pct(okShare(s))}`];
            for (const f of FACTS) if (f.value(s) !== f.value(b)) bits.push(`${f.words(lang)} ${f.value(b)} → ${f.value(s)}`);
            const said = s.host.accepted ? '' : `; ${esc(t('sweep.hostSaid', lang))}: <span class="rejection">${esc(s.host.rejection)}</span>`;
            return `<li><strong>${esc(title(c.lab))}</strong> (<code>${esc(c.lab)}</code>), ${esc(c.client)}, ${esc(c.server)}: ${esc(bits.join(', '))}${said}</li>`;
          })
          .join('')}</ul>`;
  // Runs measured now, and those taken from the cache (src/class/sweep-cache.ts) when there are any.
  const timingWords = timing && {
    runs: t('sweep.runs', lang, { count: timing.runs }),
    seconds: formatNumber(timing.totalMs / 1000, lang, { decimals: 1, minDecimals: 1 }),
    workers: t('sweep.workers', lang, { count: timing.jobs }),
    kept: t('sweep.keptRuns', lang, { count: timing.cached }),
  };
  const timingLine = timing && timingWords ? `${esc(t(timing.cached > 0 ? 'sweep.timingCached' : 'sweep.timing', lang, timingWords))} · ` : '';
  // The builds of this sweep's columns, in the words the reports use for them.
  const builds = report.servers.map((b) => buildDescription(b, lang)).join('; ');
  const footer = t('sweep.footer', lang, { format: SWEEP_FORMAT, version: SWEEP_FORMAT_VERSION, seed, calls, temperature: report.settings.temperature });

  return page({
    lang,
    title: t('sweep.title', lang),
    css: `${CSS}\n:root { --key-width: ${keyWidth}px; }`,
    body: `<header><h1>${esc(t('sweep.title', lang))}</h1><p class="summary">${esc(t('sweep.summary', lang, { differ, short: short.length, cells: report.cells.length }))}</p></header>
<p class="intro">${esc(t('sweep.intro', lang, { seed, calls }))} ${esc(t('sweep.errorsRule', lang, { builds }))}</p>
<section aria-label="${esc(t('sweep.legend', lang))}">
<div class="legend">${swatches}<span>${esc(t('sweep.legendBar', lang))}</span></div>
<div class="legend"><strong>${esc(t('sweep.legendTint', lang))}</strong>${tints}<span>${esc(t('sweep.legendShort', lang))}</span></div>
<div class="legend">${facts.join('')}</div>
</section>
<table class="grid">
<caption class="sr">${esc(t('sweep.title', lang))}</caption>
<thead>${header}</thead>
<tbody>
${body}
</tbody>
</table>
<h2>${esc(t('sweep.findings', lang))}</h2>
${findings}
<footer>${timingLine}${esc(footer)}</footer>`,
  });
}

