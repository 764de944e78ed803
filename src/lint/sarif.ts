/**
 * The findings as a SARIF 2.1.0 log, for code scanning (OASIS SARIF 2.1.0;
 * test/lint.test.ts validates it against the schema in
 * test/fixtures/lint/sarif-2.1.0.json).
 *
 * One run for every server linted, each result named by its server and
 * tool (logical locations) and by the file it came from where there is one:
 * the config file at the server's entry, else the server's own script when
 * its command line names one under the current folder, else the saved
 * tools/list read with --from. GitHub's code scanning shows only results
 * with a file (codeql-action#2459: "expected at least one location").
 */
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { RULES as CONTRACT_RULES } from '../contract/rules.js';
import packageJson from '../../package.json' with { type: 'json' };
import { LINT_RULES } from './rules.js';
import type { SourceFile } from './targets.js';
import type { Finding, LintReport } from './types.js';

export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

export interface Linted {
  report: LintReport;
  source?: SourceFile;
}

function ruleTable(): { id: string; title: string; level: 'error' | 'warning' }[] {
  return [
    ...Object.entries(LINT_RULES).map(([id, r]) => ({ id, title: r.title, level: r.severity })),
    ...Object.entries(CONTRACT_RULES).map(([id, title]) => ({ id, title: `${title} (contract rule, with --contract)`, level: 'error' as const })),
  ].filter((r, i, all) => all.findIndex((o) => o.id === r.id) === i);
}

export function toSarif(linted: Linted[], cwd = process.cwd()): Record<string, unknown> {
  const rules = ruleTable();
  const results = linted.flatMap(({ report, source }) => {
    const label = report.server.label;
    const one = (f: Finding, tool: string | null) => {
      const ruleIndex = rules.findIndex((r) => r.id === f.rule);
      const where = tool === null ? label : `${label}/${tool}`;
      return {
        ruleId: f.rule,
        ...(ruleIndex >= 0 ? { ruleIndex } : {}),
        level: f.severity,
        message: { text: tool === null ? f.message : `${tool}: ${f.message}${f.path ? ` (at ${f.path})` : ''}` },
        locations: [
          {
            ...(source
              ? { physicalLocation: { artifactLocation: { uri: source.uri, uriBaseId: '%SRCROOT%' }, ...(source.line ? { region: { startLine: source.line } } : {}) } }
              : {}),
            logicalLocations: [{ name: tool ?? label, fullyQualifiedName: `${where}${f.path}`, kind: tool === null ? 'module' : 'function' }],
          },
        ],
        partialFingerprints: { 'schemaBreaksLint/v1': createHash('sha256').update(`${label}\n${tool ?? ''}\n${f.rule}\n${f.path}`).digest('hex').slice(0, 32) },
        properties: { server: label, ...(tool === null ? {} : { tool }), jsonPointer: f.path },
      };
    };
    return [...report.server.findings.map((f) => one(f, null)), ...report.tools.flatMap((t) => t.findings.map((f) => one(f, t.name)))];
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
