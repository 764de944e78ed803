/**
 * The report: runs side by side in a terminal (bars that read on a projector
 * too), and the versioned JSON document (`--json`), documented in docs/architecture.md.
 */
import { isServerBuild } from '../minimcp/errors.js';
import { colourOn, paint as paintWith } from '../core/colour.js';
import type { Lang } from '../core/lang.js';
import { formatNumber, t } from '../core/messages/index.js';
import { FIGURES, type FigureDef, type Spread } from './figures.js';
import { outcomeLook } from './outcomes.js';
import { AGENT_POLICY, WORKLOAD_TOOL, type RunResult } from './runner.js';

/**
 * Bump when a field changes meaning or goes away; adding a field does not.
 * 2: `settings.spec` and each run's `spec` became `server` (the server build
 * decides the errors, not the MCP revision); retries come from the agent's
 * turns; runs say their `model` and `agent`; `seeds` with --seeds.
 */
export const REPORT_FORMAT_VERSION = 2;

/** With several seeds: each figure's mean and range per run kind, over `seeds`. */
export interface SeedSummary {
  seeds: number[];
  baseline: Record<string, Spread>;
  variant?: Record<string, Spread>;
  solution?: Record<string, Spread>;
}

export interface LabReport {
  format: 'schema-breaks/lab-report';
  version: typeof REPORT_FORMAT_VERSION;
  variant: string;
  settings: { client: string; server: string; seed: number; calls: number; temperature: number };
  runs: { baseline: RunResult; variant?: RunResult; solution?: RunResult };
  /** Present when the run had several seeds: `runs` are the first seed's. */
  seeds?: SeedSummary;
  /** With a real model: the stand-in's figures for the same variant, client and seeds from the same first seed, for comparison. */
  standIn?: SeedSummary;
  /** The variant's published schema against the baseline's, as a line diff of pretty JSON. */
  schemaDiff: string[];
}

/** The runs without their per-call records: what --json prints. */
export function toJson(report: LabReport): string {
  const strip = (run: RunResult | undefined) => (run ? { ...run, records: undefined } : undefined);
  return JSON.stringify(
    { ...report, runs: { baseline: strip(report.runs.baseline), variant: strip(report.runs.variant), solution: strip(report.runs.solution) } },
    null,
    2,
  );
}

/** A minimal line diff (LCS) of two JSON values pretty-printed: "+ ", "- " and "  " lines. */
export function jsonDiff(before: unknown, after: unknown): string[] {
  const a = JSON.stringify(sortKeys(before), null, 2).split('\n');
  const b = JSON.stringify(sortKeys(after), null, 2).split('\n');
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) out.push(`  ${a[i++]}`), j++;
    else if (j < b.length && (i >= a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) out.push(`+ ${b[j++]}`);
    else out.push(`- ${a[i++]}`);
  }
  return out;
}

/** Keys in a stable order, so that a diff shows what changed, not where a key moved. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
  );
}

/** Only the changed lines and two lines of context around them. */
export function compactDiff(lines: string[], context = 2): string[] {
  const keep = new Set<number>();
  lines.forEach((l, k) => {
    if (!l.startsWith('  ')) for (let d = -context; d <= context; d++) keep.add(k + d);
  });
  const out: string[] = [];
  let last = -1;
  for (let k = 0; k < lines.length; k++) {
    if (!keep.has(k)) continue;
    if (last !== -1 && k > last + 1) out.push('  ...');
    out.push(lines[k]!);
    last = k;
  }
  return out;
}

// ---------------------------------------------------------------------------
// Terminal
// ---------------------------------------------------------------------------

const useColour = colourOn();
const paint = (code: string, text: string) => paintWith(code, text, useColour);
const bold = (t: string) => paint('1', t);
const dim = (t: string) => paint('2', t);
const red = (t: string) => paint('31', t);
const green = (t: string) => paint('32', t);

/** Milliseconds with two decimals always, so that the latency column lines up. */
const ms = (value: number, lang: Lang) => formatNumber(value, lang, { minDecimals: 2 });

function bar(count: number, total: number, width: number, label: string): string {
  const cells = total === 0 ? 0 : Math.round((count / total) * width);
  return paint(outcomeLook(label).ansi, '█'.repeat(cells)) + ' '.repeat(width - cells);
}

function histogramLines(name: string, counts: Record<string, number>, total: number): string[] {
  const lines = [bold(name)];
  const labels = Object.keys(counts).sort((x, y) => counts[y]! - counts[x]! || x.localeCompare(y));
  for (const label of labels) {
    const n = counts[label]!;
    lines.push(`  ${label.padEnd(16)} ${bar(n, total, 30, label)} ${String(n).padStart(4)}  ${String(Math.round((100 * n) / total)).padStart(3)}%`);
  }
  return lines;
}

/** How a server build answers failures, in words (src/minimcp/errors.ts); a build the kit does not know, by its name. */
export function buildDescription(build: string, lang: Lang): string {
  return isServerBuild(build) ? t(`build.${build}`, lang) : build;
}

/** One line on how the run's server build answers failures. */
export function buildNote(build: string, lang: Lang): string {
  return t('lab.buildNote', lang, { build: buildDescription(build, lang) });
}

/** A run's name in a heading or a column: the baseline in the reader's language ("línea base"), a break by its id. */
function runName(report: LabReport, run: RunResult, lang: Lang): string {
  return run === report.runs.baseline ? t('common.baseline', lang) : run.variant;
}

/** Each figure over several seeds: mean, and the range when the seeds disagree. */
function seedLines(report: LabReport, shown: readonly FigureDef[], lang: Lang, nameWidth: number, width: number): string[] {
  const summary = report.seeds!;
  const kinds = (['baseline', 'variant', 'solution'] as const).filter((k) => summary[k]);
  const lines = [bold(t('lab.acrossSeeds', lang, { count: summary.seeds.length, first: summary.seeds[0]!, last: summary.seeds.at(-1)! }))];
  lines.push(bold(t('common.figure', lang).padEnd(nameWidth) + kinds.map((k) => runName(report, report.runs[k]!, lang).slice(0, width - 1).padStart(width)).join('')));
  for (const f of shown) {
    const cells = kinds.map((k) => {
      const s = summary[k]![f.id]!;
      const text = s.min === s.max ? formatNumber(s.mean, lang) : `${formatNumber(s.mean, lang, { decimals: 1 })} (${formatNumber(s.min, lang, { decimals: 1 })}–${formatNumber(s.max, lang, { decimals: 1 })})`;
      return text.padStart(width);
    });
    lines.push(f.label[lang].padEnd(nameWidth) + cells.join(''));
  }
  return lines;
}

/** Who wrote the calls, in one line: the stand-in and its assumed knobs, or the real model and what it took of its endpoint. */
function modelNote(model: RunResult['model'], lang: Lang): string {
  if (model.kind === 'openai') return t('lab.realModelLine', lang, { name: model.name, baseUrl: model.baseUrl, requests: model.requests, httpRetries: model.httpRetries });
  // A knob's value as the language writes a number (0,9 in Spanish), as the header's temperature.
  return t('lab.modelLine', lang, { assumed: model.assumptions.map((k) => `${k} ${typeof model.knobs[k] === 'number' ? formatNumber(model.knobs[k], lang) : model.knobs[k]}`).join(', ') });
}

/** What ran, in words: the server build's errors, the agent's policy, the model and its assumptions. The terminal and the page say the same. */
export function runNotes(report: LabReport, lang: Lang): string[] {
  const first = report.runs.baseline;
  return [
    buildNote(report.settings.server, lang),
    // The kit's own policy in the reader's language; any other (a saved run of another version) as it was recorded.
    first.agent.policy === AGENT_POLICY ? t('lab.agentDefaults', lang, { maxTurns: first.agent.maxTurns }) : t('lab.agentLine', lang, { policy: first.agent.policy }),
    modelNote(first.model, lang),
  ];
}

export interface TerminalOptions {
  /** Leave out the published schema's diff (a lab's later runs show the same one). */
  hideSchemaDiff?: boolean;
}

export function renderTerminal(report: LabReport, lang: Lang = 'en', options: TerminalOptions = {}): string {
  const runs = [report.runs.baseline, report.runs.variant, report.runs.solution].filter((r): r is RunResult => r !== undefined);
  const s = report.settings;
  const out: string[] = [];
  out.push(bold(`schema-breaks: ${report.variant}`) + dim(`   ${t('lab.header', lang, { ...s })}`));
  for (const line of runNotes(report, lang)) out.push(dim(line));
  out.push('');

  for (const run of runs) {
    out.push(...histogramLines(t('lab.firstAttempt', lang, { run: runName(report, run, lang) }), run.outcomes, run.calls));
    if (!run.host.accepted) out.push(`  ${red(`${t('common.hostRefused', lang)}:`)} ${run.host.rejection}`);
    for (const note of run.serverNotes) out.push(`  ${red(`${t('common.server', lang)}:`)} ${note}`);
    out.push('');
  }

  const shown = FIGURES.filter((f) => !f.when || runs.some(f.when));
  // Each column as wide as its widest cell, the name column as its longest label, in this language (Spanish
  // runs longer: "3,82 de 9 como mucho"), so that every column lines up.
  const width = Math.max(18, ...shown.flatMap((f) => runs.map((r) => f.format(f.read(r), r, lang).length + 2)));
  const nameWidth = Math.max(38, ...[...shown.map((f) => f.label[lang]), t('common.figure', lang), t('common.latency', lang)].map((l) => l.length + 2));
  out.push(bold(t('common.figure', lang).padEnd(nameWidth) + runs.map((r) => runName(report, r, lang).slice(0, width - 1).padStart(width)).join('')));
  for (const f of shown) {
    const cells = runs.map((r) => f.format(f.read(r), r, lang).padStart(width));
    // A figure that differs from the baseline stands out.
    if (runs.length > 1 && cells[1] !== cells[0]) cells[1] = cells[1]!.replace(/\S.*$/, (m) => red(m));
    out.push(f.label[lang].padEnd(nameWidth) + cells.join(''));
  }
  // What the two figures that need it mean.
  for (const f of shown) if (f.note) out.push(dim(`  ${f.label[lang]}: ${f.note[lang]}`));
  // Latency differs from run to run: never highlighted.
  out.push(t('common.latency', lang).padEnd(nameWidth) + runs.map((r) => `${ms(r.latencyMs.p50, lang)} / ${ms(r.latencyMs.p95, lang)}`.padStart(width)).join(''));
  out.push('');
  if (report.seeds) out.push(...seedLines(report, shown, lang, nameWidth, width), '');

  if (!options.hideSchemaDiff) {
    out.push(bold(t('lab.schema', lang, { tool: WORKLOAD_TOOL[runs[0]?.workload ?? 'conjugate'] })));
    const changed = report.schemaDiff.some((l) => !l.startsWith('  '));
    if (!changed) out.push(dim(`  ${t('common.noDifference', lang)}`));
    else for (const line of compactDiff(report.schemaDiff)) out.push(line.startsWith('+') ? green(line) : line.startsWith('-') ? red(line) : dim(line));
    out.push('');
  }

  const variant = report.runs.variant;
  if (variant && variant.stderrSample.length > 0) {
    out.push(bold(t('common.stderr', lang, { run: variant.variant })));
    for (const line of variant.stderrSample) out.push(dim(`  ${line.length > 220 ? `${line.slice(0, 217)}...` : line}`));
    out.push('');
  }
  return out.join('\n');
}
