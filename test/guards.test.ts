/**
 * The schema contract guard has no vacuous pass, proved by mutation: the
 * change is made, and the check must turn red, naming the rule and the path.
 * The tools are pinned by name to the contract's operations (drift on either
 * side is red); a missing contract is a failure; a schema shape the checker
 * was not taught fails, asking to be taught. The control comes first: the
 * baseline is green and the shipped known-violations list is empty. (The
 * other property, that the known-violations list must shrink, is
 * test/guards-known.test.ts.)
 *
 * The server is the real bundled baseline (test/setup/build-server.ts),
 * checked against the contract it was built with (contractOf). Changes on the
 * contract side are made on temporary copies of that contract and go through
 * checkServer and a real tools/list; changes on the published side are made on
 * the JSON of one real tools/list, by hand, the way a broken declaration would
 * publish it. Every expected rule id and JSON Pointer is written by hand. The
 * shared fixtures are test/helpers/guards.ts.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkServer, checkTools, exampleCallViolations, type ExampleReply } from '../src/contract/check.js';
import { buildServer, contractOf, patchChain } from '../src/lab/variants.js';
import { ContractError, loadContract } from '../src/contract/contract.js';
import { DEFAULT_KNOWN, knownFileFor, loadKnownViolations } from '../src/contract/known.js';
import type { ContractOperation } from '../src/contract/rules.js';
import { conjugate, conjugateOf, CONTRACT, found, judge, makeRoot, personIsInteger, readPublished, removeRoot, SERVER, tools, workdir, type Json } from './helpers/guards.js';
import { REPO } from './helpers/server.js';

beforeAll(makeRoot);
afterAll(removeRoot);
beforeAll(readPublished);

describe('the control: the baseline is green and the shipped list is empty', () => {
  it('the real server against the contract it was built with: no violation, none known, none stale', async () => {
    const result = await checkServer(SERVER, CONTRACT);
    expect(result.tools.map((t) => t.name)).toContain('conjugate');
    expect(result.violations).toEqual([]);
    expect(result.known).toEqual([]);
    expect(result.stale).toEqual([]);
  });

  it('the unmodified tools/list is green through checkPublished', () => {
    expect(judge(tools())).toEqual({ violations: [], known: [], stale: [] });
  });

  it('contract/known-violations.json ships empty, with a $comment, and travels with the built server', () => {
    expect(DEFAULT_KNOWN).toBe(join(REPO, 'contract', 'known-violations.json'));
    const shipped = JSON.parse(readFileSync(DEFAULT_KNOWN, 'utf8'));
    expect(typeof shipped.$comment).toBe('string');
    expect(shipped.entries).toEqual([]);
    expect(loadKnownViolations()).toEqual([]);
    expect(existsSync(knownFileFor(CONTRACT))).toBe(true);
    expect(loadKnownViolations(knownFileFor(CONTRACT))).toEqual([]);
  });
});

describe('drift between server and contract turns the check red, naming the field (real server, contract copies)', () => {
  it('a field dropped: the contract needs "mood", the server does not publish it', async () => {
    const { contract } = workdir((c) => {
      conjugateOf(c).properties.mood = { type: 'string' };
      conjugateOf(c).required.push('mood');
    });
    const { violations } = await checkServer(SERVER, contract);
    expect(found(violations)).toEqual(['root-matches-contract conjugate /inputSchema/properties/mood']);
    expect(violations[0]!.message).toContain('"mood"');
  });

  it('a field retyped: the contract says person is an integer', async () => {
    const { contract } = workdir(personIsInteger);
    const { violations } = await checkServer(SERVER, contract);
    expect(found(violations)).toEqual(['root-matches-contract conjugate /inputSchema/properties/person']);
    expect(violations[0]!.message).toContain('integer');
  });

  it('an undeclared field: the contract drops person, the server still publishes it', async () => {
    const { contract } = workdir((c) => {
      delete conjugateOf(c).properties.person;
      conjugateOf(c).required = ['verb', 'tense'];
    });
    const { violations } = await checkServer(SERVER, contract);
    expect(found(violations)).toEqual(['root-matches-contract conjugate /inputSchema/properties/person']);
    expect(violations[0]!.message).toContain('not in the contract');
  });

  it('a vanished tool: the contract has an operation "decline" the server does not publish', async () => {
    const { contract } = workdir((c) => {
      c.paths['/decline'] = structuredClone(c.paths['/conjugate']);
      c.paths['/decline'].post.operationId = 'decline';
    });
    const { violations } = await checkServer(SERVER, contract);
    expect(found(violations)).toEqual(['root-matches-contract decline ']);
    expect(violations[0]!.message).toContain('"decline"');
  });

  it('all drift is reported together, not just the first', async () => {
    const { contract } = workdir((c) => {
      personIsInteger(c);
      conjugateOf(c).properties.mood = { type: 'string' };
      c.paths['/decline'] = structuredClone(c.paths['/conjugate']);
      c.paths['/decline'].post.operationId = 'decline';
    });
    const { violations } = await checkServer(SERVER, contract);
    expect(found(violations)).toEqual([
      'root-matches-contract conjugate /inputSchema/properties/mood',
      'root-matches-contract conjugate /inputSchema/properties/person',
      'root-matches-contract decline ',
    ]);
  });
});

describe('drift on the published side turns the check red, naming the field (tools/list JSON changed by hand)', () => {
  it('a field dropped: tense no longer published', () => {
    const ts = tools();
    delete conjugate(ts).properties.tense;
    conjugate(ts).required = ['verb', 'person'];
    const { violations } = judge(ts);
    expect(found(violations)).toEqual(['root-matches-contract conjugate /inputSchema/properties/tense']);
    expect(violations[0]!.message).toContain('"tense"');
  });

  it('a field retyped: verb published as an integer', () => {
    const ts = tools();
    conjugate(ts).properties.verb = { type: 'integer', minimum: 0 };
    const { violations } = judge(ts);
    expect(found(violations)).toEqual(['root-matches-contract conjugate /inputSchema/properties/verb']);
    expect(violations[0]!.message).toContain('integer');
  });

  it('an undeclared field published: mood', () => {
    const ts = tools();
    conjugate(ts).properties.mood = { type: 'string', enum: ['indicative', 'subjunctive'] };
    expect(found(judge(ts).violations)).toEqual(['root-matches-contract conjugate /inputSchema/properties/mood']);
  });

  it('a new published tool that is not in the contract', () => {
    const ts = [...tools(), { name: 'decline', inputSchema: { type: 'object', properties: { noun: { type: 'string' } } } }];
    const { violations } = judge(ts);
    expect(found(violations)).toEqual(['root-matches-contract decline ']);
    expect(violations[0]!.message).toContain('not in the contract');
  });

  it('a vanished tool: conjugate no longer published', () => {
    const { violations } = judge(tools().filter((t) => t.name !== 'conjugate'));
    expect(found(violations)).toEqual(['root-matches-contract conjugate ']);
    expect(violations[0]!.message).toContain('does not publish');
  });

  it('a tool published twice', () => {
    const ts = tools();
    ts.push(structuredClone(ts.find((t) => t.name === 'conjugate')!));
    const { violations } = judge(ts);
    expect(found(violations)).toEqual(['root-matches-contract conjugate ']);
    expect(violations[0]!.message).toContain('more than once');
  });
});

describe('a missing or unreadable contract is a failure, never an empty comparison', () => {
  it('the contract deleted: checkServer rejects, naming the file', async () => {
    const { contract, dir } = workdir();
    rmSync(contract);
    const check = checkServer(SERVER, contract);
    await expect(check).rejects.toThrow(ContractError);
    await expect(check).rejects.toThrow(join(dir, 'tutor-api.json'));
  });

  it('a folder where the contract should be: checkServer rejects', async () => {
    const { dir } = workdir();
    mkdirSync(join(dir, 'folder.json'));
    await expect(checkServer(SERVER, join(dir, 'folder.json'))).rejects.toThrow(ContractError);
  });

  it('two operations of one name: the contract is refused (one of them would go unchecked)', () => {
    const { contract } = workdir((c) => {
      c.paths['/conjugate-again'] = structuredClone(c.paths['/conjugate']);
    });
    expect(() => loadContract(contract)).toThrow(ContractError);
    expect(() => loadContract(contract)).toThrow('"conjugate"');
  });

  it('an example that is not an object of arguments: the contract is refused (rule structured-output could not call with it)', () => {
    const { contract } = workdir((c) => {
      c.paths['/conjugate'].post.requestBody.content['application/json'].example = ['eat', 'present perfect', '3rd singular'];
    });
    expect(() => loadContract(contract)).toThrow('conjugate: the request body\'s "example" must be an object of arguments');
  });
});

describe('a shape the checker was not taught fails, asking to be taught (tools/list JSON changed by hand)', () => {
  const CASES: [name: string, mutate: (schema: Json) => void, expected: string[], mentions: string][] = [
    [
      'oneOf of scalars (the contract alone reads it as a string and would pass it)',
      (s) => {
        s.properties.verb = { oneOf: [{ type: 'string', enum: ['be', 'have'] }, { type: 'string', enum: ['do'] }], description: 'The verb.' };
      },
      ['taught-shapes conjugate /inputSchema/properties/verb/oneOf'],
      'oneOf',
    ],
    [
      'allOf',
      (s) => {
        s.properties.verb = { allOf: [{ type: 'string' }, { enum: ['be', 'have'] }] };
      },
      ['root-matches-contract conjugate /inputSchema/properties/verb', 'taught-shapes conjugate /inputSchema/properties/verb/allOf'],
      'allOf',
    ],
    [
      '$ref, with definitions at the root',
      (s) => {
        s.properties.verb = { $ref: '#/definitions/Verb' };
        s.definitions = { Verb: { type: 'string', enum: ['be', 'have'] } };
      },
      [
        'root-matches-contract conjugate /inputSchema/properties/verb',
        'taught-shapes conjugate /inputSchema/definitions',
        'taught-shapes conjugate /inputSchema/properties/verb/$ref',
      ],
      '$ref',
    ],
    [
      'type ["string","number"], a type union other than [T, "null"]',
      (s) => {
        s.properties.verb = { type: ['string', 'number'] };
      },
      ['root-matches-contract conjugate /inputSchema/properties/verb', 'taught-shapes conjugate /inputSchema/properties/verb/type'],
      '["string","number"]',
    ],
    [
      'a type name that is not JSON Schema\'s ("str")',
      (s) => {
        s.properties.verb = { type: 'str' };
      },
      ['root-matches-contract conjugate /inputSchema/properties/verb', 'taught-shapes conjugate /inputSchema/properties/verb/type'],
      '"str"',
    ],
    [
      'not, beside a string type',
      (s) => {
        s.properties.person = { type: 'string', not: { const: '1st singular' } };
      },
      ['taught-shapes conjugate /inputSchema/properties/person/not'],
      '"not"',
    ],
    [
      'if / then / else, beside a string type',
      (s) => {
        s.properties.tense = { type: 'string', if: { const: 'infinitive' }, then: { maxLength: 20 }, else: { minLength: 1 } };
      },
      [
        'taught-shapes conjugate /inputSchema/properties/tense/else',
        'taught-shapes conjugate /inputSchema/properties/tense/if',
        'taught-shapes conjugate /inputSchema/properties/tense/then',
      ],
      '"if"',
    ],
    [
      'the empty schema {} (accepts anything)',
      (s) => {
        s.properties.person = {};
      },
      ['root-matches-contract conjugate /inputSchema/properties/person', 'taught-shapes conjugate /inputSchema/properties/person'],
      'no type',
    ],
    [
      'an untaught shape deep inside taught ones: items of an array inside an object',
      (s) => {
        s.properties.verb = {
          type: 'object',
          properties: { name: { type: 'string' }, forms: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] } } },
        };
      },
      ['root-matches-contract conjugate /inputSchema/properties/verb', 'taught-shapes conjugate /inputSchema/properties/verb/properties/forms/items/oneOf'],
      'oneOf',
    ],
    [
      'allOf at the root of the inputSchema',
      (s) => {
        s.allOf = [{ required: ['verb'] }];
      },
      ['taught-shapes conjugate /inputSchema/allOf'],
      'allOf',
    ],
    [
      'additionalProperties as a schema',
      (s) => {
        s.additionalProperties = { type: 'string' };
      },
      ['taught-shapes conjugate /inputSchema/additionalProperties'],
      'additionalProperties',
    ],
  ];

  it.each(CASES)('%s', (_name, mutate, expected, mentions) => {
    const ts = tools();
    mutate(conjugate(ts));
    const { violations } = judge(ts);
    expect(found(violations)).toEqual(expected);
    for (const v of violations.filter((x) => x.rule === 'taught-shapes')) {
      expect(v.message).toContain(v.path);
      expect(v.message).toContain('not taught');
      expect(v.message).toContain('src/contract/rules.ts');
    }
    expect(violations.filter((x) => x.rule === 'taught-shapes').some((v) => v.message.includes(mentions))).toBe(true);
  });

  it("zod's discriminatedUnion (oneOf of objects) is rule 1's: no-structural-union, and no taught-shapes on top", () => {
    const ts = tools();
    conjugate(ts).properties.verb = {
      oneOf: [
        { type: 'object', properties: { kind: { type: 'string', const: 'name' }, name: { type: 'string' } }, required: ['kind', 'name'] },
        { type: 'object', properties: { kind: { type: 'string', const: 'parts' }, past: { type: 'string' } }, required: ['kind', 'past'] },
      ],
    };
    expect(found(judge(ts).violations)).toEqual([
      'no-structural-union conjugate /inputSchema/properties/verb/oneOf',
      'root-matches-contract conjugate /inputSchema/properties/verb',
    ]);
  });

  it('every taught shape passes (the checker is not red on what it knows)', () => {
    const tool = {
      name: 'shapes',
      inputSchema: {
        type: 'object',
        $schema: 'http://json-schema.org/draft-07/schema#',
        properties: {
          s: { type: 'string', enum: ['a', 'b'], format: 'date', pattern: '^[ab]$', default: 'a', description: 'a scalar' },
          n: { type: 'integer', minimum: 1, maximum: 6 },
          k: { type: 'boolean', const: true },
          o: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'], additionalProperties: false },
          l: { type: 'array', items: { type: 'string' } },
          u: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          m: { type: ['object', 'null'], properties: { a: { type: 'string' } } },
          e: { enum: ['x', 'y'] },
          c: { const: 3 },
        },
        required: ['s'],
        additionalProperties: false,
      },
    };
    const shapes: ContractOperation = {
      operationId: 'shapes',
      parameters: {
        s: { type: 'string' },
        n: { type: 'integer' },
        k: { type: 'boolean' },
        o: { type: 'object' },
        l: { type: 'array' },
        u: { type: 'null|string' },
        m: { type: 'null|object' },
        e: { type: 'string' },
        c: { type: 'number' },
      },
      required: ['s'],
    };
    expect(checkTools([tool as Pick<Tool, 'name' | 'inputSchema'>], [shapes])).toEqual([]);
  });
});

describe('rule 7, schema-dialect: a "$schema" other than draft-07 is red, at the root only (tools/list JSON changed by hand)', () => {
  // The dialects as zod 4's z.toJSONSchema writes them for each target (its default is 2020-12), and the SDK's draft-07.
  it('draft 2020-12 (zod 4\'s default) and 2019-09 are red, naming /inputSchema/$schema', () => {
    for (const dialect of ['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2019-09/schema']) {
      const ts = tools();
      conjugate(ts).$schema = dialect;
      const { violations } = judge(ts);
      expect(found(violations), dialect).toEqual(['schema-dialect conjugate /inputSchema/$schema']);
      expect(violations[0]!.message).toContain(JSON.stringify(dialect));
    }
  });

  it('a $schema that is not a string is red too', () => {
    const ts = tools();
    conjugate(ts).$schema = 7;
    expect(found(judge(ts).violations)).toEqual(['schema-dialect conjugate /inputSchema/$schema']);
  });

  it('draft-07 with or without its "#", and no $schema at all, are green', () => {
    for (const edit of [(s: Json) => (s.$schema = 'http://json-schema.org/draft-07/schema'), (s: Json) => delete s.$schema]) {
      const ts = tools();
      edit(conjugate(ts));
      expect(judge(ts).violations).toEqual([]);
    }
    expect(conjugate(tools()).$schema).toBe('http://json-schema.org/draft-07/schema#');
  });
});

describe('rule 8, structured-output: a tool that publishes an outputSchema answers the contract example with structuredContent (replies written by hand)', () => {
  const conjugateOp = (): ContractOperation => ({ ...operationsOf().find((o) => o.operationId === 'conjugate')! });
  const operationsOf = () => loadContract(CONTRACT);
  const typed = [{ name: 'conjugate', outputSchema: { type: 'object' as const, properties: { answer: { type: 'string' } }, required: ['answer'] } }];
  const judged = (reply: ExampleReply | undefined, op = conjugateOp(), tools: Parameters<typeof exampleCallViolations>[0] = typed) =>
    exampleCallViolations(tools, new Map(reply ? [['conjugate', reply]] : []), [op]).map((v) => `${v.rule} ${v.tool} ${v.path} ${v.said.id}`);

  it("the contract's conjugate carries the example the rule calls with", () => {
    expect(conjugateOp().example).toEqual({ verb: 'eat', tense: 'present perfect', person: '3rd singular' });
  });

  it('red: refused by the client (-32600), an isError result, a result without structuredContent; no example to call with', () => {
    expect(judged({ code: -32600, message: 'MCP error -32600: Tool conjugate has an output schema but did not return structured content' })).toEqual(['structured-output conjugate /outputSchema contract.outputRefused']);
    expect(judged({ isError: true, text: 'MCP error -32602: Output validation error: ...', structured: false })).toEqual(['structured-output conjugate /outputSchema contract.outputIsError']);
    expect(judged({ isError: false, text: 'has eaten', structured: false })).toEqual(['structured-output conjugate /outputSchema contract.outputMissing']);
    const { example: _none, ...withoutExample } = conjugateOp();
    expect(judged(undefined, withoutExample)).toEqual(['structured-output conjugate /outputSchema contract.outputNoExample']);
  });

  it('green: structuredContent accepted; and a tool that publishes no outputSchema is not called at all', () => {
    expect(judged({ isError: false, text: 'has eaten', structured: true })).toEqual([]);
    expect(judged({ isError: true, text: 'anything', structured: false }, conjugateOp(), [{ name: 'conjugate' }])).toEqual([]);
  });

  it("live: the output-schema break on the low-level build, checked through the SDK's own client, is refused with -32600", async () => {
    const serverJs = await buildServer(patchChain('output-schema').variant);
    const { violations } = await checkServer({ command: process.execPath, args: [serverJs, '--build', 'low-level'] }, contractOf(serverJs));
    expect(found(violations)).toEqual(['structured-output conjugate /outputSchema']);
    expect(violations[0]!.message).toContain('JSON-RPC -32600: MCP error -32600: Tool conjugate has an output schema but did not return structured content');
  });
});
