/**
 * The known-violations list of the schema contract guard
 * (contract/known-violations.json) must shrink, proved by mutation: the
 * change is made, and the check must turn red (or, for a listed violation,
 * report it as known), naming the rule and the path. A violation outside the
 * list fails; a listed one is reported as known; a listed one that was fixed
 * fails until its entry is removed; a malformed entry is an error. (The other
 * property, no vacuous pass, and the control are test/guards.test.ts.)
 *
 * The server is the real bundled baseline (test/setup/build-server.ts),
 * checked against the contract it was built with (contractOf). Changes on the
 * contract side are made on temporary copies of that contract and go through
 * checkServer and a real tools/list; changes on the published side are made on
 * the JSON of one real tools/list, by hand, the way a broken declaration would
 * publish it. Every expected rule id and JSON Pointer is written by hand. The
 * shared fixtures are test/helpers/guards.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkServer, formatViolation } from '../src/contract/check.js';
import { coversPath, KnownViolationsError, loadKnownViolations, parseKnownViolations } from '../src/contract/known.js';
import type { Violation } from '../src/contract/rules.js';
import { loadCatalogue } from '../src/learn/catalogue.js';
import { renderVerdict } from '../src/learn/flow.js';
import { conjugate, conjugateOf, found, judge, makeRoot, personIsInteger, readPublished, removeRoot, SERVER, tools, workdir } from './helpers/guards.js';

beforeAll(makeRoot);
afterAll(removeRoot);
beforeAll(readPublished);

/** A known-violations list with these entries. */
const list = (...entries: unknown[]) => ({ $comment: 'written by test/guards-known.test.ts', entries });

const PERSON_ENTRY = {
  tool: 'conjugate',
  path: '/inputSchema/properties/person',
  rule: 'root-matches-contract',
  issue: '#12',
  reason: 'the contract moves person to a number (1 to 6); the server follows in #12',
};

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
    const v: Violation = { rule: 'known-violation-fixed', tool: 'conjugate', path: '/inputSchema/properties/person', message: 'm', said: { id: 'contract.knownFixed', values: {} } };
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
