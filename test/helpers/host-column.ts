/**
 * One host's column of the linter's matrix, as test/lint-hosts.test.ts writes it: a letter per tool (A accepted,
 * L lossy, R refused, D dropped, ? unknown) and the whole list's under '(all tools, one request)'. The tests of
 * each framework profile hold their column with it, on the recorded servers and on what each kit variant publishes.
 */
import type { ClientProfile } from '../../src/lab/profiles/shared.js';
import { buildServer, patchChain, serverCommand } from '../../src/lab/variants.js';
import { hostVerdict, wholeListVerdict } from '../../src/lint/hosts.js';
import { readServer } from '../../src/lint/server.js';
import type { ListedTool, Verdict } from '../../src/lint/types.js';

/** A verdict as the matrices in the tests write it. */
export const LETTER: Record<Verdict, string> = { accepted: 'A', lossy: 'L', refused: 'R', dropped: 'D', unknown: '?' };

export async function hostColumn(profile: ClientProfile, tools: unknown[]): Promise<Record<string, string>> {
  const listed = tools as ListedTool[];
  const perTool = await Promise.all(listed.map((tool) => hostVerdict(profile, tool)));
  const out: Record<string, string> = Object.fromEntries(listed.map((tool, i) => [tool.name, LETTER[perTool[i]!.verdict]]));
  out['(all tools, one request)'] = LETTER[(await wholeListVerdict(profile, listed, perTool)).verdict];
  return out;
}

/** What a kit variant publishes ('baseline' or a break's id): its server built as the labs build it, and tools/list read. */
export async function publishedTools(variant: string): Promise<ListedTool[]> {
  const { command, args } = serverCommand(await buildServer(variant === 'baseline' ? [] : patchChain(variant).variant));
  return (await readServer({ label: variant, command, args }, 20_000)).tools as ListedTool[];
}
