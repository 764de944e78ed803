/**
 * The catalogue (labs/catalogue.json): the labs in order, the runs each lab
 * makes, and the questions a learner answers before them, each tied to the
 * measured figure that answers it. One file, read by the lab command, the
 * checker and the tests (rustlings keeps its exercises in info.toml the same way).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerBuild } from '../minimcp/errors.js';
import { OUTCOMES } from '../lab/outcomes.js';
import type { LabReport } from '../lab/report.js';
import type { Workload } from '../lab/runner.js';
import { REPO } from '../lab/paths.js';

import type { Lang } from '../core/lang.js';
import { t, type MessageId } from '../core/messages/index.js';
export { LANGS, type Lang } from '../core/lang.js';
export type Text = Record<Lang, string>;

/** Where a question's answer is read from the results: paths look like "old.runs.variant.silentWrong". */
export type Figure =
  | { path: string; scale?: number; default?: number }
  | { difference: [string, string]; per?: string; scale?: number }
  | { ratio: [string, string]; scale?: number }
  | { dominant: string; except?: string[] }
  | { count: string };

export interface Question {
  id: string;
  /** number: a numeric estimate; label: an outcome label typed freely (no options shown: guesses made after seeing options teach less). */
  kind: 'number' | 'label';
  unit?: string;
  min?: number;
  max?: number;
  prompt: Text;
  figure: Figure;
  /**
   * The figure is meant not to move between baseline and variant (the lesson is that nothing visible changes:
   * edits still end ok while data is lost, the same error label; or the host where the incident does not
   * happen). `npm run author -- check` holds every other question's figure to moving beyond the seeds' range,
   * and this one to staying within it.
   */
  unchanged?: boolean;
}

export interface LabRun {
  name: string;
  server: ServerBuild;
  client: string;
  /** The requests this run sends (default: conjugations). */
  workload?: Workload;
  /** Start the servers read-only. */
  readOnly?: boolean;
}

export interface Lab {
  id: string;
  title: Text;
  runs: LabRun[];
  questions: Question[];
  /** The sheet has the learner make the compiler see the break (lab 1: the executor typed from the schema): `npm run check` puts the break back on a copy of the workspace and wants a type error. */
  compilerCatchesBreak?: boolean;
  /** How many seeds the lab's runs take, so that a question is answered by a spread and not one lucky seed (default: the catalogue's). */
  seeds?: number;
}

/** The seeds a lab runs when it does not say. */
export const DEFAULT_LAB_SEEDS = 5;

export const CATALOGUE_FILE = join(REPO, 'labs', 'catalogue.json');

/** A question's unit as the learner reads it ("points", "calls"; "%" and any other as written): the reports' own words for them. */
const UNITS: Record<string, MessageId> = { points: 'common.points', calls: 'common.calls' };

export function unitWord(unit: string, lang: Lang): string {
  return Object.hasOwn(UNITS, unit) ? t(UNITS[unit]!, lang) : unit;
}

/** The labs, each with its number of seeds (the lab's own, else the catalogue's). */
export function loadCatalogue(file = CATALOGUE_FILE): Lab[] {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { version: number; seeds?: number; labs: Lab[] };
  if (parsed.version !== 2 || !Array.isArray(parsed.labs)) throw new Error(`${file}: not a version 2 catalogue`);
  // A figure path is split on dots: a run name with a dot could never be read.
  for (const lab of parsed.labs) for (const run of lab.runs) if (!/^[\w-]+$/.test(run.name)) throw new Error(`${file}: ${lab.id}: run name "${run.name}" must be letters, digits, - and _ only`);
  return parsed.labs.map((lab) => ({ ...lab, seeds: lab.seeds ?? parsed.seeds ?? DEFAULT_LAB_SEEDS }));
}

/** The results of one lab: its runs' reports, by run name. */
export type LabResults = Record<string, LabReport>;

/** A value at a dotted path, or undefined. */
export function at(results: unknown, path: string): unknown {
  let value = results;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function numberAt(results: unknown, path: string, fallback?: number): number {
  const value = at(results, path) ?? fallback;
  if (typeof value !== 'number') throw new Error(`the results have no number at ${path}`);
  return value;
}

const round = (x: number) => Math.round(x * 100) / 100;

/** The measured answer to a question. Throws when the results lack the figure: a question must name a figure the runner's JSON really has. */
export function measure(figure: Figure, results: unknown): number | string {
  if ('path' in figure) return round(numberAt(results, figure.path, figure.default) * (figure.scale ?? 1));
  if ('difference' in figure) {
    const [a, b] = figure.difference;
    const diff = numberAt(results, a, 0) - numberAt(results, b, 0);
    const per = figure.per ? numberAt(results, figure.per) : 1;
    return round((diff / per) * (figure.scale ?? 1));
  }
  if ('ratio' in figure) {
    const [part, whole] = figure.ratio;
    const of = numberAt(results, whole);
    return of === 0 ? 0 : round((numberAt(results, part, 0) / of) * (figure.scale ?? 1));
  }
  if ('count' in figure) {
    const value = at(results, figure.count);
    if (value === null || typeof value !== 'object') throw new Error(`the results have no object at ${figure.count}`);
    return Object.keys(value).length;
  }
  const histogram = at(results, figure.dominant);
  if (histogram === null || typeof histogram !== 'object') throw new Error(`the results have no histogram at ${figure.dominant}`);
  const entries = Object.entries(histogram as Record<string, number>).filter(([label]) => !(figure.except ?? []).includes(label));
  if (entries.length === 0) return 'none';
  entries.sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));
  return entries[0]![0];
}

/**
 * The answer to a question over several seeds: for a number, the mean and
 * the least and most any seed gave; for a label, the one most seeds gave
 * (ties: the first seed's), and how many gave it.
 */
export interface Measured {
  value: number | string;
  values: (number | string)[];
  min?: number;
  max?: number;
  /** Labels: how many seeds gave `value`. */
  agree?: number;
}

export function measureAcross(figure: Figure, perSeed: unknown[]): Measured {
  const values = perSeed.map((results) => measure(figure, results));
  if (values.every((v) => typeof v === 'number')) {
    const numbers = values as number[];
    return { value: round(numbers.reduce((a, b) => a + b, 0) / numbers.length), values, min: Math.min(...numbers), max: Math.max(...numbers) };
  }
  const counts = new Map<string, number>();
  for (const v of values) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
  const best = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  const value = best[1] === counts.get(String(values[0])) ? String(values[0]) : best[0];
  return { value, values, agree: counts.get(value) };
}

/** The run a question is scored on: the first its figure reads. */
export function questionRun(lab: Lab, question: Question): LabRun | undefined {
  const name = figurePaths(question.figure)[0]!.split('.')[0]!;
  return lab.runs.find((r) => r.name === name);
}

/** Every path a figure reads. */
export function figurePaths(figure: Figure): string[] {
  if ('path' in figure) return [figure.path];
  if ('difference' in figure) return [...figure.difference, ...(figure.per ? [figure.per] : [])];
  if ('count' in figure) return [figure.count];
  if ('ratio' in figure) return [...figure.ratio];
  return [figure.dominant];
}

/**
 * What a learner typed as an outcome, as a label: "-32603", "32603" and
 * "rpc -32603" are "rpc:-32603"; "iserror" is "isError".
 */
export function normaliseLabel(typed: string): string {
  const t = typed.trim();
  const code = /^(?:rpc\s*:?\s*)?(-?)(32\d{3})$/i.exec(t);
  if (code) return `rpc:-${code[2]}`;
  const known = [...Object.keys(OUTCOMES), 'none'];
  return known.find((k) => k.toLowerCase() === t.toLowerCase().replace(/\s+/g, '-')) ?? t;
}

/** Whether a normalised label is one the runner can give (a JSON-RPC code, a label of the outcome table, or none). */
export function isOutcomeLabel(label: string): boolean {
  return /^rpc:-32\d{3}$/.test(label) || Object.hasOwn(OUTCOMES, label) || label === 'none';
}
