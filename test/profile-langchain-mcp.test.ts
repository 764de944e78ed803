/**
 * langchain-mcp-2026-01: the LangChain.js host runs its own published code
 * (@langchain/mcp-adapters 1.1.2, @langchain/core 1.1.16, langchain 1.2.12,
 * @langchain/openai 1.2.3). Every expected value here is read by hand from
 * that code at langchain-ai/langchainjs tag @langchain/mcp-adapters@1.1.2
 * (ff8bf763), never from the profile's output. The rules applied:
 *  S  `simplifyJsonSchemaForLLM` (libs/langchain-mcp-adapters/src/tools.ts), at every node it walks (the root,
 *     `properties`, `items`, `additionalProperties`): drops `$schema`, `not`, `if`/`then`/`else`,
 *     `unevaluatedProperties`; merges `allOf` into the node; replaces `anyOf`/`oneOf` by its object branches
 *     (`type: "object"` or `properties`) merged with `Object.assign` (a later branch's property wins),
 *     `required` = what every branch requires (left out when nothing), `type` from the first branch;
 *     the branches' own `additionalProperties` and every non-object branch are gone; a node with
 *     `properties` and no `type` gets `type: "object"`. Everything else is kept as published.
 *  D  `dereferenceJsonSchema`: `#/$defs/X` and `#/definitions/X` inlined, `$defs`/`definitions` removed;
 *     an unresolvable `$ref` is kept as it is.
 *  P  `loadMcpTools`: `properties: {}` added when there is none; `description: tool.description || ""`.
 *  K  the MCP SDK Client's `listTools()` (ToolSchema, 1.25.1 = 1.32.2): a root without `type: "object"`, or
 *     `properties` that is not a record, fails the list; with a throw in S (e.g. `allOf: [null]`) that fails
 *     `getTools()` (`Failed to load tools from server "<name>": ...`): every tool lost, `lost: 'request'`.
 *  V  the check before the call: @cfworker/json-schema against the schema after S/D; the model then reads
 *     langchain's ToolInvocationError text (src/agents/errors.ts):
 *     "Error invoking tool '<name>' with kwargs <JSON args> with error: <stack>\n Please fix the error and try again."
 *     whose stack's first line is "Error: Received tool input did not match expected schema"
 *     (ToolInputParsingException sets no `name`, @langchain/core src/tools/utils.ts); the frames are cut.
 * The linter's letters: A accepted, L lossy, R refused (lost 'request'), D dropped; src/lint/loss.ts ignores
 * `$schema`, so S's dropping it alone costs nothing.
 */
import { describe, expect, it } from 'vitest';
import { langchainMcp as profile } from '../src/lab/profiles/langchain-mcp.js';
import type { SeenTool } from '../src/lab/types.js';
import { listBreaks } from '../src/lab/variants.js';
import type { ListedTool } from '../src/lint/types.js';
import { hostColumn, publishedTools } from './helpers/host-column.js';
import { recorded } from './helpers/lint.js';
import { ANY_OF_VERB, BASELINE, ONE_OF_VERB, PERSON, published, ROOT_ANY_OF, TENSE, TYPE_LIST, VERB, type Json } from './helpers/profiles.js';

async function shown(...schemas: Json[]): Promise<Json[]> {
  const view = await profile.present(published(...schemas));
  if ('rejected' in view) throw new Error(`rejected: ${view.rejected}`);
  return view.tools.map((t) => t.inputSchema);
}

async function seen(schema: Json): Promise<SeenTool> {
  const view = await profile.present(published(schema));
  if ('rejected' in view) throw new Error(`rejected: ${view.rejected}`);
  return view.tools[0]!;
}


/** This host's column of the linter's matrix (test/helpers/host-column.ts). */
const letters = (tools: unknown[]) => hostColumn(profile, tools);

const every = (names: string[], letter: string) => Object.fromEntries([...names, '(all tools, one request)'].map((n) => [n, letter]));

describe('what the model is shown (ChatOpenAI request tools after loadMcpTools)', () => {
  it('the kit baseline: $schema gone (S), everything else as published, additionalProperties: false kept', async () => {
    expect(await shown(BASELINE)).toEqual([
      { type: 'object', properties: { verb: VERB, tense: TENSE, person: PERSON }, required: ['verb', 'tense', 'person'], additionalProperties: false },
    ]);
  });

  it('a structural anyOf: both object branches merged, nothing required in it, their additionalProperties gone (S)', async () => {
    expect(await shown(ANY_OF_VERB)).toEqual([
      {
        type: 'object',
        properties: {
          verb: { type: 'object', properties: { name: { type: 'string' }, infinitive: { type: 'string' }, past: { type: 'string' }, pastParticiple: { type: 'string' } } },
          tense: TENSE,
          person: PERSON,
        },
        required: ['verb', 'tense', 'person'],
        additionalProperties: false,
      },
    ]);
  });

  it('a discriminated oneOf: the last branch\'s const wins (Object.assign), kind required by both so required (S)', async () => {
    expect(await shown(ONE_OF_VERB)).toEqual([
      {
        type: 'object',
        properties: {
          verb: {
            type: 'object',
            properties: { kind: { type: 'string', const: 'parts' }, name: { type: 'string' }, infinitive: { type: 'string' }, past: { type: 'string' } },
            required: ['kind'],
          },
          tense: TENSE,
        },
        required: ['verb', 'tense'],
        additionalProperties: false,
      },
    ]);
  });

  it('a union at the root merged the same way (S); a type list kept (S keeps type)', async () => {
    expect(await shown(ROOT_ANY_OF, TYPE_LIST)).toEqual([{ type: 'object', properties: { verb: { type: 'string' }, infinitive: { type: 'string' } } }, TYPE_LIST]);
  });

  it('a nullable anyOf has no object branch: it becomes {} (any value); allOf merged; not and if/then/else dropped (S)', async () => {
    const schema = {
      type: 'object',
      properties: {
        nickname: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'Or null.' },
        code: { allOf: [{ type: 'string' }, { minLength: 2 }] },
        n: { type: 'integer', not: { const: 0 } },
      },
      if: { properties: { code: { const: 'x' } } },
      then: { properties: { extra: { type: 'string' } }, required: ['extra'] },
    };
    expect(await shown(schema)).toEqual([
      {
        type: 'object',
        properties: { nickname: { description: 'Or null.' }, code: { type: 'string', minLength: 2 }, n: { type: 'integer' }, extra: { type: 'string' } },
        required: ['extra'],
      },
    ]);
  });

  it('$defs refs inlined and $defs gone (D); an unresolvable $ref kept; no properties gets properties: {} (P)', async () => {
    const pydantic = {
      type: 'object',
      properties: { address: { $ref: '#/$defs/Address' }, other: { $ref: '#/$defs/Nope' } },
      required: ['address'],
      $defs: { Address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], title: 'Address' } },
    };
    expect(await shown(pydantic, { type: 'object' })).toEqual([
      {
        type: 'object',
        properties: { address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], title: 'Address' }, other: { $ref: '#/$defs/Nope' } },
        required: ['address'],
      },
      { type: 'object', properties: {} },
    ]);
  });

  it('a tool without a description is shown with "" (P); name and description otherwise as published', async () => {
    const view = await profile.present([{ name: 'bare', inputSchema: { type: 'object', properties: {} } }, ...published(BASELINE)]);
    expect('tools' in view && view.tools.map((t) => [t.name, t.description])).toEqual([
      ['bare', ''],
      ['conjugate', 'Conjugates an English verb.'],
    ]);
  });

  it('present never changes what it was given', async () => {
    const tools = published({ type: 'object' }, ANY_OF_VERB);
    const before = structuredClone(tools);
    await profile.present(tools);
    expect(tools).toEqual(before);
  });
});

describe('what the host cannot load fails getTools() for every server (K)', () => {
  it('a root that is not an object: the SDK client refuses the list; with any other tool, the whole list goes', async () => {
    const view = await profile.present(published(BASELINE, { type: 'string' }));
    expect(view).toMatchObject({ lost: 'request' });
    expect('rejected' in view && view.rejected).toMatch(/^Failed to load tools from server "<server>": \[/);
    expect('rejected' in view && view.rejected).toContain('"path": [\n      "tools",\n      1,\n      "inputSchema",\n      "type"\n    ]');
  });

  it('a schema the simplifier cannot walk (allOf: [null]) throws inside loadMcpTools', async () => {
    expect(await profile.present(published(BASELINE, { type: 'object', properties: {}, allOf: [null] }))).toEqual({
      rejected: 'Failed to load tools from server "<server>": TypeError: Cannot read properties of null (reading \'if\')',
      lost: 'request',
    });
  });
});

describe("the host's own check before the call (V)", () => {
  const call = { verb: 'go', tense: 'future', person: '1st singular' };

  it('an enum value off the list: the text the model reads, and nothing reaches the server', async () => {
    expect(await profile.validate(await seen(BASELINE), call)).toEqual({
      ok: false,
      error: `Error invoking tool 'conjugate' with kwargs {"verb":"go","tense":"future","person":"1st singular"} with error: Error: Received tool input did not match expected schema\n Please fix the error and try again.`,
    });
  });

  it('a valid call goes through as it is (the server echoes what it got)', async () => {
    const args = { verb: 'go', tense: 'simple past', person: '1st singular' };
    expect(await profile.validate(await seen(BASELINE), structuredClone(args))).toEqual({ ok: true, args });
  });

  it('the check is against the merged schema: a verb object with none of its keys passes, a string does not', async () => {
    const tool = await seen(ANY_OF_VERB);
    expect(await profile.validate(tool, { verb: {}, tense: 'simple past', person: '1st singular' })).toEqual({ ok: true, args: { verb: {}, tense: 'simple past', person: '1st singular' } });
    expect(await profile.validate(tool, { verb: 'go', tense: 'simple past', person: '1st singular' })).toMatchObject({ ok: false });
  });

  it('the discriminated union: the by-name branch is refused before the call (its const lost to the last branch)', async () => {
    const tool = await seen(ONE_OF_VERB);
    expect(await profile.validate(tool, { verb: { kind: 'name', name: 'go' }, tense: 'simple past' })).toMatchObject({ ok: false });
    expect(await profile.validate(tool, { verb: { kind: 'parts', infinitive: 'sew', past: 'sewed' }, tense: 'simple past' })).toMatchObject({ ok: true });
  });

  it('a $ref the validator cannot resolve: every call fails with its error, ToolNode\'s other text', async () => {
    const tool = await seen({ type: 'object', properties: { a: { $ref: '#/$defs/Nope' } } });
    const checked = await profile.validate(tool, { a: 1 });
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.error).toMatch(/^Error: Unresolved \$ref "#\/\$defs\/Nope"\./);
    expect(!checked.ok && checked.error).toMatch(/\n Please fix your mistakes\.$/);
  });

  it('a tool never presented here is loaded from its shown schema (the simplification is idempotent)', async () => {
    const tool: SeenTool = { name: 'fresh', inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } };
    expect(await profile.validate(tool, { n: 'x' })).toEqual({
      ok: false,
      error: `Error invoking tool 'fresh' with kwargs {"n":"x"} with error: Error: Received tool input did not match expected schema\n Please fix the error and try again.`,
    });
  });

  it("the texts are createAgent's own: ToolNode's ToolMessage for the same calls, frames cut", async () => {
    const { createAgent, FakeToolCallingModel } = await import('langchain');
    const { loadMcpTools } = await import('@langchain/mcp-adapters');
    const cut = (text: string) => text.split('\n').filter((l) => !/^\s+at /.test(l)).join('\n');
    const cases: [Json, Record<string, unknown>][] = [
      [BASELINE, call],
      [{ type: 'object', properties: { a: { $ref: '#/$defs/Nope' } } }, { a: 1 }],
    ];
    for (const [schema, args] of cases) {
      const client = { listTools: async () => ({ tools: published(schema) }), callTool: async () => ({ content: [{ type: 'text', text: 'ran' }] }) };
      const tools = await loadMcpTools('<server>', client as never);
      const model = new FakeToolCallingModel({ toolCalls: [[{ name: 'conjugate', args, id: 'call_0' }], []] });
      const out = await createAgent({ model, tools }).invoke({ messages: [{ role: 'user', content: 'go' }] });
      const message = out.messages.find((m) => m.getType() === 'tool')!;
      const checked = await profile.validate(await seen(schema), structuredClone(args));
      expect(checked).toEqual({ ok: false, error: cut(String(message.content)) });
    }
  });
});

describe('the package, not a stand-in', () => {
  it('a pass-through (the published schema shown, every call let through) fails here', async () => {
    const shownVerb = (await shown(ANY_OF_VERB))[0]!.properties as Json;
    expect(shownVerb.verb).not.toHaveProperty('anyOf');
    expect(await shown(BASELINE)).not.toEqual([BASELINE]);
    expect((await profile.validate(await seen(BASELINE), { verb: 'go' })).ok).toBe(false);
  });
});

describe('the linter matrix on this host (letters derived by the rules above)', () => {
  it('server-everything 2026.8.31: no union, no $ref anywhere; only $schema goes (ignored): every tool A', async () => {
    const tools = recorded('server-everything');
    expect(await letters(tools)).toEqual(every((tools as ListedTool[]).map((t) => t.name), 'A'));
    expect(tools).toHaveLength(17);
  });

  it('server-filesystem and server-memory 2026.8.31: likewise every tool A', async () => {
    for (const name of ['server-filesystem', 'server-memory']) {
      const tools = recorded(name) as ListedTool[];
      expect(await letters(tools), name).toEqual(every(tools.map((t) => t.name), 'A'));
    }
  });

  it('@ivotoby/openapi-mcp-server 1.16.1 (pet clinic)', async () => {
    expect(await letters(recorded('openapi-pet-clinic'))).toEqual({
      // enum, bounds, vendor x- keys kept.
      'lst-pets': 'A',
      // Root oneOf without "type": "object": the SDK client refuses the list (K).
      'crt-pet': 'R',
      // nickname anyOf [string, null]: no object branch, shown {} (S).
      'rename-pet': 'L',
      // pet anyOf of two objects merged, neither branch's required kept (S).
      'book-visit': 'L',
      // contact oneOf of two objects merged (S).
      'upd-owner': 'L',
      // crt-pet fails the whole list (K).
      '(all tools, one request)': 'R',
    });
  });

  it("the kit's baseline and every break: A, but L where a union is published (structural-anyof, discriminated-union: conjugate)", async () => {
    const lists: Record<string, unknown[]> = {};
    for (const id of ['baseline', ...listBreaks()]) lists[id] = await publishedTools(id);
    const got = Object.fromEntries(await Promise.all(Object.entries(lists).map(async ([id, tools]) => [id, await letters(tools)] as const)));
    const plain = every(['conjugate', 'get_profile', 'update_profile', 'lessons'], 'A');
    const union = { ...plain, conjugate: 'L', '(all tools, one request)': 'L' };
    expect(got).toEqual({
      baseline: plain,
      'broken-schema': plain,
      'discriminated-union': union,
      'readonly-gate': plain,
      'root-transform': plain,
      'root-transform-shape': plain,
      'schema-drift': plain,
      'structural-anyof': union,
      'unreachable-filter': plain,
      // Only $schema differs (2020-12), and simplifyJsonSchemaForLLM removes $schema of any draft: as the baseline.
      'schema-dialect': plain,
      // conjugate gains an outputSchema; its inputSchema, what the adapter converts, is the baseline's.
      'output-schema': plain,
      // Only conjugate's description differs (1,287 characters): the adapter converts the schema, not the description.
      'long-description': plain,
      // lessons renamed (56 characters of [a-z_]): the adapter keeps a tool's name; the schemas are the baseline's.
      'tool-name': every(['conjugate', 'get_profile', 'update_profile', 'list_open_create_or_delete_grammar_lessons_by_cefr_level'], 'A'),
    });
  }, 120_000);
});
