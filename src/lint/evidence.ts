/**
 * What a host verdict rests on, in words (issue 33, "provenance on every
 * verdict"): the kinds of evidence a profile names (src/lab/profiles/shared.ts
 * Evidence), for the terminal's why lines, the HTML page and SARIF. An
 * unconfirmed one (assumed, or older than the host version it is applied to)
 * is said so: its refusal makes a warning, never an error alone
 * (src/lint/hurt.ts severityOf).
 */
import type { Evidence } from './types.js';

export const EVIDENCE: Record<Evidence['kind'], string> = { package: "the host's package run", code: 'code read', docs: 'vendor docs', report: 'issue report', assumed: 'assumed' };

/** What a verdict rests on, briefly: "the host's package run, 2025-12-08", "issue report, 2025-06-12, unconfirmed". */
export function evidenceWords(e: Evidence): string {
  return `${EVIDENCE[e.kind]}, ${e.date}${e.unconfirmed ? ', unconfirmed' : ''}`;
}

