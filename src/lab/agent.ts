/**
 * The agent loop for one request: the model writes a call, the host checks
 * it, the MCP client sends it, and the answer decides what happens next, as in
 * a conventional agent:
 * - -32603, a timeout or a dead server are taken for transient: the same call
 *   is sent again, up to `maxTransientRetries` times;
 * - a validation error (-32602) or an `isError` result goes back to the model
 *   with its text; the model corrects itself if the text lets it, or samples
 *   again;
 * - a host that refused the tool list cannot be retried;
 * - every attempt is recorded, and the loop stops after `maxAttempts`.
 */
import type { CallOutcome, ServerConnection } from './connection.js';
import type { Knobs } from './knobs.js';
import { isRefusal, missingConcepts, noLessons, readError, writeCall } from './model.js';
import type { ClientProfile } from './profiles.js';
import type { LessonRequest, OutcomeLabel, ProfileEdit, SeenTool, ToolIntent, TutorRequest } from './types.js';
import { hashSeed, mulberry32 } from './workload.js';

/** The tool every tutor request is for. */
export const TOOL_NAME = 'conjugate';

export interface Attempt {
  /** The tool called (a request may call several). */
  tool?: string;
  label: OutcomeLabel;
  args?: Record<string, unknown>;
  text: string;
  /** Round trip to the server; absent when nothing was sent. */
  latencyMs?: number;
}

export interface CallRecord {
  request: TutorRequest | ProfileEdit | LessonRequest;
  attempts: Attempt[];
  /** How the last attempt ended. */
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

const TRANSIENT = new Set(['rpc:-32603', 'timeout', 'server-exit']);
const BACK_TO_MODEL = new Set(['isError', 'rpc:-32602', 'client-invalid']);

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

async function runStep(step: Step, view: HostView, profile: ClientProfile, server: ServerConnection, knobs: Knobs, seed: number): Promise<StepResult> {
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
  let resend: Record<string, unknown> | undefined;
  let transientRetries = 0;
  for (let n = 0; n < knobs.maxAttempts; n++) {
    let args: Record<string, unknown>;
    if (resend) {
      args = resend;
      resend = undefined;
    } else {
      // Each attempt draws from its own stream, seeded by the request and the attempt number:
      // the baseline and a variant see the same draws for the same request.
      const decision = writeCall(tool, step, lessons, knobs, mulberry32(hashSeed(seed, step.key, n)));
      if (decision.kind === 'no-call') {
        attempts.push({ label: 'no-call', text: decision.reason });
        return done('no-call', missing ?? []);
      }
      args = decision.args;
      const checked = profile.validate(tool, args);
      missing ??= missingConcepts(args, step.intent);
      if (!checked.ok) {
        attempts.push({ label: 'client-invalid', args, text: checked.error });
        readError(checked.error, lessons, args, step.intent);
        continue;
      }
      args = checked.args;
    }
    const outcome: CallOutcome = await server.call(step.tool, args);
    attempts.push({ tool: step.tool, label: outcome.label, args, text: outcome.text, latencyMs: outcome.latencyMs });
    if (outcome.label === 'ok') return done('ok', missing, outcome.text);
    if (TRANSIENT.has(outcome.label)) {
      if (transientRetries++ >= knobs.maxTransientRetries) break;
      resend = args;
      continue;
    }
    // A refusal ("the server is read-only") is final: asking again changes nothing.
    if (isRefusal(outcome.text)) break;
    if (BACK_TO_MODEL.has(outcome.label)) {
      readError(outcome.text, lessons, args, step.intent);
      continue;
    }
    break; // anything else (-32601, a malformed reply) is not worth retrying
  }
  return done(attempts.at(-1)!.label, missing ?? []);
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
  const result = await runStep({ tool: TOOL_NAME, intent: request.intent, key: request.id }, view, profile, server, knobs, seed);
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
  const read = (key: string) => runStep({ tool: 'get_profile', intent: { learner: request.learner }, key }, view, profile, server, knobs, seed);
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
  const update = await runStep({ tool: 'update_profile', intent, key: `${request.id}/write` }, view, profile, server, knobs, seed);
  if (update.final !== 'ok') return record([before, update], update.final);
  const after = await read(`${request.id}/check`);
  const now = after.final === 'ok' ? parseProfile(after.answer) : undefined;
  const lost = now ? Object.keys(current).filter((f) => f !== request.field && JSON.stringify(current[f]) !== JSON.stringify(now[f])) : [];
  // The change asked for must be there too: an edit that "worked" without changing anything is silently wrong.
  const applied = now !== undefined && JSON.stringify(now[request.field]) === JSON.stringify(request.value);
  return record([before, update, after], update.final, { answer: update.answer, lostFields: lost, notApplied: !applied });
}

function parseProfile(text: string | undefined): Record<string, string | string[]> | undefined {
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
  const result = await runStep({ tool: 'lessons', intent: request.intent, key: request.id }, view, profile, server, knobs, seed);
  return { request, ...result };
}
