/**
 * What makes the lint command exit 1: a finding at or above `--fail-on`, or,
 * with `--fail-on-host`, a host verdict at or above it on one of the hosts
 * `--for-hosts` names (all by default). Findings and verdicts are separate
 * because a server can break no rule and still be refused by a host: the
 * reference server-everything publishes `format: "uri"`, and the Gemini API
 * as gemini-cli 0.1 met it answered "only 'enum' and 'date-time' are
 * supported for STRING type" (src/lab/profiles/gemini-api.ts, with its
 * sources).
 */
import { acceptsFinding, acceptsVerdict, keyedFindings, keyedVerdicts, RANK, type Baseline, type FindingKey, type HostKey } from './baseline.js';
import type { Finding, LintReport, Severity } from './types.js';

export type FailOn = Exclude<Severity, 'info'> | 'none';
export type FailOnHost = 'lossy' | 'refused' | 'none';

export interface Gate {
  failOn: FailOn;
  failOnHost: FailOnHost;
  /** The host profile ids --fail-on-host judges. */
  forHosts: readonly string[];
  /** --baseline FILE: what it holds no longer counts (src/lint/baseline.ts). */
  baseline?: Baseline;
  /** The baseline's file, as the user typed it, for the messages. */
  baselineFile?: string;
}

/** How far a verdict must be from "shown as published" (RANK, src/lint/baseline.ts); `unknown` (the kit's own profile code failed) never passes quietly. */
const THRESHOLD: Record<Exclude<FailOnHost, 'none'>, number> = { lossy: 1, refused: 2 };

/** The findings of every server and tool that reach `failOn`, with their keys; `baseline` takes out those it holds. */
export function keyedFindingsReaching(reports: LintReport[], failOn: FailOn, baseline?: Baseline): { key: FindingKey; finding: Finding }[] {
  if (failOn === 'none') return [];
  return reports
    .flatMap(keyedFindings)
    // info (no targeted host hurt) never reaches a gate: --fail-on takes error or warning.
    .filter(({ finding }) => finding.severity === 'error' || (failOn === 'warning' && finding.severity === 'warning'))
    .filter(({ key }) => !baseline || !acceptsFinding(baseline, key));
}

/** The findings of every server and tool that reach `failOn` (and that `baseline`, when given, does not hold). */
export function findingsReaching(reports: LintReport[], failOn: FailOn, baseline?: Baseline): Finding[] {
  return keyedFindingsReaching(reports, failOn, baseline).map((k) => k.finding);
}

/** The host verdicts on the judged hosts that reach `--fail-on-host` and that the baseline, if any, does not hold. */
export function verdictsReaching(reports: LintReport[], gate: Gate, withBaseline = true): HostKey[] {
  if (gate.failOnHost === 'none') return [];
  const at = THRESHOLD[gate.failOnHost];
  return reports
    .flatMap(keyedVerdicts)
    .filter((k) => gate.forHosts.includes(k.host) && RANK[k.verdict] >= at)
    .filter((k) => !withBaseline || !gate.baseline || !acceptsVerdict(gate.baseline, k));
}

/** Per judged host, how many tools (and whether the whole list in one request) reach `--fail-on-host`. */
export function hostsReaching(reports: LintReport[], gate: Gate): { host: string; tools: number; wholeList: boolean }[] {
  const reaching = verdictsReaching(reports, gate);
  return gate.forHosts
    .map((host) => ({
      host,
      tools: reaching.filter((k) => k.host === host && k.tool !== null).length,
      wholeList: reaching.some((k) => k.host === host && k.tool === null),
    }))
    .filter((h) => h.tools > 0 || h.wholeList);
}

/** 2 when a server could not be linted; 1 when a finding or a judged host verdict reaches its gate; else 0. */
export function exitCodeFor(reports: LintReport[], gate: Gate): number {
  if (reports.some((r) => r.server.error)) return 2;
  return findingsReaching(reports, gate.failOn, gate.baseline).length > 0 || verdictsReaching(reports, gate).length > 0 ? 1 : 0;
}
