/**
 * Each saved server linted with the kit's own linter, once, for the page and
 * the pinned verdicts alike: `lintTools` on the default host set (the hosts
 * `npm run lint` targets with no --hosts: findings, their severities and the
 * hosts they hurt), and the host matrix on every host profile (the second
 * table of the page).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseHosts, HOST_IDS, hostMatrix } from '../hosts.js';
import { lintTools } from '../lint.js';
import { splitEntries } from '../rules.js';
import { Answers } from '../verdicts.js';
import { groupCauses } from '../causes.js';
import type { Cause, HostVerdict, LintReport, Verdict } from '../types.js';
import type { ServerFixture } from './fixtures.js';

export interface Judged {
  fixture: ServerFixture;
  /** On the default hosts. */
  report: LintReport;
  /** Its findings, one per cause (rule and path). */
  causes: Cause[];
  /** Every host: each tool's verdict (in list order), and the whole list's. */
  all: { perTool: Record<string, HostVerdict>[]; whole: Record<string, HostVerdict> };
  /** The listed tools' names, in list order (the entries that are tools). */
  names: string[];
}

/** The hosts `npm run lint` targets when no --hosts is given. */
export function defaultHosts(): readonly string[] {
  const chosen = chooseHosts();
  if (!('hosts' in chosen)) throw new Error(`the default host set names unknown hosts: ${chosen.unknown.join(', ')}`);
  return chosen.hosts;
}

/** `log`: one line per server as it is done (the whole set takes many minutes). */
export async function judgeServers(fixtures: ServerFixture[], log?: (line: string) => void): Promise<Judged[]> {
  const hosts = defaultHosts();
  const out: Judged[] = [];
  const width = String(fixtures.length).length;
  for (const [n, fixture] of fixtures.entries()) {
    const started = performance.now();
    // One memo of the hosts' answers for both looks (never written: the folder is not one, keep() is never called).
    const answers = new Answers(join(tmpdir(), 'schema-breaks-ecosystem-never-written'), { kind: 'from', label: fixture.package, file: fixture.package });
    const tools = splitEntries(fixture.tools).tools;
    const { perTool, whole } = await hostMatrix(tools, answers, HOST_IDS);
    const report = await lintTools(fixture.tools, fixture.package, undefined, hosts, answers);
    out.push({ fixture, report, causes: report.causes ?? groupCauses(report), all: { perTool, whole }, names: tools.map((t) => t.name) });
    log?.(`[${String(n + 1).padStart(width)}/${fixtures.length}] ${fixture.package}@${fixture.version}: ${tools.length} tools, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  return out;
}

export const CODE: Record<Verdict, string> = { accepted: 'a', lossy: 'l', refused: 'r', dropped: 'd', unknown: 'u' };
