/**
 * A real model's figures next to the stand-in's for the same variant, client
 * and seed: the stand-in ran over a few seeds, and a real figure outside the
 * stand-in's seed-to-seed range is marked. Either the stand-in is wrong there,
 * or the real model differs from the small open models its rates come from.
 */
import type { Lang } from '../../core/lang.js';
import { formatNumber, t } from '../../core/messages/index.js';
import { FIGURES, type FigureDef, type Spread } from '../figures.js';
import type { LabReport } from '../report.js';
import type { RunResult } from '../runner.js';

export interface ModelComparisonRow {
  role: 'baseline' | 'variant' | 'solution';
  figure: FigureDef;
  real: number;
  run: RunResult;
  standIn: Spread;
  /** The real figure lies outside the stand-in's least–most over its seeds. */
  outside: boolean;
}

/** Every figure shown for a run, for each run of the report that has a stand-in summary. */
export function compareWithStandIn(report: LabReport): ModelComparisonRow[] {
  const summary = report.standIn;
  if (!summary) return [];
  const rows: ModelComparisonRow[] = [];
  for (const role of ['baseline', 'variant', 'solution'] as const) {
    const run = report.runs[role];
    const spreads = summary[role];
    if (!run || !spreads) continue;
    for (const figure of FIGURES) {
      if (figure.when && !figure.when(run)) continue;
      const standIn = spreads[figure.id];
      if (!standIn) continue;
      const real = Math.round(figure.read(run) * 100) / 100;
      rows.push({ role, figure, real, run, standIn, outside: real < standIn.min || real > standIn.max });
    }
  }
  return rows;
}

/** The comparison as the terminal shows it: one block per run, the figures outside the range marked with "!". */
export function renderComparison(report: LabReport, lang: Lang, bold: (text: string) => string = (t) => t): string {
  const rows = compareWithStandIn(report);
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((r) => r.figure.label[lang].length)) + 2;
  const lines = [bold(t('lab.compareTitle', lang, { count: report.standIn!.seeds.length }))];
  for (const role of ['baseline', 'variant', 'solution'] as const) {
    const mine = rows.filter((r) => r.role === role);
    if (mine.length === 0) continue;
    lines.push('', bold(`${report.runs[role]!.variant}`), `${t('common.figure', lang).padEnd(width)}${t('lab.compareReal', lang).padStart(12)}   ${t('lab.compareStandIn', lang)}`);
    for (const r of mine) {
      const s = r.standIn;
      const range = s.min === s.max ? formatNumber(s.mean, lang) : `${formatNumber(s.mean, lang, { decimals: 1 })} (${formatNumber(s.min, lang, { decimals: 1 })}–${formatNumber(s.max, lang, { decimals: 1 })})`;
      lines.push(`${r.figure.label[lang].padEnd(width)}${formatNumber(r.real, lang).padStart(12)}   ${range}${r.outside ? `   ! ${t('lab.compareOutside', lang)}` : ''}`);
    }
  }
  if (!rows.some((r) => r.outside)) lines.push('', t('lab.compareNone', lang));
  return lines.join('\n');
}
