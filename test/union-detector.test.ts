/**
 * Rule 1 (no-structural-union) on its own: `findStructuralUnions` against
 * JSON Schemas written by hand, for every forbidden and allowed shape.
 * Every schema is a literal below and every expected JSON Pointer is typed out
 * by hand; nothing is produced by zod or by the code under test.
 */
import { describe, expect, it } from 'vitest';
import { findStructuralUnions, isStructuredBranch, typeOf } from '../src/contract/rules.js';

type Schema = Record<string, unknown>;

// Building blocks, each a hand-written literal.
const OBJ_A: Schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
const OBJ_B: Schema = { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] };
/** anyOf of two objects: the canonical forbidden union. */
const ANY_TWO_OBJECTS: Schema = { anyOf: [OBJ_A, OBJ_B] };
/** oneOf of two objects. */
const ONE_TWO_OBJECTS: Schema = { oneOf: [OBJ_A, OBJ_B] };

/** The pointers found, sorted, so that a case does not depend on traversal order. */
function paths(schema: unknown, prefix?: string): string[] {
  return findStructuralUnions(schema, prefix)
    .map((u) => u.path)
    .sort();
}

describe('findStructuralUnions: forbidden shapes are found, at the right pointer', () => {
  const FORBIDDEN: [name: string, schema: unknown, expected: string[]][] = [
    // --- at the root of the schema given ---
    ['anyOf of two objects', { anyOf: [OBJ_A, OBJ_B] }, ['/anyOf']],
    ['oneOf of two objects', { oneOf: [OBJ_A, OBJ_B] }, ['/oneOf']],
    ['anyOf of an object and an array (array-or-object)', { anyOf: [OBJ_A, { type: 'array', items: { type: 'string' } }] }, ['/anyOf']],
    ['oneOf of an array and an array', { oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'array', items: { type: 'number' } }] }, ['/oneOf']],
    ['a branch with properties but no type (beside a typed object)', { anyOf: [OBJ_A, { properties: { b: { type: 'number' } } }] }, ['/anyOf']],
    ['two branches with properties and no type at all', { anyOf: [{ properties: { a: { type: 'string' } } }, { properties: { b: { type: 'number' } } }] }, ['/anyOf']],
    ['a branch with items but no type (beside a typed object)', { anyOf: [OBJ_A, { items: { type: 'string' } }] }, ['/anyOf']],
    ['a branch typed ["object","null"] beside an array', { anyOf: [{ type: ['object', 'null'] }, { type: 'array' }] }, ['/anyOf']],
    ['two $ref branches (a $ref counts as structured)', { anyOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }] }, ['/anyOf']],
    ['two objects among scalars', { anyOf: [{ type: 'string' }, OBJ_A, { type: 'null' }, OBJ_B] }, ['/anyOf']],
    ['anyOf and oneOf side by side, both with two objects', { anyOf: [OBJ_A, OBJ_B], oneOf: [OBJ_A, OBJ_B] }, ['/anyOf', '/oneOf']],

    // --- nested ---
    ['under properties.x', { type: 'object', properties: { x: ANY_TWO_OBJECTS } }, ['/properties/x/anyOf']],
    ['oneOf under properties.verb', { type: 'object', properties: { verb: ONE_TWO_OBJECTS } }, ['/properties/verb/oneOf']],
    ['under items (object form)', { type: 'array', items: ANY_TWO_OBJECTS }, ['/items/anyOf']],
    ['under items (draft-07 array form), second position', { type: 'array', items: [{ type: 'string' }, ANY_TWO_OBJECTS] }, ['/items/1/anyOf']],
    ['under items (draft-07 array form), first position', { type: 'array', items: [ONE_TWO_OBJECTS] }, ['/items/0/oneOf']],
    ['under prefixItems', { type: 'array', prefixItems: [{ type: 'string' }, ANY_TWO_OBJECTS] }, ['/prefixItems/1/anyOf']],
    [
      'nested properties.a.properties.b',
      { type: 'object', properties: { a: { type: 'object', properties: { b: ANY_TWO_OBJECTS } } } },
      ['/properties/a/properties/b/anyOf'],
    ],
    ['under additionalProperties', { type: 'object', additionalProperties: ANY_TWO_OBJECTS }, ['/additionalProperties/anyOf']],
    ['under patternProperties', { type: 'object', patternProperties: { '^x-': ANY_TWO_OBJECTS } }, ['/patternProperties/^x-/anyOf']],
    [
      'inside an allOf branch',
      { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { v: ANY_TWO_OBJECTS } }] },
      ['/allOf/1/properties/v/anyOf'],
    ],
    ['an allOf branch that is itself the union', { allOf: [ONE_TWO_OBJECTS] }, ['/allOf/0/oneOf']],
    [
      'under $defs (reached through a $ref)',
      { type: 'object', properties: { verb: { $ref: '#/$defs/Verb' } }, $defs: { Verb: ONE_TWO_OBJECTS } },
      ['/$defs/Verb/oneOf'],
    ],
    [
      'under definitions (draft-07)',
      { type: 'object', properties: { verb: { $ref: '#/definitions/Verb' } }, definitions: { Verb: ANY_TWO_OBJECTS } },
      ['/definitions/Verb/anyOf'],
    ],
    ['a union inside a union branch (the outer one has only one structured branch)', { anyOf: [{ type: 'string' }, { anyOf: [OBJ_A, OBJ_B] }] }, ['/anyOf/1/anyOf']],
    [
      'a union inside a union branch, the outer one forbidden too',
      { oneOf: [{ anyOf: [OBJ_A, OBJ_B] }, OBJ_B] },
      ['/oneOf', '/oneOf/0/anyOf'],
    ],
    ['a union inside a branch object of a union', { anyOf: [{ type: 'null' }, { type: 'object', properties: { p: ANY_TWO_OBJECTS } }] }, ['/anyOf/1/properties/p/anyOf']],
    ['under not', { not: ANY_TWO_OBJECTS }, ['/not/anyOf']],
    ['under if / then / else', { if: ANY_TWO_OBJECTS, then: ONE_TWO_OBJECTS, else: ANY_TWO_OBJECTS }, ['/else/anyOf', '/if/anyOf', '/then/oneOf']],
    [
      'two unions at two depths',
      { type: 'object', properties: { x: ANY_TWO_OBJECTS, list: { type: 'array', items: ONE_TWO_OBJECTS } } },
      ['/properties/list/items/oneOf', '/properties/x/anyOf'],
    ],
    // RFC 6901: "/" is written "~1" and "~" is written "~0" in a pointer segment.
    ['a property name with "/" is escaped as ~1', { type: 'object', properties: { 'a/b': ANY_TWO_OBJECTS } }, ['/properties/a~1b/anyOf']],
    ['a property name with "~" is escaped as ~0', { type: 'object', properties: { 'a~b': ANY_TWO_OBJECTS } }, ['/properties/a~0b/anyOf']],
  ];

  it.each(FORBIDDEN)('%s', (_name, schema, expected) => {
    expect(paths(schema)).toEqual(expected);
  });

  it('prefixes every pointer with the path it is given', () => {
    const schema = { type: 'object', properties: { verb: ANY_TWO_OBJECTS } };
    expect(paths(schema, '/inputSchema')).toEqual(['/inputSchema/properties/verb/anyOf']);
    expect(paths({ type: 'array', items: ANY_TWO_OBJECTS }, '/inputSchema')).toEqual(['/inputSchema/items/anyOf']);
    expect(paths({ $defs: { Verb: ONE_TWO_OBJECTS } }, '/inputSchema')).toEqual(['/inputSchema/$defs/Verb/oneOf']);
  });

  it('counts the structured branches and all branches', () => {
    expect(findStructuralUnions({ anyOf: [OBJ_A, { type: 'string' }, OBJ_B, { type: 'null' }] })).toEqual([
      { path: '/anyOf', structured: 2, branches: 4 },
    ]);
    expect(findStructuralUnions({ oneOf: [OBJ_A, { type: 'array' }, OBJ_B] })).toEqual([{ path: '/oneOf', structured: 3, branches: 3 }]);
  });
});

describe('findStructuralUnions: allowed shapes give []', () => {
  const ALLOWED: [name: string, schema: unknown][] = [
    ['a union of scalars', { anyOf: [{ type: 'string' }, { type: 'number' }] }],
    ['a oneOf of scalars', { oneOf: [{ type: 'string', enum: ['a'] }, { type: 'integer' }, { type: 'boolean' }] }],
    ['a type array of scalars', { type: ['string', 'number'] }],
    ['a type array with object (one schema, not a union)', { type: ['object', 'null'], properties: { a: { type: 'string' } } }],
    ['one structured branch plus scalars', { anyOf: [OBJ_A, { type: 'string' }, { type: 'number' }] }],
    ['one array branch plus scalars', { oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] }],
    ['a branch plus {type:"null"}', { anyOf: [OBJ_A, { type: 'null' }] }],
    ['an enum', { type: 'string', enum: ['be', 'have', 'do'] }],
    ['an enum with no type', { enum: ['be', 'have', 'do'] }],
    ['a const', { const: 'be' }],
    ['the empty schema', {}],
    ['a plain object with scalar properties', { type: 'object', properties: { verb: { type: 'string' }, n: { type: 'integer' } }, required: ['verb'] }],
    [
      'plain nested objects and arrays',
      {
        type: 'object',
        properties: {
          a: { type: 'object', properties: { b: { type: 'object', properties: { c: { type: 'string' } } } } },
          list: { type: 'array', items: { type: 'object', properties: { d: { type: 'number' } } } },
        },
        additionalProperties: false,
      },
    ],
    ['allOf of two objects (an intersection, not a union)', { allOf: [OBJ_A, OBJ_B] }],
    ['nullable properties nested', { type: 'object', properties: { x: { anyOf: [OBJ_A, { type: 'null' }] }, y: { anyOf: [{ type: 'string' }, { type: 'null' }] } } }],
    ['$defs holding plain objects', { $defs: { A: OBJ_A, B: OBJ_B }, type: 'object', properties: { a: { $ref: '#/$defs/A' } } }],
    ['anyOf with a single object branch', { anyOf: [OBJ_A] }],
    ['an empty anyOf', { anyOf: [] }],
    ['the boolean schema true', true],
    ['null', null],
    ['an array (not a schema)', [OBJ_A, OBJ_B]],
  ];

  it.each(ALLOWED)('%s', (_name, schema) => {
    expect(findStructuralUnions(schema)).toEqual([]);
  });

  it('the conjugate tool as it is published (hand-copied) has no union', () => {
    const published = {
      type: 'object',
      properties: {
        verb: { type: 'string', enum: ['be', 'have', 'do'], description: 'The verb, in its base form.' },
        tense: { type: 'string', enum: ['infinitive', 'simple present'] },
        person: { type: 'string', enum: ['1st singular', '3rd plural'] },
      },
      required: ['verb', 'tense', 'person'],
      $schema: 'http://json-schema.org/draft-07/schema#',
      additionalProperties: false,
    };
    expect(findStructuralUnions(published, '/inputSchema')).toEqual([]);
  });
});

describe('isStructuredBranch', () => {
  const CASES: [name: string, branch: unknown, expected: boolean][] = [
    ['type object', { type: 'object' }, true],
    ['type array', { type: 'array' }, true],
    ['type ["object","null"]', { type: ['object', 'null'] }, true],
    ['type ["string","array"]', { type: ['string', 'array'] }, true],
    ['properties and no type', { properties: {} }, true],
    ['items and no type', { items: { type: 'string' } }, true],
    ['prefixItems and no type', { prefixItems: [] }, true],
    ['additionalProperties and no type', { additionalProperties: false }, true],
    ['a $ref', { $ref: '#/$defs/X' }, true],
    ['type string', { type: 'string' }, false],
    ['type null', { type: 'null' }, false],
    ['type ["string","number"]', { type: ['string', 'number'] }, false],
    ['an explicit scalar type wins over stray properties', { type: 'string', properties: { a: {} } }, false],
    ['an enum', { enum: ['a', 'b'] }, false],
    ['the empty schema', {}, false],
    ['true', true, false],
    ['null', null, false],
  ];
  it.each(CASES)('%s -> %s', (_name, branch, expected) => {
    expect(isStructuredBranch(branch)).toBe(expected);
  });
});

describe('typeOf', () => {
  it('reads a single type as that word', () => {
    expect(typeOf({ type: 'string' })).toBe('string');
    expect(typeOf({ type: 'integer', minimum: 1 })).toBe('integer');
    expect(typeOf({ type: 'object', properties: {} })).toBe('object');
    expect(typeOf({ type: 'string', enum: ['a', 'b'] })).toBe('string');
  });

  it('reads an enum or a const by the JSON types of its values', () => {
    expect(typeOf({ enum: ['be', 'have'] })).toBe('string');
    expect(typeOf({ enum: [1, 2, 3] })).toBe('number');
    expect(typeOf({ const: 'be' })).toBe('string');
    expect(typeOf({ const: 3 })).toBe('number');
    expect(typeOf({ const: true })).toBe('boolean');
    expect(typeOf({ const: null })).toBe('null');
  });

  it('a union of scalars of one type is that type', () => {
    expect(typeOf({ anyOf: [{ type: 'string', enum: ['a'] }, { type: 'string' }] })).toBe('string');
    expect(typeOf({ oneOf: [{ const: 'a' }, { const: 'b' }] })).toBe('string');
  });

  it('a nullable scalar reads the same whichever way it is written', () => {
    const canonical = typeOf({ type: ['string', 'null'] });
    expect(canonical).not.toBe('string');
    expect(canonical.split('|').sort()).toEqual(['null', 'string']);
    expect(typeOf({ type: ['null', 'string'] })).toBe(canonical);
    expect(typeOf({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe(canonical);
    expect(typeOf({ anyOf: [{ type: 'null' }, { type: 'string' }] })).toBe(canonical);
    expect(typeOf({ enum: ['a', null] })).toBe(canonical);
  });

  it('a structural union is spelt out, so it never equals a contract type', () => {
    expect(typeOf({ anyOf: [{ type: 'object' }, { type: 'object' }] })).toBe('anyOf(object|object)');
    expect(typeOf({ oneOf: [{ type: 'object' }, { type: 'array' }] })).toBe('oneOf(object|array)');
  });

  it('properties with no type read as object; nothing at all reads as any', () => {
    expect(typeOf({ properties: { a: { type: 'string' } } })).toBe('object');
    expect(typeOf({})).toBe('any');
    expect(typeOf({ description: 'anything' })).toBe('any');
    expect(typeOf(undefined)).toBe('any');
    expect(typeOf(true)).toBe('any');
    expect(typeOf(null)).toBe('any');
  });
});
