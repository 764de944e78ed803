/**
 * One finding per cause: the findings of every tool grouped by rule and path
 * (Notion's 24 tools each publish the same $defs; one cause is one line, with
 * the tools it is in), the server's own findings each a cause of their own.
 */
import { adviceFor } from './advice.js';
import { hurtSentence } from './hurt.js';
import type { Cause, Finding, Hurt, LintReport } from './types.js';

const WORSE: Record<Hurt['verdict'], number> = { lossy: 0, dropped: 1, refused: 2 };

function mergeHurts(all: Hurt[]): Hurt[] {
  const byHost = new Map<string, Hurt>();
  for (const h of all) {
    const had = byHost.get(h.host);
    if (!had || WORSE[h.verdict] > WORSE[had.verdict]) byHost.set(h.host, h);
  }
  return [...byHost.values()];
}

export function groupCauses(report: Pick<LintReport, 'server' | 'tools'>): Cause[] {
  const groups = new Map<string, { findings: Finding[]; tools: string[] }>();
  const add = (key: string, f: Finding, tool: string) => {
    const g = groups.get(key) ?? { findings: [], tools: [] };
    g.findings.push(f);
    if (!g.tools.includes(tool)) g.tools.push(tool);
    groups.set(key, g);
  };
  report.server.findings.forEach((f, i) => add(`server\u0000${i}`, f, '(server)'));
  for (const tool of report.tools) for (const f of tool.findings) add(`${f.rule}\u0000${f.path}`, f, tool.name);
  const total = report.server.weight?.bytes;
  return [...groups.values()].map(({ findings, tools }) => {
    const hurts = mergeHurts(findings.flatMap((f) => f.hurts ?? []));
    // The first that is an error, if any: the cause's message then says why it is one.
    const first = findings.find((f) => f.severity === 'error') ?? findings[0]!;
    const bytes = findings.some((f) => f.bytes !== undefined) ? findings.reduce((n, f) => n + (f.bytes ?? 0), 0) : undefined;
    const message =
      first.rule === 'unused-defs' && tools.length > 1
        ? `${tools.length} tools each publish definitions nothing in them references: ${bytes} bytes repeated in all${total ? `, ${Math.round((100 * bytes!) / total)}% of the ${total}-byte tools/list` : ''}, ` +
          `sent to every host and validating nothing (not linted); ${hurtSentence(hurts)}`
        : first.message;
    return {
      rule: first.rule,
      severity: findings.some((f) => f.severity === 'error') ? 'error' : findings.some((f) => f.severity === 'warning') ? 'warning' : 'info',
      path: first.path,
      message,
      advice: first.advice ?? adviceFor(first),
      tools,
      hurts,
      ...(bytes !== undefined ? { bytes } : {}),
    };
  });
}
