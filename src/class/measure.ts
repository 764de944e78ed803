/**
 * The class server's own measurement of a lab, made when the instructor
 * reveals it: the lab's runs at the lab's own default settings (seed 1,
 * 100 calls, the default knobs, the lab's number of seeds), through the same
 * runLabSeeds a learner's plain `npm run lab -- --variant <lab>` uses
 * (src/learn/flow.ts), each question answered by measureAcross as the
 * learner's comparison answers it (src/learn/predictions.ts). So the room sees
 * the figures each learner will see on their own laptop.
 *
 * Kept in `<folder>/measured/<lab>.json` (atomic write): a restart, or a
 * reveal hidden and shown again, does not measure again.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { replaceFile } from '../learn/atomic.js';
import { measureAcross, type Lab, type Measured } from '../learn/catalogue.js';
import { LAB_DEFAULTS, runLabSeeds, type LabRunSettings } from '../learn/lab-runs.js';
import { DEFAULT_KNOBS } from '../lab/knobs.js';

export interface LabMeasurement {
  lab: string;
  /** When it was measured. */
  at: string;
  seeds: number[];
  calls: number;
  temperature: number;
  /** Each question's answer, by question id. */
  questions: Record<string, Measured>;
  /** How long the measurement took, in milliseconds. */
  tookMs: number;
}

export async function measureLab(lab: Lab, settings: LabRunSettings = LAB_DEFAULTS): Promise<LabMeasurement> {
  const started = performance.now();
  const { seeds, perSeed } = await runLabSeeds(lab, settings);
  const questions = Object.fromEntries(lab.questions.map((q) => [q.id, measureAcross(q.figure, perSeed)]));
  return {
    lab: lab.id,
    at: new Date().toISOString(),
    seeds,
    calls: settings.calls,
    temperature: (settings.knobs ?? DEFAULT_KNOBS).temperature,
    questions,
    tookMs: Math.round(performance.now() - started),
  };
}

/** A measurement kept earlier, or undefined (none, or not one this kit wrote for that lab). */
export function readMeasurement(file: string, lab: string): LabMeasurement | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as LabMeasurement;
    return parsed.lab === lab && parsed.questions && typeof parsed.questions === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function writeMeasurement(file: string, measurement: LabMeasurement): void {
  mkdirSync(dirname(file), { recursive: true });
  replaceFile(file, [Buffer.from(`${JSON.stringify(measurement, null, 2)}\n`)]);
}
