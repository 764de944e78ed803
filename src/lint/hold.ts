/**
 * A fix holds everywhere its baseline holds, as the linter judges a tool
 * list (issue 21): on every host profile, each tool's verdict, and the
 * whole list's sent in one request, is no worse for the fixed server than
 * for the baseline, in the order accepted < lossy < refused or dropped (a
 * profile that cannot read a schema is the worst). test/solutions-hold.test.ts
 * holds every lab's reference solution to it; `npm run author -- check` the
 * lab being made (scripts/author.ts hands it over: nothing in src/ imports
 * the linter).
 */
import type { ClientProfile } from '../lab/profiles/index.js';
import { hostVerdict, wholeListVerdict } from './hosts.js';
import type { HostVerdict, ListedTool, Verdict } from './types.js';

/** Worse to the right: a host that shows less, or nothing; a profile that cannot read a schema is the worst. */
export const VERDICT_RANK: Record<Verdict, number> = { accepted: 0, lossy: 1, refused: 2, dropped: 2, unknown: 3 };

/** What the whole list sent in one request is called among the tools. */
export const WHOLE_LIST = '(all tools, one request)';

/** Every host's verdict per tool, by tool name, and for the whole list sent in one request. */
export async function verdictsByHost(tools: ListedTool[], profiles: readonly ClientProfile[]): Promise<Map<string, Map<string, HostVerdict>>> {
  const out = new Map<string, Map<string, HostVerdict>>();
  for (const profile of profiles) {
    const perTool = await Promise.all(tools.map((tool) => hostVerdict(profile, tool)));
    const byTool = new Map(tools.map((tool, i) => [tool.name, perTool[i]!]));
    byTool.set(WHOLE_LIST, await wholeListVerdict(profile, tools, perTool));
    out.set(profile.id, byTool);
  }
  return out;
}

/** One line per host and tool whose verdict the fixed tools make worse than the baseline's ("<host>: <tool> accepted -> refused (why)"). */
export async function worseVerdicts(baseline: ListedTool[], fixed: ListedTool[], profiles: readonly ClientProfile[]): Promise<string[]> {
  const [before, after] = await Promise.all([verdictsByHost(baseline, profiles), verdictsByHost(fixed, profiles)]);
  const worse: string[] = [];
  for (const profile of profiles) {
    for (const [tool, was] of before.get(profile.id)!) {
      const now = after.get(profile.id)!.get(tool);
      if (now && VERDICT_RANK[now.verdict] > VERDICT_RANK[was.verdict]) worse.push(`${profile.id}: ${tool} ${was.verdict} -> ${now.verdict} (${now.detail})`);
    }
  }
  return worse;
}
