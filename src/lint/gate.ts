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
import { allFindings, type Finding, type LintReport, type Severity, type Verdict } from './types.js';

export type FailOn = Severity | 'none';
export type FailOnHost = 'lossy' | 'refused' | 'none';

export interface Gate {
  failOn: FailOn;
  failOnHost: FailOnHost;
  /** The host profile ids --fail-on-host judges. */
  forHosts: readonly string[];
}

/** How far a verdict is from "shown as published". `unknown` (the kit's own profile code failed) never passes quietly. */
const RANK: Record<Verdict, number> = { accepted: 0, lossy: 1, refused: 2, dropped: 2, unknown: 2 };
const THRESHOLD: Record<Exclude<FailOnHost, 'none'>, number> = { lossy: 1, refused: 2 };

/** The findings of every server and tool that reach `failOn`. */
export function findingsReaching(reports: LintReport[], failOn: FailOn): Finding[] {
  if (failOn === 'none') return [];
  return reports.flatMap(allFindings).filter((f) => f.severity === 'error' || failOn === 'warning');
}

/** Per judged host, how many tools (and whether the whole list in one request) reach `--fail-on-host`. */
export function hostsReaching(reports: LintReport[], gate: Gate): { host: string; tools: number; wholeList: boolean }[] {
  if (gate.failOnHost === 'none') return [];
  const at = THRESHOLD[gate.failOnHost];
  const reaches = (verdict: Verdict | undefined) => verdict !== undefined && RANK[verdict] >= at;
  return gate.forHosts
    .map((host) => ({
      host,
      tools: reports.reduce((n, r) => n + r.tools.filter((t) => reaches(t.hosts[host]?.verdict)).length, 0),
      wholeList: reports.some((r) => reaches(r.server.hosts[host]?.verdict)),
    }))
    .filter((h) => h.tools > 0 || h.wholeList);
}

/** 2 when a server could not be linted; 1 when a finding or a judged host verdict reaches its gate; else 0. */
export function exitCodeFor(reports: LintReport[], gate: Gate): number {
  if (reports.some((r) => r.server.error)) return 2;
  return findingsReaching(reports, gate.failOn).length > 0 || hostsReaching(reports, gate).length > 0 ? 1 : 0;
}
