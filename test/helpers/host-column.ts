/**
 * One host's column of the linter's matrix, as test/lint-hosts.test.ts writes it: a letter per tool (A accepted,
 * L lossy, R refused, D dropped, ? unknown) and the whole list's under '(all tools, one request)'. The tests of
 * each framework profile hold their column with it before the lead's matrix does.
 */
import type { ClientProfile } from '../../src/lab/profiles/shared.js';
import { hostVerdict, wholeListVerdict } from '../../src/lint/hosts.js';
import type { ListedTool, Verdict } from '../../src/lint/types.js';

const LETTER: Record<Verdict, string> = { accepted: 'A', lossy: 'L', refused: 'R', dropped: 'D', unknown: '?' };

export async function hostColumn(profile: ClientProfile, tools: unknown[]): Promise<Record<string, string>> {
  const listed = tools as ListedTool[];
  const perTool = await Promise.all(listed.map((tool) => hostVerdict(profile, tool)));
  const out: Record<string, string> = Object.fromEntries(listed.map((tool, i) => [tool.name, LETTER[perTool[i]!.verdict]]));
  out['(all tools, one request)'] = LETTER[(await wholeListVerdict(profile, listed, perTool)).verdict];
  return out;
}
