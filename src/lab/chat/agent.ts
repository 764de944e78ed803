/**
 * The agent loop with a real model behind an OpenAI-compatible endpoint: the
 * same policy as the stand-in's loop (src/lab/agent.ts, the OpenAI Agents
 * SDK's defaults at v0.22.0; docs/sources.md, "The agent"), with the model's
 * decisions coming from the endpoint instead of src/lab/model.ts.
 *
 * One request is one conversation. The model is given the request's words,
 * the tools exactly as the host profile shows them, and each tool's output as
 * the SDK words it (`toolOutput`); it decides what to call and when to stop.
 * - A model call is a turn; at most `maxTurns` (10). A run that has not
 *   answered by then ends `max-turns`, as MaxTurnsExceeded does.
 * - Several tool calls in one answer run one after the other, each an attempt.
 * - Arguments that are not JSON, or not a JSON object, go back to the model
 *   with the SDK's words for it (default_tool_error_function: "An error
 *   occurred while parsing tool arguments. Please try again with valid JSON.
 *   Error: ...", src/agents/tool.py and mcp/util.py); nothing is sent.
 * - A call to a tool the host did not show ends the run: the SDK's default
 *   `tool_not_found_behavior` is "raise_error" (ModelBehaviorError "Tool X not
 *   found in agent ...", src/agents/run_config.py): outcome `model-error`.
 * - An answer with no tool call is the model's final answer: before any call,
 *   the request ends `no-call`; after calls, as the last attempt ended.
 * - An endpoint that fails a request for good (after its 429/5xx retries, or
 *   past its timeout) ends that request `model-error`.
 */
import type { CallOutcome, ServerConnection } from '../connection.js';
import { missingConcepts } from '../intent.js';
import type { ClientProfile } from '../profiles/index.js';
import type { Intent, LessonRequest, ProfileEdit, SeenTool, ToolIntent, TutorRequest } from '../types.js';
import { editEffect, parseProfile, toolOutput, TOOL_NAME, type Attempt, type CallRecord, type HostView } from '../agent.js';
import { EndpointError, type ChatMessage, type ChatRequest, type ChatTool, type ChatTransport } from './endpoint.js';

/**
 * The agent's instructions, the system message of every conversation. The
 * kit's own words: a host's agent has some such instructions, and these say
 * no more than the tools do.
 */
export const INSTRUCTIONS = "You are the assistant of an English grammar tutor. Use the tutor's tools to answer the user's request, then answer the user briefly.";

/** The SDK's words for arguments that are not JSON (default_tool_error_function). */
export const INVALID_JSON_PREFIX = 'An error occurred while parsing tool arguments. Please try again with valid JSON. Error: ';

export interface ChatModel {
  transport: ChatTransport;
  /** The model's name at the endpoint (`--model-name`). */
  name: string;
  temperature: number;
  maxTurns: number;
}

/** What one request's conversation used of the endpoint. */
export interface ChatUsage {
  /** Completions asked for. */
  requests: number;
  /** 429/5xx answers retried on the way (not the agent's retries). */
  httpRetries: number;
}

/** The tools as function tools: name, description and the schema as the host shows it to its model. */
export function chatTools(tools: SeenTool[]): ChatTool[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.inputSchema } }));
}

interface Conversation {
  attempts: Attempt[];
  final: string;
  /** The text of the last ok answer of the request's own tool. */
  answer?: string;
  /** The arguments of the first call of the request's own tool. */
  firstArgs?: Record<string, unknown>;
}

async function converse(prompt: string, tool: string, view: HostView, profile: ClientProfile, server: ServerConnection, model: ChatModel, seed: number, usage: ChatUsage): Promise<Conversation> {
  const attempts: Attempt[] = [];
  if ('unreachable' in view) return { attempts: [{ label: view.unreachable, text: view.reason }], final: view.unreachable };
  if ('rejected' in view) return { attempts: [{ label: 'client-rejected', text: view.rejected }], final: 'client-rejected' };

  const tools = chatTools(view.tools);
  const messages: ChatMessage[] = [
    { role: 'system', content: INSTRUCTIONS },
    { role: 'user', content: prompt },
  ];
  let answer: string | undefined;
  let firstArgs: Record<string, unknown> | undefined;
  const last = () => attempts.at(-1)?.label;
  for (let turn = 1; ; turn++) {
    if (turn > model.maxTurns) return { attempts, final: 'max-turns', answer, firstArgs };
    const request: ChatRequest = { model: model.name, messages: structuredClone(messages), tools, tool_choice: 'auto', temperature: model.temperature, seed };
    let got;
    try {
      got = await model.transport.send(request);
    } catch (error) {
      if (!(error instanceof EndpointError)) throw error;
      usage.requests++;
      usage.httpRetries += error.retries;
      attempts.push({ label: 'model-error', text: error.message });
      return { attempts, final: 'model-error', answer, firstArgs };
    }
    usage.requests++;
    usage.httpRetries += got.retries;
    const { content, toolCalls } = got.answer;
    if (toolCalls.length === 0) {
      // The model's final answer.
      if (attempts.length === 0) attempts.push({ label: 'no-call', text: content ?? '' });
      return { attempts, final: last() ?? 'no-call', answer, firstArgs };
    }
    messages.push({ role: 'assistant', content, tool_calls: toolCalls });
    for (const call of toolCalls) {
      const name = call.function.name;
      const shown = view.tools.find((t) => t.name === name);
      if (!shown) {
        attempts.push({ tool: name, label: 'model-error', text: `Tool ${name} not found in agent tutor` });
        return { attempts, final: 'model-error', answer, firstArgs };
      }
      let output: string;
      const parsed = parseArguments(call.function.arguments, name);
      if (!parsed.ok) {
        attempts.push({ tool: name, label: 'client-invalid', text: parsed.output });
        output = parsed.output;
      } else {
        if (name === tool) firstArgs ??= parsed.args;
        const checked = await profile.validate(shown, parsed.args);
        if (!checked.ok) {
          attempts.push({ tool: name, label: 'client-invalid', args: parsed.args, text: checked.error });
          output = checked.error;
        } else {
          const outcome: CallOutcome = await server.call(name, checked.args);
          attempts.push({ tool: name, label: outcome.label, args: checked.args, text: outcome.text, latencyMs: outcome.latencyMs });
          if (outcome.label === 'ok' && name === tool) answer = outcome.text;
          output = toolOutput(outcome, name);
        }
      }
      messages.push({ role: 'tool', tool_call_id: call.id, content: output });
    }
  }
}

/** The model's arguments, parsed as the SDK parses them (invoke_mcp_tool: json.loads, then a JSON object is required). */
function parseArguments(text: string, tool: string): { ok: true; args: Record<string, unknown> } | { ok: false; output: string } {
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    return { ok: false, output: `${INVALID_JSON_PREFIX}${(error as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, output: `An error occurred while running the tool. Please try again. Error: Invalid JSON input for tool ${tool}: expected a JSON object` };
  }
  return { ok: true, args: value as Record<string, unknown> };
}

function record(request: TutorRequest | LessonRequest, c: Conversation, intent: Intent | ToolIntent): CallRecord {
  // Concepts the first call of the request's own tool left out (all of them when it never called it).
  const missing = c.attempts.some((a) => a.args) ? missingConcepts(c.firstArgs ?? {}, intent) : [];
  return { request, attempts: c.attempts, final: c.final, answer: c.final === 'ok' ? c.answer : undefined, missing };
}

/** A conjugation request, one conversation. */
export async function runChatRequest(request: TutorRequest, view: HostView, profile: ClientProfile, server: ServerConnection, model: ChatModel, seed: number, usage: ChatUsage): Promise<CallRecord> {
  return record(request, await converse(request.prompt, TOOL_NAME, view, profile, server, model, seed, usage), request.intent);
}

/** A lessons request, one conversation. */
export async function runChatLessonRequest(request: LessonRequest, view: HostView, profile: ClientProfile, server: ServerConnection, model: ChatModel, seed: number, usage: ChatUsage): Promise<CallRecord> {
  return record(request, await converse(request.prompt, 'lessons', view, profile, server, model, seed, usage), request.intent);
}

/**
 * A profile edit, one conversation: the model reads and writes as it sees
 * fit. The kit reads the profile before and after, outside the conversation
 * (those reads are not attempts), to see what the edit lost.
 */
export async function runChatProfileEdit(request: ProfileEdit, view: HostView, profile: ClientProfile, server: ServerConnection, model: ChatModel, seed: number, usage: ChatUsage): Promise<CallRecord> {
  const read = async () => {
    const got = await server.call('get_profile', { learner: request.learner });
    return got.label === 'ok' ? parseProfile(got.text) : undefined;
  };
  const before = 'tools' in view ? await read() : undefined;
  const c = await converse(request.prompt, 'update_profile', view, profile, server, model, seed, usage);
  const base: CallRecord = { request, attempts: c.attempts, final: c.final, answer: c.final === 'ok' ? c.answer : undefined, missing: [], steps: 3 };
  if (c.final !== 'ok' || !before) return base;
  return { ...base, ...editEffect(request, before, await read()) };
}
