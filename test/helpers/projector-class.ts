/**
 * The class of 30 the projector's page tests draw (test/presenter.test.ts,
 * test/projector-overview.test.ts): every learner answered every question of
 * broken-schema, a third of them revised, one has a hostile name and one a
 * long one; the server measured the ok-drop (7.8, every prediction
 * between 0 and 20 on a -100..100 question). Written with the real Journal
 * class, laid out as the class server keeps journals.
 *
 * A test file that calls `openClass` registers `afterAll(removeFreshDirs)`
 * (test/helpers/class-report.ts) and closes what it gets back.
 */
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Measurements } from '../../src/class/projector.js';
import { normaliseLabel } from '../../src/learn/catalogue.js';
import { Journal } from '../../src/learn/journal.js';
import { fresh } from './class-report.js';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.js';
import { HOSTILE } from './live-class.js';
import { SERVER_MEASURED as SHARED, startStub, type Stub } from './projector-stub.js';

export const LAB = 'broken-schema';
export const QUESTIONS = ['missing-arguments', 'dominant-failure', 'dominant-failure-mcpserver', 'retries-per-failing-call', 'ok-drop-low-level', 'ok-drop-mcpserver'];
export const NAMES = ['Ana', 'Ben', 'Cai', 'Dee', HOSTILE, 'Eli', 'Fay', 'Gus', 'Hal', 'Ivy', 'Jon', 'Kim', 'Lou', 'Max', 'Ned', 'Oli', 'Pam', 'Quin', 'Ray', 'Sue', 'Tom', 'Uma', 'Vic', 'Wes', 'Xia', 'Yan', 'Zed', 'Abe', 'Bo', 'Maximiliano de la Cruz'];
const LABELS = ['-32602', '-32603', 'isError', 'rpc:-32603', 'timeout'];

/**
 * Learner i's answers: spread as a room spreads them. The ok-drops sit
 * between 0 and 20 on a -100..100 question (the screenshot), so a
 * -100..100 axis would squeeze them into a tenth of the width.
 */
export function answers(i: number, revised: boolean): Record<string, number | string> {
  const k = revised ? i + 7 : i;
  return {
    'missing-arguments': revised ? 30 + ((i * 7) % 25) : 5 + ((i * 29) % 86),
    'dominant-failure': LABELS[k % LABELS.length]!,
    'dominant-failure-mcpserver': LABELS[(k * 3 + 1) % 3]!,
    'retries-per-failing-call': revised ? 2 + (i % 3) : i % 10,
    'ok-drop-low-level': revised ? 6 + (i % 5) : (i * 3) % 21,
    'ok-drop-mcpserver': revised ? 2 + (i % 4) : (i * 7) % 16,
  };
}
export const REVISED = (i: number): boolean => i % 3 === 0;

/** The server's measurement: the shared one, with the ok-drop (7.8, every prediction between 0 and 20). */
export const SERVER_MEASURED: Measurements = { [LAB]: { ...SHARED[LAB], 'ok-drop-low-level': { value: 7.8, range: [5, 10.5], seeds: 3 } } };

export function writeClass(root: string): void {
  const runs = [{ name: 'low-level', server: 'low-level', client: 'faithful' }];
  NAMES.forEach((name, i) => {
    const j = new Journal(join(root, (i + 1).toString(16).padStart(16, '0'), 'learners', name, 'notes'));
    j.append({ kind: 'prediction', lab: LAB, data: { answers: answers(i, false), reasoning: 'a guess', runs, lang: 'en' } });
    if (REVISED(i)) j.append({ kind: 'revision', lab: LAB, data: { answers: answers(i, true), reasoning: 'after the talk', runs, lang: 'en' } });
  });
}

/** Who changed their answer to a question, worked out from the table above ("-32603" and "rpc:-32603" are one outcome, as the journal keeps them). */
export function movers(question: string): number {
  const kept = (v: number | string | undefined) => (typeof v === 'string' ? normaliseLabel(v) : v);
  return NAMES.filter((_, i) => REVISED(i) && kept(answers(i, false)[question]) !== kept(answers(i, true)[question])).length;
}

/**
 * The class in a fresh folder, chromium, and the projector stub over them.
 * `more` writes more into the folder and gives what a reveal shows for it;
 * `measured` is everything a reveal can show.
 */
export async function openClass(more?: (folder: string) => Measurements): Promise<{ browser: Browser; stub: Stub; measured: Measurements }> {
  const folder = fresh();
  writeClass(folder);
  const measured = { ...SERVER_MEASURED, ...more?.(folder) };
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  return { browser, stub: await startStub(folder, 'en', measured), measured };
}

/** The page's script errors and console errors, as they come: a test expects none. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

/** Before the reveal: no measurement anywhere in the page, neither its figure, nor the word, nor its band or line. */
export async function expectNoMeasurement(page: Page): Promise<void> {
  expect(await page.locator('[data-measured]').count()).toBe(0);
  expect(await page.locator('main').textContent()).not.toContain('Measured');
  expect(await page.locator('rect.band, line.measured-line').count()).toBe(0);
}
