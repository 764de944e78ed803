/**
 * Shared pieces of the workshop's HTML pages: escaping (every learner text is
 * untrusted: names come from folder names on someone's laptop, reflections
 * and labels from what they typed), the outcome colours, and the page shell.
 *
 * The pages are self-contained: inline CSS and SVG, no script, no network. A
 * Content-Security-Policy of `default-src 'none'` backs the escaping up: even
 * a script that slipped through could not run or load anything.
 */
import { OUTCOME_COLOURS } from '../lab/report.js';
import type { Lang } from '../learn/catalogue.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML content or a quoted attribute. Control characters (other than tab and line break) are dropped. */
export function esc(value: unknown): string {
  return String(value)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** The terminal colours of src/lab/report.ts (ANSI codes) as print- and projector-safe CSS colours. */
const ANSI_CSS: Record<string, string> = {
  '31': '#c62828',
  '32': '#2e7d32',
  '33': '#a15c00',
  '34': '#1565c0',
  '35': '#8e24aa',
  '36': '#00838f',
  '41': '#7f0000',
  '90': '#616161',
  '91': '#d84315',
};

/** One colour per outcome label, the same as in the terminal report; grey for anything else. */
export function outcomeColour(label: string): string {
  const code = OUTCOME_COLOURS[label];
  return (code && ANSI_CSS[code]) ?? '#546e7a';
}

export function page(options: { lang: Lang; title: string; css: string; body: string }): string {
  return `<!doctype html>
<html lang="${options.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<link rel="icon" href="data:,">
<title>${esc(options.title)}</title>
<style>
${options.css}
</style>
</head>
<body>
${options.body}
</body>
</html>
`;
}
