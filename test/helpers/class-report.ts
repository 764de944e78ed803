/**
 * Shared by the class report tests (test/class-report.test.ts,
 * test/class-report-edges.test.ts): journals written with the real Journal
 * class in temporary folders laid out as an instructor collects them
 * (room/laptop-N/learners/<name>/notes/breaks.jsonl), the report built from
 * them, and the command as an instructor types it.
 *
 * A test file that calls `fresh` registers `afterAll(removeFreshDirs)` at its
 * top level.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discover } from '../../src/class/discover.js';
import { buildClassReport, type ClassReport, type LabelQuestionSummary, type NumberQuestionSummary } from '../../src/class/report.js';
import { loadCatalogue, type Lang } from '../../src/learn/catalogue.js';
import { Journal } from '../../src/learn/journal.js';
import { REPO } from './server.js';

const temps: string[] = [];
/** For afterAll: removes the folders `fresh` made. */
export function removeFreshDirs(): void {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
}
export function fresh(): string {
  const dir = mkdtempSync(join(tmpdir(), 'class-report-'));
  temps.push(dir);
  return dir;
}

const labs = loadCatalogue();
const BS_RUNS = [
  { name: 'low-level', server: 'low-level', client: 'faithful' },
  { name: 'mcpserver', server: 'mcpserver-1.32', client: 'faithful' },
];

export function journalAt(root: string, laptop: string, name: string): Journal {
  return new Journal(join(root, ...laptop.split('/'), 'learners', name, 'notes'));
}

export type Answers = Record<string, number | string | null>;

export function predict(j: Journal, lab: string, answers: Answers, lang: Lang, kind: 'prediction' | 'revision' = 'prediction'): void {
  j.append({ kind, lab, data: { answers, reasoning: 'because', runs: BS_RUNS, lang } });
}

/** A run entry as src/learn/flow.ts writes it: comparison rows and the measured values. */
export function run(j: Journal, lab: string, measured: Record<string, number | string>, lang: Lang, predicted: Answers = {}, seed = 1): void {
  const comparison = Object.entries(measured).map(([question, m]) => {
    const p = predicted[question] ?? null;
    return { question, predicted: p, measured: m, off: p === null ? null : typeof p === 'number' && typeof m === 'number' ? p - m : p === m };
  });
  j.append({ kind: 'run', lab, data: { settings: { seed, calls: 100, temperature: 0.7, runs: BS_RUNS }, lang, comparison, measured, figures: {} } });
}

export function reflect(j: Journal, lab: string, text: string, lang?: Lang): void {
  j.append({ kind: 'reflection', lab, data: lang === undefined ? { text } : { text, lang } });
}

export const BS_MEASURED = { 'missing-arguments': 42, 'dominant-failure': 'rpc:-32603', 'dominant-failure-mcpserver': 'isError', 'retries-per-failing-call': 3, 'ok-drop-low-level': 13.33, 'ok-drop-mcpserver': 3.33 };

export function report(folder: string, lang: Lang = 'en'): ClassReport {
  return buildClassReport({ folder, discovery: discover(folder), labs, lang, now: new Date('2026-01-01T09:00:00Z') });
}

export function question<T extends 'number' | 'label'>(r: ClassReport, lab: string, id: string, _kind: T): T extends 'number' ? NumberQuestionSummary : LabelQuestionSummary {
  return r.labs.find((l) => l.id === lab)!.questions.find((q) => q.id === id) as never;
}

/** The command as an instructor types it (through the launcher, as npm run does). */
export function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['scripts/launch.mjs', 'scripts/class.ts', ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, LANG: 'en_GB.UTF-8', LC_ALL: '', LC_MESSAGES: '', NO_COLOR: '1' } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
