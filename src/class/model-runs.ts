/**
 * Real models in the class report: a lab report saved from a run with a real
 * model (`npm run -s lab -- --model openai ... --json > FILE.json`, or replayed
 * from a transcript) anywhere under the class folder is shown next to the
 * journals, its figures beside the stand-in's. Other JSON files are not ours
 * and are passed over; a lab report of the stand-in says nothing the journals
 * do not.
 */
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { filesUnder } from './discover.js';
import type { Lang } from '../core/lang.js';
import { formatNumber, t } from '../core/messages/index.js';
import { compareWithStandIn } from '../lab/chat/compare.js';
import type { Spread } from '../lab/figures.js';
import type { LabReport } from '../lab/report.js';
import { checkReport } from '../report/write.js';
import { refuseNpmBanner } from '../core/npm-banner.js';
import { esc } from './html.js';

/** The figures a class compares across real models: what the user got, and what it cost. */
const SHOWN = ['ok', 'accuracy', 'retriesPerFailingCall'] as const;

export interface ModelRunSummary {
  /** The file, relative to the class folder. */
  path: string;
  variant: string;
  model: string;
  baseUrl: string;
  client: string;
  server: string;
  seed: number;
  calls: number;
  rows: { run: string; figure: string; label: Record<Lang, string>; real: number; standIn: Spread; outside: boolean }[];
}

/** Every saved lab report of a real model under `folder`, by path (the journals' walk reports the folders it cannot list). */
export function findModelRuns(folder: string, lang: Lang): ModelRunSummary[] {
  return filesUnder(folder, (name) => name.endsWith('.json'))
    .files.map((file) => summarise(file, relative(folder, file).split(sep).join('/'), lang))
    .filter((s): s is ModelRunSummary => s !== undefined);
}

function summarise(file: string, path: string, lang: Lang): ModelRunSummary | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  // Any other JSON that is not a lab report is none of the class report's business; a report saved with npm's own
  // lines in front is one the instructor meant to show: say how to save it (src/core/npm-banner.ts).
  refuseNpmBanner(text, path, lang);
  let report: LabReport;
  try {
    report = checkReport(JSON.parse(text), path);
  } catch {
    return undefined;
  }
  const model = report.runs.baseline.model;
  if (model.kind !== 'openai' || !report.standIn) return undefined;
  const rows = compareWithStandIn(report)
    .filter((r) => (SHOWN as readonly string[]).includes(r.figure.id))
    .map((r) => ({ run: r.run.variant, figure: r.figure.id, label: r.figure.label, real: r.real, standIn: r.standIn, outside: r.outside }));
  return { path, variant: report.variant, model: model.name, baseUrl: model.baseUrl, client: report.settings.client, server: report.settings.server, seed: report.settings.seed, calls: report.settings.calls, rows };
}

const range = (s: Spread, lang: Lang) => (s.min === s.max ? formatNumber(s.mean, lang) : `${formatNumber(s.mean, lang, { decimals: 1 })} (${formatNumber(s.min, lang, { decimals: 1 })}–${formatNumber(s.max, lang, { decimals: 1 })})`);

/** The page's section: one table per saved run. */
export function modelRunsSection(runs: ModelRunSummary[], lang: Lang): string {
  if (runs.length === 0) return '';
  const tables = runs.map((m) => {
    const body = m.rows
      .map((r) => `<tr><td>${esc(r.run)}</td><th scope="row">${esc(r.label[lang])}</th><td>${esc(formatNumber(r.real, lang))}</td><td>${esc(range(r.standIn, lang))}${r.outside ? ` <b>${esc(t('lab.compareOutside', lang))}</b>` : ''}</td></tr>`)
      .join('');
    const caption = `${m.variant} · ${m.model} · ${m.client}, ${m.server}, seed ${m.seed}, ${m.calls}`;
    return `<table class="model-run"><caption>${esc(caption)} <code>${esc(m.path)}</code></caption><thead><tr><th scope="col"></th><th scope="col">${esc(t('common.figure', lang))}</th><th scope="col">${esc(t('lab.compareReal', lang))}</th><th scope="col">${esc(t('lab.compareStandIn', lang))}</th></tr></thead><tbody>${body}</tbody></table>`;
  });
  return `<section class="card"><h2>${esc(t('class.modelRunsTitle', lang))}</h2><p>${esc(t('class.modelRunsNote', lang))}</p>${tables.join('')}</section>`;
}

/** The terminal's lines: one per saved run and figure outside the stand-in's range, or that there are none. */
export function modelRunsLines(runs: ModelRunSummary[], lang: Lang): string[] {
  if (runs.length === 0) return [];
  const lines = ['', t('class.modelRunsTitle', lang)];
  for (const m of runs) {
    const outside = m.rows.filter((r) => r.outside);
    lines.push(`  ${m.variant} · ${m.model} (${m.client}, ${m.server}) · ${m.path}`);
    for (const r of outside) lines.push(`    ! ${r.run}: ${r.label[lang]} ${formatNumber(r.real, lang)}, ${t('lab.compareStandIn', lang)} ${range(r.standIn, lang)}`);
    if (outside.length === 0) lines.push(`    ${t('lab.compareNone', lang)}`);
  }
  return lines;
}
