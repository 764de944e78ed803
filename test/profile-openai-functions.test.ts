/**
 * openai-functions-2026-11: OpenAI function calling without strict mode. Every expected value is derived by hand from
 * the API's documented and reported limits (src/lab/profiles/openai-functions.ts cites each):
 *  O1 more than 128 tools: `Invalid 'tools': array too long. Expected an array with maximum length 128, but got an
 *     array with length N instead.` (zed-industries/zed#42393);
 *  O2 a name outside ^[a-zA-Z0-9_-]+$: `Invalid 'tools[i].function.name': string does not match pattern. ...`
 *     (brekkylab/ailoy#109); longer than 64 (openai-node FunctionDefinition.name);
 *  O3 a description over 1,024 characters: `Invalid 'tools[i].function.description': string too long. Expected a
 *     string with maximum length 1024, but got a string with length N instead.` (getsentry/sentry-mcp#106);
 *  O4 a root that is not type "object" (browserbase/stagehand#1159); an array without items, `In context=(...), array
 *     schema missing items.` (mark3labs/mcp-filesystem-server#23);
 *  O5 anything else: shown as published, arguments not checked.
 */
import { describe, expect, it } from 'vitest';
import { openAiFunctions202611 as openai } from '../src/lab/profiles/openai-functions.js';
import type { PublishedTool } from '../src/lab/profiles/shared.js';
import { lintTools } from '../src/lint/lint.js';
import { withoutEvidence } from './helpers/lint.js';
import { BASELINE, ONE_OF_VERB, published, type Json } from './helpers/profiles.js';

const tool = (name: string, description: string, inputSchema: Json = { type: 'object', properties: {} }): PublishedTool => ({ name, description, inputSchema: inputSchema as PublishedTool['inputSchema'] });

describe('openai-functions-2026-11', () => {
  it('O5: the schema shown as published, unions and all, and the arguments passed as the model wrote them', async () => {
    const view = await openai.present(published(BASELINE, ONE_OF_VERB));
    if ('rejected' in view) throw new Error(view.rejected);
    expect(view.tools.map((t) => t.inputSchema)).toEqual([BASELINE, ONE_OF_VERB]);
    expect(await openai.validate(view.tools[0]!, { verb: 'nope' })).toEqual({ ok: true, args: { verb: 'nope' } });
  });

  it("O3: Sentry's long description (2,037 characters, getsentry/sentry-mcp#106's search_events) fails the whole request", async () => {
    const tools = [tool('find_issues', 'Find issues.'), tool('search_events', 'x'.repeat(2037))];
    const report = await lintTools(tools, 'sentry-like', undefined, ['openai-functions-2026-11']);
    expect(withoutEvidence(report.tools[1]!.hosts['openai-functions-2026-11'])).toEqual({
      verdict: 'refused',
      // Alone, the tool is tools[0]; in the whole list it is tools[1].
      detail: "400 Invalid 'tools[0].function.description': string too long. Expected a string with maximum length 1024, but got a string with length 2037 instead.",
      takesDown: 'request',
    });
    expect(report.server.hosts['openai-functions-2026-11']!.detail).toBe(
      "400 Invalid 'tools[1].function.description': string too long. Expected a string with maximum length 1024, but got a string with length 2037 instead.",
    );
    // 1,024 exactly is within the limit.
    expect(await openai.present([tool('a', 'y'.repeat(1024))])).not.toHaveProperty('rejected');
  });

  it('O1: 128 tools pass, 129 fail the request', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => tool(`t${i}`, 'A tool.'));
    expect(await openai.present(many(128))).not.toHaveProperty('rejected');
    expect(await openai.present(many(129))).toEqual({
      rejected: "400 Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length 129 instead.",
      lost: 'request',
    });
  });

  it('O2: a dot or a slash in a name, or a 65th character, fails the request; dashes and underscores pass', async () => {
    expect(await openai.present([tool('get-sum_2', 'd')])).not.toHaveProperty('rejected');
    expect(await openai.present([tool('ok', 'd'), tool('files.read', 'd')])).toEqual({
      rejected: "400 Invalid 'tools[1].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
      lost: 'request',
    });
    expect(await openai.present([tool('a'.repeat(64), 'd')])).not.toHaveProperty('rejected');
    expect(await openai.present([tool('a'.repeat(65), 'd')])).toEqual({
      rejected: "400 Invalid 'tools[0].function.name': string too long. Expected a string with maximum length 64, but got a string with length 65 instead.",
      lost: 'request',
    });
  });

  it('O4: an array without items, at any depth, and a root that is not an object', async () => {
    const nested = { type: 'object', properties: { filter: { type: 'object', properties: { paths: { type: 'array' } } } } };
    expect(await openai.present([tool('read_multiple_files', 'd', nested)])).toEqual({
      rejected: "400 Invalid schema for function 'read_multiple_files': In context=('properties', 'filter', 'properties', 'paths'), array schema missing items.",
      lost: 'request',
    });
    expect(await openai.present([tool('json', 'd', { oneOf: [{ type: 'object' }] })])).toEqual({
      rejected: '400 Invalid schema for function \'json\': schema must be a JSON Schema of \'type: "object"\', got \'type: "None"\'.',
      lost: 'request',
    });
  });
});
