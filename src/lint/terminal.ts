/**
 * The linter's terminal report: the findings by rule, then the host matrix,
 * tools by hosts, with the tools that fare the same on every host on one row
 * (so a 30-tool server fits a screen), then one line per host saying why.
 */
import { paint } from '../core/colour.js';
import { HOST_IDS, reportHosts } from './hosts.js';
import { groupCauses } from './causes.js';
import { ruleTitle } from './rules.js';
import { exitCodeFor, findingsReaching, hostsReaching, keyedFindingsReaching, verdictsReaching, type FailOn, type Gate } from './gate.js';
import { PROFILES } from '../lab/profiles/index.js';
import { evidenceWords } from './evidence.js';
import type { HostVerdict, LintReport, Verdict } from './types.js';

export interface TerminalOptions {
  colour: boolean;
  width: number;
  /** What decides the exit code (src/lint/gate.ts); without host judging, --fail-on alone. */
  gate: Gate | FailOn;
  /** --show info: also the findings that hurt no targeted host (counted in the header either way). */
  showInfo?: boolean;
}

const gateOf = (gate: Gate | FailOn): Gate => (typeof gate === 'string' ? { failOn: gate, failOnHost: 'none', forHosts: HOST_IDS } : gate);

const CELL: Record<Verdict, { text: string; ansi: string }> = {
  accepted: { text: 'ok', ansi: '32' },
  lossy: { text: 'lossy', ansi: '33' },
  refused: { text: 'REFUSED', ansi: '31' },
  dropped: { text: 'dropped', ansi: '35' },
  unknown: { text: '?', ansi: '90' },
};
/** The same, short, for a matrix that would not fit the screen with the words in full (13 hosts: 104 columns). */
const SHORT: Record<Verdict, string> = { accepted: 'ok', lossy: 'lossy', refused: 'REF', dropped: 'drop', unknown: '?' };

/** How the loss kinds read in the per-host summary. */
const KIND_WORDS: Record<string, string> = {
  enum: 'enum dropped',
  union: 'union collapsed',
  parameter: 'parameters dropped',
  required: 'required changed',
  type: 'type changed',
  const: 'const dropped',
  items: 'items dropped',
  additionalProperties: 'additionalProperties dropped',
  constraint: 'bounds/format dropped',
  default: 'default dropped',
  description: 'description dropped',
  ref: '$ref dropped',
  keyword: 'keywords dropped',
  name: 'name changed',
  sent: 'sends keys the model did not write',
  dialect: '$schema dialect its validator cannot compile',
  changed: 'schema changed',
};

const SHOWN_PER_RULE = 6;

/**
 * Everything in a report that a server wrote (names, descriptions quoted in
 * messages, host texts that repeat them) is shown with its control and
 * bidirectional-override characters as "�": a tool name cannot move the
 * cursor, recolour the screen or reorder what the reader sees.
 */
function sanitized<T>(value: T): T {
  if (typeof value === 'string') return value.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '\ufffd') as T;
  if (Array.isArray(value)) return value.map(sanitized) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [sanitized(k), sanitized(v)])) as T;
  return value;
}

/**
 * A text as lines of at most `width` columns after `indent`, broken between words: nothing the
 * report says is ever cut off (issue 22: piped, names and messages were cut at 24 characters and
 * before their advice). A word longer than a whole line (a host's JSON error text) goes on over as
 * many lines as it needs, every character kept.
 */
export function wrap(text: string, width: number, indent: string, first = indent): string[] {
  const room = Math.max(20, width - indent.length);
  const words = text
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    .split(' ')
    .flatMap((word) => (word.length <= room ? [word] : (word.match(new RegExp(`.{1,${room}}`, 'g')) ?? [word])));
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const lead = lines.length === 0 ? first : indent;
    if (line !== '' && lead.length + line.length + 1 + word.length > width) {
      lines.push(lead + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push((lines.length === 0 ? first : indent) + line);
  return lines;
}

/** The path without the /inputSchema every schema finding starts with. */
function shortPath(path: string): string {
  if (path === '') return '(whole)';
  if (path === '/inputSchema') return '(root)';
  return path.startsWith('/inputSchema/') ? path.slice('/inputSchema/'.length) : path.slice(1);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function findingsBlock(report: LintReport, o: TerminalOptions): string[] {
  const every = report.causes ?? groupCauses(report);
  const infos = every.filter((c) => c.severity === 'info').length;
  const causes = o.showInfo ? every : every.filter((c) => c.severity !== 'info');
  const count = report.server.findings.length + report.tools.reduce((n, t) => n + t.findings.length, 0);
  const errors = causes.filter((c) => c.severity === 'error').length;
  const warnings = causes.filter((c) => c.severity === 'warning').length;
  const notes = [
    infos === 0 ? '' : o.showInfo ? '' : `and ${infos} info, hurting no targeted host: --show info`,
    count > every.length ? `one per cause: ${plural(count, 'finding')} in ${plural(report.tools.length, 'tool')}` : '',
  ].filter(Boolean);
  // The notes on lines of their own, wrapped: a header never runs past the screen.
  const noteLines = notes.length === 0 ? [] : wrap(`(${notes.join('; ')})`, o.width, '  ').map((l) => paint('2', l, o.colour));
  const infoCount = o.showInfo && infos > 0 ? `, ${infos} info` : '';
  if (causes.length === 0) return [paint('32', 'Findings: none', o.colour), ...noteLines];
  const lines = [`Findings: ${paint(errors ? '31' : '33', `${plural(errors, 'error')}, ${plural(warnings, 'warning')}${infoCount}`, o.colour)}`, ...noteLines];
  const worstOf = (rule: string) => Math.min(...causes.filter((c) => c.rule === rule).map((c) => ({ error: 0, warning: 1, info: 2 })[c.severity]));
  const rules = [...new Set(causes.map((c) => c.rule))].sort((a, b) => worstOf(a) - worstOf(b) || a.localeCompare(b));
  for (const rule of rules) {
    const rank = { error: 0, warning: 1, info: 2 };
    const mine = causes.filter((c) => c.rule === rule).sort((a, b) => rank[a.severity] - rank[b.severity]);
    const worst = mine.some((c) => c.severity === 'error') ? 'error' : mine.some((c) => c.severity === 'warning') ? 'warning' : 'info';
    const mark = { error: paint('31', '✗', o.colour), warning: paint('33', '!', o.colour), info: paint('2', 'i', o.colour) }[worst];
    lines.push(...wrap(`${paint('1', rule, o.colour)}  ${ruleTitle(rule)}`, o.width, '      ', `  ${mark} `));
    // The advice once for the rule when every cause under it has the same.
    const oneAdvice = new Set(mine.map((c) => c.advice)).size === 1;
    if (oneAdvice) lines.push(...wrap(`fix: ${mine[0]!.advice}`, o.width, '        ', '      ').map((l) => paint('36', l, o.colour)));
    for (const c of mine.slice(0, SHOWN_PER_RULE)) {
      const where = c.tools.length === 1 ? `${c.tools[0]}  ${shortPath(c.path)}` : `${c.tools.length} tools: ${shortPath(c.path)} (${c.tools.join(', ')})`;
      const mark = mine.some((m) => m.severity !== c.severity) ? `${c.severity}: ` : '';
      lines.push(...wrap(`${mark}${where}`, o.width, '        ', '      '));
      lines.push(...wrap(c.message, o.width, '        ').map((l) => paint('2', l, o.colour)));
      if (!oneAdvice) lines.push(...wrap(`fix: ${c.advice}`, o.width, '        ').map((l) => paint('36', l, o.colour)));
    }
    if (mine.length > SHOWN_PER_RULE) lines.push(paint('2', `      and ${mine.length - SHOWN_PER_RULE} more (--json lists every one)`, o.colour));
  }
  return lines;
}

/** --fix-schema: each change, and the hosts on the whole list before and after. */
function fixBlock(report: LintReport, o: TerminalOptions): string[] {
  const fix = report.fix;
  if (!fix) return [];
  const lines = ['', paint('1', `Rewritten schema: ${fix.file}, ${plural(fix.changes.length, 'change')}, ${plural(fix.causesAfter, 'cause')} of findings left`, o.colour)];
  // A change that narrows the tool (a value valid before may be refused after) is marked, in the warnings' yellow.
  for (const c of fix.changes)
    lines.push(...wrap(`${c.narrows ? `${paint('33', 'NARROWS', o.colour)} ` : ''}${c.tool}  ${shortPath(c.path)}  ${c.rule}: ${c.what}`, o.width, '      ', '    '));
  lines.push('  The hosts on the whole rewritten list (before -> after):');
  for (const [host, v] of Object.entries(fix.hosts)) {
    const failing = v.after === 'refused' || v.after === 'dropped';
    lines.push(...wrap(`${host}: ${v.before} -> ${v.after}${failing ? ` (${v.detail})` : ''}`, o.width, '        ', '    '));
  }
  return lines;
}

/** The weight of the list, and its heaviest tools. */
function weightLine(report: LintReport, o: TerminalOptions): string[] {
  const w = report.server.weight;
  if (!w || report.tools.length === 0) return [];
  const heaviest = [...report.tools].filter((t) => t.weight).sort((a, b) => b.weight!.bytes - a.weight!.bytes).slice(0, 3);
  const text =
    `Weight: tools/list is ${w.bytes} bytes, about ${w.tokens} tokens (4 characters a token, src/lint/weight.ts) in every request a host sends with it` +
    (heaviest.length > 1 ? `; heaviest: ${heaviest.map((t) => `${t.name} ${t.weight!.bytes} bytes (~${t.weight!.tokens} tokens)`).join(', ')}` : '');
  return wrap(text, o.width, '  ', '');
}

function cell(v: HostVerdict | undefined, o: TerminalOptions, width: number, short: boolean): string {
  const verdict = v?.verdict ?? 'unknown';
  const text = short ? SHORT[verdict] : CELL[verdict].text;
  return paint(CELL[verdict].ansi, text, o.colour) + ' '.repeat(Math.max(1, width - text.length));
}

/** Loss kinds per host, counted over tools: "enum dropped (3 tools), default dropped (2)". */
function lossSummary(verdicts: HostVerdict[]): string {
  const counts = new Map<string, number>();
  for (const v of verdicts) for (const kind of new Set((v.lost ?? []).map((l) => l.kind))) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${KIND_WORDS[kind] ?? kind} (${plural(n, 'tool')})`)
    .join(', ');
}

function matrixBlock(report: LintReport, o: TerminalOptions): string[] {
  if (report.tools.length === 0) return [];
  // The hosts --hosts chose (today's by default), in the order of PROFILES.
  const hosts = reportHosts(report);
  const lines = ['', 'Hosts (src/lab/profiles/), one column each:'];
  const half = Math.ceil(hosts.length / 2);
  // A model API's own field is marked: it is what an app meets that passes schemas through unchanged, not a host.
  const api = new Set(PROFILES.filter((p) => p.apiField).map((p) => p.id));
  const named = (h: string) => `${h}${api.has(h) ? ' *' : ''}`;
  for (let i = 0; i < half; i++) {
    const right = hosts[i + half];
    lines.push(`  ${String(i + 1).padStart(2)} ${named(hosts[i]!).padEnd(29)}${right ? `${String(i + half + 1).padStart(2)} ${named(right)}` : ''}`);
  }
  if (hosts.some((h) => api.has(h))) lines.push(paint('2', "  * a model API's own field, as an app that passes MCP schemas through unchanged sends them; not a host", o.colour));
  const groups = new Map<string, string[]>();
  for (const tool of report.tools) {
    const key = hosts.map((h) => tool.hosts[h]?.verdict ?? 'unknown').join(' ');
    groups.set(key, [...(groups.get(key) ?? []), tool.name]);
  }
  // The words in full when they leave room for the tools' names; else the short words, said once.
  const short = 2 + 8 * hosts.length + 24 > o.width;
  const cellWidth = short ? 6 : 8;
  const label = 'tools with the same verdicts';
  lines.push('');
  if (short) lines.push(`  ${paint(CELL.refused.ansi, 'REF', o.colour)}: refused (the whole request fails); ${paint(CELL.dropped.ansi, 'drop', o.colour)}: dropped (the host loses the server, or the tool)`);
  lines.push(`  ${hosts.map((_, i) => String(i + 1).padEnd(cellWidth)).join('')}${label}`);
  const room = Math.max(20, o.width - 2 - cellWidth * hosts.length);
  for (const names of groups.values()) {
    const tool = report.tools.find((t) => t.name === names[0])!;
    let shown = '';
    for (const [i, name] of names.entries()) {
      const more = names.length - i - 1;
      const next = `${shown}${shown ? ', ' : ''}${name}`;
      if (next.length + (more ? ` (+${more})`.length : 0) > room && shown) {
        shown += ` (+${names.length - i})`;
        break;
      }
      shown = next;
    }
    const cells = `  ${hosts.map((h) => cell(tool.hosts[h], o, cellWidth, short)).join('')}`;
    // One name longer than the room left (a 74-character name, which some hosts refuse) goes whole on the line
    // below its cells: names are never cut, and no line is wider than the screen.
    if (shown.length > room) lines.push(`${cells}↓`, `    ${shown}`);
    else lines.push(`${cells}${shown}`);
  }
  lines.push(`  ${hosts.map((h) => cell(report.server.hosts[h], o, cellWidth, short)).join('')}${paint('1', 'all tools in one request', o.colour)}`);
  lines.push('', 'Why, per host (--json has every tool\'s):');
  for (const [i, host] of hosts.entries()) {
    const verdicts = report.tools.map((t) => t.hosts[host]).filter((v): v is HostVerdict => v !== undefined);
    const whole = report.server.hosts[host];
    const badTools = report.tools.filter((t) => ['refused', 'dropped', 'unknown'].includes(t.hosts[host]?.verdict ?? ''));
    let word: Verdict;
    let body: string;
    if (whole && (whole.verdict === 'refused' || whole.verdict === 'dropped')) {
      word = whole.verdict;
      const scope = whole.takesDown === 'request' ? 'the whole request fails, every tool in it' : 'every tool of this server is dropped';
      const alone = (['refused', 'dropped', 'unknown'] as const).map((v) => [v, badTools.filter((t) => t.hosts[host]?.verdict === v).length] as const).filter(([, n]) => n > 0);
      body = `${scope} (of ${report.tools.length} tools alone: ${alone.map(([v, n]) => `${n} ${v}`).join(', ')}): ${whole.detail.split('\n')[0]}`;
    } else if (verdicts.some((v) => v.verdict === 'lossy' || v.takesDown === 'tool')) {
      word = 'lossy';
      const alone = verdicts.filter((v) => v.takesDown === 'tool').length;
      body = [alone > 0 ? `${plural(alone, 'tool')} left out alone, the others shown` : '', lossSummary(verdicts)].filter((b) => b !== '').join('; ');
    } else if (whole?.verdict === 'unknown') {
      word = 'unknown';
      body = whole.detail;
    } else {
      word = 'accepted';
      body = 'every tool shown as published';
    }
    const failing = ['refused', 'dropped'].includes(word) ? (badTools[0]?.hosts[host] ?? whole) : whole;
    const evidence = failing?.evidence ?? whole?.evidence;
    if (evidence) body += ` [${evidenceWords(evidence)}]`;
    const head = `  ${String(i + 1).padStart(2)} ${host.padEnd(26)} `;
    const shownWord = word === 'accepted' ? 'ok' : word;
    const [first, ...rest] = wrap(body, o.width, ' '.repeat(head.length + 2), `${head}${shownWord}: `);
    lines.push(`${head}${paint(CELL[word].ansi, shownWord, o.colour)}${first!.slice(head.length + shownWord.length)}`, ...rest);
  }
  return lines;
}

export function renderTerminal(unsafeReports: LintReport[], unsafeSkipped: { name: string; reason: string }[], o: TerminalOptions): string {
  const reports = sanitized(unsafeReports);
  const skipped = sanitized(unsafeSkipped);
  const out: string[] = [];
  for (const report of reports) {
    const s = report.server;
    const who = [s.name ? `${s.name}${s.version ? ` ${s.version}` : ''}` : undefined, s.label].filter(Boolean).join(' · ');
    out.push(paint('1', `schema-breaks lint: ${who}`, o.colour));
    if (s.error) {
      out.push(`${paint('31', '✗', o.colour)} ${s.error.message}`, '');
      continue;
    }
    out.push(
      paint('2', `${plural(report.tools.length, 'tool')}, ${'from' in s.target ? `read from ${s.target.from}` : plural(s.pages, 'tools/list page')}${s.protocolVersion ? `, protocol ${s.protocolVersion}` : ''}${s.listedInMs !== null ? `, listed in ${s.listedInMs} ms` : ''}`, o.colour),
      '',
      ...weightLine(report, o),
      '',
      ...findingsBlock(report, o),
      // A warning names whoever it hurts among the hosts asked: say which were not, and why.
      ...(s.notAsked ? [paint('2', `Not asked (their frameworks are not installed: npm ci --prefix hosts): ${s.notAsked.join(', ')}`, o.colour)] : []),
      ...matrixBlock(report, o),
      ...fixBlock(report, o),
      '',
    );
  }
  for (const skip of skipped) out.push(paint('2', `skipped ${skip.name}: ${skip.reason}`, o.colour));
  const gate = gateOf(o.gate);
  const code = exitCodeFor(reports, gate);
  const failed = reports.filter((r) => r.server.error).length;
  const hosts = hostsReaching(reports, gate);
  const why = [
    findingsReaching(reports, gate.failOn, gate.baseline).length > 0 ? `findings reach --fail-on ${gate.failOn}` : '',
    hosts.length > 0 ? `host verdicts reach --fail-on-host ${gate.failOnHost}: ${hosts.map((h) => `${h.host} (${[h.tools > 0 ? plural(h.tools, 'tool') : '', h.wholeList ? 'the whole list' : ''].filter(Boolean).join(', ')})`).join(', ')}` : '',
  ].filter(Boolean);
  const judged = [`--fail-on ${gate.failOn}`, ...(gate.failOnHost === 'none' ? [] : [`--fail-on-host ${gate.failOnHost}`])].join(' or ');
  out.push(
    code === 2
      ? paint('31', `exit 2: ${plural(failed, 'server')} could not be linted`, o.colour)
      : code === 1
        ? paint('31', `exit 1: ${why.join('; ')}`, o.colour)
        : paint('32', `exit 0: nothing reaches ${judged}`, o.colour),
  );
  return `${out.join('\n')}\n`;
}

/** What --baseline did: how much it accepted, then each new finding and host failure that counts, one line each. */
export function baselineLines(reports: LintReport[], gate: Gate): string[] {
  const findings = keyedFindingsReaching(reports, gate.failOn);
  const fresh = keyedFindingsReaching(reports, gate.failOn, gate.baseline);
  const verdicts = verdictsReaching(reports, gate, false);
  const freshVerdicts = verdictsReaching(reports, gate);
  const where = (k: { server: string; tool: string | null }) => `${k.server}${k.tool === null ? '' : `/${k.tool}`}`;
  return [
    `baseline ${gate.baselineFile ?? ''}: ${plural(findings.length - fresh.length, 'finding')} and ${plural(verdicts.length - freshVerdicts.length, 'host verdict')} accepted; ${fresh.length + freshVerdicts.length} new`,
    ...fresh.map(({ key, finding }) => `  new: ${where(key)} ${key.rule}${key.path ? ` at ${key.path}` : ''}: ${finding.message}`),
    ...freshVerdicts.map((k) => `  new: ${where(k)} ${k.host}: ${k.verdict}${k.tool === null ? ' (the whole list)' : ''}`),
  ];
}
