/**
 * The schema contract's messages, in English (src/contract/: each violation a
 * rule finds, `npm run check` and `npm run lint` print them). Apart from en.ts
 * so that neither file outgrows one screen's reading; en.ts takes them in, so
 * their ids are ids like any other. `contract.` ids, filled in by `t()`.
 */
import type { Message } from './types.js';

export const enContract = {
  'contract.structuralUnion':
    '{keyword} with {structured} structured branches (of {branches}); hosts either refuse it (Gemini) or keep only the first branch (Langflow). Use one object with optional fields, separate parameters, or a permissive schema with server-side dispatch.',
  'contract.rootNotObject': 'the root must be type "object" (got {got})',
  'contract.schemaDialect':
    'the schema says it is written in {named}: a host compiles it with its own validator, and one that cannot load that dialect loses the tool (VS Code leaves it out; gemini-cli fails its first call). Publish draft-07, or no "$schema" (zod 4: z.toJSONSchema(schema, { target: "draft-7" })).',
  'contract.noParameters':
    'publishes no parameters, but the contract has {wanted}: clients cannot see what the tool needs (a root transform, pipe or union publishes {"type":"object","properties":{}})',
  'contract.parameterNotPublished': 'parameter "{name}" of the contract is not published',
  'contract.parameterType': 'parameter "{name}" is published as {got}, the contract says {want}',
  'contract.parameterNotInContract': 'parameter "{name}" is published but is not in the contract',
  'contract.parameterNotRequired': 'parameter "{name}" is needed by the contract but missing from "required": a call without it passes validation and fails inside the tool',
  'contract.untaughtShape':
    '{found} at {path}: the contract checker was not taught this shape, so rules 1 to 3 cannot vouch for it. Teach it to the checker in src/contract/rules.ts (TAUGHT_SHAPES, and how typeOf and findStructuralUnions read it), or publish a shape it knows: {shapes}.',
  'contract.ranTheToolRpc': 'a call with none of {required} ran the tool instead of being refused; the server answered JSON-RPC {code}: {answer}',
  'contract.ranTheToolIsError': 'a call with none of {required} ran the tool instead of being refused; the server answered an isError result: {answer}',
  'contract.ranTheToolResult': 'a call with none of {required} ran the tool instead of being refused; the server answered a result: {answer}',
  'contract.outputNoExample': 'tool "{tool}" publishes an outputSchema, and the contract gives no example call to check its results with: add the request body\'s "example" to the contract',
  'contract.outputRefused': 'the contract\'s example call was refused by the client, JSON-RPC {code}: {answer}. A tool that publishes an outputSchema must return structuredContent that fits it.',
  'contract.outputIsError': 'the contract\'s example call came back as an isError result: {answer}. A tool that publishes an outputSchema must return structuredContent that fits it.',
  'contract.outputMissing': 'the contract\'s example call came back without structuredContent, which a client that checks the outputSchema refuses',
  'contract.toolTwice': 'tool "{tool}" is published more than once: a client keeps one of them, and which one is not said',
  'contract.toolNotInContract': 'tool "{tool}" is not in the contract',
  'contract.toolNotPublished': 'the contract has "{tool}" but the server does not publish it',
  'contract.nameCharacters': 'tool name "{tool}" has a character outside A-Z a-z 0-9 _ -: MCP allows it, the OpenAI and Anthropic APIs refuse the whole request over it',
  'contract.nameTooLong':
    'tool name "{tool}" becomes "{prefixed}" in Claude Code, {length} characters: the Anthropic API took at most {max} and refused the whole request, every tool lost. Name the tool so that the prefix still fits.',
  'contract.descriptionTooLong':
    'the description has {length} characters: OpenAI function calling takes at most {max} and refuses the whole request, every tool lost. Say what the tool does and when to use it; move a usage guide into the parameters\' own descriptions.',
  'contract.knownFixed':
    '{list} lists a violation of tool "{tool}" at {path} ({issue}), but there is none there any more. Remove that entry (tool "{tool}", path "{path}", issue {issue}) from {list}, so that the fault cannot come back unnoticed.',
  'contract.knownFixedRule':
    '{list} lists a {rule} violation of tool "{tool}" at {path} ({issue}), but there is none there any more. Remove that entry (tool "{tool}", path "{path}", issue {issue}) from {list}, so that the fault cannot come back unnoticed.',
} satisfies Record<string, Message>;

export type ContractMessageId = keyof typeof enContract;
