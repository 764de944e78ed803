/**
 * The fuzz test's messages (test/fuzz.test.ts): what each bad message deserves, decided when it is built
 * (never by asking the server), and the fast-check generators of every family of bad message and of the
 * valid calls slipped in between. The rules a reply is held to are listed at the top of test/fuzz.test.ts.
 */
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { KNOWN_VERBS, PERSONS, TENSES, conjugate, principalPartsOf } from '../../src/conjugation/engine.js';

/** Bad messages per write: one batch of batchArb. */
export const BATCH = 200;

// ---------------------------------------------------------------------------
// What a message deserves
// ---------------------------------------------------------------------------

/** A reply, reduced: its error code, or 'result', or 'isError' for a tool result with isError: true. */
export type Outcome = '-32700' | '-32600' | '-32601' | '-32602' | '-32603' | 'result' | 'isError';
/** Resolved per build (src/minimcp/errors.ts): -32602 on low-level and mcpserver-1.20, an isError result on mcpserver-1.32; an unknown tool likewise. */
export type Symbolic = Outcome | 'invalid-arguments' | 'unknown-keys';
const ANY: Symbolic[] = ['-32700', '-32600', '-32601', '-32602', '-32603', 'result', 'isError'];

export type Expect =
  | { kind: 'null'; code: -32700 | -32600 } // exactly one reply with id null
  | { kind: 'reply'; outcomes: Symbolic[] } // exactly one reply carrying the message's fresh id
  | { kind: 'maybe'; outcomes: Symbolic[] } // at most one reply carrying the fresh id
  | { kind: 'none' };

/** How the fresh, run-unique id of a message is written. */
type IdForm = { type: 'string'; prefix: string } | { type: 'number'; form: 'pos' | 'neg' | 'mid' | 'big' } | { type: 'float' };

export interface Case {
  family: string;
  /** A JSON value; when `id` is set, an `id` member with a fresh id is added to it. */
  value?: unknown;
  /** Or the exact text/bytes of a line (never with a newline). */
  raw?: string | Uint8Array;
  id?: IdForm;
  expect: Expect;
  /** For valid calls: the text the result must carry. */
  text?: string;
}

export function freshId(form: IdForm, n: number): string | number {
  switch (form.type) {
    case 'string':
      return `${form.prefix}#${n}`;
    case 'float':
      return n + 0.5;
    case 'number':
      return { pos: n, neg: -n, mid: 2 ** 31 + n, big: Number.MAX_SAFE_INTEGER - n }[form.form];
  }
}

/** An own, enumerable member, whatever its name (`__proto__` included). */
function withMembers(target: Record<string, unknown>, members: [string, unknown][]): Record<string, unknown> {
  for (const [key, value] of members) Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

/** What the server does to a line before JSON.parse (src/minimcp/stdio.ts): utf8, one trailing \r dropped, blank lines ignored. */
function isMalformedLine(raw: string | Uint8Array): boolean {
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : Buffer.from(raw);
  if (bytes.includes(10)) return false;
  const text = bytes.toString('utf8').replace(/\r$/, '');
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

const anyString = fc.oneof(fc.string(), fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 8 }));
/** 20 K to 100 K copies of one character; some escape to 6 bytes in JSON, some are 4-byte UTF-8. */
const hugeString = fc
  .tuple(fc.constantFrom('x', 'é', '\u0000', '"', '\\', '😀', '\u2028'), fc.integer({ min: 20_000, max: 100_000 }))
  .map(([c, n]) => c.repeat(n));
const json = fc.jsonValue({ maxDepth: 2 });
const smallJson = fc.jsonValue({ maxDepth: 1 });
const notString = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(smallJson, { maxLength: 4 }),
  fc.dictionary(fc.string(), smallJson, { maxKeys: 4 }),
);
const notObject = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), anyString, fc.array(smallJson, { maxLength: 4 }));
const oddKey = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', ' ', 'Verb', 'verb ', 'arguments'));
/** Keys a random object may carry without becoming part of the JSON-RPC envelope. */
const ENVELOPE = ['jsonrpc', 'id', 'method', 'params', 'result', 'error'];
const junkMembers = (exclude: string[], maxLength = 3) =>
  fc.array(fc.tuple(oddKey.filter((k) => !exclude.includes(k)), smallJson), { maxLength }).map((m) => m as [string, unknown][]);
const junkObject = (exclude: string[]) => junkMembers(exclude, 4).map((m) => withMembers({}, m));

const idForm: fc.Arbitrary<IdForm> = fc.oneof(
  fc.record({ type: fc.constant('string' as const), prefix: fc.oneof(fc.constant('fz'), fc.string({ unit: 'binary', maxLength: 8 })) }),
  fc.record({ type: fc.constant('number' as const), form: fc.constantFrom('pos' as const, 'neg' as const, 'mid' as const, 'big' as const) }),
);
const unusableId = fc.oneof(fc.constant(null), fc.boolean(), fc.array(smallJson, { maxLength: 3 }), fc.dictionary(fc.string(), smallJson, { maxKeys: 3 }));

/** Methods the server has a request handler for (the SDK registers no tasks/* handlers without a task store). */
const HANDLED = ['initialize', 'ping', 'tools/list', 'tools/call'];
const unknownMethod = fc.oneof(
  fc.constantFrom(
    'resources/list', 'resources/read', 'prompts/list', 'prompts/get', 'completion/complete', 'logging/setLevel',
    'sampling/createMessage', 'roots/list', 'elicitation/create', 'tasks/get', 'tasks/list', 'tasks/result', 'tasks/cancel',
    'tools/Call', 'TOOLS/LIST', 'tools/call ', ' ping', 'tools//call', 'tools/list/', 'tool/call', '', 'rpc.discover',
    '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'notifications/initialized', 'notifications/cancelled',
  ),
  anyString.filter((m) => !HANDLED.includes(m)),
);
const anyMethod = fc.oneof(fc.constantFrom(...HANDLED), unknownMethod);

const validArgs = fc.record({
  verb: fc.constantFrom(...KNOWN_VERBS),
  tense: fc.constantFrom(...TENSES),
  person: fc.constantFrom(...PERSONS),
});
/** A message a client could send; cut or pierced, it becomes malformed JSON. */
const plausibleText = fc
  .oneof(
    validArgs.map((a) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'conjugate', arguments: a } })),
    fc.constant({ jsonrpc: '2.0', id: 'x', method: 'ping' }),
    fc.constant({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    fc.record({ jsonrpc: fc.constant('2.0'), id: fc.integer(), method: anyMethod, params: junkObject(['_meta', 'task']) }),
  )
  .map((m) => JSON.stringify(m));

function nearMisses(values: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...values), fc.nat(7))
    .map(([v, k]) => [v.toUpperCase(), ` ${v}`, `${v} `, v.replace(' ', '-'), v.slice(0, -1), `${v}\u0000`, `${v}s`, v.replace(/e/g, '\u0435')][k]!);
}
function badValue(values: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: notString },
    { weight: 3, arbitrary: anyString },
    { weight: 3, arbitrary: nearMisses(values) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', '') },
    { weight: 1, arbitrary: hugeString },
  );
}
function argField(values: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...values) },
    { weight: 1, arbitrary: fc.constant(undefined) }, // JSON.stringify drops it: a missing parameter
    { weight: 4, arbitrary: badValue(values) },
  );
}
const ARG_NAMES = ['verb', 'tense', 'person'];
/** A bad or missing value of verb, tense or person. */
function aValueIsBad(args: Record<string, unknown>): boolean {
  const ok = (v: unknown, values: readonly string[]) => typeof v === 'string' && values.includes(v);
  return !ok(args.verb, KNOWN_VERBS) || !ok(args.tense, TENSES) || !ok(args.person, PERSONS);
}
/** Arguments with at least one bad or missing value (unknown keys may come along). */
const badArgs = fc
  .tuple(argField(KNOWN_VERBS), argField(TENSES), argField(PERSONS), junkMembers(ARG_NAMES, 2))
  .map(([verb, tense, person, extra]) => withMembers({ verb, tense, person }, extra))
  .filter((a) => aValueIsBad(JSON.parse(JSON.stringify(a)) as Record<string, unknown>));
/**
 * Good values and at least one unknown key. `__proto__` is not one: zod's copy of the arguments
 * leaves it out, so the server never sees it (see the __proto__ test in test/fuzz.test.ts).
 */
const unknownKeyArgs = fc
  .tuple(validArgs, junkMembers([...ARG_NAMES, '__proto__'], 2).filter((m) => m.length > 0))
  .map(([args, extra]) => withMembers({ ...args }, extra));
/** Params members the SDK ignores (CallToolRequestParamsSchema is not strict). */
const harmlessParamsMembers = junkMembers(['name', 'arguments', '_meta', 'task'], 2);

const reply = (...outcomes: Symbolic[]): Expect => ({ kind: 'reply', outcomes });
const NULL_PARSE: Expect = { kind: 'null', code: -32700 };
const NULL_INVALID: Expect = { kind: 'null', code: -32600 };
const NONE: Expect = { kind: 'none' };

function c(family: string, value: fc.Arbitrary<unknown>, expect: Expect, id?: fc.Arbitrary<IdForm>): fc.Arbitrary<Case> {
  return id ? fc.tuple(value, id).map(([v, form]) => ({ family, value: v, id: form, expect })) : value.map((v) => ({ family, value: v, expect }));
}
const call = (params: fc.Arbitrary<unknown>) => params.map((p) => ({ jsonrpc: '2.0', method: 'tools/call', ...(p === undefined ? {} : { params: p }) }));

const malformed: fc.Arbitrary<Case> = fc
  .oneof(
    fc.tuple(plausibleText, fc.nat()).map(([t, k]) => ({ family: 'json: truncated', raw: t.slice(0, 1 + (k % (t.length - 1))) })),
    fc
      .uint8Array({ minLength: 1, maxLength: 64 })
      .map((b) => ({ family: 'json: random bytes', raw: b.map((x) => (x === 10 ? 11 : x)) })),
    fc
      .tuple(plausibleText, fc.array(fc.tuple(fc.nat(), fc.constantFrom('{', '}', '[', ']')), { minLength: 1, maxLength: 3 }))
      .map(([t, ins]) => ({ family: 'json: unbalanced braces', raw: ins.reduce((s, [k, ch]) => { const at = k % (s.length + 1); return s.slice(0, at) + ch + s.slice(at); }, t) })),
    fc
      .constantFrom(
        "{'jsonrpc':'2.0','id':1,'method':'ping'}", '{jsonrpc:"2.0",id:1,method:"ping"}', '{"jsonrpc":"2.0","id":1,"method":"ping",}',
        '{"jsonrpc":"2.0","id":1}{"jsonrpc":"2.0","id":2}', 'NaN', 'Infinity', 'undefined', '// comment', '/* */ {}', '\u0000',
        '"unterminated', '[1,2', 'tru', 'nul', '{"a":"\u0001"}', '0x10', '01', '.5', '+1', '1e', '--1', '{"id":1,"method":"ping"', '}{',
        '\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}', '{"jsonrpc":"2.0","id":1,"method":"ping"}}', '[[[[[[[[[[', ']]]]', '{"a":\\u0041}',
      )
      .map((raw) => ({ family: 'json: known bad', raw })),
  )
  .filter((x) => isMalformedLine(x.raw))
  .map((x) => ({ ...x, expect: NULL_PARSE }));

const BAD: { weight: number; arbitrary: fc.Arbitrary<Case> }[] = [
  { weight: 14, arbitrary: malformed },
  // Valid JSON that is not an object: numbers, strings, null, arrays and batches.
  { weight: 3, arbitrary: c('not an object: scalar', notObject.filter((v) => !Array.isArray(v)), NULL_INVALID) },
  {
    weight: 3,
    arbitrary: c(
      'not an object: array or batch',
      fc.oneof(
        fc.array(smallJson, { maxLength: 4 }),
        fc.array(fc.record({ jsonrpc: fc.constant('2.0'), id: fc.string().map((s) => `batch:${s}`), method: anyMethod }), { minLength: 1, maxLength: 3 }),
        fc.array(validArgs.map((a) => ({ jsonrpc: '2.0', id: 'batch:call', method: 'tools/call', params: { name: 'conjugate', arguments: a } })), { minLength: 1, maxLength: 2 }),
      ),
      NULL_INVALID,
    ),
  },
  // Objects missing jsonrpc, id or method.
  {
    weight: 4,
    arbitrary: c(
      'missing/wrong jsonrpc',
      fc.tuple(fc.option(fc.oneof(notString, fc.constantFrom('1.0', '2', '2.0 ', ' 2.0', '3.0')), { nil: undefined }), anyMethod).map(([jsonrpc, method]) => ({ jsonrpc, method })),
      reply('-32600'),
      idForm,
    ),
  },
  { weight: 3, arbitrary: c('missing method', fc.option(junkObject(['_meta', 'task']), { nil: undefined }).map((params) => ({ jsonrpc: '2.0', params })), reply('-32600'), idForm) },
  {
    weight: 3,
    arbitrary: c(
      'no id, method not a string',
      fc.tuple(fc.option(notString, { nil: undefined }), fc.option(json, { nil: undefined })).map(([method, params]) => ({ jsonrpc: '2.0', method, params })),
      NULL_INVALID,
    ),
  },
  { weight: 2, arbitrary: c('object without envelope', junkObject(ENVELOPE), NULL_INVALID) },
  // Wrong types in every field of a request.
  { weight: 4, arbitrary: c('id unusable', fc.tuple(unusableId, anyMethod).map(([id, method]) => ({ jsonrpc: '2.0', id, method })), NULL_INVALID) },
  { weight: 1, arbitrary: c('id fractional', anyMethod.map((method) => ({ jsonrpc: '2.0', method })), reply('-32600'), fc.constant({ type: 'float' as const })) },
  { weight: 4, arbitrary: c('method not a string', notString.map((method) => ({ jsonrpc: '2.0', method })), reply('-32600'), idForm) },
  {
    weight: 5,
    arbitrary: c(
      'params not an object',
      fc.tuple(anyMethod, notObject.filter((p) => p === null || typeof p !== 'object' || Array.isArray(p))).map(([method, params]) => ({ jsonrpc: '2.0', method, params })),
      reply('-32600', '-32602'),
      idForm,
    ),
  },
  {
    weight: 3,
    arbitrary: c(
      'unknown top-level member',
      fc.tuple(anyMethod, junkMembers(['jsonrpc', 'id', 'method', 'params'], 2).filter((m) => m.length > 0)).map(([method, extra]) => withMembers({ jsonrpc: '2.0', method }, extra)),
      reply('-32600'),
      idForm,
    ),
  },
  // tools/call that is not a tools/call: no params, no name, arguments not an object.
  // A malformed tools/call never reaches a handler: the SDK's Protocol parses it with CallToolRequestSchema
  // first and answers -32603 with zod's issues, in every build (docs/sources.md, "Server builds").
  { weight: 2, arbitrary: c('tools/call: no params', call(fc.constant(undefined)), reply('-32603'), idForm) },
  {
    weight: 3,
    arbitrary: c(
      'tools/call: no or bad params.name',
      call(fc.tuple(fc.option(notString, { nil: undefined }), fc.option(validArgs, { nil: undefined })).map(([name, args]) => ({ name, arguments: args }))),
      reply('-32603'),
      idForm,
    ),
  },
  {
    weight: 5,
    arbitrary: c(
      'tools/call: arguments not an object',
      call(
        fc.tuple(fc.oneof(fc.array(smallJson, { maxLength: 3 }), anyString, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)), harmlessParamsMembers)
          .map(([args, extra]) => withMembers({ name: 'conjugate', arguments: args }, extra)),
      ),
      reply('-32603'),
      idForm,
    ),
  },
  {
    weight: 4,
    arbitrary: c(
      'tools/call: unknown tool',
      call(
        fc.tuple(
          fc.oneof(fc.constantFrom('Conjugate', 'conjugate ', ' conjugate', 'conjugat', '', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'tools/list'), anyString, hugeString).filter((n) => n !== 'conjugate'),
          fc.option(fc.oneof(validArgs, badArgs), { nil: undefined }),
        ).map(([name, args]) => ({ name, arguments: args })),
      ),
      reply('invalid-arguments'),
      idForm,
    ),
  },
  // Arguments with wrong types in every field, unknown keys, missing fields.
  {
    weight: 18,
    arbitrary: c(
      'tools/call: bad arguments',
      call(fc.tuple(fc.option(badArgs, { nil: undefined, freq: 12 }), harmlessParamsMembers).map(([args, extra]) => withMembers({ name: 'conjugate', arguments: args }, extra))),
      reply('invalid-arguments'),
      idForm,
    ),
  },
  // SDK 1.13 to 1.20 wrapped a raw shape in zod 3's z.object: unknown keys were stripped, not refused.
  { weight: 4, arbitrary: c('tools/call: unknown keys', call(unknownKeyArgs.map((args) => ({ name: 'conjugate', arguments: args }))), reply('unknown-keys'), idForm) },
  // Unknown methods.
  {
    weight: 6,
    arbitrary: c('unknown method', fc.tuple(unknownMethod, fc.option(junkObject(['_meta', 'task']), { nil: undefined })).map(([method, params]) => ({ jsonrpc: '2.0', method, params })), reply('-32601'), idForm),
  },
  // Known methods with params of the wrong shape; the SDK decides the code.
  {
    weight: 4,
    arbitrary: c(
      'known method, garbage params',
      fc.oneof(
        fc.tuple(fc.constantFrom('initialize', 'ping', 'tools/list'), junkObject(['_meta', 'task']), fc.option(notString, { nil: undefined }), fc.constantFrom('protocolVersion', 'capabilities', 'clientInfo', 'cursor'))
          .map(([method, params, v, k]) => ({ jsonrpc: '2.0', method, params: withMembers(params, v === undefined ? [] : [[k, v]]) })),
        fc.tuple(fc.constantFrom('_meta', 'task'), json, validArgs).map(([k, v, a]) => ({ jsonrpc: '2.0', method: 'tools/call', params: withMembers({ name: 'conjugate', arguments: a }, [[k, v]]) })),
        fc.tuple(fc.constantFrom('initialize', 'ping', 'tools/list', 'tools/call'), json).map(([method, v]) => ({ jsonrpc: '2.0', method, params: { _meta: v } })),
      ),
      reply(...ANY),
      idForm,
    ),
  },
  // Notifications with garbage: never answered. Cancellations name ids no request ever has.
  {
    weight: 7,
    arbitrary: c(
      'notification with garbage',
      fc.oneof(
        fc.tuple(
          fc.constantFrom('notifications/initialized', 'notifications/progress', 'notifications/roots/list_changed', 'notifications/message', 'tools/call', 'ping', 'initialize'),
          fc.option(json, { nil: undefined }),
          fc.option(fc.oneof(fc.constant('2.0'), notString), { nil: undefined }),
        ).map(([method, params, jsonrpc]) => ({ jsonrpc, method, params })),
        fc.tuple(unknownMethod.filter((m) => m !== 'notifications/cancelled'), fc.option(json, { nil: undefined })).map(([method, params]) => ({ jsonrpc: '2.0', method, params })),
        fc.tuple(fc.oneof(fc.string().map((s) => `never:${s}`), fc.constant(-(2 ** 40)), notString.filter((v) => typeof v !== 'number')), fc.option(json, { nil: undefined }))
          .map(([requestId, reason]) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason } })),
      ),
      NONE,
    ),
  },
  // Responses to requests the server never sent.
  {
    weight: 4,
    arbitrary: c(
      'response with unknown id',
      fc.oneof(
        json.map((result) => ({ jsonrpc: '2.0', result })),
        fc.record({ code: fc.integer(), message: fc.string() }).map((error) => ({ jsonrpc: '2.0', error })),
        json.map((error) => ({ jsonrpc: '2.0', error })),
        fc.constant({ jsonrpc: '2.0', result: {}, error: { code: 1, message: 'both' } }),
      ),
      { kind: 'maybe', outcomes: ['-32600'] },
      idForm,
    ),
  },
  { weight: 1, arbitrary: c('response without id, valid error', fc.record({ code: fc.integer(), message: fc.string() }).map((error) => ({ jsonrpc: '2.0', error })), NONE) },
  { weight: 1, arbitrary: c('response without id, result', json.map((result) => ({ jsonrpc: '2.0', result })), NULL_INVALID) },
];

const badCase = fc.oneof(...BAD);
const validCall: fc.Arbitrary<Case> = fc.tuple(validArgs, idForm).map(([a, form]) => ({
  family: 'valid call',
  value: { jsonrpc: '2.0', method: 'tools/call', params: { name: 'conjugate', arguments: a } },
  id: form,
  expect: reply('result'),
  text: conjugate(principalPartsOf(a.verb), a.tense, a.person),
}));
/** BATCH bad messages with a few valid calls slipped in: the server must keep serving in between. */
export const batchArb = fc
  .tuple(fc.array(badCase, { minLength: BATCH, maxLength: BATCH }), fc.array(fc.tuple(validCall, fc.nat()), { minLength: 1, maxLength: 4 }))
  .map(([bad, valid]) => {
    const all = [...bad];
    for (const [v, at] of valid) all.splice(at % (all.length + 1), 0, v);
    return all;
  });
