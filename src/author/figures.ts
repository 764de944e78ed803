/**
 * Which figures of a lab move: its runs measured over its seeds, each
 * figure of the variant against the same figure of the baseline in the
 * same run. A figure moves when the two ranges over the seeds do not meet
 * (a number) or no seed of one gives a label a seed of the other gives (an
 * outcome label): a question about a figure that does not move asks the
 * learner to predict the seeds' noise. `npm run author -- questions` lists
 * the figures that move, to pick the questions from; `check` holds each
 * question of the catalogue to it.
 */
import { measureAcross, type Figure, type LabResults, type Measured } from '../learn/catalogue.js';

/** The parts of a run that are settings, records or timings, not figures a question could ask about. */
const NOT_FIGURES = new Set(['records', 'latencyMs', 'stderrSample', 'serverNotes', 'publishedSchema', 'host', 'model', 'agent', 'seed', 'calls', 'temperature', 'workload', 'readOnly', 'variant', 'client', 'server', 'interrupted', 'cap', 'distribution']);
/** Histograms leave out a label no call got: read as 0. */
const HISTOGRAMS = new Set(['outcomes', 'finalOutcomes', 'attempts']);

/** Every numeric figure of one run's result, by path below the run (`finalOutcomes.ok`, `retries.perFailingCall`). */
function numericLeaves(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return typeof value === 'number' ? [prefix] : [];
  return Object.entries(value).flatMap(([key, v]) => (NOT_FIGURES.has(key) ? [] : numericLeaves(v, prefix ? `${prefix}.${key}` : key)));
}

/** The same figure read from the baseline of its run: every `.runs.variant.` path read at `.runs.baseline.`. */
export function baselineFigure(figure: Figure): Figure {
  return JSON.parse(JSON.stringify(figure).replaceAll('.runs.variant.', '.runs.baseline.')) as Figure;
}

export interface Movement {
  variant: Measured;
  baseline: Measured;
  moves: boolean;
}

/** A figure over the seeds, on the variant and on the baseline, and whether it moves beyond the seeds' range. Throws when a seed's results lack it. */
export function movement(figure: Figure, perSeed: LabResults[]): Movement {
  const variant = measureAcross(figure, perSeed);
  const baseline = measureAcross(baselineFigure(figure), perSeed);
  const moves =
    typeof variant.value === 'number'
      ? variant.min! > baseline.max! || variant.max! < baseline.min!
      : !variant.values.some((v) => baseline.values.includes(v));
  return { variant, baseline, moves };
}

/** A figure a question can be written on, with how it moved. */
export interface Candidate {
  /** What `--pick` takes: a path into the lab's results (a histogram's path for its most frequent label but ok). */
  path: string;
  figure: Figure;
  kind: 'number' | 'label';
  movement: Movement;
}

/** What a picked path becomes in the catalogue: a number at that path (a histogram's label: 0 where no call got it), or a histogram's most frequent label but ok. */
export function figureFor(path: string): { figure: Figure; kind: 'number' | 'label' } {
  const parts = path.split('.');
  if (HISTOGRAMS.has(parts.at(-1)!)) return { figure: { dominant: path, except: ['ok'] }, kind: 'label' };
  return { figure: { path, ...(HISTOGRAMS.has(parts.at(-2) ?? '') ? { default: 0 } : {}) }, kind: 'number' };
}

/** Every figure of the lab's variants, numbers and histograms, with how each moved; the ones that move first. */
export function candidates(perSeed: LabResults[]): Candidate[] {
  const plain = JSON.parse(JSON.stringify(perSeed)) as LabResults[];
  const paths = new Set<string>();
  const histograms = new Set<string>();
  for (const results of plain) {
    for (const [runName, report] of Object.entries(results)) {
      for (const role of ['baseline', 'variant'] as const) {
        const result = report.runs[role];
        if (!result) continue;
        for (const leaf of numericLeaves(result)) paths.add(`${runName}.runs.variant.${leaf}`);
        for (const histogram of HISTOGRAMS) if (histogram in result) histograms.add(`${runName}.runs.variant.${histogram}`);
      }
    }
  }
  const found: Candidate[] = [];
  for (const path of [...paths].sort()) {
    const { figure, kind } = figureFor(path);
    try {
      found.push({ path, figure, kind, movement: movement(figure, plain) });
    } catch {
      // Not in every seed's results: not a figure a question can rest on.
    }
  }
  for (const path of [...histograms].sort()) {
    const { figure, kind } = figureFor(path);
    found.push({ path, figure, kind, movement: movement(figure, plain) });
  }
  return found.sort((a, b) => Number(b.movement.moves) - Number(a.movement.moves));
}
