/**
 * `npm run check -- <lab>`: is the learner's workspace fixed? Two proofs, as
 * for the kit's own solutions: the schema contract tests pass on the
 * workspace server's published schema, and the lab's runs against it are
 * back to the baseline's figures (or better: a fix may serve more requests).
 */
import type { Violation } from '../contract/rules.js';
import { checkServer } from '../contract/check.js';
import { DEFAULT_KNOBS } from '../lab/knobs.js';
import { getProfile } from '../lab/profiles.js';
import { run, type RunResult } from '../lab/runner.js';
import { BASELINE, buildServer, BuildError, contractOf } from '../lab/variants.js';
import type { Lab, LabRun } from './catalogue.js';

export interface RunComparison {
  run: LabRun;
  /** What is worse than the baseline, in words; empty when the run is back to the baseline's figures. */
  worse: string[];
  /** What is better than the baseline (a fix may serve requests the baseline could not). */
  better: string[];
  baseline: RunResult;
  workspace: RunResult;
}

export type CheckVerdict =
  | { fixed: false; buildError: string }
  | { fixed: boolean; violations: Violation[]; runs: RunComparison[] };

/** The figures on which a fix must be at least as good as the baseline. */
export function worseThan(baseline: RunResult, candidate: RunResult): string[] {
  const worse: string[] = [];
  if (baseline.host.accepted && !candidate.host.accepted) worse.push(`the host refuses the tool list: ${candidate.host.rejection}`);
  const ok = (r: RunResult) => r.finalOutcomes.ok ?? 0;
  if (ok(candidate) < ok(baseline)) worse.push(`${ok(candidate)} of ${candidate.calls} calls end ok; the baseline's ${ok(baseline)}`);
  if (candidate.accuracy.correct < baseline.accuracy.correct) worse.push(`eval accuracy ${candidate.accuracy.correct}/${candidate.accuracy.total}; the baseline's ${baseline.accuracy.correct}/${baseline.accuracy.total}`);
  if (candidate.silentWrong > baseline.silentWrong) worse.push(`${candidate.silentWrong} silently wrong answers; the baseline's ${baseline.silentWrong}`);
  if (candidate.retries.total > baseline.retries.total) worse.push(`${candidate.retries.total} retries; the baseline's ${baseline.retries.total}`);
  if (candidate.fieldsCleared > baseline.fieldsCleared) worse.push(`${candidate.fieldsCleared} profile fields lost; the baseline's ${baseline.fieldsCleared}`);
  if (candidate.mutationsThroughReadOnly > baseline.mutationsThroughReadOnly) {
    worse.push(`${candidate.mutationsThroughReadOnly} changes got through read-only mode; the baseline's ${baseline.mutationsThroughReadOnly}`);
  }
  return worse;
}

/** The same figures, the other way round. */
export function betterThan(baseline: RunResult, candidate: RunResult): string[] {
  const better: string[] = [];
  const ok = (r: RunResult) => r.finalOutcomes.ok ?? 0;
  if (ok(candidate) > ok(baseline)) better.push(`${ok(candidate)} of ${candidate.calls} calls end ok; the baseline's ${ok(baseline)}`);
  if (candidate.accuracy.correct > baseline.accuracy.correct) better.push(`eval accuracy ${candidate.accuracy.correct}/${candidate.accuracy.total}; the baseline's ${baseline.accuracy.correct}/${baseline.accuracy.total}`);
  if (candidate.silentWrong < baseline.silentWrong) better.push(`${candidate.silentWrong} silently wrong answers; the baseline's ${baseline.silentWrong}`);
  if (candidate.retries.total < baseline.retries.total) better.push(`${candidate.retries.total} retries; the baseline's ${baseline.retries.total}`);
  return better;
}

export async function checkWorkspace(lab: Lab, workspace: string, seed = 1): Promise<CheckVerdict> {
  let serverJs: string;
  try {
    serverJs = await buildServer([], workspace);
  } catch (error) {
    if (error instanceof BuildError) return { fixed: false, buildError: error.message };
    throw error;
  }
  const baselineJs = await buildServer([]);
  let violations: Violation[];
  try {
    ({ violations } = await checkServer({ command: process.execPath, args: [serverJs] }, contractOf(serverJs)));
  } catch (error) {
    // It builds but does not serve: it crashed at start, or never answered tools/list.
    return { fixed: false, buildError: `the server builds but does not answer tools/list: ${(error as Error).message}` };
  }
  const runs = await Promise.all(
    lab.runs.map(async (labRun) => {
      const client = getProfile(labRun.client);
      if (!client) throw new Error(`labs/catalogue.json: ${lab.id} names an unknown client ${labRun.client}`);
      const settings = { client, server: labRun.server, seed, calls: 100, knobs: DEFAULT_KNOBS, workload: labRun.workload ?? 'conjugate', readOnly: labRun.readOnly ?? false };
      const [baseline, candidate] = await Promise.all([run(BASELINE, baselineJs, settings), run('workspace', serverJs, settings)]);
      return { run: labRun, worse: worseThan(baseline, candidate), better: betterThan(baseline, candidate), baseline, workspace: candidate };
    }),
  );
  return { fixed: violations.length === 0 && runs.every((r) => r.worse.length === 0), violations, runs };
}
