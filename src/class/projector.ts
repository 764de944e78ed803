/**
 * The projector's state: what `GET /api/state` of `npm run class -- serve`
 * answers, and what the projector page (src/class/projector-page.ts) draws.
 *
 * It is the class report (src/class/report.ts) of the class folder, built the
 * same way `npm run class -- report <folder>` builds it (discover, then
 * buildClassReport), so the room and the report never disagree: each lab's
 * `live` numbers (every learner's first and latest prediction, run or not),
 * how many revised, and the "why" lines.
 *
 * The measurement is the class server's own, made when the instructor
 * reveals a lab (the lab run with its own default settings, as a learner's
 * plain run measures it), and it is in the state only for revealed labs.
 * What learners' own runs measured is left out on purpose: a learner who ran
 * early must not reveal the answer to the room through the projector.
 *
 * Names and texts stay as the learners wrote them; the page inserts them as
 * text (textContent), never as HTML.
 */
import { loadCatalogue, normaliseLabel, type Lab, type Lang } from '../learn/catalogue.js';
import type { ComparisonRow } from '../learn/predictions.js';
import { discover } from './discover.js';
import { buildClassReport, type ReflectionGroup, type Tally, type Value } from './report.js';

export const PROJECTOR_STATE_FORMAT = 'schema-breaks/projector-state';
/** Bump when a field changes meaning or goes away; adding a field does not. */
export const PROJECTOR_STATE_VERSION = 1;

/** What the class server measured for one question when the lab was revealed. */
export interface ServerMeasurement {
  /** Over the lab's seeds: the mean for a number, the most common label. */
  value: Value;
  /** Numbers: the least and the most one seed gave. */
  range?: [number, number];
  /** How many seeds the value is over. */
  seeds?: number;
}

/** Lab id -> question id -> the server's measurement. Only revealed labs are in it: a lab in it is shown as revealed. */
export type Measurements = Record<string, Record<string, ServerMeasurement>>;

/**
 * A lab's measurement from the rows `compare(lab, undefined, perSeed)`
 * (src/learn/predictions.ts) gives: the very figures a learner's own run puts
 * next to their prediction.
 */
export function measurementFromRows(rows: readonly ComparisonRow[]): Record<string, ServerMeasurement> {
  return Object.fromEntries(rows.map((row) => [row.question, { value: row.measured, ...(row.range ? { range: row.range } : {}), seeds: row.seeds }]));
}

export interface ProjectorQuestion {
  id: string;
  kind: 'number' | 'label';
  /** The prompt with its run in words, in the page's language. */
  prompt: string;
  unit: string | null;
  /** Numbers: the question's own scale (the catalogue's min and max), the axis the dots sit on. */
  axis: { min: number; max: number } | null;
  /** Each learner's first prediction. */
  first: Tally;
  /** Each learner's latest prediction or revision. */
  latest: Tally;
  /** Only when the lab is revealed (and measured). */
  measured: ServerMeasurement | null;
}

export interface ProjectorLearner {
  /** As the class report names the journal: untrusted text. */
  name: string;
  ran: boolean;
  revised: boolean;
  first: Record<string, Value | null>;
  latest: Record<string, Value | null>;
}

export interface ProjectorLab {
  id: string;
  /** 1..n, the catalogue's order: the key that toggles its reveal in the serve terminal. */
  key: number;
  title: string;
  revealed: boolean;
  /** Learners with a prediction or revision, run or not. */
  predicted: number;
  revised: number;
  /** Learners who ran it. */
  ran: number;
  learners: ProjectorLearner[];
  questions: ProjectorQuestion[];
  /** The "why" lines, grouped like the report's reflections. */
  reasons: ReflectionGroup[];
}

export interface ProjectorState {
  format: typeof PROJECTOR_STATE_FORMAT;
  version: typeof PROJECTOR_STATE_VERSION;
  generatedAt: string;
  lang: Lang;
  /** Journals counted (one per learner and laptop). */
  learners: number;
  /** Journals that could not be read (the report names them). */
  unreadable: number;
  labs: ProjectorLab[];
}

function revealedMeasurement(lab: Lab, questionId: string, measured: Measurements): ServerMeasurement | null {
  const m = Object.hasOwn(measured, lab.id) ? measured[lab.id]?.[questionId] : undefined;
  if (!m) return null;
  const question = lab.questions.find((q) => q.id === questionId)!;
  // Compared as the report compares labels: normalised ("rpc:-32603" and "-32603" are one outcome).
  return question.kind === 'label' && typeof m.value === 'string' ? { ...m, value: normaliseLabel(m.value) } : m;
}

/** The state of the class in `folder`: its journals read afresh (a few ms for a class of 30). */
export function projectorState(options: { folder: string; lang: Lang; measured: Measurements; labs?: Lab[]; now?: Date }): ProjectorState {
  const labs = options.labs ?? loadCatalogue();
  const report = buildClassReport({ folder: options.folder, discovery: discover(options.folder), labs, lang: options.lang, now: options.now });
  return {
    format: PROJECTOR_STATE_FORMAT,
    version: PROJECTOR_STATE_VERSION,
    generatedAt: report.generatedAt,
    lang: options.lang,
    learners: report.journals.length,
    unreadable: report.unreadable.length,
    labs: labs.map((lab, i) => {
      const summary = report.labs.find((l) => l.id === lab.id);
      const revealed = Object.hasOwn(options.measured, lab.id);
      return {
        id: lab.id,
        key: i + 1,
        title: lab.title[options.lang],
        revealed,
        predicted: summary?.live.predicted ?? 0,
        revised: summary?.live.revised ?? 0,
        ran: summary?.ran ?? 0,
        learners: (summary?.live.learners ?? []).map((l) => ({ name: l.learner, ran: l.ran, revised: l.revised, first: l.first.answers, latest: l.latest.answers })),
        questions: lab.questions.map((q, qi) => {
          const live = summary?.live.questions[qi];
          return {
            id: q.id,
            kind: q.kind,
            prompt: summary?.questions[qi]?.prompt ?? q.prompt[options.lang],
            unit: q.unit ?? null,
            axis: q.kind === 'number' && q.min !== undefined && q.max !== undefined ? { min: q.min, max: q.max } : null,
            first: live?.first ?? { answered: 0, distribution: [] },
            latest: live?.latest ?? { answered: 0, distribution: [] },
            measured: revealed ? revealedMeasurement(lab, q.id, options.measured) : null,
          };
        }),
        reasons: summary?.reasons ?? [],
      };
    }),
  };
}
