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
import { missingConcepts, noLessons, readError, writeCall } from './model.js';
import type { ClientProfile } from './profiles.js';
import type { OutcomeLabel, SeenTool, TutorRequest } from './types.js';
import { hashSeed, mulberry32 } from './workload.js';

/** The tool every tutor request is for. */
export const TOOL_NAME = 'conjugate';

export interface Attempt {
  label: OutcomeLabel;
  args?: Record<string, unknown>;
  text: string;
  /** Round trip to the server; absent when nothing was sent. */
  latencyMs?: number;
}

export interface CallRecord {
  request: TutorRequest;
  attempts: Attempt[];
  /** How the last attempt ended. */
  final: OutcomeLabel;
  /** The tool's answer when the call ended in success. */
  answer?: string;
  /** Concepts the prompt stated that the first call left out. */
  missing: string[];
}

/**
 * What the host shows the model: a refusal of the whole request, the tools,
 * or nothing because the server never answered tools/list (then every call
 * ends with the connection's own label, timeout or server-exit: a server
 * problem must not look like a host's refusal).
 */
export type HostView = { rejected: string } | { tools: SeenTool[] } | { unreachable: OutcomeLabel; reason: string };

const TRANSIENT = new Set(['rpc:-32603', 'timeout', 'server-exit']);
const BACK_TO_MODEL = new Set(['isError', 'rpc:-32602', 'client-invalid']);

export async function runRequest(
  request: TutorRequest,
  view: HostView,
  profile: ClientProfile,
  server: ServerConnection,
  knobs: Knobs,
  seed: number,
): Promise<CallRecord> {
  const attempts: Attempt[] = [];
  const done = (final: OutcomeLabel, missing: string[] = [], answer?: string): CallRecord => ({ request, attempts, final, answer, missing });

  if ('unreachable' in view) {
    attempts.push({ label: view.unreachable, text: view.reason });
    return done(view.unreachable);
  }
  if ('rejected' in view) {
    attempts.push({ label: 'client-rejected', text: view.rejected });
    return done('client-rejected');
  }
  const tool = view.tools.find((t) => t.name === TOOL_NAME);
  if (!tool) {
    attempts.push({ label: 'no-call', text: `the host shows no ${TOOL_NAME} tool` });
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
      const decision = writeCall(tool, request, lessons, knobs, mulberry32(hashSeed(seed, request.id, n)));
      if (decision.kind === 'no-call') {
        attempts.push({ label: 'no-call', text: decision.reason });
        return done('no-call', missing ?? []);
      }
      args = decision.args;
      const checked = profile.validate(tool, args);
      missing ??= missingConcepts(args, request.intent);
      if (!checked.ok) {
        attempts.push({ label: 'client-invalid', args, text: checked.error });
        readError(checked.error, lessons, args);
        continue;
      }
      args = checked.args;
    }
    const outcome: CallOutcome = await server.call(TOOL_NAME, args);
    attempts.push({ label: outcome.label, args, text: outcome.text, latencyMs: outcome.latencyMs });
    if (outcome.label === 'ok') return done('ok', missing, outcome.text);
    if (TRANSIENT.has(outcome.label)) {
      if (transientRetries++ >= knobs.maxTransientRetries) break;
      resend = args;
      continue;
    }
    if (BACK_TO_MODEL.has(outcome.label)) {
      readError(outcome.text, lessons, args);
      continue;
    }
    break; // anything else (-32601, a malformed reply) is not worth retrying
  }
  return done(attempts.at(-1)!.label, missing ?? []);
}
