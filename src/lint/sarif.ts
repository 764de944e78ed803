/**
 * The findings and the host verdicts as a SARIF 2.1.0 log, for code scanning
 * (OASIS SARIF 2.1.0; test/lint-ci.test.ts and test/lint-sarif-places.test.ts
 * validate it against the schema in test/fixtures/lint/sarif-2.1.0.json).
 *
 * One run for every server linted. Results are what the gate counts (issue
 * 33): a finding of severity error or warning is a result of its rule at that
 * level (an info finding hurts no targeted host and is none); a host verdict
 * is a result of the rule `host/<profile id>` only where a targeted host
 * (`--hosts`, report.server.targets) refuses or drops the tool, at level
 * "error" (SARIF 2.1.0 §3.27.10: "error", a serious problem). A lossy verdict
 * stays in the report, not here (one result per lossy verdict gave 589
 * results for three servers); an unknown one (the kit's own profile failed)
 * is a tool execution notification (§3.20.21), since the author has nothing
 * to fix.
 *
 * Each result is named by its server and tool (logical locations) and placed
 * where the author can fix it: at the line of the repository's tracked
 * sources where the tool's name is written (src/lint/places.ts), else at the
 * config file's line for the server, else in the server's own script or the
 * saved list, at the line that names the tool when it has one; paths are
 * relative to the top of the git repository holding the folder the command
 * was typed in (src/core/cwd.ts: INIT_CWD under npm), or to that folder
 * outside any repository: the root of the checkout in a CI job, as GitHub's
 * code scanning wants them. It shows only results with a file (codeql-action#2459:
 * "expected at least one location") and keeps an alert across runs by its
 * ruleId, its file and its partialFingerprints ("SARIF support for code
 * scanning", https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning):
 * the fingerprints are made of what identifies the result (server, tool,
 * rule, JSON Pointer), never the message, whose lists of hosts change. With
 * --baseline FILE every result says whether the baseline holds it
 * (baselineState "unchanged") or not ("new"), SARIF 2.1.0 §3.27.24.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { typedIn } from '../core/cwd.js';
import { RULES as CONTRACT_RULES } from '../contract/rules.js';
import { PROFILES } from '../lab/profiles/index.js';
import packageJson from '../../package.json' with { type: 'json' };
import { acceptsFinding, acceptsVerdict, serverKey, type Baseline } from './baseline.js';
import { READ_BUDGET, trackedPlaces } from './places.js';
import { LINT_RULES } from './rules.js';
import type { SourceFile } from './targets.js';
import type { Finding, HostVerdict, LintReport, Severity } from './types.js';

export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

export interface Linted {
  report: LintReport;
  source?: SourceFile | undefined;
}

export interface SarifOptions {
  /** The folder the command was typed in. */
  cwd?: string;
  /** --baseline FILE: each result is "unchanged" when it holds it, "new" when not. */
  baseline?: Baseline | undefined;
}

export interface Sarif {
  log: Record<string, unknown>;
  /** One line for stderr when results have no line (or no file): how many, and why. */
  unplaced?: string;
}

type Level = 'error' | 'warning' | 'note';

/** A finding's severity as a SARIF level; info is no result, and only a rule's default can be it. */
const LEVEL: Record<Severity, Level> = { error: 'error', warning: 'warning', info: 'note' };

export const hostRule = (profile: string) => `host/${profile}`;

function ruleTable(): { id: string; title: string; level: Level }[] {
  return [
    ...Object.entries(LINT_RULES).map(([id, r]) => ({ id, title: r.title, level: LEVEL[r.severity as Severity] })),
    ...Object.entries(CONTRACT_RULES).map(([id, title]) => ({ id, title: `${title} (contract rule, with --contract)`, level: 'error' as const })),
    ...PROFILES.map((p) => ({
      id: hostRule(p.id),
      title: `${p.title} (${p.asOf}), a host targeted with --hosts, refuses or drops the tool (its lossy verdicts are in the report, not here)`,
      level: 'error' as const,
    })),
  ].filter((r, i, all) => all.findIndex((o) => o.id === r.id) === i);
}

/** The line of a file that names the tool as a quoted string ("search_events" or 'search_events'), the first one. */
function toolLine(text: string | undefined, tool: string | null): number | undefined {
  if (text === undefined || tool === null) return undefined;
  const at = [`"${tool}"`, `'${tool}'`, `\`${tool}\``].map((q) => text.indexOf(q)).filter((i) => i !== -1);
  return at.length === 0 ? undefined : text.slice(0, Math.min(...at)).split('\n').length;
}

/** What a verdict rests on, as SARIF properties carry it (absent fields left out). */
function evidenceOf(v: HostVerdict | undefined): Record<string, unknown> {
  return v?.evidence ? { evidence: { ...v.evidence } } : {};
}

export function toSarif(linted: Linted[], options: SarifOptions = {}): Sarif {
  const cwd = options.cwd ?? typedIn();
  const rules = ruleTable();
  // Every name a result may be placed by, looked for in one reading of the tracked files.
  const names = new Set(linted.flatMap(({ report }) => [...report.tools.map((t) => t.name), ...(report.server.name ? [report.server.name] : [])]));
  const tracked = trackedPlaces(names, cwd);
  const base = tracked.root ?? cwd;
  const rebase = (uri: string) => relative(base, resolve(cwd, uri)).split(sep).join('/');
  const texts = new Map<string, string | undefined>();
  const textOf = (uri: string) => {
    if (!texts.has(uri)) {
      try {
        texts.set(uri, readFileSync(resolve(cwd, uri), 'utf8'));
      } catch {
        texts.set(uri, undefined); // gone since it was found: the file alone locates it
      }
    }
    return texts.get(uri);
  };
  const notifications: { level: Level; message: { text: string } }[] = [];
  const unplacedNames = new Set<string>();
  const results = linted.flatMap(({ report, source }) => {
    const label = report.server.label;
    // Fingerprints as the baseline keys: the server's name, not a command line that holds the checkout's path.
    const server = serverKey(report);
    const targets = report.server.targets;
    const targeted = (host: string) => targets === undefined || targets.includes(host);
    /** Where a result about `tool` (null: the server as a whole, placed by the server's name) is: see above. */
    const place = (tool: string | null): { uri: string; line?: number } | undefined => {
      const name = tool ?? report.server.name;
      const found = name ? tracked.places.get(name) : undefined;
      if (found) return found;
      if (!source) return undefined;
      const line = source.line ?? toolLine(textOf(source.uri), tool);
      return { uri: rebase(source.uri), ...(line ? { line } : {}) };
    };
    const location = (tool: string | null, path: string) => {
      const at = place(tool);
      if (!at?.line) unplacedNames.add(tool ?? server); // the server's name, as it was looked for
      return {
        ...(at ? { physicalLocation: { artifactLocation: { uri: at.uri, uriBaseId: '%SRCROOT%' }, ...(at.line ? { region: { startLine: at.line } } : {}) } } : {}),
        logicalLocations: [{ name: tool ?? label, fullyQualifiedName: `${tool === null ? label : `${label}/${tool}`}${path}`, kind: tool === null ? 'module' : 'function' }],
      };
    };
    const fingerprint = (...parts: string[]) => ({ 'schemaBreaksLint/v1': createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32) });
    const state = (held: boolean) => (options.baseline ? { baselineState: held ? 'unchanged' : 'new' } : {});
    const finding = (f: Finding, tool: string | null, hosts: Record<string, HostVerdict>) => {
      if (f.severity === 'info') return [];
      const ruleIndex = rules.findIndex((r) => r.id === f.rule);
      const hurts = f.hurts?.map((h) => ({ host: h.host, verdict: h.verdict, ...(h.unconfirmed ? { unconfirmed: true } : {}), ...evidenceOf(hosts[h.host]) }));
      return [
        {
          ruleId: f.rule,
          ...(ruleIndex >= 0 ? { ruleIndex } : {}),
          level: LEVEL[f.severity],
          message: { text: tool === null ? f.message : `${tool}: ${f.message}${f.path ? ` (at ${f.path})` : ''}` },
          locations: [location(tool, f.path)],
          partialFingerprints: fingerprint(server, tool ?? '', f.rule, f.path),
          ...state(options.baseline !== undefined && acceptsFinding(options.baseline, { server, tool, rule: f.rule, path: f.path })),
          properties: { server: label, ...(tool === null ? {} : { tool }), jsonPointer: f.path, ...(hurts && hurts.length > 0 ? { hurts } : {}) },
        },
      ];
    };
    const verdicts = (hosts: Record<string, HostVerdict>, tool: string | null) =>
      Object.entries(hosts).flatMap(([host, v]) => {
        const what = tool === null ? 'the whole tool list' : tool;
        if (v.verdict === 'unknown') notifications.push({ level: 'error', message: { text: `${server}: ${what}: the kit's profile ${host} failed (a bug in src/lab/profiles/): ${v.detail}` } });
        if ((v.verdict !== 'refused' && v.verdict !== 'dropped') || !targeted(host)) return [];
        const ruleId = hostRule(host);
        const ruleIndex = rules.findIndex((r) => r.id === ruleId);
        return [
          {
            ruleId,
            ...(ruleIndex >= 0 ? { ruleIndex } : {}),
            level: 'error',
            message: { text: `${what}: ${v.verdict} by ${host}: ${v.detail}` },
            locations: [location(tool, '')],
            partialFingerprints: fingerprint(server, tool ?? '', ruleId),
            ...state(options.baseline !== undefined && acceptsVerdict(options.baseline, { server, tool, host, verdict: v.verdict })),
            properties: { server: label, ...(tool === null ? {} : { tool }), host, verdict: v.verdict, ...(v.takesDown ? { takesDown: v.takesDown } : {}), ...evidenceOf(v) },
          },
        ];
      });
    return [
      ...report.server.findings.flatMap((f) => finding(f, null, report.server.hosts)),
      ...verdicts(report.server.hosts, null),
      ...report.tools.flatMap((t) => [...t.findings.flatMap((f) => finding(f, t.name, t.hosts)), ...verdicts(t.hosts, t.name)]),
    ];
  });
  const failures = linted.filter(({ report }) => report.server.error);
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'schema-breaks lint',
            version: packageJson.version,
            rules: rules.map((r) => ({ id: r.id, shortDescription: { text: r.title }, defaultConfiguration: { level: r.level } })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(base.endsWith('/') ? base : `${base}/`).href } },
        invocations: [
          {
            executionSuccessful: failures.length === 0,
            toolExecutionNotifications: [...failures.map(({ report }) => ({ level: 'error', message: { text: `${report.server.label}: ${report.server.error!.message}` } })), ...notifications],
          },
        ],
        results,
      },
    ],
  };
  const unplaced = unplacedLine(results, [...unplacedNames], tracked.root === undefined ? { cwd } : { cut: tracked.cut });
  return { log, ...(unplaced ? { unplaced } : {}) };
}

/** The stderr line for results a code-scanning page cannot place at a line: how many, which tools, and why. */
function unplacedLine(results: { locations: { physicalLocation?: { region?: unknown } }[] }[], names: string[], why: { cwd: string } | { cut: boolean }): string | undefined {
  const noLine = results.filter((r) => !r.locations[0]?.physicalLocation?.region).length;
  if (noLine === 0) return undefined;
  const noFile = results.filter((r) => !r.locations[0]?.physicalLocation).length;
  const shown = names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
  const reason =
    'cwd' in why
      ? `no git repository holds ${why.cwd}, so no tracked file was searched for their tools' names (${shown})`
      : why.cut
        ? `no tracked file read names their tools (${shown}) as a string; the search stopped after ${READ_BUDGET / 1024 / 1024} MB`
        : `no tracked file names their tools (${shown}) as a string (server started outside the checkout, or names built at run time?)`;
  return `SARIF: ${noLine} of ${results.length} results have no line${noFile > 0 ? ` (${noFile} no file either)` : ''}: ${reason}`;
}
