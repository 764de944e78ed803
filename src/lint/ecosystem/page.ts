/**
 * docs/ecosystem.md and docs/ecosystem.html: what the hosts do with the tools
 * of real MCP servers from npm, written from the pinned verdicts
 * (verdicts.json, src/lint/ecosystem/pin.ts) and the saved lists' own facts
 * (no network, no linting, no run time written: the same files give the same
 * page, which the test checks).
 * One structure, written out twice: as Markdown and as a self-contained page
 * in the shell of the kit's other pages (src/class/html.ts).
 */
import { esc, page } from '../../class/html.js';
import { UserError } from '../../core/user-error.js';
import { HOST_IDS } from '../hosts.js';
import { PROFILES } from '../../lab/profiles/index.js';
import type { Severity } from '../types.js';
import type { Candidates, ServerFixture, Skipped } from './fixtures.js';
import type { Pinned, PinnedHost, PinnedServer } from './pin.js';

/** One server: its saved list's facts and its pinned verdicts. */
interface Row {
  fixture: ServerFixture;
  pinned: PinnedServer;
}

type Block = { p: string } | { table: { head: string[]; rows: string[][] } } | { list: string[] };
interface Section {
  title: string;
  blocks: Block[];
}

function pct(n: number, of: number): string {
  return of === 0 ? '0' : `${Number(((100 * n) / of).toFixed(1))}% (${n})`;
}

const failed = (host: PinnedHost | undefined) => (host?.count.r ?? 0) + (host?.count.d ?? 0) > 0;

/** For each host: the share of servers whose whole list it refuses, drops or loses, and of tools. */
function hostTable(rows: Row[], hosts: readonly string[]): { head: string[]; rows: string[][] } {
  const servers = rows.length;
  const tools = rows.reduce((n, r) => n + r.pinned.tools, 0);
  return {
    head: ['host', 'servers: list refused', 'servers: list dropped', 'servers with a tool refused or dropped', 'servers: list lossy', 'tools refused', 'tools dropped', 'tools lossy', 'unknown'],
    rows: hosts.map((host) => {
      const whole = (code: string) => rows.filter((r) => r.pinned.hosts[host]?.list === code).length;
      const perTool = (code: string) => rows.reduce((n, r) => n + (r.pinned.hosts[host]?.count[code] ?? 0), 0);
      const hurtOne = rows.filter((r) => failed(r.pinned.hosts[host])).length;
      return [`\`${host}\``, pct(whole('r'), servers), pct(whole('d'), servers), pct(hurtOne, servers), pct(whole('l'), servers), pct(perTool('r'), tools), pct(perTool('d'), tools), pct(perTool('l'), tools), String(perTool('u') || '')];
    }),
  };
}

interface RuleCount {
  rule: string;
  servers: Set<string>;
  tools: number;
  bySeverity: Record<Severity, Set<string>>;
  /** Default hosts this rule's causes make refuse or drop a tool: host -> tools. */
  hurts: Map<string, number>;
}

function ruleCounts(rows: Row[], defaults: readonly string[]): RuleCount[] {
  const rules = new Map<string, RuleCount>();
  for (const { fixture, pinned } of rows) {
    for (const c of pinned.findings) {
      const r = rules.get(c.rule) ?? { rule: c.rule, servers: new Set(), tools: 0, bySeverity: { error: new Set(), warning: new Set(), info: new Set() }, hurts: new Map() };
      r.servers.add(fixture.package);
      r.tools += c.tools.filter((t) => t !== '(server)').length;
      r.bySeverity[c.severity].add(fixture.package);
      for (const host of c.fails ?? []) if (defaults.includes(host)) r.hurts.set(host, (r.hurts.get(host) ?? 0) + c.tools.length);
      rules.set(c.rule, r);
    }
  }
  return [...rules.values()].sort((a, b) => b.servers.size - a.servers.size || b.tools - a.tools || a.rule.localeCompare(b.rule));
}

function sections(judged: Row[], candidates: Candidates, skipped: Skipped[], defaults: readonly string[]): { title: string; intro: string[]; sections: Section[] } {
  const tools = judged.reduce((n, j) => n + j.pinned.tools, 0);
  const dates = judged.map((j) => j.fixture.listed).sort();
  const reasons = new Map<string, number>();
  for (const s of skipped) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
  const reasonWords: Record<Skipped['reason'], string> = {
    install: 'did not install (npm install --ignore-scripts failed or took over 4 minutes)',
    'no-bin': 'no bin: a library or a plugin, no server to start',
    start: 'did not start or did not list without a real key or the network (it exited, or did not answer, with dummy values for what it asked)',
    'no-tools': 'listed no tools',
    'lint-time': 'listed its tools, but linting them takes minutes (the linter asks Mastra\'s converter, seconds a schema, about each cause: the kit\'s to make faster)',
  };
  const tried = judged.length + skipped.length;
  const rules = ruleCounts(judged, defaults);
  const errorServers = judged.filter((j) => j.pinned.findings.some((c) => c.severity === 'error')).length;
  const hurtBy = (j: Row, h: string) => failed(j.pinned.hosts[h]) || ['r', 'd'].includes(j.pinned.hosts[h]?.list ?? '');
  const anyHurt = judged.filter((j) => defaults.some((h) => hurtBy(j, h))).length;
  const intro = [
    `**${judged.length} servers, ${tools} tools.** ${judged.length} MCP servers from npm listed their tools with no key and no network, out of ${tried} packages tried; listed ${dates[0] ?? '-'}${dates.at(-1) !== dates[0] ? ` to ${dates.at(-1)}` : ''}. ` +
      `On the default hosts (\`npm run lint\` with no \`--hosts\`: ${defaults.map((h) => `\`${h}\``).join(', ')}), ${pct(anyHurt, judged.length)} of the servers have a tool or their whole list refused or dropped by at least one host, and the linter reports an error on ${pct(errorServers, judged.length)}.`,
    `How the set was chosen: ${candidates.chosen}. "By downloads" means ${candidates.downloads}. Each server was installed with \`npm install --ignore-scripts\` in a folder of its own, started as a stdio server in an empty folder with no credentials (a dummy value for a variable it demanded to start: each fixture names them), and listed with the linter's own reader; its tools/list is saved in \`test/fixtures/ecosystem/servers/\`. Refresh: \`npm run ecosystem -- refresh\`, then \`npm run ecosystem -- update\` (pin and page).`,
    `A verdict is what the kit's profile of that host does (src/lab/profiles/, docs/sources.md): **refused**, the host's model API fails the request; **dropped**, the host leaves the tool or the server out; **lossy**, the model is not told something the schema says. Findings and severities are the linter's on the default hosts.`,
  ];
  const out: Section[] = [
    { title: 'The default hosts', blocks: [{ p: 'Shares of the servers (the whole tools/list in one request, and any one tool on its own) and of the tools.' }, { table: hostTable(judged, defaults) }] },
    { title: 'Every host profile', blocks: [{ p: 'The same on every host profile of the kit, the older versions the labs teach and the raw API fields included (`--hosts all`).' }, { table: hostTable(judged, HOST_IDS) }] },
    {
      title: 'Top causes',
      blocks: [
        { p: 'Finding rules on the default hosts, by the servers they are found in: how many servers and tools, in how many servers the rule is an error, a warning or info there, and which default hosts refuse or drop a tool because of it (tools).' },
        {
          table: {
            head: ['rule', 'servers', 'tools', 'error', 'warning', 'info', 'refused or dropped by'],
            rows: rules.slice(0, 20).map((r) => [
              `\`${r.rule}\``,
              pct(r.servers.size, judged.length),
              String(r.tools),
              String(r.bySeverity.error.size),
              String(r.bySeverity.warning.size),
              String(r.bySeverity.info.size),
              [...r.hurts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([h, n]) => `\`${h}\` ${n}`).join(', '),
            ]),
          },
        },
      ],
    },
    {
      title: 'The servers',
      blocks: [
        {
          table: {
            head: ['package', 'version', 'downloads', 'tools', 'errors', 'warnings', 'default hosts that refuse or drop a tool'],
            rows: judged.map((j) => [
              `\`${j.fixture.package}\``,
              j.fixture.version,
              String(j.fixture.downloads.figure),
              String(j.pinned.tools),
              String(j.pinned.findings.filter((c) => c.severity === 'error').length),
              String(j.pinned.findings.filter((c) => c.severity === 'warning').length),
              defaults.filter((h) => hurtBy(j, h)).map((h) => `\`${h}\``).join(', '),
            ]),
          },
        },
      ],
    },
    {
      title: 'Skipped',
      blocks: [
        { p: `${skipped.length} of the ${tried} packages tried are not in the set:` },
        { list: (Object.keys(reasonWords) as Skipped['reason'][]).filter((r) => reasons.has(r)).map((r) => `${reasons.get(r)}: ${reasonWords[r]}`) },
        { p: 'Each one, with its reason, is in `test/fixtures/ecosystem/skipped.json`.' },
      ],
    },
    { title: 'The hosts', blocks: [{ list: PROFILES.map((p) => `\`${p.id}\`${defaults.includes(p.id) ? ' (default)' : ''}: ${p.title.replace(`${p.id}: `, '')} (${p.asOf})`) }] },
  ];
  return { title: 'The ecosystem, measured', intro, sections: out };
}

function mdCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function markdown(doc: ReturnType<typeof sections>): string {
  const block = (b: Block): string =>
    'p' in b
      ? b.p
      : 'list' in b
        ? b.list.map((l) => `- ${l}`).join('\n')
        : [`| ${b.table.head.map(mdCell).join(' | ')} |`, `|${b.table.head.map(() => ' --- ').join('|')}|`, ...b.table.rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`)].join('\n');
  return `<!-- Generated by npm run ecosystem -- page from test/fixtures/ecosystem/: do not edit by hand. -->\n# ${doc.title}\n\n${doc.intro.join('\n\n')}\n\n${doc.sections.map((s) => `## ${s.title}\n\n${s.blocks.map(block).join('\n\n')}`).join('\n\n')}\n`;
}

/** Markdown's inline code and bold, in HTML, on escaped text. */
function inline(text: string): string {
  return esc(text)
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/`([^`]+)`/g, '<code>$1</code>');
}

const CSS = `
:root { --ink: #1a1a1a; --muted: #555; --line: #c8c8c8; --accent: #0b5394; }
body { margin: 0; font-family: system-ui, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); line-height: 1.45; font-size: 17px; }
main { max-width: 1200px; margin: 0 auto; padding: 1.2rem 1.5rem 3rem; }
h1 { font-size: 2rem; border-bottom: 4px solid var(--accent); padding-bottom: .4rem; }
h2 { font-size: 1.4rem; margin: 2rem 0 .4rem; border-bottom: 2px solid var(--line); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: .85rem; margin: .4rem 0; }
th, td { border: 1px solid var(--line); padding: .2rem .45rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td:not(:first-child) { font-variant-numeric: tabular-nums; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .9em; overflow-wrap: anywhere; }
`;

function html(doc: ReturnType<typeof sections>): string {
  const block = (b: Block): string =>
    'p' in b
      ? `<p>${inline(b.p)}</p>`
      : 'list' in b
        ? `<ul>${b.list.map((l) => `<li>${inline(l)}</li>`).join('')}</ul>`
        : `<div class="scroll"><table><thead><tr>${b.table.head.map((h) => `<th scope="col">${inline(h)}</th>`).join('')}</tr></thead><tbody>${b.table.rows.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('')}</tbody></table></div>`;
  const body = `<main>\n<h1>${esc(doc.title)}</h1>\n${doc.intro.map((p) => `<p>${inline(p)}</p>`).join('\n')}\n${doc.sections.map((s) => `<section><h2>${esc(s.title)}</h2>${s.blocks.map(block).join('\n')}</section>`).join('\n')}\n</main>`;
  return page({ lang: 'en', title: `schema-breaks: ${doc.title}`, css: CSS, body });
}

/** The page; a saved server the pinned verdicts do not hold is a stale pin (run pin first). */
export function ecosystemPage(fixtures: ServerFixture[], pinned: Pinned, candidates: Candidates, skipped: Skipped[]): { markdown: string; html: string } {
  const rows = fixtures.map((fixture) => {
    const p = pinned.servers[fixture.package];
    if (!p || p.version !== fixture.version) throw new UserError(`verdicts.json holds no verdicts for ${fixture.package}@${fixture.version}: run npm run ecosystem -- pin first`);
    return { fixture, pinned: p };
  });
  const doc = sections(rows, candidates, skipped, pinned.defaultHosts);
  return { markdown: markdown(doc), html: html(doc) };
}
