/**
 * The lint command: `npm run lint -- [options] -- <command> [args...]` in a
 * clone of the kit (scripts/lint.ts), `schema-breaks lint ...` from the
 * package (src/lint/bin.ts). One options table drives the parsing and
 * --help (src/core/options.ts). Exit 0 when no finding reaches --fail-on,
 * 1 when one does, 2 for a usage error or a server that could not be read.
 */
import { colourOn } from '../core/colour.js';
import { fromUser } from '../core/cwd.js';
import { fileRule, namedFile, writeOutput, wroteLine } from '../core/file-option.js';
import { HELP_OPTION, optionsHelp, parseOptions } from '../core/options.js';
import { UserError } from '../core/user-error.js';
import { renderLintPage } from './html.js';
import { contractOperations, lintTarget, type LintSettings } from './lint.js';
import { toSarif } from './sarif.js';
import { CLIENT_CAPABILITIES, killAllServers, type ClientCapability } from './server.js';
import { commandTarget, configTargets, fromTarget, urlTarget, type Target } from './targets.js';
import { baselineOf, readBaseline, writeBaseline } from './baseline.js';
import { exitCodeFor, type FailOn, type FailOnHost, type Gate } from './gate.js';
import { chooseHosts, hostSetsHelp } from './hosts.js';
import { TODAY_SINCE } from '../lab/profiles/index.js';
import { baselineLines, renderTerminal } from './terminal.js';
import { LINT_CONFIG_FORMAT, LINT_FORMAT_VERSION, type LintConfigReport, type LintReport } from './types.js';

export const LINT_OPTIONS = [
  { name: 'variant', kind: 'string', value: 'ID', help: 'lint the kit\'s own server: baseline, or a break from breaks/ (in a clone of the kit)' },
  { name: 'config', kind: 'string', value: 'FILE', help: ['lint every server of an MCP config file: "mcpServers" (Claude Desktop, Cursor, Claude Code)', 'or "servers" (VS Code\'s .vscode/mcp.json); "url" entries over Streamable HTTP, ${VAR} in their headers'] },
  { name: 'url', kind: 'string', value: 'URL', help: 'lint a Streamable HTTP server at URL (http:// or https://) instead of starting one' },
  { name: 'server', kind: 'string', value: 'NAME', help: 'with --config: only this server of the file' },
  { name: 'from', kind: 'string', value: 'FILE', help: 'lint a tools/list result saved before (with --save) instead of starting a server' },
  { name: 'save', kind: 'string', value: 'FILE', help: 'also write the tools/list result, as the server sent it, to FILE' },
  { name: 'tools', kind: 'boolean', help: ['print what the server publishes instead of the report: its tools/list result, as it sent it', '(each tool\'s name, description and inputSchema), as JSON; offline, no other client needed'] },
  { name: 'contract', kind: 'string', value: 'FILE', help: ['also run the contract rules against an OpenAPI document (like contract/tutor-api.json);', 'calls each tool the contract says needs arguments once, with none (rule rejects-missing-arguments)'] },
  { name: 'show', kind: 'string', value: 'info', help: 'also show the findings that hurt no targeted host (severity info; counted in the header either way)' },
  { name: 'json', kind: 'boolean', help: 'print the report as JSON (format schema-breaks/lint, version 1) instead of the table' },
  { name: 'sarif', kind: 'string', value: 'FILE', help: ['also write the findings and the targeted hosts\' refusals and drops as SARIF 2.1.0 (for code scanning),', 'each at the line of the git-tracked source that names its tool'] },
  { name: 'html', kind: 'string', value: 'FILE', help: 'also write the report as one self-contained HTML page' },
  { name: 'fix-schema', kind: 'string', value: 'FILE', help: 'also write the tools with their schemas rewritten by the kit\'s transformations (each listed), and judge them' },
  { name: 'fail-on', kind: 'string', value: 'error|warning|none', help: 'the severity that makes the exit code 1 (default error)' },
  { name: 'fail-on-host', kind: 'string', value: 'lossy|refused|none', help: ['also exit 1 when a host verdict is this bad or worse (refused includes dropped; default none:', 'host verdicts are shown, findings decide)'] },
  {
    name: 'hosts',
    kind: 'string',
    value: 'SET|LIST',
    help: [
      'the host profiles to judge on, and the ones --fail-on-host judges: today (the default: hosts released',
      `since ${TODAY_SINCE}), api (the model APIs' own fields, for an app passing schemas through unchanged),`,
      'historic (the older ones the labs teach), all, or ids, comma-separated',
    ],
  },
  // The old name, from before --hosts (issue 22): it named the hosts --fail-on-host judges, which --hosts now does.
  { name: 'for-hosts', kind: 'string', value: 'LIST', help: 'the old name of --hosts', hidden: true },
  { name: 'baseline', kind: 'string', value: 'FILE', help: 'what FILE holds (written by --write-baseline) no longer counts for the exit code: only new findings and host failures do' },
  { name: 'write-baseline', kind: 'string', value: 'FILE', help: 'write today\'s findings and host verdicts to FILE, to accept them later with --baseline FILE' },
  { name: 'no-cache', kind: 'boolean', help: ['ask every host afresh, not from the verdict cache (what each host answered about the same tools', 'in an earlier run of the same kit code; npm run lint keeps it beside its bundle)'] },
  { name: 'timeout', kind: 'string', value: 'S', help: 'seconds to wait for each answer (initialize, each tools/list page) before ending the server (default 10)' },
  {
    name: 'client-capabilities',
    kind: 'string',
    value: 'LIST',
    help: ['what the linter declares at initialize, from roots, sampling, elicitation, or none (default: all three;', 'some servers list a tool only to a client that declares what it needs)'],
  },
  HELP_OPTION,
] as const;

export interface LintCommandContext {
  /** How the user typed the command: "npm run lint --" or "schema-breaks lint". */
  invocation: string;
  /**
   * The verdict cache's folder (src/lint/verdicts.ts), where the command's code is named by a hash of itself (npm run
   * lint's bundle, scripts/lint.ts); absent, every host is asked afresh.
   */
  verdicts?: string;
  /** Builds a target for the kit's own server; absent outside a clone of the kit. */
  variant?: { ids: string[]; target: (id: string) => Promise<Target> };
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  colour?: boolean;
  width?: number;
}

function usage(ctx: LintCommandContext): string {
  return `Usage: ${ctx.invocation} [options] -- <command> [args...]
       ${ctx.invocation} [options] --config FILE
       ${ctx.invocation} [options] --url URL
       ${ctx.invocation} [options] --variant ID${ctx.variant ? '' : '   (in a clone of the kit)'}

Starts a stdio MCP server (or reaches one over Streamable HTTP), does a real
initialize and tools/list (every page), and judges every tool: the rules
(structural unions, the root, $ref, type lists, allOf, arrays without items,
const, names, shapes it was not taught), and what each host profile does with
it (accepted, lossy, refused or dropped).

${optionsHelp(LINT_OPTIONS)}

Exit codes: 0 nothing reaches --fail-on (or --fail-on-host); 1 something does; 2 a usage error, or a
server that did not start, wrote garbage, or did not answer in time (it is ended), or a config entry that
cannot be started as written. With --baseline FILE, only what FILE does not hold counts.

${fileRule('en')}
`;
}

interface Parsed {
  targets: Target[];
  skipped: { name: string; reason: string }[];
  configFile?: string;
  settings: LintSettings;
  json: boolean;
  /** --show info: the findings that hurt no targeted host too. */
  showInfo: boolean;
  /** --tools: print the tools/list result instead of the report. */
  tools: boolean;
  sarif?: string;
  html?: string;
  writeBaseline?: string;
  gate: Gate;
  /** A line for stderr before the report: an old option's new name. */
  note?: string;
}

async function parse(argv: string[], ctx: LintCommandContext): Promise<Parsed | 'help'> {
  const fail = (message: string) => new UserError(`${message} (${ctx.invocation} --help)`);
  const split = argv.indexOf('--');
  const before = split === -1 ? argv : argv.slice(0, split);
  const command = split === -1 ? [] : argv.slice(split + 1);
  const { values, positionals } = parseOptions(LINT_OPTIONS, before, fail, { positionals: true });
  if (values.help) return 'help';
  if (positionals.length > 0 && split !== -1) throw fail(`unexpected ${positionals.join(' ')} before --`);
  const serverCommand = split === -1 ? positionals : command;
  const chosen = [
    serverCommand.length > 0 && 'a command',
    values.variant !== undefined && '--variant',
    values.config !== undefined && '--config',
    values.from !== undefined && '--from',
    values.url !== undefined && '--url',
  ].filter(Boolean);
  if (chosen.length === 0) throw fail('what to lint? give the server\'s command after --, or --config FILE, --url URL, --variant ID or --from FILE');
  if (chosen.length > 1) throw fail(`one thing to lint at a time, not ${chosen.join(' and ')}`);
  if (values.server !== undefined && values.config === undefined) throw fail('--server picks a server of --config FILE');
  const failOn = values['fail-on'] ?? 'error';
  if (!['error', 'warning', 'none'].includes(failOn)) throw fail(`--fail-on takes error, warning or none, not "${failOn}"`);
  const failOnHost = values['fail-on-host'] ?? 'none';
  if (!['lossy', 'refused', 'none'].includes(failOnHost)) throw fail(`--fail-on-host takes lossy, refused or none, not "${failOnHost}"`);
  if (values.show !== undefined && values.show !== 'info') throw fail(`--show takes info, not "${values.show}"`);
  if (values['for-hosts'] !== undefined && values.hosts !== undefined) throw fail('--for-hosts is the old name of --hosts: give --hosts alone');
  const hostsFlag = values['for-hosts'] === undefined ? '--hosts' : '--for-hosts (now --hosts)';
  const chosenHosts = chooseHosts(values.hosts ?? values['for-hosts']);
  if ('unknown' in chosenHosts) throw fail(`${hostsFlag} takes ${hostSetsHelp()}; not "${chosenHosts.unknown.join(', ')}"`);
  const hosts = chosenHosts.hosts;
  const timeout = values.timeout === undefined ? 10 : Number(values.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 600) throw fail(`--timeout takes seconds, more than 0 and at most 600, not "${values.timeout}"`);
  if (values.save !== undefined && (values.config !== undefined || values.from !== undefined)) throw fail('--save writes the tools/list of one server started here');
  if (values.tools && (values.config !== undefined || values.json || values.sarif !== undefined || values.html !== undefined)) throw fail('--tools prints the tools/list of one server, and nothing else');
  if (values['fix-schema'] !== undefined && values.config !== undefined) throw fail('--fix-schema rewrites the tools of one server, not of a --config file');
  const baseline = values.baseline === undefined ? undefined : readBaseline(fromUser(values.baseline), values.baseline);
  const asked = values['client-capabilities'];
  const capabilities = asked === undefined ? [...CLIENT_CAPABILITIES] : asked === 'none' ? [] : asked.split(',').map((c) => c.trim());
  const unknown = capabilities.filter((c) => !(CLIENT_CAPABILITIES as readonly string[]).includes(c));
  if (unknown.length > 0) throw fail(`--client-capabilities takes ${CLIENT_CAPABILITIES.join(', ')} (comma-separated) or none, not ${unknown.join(', ')}`);

  let targets: Target[] = [];
  let skipped: { name: string; reason: string }[] = [];
  if (serverCommand.length > 0) targets = [commandTarget(serverCommand[0]!, serverCommand.slice(1))];
  else if (values.from !== undefined) targets = [fromTarget(fromUser(values.from))];
  else if (values.url !== undefined) targets = [urlTarget(values.url)];
  else if (values.config !== undefined) ({ targets, skipped } = configTargets(fromUser(values.config), values.server));
  else {
    const id = values.variant!;
    if (!ctx.variant) throw new UserError(`--variant lints the kit's own server and needs a clone of the kit (npm run lint there); here, give your server's command after --`);
    if (!ctx.variant.ids.includes(id)) throw fail(`unknown variant "${id}"; one of: ${ctx.variant.ids.join(', ')}`);
    targets = [await ctx.variant.target(id)];
  }
  return {
    targets,
    skipped,
    ...(values.config !== undefined ? { configFile: values.config } : {}),
    // Every path is read from the folder the command was typed in (src/core/cwd.ts), not the package root npm moves to.
    settings: {
      timeoutMs: timeout * 1000,
      capabilities: capabilities as ClientCapability[],
      hosts,
      ...(ctx.verdicts !== undefined && values['no-cache'] !== true ? { verdicts: ctx.verdicts } : {}),
      ...(values.contract !== undefined ? { contract: fromUser(values.contract) } : {}),
      ...(values.save !== undefined ? { save: namedFile(values.save) } : {}),
      ...(values['fix-schema'] !== undefined ? { fixSchema: namedFile(values['fix-schema']) } : {}),
    },
    json: values.json === true,
    showInfo: values.show === 'info',
    tools: values.tools === true,
    ...(values.sarif !== undefined ? { sarif: namedFile(values.sarif) } : {}),
    ...(values.html !== undefined ? { html: namedFile(values.html) } : {}),
    ...(values['write-baseline'] !== undefined ? { writeBaseline: namedFile(values['write-baseline']) } : {}),
    gate: { failOn: failOn as FailOn, failOnHost: failOnHost as FailOnHost, forHosts: hosts, ...(baseline ? { baseline, baselineFile: values.baseline } : {}) },
    ...(values['for-hosts'] !== undefined ? { note: 'lint: --for-hosts is now --hosts (the hosts judged, and the ones --fail-on-host judges)' } : {}),
  };
}

/** Runs targets a few at a time (servers from npx start slowly; the machine may have two cores). */
async function lintAll(targets: Target[], settings: LintSettings): Promise<LintReport[]> {
  const operations = contractOperations(settings.contract);
  const reports: LintReport[] = new Array(targets.length);
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const i = next++;
      reports[i] = await lintTarget(targets[i]!, settings, operations);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, targets.length) }, worker));
  return reports;
}

function onSignal(signal: NodeJS.Signals): void {
  killAllServers();
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

/** The whole command; returns its exit code. Usage errors throw UserError (runCommand prints them as one line, exit 2). */
export async function runLint(argv: string[], ctx: LintCommandContext): Promise<number> {
  const stdout = ctx.stdout ?? ((text: string) => process.stdout.write(text));
  const stderr = ctx.stderr ?? ((text: string) => process.stderr.write(text));
  const parsed = await parse(argv, ctx);
  if (parsed === 'help') {
    stdout(usage(ctx));
    return 0;
  }
  if (parsed.note) stderr(`${parsed.note}\n`);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let reports: LintReport[];
  const listed: unknown[][] = [];
  try {
    reports = await lintAll(parsed.targets, parsed.tools ? { ...parsed.settings, listed: (tools) => listed.push(tools), listOnly: true } : parsed.settings);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (parsed.tools) {
    for (const r of reports) if (r.server.error) stderr(`lint: ${r.server.label}: ${r.server.error.message}\n`);
    if (listed.length === 0) return 2;
    stdout(`${JSON.stringify({ tools: listed[0] }, null, 2)}\n`);
    return 0;
  }
  const said = (line: string) => (parsed.json ? stderr : stdout)(`${line}\n`);
  // --write-baseline accepts today's findings and host verdicts: the run that writes it is judged with it, so it
  // exits 0 unless a server failed (issue 33), and the next run with --baseline FILE says the same.
  const accepted = parsed.writeBaseline !== undefined && !reports.some((r) => r.server.error) ? baselineOf(reports) : undefined;
  const gate: Gate = accepted ? { ...parsed.gate, baseline: accepted, baselineFile: parsed.writeBaseline } : parsed.gate;
  if (parsed.json) {
    const document: LintReport | LintConfigReport =
      parsed.configFile === undefined ? reports[0]! : { format: LINT_CONFIG_FORMAT, version: LINT_FORMAT_VERSION, config: parsed.configFile, servers: reports, skipped: parsed.skipped };
    stdout(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    stdout(renderTerminal(reports, parsed.skipped, { colour: ctx.colour ?? colourOn(), width: ctx.width ?? (process.stdout.columns || 120), gate, showInfo: parsed.showInfo }));
  }
  // Every file written is named in one line (src/core/file-option.ts): the ones lintAll wrote first.
  const written = reports.some((r) => r.server.error) ? [] : [parsed.settings.save, parsed.settings.fixSchema];
  let unplaced: string | undefined;
  if (parsed.sarif !== undefined) {
    const sarif = toSarif(reports.map((report, i) => ({ report, source: parsed.targets[i]!.source })), { baseline: parsed.gate.baseline });
    writeOutput(parsed.sarif, `${JSON.stringify(sarif.log, null, 2)}\n`);
    written.push(parsed.sarif);
    unplaced = sarif.unplaced;
  }
  if (parsed.html !== undefined) {
    writeOutput(parsed.html, renderLintPage(reports));
    written.push(parsed.html);
  }
  if (accepted) {
    writeBaseline(parsed.writeBaseline!, accepted);
    written.push(parsed.writeBaseline!);
  }
  for (const file of written) if (file !== undefined) said(wroteLine(file, 'en'));
  if (unplaced) stderr(`${unplaced}\n`);
  if (gate.baseline && !accepted) for (const line of baselineLines(reports, gate)) said(line);
  for (const r of reports) if (r.server.error) stderr(`lint: ${r.server.label}: ${r.server.error.message}\n`);
  return exitCodeFor(reports, gate);
}
