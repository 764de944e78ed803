/** Pieces every HTML page of the report is made of: numbers in the page's language, code spans, a chart's data table. */
import type { Lang } from '../core/lang.js';
import { esc } from './svg.js';


export function fmt(value: number, lang: Lang, digits = 2): string {
  return new Intl.NumberFormat(lang === 'es' ? 'es-ES' : 'en-GB', { maximumFractionDigits: digits }).format(value);
}

/** `code` spans in a title, the rest escaped. */
export function inlineCode(text: string): string {
  return esc(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

export function dataTable(caption: string, head: string[], rows: string[][], chartId: string): string {
  return (
    // Hidden from sight by a wrapper: a table itself will not shrink to the 1px of .sr-only.
    `<div class="sr-only"><table class="data" data-chart="${chartId}"><caption>${esc(caption)}</caption>` +
    `<thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${rows.map((r) => `<tr><th scope="row">${esc(r[0] ?? '')}</th>${r.slice(1).map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table></div>`
  );
}

export function figureBlock(chart: string, table: string): string {
  return `<figure class="chart-block"><div class="chart-wrap">${chart}</div>${table}</figure>`;
}
