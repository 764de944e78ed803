/**
 * Reads the contract document (contract/tutor-api.json). A missing or
 * unreadable contract is an error, never an empty comparison: a checker that
 * compares against nothing would pass everything.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ContractOperation } from './rules.js';
import { UserError } from '../core/user-error.js';

export const DEFAULT_CONTRACT = fileURLToPath(new URL('../../contract/tutor-api.json', import.meta.url));

export class ContractError extends UserError {}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

export function loadContract(file = DEFAULT_CONTRACT): ContractOperation[] {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ContractError(`cannot read the contract ${file}: ${(error as Error).message}`);
  }
  if (!isObject(document) || !isObject(document.paths)) throw new ContractError(`the contract ${file} has no "paths"`);
  const operations: ContractOperation[] = [];
  for (const [route, methods] of Object.entries(document.paths)) {
    if (!isObject(methods)) throw new ContractError(`contract path ${route} is not an object`);
    for (const [method, op] of Object.entries(methods)) {
      const schema = isObject(op) ? (op as any).requestBody?.content?.['application/json']?.schema : undefined;
      if (!isObject(op) || typeof op.operationId !== 'string' || !isObject(schema) || !isObject(schema.properties)) {
        throw new ContractError(`contract ${method.toUpperCase()} ${route} needs an operationId and a JSON request body schema with properties`);
      }
      const parameters: ContractOperation['parameters'] = {};
      for (const [name, p] of Object.entries(schema.properties)) {
        if (!isObject(p) || typeof p.type !== 'string') throw new ContractError(`contract ${op.operationId}.${name} needs a "type"`);
        parameters[name] = { type: p.type };
      }
      const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
      // OpenAPI's `example` of the request body: the call rule 8 (structured-output) makes to a tool that publishes an outputSchema.
      const example: unknown = (op as any).requestBody?.content?.['application/json']?.example;
      if (example !== undefined && !isObject(example)) throw new ContractError(`contract ${op.operationId}: the request body's "example" must be an object of arguments`);
      // Tools are matched to operations by name: two operations of one name would leave one unchecked.
      if (operations.some((o) => o.operationId === op.operationId)) throw new ContractError(`the contract ${file} has two operations named "${op.operationId}"`);
      operations.push({ operationId: op.operationId, parameters, required, ...(example !== undefined ? { example } : {}) });
    }
  }
  if (operations.length === 0) throw new ContractError(`the contract ${file} describes no operation`);
  return operations;
}
