/**
 * vscode-copilot-2026-01: VS Code's MCP client, then Copilot Chat's normalizeToolSchema for GPT-4.1. Every expected
 * value is derived by hand from the code (src/lab/profiles/vscode-copilot.ts cites it):
 *  V1 mcpServer.ts _normalizeTool: a name's characters outside [a-z0-9_-] (case-insensitive) become "_"; no description
 *     becomes '<empty>';
 *  V2 a schema that declares $schema draft 2020-12 (or 2019-09) is left out alone: the JSON language service of
 *     January 2026 cannot load that meta-schema ("... meta-schema features ($dynamicRef) ..."); one that the draft-07
 *     meta-schema faults (a type that is no type) likewise; the server's other tools stay;
 *  V3 toolSchemaNormalizer.ts: an array without items anywhere throws, and the chat request fails;
 *  V4 for a gpt-4 family model: 20 keywords deleted at every level, descriptions inside the schema cut to 1,024;
 *     oneOf/anyOf/allOf/not/if/then/else deleted at the root; required kept to defined properties; tuple items become
 *     {anyOf: items}; a root that is not an object becomes {type: object, properties: {}}.
 */
import { describe, expect, it } from 'vitest';
import { vscodeCopilot202601 as vscode } from '../src/lab/profiles/vscode-copilot.js';
import type { PublishedTool } from '../src/lab/profiles/shared.js';
import { lintTools } from '../src/lint/lint.js';
import { withoutEvidence } from './helpers/lint.js';
import type { Json } from './helpers/profiles.js';

/** A published tool; `description: null` publishes none. */
const tool = (inputSchema: Json, name = 't', description: string | null = 'A tool.'): PublishedTool => ({ name, ...(description === null ? {} : { description }), inputSchema: inputSchema as PublishedTool['inputSchema'] });
const shown = async (...tools: ReturnType<typeof tool>[]) => {
  const view = await vscode.present(tools);
  if ('rejected' in view) throw new Error(view.rejected);
  return view;
};

describe('vscode-copilot-2026-01', () => {
  it('V1: names keep [a-zA-Z0-9_-], the rest becomes "_"; a tool without a description is described as <empty>', async () => {
    const view = await shown(tool({ type: 'object', properties: {} }, 'files.read/all', null), tool({ type: 'object', properties: {} }, 'Get-Sum_2'));
    expect(view.tools.map((t) => [t.name, t.description])).toEqual([
      ['files_read_all', '<empty>'],
      ['Get-Sum_2', 'A tool.'],
    ]);
  });

  it('V2: a tool declaring draft 2020-12 is left out alone, with the language service\'s words; draft-07 is kept', async () => {
    const r2020 = tool({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { a: { type: 'string' } } }, 'browser_drop');
    const r07 = tool({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'string' } } }, 'echo');
    const view = await shown(r2020, r07);
    expect(view.tools.map((t) => t.name)).toEqual(['echo']);
    expect(view.skipped).toEqual([
      {
        name: 'browser_drop',
        reason:
          "Tool `browser_drop` has invalid JSON parameters: The schema uses meta-schema features ($dynamicRef) that are not yet supported by the validator. (the tool is omitted; the server's other tools stay)",
      },
    ]);
    const report = await lintTools([r2020, r07], 'playwright-like', undefined, ['vscode-copilot-2026-01']);
    expect(withoutEvidence(report.server.hosts['vscode-copilot-2026-01'])).toEqual({ verdict: 'lossy', detail: '1 of 2 tools left out by the host, the others shown' });
    // 2019-09 names its own unsupported keyword.
    const v2019 = await shown(tool({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', properties: {} }));
    expect(v2019.skipped![0]!.reason).toContain('($recursiveRef)');
  });

  it('V2: a schema draft-07 faults (a type that is no type) is left out alone', async () => {
    const view = await shown(tool({ type: 'object', properties: { a: { type: 'text' } } }, 'bad'), tool({ type: 'object', properties: {} }, 'good'));
    expect(view.tools.map((t) => t.name)).toEqual(['good']);
    expect(view.skipped![0]!.name).toBe('bad');
  });

  it('V3: an array without items, even deep in a union, fails the whole chat request', async () => {
    const deep = { type: 'object', properties: { q: { anyOf: [{ type: 'string' }, { type: 'array' }] } } };
    expect(await vscode.present([tool({ type: 'object', properties: {} }, 'ok'), tool(deep, 'search')])).toEqual({
      rejected: 'Failed to validate tool search: Error: tool parameters array type must have items. Please open an issue for the MCP server or extension which provides this tool',
      lost: 'request',
    });
  });

  it('V4: GPT-4.1 is sent the schema without its constraints, root unions, undefined required keys; tuples become anyOf', async () => {
    const published: Json = {
      type: 'object',
      properties: {
        url: { type: 'string', format: 'uri', minLength: 1, pattern: '^https?:', description: 'd'.repeat(1030) },
        n: { type: 'integer', minimum: 1, maximum: 9, default: 3, enum: [1, 3, 9] },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
        headers: { type: 'object', propertyNames: { pattern: '^x-' }, additionalProperties: { type: 'string' } },
      },
      required: ['url', 'ghost'],
      anyOf: [{ required: ['n'] }, { required: ['tags'] }],
      additionalProperties: false,
    };
    const view = await shown(tool(published));
    expect(view.tools[0]!.inputSchema).toEqual({
      type: 'object',
      properties: {
        url: { type: 'string', description: 'd'.repeat(1024) },
        n: { type: 'integer', enum: [1, 3, 9] },
        tags: { type: 'array', items: { type: 'string' } },
        pair: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['url'],
      additionalProperties: false,
    });
  });

  it('V4: a root that is not an object is shown as taking no parameters', async () => {
    const view = await shown(tool({ oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }] }));
    expect(view.tools[0]!.inputSchema).toEqual({ type: 'object', properties: {} });
  });
});
