/**
 * The findings and the host verdicts as a SARIF 2.1.0 log, for code scanning
 * (OASIS SARIF 2.1.0; test/lint-sarif.test.ts validates it against the
 * schema in test/fixtures/lint/sarif-2.1.0.json).
 *
 * One run for every server linted. A finding is a result of its rule; a host
 * verdict other than "accepted" is a result of the rule `host/<profile id>`,
 * one rule per host, at the level the verdict means for the author (SARIF
 * 2.1.0 §3.27.10: "error", a serious problem; "warning", a problem):
 * refused and dropped are errors (the host shows the model none of the tool,
 * or none of the request), lossy a warning (the call still goes through, the
 * model is told less than was published), unknown an error (the kit's own
 * profile failed: never passed quietly). Each result is named by its server
 * and tool (logical locations) and located in a file where there is one: the
 * server's own script when its command line names one, else the config file
 * at the server's entry, else the saved tools/list read with --from; at the
 * line that names the tool when the file has one. Every path is relative to
 * the folder the command was started in (src/core/cwd.ts: INIT_CWD under
 * npm), the root of the checkout in a CI job, as GitHub's code scanning
 * wants them: it shows only results with a file (codeql-action#2459:
 * "expected at least one location"), and keeps an alert across runs by its
 * ruleId, its file and its partialFingerprints ("SARIF support for code
 * scanning", https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { typedIn } from '../core/cwd.js';
import { RULES as CONTRACT_RULES } from '../contract/rules.js';
import { PROFILES } from '../lab/profiles/index.js';
import packageJson from '../../package.json' with { type: 'json' };
import { serverKey } from './baseline.js';
import { LINT_RULES } from './rules.js';
import type { SourceFile } from './targets.js';
import type { Finding, HostVerdict, LintReport, Verdict } from './types.js';

export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

export interface Linted {
  report: LintReport;
  source?: SourceFile;
}

type Level = 'error' | 'warning' | 'note';

/** The level of a host verdict's result (see above); "accepted" is no result. */
export const VERDICT_LEVEL: Record<Exclude<Verdict, 'accepted'>, Level> = { refused: 'error', dropped: 'error', unknown: 'error', lossy: 'warning' };

export const hostRule = (profile: string) => `host/${profile}`;

function ruleTable(): { id: string; title: string; level: Level }[] {
  return [
    ...Object.entries(LINT_RULES).map(([id, r]) => ({ id, title: r.title, level: r.severity as Level })),
    ...Object.entries(CONTRACT_RULES).map(([id, title]) => ({ id, title: `${title} (contract rule, with --contract)`, level: 'error' as const })),
    ...PROFILES.map((p) => ({ id: hostRule(p.id), title: `What ${p.title} (${p.asOf}) does with the tool: refused or dropped (error), lossy (warning)`, level: 'error' as const })),
  ].filter((r, i, all) => all.findIndex((o) => o.id === r.id) === i);
}

/** The line of a file that names the tool as a quoted string ("search_events" or 'search_events'), the first one. */
function toolLine(text: string | undefined, tool: string | null): number | undefined {
  if (text === undefined || tool === null) return undefined;
  const at = [`"${tool}"`, `'${tool}'`, `\`${tool}\``].map((q) => text.indexOf(q)).filter((i) => i !== -1);
  return at.length === 0 ? undefined : text.slice(0, Math.min(...at)).split('\n').length;
}

export function toSarif(linted: Linted[], cwd = typedIn()): Record<string, unknown> {
  const rules = ruleTable();
  const results = linted.flatMap(({ report, source }) => {
    const label = report.server.label;
    // Fingerprints as the baseline keys: the server's name, not a command line that holds the checkout's path.
    const server = serverKey(report);
    let text: string | undefined;
    if (source && source.line === undefined) {
      try {
        text = readFileSync(resolve(cwd, source.uri), 'utf8');
      } catch {
        // gone since it was found: the file alone locates it
      }
    }
    const location = (tool: string | null, path: string) => {
      const line = source?.line ?? toolLine(text, tool);
      return {
        ...(source ? { physicalLocation: { artifactLocation: { uri: source.uri, uriBaseId: '%SRCROOT%' }, ...(line ? { region: { startLine: line } } : {}) } } : {}),
        logicalLocations: [{ name: tool ?? label, fullyQualifiedName: `${tool === null ? label : `${label}/${tool}`}${path}`, kind: tool === null ? 'module' : 'function' }],
      };
    };
    const fingerprint = (...parts: string[]) => ({ 'schemaBreaksLint/v1': createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32) });
    const finding = (f: Finding, tool: string | null) => {
      const ruleIndex = rules.findIndex((r) => r.id === f.rule);
      return {
        ruleId: f.rule,
        ...(ruleIndex >= 0 ? { ruleIndex } : {}),
        level: f.severity,
        message: { text: tool === null ? f.message : `${tool}: ${f.message}${f.path ? ` (at ${f.path})` : ''}` },
        locations: [location(tool, f.path)],
        partialFingerprints: fingerprint(server, tool ?? '', f.rule, f.path),
        properties: { server: label, ...(tool === null ? {} : { tool }), jsonPointer: f.path },
      };
    };
    const verdicts = (hosts: Record<string, HostVerdict>, tool: string | null) =>
      Object.entries(hosts).flatMap(([host, v]) => {
        if (v.verdict === 'accepted') return [];
        const ruleId = hostRule(host);
        const ruleIndex = rules.findIndex((r) => r.id === ruleId);
        const what = tool === null ? 'the whole tool list' : tool;
        return [
          {
            ruleId,
            ...(ruleIndex >= 0 ? { ruleIndex } : {}),
            level: VERDICT_LEVEL[v.verdict],
            message: { text: `${what}: ${v.verdict} by ${host}: ${v.detail}` },
            locations: [location(tool, '')],
            partialFingerprints: fingerprint(server, tool ?? '', ruleId),
            properties: { server: label, ...(tool === null ? {} : { tool }), host, verdict: v.verdict },
          },
        ];
      });
    return [
      ...report.server.findings.map((f) => finding(f, null)),
      ...verdicts(report.server.hosts, null),
      ...report.tools.flatMap((t) => [...t.findings.map((f) => finding(f, t.name)), ...verdicts(t.hosts, t.name)]),
    ];
  });
  const failures = linted.filter(({ report }) => report.server.error);
  return {
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
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(cwd.endsWith('/') ? cwd : `${cwd}/`).href } },
        invocations: [
          {
            executionSuccessful: failures.length === 0,
            toolExecutionNotifications: failures.map(({ report }) => ({ level: 'error', message: { text: `${report.server.label}: ${report.server.error!.message}` } })),
          },
        ],
        results,
      },
    ],
  };
}
