/**
 * Issue 33's named cases on real servers' tools/list, as the ecosystem
 * fixtures saved them (test/fixtures/ecosystem/servers/, `npm run ecosystem --
 * refresh`): what the linter must say, written by hand from the hosts' own
 * behaviour (the profile files cite it), never copied from the linter.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { atPointer } from '../src/lint/refs.js';
import type { LintReport } from '../src/lint/types.js';
import { lint } from './helpers/lint.js';
import { REPO } from './helpers/server.js';

const saved = (name: string) => JSON.parse(readFileSync(join(REPO, 'test/fixtures/ecosystem/servers', `${name}.json`), 'utf8')) as { version: string; tools: { name: string; inputSchema: unknown }[] };
const dir = mkdtempSync(join(tmpdir(), 'lint-real-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function lintSaved(tools: unknown[], args: string[] = []): Promise<{ code: number; report: LintReport; stdout: string }> {
  const file = join(dir, `list-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ tools }));
  const json = await lint(['--from', file, '--json', '--no-cache', ...args]);
  return { code: json.code, report: JSON.parse(json.stdout) as LintReport, stdout: json.stdout };
}

describe('MongoDB 3.0.4 (mongodb-mcp-server)', () => {
  const mongo = saved('mongodb-mcp-server');

  it('is the version the issue measured', () => expect(mongo.version).toBe('3.0.4'));

  it('no untyped finding on an additionalProperties: {} (a free-form document, by design)', async () => {
    const { report } = await lintSaved(mongo.tools);
    const onEmpty = report.tools.flatMap((t) =>
      t.findings
        .filter((f) => f.rule === 'untyped')
        .filter((f) => JSON.stringify(atPointer(mongo.tools.find((m) => m.name === t.name)!.inputSchema, f.path.replace(/^\/inputSchema/, ''))) === '{}'),
    );
    expect(onEmpty).toEqual([]);
  });

  it("create-index alone exits 1, naming ai-sdk-google's refusal of its oneOf and VS Code's of its 2020-12 dialect", async () => {
    const { code, report } = await lintSaved(mongo.tools.filter((t) => t.name === 'create-index'));
    expect(code).toBe(1);
    const errors = report.tools[0]!.findings.filter((f) => f.severity === 'error');
    // ai-sdk-google-2026-11 refuses a oneOf (the Gemini legacy field has no such field); VS Code 2026-01 leaves a
    // 2020-12 schema out (its language service cannot load that meta-schema), here the server's only tool.
    const oneOf = errors.find((f) => /oneOf$/.test(f.path) && f.hurts!.some((h) => h.host === 'ai-sdk-google-2026-11'));
    expect(oneOf, JSON.stringify(errors.map((f) => [f.rule, f.path]))).toBeDefined();
    const dialect = errors.find((f) => f.rule === 'schema-dialect');
    expect(dialect?.hurts!.map((h) => h.host)).toContain('vscode-copilot-2026-01');
    expect(dialect!.message).toContain('vscode-copilot-2026-01');
  });
});
