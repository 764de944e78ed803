/**
 * The figures a learner reads, defined once: how each is read from a run,
 * which way is better, its words and how it is written. The terminal report,
 * the seed summary, `npm run check` and the sweep all use this table, and
 * `compare(run, baseline)` is the one rule for "better" and "worse".
 */
import { formatNumber, type Lang } from '../core/lang.js';
import type { RunResult } from './runner.js';

export interface FigureDef {
  id: string;
  /** The figure's value in a run. */
  read(run: RunResult): number;
  /** Which way a fix should move it; 'none' for figures that are not better or worse (latency). */
  better: 'higher' | 'lower' | 'none';
  label: Record<Lang, string>;
  /** The value as the reports write it. */
  format(value: number, run: RunResult, lang: Lang): string;
  /** Shown only when a run of this kind is in the report. */
  when?: (run: RunResult) => boolean;
}

const count = (value: number) => String(Math.round(value));
const decimal = (value: number, _run: RunResult, lang: Lang) => formatNumber(value, lang, 2);

export const FIGURES: readonly FigureDef[] = [
  {
    id: 'ok',
    read: (r) => r.finalOutcomes.ok ?? 0,
    better: 'higher',
    label: { en: 'calls ending in ok', es: 'llamadas que acaban bien' },
    format: (v, r) => `${count(v)}/${r.calls}`,
  },
  {
    id: 'firstOk',
    read: (r) => r.outcomes.ok ?? 0,
    better: 'higher',
    label: { en: 'first attempts ok', es: 'primeros intentos bien' },
    format: (v, r) => `${count(v)}/${r.calls}`,
  },
  {
    id: 'missingArguments',
    read: (r) => r.missingArguments.share * 100,
    better: 'lower',
    label: { en: 'calls leaving out a stated argument', es: 'llamadas que omiten un argumento dicho' },
    format: (v) => `${Math.round(v)}%`,
  },
  {
    id: 'retriesPerCall',
    read: (r) => r.retries.perCall,
    better: 'lower',
    label: { en: 'retries per call', es: 'reintentos por llamada' },
    format: decimal,
  },
  {
    id: 'retriesPerFailingCall',
    read: (r) => r.retries.perFailingCall,
    better: 'lower',
    label: { en: 'retries per failing call (cap)', es: 'reintentos por llamada fallida (tope)' },
    format: (v, r, lang) => `${formatNumber(v, lang, 2)} (${r.retries.cap})`,
  },
  {
    id: 'accuracy',
    read: (r) => r.accuracy.correct,
    better: 'higher',
    label: { en: 'eval accuracy', es: 'exactitud (evaluación)' },
    format: (v, r) => `${count(v)}/${r.accuracy.total}`,
  },
  {
    id: 'silentWrong',
    read: (r) => r.silentWrong,
    better: 'lower',
    label: { en: 'silently wrong answers', es: 'incorrectas sin avisar' },
    format: count,
  },
  {
    id: 'fieldsCleared',
    read: (r) => r.fieldsCleared,
    better: 'lower',
    label: { en: 'profile fields lost', es: 'campos de perfil perdidos' },
    format: count,
    when: (r) => r.workload === 'profile',
  },
  {
    id: 'mutationsThroughReadOnly',
    read: (r) => r.mutationsThroughReadOnly,
    better: 'lower',
    label: { en: 'changes through read-only', es: 'cambios en solo lectura' },
    format: count,
    when: (r) => r.readOnly,
  },
  {
    id: 'errorProbe',
    read: (r) => r.errorProbe.named,
    better: 'higher',
    label: { en: 'errors naming the missing argument', es: 'errores que nombran el argumento que falta' },
    format: (v, r) => `${count(v)}/${r.errorProbe.total}`,
  },
];

export function figure(id: string): FigureDef {
  const found = FIGURES.find((f) => f.id === id);
  if (!found) throw new Error(`no figure ${id}`);
  return found;
}

/** How a run compares with another on one figure. */
export type Direction = 'same' | 'better' | 'worse';

export function direction(def: FigureDef, run: RunResult, against: RunResult): Direction {
  const a = def.read(run);
  const b = def.read(against);
  if (def.better === 'none' || Math.abs(a - b) < 1e-9) return 'same';
  return (a > b) === (def.better === 'higher') ? 'better' : 'worse';
}

/** Every figure of `run` against `against`: the ones that are better and the ones that are worse. */
export function compare(run: RunResult, against: RunResult): { better: FigureDef[]; worse: FigureDef[] } {
  const shown = FIGURES.filter((f) => (f.when?.(run) ?? true) || (f.when?.(against) ?? true));
  return {
    better: shown.filter((f) => direction(f, run, against) === 'better'),
    worse: shown.filter((f) => direction(f, run, against) === 'worse'),
  };
}

/** Mean, least and most of one figure over several seeds. */
export interface Spread {
  mean: number;
  min: number;
  max: number;
  values: number[];
}

export function spread(values: number[]): Spread {
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  return { mean: Math.round(mean * 100) / 100, min: Math.min(...values), max: Math.max(...values), values };
}

/** Each figure's spread over the runs of several seeds (the same server and settings). */
export function spreads(runs: RunResult[]): Record<string, Spread> {
  return Object.fromEntries(FIGURES.map((f) => [f.id, spread(runs.map((r) => Math.round(f.read(r) * 100) / 100))]));
}
