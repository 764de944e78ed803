/**
 * The schema contract, through the real server: the bundled baseline server is
 * started, a real `tools/list` is done, and the rules are applied to what a
 * client got. Then every rule is shown to turn red on a published schema: the
 * live `conjugate` tool is copied and its JSON changed by hand, the way a
 * broken declaration would publish it.
 *
 * Every expected rule id and JSON Pointer is written by hand from the rules'
 * intent (src/contract/rules.ts header); none is computed by the code under test.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractError, DEFAULT_CONTRACT, loadContract } from '../src/contract/contract.js';
import { checkServer, checkTools, emptyCallViolations, listTools } from '../src/contract/check.js';
import type { ContractOperation } from '../src/contract/rules.js';
import { SERVER_JS } from './helpers/server.js';

const SERVER = { command: process.execPath, args: [SERVER_JS] };

/** The contract as it reads by hand from contract/tutor-api.json. */
const EXPECTED_OPERATIONS: ContractOperation[] = [
  {
    operationId: 'conjugate',
    parameters: { verb: { type: 'string' }, tense: { type: 'string' }, person: { type: 'string' } },
    required: ['verb', 'tense', 'person'],
    // The request body's example (OpenAPI), the call rule structured-output makes to a tool that publishes an outputSchema.
    example: { verb: 'eat', tense: 'present perfect', person: '3rd singular' },
  },
  { operationId: 'get_profile', parameters: { learner: { type: 'string' } }, required: ['learner'] },
  {
    operationId: 'update_profile',
    parameters: {
      learner: { type: 'string' },
      name: { type: 'string' },
      level: { type: 'string' },
      goals: { type: 'array' },
      reminder: { type: 'string' },
      nativeLanguage: { type: 'string' },
    },
    required: ['learner', 'name', 'level', 'goals', 'reminder', 'nativeLanguage'],
  },
  {
    operationId: 'lessons',
    parameters: { action: { type: 'string' }, level: { type: 'string' }, lessonId: { type: 'string' }, title: { type: 'string' } },
    required: ['action', 'level', 'lessonId', 'title'],
  },
];

/** Violations reduced to what the tests pin down: rule, tool, pointer; sorted. */
function found(violations: { rule: string; tool: string; path: string }[]): string[] {
  return violations.map((v) => `${v.rule} ${v.tool} ${v.path}`).sort();
}

type Json = Record<string, any>;
type Published = { name: string; inputSchema: Json };

/**
 * checkTools on hand-mutated tools. A mutated schema need not fit the SDK's
 * Tool type (a root of type "array" does not): the checker must judge it anyway.
 */
function check(tools: Published[], operations: ContractOperation[]) {
  return checkTools(tools as Pick<Tool, 'name' | 'inputSchema'>[], operations);
}

describe('baseline: the real server meets the contract', () => {
  it('loadContract reads the hand-written contract', () => {
    expect(loadContract()).toEqual(EXPECTED_OPERATIONS);
    expect(loadContract(DEFAULT_CONTRACT)).toEqual(EXPECTED_OPERATIONS);
  });

  it.each([[[] as string[]], [['--build', 'low-level']], [['--build', 'mcpserver-1.20']], [['--build', 'mcpserver-1.32']]])('the bundled server %j: tools/list has zero violations', async (flags) => {
    const { tools, violations } = await checkServer({ command: process.execPath, args: [SERVER_JS, ...flags] });
    expect(tools.map((t) => t.name)).toEqual(['conjugate', 'get_profile', 'update_profile', 'lessons']);
    expect(violations).toEqual([]);
  });
});

describe('each rule turns red on a published schema', () => {
  let baseline: Tool;
  /** The conjugate operation alone: the mutations below are all of conjugate. */
  const operations = () => loadContract().filter((op) => op.operationId === 'conjugate');
  /** A deep copy of the live conjugate tool, to mutate by hand. */
  const copy = (): Published => structuredClone(baseline) as Published;

  beforeAll(async () => {
    const tools = await listTools(SERVER);
    const conjugate = tools.find((t) => t.name === 'conjugate');
    if (!conjugate) throw new Error('the server does not publish conjugate');
    baseline = conjugate;
  });

  it('the unmodified copy is green (the control)', () => {
    expect(baseline.inputSchema.type).toBe('object');
    expect(Object.keys(baseline.inputSchema.properties ?? {}).sort()).toEqual(['person', 'tense', 'verb']);
    expect([...(baseline.inputSchema.required ?? [])].sort()).toEqual(['person', 'tense', 'verb']);
    expect(check([copy()], operations())).toEqual([]);
  });

  // Rule 7, by hand: Claude Code names a tool mcp__tutor__<name> (12 characters before it), the API of 2025 took 64;
  // OpenAI function calling takes a description of at most 1,024 characters and names of [a-zA-Z0-9_-].
  it('a name or a description past what the hosts take: fits-host-limits at /name or /description, up to the limit and not one past', () => {
    const named = (name: string) => ({ ...copy(), name });
    const ops = (name: string) => [{ ...operations()[0]!, operationId: name }];
    expect(check([named('c'.repeat(52))], ops('c'.repeat(52)))).toEqual([]);
    expect(found(check([named('c'.repeat(53))], ops('c'.repeat(53))))).toEqual([`fits-host-limits ${'c'.repeat(53)} /name`]);
    expect(check([named('c'.repeat(53))], ops('c'.repeat(53)))[0]!.message).toContain(`"mcp__tutor__${'c'.repeat(53)}" in Claude Code, 65 characters`);
    expect(found(check([named('tutor.conjugate')], ops('tutor.conjugate')))).toEqual(['fits-host-limits tutor.conjugate /name']);
    const described = (n: number) => ({ ...copy(), description: 'é'.repeat(n) });
    expect(check([described(1024)], operations())).toEqual([]);
    expect(found(check([described(1025)], operations()))).toEqual(['fits-host-limits conjugate /description']);
  });

  it('required deleted: required-parameters at /inputSchema/required, once for each needed parameter', () => {
    const tool = copy();
    delete tool.inputSchema.required;
    const violations = check([tool], operations());
    expect(found(violations)).toEqual([
      'required-parameters conjugate /inputSchema/required',
      'required-parameters conjugate /inputSchema/required',
      'required-parameters conjugate /inputSchema/required',
    ]);
    for (const name of ['verb', 'tense', 'person']) {
      expect(violations.some((v) => v.message.includes(`"${name}"`))).toBe(true);
    }
  });

  it('required emptied: the same three violations', () => {
    const tool = copy();
    tool.inputSchema.required = [];
    expect(found(check([tool], operations()))).toEqual([
      'required-parameters conjugate /inputSchema/required',
      'required-parameters conjugate /inputSchema/required',
      'required-parameters conjugate /inputSchema/required',
    ]);
  });

  it('one name dropped from required: required-parameters at /inputSchema/required naming it', () => {
    const tool = copy();
    tool.inputSchema.required = ['verb', 'person'];
    const violations = check([tool], operations());
    expect(found(violations)).toEqual(['required-parameters conjugate /inputSchema/required']);
    expect(violations[0]!.message).toContain('"tense"');
  });

  it('properties.verb replaced by anyOf of two objects: no-structural-union at /inputSchema/properties/verb/anyOf, and verb is no longer a string', () => {
    const tool = copy();
    tool.inputSchema.properties.verb = {
      anyOf: [
        { type: 'object', properties: { regular: { type: 'string' } }, required: ['regular'] },
        { type: 'object', properties: { irregular: { type: 'string' }, past: { type: 'string' } }, required: ['irregular'] },
      ],
    };
    expect(found(check([tool], operations()))).toEqual([
      'no-structural-union conjugate /inputSchema/properties/verb/anyOf',
      'root-matches-contract conjugate /inputSchema/properties/verb',
    ]);
  });

  it('properties.verb replaced by oneOf of an object and an array: no-structural-union at /inputSchema/properties/verb/oneOf', () => {
    const tool = copy();
    tool.inputSchema.properties.verb = { oneOf: [{ type: 'object', properties: { base: { type: 'string' } } }, { type: 'array', items: { type: 'string' } }] };
    expect(found(check([tool], operations()))).toEqual([
      'no-structural-union conjugate /inputSchema/properties/verb/oneOf',
      'root-matches-contract conjugate /inputSchema/properties/verb',
    ]);
  });

  it('a structural union hidden in $defs behind a $ref is found too', () => {
    const tool = copy();
    tool.inputSchema.properties.verb = { $ref: '#/definitions/Verb' };
    tool.inputSchema.definitions = { Verb: { anyOf: [{ type: 'object', properties: {} }, { type: 'object', properties: {} }] } };
    const violations = found(check([tool], operations()));
    expect(violations).toContain('no-structural-union conjugate /inputSchema/definitions/Verb/anyOf');
  });

  it('the whole inputSchema replaced by {"type":"object","properties":{}}: root-matches-contract at /inputSchema/properties', () => {
    const tool = copy();
    tool.inputSchema = { type: 'object', properties: {} };
    const violations = check([tool], operations());
    expect(found(violations)).toEqual(['root-matches-contract conjugate /inputSchema/properties']);
    for (const name of ['verb', 'tense', 'person']) expect(violations[0]!.message).toContain(name);
  });

  it('a root that is not an object: root-matches-contract at /inputSchema/type', () => {
    const tool = copy();
    tool.inputSchema = { type: 'array', items: { type: 'string' } };
    expect(found(check([tool], operations()))).toEqual(['root-matches-contract conjugate /inputSchema/type']);
  });

  it('a property renamed (verb -> verbe, in properties and required): the missing one and the extra one are both reported', () => {
    const tool = copy();
    const { verb, ...rest } = tool.inputSchema.properties;
    tool.inputSchema.properties = { verbe: verb, ...rest };
    tool.inputSchema.required = ['verbe', 'tense', 'person'];
    expect(found(check([tool], operations()))).toEqual([
      'root-matches-contract conjugate /inputSchema/properties/verb',
      'root-matches-contract conjugate /inputSchema/properties/verbe',
    ]);
  });

  it('person retyped to integer: root-matches-contract at /inputSchema/properties/person', () => {
    const tool = copy();
    tool.inputSchema.properties.person = { type: 'integer', minimum: 1, maximum: 6 };
    const violations = check([tool], operations());
    expect(found(violations)).toEqual(['root-matches-contract conjugate /inputSchema/properties/person']);
    expect(violations[0]!.message).toContain('integer');
  });

  it('an undeclared property added: root-matches-contract at /inputSchema/properties/mood', () => {
    const tool = copy();
    tool.inputSchema.properties.mood = { type: 'string', enum: ['indicative', 'subjunctive'] };
    expect(found(check([tool], operations()))).toEqual(['root-matches-contract conjugate /inputSchema/properties/mood']);
  });

  it('an undeclared property whose name needs escaping is pointed at with RFC 6901 escapes', () => {
    const tool = copy();
    tool.inputSchema.properties['a/b~c'] = { type: 'string' };
    expect(found(check([tool], operations()))).toEqual(['root-matches-contract conjugate /inputSchema/properties/a~1b~0c']);
  });

  it('all mismatches are reported together: rename + retype gives both', () => {
    const tool = copy();
    const { verb, ...rest } = tool.inputSchema.properties;
    tool.inputSchema.properties = { verbe: verb, ...rest, person: { type: 'integer' } };
    tool.inputSchema.required = ['verbe', 'tense', 'person'];
    expect(found(check([tool], operations()))).toEqual([
      'root-matches-contract conjugate /inputSchema/properties/person',
      'root-matches-contract conjugate /inputSchema/properties/verb',
      'root-matches-contract conjugate /inputSchema/properties/verbe',
    ]);
  });

  it('all mismatches are reported together: union + dropped required + extra property + retype', () => {
    const tool = copy();
    tool.inputSchema.properties.verb = { anyOf: [{ type: 'object', properties: {} }, { type: 'array', items: {} }] };
    tool.inputSchema.properties.person = { type: 'integer' };
    tool.inputSchema.properties.mood = { type: 'string' };
    tool.inputSchema.required = ['verb', 'person'];
    expect(found(check([tool], operations()))).toEqual([
      'no-structural-union conjugate /inputSchema/properties/verb/anyOf',
      'required-parameters conjugate /inputSchema/required',
      'root-matches-contract conjugate /inputSchema/properties/mood',
      'root-matches-contract conjugate /inputSchema/properties/person',
      'root-matches-contract conjugate /inputSchema/properties/verb',
    ]);
  });

  it('a tool that is not in the contract is a violation', () => {
    const stray = { name: 'decline', inputSchema: { type: 'object', properties: { noun: { type: 'string' } } } };
    expect(found(check([copy(), stray], operations()))).toEqual(['root-matches-contract decline ']);
  });

  it('a contract operation the server does not publish is a violation', () => {
    expect(found(check([], operations()))).toEqual(['root-matches-contract conjugate ']);
    const renamed = { ...copy(), name: 'conjugate_verb' };
    expect(found(check([renamed], operations()))).toEqual(['root-matches-contract conjugate ', 'root-matches-contract conjugate_verb ']);
  });
});

describe('a contract that cannot be read is an error, never an empty comparison', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'schema-breaks-contract-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a missing file throws', () => {
    expect(() => loadContract(join(dir, 'does-not-exist.json'))).toThrow(ContractError);
  });

  it('a file that is not JSON throws', () => {
    const file = join(dir, 'not-json.json');
    writeFileSync(file, 'openapi: 3.1.0\npaths:\n  /conjugate: {}\n');
    expect(() => loadContract(file)).toThrow(ContractError);
  });

  it('an empty file throws', () => {
    const file = join(dir, 'empty.json');
    writeFileSync(file, '');
    expect(() => loadContract(file)).toThrow(ContractError);
  });

  it('JSON with no paths, or with no operation, throws', () => {
    const noPaths = join(dir, 'no-paths.json');
    writeFileSync(noPaths, JSON.stringify({ openapi: '3.1.0' }));
    expect(() => loadContract(noPaths)).toThrow(ContractError);
    const noOps = join(dir, 'no-ops.json');
    writeFileSync(noOps, JSON.stringify({ openapi: '3.1.0', paths: {} }));
    expect(() => loadContract(noOps)).toThrow(ContractError);
  });

  it('checkServer with a missing contract rejects instead of passing', async () => {
    await expect(checkServer(SERVER, join(dir, 'does-not-exist.json'))).rejects.toThrow(ContractError);
  });

  it('checkServer against another contract file compares against that file', async () => {
    const file = join(dir, 'other.json');
    writeFileSync(
      file,
      JSON.stringify({
        paths: {
          '/conjugate': {
            post: {
              operationId: 'conjugate',
              requestBody: {
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: { verb: { type: 'string' }, tense: { type: 'string' }, person: { type: 'integer' } },
                      required: ['verb', 'tense', 'person'],
                    },
                  },
                },
              },
            },
          },
        },
      }),
    );
    const { violations } = await checkServer(SERVER, file);
    // That contract has conjugate alone: the server's other tools are not in it.
    expect(found(violations)).toEqual([
      'root-matches-contract conjugate /inputSchema/properties/person',
      'root-matches-contract get_profile ',
      'root-matches-contract lessons ',
      'root-matches-contract update_profile ',
    ]);
  });
});

describe('rule rejects-missing-arguments: a call with none of the required arguments must be refused', () => {
  const ops = [{ operationId: 'conjugate', parameters: { verb: { type: 'string' } }, required: ['verb'] }];
  const judge = (reply: Parameters<typeof emptyCallViolations>[0] extends Map<string, infer R> ? R : never) => emptyCallViolations(new Map([['conjugate', reply]]), ops).map((v) => v.rule);
  it('is met by invalid params in every real build: JSON-RPC -32602, or an isError McpError -32602', () => {
    expect(judge({ code: -32602, message: 'MCP error -32602: Invalid arguments for tool conjugate: [...]' })).toEqual([]);
    expect(judge({ isError: true, text: 'MCP error -32602: Input validation error: Invalid arguments for tool conjugate: Invalid option ...' })).toEqual([]);
  });
  it('fails when the tool ran: a crash (-32603 or isError), or an answer', () => {
    expect(judge({ code: -32603, message: "Cannot read properties of undefined (reading 'endsWith')" })).toEqual(['rejects-missing-arguments']);
    expect(judge({ isError: true, text: "Cannot read properties of undefined (reading 'endsWith')" })).toEqual(['rejects-missing-arguments']);
    expect(judge({ isError: false, text: 'to be' })).toEqual(['rejects-missing-arguments']);
  });
  it('says nothing of a tool the contract requires nothing of', () => {
    expect(emptyCallViolations(new Map([['conjugate', { isError: false, text: 'ok' }]]), [{ ...ops[0]!, required: [] }])).toEqual([]);
  });
});
