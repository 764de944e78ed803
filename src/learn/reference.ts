/**
 * The reference a learner sees before predicting: what the healthy server
 * (the baseline, no break) gives in the very runs the questions are scored
 * on (the same server build, client profile, calls and seeds), and one plain
 * line on what the stand-in model and the agent do. Without it a prediction
 * is a blind guess: even the healthy server does not end every call ok.
 *
 * The figures are measured, never typed: `npm run sheets` runs each lab and
 * writes them to labs/<id>/baseline.json (`--check` fails when it is out of
 * date); the lab reads that file before its first question, since the run
 * that would measure them comes after the predictions are locked.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../lab/paths.js';
import { DEFAULT_KNOBS, type Knobs } from '../lab/knobs.js';
import { formatNumber, t, type MessageId } from '../core/messages/index.js';
import { questionRun, type Lab, type LabResults, type LabRun, type Lang } from './catalogue.js';

/** A number over the seeds: the mean, and the least and most one seed gave. */
export interface Spread {
  mean: number;
  min: number;
  max: number;
}

/** labs/<id>/baseline.json: the baseline's figures in each of the lab's runs. */
export interface BaselineFigures {
  $comment: string;
  lab: string;
  calls: number;
  seeds: number[];
  runs: Record<string, { server: string; client: string; finalOk: Spread; firstAttemptsFailed: Spread }>;
}

export function baselinePath(lab: string, root = REPO): string {
  return join(root, 'labs', lab, 'baseline.json');
}

/** The mean and the least and most of one number per seed, rounded as the sheets' figures are. */
function spread(values: number[]): Spread {
  const round = (x: number) => Math.round(x * 100) / 100;
  return { mean: round(values.reduce((a, b) => a + b, 0) / values.length), min: round(Math.min(...values)), max: round(Math.max(...values)) };
}

/** The baseline's figures from a run of the lab over its seeds (what `npm run sheets` writes). */
export function baselineFigures(lab: Lab, perSeed: LabResults[], seeds: number[], calls: number): BaselineFigures {
  const runs: BaselineFigures['runs'] = {};
  for (const run of lab.runs) {
    const baselines = perSeed.map((results) => results[run.name]!.runs.baseline);
    runs[run.name] = {
      server: run.server,
      client: run.client,
      finalOk: spread(baselines.map((b) => b.finalOutcomes.ok ?? 0)),
      // In %: the calls whose first attempt did not end ok.
      firstAttemptsFailed: spread(baselines.map((b) => (b.calls === 0 ? 0 : ((b.calls - (b.outcomes.ok ?? 0)) / b.calls) * 100))),
    };
  }
  return { $comment: 'Written by `npm run sheets` from a real run of the lab: the healthy server (no break) in each of its runs, over its seeds. Read by the lab before its questions. Do not edit.', lab: lab.id, calls, seeds, runs };
}

export function writeBaselineText(figures: BaselineFigures): string {
  return `${JSON.stringify(figures, null, 2)}\n`;
}

export function readBaseline(lab: string, root = REPO): BaselineFigures | undefined {
  const file = baselinePath(lab, root);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as BaselineFigures;
}

// ---------------------------------------------------------------------------
// A run in words
// ---------------------------------------------------------------------------

const SERVER_WORDS: Record<string, MessageId> = {
  'low-level': 'learn.words.server.low-level',
  'mcpserver-1.20': 'learn.words.server.mcpserver-1.20',
  'mcpserver-1.32': 'learn.words.server.mcpserver-1.32',
};

const CLIENT_WORDS: Record<string, MessageId> = {
  faithful: 'learn.words.client.faithful',
  'continue-gemini-2025-02': 'learn.words.client.continue-gemini-2025-02',
  'gemini-cli-2025-06': 'learn.words.client.gemini-cli-2025-06',
  langflow: 'learn.words.client.langflow',
  'openai-strict': 'learn.words.client.openai-strict',
  'vscode-copilot-2026-01': 'learn.words.client.vscode-copilot-2026-01',
  'gemini-cli-2025-11': 'learn.words.client.gemini-cli-2025-11',
  'claude-code-2026-08': 'learn.words.client.claude-code-2026-08',
  'ai-sdk-google-2026-11': 'learn.words.client.ai-sdk-google-2026-11',
};

/** "on the low-level server, shown as published": a lab's run as a newcomer reads it. */
export function runInWords(run: LabRun, lang: Lang): string {
  const server = Object.hasOwn(SERVER_WORDS, run.server) ? t(SERVER_WORDS[run.server]!, lang) : run.server;
  const client = Object.hasOwn(CLIENT_WORDS, run.client) ? t(CLIENT_WORDS[run.client]!, lang) : t('learn.words.client.other', lang, { client: run.client });
  const extras = [
    ...(run.workload === 'profile' ? [t('learn.words.workload.profile', lang)] : run.workload === 'lessons' ? [t('learn.words.workload.lessons', lang)] : []),
    ...(run.readOnly ? [t('learn.words.readOnly', lang)] : []),
  ];
  return [t('learn.words.run', lang, { server, client }), ...extras].join(', ');
}

// ---------------------------------------------------------------------------
// The reference lines
// ---------------------------------------------------------------------------

function said(s: Spread, lang: Lang): { value: string; range: string } {
  const f = (x: number) => formatNumber(x, lang, { decimals: 1 });
  return { value: f(s.mean), range: s.min === s.max ? '' : ` (${t('learn.reference.range', lang, { min: f(s.min), max: f(s.max) })})` };
}

/** The reference in its parts: what the terminal prints line by line and a handout sets as a paragraph, a list and a paragraph. */
export interface Reference {
  /** The figures' heading ("Before you predict, the reference: ..."); absent, with the runs, when the lab has no baseline.json. */
  title?: string;
  /** One sentence per run a question is scored on: where, and the baseline's figures there. */
  runs: string[];
  /** Said when the figures were measured with other settings than the run's. */
  otherSettings?: string;
  /** The model and the agent in one sentence. */
  model: string;
}

/**
 * The reference shown before the first question: the baseline's figures in
 * each run the questions are scored on, then the model and the agent in one
 * line. `settings` are the run's: figures measured with other seeds or calls
 * are shown with a line saying so.
 */
export function reference(lab: Lab, lang: Lang, knobs: Knobs, settings: { seeds: number[]; calls: number }, root = REPO): Reference {
  const figures = readBaseline(lab.id, root);
  const model = modelAndAgent(knobs, lang);
  if (!figures) return { runs: [], model };
  const runs: string[] = [];
  const scored = lab.runs.filter((run) => lab.questions.some((q) => questionRun(lab, q)?.name === run.name));
  for (const run of scored) {
    const f = figures.runs[run.name];
    if (!f) continue;
    const ok = said(f.finalOk, lang);
    const failed = said(f.firstAttemptsFailed, lang);
    runs.push(t('learn.reference.run', lang, { where: capitalised(runInWords(run, lang)), ok: ok.value, okRange: ok.range, calls: figures.calls, failed: failed.value, failedRange: failed.range }));
  }
  // `npm run sheets` measures with the default knobs: a run at another --temperature is told so too.
  const same = figures.calls === settings.calls && figures.seeds.join(',') === settings.seeds.join(',') && JSON.stringify(knobs) === JSON.stringify(DEFAULT_KNOBS);
  return {
    title: t('learn.reference.title', lang, { calls: figures.calls, first: figures.seeds[0]!, last: figures.seeds.at(-1)! }),
    runs,
    ...(same ? {} : { otherSettings: t('learn.reference.otherSettings', lang, { calls: figures.calls, first: figures.seeds[0]!, last: figures.seeds.at(-1)! }) }),
    model,
  };
}

/** The reference as the terminal prints it: the heading, each run indented under it, then the rest. */
export function referenceLines(lab: Lab, lang: Lang, knobs: Knobs, settings: { seeds: number[]; calls: number }, root = REPO): string[] {
  const r = reference(lab, lang, knobs, settings, root);
  return [...(r.title ? [r.title] : []), ...r.runs.map((line) => `  ${line}`), ...(r.otherSettings ? [r.otherSettings] : []), r.model];
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** What the stand-in model and the agent do, in one line, from the knobs the run uses (src/lab/knobs.ts). */
export function modelAndAgent(knobs: Knobs, lang: Lang): string {
  const pct = (x: number) => formatNumber(x * 100, lang, { decimals: x * 100 < 1 ? 2 : 0 });
  return t('learn.reference.model', lang, { optional: pct(knobs.dropStatedOptional), required: pct(knobs.dropRequired), turns: knobs.maxTurns, retries: knobs.maxTurns - 1 });
}
