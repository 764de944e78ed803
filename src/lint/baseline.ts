/**
 * A baseline: today's findings and host failures, written once
 * (`--write-baseline FILE`) and then accepted (`--baseline FILE`), so that a
 * CI job fails only on what is new, as code scanning tools do with their
 * alerts. Each entry is keyed by what stays the same from run to run and
 * machine to machine: the server by the name it gives at initialize (its
 * label when it gives none: a config entry, a saved file), the tool by name,
 * the rule and the JSON Pointer of a finding, the host profile of a verdict.
 * Never the message text (a rule's wording may change) nor a line number.
 */
import { readFileSync } from 'node:fs';
import { writeOutput } from '../core/file-option.js';
import { refuseNpmBanner } from '../core/npm-banner.js';
import { UserError } from '../core/user-error.js';
import { isObject, type Finding, type LintReport, type Verdict } from './types.js';

export const BASELINE_FORMAT = 'schema-breaks/lint-baseline';
export const BASELINE_VERSION = 1;

export interface FindingKey {
  server: string;
  /** null: a finding about the server as a whole. */
  tool: string | null;
  rule: string;
  path: string;
}

export interface HostKey {
  server: string;
  /** null: the whole tool list in one request. */
  tool: string | null;
  host: string;
  verdict: Verdict;
}

export interface Baseline {
  format: typeof BASELINE_FORMAT;
  version: typeof BASELINE_VERSION;
  findings: FindingKey[];
  hosts: HostKey[];
}

/** How far a verdict is from "shown as published" (src/lint/gate.ts judges with the same order). */
export const RANK: Record<Verdict, number> = { accepted: 0, lossy: 1, refused: 2, dropped: 2, unknown: 2 };

export function serverKey(report: LintReport): string {
  return report.server.name ?? report.server.label;
}

/** Every finding of a report with its key. */
export function keyedFindings(report: LintReport): { key: FindingKey; finding: Finding }[] {
  const server = serverKey(report);
  return [
    ...report.server.findings.map((finding) => ({ key: { server, tool: null, rule: finding.rule, path: finding.path }, finding })),
    ...report.tools.flatMap((t) => t.findings.map((finding) => ({ key: { server, tool: t.name, rule: finding.rule, path: finding.path }, finding }))),
  ];
}

/** Every host verdict of a report that is not "accepted", with its key. */
export function keyedVerdicts(report: LintReport): HostKey[] {
  const server = serverKey(report);
  const of = (tool: string | null, hosts: LintReport['server']['hosts']) =>
    Object.entries(hosts)
      .filter(([, v]) => v.verdict !== 'accepted')
      .map(([host, v]) => ({ server, tool, host, verdict: v.verdict }));
  return [...of(null, report.server.hosts), ...report.tools.flatMap((t) => of(t.name, t.hosts))];
}

const same = (a: { server: string; tool: string | null }, b: { server: string; tool: string | null }) => a.server === b.server && a.tool === b.tool;

/** Whether the baseline accepts this finding: the same rule at the same place of the same tool. */
export function acceptsFinding(baseline: Baseline, key: FindingKey): boolean {
  return baseline.findings.some((b) => same(b, key) && b.rule === key.rule && b.path === key.path);
}

/** Whether the baseline accepts this verdict: the same host, on the same tool, as bad or worse then. */
export function acceptsVerdict(baseline: Baseline, key: HostKey): boolean {
  return baseline.hosts.some((b) => same(b, key) && b.host === key.host && RANK[b.verdict] >= RANK[key.verdict]);
}

export function baselineOf(reports: LintReport[]): Baseline {
  return { format: BASELINE_FORMAT, version: BASELINE_VERSION, findings: reports.flatMap((r) => keyedFindings(r).map((k) => k.key)), hosts: reports.flatMap(keyedVerdicts) };
}

/** Writes a baseline (baselineOf) to `file` as every file option writes (src/core/file-option.ts): its folder made, a failure one line. */
export function writeBaseline(file: string, baseline: Baseline): void {
  writeOutput(file, `${JSON.stringify(baseline, null, 2)}\n`);
}

export function readBaseline(file: string, shown = file): Baseline {
  let document: unknown;
  try {
    const text = readFileSync(file, 'utf8');
    // Saved through a redirect with npm's own lines in front (src/core/npm-banner.ts): say how to save it.
    refuseNpmBanner(text, shown, 'en');
    document = JSON.parse(text);
  } catch (error) {
    if (error instanceof UserError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(`cannot read the baseline ${shown}: ${code === 'ENOENT' ? 'no such file (write one with --write-baseline FILE)' : (error as Error).message}`);
  }
  if (!isObject(document) || document.format !== BASELINE_FORMAT || !Array.isArray(document.findings) || !Array.isArray(document.hosts))
    throw new UserError(`${shown} is not a lint baseline (format ${BASELINE_FORMAT}, written by --write-baseline)`);
  if (document.version !== BASELINE_VERSION) throw new UserError(`the baseline ${shown} is version ${String(document.version)}; this linter reads version ${BASELINE_VERSION}: write it again with --write-baseline`);
  return document as unknown as Baseline;
}
