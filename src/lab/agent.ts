/**
 * The agent loop for one request, as the OpenAI Agents SDK runs it with its
 * defaults (openai-agents-python v0.22.0; docs/sources.md, "The agent"):
 * - every tool result goes back to the model as the tool's output: an
 *   `isError` result's text as it is; a JSON-RPC error, a timeout or a dead
 *   server as "An error occurred while running the tool. Please try again.
 *   Error: <message>" (`default_tool_error_function`; the code is not shown);
 * - nothing is sent again without the model: the model reads the output and
 *   writes the next call (or stops);
 * - a run is at most `maxTurns` model calls (DEFAULT_MAX_TURNS = 10); a tool
 *   result the model gets no turn to read is lost, and the run ends
 *   `max-turns` (MaxTurnsExceeded);
 * - a host that refused the tool list fails the run before any call.
 * The host's own check of the arguments (a profile's `validate`) is the
 * host's, not the SDK's: its text goes back to the model the same way.
 * Every attempt is recorded.
 */
import type { CallOutcome, ServerConnection } from './connection.js';
import { missingConcepts } from './intent.js';
import type { Knobs } from './knobs.js';
import { writeCall } from './model.js';
import { isFinal, noLessons, readError } from './model-reading.js';
import type { ClientProfile } from './profiles/index.js';
import type { LessonRequest, OutcomeLabel, ProfileEdit, SeenTool, ToolIntent, TutorRequest } from './types.js';
import { hashSeed, mulberry32 } from './workload.js';

/** The tool every tutor request is for. */
export const TOOL_NAME = 'conjugate';

export interface Attempt {
  /** The tool called (a request may call several). */
  tool?: string;
  label: OutcomeLabel;
  args?: Record<string, unknown>;
  /** What came back: the tool's text, the JSON-RPC error's message as sent, the host's own error. */
  text: string;
  /** Round trip to the server; absent when nothing was sent. */
  latencyMs?: number;
}

export interface CallRecord {
  request: TutorRequest | ProfileEdit | LessonRequest;
  attempts: Attempt[];
  /** How the request ended: the last attempt's label, or max-turns when the run ran out of turns. */
  final: OutcomeLabel;
  /** The tool's answer when the call ended in success. */
  answer?: string;
  /** Concepts the prompt stated that the first call left out. */
  missing: string[];
  /** Profile edits: fields that changed without being asked to (data lost). */
  lostFields?: string[];
  /** Profile edits: the change asked for is not in the profile afterwards. */
  notApplied?: boolean;
  /** Tool calls the request needed when all went well (a profile edit: read, write, read); 1 when absent. */
  steps?: number;
}

/** A record of a request for another tool than conjugate. */
export type ToolCallRecord = CallRecord;

/**
 * What the host shows the model: a refusal of the whole request, the tools,
 * or nothing because the server never answered tools/list (then every call
 * ends with the connection's own label, timeout or server-exit: a server
 * problem must not look like a host's refusal).
 */
export type HostView = { rejected: string } | { tools: SeenTool[] } | { unreachable: OutcomeLabel; reason: string };

/** The openai-agents default_tool_error_function's words around a failure the client raised. */
export const TOOL_ERROR_PREFIX = 'An error occurred while running the tool. Please try again. Error: ';

/**
 * What the model is given as the tool's output. An `isError` result is not
 * an exception in the SDK: its text goes to the model unmarked. A JSON-RPC
 * error reaches the Python MCP client as McpError, whose str() is the
 * message alone; a timeout is the MCP client's own McpError; a dead server
 * is any other exception, which the SDK words "Error invoking MCP tool ...".
 */
export function toolOutput(outcome: CallOutcome, tool: string): string {
  if (outcome.label === 'ok' || outcome.label === 'isError') return outcome.text;
  if (outcome.label.startsWith('rpc:')) return `${TOOL_ERROR_PREFIX}${outcome.text}`;
  if (outcome.label === 'timeout') return `${TOOL_ERROR_PREFIX}Timed out while waiting for response to ClientRequest. Waited ${outcome.timeoutSeconds ?? 5}.0 seconds.`;
  return `${TOOL_ERROR_PREFIX}Error invoking MCP tool ${tool} on server 'tutor': ${outcome.text}`;
}

/** The model turns of one request's run, counted as the SDK counts them. */
class Turns {
  private used = 0;
  constructor(private readonly max: number) {}
  /** One more model call; false when the run may not make it. */
  take(): boolean {
    this.used++;
    return this.used <= this.max;
  }
}

/** One tool call through the agent loop: what a request needs of one tool. */
interface Step {
  tool: string;
  intent: TutorRequest['intent'] | ToolIntent;
  /** Seeds the model's draws: the request's id, and the step's name for requests of several steps. */
  key: string;
}

interface StepResult {
  attempts: Attempt[];
  final: OutcomeLabel;
  answer?: string;
  missing: string[];
}

/**
 * The model's draws for one attempt. Sampling (temperature above 0), each
 * attempt has its own stream, seeded by the run's seed, the request and the
 * attempt: the baseline and a variant see the same draws for the same
 * request. Greedy (temperature 0), the draws depend on the request alone, as
 * the same prompt always decodes the same way: a call sent again with
 * nothing new learned is the same call.
 */
function drawsFor(step: Step, attempt: number, knobs: Knobs, seed: number): () => number {
  if (knobs.temperature === 0) return mulberry32(hashSeed('greedy', step.key.replace(/#\d+/, '')));
  return mulberry32(hashSeed(seed, step.key, attempt));
}

async function runStep(step: Step, view: HostView, profile: ClientProfile, server: ServerConnection, knobs: Knobs, seed: number, turns: Turns): Promise<StepResult> {
  const attempts: Attempt[] = [];
  const done = (final: OutcomeLabel, missing: string[] = [], answer?: string): StepResult => ({ attempts, final, answer, missing });

  if ('unreachable' in view) {
    attempts.push({ label: view.unreachable, text: view.reason });
    return done(view.unreachable);
  }
  if ('rejected' in view) {
    attempts.push({ label: 'client-rejected', text: view.rejected });
    return done('client-rejected');
  }
  const tool = view.tools.find((t) => t.name === step.tool);
  if (!tool) {
    attempts.push({ label: 'no-call', text: `the host shows no ${step.tool} tool` });
    return done('no-call');
  }

  const lessons = noLessons();
  let missing: string[] | undefined;
  for (let n = 0; ; n++) {
    if (!turns.take()) return done('max-turns', missing ?? []);
    const decision = writeCall(tool, step, lessons, knobs, drawsFor(step, n, knobs, seed));
    if (decision.kind === 'no-call') {
      attempts.push({ label: 'no-call', text: decision.reason });
      return done('no-call', missing ?? []);
    }
    const args = decision.args;
    missing ??= missingConcepts(args, step.intent);
    const checked = await profile.validate(tool, args);
    if (!checked.ok) {
      attempts.push({ label: 'client-invalid', args, text: checked.error });
      readError(checked.error, lessons, args, step.intent);
      continue;
    }
    // The host's MCP client checks the result against the published outputSchema, unless its profile says it never reads it.
    const outcome: CallOutcome = await server.call(step.tool, checked.args, profile.checksOutputSchema !== false);
    attempts.push({ tool: step.tool, label: outcome.label, args: checked.args, text: outcome.text, latencyMs: outcome.latencyMs });
    if (outcome.label === 'ok') return done('ok', missing, outcome.text);
    const output = toolOutput(outcome, step.tool);
    // A refusal ("the server is read-only") or "no such lesson": the model's next turn is its answer, not another call.
    if (isFinal(output)) return turns.take() ? done(outcome.label, missing) : done('max-turns', missing);
    readError(output, lessons, checked.args, step.intent);
  }
}

/** After the last tool result, the model needs one more turn to answer: without it the run ends max-turns. */
function answered(result: StepResult, turns: Turns): StepResult {
  return result.final === 'ok' && !turns.take() ? { ...result, final: 'max-turns' } : result;
}

/** A conjugation request: one call to conjugate. */
export async function runRequest(
  request: TutorRequest,
  view: HostView,
  profile: ClientProfile,
  server: ServerConnection,
  knobs: Knobs,
  seed: number,
): Promise<CallRecord> {
  const turns = new Turns(knobs.maxTurns);
  const result = answered(await runStep({ tool: TOOL_NAME, intent: request.intent, key: request.id }, view, profile, server, knobs, seed, turns), turns);
  return { request, ...result };
}

/**
 * A profile edit, the way an agent does a full replace: read the profile,
 * change one field, send the whole profile back, then read it again to
 * confirm. A field that changed without being asked to was lost.
 */
export async function runProfileEdit(
  request: ProfileEdit,
  view: HostView,
  profile: ClientProfile,
  server: ServerConnection,
  knobs: Knobs,
  seed: number,
): Promise<ToolCallRecord> {
  // One run: the read, the write and the check share its turns.
  const turns = new Turns(knobs.maxTurns);
  const read = (key: string) => runStep({ tool: 'get_profile', intent: { learner: request.learner }, key }, view, profile, server, knobs, seed, turns);
  const before = await read(`${request.id}/read`);
  const record = (steps: StepResult[], final: OutcomeLabel, extra: Partial<ToolCallRecord> = {}): ToolCallRecord => ({
    request,
    attempts: steps.flatMap((s) => s.attempts),
    steps: steps.length,
    final,
    missing: [],
    ...extra,
  });
  const current = before.final === 'ok' ? parseProfile(before.answer) : undefined;
  if (!current) return record([before], before.final);
  const intent: ToolIntent = { ...current, learner: request.learner, [request.field]: request.value };
  const update = await runStep({ tool: 'update_profile', intent, key: `${request.id}/write` }, view, profile, server, knobs, seed, turns);
  if (update.final !== 'ok') return record([before, update], update.final);
  const after = answered(await read(`${request.id}/check`), turns);
  const now = after.final === 'ok' ? parseProfile(after.answer) : undefined;
  if (after.final !== 'ok') return record([before, update, after], after.final);
  return record([before, update, after], update.final, { answer: update.answer, ...editEffect(request, current, now) });
}

/**
 * What a profile edit did, from the profile read before and after it: the
 * fields that changed without being asked to (lost), and whether the change
 * asked for is there (an edit that "worked" without changing anything is
 * silently wrong). The stand-in's loop and a real model's (src/lab/chat/) share it.
 */
export function editEffect(request: ProfileEdit, before: Record<string, unknown>, after: Record<string, unknown> | undefined): { lostFields: string[]; notApplied: boolean } {
  const lostFields = after ? Object.keys(before).filter((f) => f !== request.field && JSON.stringify(before[f]) !== JSON.stringify(after[f])) : [];
  const applied = after !== undefined && JSON.stringify(after[request.field]) === JSON.stringify(request.value);
  return { lostFields, notApplied: !applied };
}

/** A profile as get_profile returns it, or undefined when the text is not a JSON object. */
export function parseProfile(text: string | undefined): Record<string, string | string[]> | undefined {
  try {
    const value = JSON.parse(text ?? '') as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string | string[]>) : undefined;
  } catch {
    return undefined;
  }
}

/** A lessons request: one call to the lessons tool. */
export async function runLessonRequest(
  request: LessonRequest,
  view: HostView,
  profile: ClientProfile,
  server: ServerConnection,
  knobs: Knobs,
  seed: number,
): Promise<ToolCallRecord> {
  const turns = new Turns(knobs.maxTurns);
  const result = answered(await runStep({ tool: 'lessons', intent: request.intent, key: request.id }, view, profile, server, knobs, seed, turns), turns);
  return { request, ...result };
}
