/**
 * The lint command: `npm run lint -- [options] -- <command> [args...]` in a
 * clone of the kit (scripts/lint.ts), `schema-breaks lint ...` from the
 * package (src/lint/bin.ts). One options table drives the parsing and
 * --help (src/core/options.ts). Exit 0 when no finding reaches --fail-on,
 * 1 when one does, 2 for a usage error or a server that could not be read.
 */
import { writeFileSync } from 'node:fs';
import { colourOn } from '../core/colour.js';
import { HELP_OPTION, optionsHelp, parseOptions } from '../core/options.js';
import { UserError } from '../core/user-error.js';
import { renderLintPage } from './html.js';
import { contractOperations, lintTarget, type LintSettings } from './lint.js';
import { toSarif } from './sarif.js';
import { CLIENT_CAPABILITIES, killAllServers, type ClientCapability } from './server.js';
import { commandTarget, configTargets, fromTarget, type Target } from './targets.js';
import { exitCodeFor, type FailOn, type FailOnHost, type Gate } from './gate.js';
import { HOST_IDS } from './hosts.js';
import { renderTerminal } from './terminal.js';
import { LINT_CONFIG_FORMAT, LINT_FORMAT_VERSION, type LintConfigReport, type LintReport } from './types.js';

export const LINT_OPTIONS = [
  { name: 'variant', kind: 'string', value: 'ID', help: 'lint the kit\'s own server: baseline, or a break from breaks/ (in a clone of the kit)' },
  { name: 'config', kind: 'string', value: 'FILE', help: ['lint every stdio server of an MCP config file: "mcpServers" (Claude Desktop,', 'Cursor, Claude Code) or "servers" (VS Code\'s .vscode/mcp.json)'] },
  { name: 'server', kind: 'string', value: 'NAME', help: 'with --config: only this server of the file' },
  { name: 'from', kind: 'string', value: 'FILE', help: 'lint a tools/list result saved before (with --save) instead of starting a server' },
  { name: 'save', kind: 'string', value: 'FILE', help: 'also write the tools/list result, as the server sent it, to FILE' },
  { name: 'contract', kind: 'string', value: 'FILE', help: ['also run the contract rules against an OpenAPI document (like contract/tutor-api.json);', 'calls each tool the contract says needs arguments once, with none (rule rejects-missing-arguments)'] },
  { name: 'json', kind: 'boolean', help: 'print the report as JSON (format schema-breaks/lint, version 1) instead of the table' },
  { name: 'sarif', kind: 'string', value: 'FILE', help: 'also write the findings as SARIF 2.1.0 (for code scanning)' },
  { name: 'html', kind: 'string', value: 'FILE', help: 'also write the report as one self-contained HTML page' },
  { name: 'fix-schema', kind: 'string', value: 'FILE', help: 'also write the tools with their schemas rewritten by the kit\'s transformations (each listed), and judge them' },
  { name: 'fail-on', kind: 'string', value: 'error|warning|none', help: 'the severity that makes the exit code 1 (default error)' },
  { name: 'fail-on-host', kind: 'string', value: 'lossy|refused|none', help: ['also exit 1 when a host verdict is this bad or worse (refused includes dropped; default none:', 'host verdicts are shown, findings decide)'] },
  { name: 'for-hosts', kind: 'string', value: 'LIST', help: ['the host profiles --fail-on-host judges, comma-separated (default all):', HOST_IDS.join(', ')] },
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
       ${ctx.invocation} [options] --variant ID${ctx.variant ? '' : '   (in a clone of the kit)'}

Starts a stdio MCP server, does a real initialize and tools/list (every page),
and judges every tool: the rules (structural unions, the root, $ref, type lists,
allOf, arrays without items, const, names, shapes it was not taught), and what
each host profile does with it (accepted, lossy, refused or dropped).

${optionsHelp(LINT_OPTIONS)}

Exit codes: 0 nothing reaches --fail-on (or --fail-on-host); 1 something does; 2 a usage error, or a
server that did not start, wrote garbage, or did not answer in time (it is ended).
`;
}

interface Parsed {
  targets: Target[];
  skipped: { name: string; reason: string }[];
  configFile?: string;
  settings: LintSettings;
  json: boolean;
  sarif?: string;
  html?: string;
  gate: Gate;
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
  const chosen = [serverCommand.length > 0 && 'a command', values.variant !== undefined && '--variant', values.config !== undefined && '--config', values.from !== undefined && '--from'].filter(Boolean);
  if (chosen.length === 0) throw fail('what to lint? give the server\'s command after --, or --config FILE, --variant ID or --from FILE');
  if (chosen.length > 1) throw fail(`one thing to lint at a time, not ${chosen.join(' and ')}`);
  if (values.server !== undefined && values.config === undefined) throw fail('--server picks a server of --config FILE');
  const failOn = values['fail-on'] ?? 'error';
  if (!['error', 'warning', 'none'].includes(failOn)) throw fail(`--fail-on takes error, warning or none, not "${failOn}"`);
  const failOnHost = values['fail-on-host'] ?? 'none';
  if (!['lossy', 'refused', 'none'].includes(failOnHost)) throw fail(`--fail-on-host takes lossy, refused or none, not "${failOnHost}"`);
  if (values['for-hosts'] !== undefined && failOnHost === 'none') throw fail('--for-hosts names the hosts --fail-on-host judges: give --fail-on-host lossy or refused too');
  const forHosts = values['for-hosts'] === undefined ? HOST_IDS : values['for-hosts'].split(',').map((h) => h.trim()).filter(Boolean);
  const unknownHosts = forHosts.filter((h) => !HOST_IDS.includes(h));
  if (unknownHosts.length > 0 || forHosts.length === 0) throw fail(`--for-hosts takes host profiles (comma-separated) from ${HOST_IDS.join(', ')}, not "${unknownHosts.join(', ') || values['for-hosts']}"`);
  const timeout = values.timeout === undefined ? 10 : Number(values.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 600) throw fail(`--timeout takes seconds, more than 0 and at most 600, not "${values.timeout}"`);
  if (values.save !== undefined && (values.config !== undefined || values.from !== undefined)) throw fail('--save writes the tools/list of one server started here');
  if (values['fix-schema'] !== undefined && values.config !== undefined) throw fail('--fix-schema rewrites the tools of one server, not of a --config file');
  const asked = values['client-capabilities'];
  const capabilities = asked === undefined ? [...CLIENT_CAPABILITIES] : asked === 'none' ? [] : asked.split(',').map((c) => c.trim());
  const unknown = capabilities.filter((c) => !(CLIENT_CAPABILITIES as readonly string[]).includes(c));
  if (unknown.length > 0) throw fail(`--client-capabilities takes ${CLIENT_CAPABILITIES.join(', ')} (comma-separated) or none, not ${unknown.join(', ')}`);

  let targets: Target[] = [];
  let skipped: { name: string; reason: string }[] = [];
  if (serverCommand.length > 0) targets = [commandTarget(serverCommand[0]!, serverCommand.slice(1))];
  else if (values.from !== undefined) targets = [fromTarget(values.from)];
  else if (values.config !== undefined) ({ targets, skipped } = configTargets(values.config, values.server));
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
    settings: { timeoutMs: timeout * 1000, capabilities: capabilities as ClientCapability[], ...(values.contract !== undefined ? { contract: values.contract } : {}), ...(values.save !== undefined ? { save: values.save } : {}), ...(values['fix-schema'] !== undefined ? { fixSchema: values['fix-schema'] } : {}) },
    json: values.json === true,
    ...(values.sarif !== undefined ? { sarif: values.sarif } : {}),
    ...(values.html !== undefined ? { html: values.html } : {}),
    gate: { failOn: failOn as FailOn, failOnHost: failOnHost as FailOnHost, forHosts },
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
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let reports: LintReport[];
  try {
    reports = await lintAll(parsed.targets, parsed.settings);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const said = (line: string) => (parsed.json ? stderr : stdout)(`${line}\n`);
  if (parsed.json) {
    const document: LintReport | LintConfigReport =
      parsed.configFile === undefined ? reports[0]! : { format: LINT_CONFIG_FORMAT, version: LINT_FORMAT_VERSION, config: parsed.configFile, servers: reports, skipped: parsed.skipped };
    stdout(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    stdout(renderTerminal(reports, parsed.skipped, { colour: ctx.colour ?? colourOn(), width: ctx.width ?? (process.stdout.columns || 120), gate: parsed.gate }));
  }
  if (parsed.sarif !== undefined) {
    writeFileSync(parsed.sarif, `${JSON.stringify(toSarif(reports.map((report, i) => ({ report, ...(parsed.targets[i]!.source ? { source: parsed.targets[i]!.source } : {}) }))), null, 2)}\n`);
    said(`wrote ${parsed.sarif}`);
  }
  if (parsed.html !== undefined) {
    writeFileSync(parsed.html, renderLintPage(reports));
    said(`wrote ${parsed.html}`);
  }
  for (const r of reports) if (r.server.error) stderr(`lint: ${r.server.label}: ${r.server.error.message}\n`);
  return exitCodeFor(reports, parsed.gate);
}
