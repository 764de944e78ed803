/**
 * Writing the HTML report to a file (atomically: the old page or the whole
 * new one), the lab sheet's hypothesis to quote in it, and reading a saved
 * `--json` report back with a clear error for anything that is not one.
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { REPORT_FORMAT_VERSION, type LabReport } from '../lab/report.js';
import { loadCatalogue, type Lang } from '../learn/catalogue.js';
import { replaceFile } from '../learn/atomic.js';
import { readSheet, splitSheet } from '../learn/sheets.js';
import { renderReportPage, type PageInput } from './html.js';
import { UserError } from '../core/user-error.js';
import { forUser } from '../core/cwd.js';
import { refuseNpmBanner } from '../core/npm-banner.js';

/** The page could not be written, or a saved report could not be read: one line for the user, exit code 2. */
export class ReportFileError extends UserError {}

export function writeReportPage(file: string, input: PageInput): void {
  const html = renderReportPage(input);
  const target = resolve(file);
  try {
    mkdirSync(dirname(target), { recursive: true });
    replaceFile(target, [Buffer.from(html, 'utf8')]);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new ReportFileError(`cannot write the HTML report to ${file}: ${e.code === 'EISDIR' ? 'it is a directory' : e.message}`);
  }
}

/**
 * What a page quotes from a lab sheet: the lead paragraph and the hypothesis,
 * everything between the title and the sheet's second section (the break),
 * never anything after `<!-- after-the-run -->`.
 */
export function hypothesisOf(sheet: string): string {
  const lines = splitSheet(sheet).before.replace(/<!--[\s\S]*?-->/g, '').split('\n');
  const kept: string[] = [];
  let fenced = false;
  let sections = 0;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (!fenced && /^# /.test(line) && kept.length === 0) continue; // the title: the page has its own
    if (!fenced && /^## /.test(line) && ++sections === 2) break;
    kept.push(line);
  }
  return kept.join('\n').trim();
}

/** The hypothesis of a lab's sheet in a language, or undefined when the variant is not a lab or has no sheet in it. */
export function labSheetQuote(variant: string, lang: Lang): string | undefined {
  try {
    if (!loadCatalogue().some((lab) => lab.id === variant)) return undefined;
    return hypothesisOf(readSheet(variant, lang)) || undefined;
  } catch {
    return undefined;
  }
}

/** A saved `npm run lab -- --json` document, checked enough to draw it; each way it can fail is its own message. */
export function readSavedReport(path: string, lang: Lang): LabReport {
  // Named as the user would type it from where they are (src/core/cwd.ts).
  const file = forUser(path);
  let text: string;
  try {
    if (statSync(path).isDirectory()) throw new ReportFileError(`${file} is a directory, not a saved report`);
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof ReportFileError) throw error;
    const e = error as NodeJS.ErrnoException;
    throw new ReportFileError(e.code === 'ENOENT' ? `${file}: no such file` : `cannot read ${file}: ${e.message}`);
  }
  // Saved with `npm run lab -- ... --json > run.json`: npm's own lines come first (src/core/npm-banner.ts).
  refuseNpmBanner(text, file, lang);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ReportFileError(`${file} is not JSON (${(error as Error).message.split('\n')[0]})`);
  }
  return checkReport(value, file);
}

const what = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : JSON.stringify(v));

export function checkReport(value: unknown, file: string): LabReport {
  const notReport = (why: string) => new ReportFileError(`${file} is not a lab report: ${why}`);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw notReport(`the document is ${what(value)}, not an object`);
  const doc = value as Record<string, unknown>;
  if (doc.format !== 'schema-breaks/lab-report') {
    throw notReport(doc.format === undefined ? 'it has no "format" field (expected "schema-breaks/lab-report")' : `"format" is ${what(doc.format)}, expected "schema-breaks/lab-report"`);
  }
  if (doc.version !== REPORT_FORMAT_VERSION) {
    throw notReport(doc.version === undefined ? `it has no "version" field (this kit reads version ${REPORT_FORMAT_VERSION})` : `"version" is ${what(doc.version)}, this kit reads version ${REPORT_FORMAT_VERSION}`);
  }
  const runs = doc.runs as Record<string, unknown> | undefined;
  if (!runs || typeof runs !== 'object') throw notReport('it has no "runs"');
  for (const role of ['baseline', 'variant', 'solution']) {
    const run = runs[role] as Record<string, unknown> | undefined;
    if (run === undefined && role !== 'baseline') continue;
    const missing = ['outcomes', 'finalOutcomes', 'retries', 'accuracy', 'latencyMs', 'host'].filter((k) => !run || typeof run[k] !== 'object' || run[k] === null);
    if (missing.length > 0) throw notReport(`runs.${role} ${run ? `lacks ${missing.join(', ')}` : 'is missing'}`);
  }
  if (typeof doc.settings !== 'object' || doc.settings === null) throw notReport('it has no "settings"');
  if (!Array.isArray(doc.schemaDiff)) throw notReport('it has no "schemaDiff" list');
  return value as LabReport;
}
