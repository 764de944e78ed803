/**
 * The class report page as a room reads it (issue 35): a handful of learners
 * (five, on two laptops, two labs, revisions, reflections in both languages,
 * a value measured differently by one run), opened in chromium at 1920x1080
 * and 1280x720, in English and Spanish. The layout checker
 * (test/helpers/layout.ts) finds no text over text, no mark across text, no
 * text outside its box, no sideways scroll and no contrast under 4.5:1, with
 * every data table opened too. Screenshots go to test-output/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderClassPage } from '../src/class/page.js';
import type { Lang } from '../src/learn/catalogue.js';
import { CHROMIUM_ARGS, chromiumPath } from './helpers/chromium.js';
import { BS_MEASURED, fresh, journalAt, predict, reflect, removeFreshDirs, report, run } from './helpers/class-report.js';
import { layoutProblems } from './helpers/layout.js';
import { REPO } from './helpers/server.js';

afterAll(removeFreshDirs);

const OUT = join(REPO, 'test-output');

/** Five learners: Ana revises, Ben and Cai predict and run, Dee runs a seed that measures 43, Eva only predicts. */
function writeClass(root: string): void {
  const learners: [string, string, number, string, Lang][] = [
    ['Ana', 'room/laptop-1', 30, '-32603', 'en'],
    ['Ben', 'room/laptop-1', 55, 'isError', 'en'],
    ['Cai', 'room/laptop-2', 42, 'rpc:-32602', 'es'],
    ['Dee', 'room/laptop-2', 12, '-32603', 'es'],
  ];
  for (const [name, laptop, ma, df, lang] of learners) {
    const j = journalAt(root, laptop, name);
    const answers = { 'missing-arguments': ma, 'dominant-failure': df, 'retries-per-failing-call': ma / 10, 'ok-drop-low-level': 8, 'ok-drop-mcpserver': 2 };
    if (name === 'Ana') predict(j, 'broken-schema', { 'missing-arguments': 90, 'dominant-failure': 'timeout' }, lang);
    predict(j, 'broken-schema', answers, lang, name === 'Ana' ? 'revision' : 'prediction');
    run(j, 'broken-schema', name === 'Dee' ? { ...BS_MEASURED, 'missing-arguments': 43 } : BS_MEASURED, lang, answers, name === 'Dee' ? 2 : 1);
    reflect(j, 'broken-schema', lang === 'en' ? 'I thought schema validation would catch missing arguments' : 'Pensé que el esquema rechazaría la llamada', lang);
  }
  for (const [k, name] of ['Ana', 'Ben', 'Cai'].entries()) {
    const j = journalAt(root, k < 2 ? 'room/laptop-1' : 'room/laptop-2', name);
    const answers = { 'continue-ok': [0, 50, 100][k]!, 'langflow-errors': 10, 'langflow-silent-wrong': 5, 'faithful-silent-wrong': 0 };
    predict(j, 'structural-anyof', answers, 'en');
    run(j, 'structural-anyof', { 'continue-ok': 0, 'langflow-errors': 0, 'langflow-silent-wrong': 20, 'faithful-silent-wrong': 0 }, 'en', answers);
  }
  predict(journalAt(root, 'room/laptop-2', 'Eva'), 'broken-schema', { 'missing-arguments': 99 }, 'es');
}

const root = fresh();
writeClass(root);

let browser: Browser;
beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
});

describe('the class report page, five learners', () => {
  it.each([
    ['en', 1920, 1080],
    ['en', 1280, 720],
    ['es', 1920, 1080],
    ['es', 1280, 720],
  ] as const)('in %s at %ix%i: nothing overlaps, spills, scrolls sideways or reads under 4.5:1', async (lang, width, height) => {
    const file = join(OUT, `class-report.${lang}.html`);
    writeFileSync(file, renderClassPage(report(root, lang)));
    const page = await browser.newPage({ viewport: { width, height } });
    try {
      await page.goto(pathToFileURL(file).href);
      // The charts are there: one per question answered (broken-schema: 5, structural-anyof: 4).
      expect(await page.locator('svg.chart').count()).toBe(9);
      expect(await layoutProblems(page)).toEqual([]);
      if (lang === 'en') await page.screenshot({ path: join(OUT, `class-report-${width}x${height}.png`), fullPage: true });
      // Every data table opened, as an instructor does to read the numbers.
      for (const details of await page.locator('details').all()) await details.locator('summary').click();
      expect(await layoutProblems(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
