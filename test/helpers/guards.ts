/**
 * Shared by the guards tests (test/guards.test.ts, test/guards-known.test.ts):
 * the real bundled baseline server and the contract it was built with, copies
 * of that contract in temporary folders (workdir), and one real tools/list to
 * mutate by hand (tools, conjugate, judge).
 *
 * Each test file registers the hooks at its top level, covering all its tests:
 * beforeAll(makeRoot), afterAll(removeRoot) for workdir, and
 * beforeAll(readPublished) for tools and judge.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { checkPublished, listTools } from '../../src/contract/check.js';
import { loadContract } from '../../src/contract/contract.js';
import type { ContractOperation } from '../../src/contract/rules.js';
import { contractOf } from '../../src/lab/variants.js';
import { SERVER_JS } from './server.js';

export const SERVER = { command: process.execPath, args: [SERVER_JS] };
/** The contract the bundled server was built with. */
export const CONTRACT = contractOf(SERVER_JS);

export type Json = Record<string, any>;
export type Published = { name: string; inputSchema: Json };

/** Violations reduced to what the tests pin down: rule, tool, pointer; sorted. */
export function found(violations: { rule: string; tool: string; path: string }[]): string[] {
  return violations.map((v) => `${v.rule} ${v.tool} ${v.path}`).sort();
}

let root: string;
let cases = 0;
/** For beforeAll: the temporary folder workdir makes its cases in. */
export function makeRoot(): void {
  root = mkdtempSync(join(tmpdir(), 'schema-breaks-guards-'));
}
/** For afterAll: removes that folder. */
export function removeRoot(): void {
  rmSync(root, { recursive: true, force: true });
}

/** The conjugate operation's request schema inside a contract document. */
export const conjugateOf = (contract: Json): Json => contract.paths['/conjugate'].post.requestBody.content['application/json'].schema;

/**
 * A fresh folder with a copy of the server's contract, changed by `edit`, and,
 * when `known` is given, a known-violations list beside it (an object is
 * written as JSON, a string as is).
 */
export function workdir(edit?: (contract: Json) => void, known?: unknown): { dir: string; contract: string; known: string } {
  const dir = join(root, `case-${++cases}`);
  mkdirSync(dir);
  const contract = JSON.parse(readFileSync(CONTRACT, 'utf8')) as Json;
  edit?.(contract);
  writeFileSync(join(dir, 'tutor-api.json'), JSON.stringify(contract, null, 2));
  if (known !== undefined) writeFileSync(join(dir, 'known-violations.json'), typeof known === 'string' ? known : JSON.stringify(known, null, 2));
  return { dir, contract: join(dir, 'tutor-api.json'), known: join(dir, 'known-violations.json') };
}

/** The contract edit most cases use: person is an integer, so the real server's string person violates it. */
export const personIsInteger = (contract: Json) => {
  conjugateOf(contract).properties.person = { type: 'integer' };
};

// One real tools/list, to mutate by hand.
let published: Published[];
let operations: ContractOperation[];
export const tools = (): Published[] => structuredClone(published);
export const conjugate = (ts: Published[]): Json => ts.find((t) => t.name === 'conjugate')!.inputSchema;
export const judge = (ts: Published[], entries: Parameters<typeof checkPublished>[2] = []) => checkPublished(ts as Pick<Tool, 'name' | 'inputSchema'>[], operations, entries);

/** For beforeAll: reads the real tools/list and the contract's operations. */
export async function readPublished(): Promise<void> {
  published = (await listTools(SERVER)) as Published[];
  operations = loadContract(CONTRACT);
  if (!published.some((t) => t.name === 'conjugate')) throw new Error('the server does not publish conjugate');
}
