/**
 * The schema contract tests are the kit's guard: every break must turn them
 * red, naming the rule and the schema path at fault, and every solution must
 * turn them green again. The expected rules and paths below are written by
 * hand from what each break does to the published schema.
 */
import { describe, expect, it } from 'vitest';
import { checkServer } from '../src/contract/check.js';
import { t } from '../src/core/messages/index.js';
import type { RuleId } from '../src/contract/rules.js';
import { baseOf, buildServer, contractOf, listBreaks, patchChain } from '../src/lab/variants.js';

const EXPECTED: Record<string, { rule: RuleId | string; tool: string; path: string }[]> = {
  'broken-schema': [
    // Nothing is required any more, so a call with no arguments reaches the executor.
    { rule: 'rejects-missing-arguments', tool: 'conjugate', path: '/inputSchema' },
    { rule: 'required-parameters', tool: 'conjugate', path: '/inputSchema/required' },
    { rule: 'required-parameters', tool: 'conjugate', path: '/inputSchema/required' },
    { rule: 'required-parameters', tool: 'conjugate', path: '/inputSchema/required' },
  ],
  'structural-anyof': [
    { rule: 'no-structural-union', tool: 'conjugate', path: '/inputSchema/properties/verb/anyOf' },
    { rule: 'root-matches-contract', tool: 'conjugate', path: '/inputSchema/properties/verb' },
    { rule: 'root-matches-contract', tool: 'conjugate', path: '/inputSchema/properties/past' },
    { rule: 'root-matches-contract', tool: 'conjugate', path: '/inputSchema/properties/pastParticiple' },
  ],
  'discriminated-union': [
    { rule: 'no-structural-union', tool: 'conjugate', path: '/inputSchema/properties/verb/oneOf' },
    { rule: 'root-matches-contract', tool: 'conjugate', path: '/inputSchema/properties/verb' },
    { rule: 'root-matches-contract', tool: 'conjugate', path: '/inputSchema/properties/past' },
    { rule: 'root-matches-contract', tool: 'conjugate', path: '/inputSchema/properties/pastParticiple' },
  ],
  'root-transform': [{ rule: 'root-matches-contract', tool: 'conjugate', path: '/inputSchema/properties' }],
  // Builds on root-transform: its base's violation, and its own: the tool runs a call with no arguments.
  'root-transform-shape': [
    { rule: 'root-matches-contract', tool: 'conjugate', path: '/inputSchema/properties' },
    { rule: 'rejects-missing-arguments', tool: 'conjugate', path: '/inputSchema' },
  ],
  'schema-drift': [{ rule: 'root-matches-contract', tool: 'update_profile', path: '/inputSchema/properties/reminder' }],
  'unreachable-filter': [{ rule: 'root-matches-contract', tool: 'lessons', path: '/inputSchema/properties/level' }],
  'readonly-gate': [{ rule: 'root-matches-contract', tool: 'lessons', path: '/inputSchema/properties' }],
  // A description of 1,287 characters, over OpenAI function calling's 1,024.
  'long-description': [{ rule: 'fits-host-limits', tool: 'conjugate', path: '/description' }],
  // lessons renamed: 56 characters, 68 as Claude Code's mcp__tutor__<name>; and a name the contract does not have, for one it has.
  'tool-name': [
    { rule: 'fits-host-limits', tool: 'list_open_create_or_delete_grammar_lessons_by_cefr_level', path: '/name' },
    { rule: 'root-matches-contract', tool: 'list_open_create_or_delete_grammar_lessons_by_cefr_level', path: '' },
    { rule: 'root-matches-contract', tool: 'lessons', path: '' },
  ],
  // The server's one converter writes every tool: each says it is draft 2020-12.
  'schema-dialect': ['conjugate', 'get_profile', 'update_profile', 'lessons'].map((tool) => ({ rule: 'schema-dialect', tool, path: '/inputSchema/$schema' })),
  // conjugate publishes an outputSchema and answers the contract's example with text alone (McpServer: isError).
  'output-schema': [{ rule: 'structured-output', tool: 'conjugate', path: '/outputSchema' }],
};

const sorted = (vs: { rule: string; tool: string; path: string }[]) => vs.map((v) => `${v.rule} ${v.tool} ${v.path}`).sort();

describe('the contract guard against every break and every solution', () => {
  it('every break in breaks/ has a hand-written expectation here, and every expectation a break', () => {
    expect(listBreaks()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(listBreaks())('%s turns the contract tests red, naming the rule and the path', async (id) => {
    const serverJs = await buildServer(patchChain(id).variant);
    const { violations } = await checkServer({ command: process.execPath, args: [serverJs] }, contractOf(serverJs));
    expect(sorted(violations)).toEqual(sorted(EXPECTED[id]!));
    // Each message as npm run check prints it, in both languages: every {name} of the catalogue's text filled in.
    for (const v of violations) for (const lang of ['en', 'es'] as const) expect(t(v.said.id, lang, v.said.values)).not.toMatch(/\{\w+\}/);
  });

  it.each(listBreaks())('the solution of %s turns them green (for a lab built on another, back to its base\'s)', async (id) => {
    const serverJs = await buildServer(patchChain(id).solution);
    const { violations } = await checkServer({ command: process.execPath, args: [serverJs] }, contractOf(serverJs));
    const base = baseOf(id);
    expect(sorted(violations)).toEqual(base ? sorted(EXPECTED[base]!) : []);
  });
});
