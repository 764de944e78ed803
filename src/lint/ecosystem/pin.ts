/**
 * test/fixtures/ecosystem/verdicts.json: the ecosystem's verdicts, pinned, so
 * that a change to a host profile or a rule shows as a diff of the ecosystem
 * (test/ecosystem.test.ts recomputes it). Per server: per host (every
 * profile), the whole list's verdict and each tool's, compactly (the count of
 * each verdict and the tools not accepted, by name); and the findings on the
 * default hosts, one per cause (rule, path, severity, tools, the hosts that
 * refuse or drop because of it). docs/ecosystem.md is written from this file.
 */
import { HOST_IDS } from '../hosts.js';
import type { Severity, Verdict } from '../types.js';
import { CODE, defaultHosts, type Judged } from './judge.js';

export interface PinnedHost {
  /** The whole list in one request: a, l, r, d or u. */
  list: string;
  /** How many tools got each verdict (a, l, r, d, u), zeros left out. */
  count: Record<string, number>;
  /** Each tool not accepted, by name: its verdict. */
  not?: Record<string, string>;
}

export interface Pinned {
  format: 'schema-breaks/ecosystem-verdicts';
  version: 1;
  defaultHosts: string[];
  servers: Record<string, PinnedServer>;
}

export interface PinnedServer {
  version: string;
  tools: number;
  hosts: Record<string, PinnedHost>;
  /** One per cause; `fails`: the hosts (any profile) that refuse or drop a tool because of it. */
  findings: { rule: string; path: string; severity: Severity; tools: string[]; fails?: string[] }[];
}

export function pinVerdicts(judged: Judged[]): Pinned {
  const servers: Pinned['servers'] = {};
  for (const j of judged) {
    const hosts: Record<string, PinnedHost> = {};
    for (const host of HOST_IDS) {
      const count: Record<string, number> = {};
      const not: Record<string, string> = {};
      j.all.perTool.forEach((verdicts, i) => {
        const code = CODE[(verdicts[host]?.verdict ?? 'unknown') as Verdict];
        count[code] = (count[code] ?? 0) + 1;
        if (code !== 'a') not[j.names[i]!] = code;
      });
      hosts[host] = { list: CODE[j.all.whole[host]?.verdict ?? 'unknown'], count, ...(Object.keys(not).length > 0 ? { not } : {}) };
    }
    servers[j.fixture.package] = {
      version: j.fixture.version,
      tools: j.names.length,
      hosts,
      findings: j.causes.map((c) => {
        const fails = c.hurts.filter((h) => h.verdict !== 'lossy').map((h) => h.host);
        return { rule: c.rule, path: c.path, severity: c.severity, tools: c.tools, ...(fails.length > 0 ? { fails } : {}) };
      }),
    };
  }
  return { format: 'schema-breaks/ecosystem-verdicts', version: 1, defaultHosts: [...defaultHosts()], servers };
}
