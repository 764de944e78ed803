/**
 * The two properties that keep the schema contract guard honest, each proved
 * by mutation: the change is made, and the check must turn red (or, for a
 * listed violation, report it as known), naming the rule and the path.
 *
 * 1. The known-violations list (contract/known-violations.json) must shrink:
 *    a violation outside it fails; a listed one is reported as known; a listed
 *    one that was fixed fails until its entry is removed; a malformed entry
 *    is an error.
 * 2. No vacuous pass: the tools are pinned by name to the contract's
 *    operations; a missing contract is a failure; a schema shape the checker
 *    was not taught fails, asking to be taught.
 *
 * The server is the real bundled baseline (test/setup/build-server.ts),
 * checked against the contract it was built with (contractOf). Changes on the
 * contract side are made on temporary copies of that contract and go through
 * checkServer and a real tools/list; changes on the published side are made on
 * the JSON of one real tools/list, by hand, the way a broken declaration would
 * publish it. Every expected rule id and JSON Pointer is written by hand.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPublished, checkServer, checkTools, formatViolation, listTools } from '../src/contract/check.js';
import { ContractError, loadContract } from '../src/contract/contract.js';
import { coversPath, DEFAULT_KNOWN, knownFileFor, KnownViolationsError, loadKnownViolations, parseKnownViolations } from '../src/contract/known.js';
import type { ContractOperation, Violation } from '../src/contract/rules.js';
import { contractOf } from '../src/lab/variants.js';
import { loadCatalogue } from '../src/learn/catalogue.js';
import { renderVerdict } from '../src/learn/flow.js';
import { REPO, SERVER_JS } from './helpers/server.js';

const SERVER = { command: process.execPath, args: [SERVER_JS] };
/** The contract the bundled server was built with. */
const CONTRACT = contractOf(SERVER_JS);

type Json = Record<string, any>;
type Published = { name: string; inputSchema: Json };

/** Violations reduced to what the tests pin down: rule, tool, pointer; sorted. */
function found(violations: { rule: string; tool: string; path: string }[]): string[] {
  return violations.map((v) => `${v.rule} ${v.tool} ${v.path}`).sort();
}

let root: string;
let cases = 0;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'schema-breaks-guards-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The conjugate operation's request schema inside a contract document. */
const conjugateOf = (contract: Json): Json => contract.paths['/conjugate'].post.requestBody.content['application/json'].schema;

/**
 * A fresh folder with a copy of the server's contract, changed by `edit`, and,
 * when `known` is given, a known-violations list beside it (an object is
 * written as JSON, a string as is).
 */
function workdir(edit?: (contract: Json) => void, known?: unknown): { dir: string; contract: string; known: string } {
  const dir = join(root, `case-${++cases}`);
  mkdirSync(dir);
  const contract = JSON.parse(readFileSync(CONTRACT, 'utf8')) as Json;
  edit?.(contract);
  writeFileSync(join(dir, 'tutor-api.json'), JSON.stringify(contract, null, 2));
  if (known !== undefined) writeFileSync(join(dir, 'known-violations.json'), typeof known === 'string' ? known : JSON.stringify(known, null, 2));
  return { dir, contract: join(dir, 'tutor-api.json'), known: join(dir, 'known-violations.json') };
}

/** A known-violations list with these entries. */
const list = (...entries: unknown[]) => ({ $comment: 'written by test/guards.test.ts', entries });

/** The contract edit most cases use: person is an integer, so the real server's string person violates it. */
const personIsInteger = (contract: Json) => {
  conjugateOf(contract).properties.person = { type: 'integer' };
};

const PERSON_ENTRY = {
  tool: 'conjugate',
  path: '/inputSchema/properties/person',
  rule: 'root-matches-contract',
  issue: '#12',
  reason: 'the contract moves person to a number (1 to 6); the server follows in #12',
};

// One real tools/list, to mutate by hand.
let published: Published[];
let operations: ContractOperation[];
const tools = (): Published[] => structuredClone(published);
const conjugate = (ts: Published[]): Json => ts.find((t) => t.name === 'conjugate')!.inputSchema;
const judge = (ts: Published[], entries: Parameters<typeof checkPublished>[2] = []) => checkPublished(ts as Pick<Tool, 'name' | 'inputSchema'>[], operations, entries);

beforeAll(async () => {
  published = (await listTools(SERVER)) as Published[];
  operations = loadContract(CONTRACT);
  if (!published.some((t) => t.name === 'conjugate')) throw new Error('the server does not publish conjugate');
});

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

describe('the known-violations list: a listed violation is known, a fixed one must be removed (real server)', () => {
  it('without an entry, the retyped person is a failure (the control)', async () => {
    const { contract } = workdir(personIsInteger);
    const result = await checkServer(SERVER, contract);
    expect(found(result.violations)).toEqual(['root-matches-contract conjugate /inputSchema/properties/person']);
    expect(result.known).toEqual([]);
  });

  it('a listed violation that still violates is green, reported as known with its issue', async () => {
    const { contract } = workdir(personIsInteger, list(PERSON_ENTRY));
    const result = await checkServer(SERVER, contract);
    expect(result.violations).toEqual([]);
    expect(result.stale).toEqual([]);
    expect(found(result.known)).toEqual(['root-matches-contract conjugate /inputSchema/properties/person']);
    expect(result.known[0]!.issue).toBe('#12');
    expect(result.known[0]!.reason).toBe(PERSON_ENTRY.reason);
  });

  it('a fixed violation still listed turns the check red, asking to remove the entry, naming tool, path and issue', async () => {
    const { contract } = workdir(undefined, list(PERSON_ENTRY));
    const result = await checkServer(SERVER, contract);
    expect(found(result.violations)).toEqual(['known-violation-fixed conjugate /inputSchema/properties/person']);
    expect(result.stale).toEqual(result.violations);
    expect(result.known).toEqual([]);
    const message = result.violations[0]!.message;
    expect(message).toContain('Remove');
    expect(message).toContain('"conjugate"');
    expect(message).toContain('/inputSchema/properties/person');
    expect(message).toContain('#12');
    expect(message).toContain('contract/known-violations.json');
  });

  it('a new violation outside the list stays red beside a known one', async () => {
    const { contract } = workdir((c) => {
      personIsInteger(c);
      conjugateOf(c).properties.mood = { type: 'string' };
    }, list(PERSON_ENTRY));
    const result = await checkServer(SERVER, contract);
    expect(found(result.violations)).toEqual(['root-matches-contract conjugate /inputSchema/properties/mood']);
    expect(found(result.known)).toEqual(['root-matches-contract conjugate /inputSchema/properties/person']);
  });

  it('the list given as third argument is the one read', async () => {
    const { contract, dir } = workdir(personIsInteger);
    const elsewhere = join(dir, 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify(list(PERSON_ENTRY)));
    expect((await checkServer(SERVER, contract)).violations).not.toEqual([]);
    const result = await checkServer(SERVER, contract, elsewhere);
    expect(result.violations).toEqual([]);
    expect(found(result.known)).toEqual(['root-matches-contract conjugate /inputSchema/properties/person']);
  });

  it('a missing list means no known violations: nothing is excused', async () => {
    const { contract, dir } = workdir(personIsInteger);
    expect(loadKnownViolations(join(dir, 'no-such-list.json'))).toEqual([]);
    const result = await checkServer(SERVER, contract, join(dir, 'no-such-list.json'));
    expect(found(result.violations)).toEqual(['root-matches-contract conjugate /inputSchema/properties/person']);
  });

  it('an entry covers its subtree, segment by segment: /verb covers /verb/anyOf, not /verbose', () => {
    const ts = tools();
    conjugate(ts).properties.verb = {
      anyOf: [
        { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        { type: 'object', properties: { infinitive: { type: 'string' }, past: { type: 'string' } }, required: ['infinitive', 'past'] },
      ],
    };
    conjugate(ts).properties.verbose = { type: 'boolean' };
    const entry = { tool: 'conjugate', path: '/inputSchema/properties/verb', issue: 'https://github.com/example/schema-breaks/issues/7', reason: 'verb by name or by parts' };
    const result = judge(ts, parseKnownViolations(list(entry)));
    expect(found(result.known)).toEqual([
      'no-structural-union conjugate /inputSchema/properties/verb/anyOf',
      'root-matches-contract conjugate /inputSchema/properties/verb',
    ]);
    expect(found(result.violations)).toEqual(['root-matches-contract conjugate /inputSchema/properties/verbose']);
  });

  it('coversPath: the pointer itself and below it, on segment boundaries', () => {
    expect(coversPath('/inputSchema/properties/verb', '/inputSchema/properties/verb')).toBe(true);
    expect(coversPath('/inputSchema/properties/verb', '/inputSchema/properties/verb/anyOf')).toBe(true);
    expect(coversPath('/inputSchema/properties/verb', '/inputSchema/properties/verbose')).toBe(false);
    expect(coversPath('/inputSchema/properties/verb', '/inputSchema/properties')).toBe(false);
    expect(coversPath('/inputSchema/properties/verb', '')).toBe(false);
  });

  it('an entry naming a rule covers that rule only', () => {
    const ts = tools();
    conjugate(ts).properties.verb = { anyOf: [{ type: 'object', properties: {} }, { type: 'array', items: { type: 'string' } }] };
    const entry = { tool: 'conjugate', path: '/inputSchema/properties/verb', rule: 'no-structural-union', issue: '#3', reason: 'being split into two parameters' };
    const result = judge(ts, parseKnownViolations(list(entry)));
    expect(found(result.known)).toEqual(['no-structural-union conjugate /inputSchema/properties/verb/anyOf']);
    expect(found(result.violations)).toEqual(['root-matches-contract conjugate /inputSchema/properties/verb']);
  });

  it('an entry for another tool covers nothing here, and is itself stale', () => {
    const ts = tools();
    conjugate(ts).properties.verb = { type: 'integer' };
    const entry = { tool: 'decline', path: '/inputSchema/properties/verb', issue: '#4', reason: 'wrong tool' };
    const result = judge(ts, parseKnownViolations(list(entry)));
    expect(found(result.violations)).toEqual([
      'known-violation-fixed decline /inputSchema/properties/verb',
      'root-matches-contract conjugate /inputSchema/properties/verb',
    ]);
    expect(result.known).toEqual([]);
  });

  it("a stale entry reaches the learner's npm run check output like any violation", async () => {
    const { contract } = workdir(undefined, list(PERSON_ENTRY));
    const { violations } = await checkServer(SERVER, contract);
    const lab = loadCatalogue()[0]!;
    const text = renderVerdict(lab, { fixed: violations.length === 0, violations, runs: [] }, 'en');
    expect(text).toContain('known-violation-fixed');
    expect(text).toContain('conjugate /inputSchema/properties/person');
    expect(text).toContain('Remove that entry');
  });

  it('formatViolation knows the new rules', () => {
    const v: Violation = { rule: 'known-violation-fixed', tool: 'conjugate', path: '/inputSchema/properties/person', message: 'm' };
    expect(formatViolation(v)).toContain('known-violations.json');
    expect(formatViolation({ ...v, rule: 'taught-shapes' })).toContain('taught');
  });
});

describe('a malformed known-violations list is an error, naming the entry and the field (checkServer rejects)', () => {
  const VALID = { tool: 'conjugate', path: '/inputSchema/properties/person', issue: '#12', reason: 'tracked' };
  const { issue: _issue, ...NO_ISSUE } = VALID;
  const { reason: _reason, ...NO_REASON } = VALID;
  const CASES: [name: string, content: unknown, mentions: string[]][] = [
    ['an entry without an issue citation', list(NO_ISSUE), ['entry 1 (conjugate /inputSchema/properties/person)', 'no "issue"']],
    ['an issue that is not "#N" or a URL: "12"', list({ ...VALID, issue: '12' }), ['entry 1', '"issue" "12" is not an issue citation']],
    ['an issue that is not "#N" or a URL: "JIRA-12"', list({ ...VALID, issue: 'JIRA-12' }), ['"issue" "JIRA-12" is not an issue citation']],
    ['an issue that is not "#N" or a URL: "see the tracker"', list({ ...VALID, issue: 'see the tracker' }), ['is not an issue citation']],
    ['an empty issue', list({ ...VALID, issue: '' }), ['"issue" "" is not an issue citation']],
    ['an unknown rule id', list({ ...VALID, rule: 'no-unions' }), ['entry 1', 'unknown rule "no-unions"']],
    ['the meta rule known-violation-fixed as an entry rule', list({ ...VALID, rule: 'known-violation-fixed' }), ['unknown rule "known-violation-fixed"']],
    ['a line number as path', list({ ...VALID, path: 42 }), ['"path" 42 is not a JSON Pointer']],
    ['a file:line as path', list({ ...VALID, path: 'tutor-api.json:17' }), ['"path" "tutor-api.json:17" is not a JSON Pointer']],
    ['a path without its leading slash', list({ ...VALID, path: 'inputSchema/properties/person' }), ['is not a JSON Pointer']],
    ['the empty pointer (the whole tool)', list({ ...VALID, path: '' }), ['"path" "" is not a JSON Pointer']],
    ['a bad ~ escape', list({ ...VALID, path: '/inputSchema/properties/a~2b' }), ['"path" "/inputSchema/properties/a~2b" is not a JSON Pointer']],
    ['a line key beside the pointer', list({ ...VALID, line: 17 }), ['unknown key "line"']],
    ['an entry without a reason', list(NO_REASON), ['"reason"']],
    ['an entry without a tool', list({ ...VALID, tool: '' }), ['"tool"']],
    ['a duplicate entry', list(VALID, { ...VALID, reason: 'again' }), ['entry 2 (conjugate /inputSchema/properties/person)', 'a duplicate of entry 1']],
    ['a duplicate: the same path with and without a rule', list(VALID, { ...VALID, rule: 'root-matches-contract' }), ['entry 2', 'a duplicate of entry 1']],
    [
      'every problem at once, each named',
      list(NO_ISSUE, { ...VALID, path: 'L17', tool: 'lessons' }, { ...VALID, tool: 'get_profile', rule: 'nope' }),
      ['entry 1 (conjugate', 'no "issue"', 'entry 2 (lessons L17)', 'entry 3 (get_profile', 'unknown rule "nope"'],
    ],
    ['not JSON', '{ "entries": [', ['not JSON']],
    ['an empty file', '', ['not JSON']],
    ['a list instead of an object', '[]', ['must be an object']],
    ['no "entries"', { $comment: 'nothing' }, ['"entries" must be a list']],
    ['"entries" that is not a list', { entries: {} }, ['"entries" must be a list']],
    ['an unknown top-level key', { entries: [], entires: [] }, ['unknown key "entires"']],
  ];

  it.each(CASES)('%s', async (_name, content, mentions) => {
    const { contract, known } = workdir(personIsInteger, content);
    const check = checkServer(SERVER, contract);
    await expect(check).rejects.toThrow(KnownViolationsError);
    const error = await check.catch((e: Error) => e);
    for (const m of mentions) expect((error as Error).message).toContain(m);
    expect((error as Error).message).toContain(known);
  });

  it('a folder where the list should be is an error, not an empty list', async () => {
    const { contract, known } = workdir();
    mkdirSync(known);
    await expect(checkServer(SERVER, contract)).rejects.toThrow(KnownViolationsError);
  });

  it('the control: a valid entry with a URL for its issue is accepted', () => {
    const entry = { ...VALID, rule: 'root-matches-contract', issue: 'https://github.com/example/schema-breaks/issues/12' };
    expect(parseKnownViolations(list(entry))).toEqual([entry]);
  });
});
