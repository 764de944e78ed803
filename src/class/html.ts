/**
 * Shared pieces of the workshop's HTML pages: escaping (every learner text is
 * untrusted: names come from folder names on someone's laptop, reflections
 * and labels from what they typed), the outcome colours, and the page shell.
 *
 * The pages are self-contained: inline CSS and SVG, no script, no network. A
 * Content-Security-Policy of `default-src 'none'` backs the escaping up: even
 * a script that slipped through could not run or load anything. (The live
 * projector page, src/class/projector-page.ts, is the one with a script: its
 * policy allows that inline script and requests to its own server, no more.)
 */
import { outcomeSwatch } from '../report/colours.js';
import { esc as escapeHtml } from '../report/svg.js';
import type { Lang } from '../learn/catalogue.js';

/** Text for HTML content or a quoted attribute: the report's escaping, after dropping control characters (other than tab and line break). */
export function esc(value: unknown): string {
  return escapeHtml(String(value).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ''));
}

/** One colour per outcome label: the very colour the lab report uses (src/report/colours.ts), so a label looks the same on every page. */
export function outcomeColour(label: string): string {
  return outcomeSwatch(label).colour;
}

/** The pages' policy: nothing runs, nothing is fetched. */
export const NO_SCRIPT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** The page shell; `csp` only for a page that needs more than NO_SCRIPT_CSP (the projector's own script): our own words, written as they are (single quotes only, nothing to escape). */
export function page(options: { lang: Lang; title: string; css: string; body: string; csp?: string }): string {
  return `<!doctype html>
<html lang="${options.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${options.csp ?? NO_SCRIPT_CSP}">
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
