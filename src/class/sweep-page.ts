/**
 * The sweep's page, designed to be read on a projector (issue 35): hosts (the
 * client profiles) as rows, labs as column groups of three (the baseline, the
 * break, the break with its fix), one figure a cell. The server build is a
 * choice above the table, as is the figure shown (calls ending ok, retries,
 * silently wrong answers, ...): 17 hosts x 8 labs x 3 runs fit 1280 px, where
 * a column per host and build (51 of them, each holding three bars and their
 * figures) did not fit 1920.
 *
 * Self-contained: inline CSS, no script, nothing fetched. The choices are
 * radio buttons that CSS reads (`:checked ~`): a page with no script still
 * switches, and prints every build's table.
 */
import type { Lang } from '../core/lang.js';
import { formatNumber, t } from '../core/messages/index.js';
import { figure } from '../lab/figures.js';
import { buildDescription } from '../lab/report.js';
import { esc, page } from './html.js';
import { canonical, okShare, pct, SWEEP_FORMAT, SWEEP_FORMAT_VERSION, type SweepCell, type SweepLab, type SweepReport, type SweepRun, type SweepTiming, type Verdict } from './sweep-model.js';

/** The figures a cell can show, one at a time; the others only when some run has one. */
const FIGURES: { id: 'ok' | 'retries' | 'silentWrong' | 'cleared' | 'mutations'; words: (lang: Lang) => string; value: (r: SweepRun) => number; show: (r: SweepRun) => string }[] = [
  { id: 'ok', words: (lang) => t('sweep.okShare', lang), value: okShare, show: (r) => pct(okShare(r)) },
  { id: 'retries', words: (lang) => t('sweep.retries', lang), value: (r) => r.retries.total, show: (r) => String(r.retries.total) },
  { id: 'silentWrong', words: (lang) => figure('silentWrong').label[lang], value: (r) => r.silentWrong, show: (r) => String(r.silentWrong) },
  { id: 'cleared', words: (lang) => t('sweep.cleared', lang), value: (r) => r.fieldsCleared, show: (r) => String(r.fieldsCleared) },
  { id: 'mutations', words: (lang) => t('sweep.mutations', lang), value: (r) => r.mutationsThroughReadOnly, show: (r) => String(r.mutationsThroughReadOnly) },
];

type Kind = 'baseline' | 'variant' | 'solution';
const KINDS: Kind[] = ['baseline', 'variant', 'solution'];

/** Each run's name in words: a header's title and a cell's. */
const LONG = { baseline: 'common.baseline', variant: 'sweep.variantLong', solution: 'sweep.solutionLong' } as const;

/** The page's reading of a verdict: a worse run whose answers end the same, only with more retries, is told apart. */
type Shade = Verdict | 'costly';

function shade(run: SweepRun, baseline: SweepRun, verdict: Verdict): Shade {
  if (verdict !== 'worse') return verdict;
  const sameEnd = FIGURES.filter((f) => f.id !== 'retries').every((f) => f.value(run) === f.value(baseline)) &&
    canonical(run.finalOutcomes) === canonical(baseline.finalOutcomes) && run.accuracy.correct === baseline.accuracy.correct;
  return sameEnd ? 'costly' : 'worse';
}

const SHADES: Shade[] = ['worse', 'costly', 'mixed', 'different', 'better', 'same'];

/** Light tints: the figure on them keeps a contrast well above 4.5:1 (test/sweep-page.test.ts measures it). */
const TINTS: Record<Shade, string> = {
  worse: '#f9d3d3',
  costly: '#fcebea',
  mixed: '#fde9b0',
  different: '#fdf1cf',
  better: '#d5efdb',
  same: '#eceef1',
};

/** A build's id as a CSS name: its dots are not allowed there. */
const slug = (build: string) => build.replace(/[^A-Za-z0-9_-]/g, '-');

/** What a cell says in words (its title: a tooltip, and what a screen reader adds to the row and column headers). */
function cellWords(cell: SweepCell, kind: Kind, run: SweepRun, look: Shade | null, lang: Lang): string {
  const figures = FIGURES.map((f) => (f.id === 'ok' ? `${f.show(run)} ${f.words(lang)}` : f.value(run) > 0 ? `${f.words(lang)}: ${f.show(run)}` : '')).filter(Boolean);
  const said = [`${cell.client}, ${cell.lab}, ${cell.server}, ${t(LONG[kind], lang)}: ${figures.join('; ')}.`];
  if (kind === 'variant' && look) said.push(t(`sweep.cellVariant.${look}`, lang));
  if (kind === 'solution' && cell.verdict.solution !== null) {
    const s = cell.verdict.solution;
    said.push(t(`sweep.cellSolution.${cell.verdict.solutionFallsShort ? 'short' : s === 'better' || s === 'different' ? s : 'same'}`, lang));
  }
  if (!run.host.accepted) said.push(`${t('common.hostRefused', lang)}.`);
  return said.join(' ');
}

/** One run of a cell: one figure for each choice, the chosen one shown; the tint is its verdict against the baseline. */
function runCell(cell: SweepCell, kind: Kind, lang: Lang, figures: typeof FIGURES): string {
  const run = kind === 'solution' ? cell.runs.solution : cell.runs[kind];
  if (!run) return `<td class="cell none" title="${esc(t('sweep.noSolution', lang))}">–</td>`;
  const verdict = kind === 'variant' ? cell.verdict.variant : kind === 'solution' ? cell.verdict.solution : null;
  const look = verdict === null ? null : shade(run, cell.runs.baseline, verdict);
  const classes = ['cell', `k-${kind}`, ...(look ? [`v-${look}`] : []), ...(kind === 'solution' && cell.verdict.solutionFallsShort ? ['short'] : []), ...(run.host.accepted ? [] : ['refused'])];
  const values = figures.map((f) => `<span class="fig fig-${f.id}">${run.host.accepted ? '' : '⊘'}${esc(f.show(run))}</span>`).join('');
  return `<td class="${classes.join(' ')}" title="${esc(cellWords(cell, kind, run, look, lang))}">${values}</td>`;
}

function labSettings(lab: SweepLab, lang: Lang): string {
  return [t(`sweep.workload.${lab.workload}`, lang), ...(lab.readOnly ? [t('sweep.readOnly', lang)] : [])].join(' · ');
}

/** A lab's title with its `code` spans as code. */
const labTitle = (lab: SweepLab, lang: Lang) => esc(lab.title[lang]).replace(/`([^`]+)`/g, '<code>$1</code>');

/**
 * The most labs one table holds: three columns each, the host's column beside them, at 1280 px (a projector's width)
 * every cell still holds "100%" at 13 px. A sweep of more labs is split into tables of equal share, one under the other.
 */
export const LABS_PER_TABLE = 8;

/** The labs of each table of one build, in the catalogue's order: as few tables as LABS_PER_TABLE allows, of even size. */
export function labChunks<T>(labs: T[]): T[][] {
  const tables = Math.max(1, Math.ceil(labs.length / LABS_PER_TABLE));
  const size = Math.ceil(labs.length / tables);
  return Array.from({ length: tables }, (_, i) => labs.slice(i * size, (i + 1) * size)).filter((chunk) => chunk.length > 0);
}

/** One server build's tables: a row per host, a group of three columns per lab, the labs split by labChunks. */
function buildTables(report: SweepReport, server: string, lang: Lang, figures: typeof FIGURES): string {
  const chunks = labChunks(report.labs);
  let first = 1;
  return chunks
    .map((labs) => {
      const range = chunks.length > 1 ? ` (${esc(t('sweep.labsRange', lang, { first, last: first + labs.length - 1, of: report.labs.length }))})` : '';
      first += labs.length;
      return buildTable(report, labs, server, lang, figures, range);
    })
    .join('\n');
}

/** One table of a server build: a row per host, a group of three columns per lab of `labs`. */
function buildTable(report: SweepReport, labs: SweepReport['labs'], server: string, lang: Lang, figures: typeof FIGURES, range: string): string {
  const at = new Map(report.cells.filter((c) => c.server === server).map((c) => [`${c.lab} ${c.workload} ${c.readOnly} ${c.client}`, c]));
  const cols = `<colgroup><col class="c-host"></colgroup>${labs.map(() => '<colgroup span="3"></colgroup>').join('')}`;
  const groups = labs
    .map((lab) => `<th scope="colgroup" colspan="3" class="lab">${labTitle(lab, lang)}<code class="id">${esc(lab.id)}</code><span class="sub">${esc(labSettings(lab, lang))}</span></th>`)
    .join('');
  const keys = labs.map(() => KINDS.map((k) => `<th scope="col" class="key k-${k}" title="${esc(t(LONG[k], lang))}">${esc(t(`sweep.key.${k}`, lang))}</th>`).join('')).join('');
  const rows = report.clients
    .map((client) => {
      const cells = labs.flatMap((lab) => {
        const cell = at.get(`${lab.id} ${lab.workload} ${lab.readOnly} ${client.id}`);
        return cell ? KINDS.map((k) => runCell(cell, k, lang, figures)) : KINDS.map(() => '<td class="cell none">–</td>');
      });
      return `<tr><th scope="row" class="host" title="${esc(`${client.title} (${client.asOf})`)}">${esc(client.id)}</th>${cells.join('')}</tr>`;
    })
    .join('\n');
  return `<table class="grid b-${slug(server)}">
<caption>${esc(t('sweep.server', lang))}: <code>${esc(server)}</code>${range}</caption>
${cols}
<thead><tr><th scope="col" rowspan="2" class="host corner">${esc(t('sweep.host', lang))}</th>${groups}</tr><tr>${keys}</tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

const CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; padding: 10px 14px 20px; font: 16px/1.3 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #111; background: #fff; }
header { display: flex; flex-wrap: wrap; align-items: baseline; column-gap: 24px; }
h1 { font-size: 26px; margin: 0; }
h2 { font-size: 21px; margin: 16px 0 6px; }
p { margin: 2px 0; }
.summary { font-size: 19px; font-weight: 700; }
.intro { font-size: 15px; color: #222; }
.legend { display: flex; flex-wrap: wrap; gap: 2px 14px; align-items: center; margin: 3px 0; font-size: 15px; }
.legend strong { font-weight: 600; }
.swatch { display: inline-block; width: 18px; height: 14px; border: 1px solid #444; vertical-align: -2px; margin-right: 5px; }
.swatch.short { border: 3px solid #b00020; background: #fff; }
/* The choices: radio buttons out of sight (still focusable), their labels as buttons. */
input.pick { position: absolute; opacity: 0; width: 1px; height: 1px; margin: 0; }
.choices { display: flex; flex-wrap: wrap; gap: 4px 28px; align-items: center; margin: 6px 0 4px; }
.choices fieldset { border: 0; padding: 0; margin: 0; display: flex; flex-wrap: wrap; align-items: center; gap: 4px 6px; }
.choices legend { float: left; font-weight: 700; font-size: 16px; margin-right: 6px; padding: 0; }
.choices label { display: inline-block; border: 2px solid #20242c; border-radius: 5px; padding: 2px 10px; font-size: 16px; cursor: pointer; background: #fff; color: #111; }
{picks}
table.grid { display: none; border-collapse: separate; border-spacing: 2px; width: 100%; table-layout: fixed; margin-top: 2px; }
table.grid caption { text-align: left; font-size: 15px; font-weight: 700; padding: 2px 0; }
col.c-host { width: 12.5%; }
.grid thead th { position: sticky; top: 0; }
.grid th { background: #20242c; color: #fff; padding: 2px 4px; text-align: center; vertical-align: top; font-size: 15px; border-radius: 4px; overflow-wrap: anywhere; }
.grid th.lab { line-height: 1.15; }
.grid th.lab code { font-size: 0.9em; }
.grid th .id { display: block; font-weight: 400; font-size: 12px; color: #d6dbe4; margin-top: 1px; }
.grid th .sub { display: block; font-weight: 400; font-size: 12px; color: #d6dbe4; line-height: 1.15; }
.grid th.key { background: #3a4050; font-size: 13px; font-weight: 400; top: auto; }
.grid th.key.k-variant { font-weight: 700; }
.grid th.host { text-align: left; font-size: 14px; font-weight: 600; vertical-align: middle; font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
.grid th.corner { font-family: inherit; vertical-align: bottom; }
td.cell { border: 2px solid transparent; border-radius: 4px; padding: 1px 2px; text-align: center; vertical-align: middle; font-size: 16px; font-variant-numeric: tabular-nums; white-space: nowrap; height: 28px; }
td.k-baseline { border-color: #c3c8d0; }
td.k-variant { font-weight: 700; }
td.none { color: #333; }
td.refused { color: #0d47a1; }
${SHADES.map((s) => `td.v-${s}, .tint-${s} { background: ${TINTS[s]}; }`).join('\n')}
td.short { border: 3px solid #b00020; }
.fig { display: none; }
@media (max-width: 1500px) {
  body { padding: 6px 6px 14px; }
  h1 { font-size: 22px; }
  .summary { font-size: 16px; }
  .intro, .legend { font-size: 13.5px; }
  .choices label, .choices legend { font-size: 14px; }
  table.grid { border-spacing: 1px; }
  col.c-host { width: 11.5%; }
  .grid th { font-size: 12.5px; padding: 1px 2px; }
  .grid th .id, .grid th .sub { font-size: 10.5px; }
  .grid th.key { font-size: 11.5px; }
  .grid th.host { font-size: 11.5px; }
  td.cell { font-size: 13px; padding: 0 1px; height: 22px; }
}
@media print {
  .choices { display: none; }
  table.grid { display: table !important; break-inside: avoid; margin-bottom: 8px; }
  .fig { display: none !important; }
  .fig-ok { display: inline !important; }
  .grid thead th { position: static; }
}
ul.findings { margin: 3px 0; padding-left: 22px; }
ul.findings li { margin: 3px 0; }
code, .rejection { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 14px; }
.rejection { background: #f3f3f3; padding: 0 3px; white-space: pre-wrap; }
footer { margin-top: 12px; font-size: 14px; color: #444; }
`;

/** The rules that show the chosen build's table and figure, and mark the chosen labels. */
function pickRules(servers: string[], figures: typeof FIGURES): string {
  const rules: string[] = [];
  for (const s of servers.map(slug)) {
    rules.push(`#build-${s}:checked ~ table.b-${s} { display: table; }`);
    rules.push(`#build-${s}:checked ~ .choices label[for="build-${s}"] { background: #20242c; color: #fff; }`);
    rules.push(`#build-${s}:focus-visible ~ .choices label[for="build-${s}"] { outline: 3px solid #0b5394; outline-offset: 2px; }`);
  }
  for (const f of figures) {
    rules.push(`#figure-${f.id}:checked ~ table .fig-${f.id} { display: inline; }`);
    rules.push(`#figure-${f.id}:checked ~ .choices label[for="figure-${f.id}"] { background: #20242c; color: #fff; }`);
    rules.push(`#figure-${f.id}:focus-visible ~ .choices label[for="figure-${f.id}"] { outline: 3px solid #0b5394; outline-offset: 2px; }`);
  }
  return rules.join('\n');
}

export function renderPage(report: SweepReport, lang: Lang, timing?: SweepTiming): string {
  const { seed, calls } = report.settings;
  const runs = report.cells.flatMap((c) => [c.runs.baseline, c.runs.variant, ...(c.runs.solution ? [c.runs.solution] : [])]);
  // Calls ending ok always; another figure only when some run has one.
  const figures = FIGURES.filter((f) => f.id === 'ok' || runs.some((r) => f.value(r) > 0));

  const looks = report.cells.flatMap((c) => [shade(c.runs.variant, c.runs.baseline, c.verdict.variant), ...(c.runs.solution && c.verdict.solution ? [shade(c.runs.solution, c.runs.baseline, c.verdict.solution)] : [])]);
  const tints = SHADES.filter((s) => looks.includes(s)).map((s) => `<span><span class="swatch tint-${s}" aria-hidden="true"></span>${esc(t(`sweep.shade.${s}`, lang))}</span>`).join('');
  const refused = runs.some((r) => !r.host.accepted) ? `<span>${esc(t('sweep.legendRefused', lang))}</span>` : '';

  const short = report.cells.filter((c) => c.verdict.solutionFallsShort);
  const differ = report.cells.filter((c) => c.verdict.variant !== 'same').length;
  const title = (id: string) => { const lab = report.labs.find((l) => l.id === id); return lab ? labTitle(lab, lang) : esc(id); };
  const findings =
    short.length === 0
      ? `<p>${esc(t('sweep.noFindings', lang))}</p>`
      : `<ul class="findings">${short
          .map((c) => {
            const s = c.runs.solution!;
            const b = c.runs.baseline;
            const bits = FIGURES.filter((f) => f.value(s) !== f.value(b)).map((f) => `${f.id === 'ok' ? 'ok' : f.words(lang)} ${f.show(b)} → ${f.show(s)}`);
            const said = s.host.accepted ? '' : `; ${esc(t('sweep.hostSaid', lang))}: <span class="rejection">${esc(s.host.rejection)}</span>`;
            return `<li><strong>${title(c.lab)}</strong> (<code>${esc(c.lab)}</code>), ${esc(c.client)}, ${esc(c.server)}: ${esc(bits.join(', '))}${said}</li>`;
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
  // The builds of this sweep's tables, in the words the reports use for them.
  const builds = report.servers.map((b) => buildDescription(b, lang)).join('; ');
  const footer = t('sweep.footer', lang, { format: SWEEP_FORMAT, version: SWEEP_FORMAT_VERSION, seed, calls, temperature: report.settings.temperature });

  // The radio buttons come first: the labels and the tables after them are what `:checked ~` reaches.
  const picks = [
    ...report.servers.map((s, i) => `<input type="radio" class="pick" name="build" id="build-${slug(s)}"${i === 0 ? ' checked' : ''}>`),
    ...figures.map((f, i) => `<input type="radio" class="pick" name="figure" id="figure-${f.id}"${i === 0 ? ' checked' : ''}>`),
  ].join('\n');
  const choices = `<div class="choices">
<fieldset><legend>${esc(t('sweep.server', lang))}</legend>${report.servers.map((s) => `<label class="choice-build" for="build-${slug(s)}">${esc(s)}</label>`).join('')}</fieldset>
<fieldset><legend>${esc(t('sweep.figure', lang))}</legend>${figures.map((f) => `<label class="choice-figure" for="figure-${f.id}">${esc(f.words(lang))}</label>`).join('')}</fieldset>
</div>`;

  return page({
    lang,
    title: t('sweep.title', lang),
    css: CSS.replace('{picks}', pickRules(report.servers, figures)),
    body: `<header><h1>${esc(t('sweep.title', lang))}</h1><p class="summary">${esc(t('sweep.summary', lang, { differ, short: short.length, cells: report.cells.length }))}</p></header>
<p class="intro">${esc(t('sweep.intro', lang, { seed, calls }))} ${esc(t('sweep.errorsRule', lang, { builds }))}</p>
<section aria-label="${esc(t('sweep.legend', lang))}">
<div class="legend"><strong>${esc(t('sweep.legendTint', lang))}</strong>${tints}<span><span class="swatch short" aria-hidden="true"></span>${esc(t('sweep.legendShort', lang))}</span>${refused}</div>
</section>
<section class="view" aria-label="${esc(t('sweep.title', lang))}">
${picks}
${choices}
${report.servers.map((s) => buildTables(report, s, lang, figures)).join('\n')}
</section>
<h2>${esc(t('sweep.findings', lang))}</h2>
${findings}
<footer>${timingLine}${esc(footer)}</footer>`,
  });
}
