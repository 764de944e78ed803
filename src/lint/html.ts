/**
 * The lint report as one self-contained page (--html FILE), in the shell and
 * the look of the kit's other pages (src/class/html.ts: inline CSS, no
 * script, nothing fetched, a Content-Security-Policy of default-src 'none'):
 * the findings as a table, and the host matrix, tools by hosts, each cell a
 * verdict in words and colour that opens (a <details>, no script) to the
 * host's own text or what is lost. Everything the server sent is escaped.
 */
import { esc, page } from '../class/html.js';
import { PROFILES } from '../lab/profiles/index.js';
import { groupCauses } from './causes.js';
import { ruleTitle } from './rules.js';
import { evidenceWords } from './evidence.js';
import type { HostVerdict, LintReport, Verdict } from './types.js';

const LOOK: Record<Verdict, { word: string; colour: string; ink: string }> = {
  accepted: { word: 'accepted', colour: '#dff3e4', ink: '#14532d' },
  lossy: { word: 'lossy', colour: '#fff1c2', ink: '#6b4d00' },
  refused: { word: 'refused', colour: '#fbd5d5', ink: '#7f1d1d' },
  dropped: { word: 'dropped', colour: '#ead7f5', ink: '#4c1d63' },
  unknown: { word: 'unknown', colour: '#e5e5e5', ink: '#333' },
};

const CSS = `
:root { --ink: #1a1a1a; --muted: #555; --line: #c8c8c8; --accent: #0b5394; }
* { box-sizing: border-box; }
html { font-size: 18px; }
body { margin: 0; font-family: system-ui, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; line-height: 1.4; }
main { max-width: 1400px; margin: 0 auto; padding: 1.2rem 1.5rem 3rem; }
header.top { border-bottom: 4px solid var(--accent); margin-bottom: 1rem; padding-bottom: .6rem; }
.kicker { color: var(--muted); font-size: .85rem; letter-spacing: .04em; text-transform: uppercase; margin: 0; }
h1 { font-size: 2rem; margin: .1rem 0 .3rem; overflow-wrap: anywhere; }
h2 { font-size: 1.5rem; margin: 2rem 0 .4rem; border-bottom: 2px solid var(--line); padding-bottom: .2rem; overflow-wrap: anywhere; }
h3 { font-size: 1.15rem; margin: 1.4rem 0 .4rem; }
.summary { margin: .2rem 0; color: var(--muted); }
.notice { border-left: 8px solid #c62828; background: #ffebee; padding: .6rem 1rem; margin: .8rem 0; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: .4rem 0; font-size: .85rem; }
th, td { border: 1px solid var(--line); padding: .2rem .45rem; text-align: left; vertical-align: top; }
th[scope=col] { background: #f3f3f3; }
th.host { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; font-weight: 600; padding: .5rem .25rem; }
td.v { min-width: 6.2rem; }
td.v summary { cursor: pointer; font-weight: 600; list-style: none; }
td.v details[open] { max-width: 28rem; }
td.v p { margin: .3rem 0 0; font-size: .8rem; overflow-wrap: anywhere; white-space: pre-wrap; }
td.msg, td.path { overflow-wrap: anywhere; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .9em; }
.sev-error { color: #b71c1c; font-weight: 700; }
.sev-warning { color: #8a5a00; font-weight: 700; }
.sev-info { color: #555; }
.evidence { font-size: 0.85em; color: #444; }
.legend { display: flex; flex-wrap: wrap; gap: .4rem 1rem; margin: .4rem 0; font-size: .9rem; }
.swatch { display: inline-block; padding: 0 .4rem; border-radius: 3px; font-weight: 600; }
ol.hosts { font-size: .9rem; columns: 2; }
footer { margin-top: 2.5rem; border-top: 2px solid var(--line); padding-top: .6rem; font-size: .8rem; color: var(--muted); }
@media print { details { display: block; } }
`;

function verdictCell(v: HostVerdict | undefined, host: string, tool: string): string {
  const look = LOOK[v?.verdict ?? 'unknown'];
  const scope = v?.takesDown === 'request' ? ' The whole request fails with it, every tool in it.' : v?.takesDown === 'server' ? ' Every tool of the server is dropped with it.' : v?.takesDown === 'tool' ? " Only this tool is left out; the server's other tools are shown." : '';
  const detail = v ? `${v.detail}${scope && !/[.!?]$/.test(v.detail) ? '.' : ''}${scope}` : 'no verdict';
  return (
    `<td class="v" style="background:${look.colour};color:${look.ink}" aria-label="${esc(`${tool} on ${host}: ${look.word}`)}">` +
    `<details><summary>${esc(look.word)}${v?.evidence?.unconfirmed ? ' ?' : ''}</summary><p>${esc(detail)}</p>` +
    (v?.evidence ? `<p class="evidence">Evidence: ${esc(evidenceWords(v.evidence))} (${esc(v.evidence.source)})</p>` : '') +
    `</details></td>`
  );
}

function findingsTable(report: LintReport): string {
  const causes = report.causes ?? groupCauses(report);
  if (causes.length === 0) return '<p>No findings.</p>';
  const count = report.server.findings.length + report.tools.reduce((n, t) => n + t.findings.length, 0);
  return (
    `<div class="scroll"><table><caption class="summary">${causes.length} causes (${count} findings: one per rule and path, across tools)</caption><thead><tr><th scope="col">severity</th><th scope="col">rule</th><th scope="col">tools</th><th scope="col">where</th><th scope="col">what</th><th scope="col">fix</th></tr></thead><tbody>` +
    causes
      .map(
        (c) =>
          `<tr><td class="sev-${c.severity}">${esc(c.severity)}</td><td><code title="${esc(ruleTitle(c.rule))}">${esc(c.rule)}</code></td>` +
          `<td>${c.tools.length > 1 ? `${c.tools.length} tools: ` : ''}${c.tools.map((t) => `<code>${esc(t)}</code>`).join(', ')}</td>` +
          `<td class="path"><code>${esc(c.path || '(whole)')}</code></td><td class="msg">${esc(c.message)}</td><td class="msg">${esc(c.advice)}</td></tr>`,
      )
      .join('') +
    '</tbody></table></div>'
  );
}

function matrixTable(report: LintReport): string {
  if (report.tools.length === 0) return '<p>No tools to judge.</p>';
  const judged = PROFILES.filter((p) => Object.hasOwn(report.server.hosts, p.id));
  const head = `<tr><th scope="col">tool</th><th scope="col">weight</th>${judged.map((p) => `<th scope="col" class="host" title="${esc(p.title)}">${esc(p.id)}</th>`).join('')}</tr>`;
  const weight = (w: { bytes: number; tokens: number } | undefined) => `<td>${w ? `${w.bytes} bytes, ~${w.tokens} tokens` : ''}</td>`;
  const rows = report.tools.map((t) => `<tr><th scope="row"><code>${esc(t.name)}</code></th>${weight(t.weight)}${judged.map((p) => verdictCell(t.hosts[p.id], p.id, t.name)).join('')}</tr>`);
  const whole = `<tr><th scope="row">all tools in one request</th>${weight(report.server.weight)}${judged.map((p) => verdictCell(report.server.hosts[p.id], p.id, 'all tools')).join('')}</tr>`;
  return `<div class="scroll"><table><caption class="summary">Each cell opens to the host's own text, or to what the model is no longer told.</caption><thead>${head}</thead><tbody>${rows.join('')}${whole}</tbody></table></div>`;
}

function serverSection(report: LintReport): string {
  const s = report.server;
  const title = [s.name ? `${s.name}${s.version ? ` ${s.version}` : ''}` : undefined, s.label].filter(Boolean).join(' · ');
  if (s.error) return `<section><h2>${esc(title)}</h2><p class="notice">Not linted: ${esc(s.error.message)}</p></section>`;
  const facts = [
    `${report.tools.length} tools`,
    `${s.pages} tools/list page${s.pages === 1 ? '' : 's'}`,
    s.protocolVersion ? `protocol ${s.protocolVersion}` : '',
    s.listedInMs !== null ? `listed in ${s.listedInMs} ms` : '',
    s.weight ? `tools/list ${s.weight.bytes} bytes, about ${s.weight.tokens} tokens (4 characters a token) in every request` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `<section><h2>${esc(title)}</h2><p class="summary">${esc(facts)}</p><h3>Findings</h3>${findingsTable(report)}<h3>Host matrix</h3>${matrixTable(report)}</section>`;
}

export function renderLintPage(reports: LintReport[], generatedAt = new Date()): string {
  const legend = (Object.keys(LOOK) as Verdict[])
    .filter((v) => v !== 'unknown')
    .map((v) => `<span><span class="swatch" style="background:${LOOK[v].colour};color:${LOOK[v].ink}">${LOOK[v].word}</span></span>`)
    .join('');
  const hosts = PROFILES.filter((p) => reports.some((r) => Object.hasOwn(r.server.hosts, p.id))).map((p) => `<li><code>${esc(p.id)}</code>: ${esc(p.title.replace(`${p.id}: `, ''))} (${esc(p.asOf)})</li>`).join('');
  const heading = reports.length === 1 ? reports[0]!.server.label : `${reports.length} servers`;
  const body = `<main>
<header class="top"><p class="kicker">schema-breaks lint</p><h1>${esc(heading)}</h1>
<p class="summary">What each host does with each tool, from the kit's host profiles (src/lab/profiles/, every behaviour cited there), and what the rules find.</p>
<div class="legend">${legend}</div></header>
${reports.map(serverSection).join('\n')}
<h2>The hosts</h2><ol class="hosts">${hosts}</ol>
<footer>Generated ${esc(generatedAt.toISOString())} by <code>schema-breaks lint</code>. A verdict is what the profile of that host at that date does; docs/sources.md says where each comes from.</footer>
</main>`;
  return page({ lang: 'en', title: `schema-breaks lint: ${heading}`, css: CSS, body });
}
