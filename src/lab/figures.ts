/**
 * The figures a learner reads, defined once: how each is read from a run,
 * which way is better, how much it weighs, its words and how it is written.
 * The terminal report, the seed summary, `npm run check`, the sweep and the
 * HTML report's key figures all use this table (its labels are the words for
 * these figures everywhere), and `verdict(run, against)` is the one rule for
 * "better" and "worse".
 */
import type { Lang } from '../core/lang.js';
import { formatNumber, t } from '../core/messages/index.js';
import type { RunResult } from './runner.js';

/** The part of a run the figures read: a full run, or the sweep's reduced one. */
export type Judged = Pick<RunResult, 'outcomes' | 'finalOutcomes' | 'retries' | 'accuracy' | 'silentWrong' | 'missingArguments' | 'fieldsCleared' | 'mutationsThroughReadOnly' | 'errorProbe'> & {
  host: { accepted: boolean };
  calls?: number;
  workload?: RunResult['workload'];
  readOnly?: boolean;
};

export interface FigureDef {
  id: string;
  /** The figure's value in a run. */
  read(run: Judged): number;
  /** Which way a fix should move it; 'none' for figures that are not better or worse. */
  better: 'higher' | 'lower' | 'none';
  /**
   * What it weighs in a verdict: `outcome` figures are what the user gets
   * (answers, data kept); `cost` figures (retries) decide only when every
   * outcome is the same; `diagnostic` figures explain, and judge nothing.
   */
  tier: 'outcome' | 'cost' | 'diagnostic';
  label: Record<Lang, string>;
  /** The value as the reports write it. */
  format(value: number, run: Judged, lang: Lang): string;
  /** Shown only when a run of this kind is in the report. */
  when?: (run: Judged) => boolean;
  /** What the figure counts, for the ones whose label cannot say it all. */
  note?: Record<Lang, string>;
}

const count = (value: number) => String(Math.round(value));
const decimal = (value: number, _run: Judged, lang: Lang) => formatNumber(value, lang);
const of = (total: number | undefined) => (total === undefined ? '' : `/${total}`);

export const FIGURES: readonly FigureDef[] = [
  {
    id: 'ok',
    read: (r) => r.finalOutcomes.ok ?? 0,
    better: 'higher',
    tier: 'outcome',
    label: { en: 'calls ending in ok', es: 'llamadas que terminan en ok' },
    format: (v, r) => `${count(v)}${of(r.calls)}`,
  },
  {
    id: 'firstOk',
    read: (r) => r.outcomes.ok ?? 0,
    better: 'higher',
    tier: 'diagnostic',
    label: { en: 'first attempts ok', es: 'primeros intentos bien' },
    format: (v, r) => `${count(v)}${of(r.calls)}`,
  },
  {
    id: 'missingArguments',
    read: (r) => r.missingArguments.share * 100,
    better: 'lower',
    tier: 'diagnostic',
    label: { en: 'calls leaving out a stated argument', es: 'llamadas que omiten un argumento dicho' },
    note: {
      en: "the share of requests whose first call left out a verb, tense or person the request stated (only the model's first try counts)",
      es: 'la parte de las peticiones cuya primera llamada omitió un verbo, tiempo o persona que la petición decía (solo cuenta el primer intento del modelo)',
    },
    format: (v) => `${Math.round(v)}%`,
  },
  {
    id: 'retriesPerCall',
    read: (r) => r.retries.perCall,
    better: 'lower',
    tier: 'cost',
    label: { en: 'retries per call', es: 'reintentos por llamada' },
    format: decimal,
  },
  {
    id: 'retriesPerFailingCall',
    read: (r) => r.retries.perFailingCall,
    better: 'lower',
    tier: 'diagnostic',
    label: { en: 'retries per failing call', es: 'reintentos por llamada fallida' },
    // The most the agent allows beside it, in words: "3.56 of at most 9" (a bare "(cap)" meant nothing to a newcomer).
    format: (v, r, lang) => t('common.ofAtMost', lang, { value: formatNumber(v, lang), cap: r.retries.cap }),
  },
  {
    id: 'accuracy',
    read: (r) => r.accuracy.correct,
    better: 'higher',
    tier: 'outcome',
    label: { en: 'eval accuracy', es: 'exactitud de la evaluación' },
    format: (v, r) => `${count(v)}/${r.accuracy.total}`,
  },
  {
    id: 'silentWrong',
    read: (r) => r.silentWrong,
    better: 'lower',
    tier: 'outcome',
    label: { en: 'silently wrong answers', es: 'respuestas incorrectas sin aviso' },
    format: count,
  },
  {
    id: 'fieldsCleared',
    read: (r) => r.fieldsCleared,
    better: 'lower',
    tier: 'outcome',
    label: { en: 'profile fields lost', es: 'campos de perfil perdidos' },
    format: count,
    when: (r) => r.workload === 'profile',
  },
  {
    id: 'mutationsThroughReadOnly',
    read: (r) => r.mutationsThroughReadOnly,
    better: 'lower',
    tier: 'outcome',
    label: { en: 'changes through read-only', es: 'cambios en solo lectura' },
    format: count,
    when: (r) => r.readOnly === true,
  },
  {
    id: 'errorProbe',
    read: (r) => r.errorProbe.named,
    better: 'higher',
    tier: 'diagnostic',
    label: { en: 'errors naming the missing argument', es: 'errores que nombran el argumento que falta' },
    note: {
      en: 'a call that worked, sent again once per argument without it: of the calls the server refused, how many errors said which argument was missing or which values it takes',
      es: 'una llamada que funcionó, enviada de nuevo una vez por argumento sin él: de las que el servidor rechazó, cuántos errores dijeron qué argumento faltaba o qué valores acepta',
    },
    format: (v, r) => `${count(v)}/${r.errorProbe.total}`,
  },
];

export function figure(id: string): FigureDef {
  const found = FIGURES.find((f) => f.id === id);
  if (!found) throw new Error(`no figure ${id}`);
  return found;
}

/** A host that refuses the tool list: an outcome figure of its own (nothing the user asked for happens). */
export const HOST_REFUSED: FigureDef = {
  id: 'hostRefused',
  read: (r) => (r.host.accepted ? 0 : 1),
  better: 'lower',
  tier: 'outcome',
  label: { en: 'the host refuses the tool list', es: 'el anfitrión rechaza la lista de herramientas' },
  format: (v) => (v ? 'refused' : 'accepted'),
};

/** How a run compares with another on one figure. */
export type Direction = 'same' | 'better' | 'worse';

export function direction(def: FigureDef, run: Judged, against: Judged): Direction {
  const a = def.read(run);
  const b = def.read(against);
  if (def.better === 'none' || Math.abs(a - b) < 1e-9) return 'same';
  return (a > b) === (def.better === 'higher') ? 'better' : 'worse';
}

/**
 * How a run compares with another, all figures weighed:
 * - better or worse on what the user gets (the outcome figures), or mixed;
 * - when every outcome is the same, better or worse by what it cost (retries);
 * - the same, when nothing judged differs, but `different` when something
 *   else does (other first-attempt errors with the same ends).
 * `better` and `worse` list the figures that decided it.
 */
export function verdict(run: Judged, against: Judged): { verdict: 'same' | 'better' | 'worse' | 'mixed' | 'different'; better: FigureDef[]; worse: FigureDef[] } {
  const judged = [HOST_REFUSED, ...FIGURES].filter((f) => f.tier !== 'diagnostic');
  const on = (tier: FigureDef['tier']) => judged.filter((f) => f.tier === tier);
  const split = (figures: FigureDef[]) => ({
    better: figures.filter((f) => direction(f, run, against) === 'better'),
    worse: figures.filter((f) => direction(f, run, against) === 'worse'),
  });
  const outcome = split(on('outcome'));
  // A tool list the host refuses runs nothing: fewer silent errors there are not better, they are no answers at all.
  if (direction(HOST_REFUSED, run, against) === 'worse') return { verdict: 'worse', better: [], worse: outcome.worse };
  if (outcome.better.length > 0 && outcome.worse.length > 0) return { verdict: 'mixed', ...outcome };
  if (outcome.better.length > 0) return { verdict: 'better', ...outcome };
  if (outcome.worse.length > 0) return { verdict: 'worse', ...outcome };
  const cost = split(on('cost'));
  if (cost.worse.length > 0) return { verdict: 'worse', ...cost };
  if (cost.better.length > 0) return { verdict: 'better', ...cost };
  const sameFirst = JSON.stringify(sortKeys(run.outcomes)) === JSON.stringify(sortKeys(against.outcomes));
  return { verdict: sameFirst ? 'same' : 'different', better: [], worse: [] };
}

function sortKeys(h: Record<string, number>): [string, number][] {
  return Object.entries(h).sort(([a], [b]) => a.localeCompare(b));
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
export function spreads(runs: Judged[]): Record<string, Spread> {
  return Object.fromEntries(FIGURES.map((f) => [f.id, spread(runs.map((r) => Math.round(f.read(r) * 100) / 100))]));
}
