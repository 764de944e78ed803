/**
 * One server, linted: read its tools (src/lint/server.ts), judge each with
 * the rules (src/lint/rules.ts) and, with a contract, the contract rules
 * (src/contract/), then put each before every host profile
 * (src/lint/hosts.ts). A server that cannot be read gives a report with its
 * `error` and no tools; the command turns that into exit 2.
 */
import { writeOutput } from '../core/file-option.js';
import { emptyCallViolations, checkTools } from '../contract/check.js';
import { loadContract } from '../contract/contract.js';
import type { ContractOperation } from '../contract/rules.js';
import { adviceFor } from './advice.js';
import { groupCauses } from './causes.js';
import { HOST_IDS, hostMatrix, loadHosts } from './hosts.js';
import { fixList } from './fix.js';
import { judgeByHosts, judgeList } from './hurt.js';
import { listWeight, weightFinding, weightOf } from './weight.js';
import { duplicateFinding, duplicateNames, serverFindings, splitEntries, toolCountFinding, toolFindings } from './rules.js';
import { readServer, StartError, type CallReply, type ClientCapability, type Listing } from './server.js';
import { savedTools, type Target } from './targets.js';
import { Answers } from './verdicts.js';
import { LINT_FORMAT, LINT_FORMAT_VERSION, type Finding, type LintReport, type ServerInfo } from './types.js';

export interface LintSettings {
  timeoutMs: number;
  /** An OpenAPI document (like contract/tutor-api.json): its rules run too. */
  contract?: string;
  /** Also write the tools/list result, as received, to this file. */
  save?: string;
  /** Also hand the tools/list result, as received, to this function (--tools prints it). */
  listed?: (tools: unknown[]) => void;
  /** --tools: the tools/list is all that is wanted; no host is asked (so the host frameworks need not be installed). */
  listOnly?: boolean;
  /** What the linter's client declares at initialize (default: src/lint/server.ts CLIENT_CAPABILITIES). */
  capabilities?: readonly ClientCapability[];
  /** --fix-schema: write the tools with their schemas rewritten (src/lint/fix.ts) to this file. */
  fixSchema?: string;
  /**
   * The hosts the author targets, profile ids (src/lint/hosts.ts chooseHosts; default every one, HOST_IDS): the
   * report shows these, and a finding is an error only where one of them refuses or drops.
   */
  hosts?: readonly string[];
  /**
   * The verdict cache's folder (src/lint/verdicts.ts): what each host answered in earlier runs on the same tools, by
   * the same code. Absent: every host is asked afresh (the packed linter, the tests' own calls, --no-cache).
   */
  verdicts?: string;
}

/** The contract's operations, read before any server starts (an unreadable contract is a usage error, exit 2). */
export function contractOperations(file: string | undefined): ContractOperation[] | undefined {
  return file === undefined ? undefined : loadContract(file);
}

/** The contract rules' violations as findings; those the linter's own rules report already (no-structural-union; fits-host-limits: tool-name, description-length) are left to them. */
function contractFindings(tools: { name: string; inputSchema: unknown }[], operations: ContractOperation[], calls: Map<string, CallReply>): { byTool: Map<string, Finding[]>; server: Finding[] } {
  // checkTools reads any inputSchema (a root that is not an object is its violation), whatever the SDK's Tool type says.
  const violations = [...checkTools(tools as unknown as Parameters<typeof checkTools>[0], operations), ...emptyCallViolations(calls, operations)].filter(
    (v) => v.rule !== 'no-structural-union' && v.rule !== 'fits-host-limits',
  );
  const byTool = new Map<string, Finding[]>();
  const server: Finding[] = [];
  for (const v of violations) {
    const f: Finding = { rule: v.rule, severity: 'error', path: v.path, message: v.message };
    if (tools.some((t) => t.name === v.tool)) byTool.set(v.tool, [...(byTool.get(v.tool) ?? []), f]);
    else server.push({ ...f, message: `${v.tool}: ${f.message}` });
  }
  return { byTool, server };
}

function emptyInfo(target: Target): ServerInfo {
  return {
    label: target.kind === 'from' ? target.label : target.spec.label,
    target: target.kind === 'from' ? { from: target.file } : target.shown,
    name: null,
    version: null,
    protocolVersion: null,
    pages: 0,
    listedInMs: null,
    findings: [],
    hosts: {},
    targets: [],
  };
}

/** Lints one target. Only usage errors throw; a server that fails is a report with `server.error`. */
export async function lintTarget(target: Target, settings: LintSettings, operations = contractOperations(settings.contract)): Promise<LintReport> {
  const info = emptyInfo(target);
  const answers = settings.verdicts ? new Answers(settings.verdicts, target) : undefined;
  let entries: unknown[];
  let listing: (Listing & { calls: Map<string, CallReply> }) | undefined;
  if (target.kind === 'from') {
    entries = savedTools(target.file);
    if (operations?.some((op) => op.required.length > 0))
      info.findings.push({
        rule: 'rejects-missing-arguments',
        severity: 'warning',
        path: '',
        message: 'not checked: this rule calls the live server with no arguments, and --from reads a saved tools/list',
      });
  }
  else {
    const probe = (operations ?? []).filter((op) => op.required.length > 0).map((op) => op.operationId);
    try {
      // The host frameworks load while the server starts (its own process, on another core), not after; unless the
      // hosts' answers on this server's tools are kept (src/lint/verdicts.ts), which it most likely lists again.
      const reading = readServer(target.spec, settings.timeoutMs, probe, settings.capabilities);
      if (!answers?.any && !settings.listOnly) void loadHosts();
      listing = await reading;
    } catch (error) {
      if (!(error instanceof StartError)) throw error;
      return { format: LINT_FORMAT, version: LINT_FORMAT_VERSION, server: { ...info, error: error.failure }, tools: [], causes: [] };
    }
    entries = listing.tools;
    Object.assign(info, {
      name: listing.serverName,
      version: listing.serverVersion,
      protocolVersion: listing.protocolVersion,
      pages: listing.pages,
      listedInMs: Math.round(listing.listedInMs),
    });
  }
  if (settings.save) writeOutput(settings.save, `${JSON.stringify({ tools: entries }, null, 2)}\n`);
  settings.listed?.(entries);
  // --tools prints the list and nothing else: no host is asked, so the host frameworks need not be installed.
  if (settings.listOnly) return { format: LINT_FORMAT, version: LINT_FORMAT_VERSION, server: info, tools: [], causes: [] };
  if (listing) info.findings.push(...serverFindings({ ...listing, toolCount: splitEntries(entries).tools.length }));
  const report = await judge(entries, info, operations, listing?.calls ?? new Map(), settings.hosts ?? HOST_IDS, answers);
  if (settings.fixSchema) report.fix = await fixSchema(entries, report, settings.fixSchema, settings.hosts ?? HOST_IDS, answers);
  await answers?.keep();
  return report;
}

/** --fix-schema: the rewritten list written out, and what the hosts make of it beside the original. */
async function fixSchema(entries: unknown[], report: LintReport, file: string, targets: readonly string[], answers: Answers | undefined): Promise<NonNullable<LintReport['fix']>> {
  const { tools, changes } = await fixList(splitEntries(entries).tools, targets, { before: report.tools.map((t) => t.hosts), answers });
  writeOutput(file, `${JSON.stringify({ tools }, null, 2)}\n`);
  const after = await judge(tools, emptyInfo({ kind: 'from', label: file, file }), undefined, new Map(), targets, answers);
  const hosts = Object.fromEntries(
    Object.entries(report.server.hosts).map(([h, v]) => [h, { before: v.verdict, after: after.server.hosts[h]?.verdict ?? 'unknown', detail: after.server.hosts[h]?.detail.split('\n')[0] ?? '' }]),
  );
  return { file, changes, causesAfter: after.causes?.length ?? 0, hosts };
}

/**
 * A tools/list result judged without any process: what --from does, and what the tests call. `answers`: the hosts'
 * answers shared with another look at the same tools (src/lint/ecosystem/judge.ts asks every host beside the lint).
 */
export async function lintTools(entries: unknown[], label = 'tools/list', operations?: ContractOperation[], hosts: readonly string[] = HOST_IDS, answers?: Answers): Promise<LintReport> {
  const info = emptyInfo({ kind: 'from', label, file: label });
  return judge(entries, info, operations, new Map(), hosts, answers);
}

async function judge(
  entries: unknown[],
  info: ServerInfo,
  operations: ContractOperation[] | undefined,
  calls: Map<string, CallReply>,
  targets: readonly string[],
  answers?: Answers,
): Promise<LintReport> {
  const { tools, findings: shapeFindings } = splitEntries(entries);
  info.findings.push(...shapeFindings);
  info.targets = [...targets];
  info.weight = listWeight(tools);
  const heavy = weightFinding(info.weight, tools.length);
  if (heavy) info.findings.push(heavy);
  const many = toolCountFinding(tools.length);
  if (many) info.findings.push(many);
  const contract = operations ? contractFindings(tools, operations, calls) : undefined;
  if (contract) info.findings.push(...contract.server);
  const twice = duplicateNames(tools);
  // Every host is asked, so that a warning can name whoever is hurt, targeted or not (a historic host the author
  // no longer ships to still explains a finding); the report's matrix shows the targeted ones.
  const { perTool: everyHost, whole, notAsked } = await hostMatrix(tools, answers, targets);
  if (notAsked.length > 0) info.notAsked = notAsked;
  const targeted = <T>(verdicts: Record<string, T>) => Object.fromEntries(Object.entries(verdicts).filter(([host]) => targets.includes(host)));
  info.hosts = targeted(whole);
  const findings = tools.map((tool) => [...toolFindings(tool), ...(twice.has(tool.name) ? [duplicateFinding(tool.name, twice.get(tool.name)!)] : []), ...(contract?.byTool.get(tool.name) ?? [])]);
  // The advice first: it reads the finding's own words, before the hosts are said at the end of its message.
  for (const f of [...info.findings, ...findings.flat()]) f.advice = adviceFor(f);
  await judgeByHosts(tools, findings, everyHost, targets, answers);
  await judgeList(tools, info.findings, everyHost, whole, targets, answers);
  // The host-refusal findings those add, for what no rule names, get their advice too.
  for (const f of [...info.findings, ...findings.flat()]) f.advice ??= adviceFor(f);
  const report: LintReport = {
    format: LINT_FORMAT,
    version: LINT_FORMAT_VERSION,
    server: info,
    tools: tools.map((tool, i) => ({ name: tool.name, weight: weightOf(tool), findings: findings[i]!, hosts: targeted(everyHost[i]!) })),
    causes: [],
  };
  report.causes = groupCauses(report);
  return report;
}
