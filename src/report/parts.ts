/** Pieces every HTML page of the report is made of: how it writes numbers, code spans, a chart's data table. */
import type { NumberStyle } from '../core/messages/index.js';
import { esc } from './svg.js';

/** The report's pages group thousands (1,234 ms), where a terminal column does not. */
export const PAGE_NUMBERS: NumberStyle = { grouping: true };

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
