/**
 * The page's table of a real model's figures next to the stand-in's (the same
 * rows as the terminal's, src/lab/chat/compare.ts): one table per run, a
 * figure outside the stand-in's seed-to-seed range marked in words, not only
 * in colour.
 */
import type { Lang } from '../core/lang.js';
import { formatNumber, t } from '../core/messages/index.js';
import { compareWithStandIn } from '../lab/chat/compare.js';
import type { LabReport } from '../lab/report.js';
import { esc } from './svg.js';
import { PAGE_NUMBERS } from './parts.js';

export function standInComparison(report: LabReport, lang: Lang): string {
  const rows = compareWithStandIn(report);
  if (rows.length === 0) return '';
  const n = (v: number, decimals = 2) => formatNumber(v, lang, { ...PAGE_NUMBERS, decimals });
  const tables = (['baseline', 'variant', 'solution'] as const)
    .map((role) => {
      const mine = rows.filter((r) => r.role === role);
      if (mine.length === 0) return '';
      const body = mine
        .map((r) => {
          const s = r.standIn;
          const range = s.min === s.max ? n(s.mean) : `${n(s.mean, 1)} (${n(s.min, 1)}–${n(s.max, 1)})`;
          const mark = r.outside ? ` <strong class="outside">${esc(t('lab.compareOutside', lang))}</strong>` : '';
          return `<tr${r.outside ? ' class="changed"' : ''}><th scope="row">${esc(r.figure.label[lang])}</th><td>${esc(n(r.real))}</td><td>${esc(range)}${mark}</td></tr>`;
        })
        .join('');
      return `<table class="figures"><caption>${esc(report.runs[role]!.variant)}</caption><thead><tr><th scope="col">${esc(t('common.figure', lang))}</th><th scope="col">${esc(t('lab.compareReal', lang))}</th><th scope="col">${esc(t('lab.compareStandIn', lang))}</th></tr></thead><tbody>${body}</tbody></table>`;
    })
    .join('');
  const none = rows.some((r) => r.outside) ? '' : `<p class="note">${esc(t('lab.compareNone', lang))}</p>`;
  return `<section class="stand-in" aria-label="${esc(t('lab.compareReal', lang))}"><p class="note">${esc(t('lab.compareTitle', lang, { count: report.standIn!.seeds.length }))}</p>${tables}${none}</section>`;
}
