/**
 * The gate follows the matrix (issue 33): a server with one limit a host
 * refuses exits 1 under the CI command (`npm run lint -- -- node server`,
 * --fail-on error) for the hosts concerned, with one error finding naming
 * that host and the cause; the same server with every limit fixed exits 0.
 *
 * Each probe is a real stdio server (test/fixtures/lint/listed-server.mjs
 * lists a JSON file of tools) started by the lint command. The table is
 * written by hand from each host's documented limit (the profile files cite
 * them): which rule names the cause, and which host refuses it.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LintReport } from '../src/lint/types.js';
import { lint } from './helpers/lint.js';
import { REPO } from './helpers/server.js';

const dir = mkdtempSync(join(tmpdir(), 'lint-limits-'));
copyFileSync(join(REPO, 'test/fixtures/lint/listed-server.mjs'), join(dir, 'server.mjs'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plain = (name: string, extra: Record<string, unknown> = {}, schema: Record<string, unknown> = {}) => ({
  name,
  description: 'Looks a word up.',
  inputSchema: { type: 'object', properties: { word: { type: 'string', description: 'The word.' } }, required: ['word'], ...schema },
  ...extra,
});

/** One limit each: the tools that break it, the same fixed, the host that refuses it, and the rule that must say so. */
const LIMITS: { limit: string; tools: unknown[]; fixed: unknown[]; host: string; rule: string }[] = [
  // OpenAI function calling: description at most 1,024 characters (getsentry/sentry-mcp#106).
  { limit: 'a 1,500-character description', tools: [plain('guide', { description: 'Use it well. '.repeat(115) })], fixed: [plain('guide')], host: 'openai-functions-2026-11', rule: 'description-length' },
  // OpenAI function calling: at most 128 tools in one request (zed-industries/zed#42393).
  {
    limit: '130 tools',
    tools: Array.from({ length: 130 }, (_, i) => plain(`verb_${i}`)),
    fixed: Array.from({ length: 128 }, (_, i) => plain(`verb_${i}`)),
    host: 'openai-functions-2026-11',
    rule: 'tool-count',
  },
  // OpenAI function calling: ^[a-zA-Z0-9_-]+$ (brekkylab/ailoy#109); MCP allows the dot.
  { limit: 'a dot in the name', tools: [plain('words.lookup')], fixed: [plain('words_lookup')], host: 'openai-functions-2026-11', rule: 'tool-name' },
  // OpenAI function calling: at most 64 characters (openai-node FunctionDefinition.name).
  { limit: 'a 70-character name', tools: [plain(`lookup_${'w'.repeat(63)}`)], fixed: [plain('lookup_word')], host: 'openai-functions-2026-11', rule: 'tool-name' },
  // Gemini: a function name starts with a letter or an underscore (google-gemini/gemini-cli#2966).
  { limit: 'a name starting with a digit', tools: [plain('2fa_check')], fixed: [plain('check_2fa')], host: 'gemini-parameters-2026-09', rule: 'tool-name' },
  // VS Code 2026-01: a 2020-12 $schema is one tool left out, all of them here: the server dropped (microsoft/playwright-mcp#1357).
  {
    limit: 'a 2020-12 $schema',
    tools: [plain('lookup', {}, { $schema: 'https://json-schema.org/draft/2020-12/schema' })],
    fixed: [plain('lookup')],
    host: 'vscode-copilot-2026-01',
    rule: 'schema-dialect',
  },
  // Gemini's legacy field of 2025-06 (gemini-cli 0.1): only "enum" and "date-time" formats.
  {
    limit: 'format: "email"',
    tools: [plain('notify', {}, { properties: { to: { type: 'string', format: 'email' } }, required: ['to'] })],
    fixed: [plain('notify', {}, { properties: { to: { type: 'string', description: 'An email address.' } }, required: ['to'] })],
    host: 'gemini-cli-2025-06',
    rule: 'format',
  },
  // Gemini's parameters field: "examples" is no field of its Schema message (AstrBotDevs/AstrBot#7572).
  {
    limit: 'examples',
    tools: [plain('lookup', {}, { properties: { word: { type: 'string', examples: ['dog'] } } })],
    fixed: [plain('lookup', {}, { properties: { word: { type: 'string', description: 'The word, e.g. dog.' } } })],
    host: 'gemini-parameters-2026-09',
    rule: 'examples',
  },
  // The OpenAI Agents SDK 0.2.1 sends a tool whose root says additionalProperties: true as a strict tool (mcp.ts
  // mcpToFunctionTool), and strict mode refuses it for its optional parameter `lang` (openai-agents.ts).
  {
    limit: 'a root additionalProperties: true',
    tools: [plain('lookup', {}, { properties: { word: { type: 'string' }, lang: { type: 'string' } }, additionalProperties: true })],
    fixed: [plain('lookup', {}, { properties: { word: { type: 'string' }, lang: { type: 'string' } } })],
    host: 'openai-agents-2025-10',
    rule: 'open-root',
  },
  // Gemini's parameters field: "required[0]: property is not defined" (MarkusPfundstein/mcp-obsidian#105).
  { limit: 'required naming an undefined property', tools: [plain('lookup', {}, { required: ['word', 'lang'] })], fixed: [plain('lookup')], host: 'gemini-parameters-2026-09', rule: 'required-undefined' },
];

async function lintList(name: string, tools: unknown[], hosts: string): Promise<{ code: number; report: LintReport }> {
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ tools }));
  const { code, stdout } = await lint(['--json', '--hosts', hosts, '--no-cache', '--', 'node', join(dir, 'server.mjs'), `${name}.json`]);
  return { code, report: JSON.parse(stdout) as LintReport };
}

const errors = (r: LintReport) => [...r.server.findings, ...r.tools.flatMap((t) => t.findings)].filter((f) => f.severity === 'error');

describe('a probe server with one limit exits 1 for the host concerned, one error naming host and cause', () => {
  it.each(LIMITS.map((l, i) => [l.limit, i] as const))('%s', async (_, i) => {
    const { tools, host, rule } = LIMITS[i]!;
    const { code, report } = await lintList(`limit-${i}`, tools, host);
    expect(code).toBe(1);
    const found = errors(report);
    expect(found.map((f) => f.rule)).toEqual([rule]);
    expect(found[0]!.hurts!.map((h) => h.host)).toContain(host);
    expect(found[0]!.message).toContain(host);
  });

  it('the same server with every limit fixed exits 0 on all those hosts', async () => {
    const hosts = [...new Set(LIMITS.map((l) => l.host))].join(',');
    // One server: every fixed tool, named apart (the 128 of the tool-count probe are the list's budget, so not those).
    const fixed = LIMITS.filter((l) => l.rule !== 'tool-count').flatMap((l, i) => l.fixed.map((t) => ({ ...(t as object), name: `${(t as { name: string }).name}_${i}` })));
    const { code, report } = await lintList('fixed', fixed, hosts);
    expect(errors(report)).toEqual([]);
    expect(code).toBe(0);
    // The list of 128 alone, too.
    expect((await lintList('fixed-count', LIMITS.find((l) => l.rule === 'tool-count')!.fixed, 'openai-functions-2026-11')).code).toBe(0);
  });
});

describe('a limit no targeted host has is info: counted, shown on asking, never a reason to fail', () => {
  it("a 1,500-character description on today's hosts (none is OpenAI function calling): exit 0 even with --fail-on warning", async () => {
    const tools = LIMITS.find((l) => l.rule === 'description-length')!.tools;
    writeFileSync(join(dir, 'info.json'), JSON.stringify({ tools }));
    const server = ['--', 'node', join(dir, 'server.mjs'), 'info.json'];
    const quiet = await lint(['--fail-on', 'warning', '--no-cache', ...server]);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toContain('and 1 info, hurting no targeted host: --show info');
    expect(quiet.stdout).not.toContain('description-length');
    const shown = await lint(['--fail-on', 'warning', '--show', 'info', '--no-cache', ...server]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/i description-length/);
    expect((await lint(['--show', 'all', ...server])).code).toBe(2);
  });
});
