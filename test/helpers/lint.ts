/** Helpers of the linter's tests: the recorded tools/list of each real server, and the lint command run in-process. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { runLint } from '../../src/lint/cli.js';
import { REPO } from './server.js';

export const RECORDED = join(REPO, 'test/fixtures/lint/recorded');

/** The tools of one recorded tools/list (saved with --save from the pinned package). */
export function recorded(name: string): unknown[] {
  return JSON.parse(readFileSync(join(RECORDED, `${name}.json`), 'utf8')).tools;
}

/**
 * Recorded from packages that are not devDependencies (too heavy to install for two fixtures), each with
 * `npm run lint -- --save FILE -- node <bin>` after `npm install --save-exact <package>@<version>` in an empty
 * folder (a dummy token in the environment: neither server calls its API to list tools).
 */
export const RECORDED_ELSEWHERE: Record<string, string> = {
  'notion-mcp-server': '@notionhq/notion-mcp-server@2.5.2 (bin/cli.mjs, NOTION_TOKEN=dummy)',
  'server-github': '@modelcontextprotocol/server-github@2025.4.8 (dist/index.js, GITHUB_PERSONAL_ACCESS_TOKEN=dummy)',
  // Recorded 2026-12-03 on Node 20.20 (Sentry's and Firecrawl's packages declare Node 22, and list their tools on 20 all the same).
  'sentry-mcp': '@sentry/mcp-server@0.39.0 (dist/index.js --access-token=dummy, SENTRY_ACCESS_TOKEN=dummy: the 9 tools it lists without a real token)',
  'firecrawl-mcp': 'firecrawl-mcp@3.26.0 (dist/index.js, FIRECRAWL_API_KEY=fc-dummy)',
  'playwright-mcp': '@playwright/mcp@0.0.86 (cli.js --headless)',
};

/** How to start each real server of the devDependencies, as the recorded fixture was made. */
export const REAL_SERVERS: Record<string, string[]> = {
  'server-everything': [join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')],
  'server-memory': [join(REPO, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')],
  'server-filesystem': [join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), join(REPO, 'test/fixtures/lint')],
  'openapi-pet-clinic': [
    join(REPO, 'node_modules/@ivotoby/openapi-mcp-server/bin/mcp-server.js'),
    '--openapi-spec',
    join(REPO, 'test/fixtures/lint/pet-clinic.openapi.json'),
    '--api-base-url',
    'http://127.0.0.1:9',
  ],
};

/** The lint command in this process (real servers still start as child processes): its exit code and what it printed. */
export async function lint(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const { runCommand } = await import('../../src/core/user-error.js');
  const write = process.stderr.write;
  // runCommand prints a usage error on process.stderr: catch it here too.
  process.stderr.write = ((chunk: string) => ((stderr += chunk), true)) as typeof process.stderr.write;
  try {
    const code = await runCommand('lint', () =>
      runLint(argv, { invocation: 'npm run lint --', stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), colour: false, width: 120 }),
    );
    return { code, stdout, stderr };
  } finally {
    process.stderr.write = write;
  }
}

/**
 * The SARIF 2.1.0 schema (test/fixtures/lint/sarif-2.1.0.json, docs/sources.md says where it comes from) compiled
 * with ajv, the formats it uses checked: a log and whether the schema accepts it, with ajv's errors.
 */
export function sarifValidator(): (log: unknown) => { ok: boolean; errors: string } {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  ajv.addFormat('uri', (s: string) => URL.canParse(s));
  ajv.addFormat('uri-reference', (s: string) => URL.canParse(s, 'file:///base/'));
  ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)));
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  const validate = ajv.compile(JSON.parse(readFileSync(join(REPO, 'test/fixtures/lint/sarif-2.1.0.json'), 'utf8')));
  return (log: unknown) => {
    const ok = validate(log) as boolean;
    return { ok, errors: ajv.errorsText(validate.errors) };
  };
}

/**
 * A host verdict without the evidence it rests on: what the host did, for the tests that pin that. The evidence is
 * tested on its own (test/lint-hosts.test.ts, "every refusal or drop is the profile's own answer").
 */
export function withoutEvidence<T extends { evidence?: unknown }>(verdict: T | undefined): Omit<T, 'evidence'> | undefined {
  if (verdict === undefined) return undefined;
  const { evidence: _, ...rest } = verdict;
  return rest;
}
