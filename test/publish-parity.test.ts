/**
 * minimcp publishes exactly what the SDK's `McpServer.registerTool` publishes
 * for the same zod declaration (registry.ts claims so in its header).
 *
 * The reference side is a real SDK `McpServer`, listed by a real SDK `Client`
 * over `InMemoryTransport`; the minimcp side is the live process over stdio
 * for `conjugate`, and `publishInputSchema` in-process for other declarations.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { publishInputSchema, publishOutputSchema, type ToolDefinition } from '../src/minimcp/registry.js';
import { ConjugateArgs, conjugateTool } from '../src/minimcp/tools/conjugate.js';
import { connect } from './helpers/server.js';

/** tools/list of an SDK McpServer holding one tool, as an SDK client sees it. */
async function sdkListTool(
  name: string,
  config: { title?: string; description?: string; inputSchema?: unknown; outputSchema?: unknown; annotations?: Tool['annotations'] },
  handler: (args: any) => string | Promise<string> = () => 'ok',
): Promise<Tool> {
  const server = new McpServer({ name: 'sdk-reference', version: '0.0.0' });
  // registerTool's types follow the schema given; here the schema varies by case.
  (server.registerTool as (n: string, c: unknown, cb: (...a: any[]) => unknown) => unknown)(name, config, async (args: unknown) => ({
    content: [{ type: 'text', text: await handler(args) }],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'parity', version: '0.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === name);
    if (!tool) throw new Error(`the SDK server did not list ${name}`);
    return tool;
  } finally {
    await client.close();
    await server.close();
  }
}

const sdkInputSchema = async (inputSchema: unknown) => (await sdkListTool('probe', { description: 'probe', inputSchema })).inputSchema;

describe('conjugate: the live minimcp process publishes what McpServer.registerTool publishes', () => {
  let reference: Tool;
  beforeAll(async () => {
    reference = await sdkListTool(
      'conjugate',
      {
        title: conjugateTool.title,
        description: conjugateTool.description,
        inputSchema: ConjugateArgs,
        annotations: conjugateTool.annotations,
      },
      (args) => conjugateTool.execute(args),
    );
  });

  it('the declaration used is the very one minimcp serves', () => {
    expect(conjugateTool.inputSchema).toBe(ConjugateArgs);
  });

  it.each([[[] as string[]], [['--build', 'low-level']], [['--build', 'mcpserver-1.20']], [['--build', 'mcpserver-1.32']]])('the bundled server %j: same inputSchema, title, description, annotations', async (flags) => {
    const { client, close } = await connect(flags);
    try {
      const { tools } = await client.listTools();
      const live = tools.find((t) => t.name === 'conjugate');
      expect(live).toBeDefined();
      expect(live!.inputSchema).toStrictEqual(reference.inputSchema);
      expect(live!.title).toBe(reference.title);
      expect(live!.description).toBe(reference.description);
      expect(live!.annotations).toStrictEqual(reference.annotations);
    } finally {
      await close();
    }
  });

  it('the reference itself is the strict object with the three parameters (sanity, by hand)', () => {
    expect(reference.inputSchema.type).toBe('object');
    expect(Object.keys(reference.inputSchema.properties ?? {})).toEqual(['verb', 'tense', 'person']);
    expect(reference.inputSchema.required).toEqual(['verb', 'tense', 'person']);
    expect((reference.inputSchema as Record<string, unknown>).additionalProperties).toBe(false);
  });
});

describe('other declarations: publishInputSchema (in-process) equals McpServer tools/list', () => {
  const A = z.object({ kind: z.literal('a'), text: z.string() });
  const B = z.object({ kind: z.literal('b'), count: z.number().int() });

  const DECLARATIONS: [name: string, declaration: ToolDefinition['inputSchema']][] = [
    ['a .partial() object', z.object({ verb: z.string(), times: z.number().int().min(1) }).partial()],
    ['a raw shape', { verb: z.enum(['be', 'have']), person: z.string().describe('who'), note: z.string().optional() }],
    ['an empty raw shape', {}],
    ['z.object(...).transform(...) at the root', z.object({ verb: z.string() }).transform((a) => ({ ...a, upper: a.verb.toUpperCase() }))],
    ['a z.union of two objects as a property', z.object({ target: z.union([A, B]) })],
    ['a z.discriminatedUnion property', z.object({ target: z.discriminatedUnion('kind', [A, B]) })],
    ['a z.strictObject', z.strictObject({ verb: z.string(), tense: z.enum(['simple past', 'simple present']).default('simple present') })],
    ['a nullable, defaulted, described mix', z.object({ a: z.string().nullable(), b: z.number().default(3), c: z.array(z.string()).describe('list') })],
    ['a z.union of two objects at the root', z.union([A, B])],
    ['a pipe at the root', z.object({ verb: z.string() }).pipe(z.object({ verb: z.string().min(1) }))],
    ['no schema at all (undefined)', undefined],
  ];

  it.each(DECLARATIONS)('%s', async (_name, declaration) => {
    const sdk = await sdkInputSchema(declaration);
    // Through JSON, as it would cross the wire: what a client can see.
    const ours = JSON.parse(JSON.stringify(publishInputSchema(declaration)));
    expect(ours).toStrictEqual(sdk);
  });

  it('a root transform publishes exactly {type:"object", properties:{}} on both sides (hand-written)', async () => {
    const declaration = z.object({ verb: z.string(), tense: z.string() }).transform((a) => a.verb);
    expect(JSON.parse(JSON.stringify(publishInputSchema(declaration)))).toStrictEqual({ type: 'object', properties: {} });
    expect(await sdkInputSchema(declaration)).toStrictEqual({ type: 'object', properties: {} });
  });
});

describe('an outputSchema: publishOutputSchema publishes what McpServer.registerTool publishes for it', () => {
  const DECLARATIONS: [name: string, declaration: ToolDefinition['outputSchema']][] = [
    ['a z.object with a described string', z.object({ answer: z.string().describe('The verb phrase, e.g. "has eaten".') })],
    ['a raw shape', { answer: z.string(), tense: z.enum(['simple past', 'simple present']).optional() }],
    ['a z.strictObject', z.strictObject({ answer: z.string() })],
  ];

  it.each(DECLARATIONS)('%s', async (_name, declaration) => {
    const sdk = (await sdkListTool('probe', { description: 'probe', inputSchema: { verb: z.string() }, outputSchema: declaration })).outputSchema;
    expect(sdk).toBeDefined();
    expect(JSON.parse(JSON.stringify(publishOutputSchema(declaration)))).toStrictEqual(sdk);
  });

  it('no outputSchema: none published on either side', async () => {
    expect(publishOutputSchema(undefined)).toBeUndefined();
    expect((await sdkListTool('probe', { description: 'probe', inputSchema: { verb: z.string() } })).outputSchema).toBeUndefined();
  });
});
