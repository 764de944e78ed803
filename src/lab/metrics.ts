/**
 * From call records to the figures a learner predicts and reads: outcome
 * histograms, retries, accuracy, silently wrong answers, latency.
 */
import type { Attempt, CallRecord } from './agent.js';
import type { OutcomeLabel } from './types.js';

export interface Figures {
  /** How the first attempt of each workload call ended, by label. */
  outcomes: Record<OutcomeLabel, number>;
  /** How each workload call ended in the end, by label. */
  finalOutcomes: Record<OutcomeLabel, number>;
  /** Every attempt of every workload call, by label. */
  attempts: Record<OutcomeLabel, number>;
  retries: {
    total: number;
    /** Retries per workload call. */
    perCall: number;
    /** Retries per call whose first attempt failed (0 when none failed). */
    perFailingCall: number;
    /** How many workload calls needed 0, 1, 2, ... retries: the distribution behind the averages. */
    distribution: Record<string, number>;
    /**
     * The most retries one request can have: the agent's turns, less the
     * calls the request needs when all goes well (OpenAI Agents SDK
     * max_turns; knobs.ts). A request at the cap was stopped by the agent's
     * limit, not by the model.
     */
    cap: number;
  };
  /** The eval: calls that ended in success with exactly the expected answer. */
  accuracy: { correct: number; total: number };
  /** Calls with an expected answer that ended in success with another answer. Workload and eval together. */
  silentWrong: number;
  /** Workload calls whose first call left out something the prompt stated. */
  missingArguments: { calls: number; share: number };
  /** Round trips to the server, all attempts. */
  latencyMs: { p50: number; p95: number };
  /** Profile edits: fields that were cleared or changed without being asked to (data lost with success). */
  fieldsCleared: number;
  /** Requests to change data that ended ok while the server ran read-only (0 when it did not). */
  mutationsThroughReadOnly: number;
}

function histogram(labels: OutcomeLabel[]): Record<OutcomeLabel, number> {
  const counts: Record<OutcomeLabel, number> = {};
  for (const label of [...labels].sort()) counts[label] = (counts[label] ?? 0) + 1;
  return counts;
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Attempts beyond the one each step of the request needed. */
function retriesOf(record: CallRecord): number {
  return Math.max(0, record.attempts.length - (record.steps ?? 1));
}

function retryDistribution(workload: CallRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  const most = Math.max(0, ...workload.map(retriesOf));
  for (let n = 0; n <= most; n++) counts[String(n)] = 0;
  for (const r of workload) counts[String(retriesOf(r))]! += 1;
  return counts;
}

export function isSilentlyWrong(record: CallRecord): boolean {
  if (record.final !== 'ok') return false;
  if ((record.lostFields?.length ?? 0) > 0 || record.notApplied) return true;
  return record.request.expected !== undefined && record.answer !== record.request.expected;
}

/** The attempts that went to a server and came back (a round trip, with its latency), in order: not a host's refusal or a call never written. */
export function serverAttempts(records: CallRecord[]): Attempt[] {
  return records.flatMap((r) => r.attempts.filter((a) => a.latencyMs !== undefined));
}

export function figures(workload: CallRecord[], evaluation: CallRecord[], readOnly = false, maxTurns = 10): Figures {
  const retries = workload.reduce((sum, r) => sum + retriesOf(r), 0);
  const failing = workload.filter((r) => r.attempts[0]?.label !== 'ok');
  const failingRetries = failing.reduce((sum, r) => sum + retriesOf(r), 0);
  const missing = workload.filter((r) => r.missing.length > 0).length;
  const latencies = serverAttempts([...workload, ...evaluation]).map((a) => a.latencyMs!);
  return {
    outcomes: histogram(workload.map((r) => r.attempts[0]!.label)),
    finalOutcomes: histogram(workload.map((r) => r.final)),
    attempts: histogram(workload.flatMap((r) => r.attempts.map((a) => a.label))),
    retries: {
      total: retries,
      perCall: workload.length ? round(retries / workload.length) : 0,
      perFailingCall: failing.length ? round(failingRetries / failing.length) : 0,
      distribution: retryDistribution(workload),
      cap: Math.max(0, maxTurns - Math.max(1, ...workload.map((r) => r.steps ?? 1))),
    },
    accuracy: {
      correct: evaluation.filter((r) => r.final === 'ok' && r.answer === r.request.expected).length,
      total: evaluation.length,
    },
    silentWrong: [...workload, ...evaluation].filter(isSilentlyWrong).length,
    missingArguments: { calls: missing, share: workload.length ? round(missing / workload.length) : 0 },
    latencyMs: { p50: round(percentile(latencies, 50), 3), p95: round(percentile(latencies, 95), 3) },
    fieldsCleared: workload.reduce((sum, r) => sum + (r.final === 'ok' ? (r.lostFields?.length ?? 0) : 0), 0),
    mutationsThroughReadOnly: readOnly ? workload.filter((r) => 'mutation' in r.request && r.request.mutation && r.final === 'ok').length : 0,
  };
}
