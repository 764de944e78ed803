/**
 * The sweep page as a room reads it (issue 35): every lab row x every client
 * profile x every server build (a report made without running anything,
 * test/helpers/sweep-report.ts), opened in chromium at 1920x1080 and at
 * 1280x720, in English and Spanish. The layout checker (test/helpers/layout.ts)
 * finds no text over text, no mark across text, no text outside its box, no
 * sideways scroll and no contrast under 4.5:1, whichever server build and
 * figure is chosen. Screenshots go to test-output/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../src/class/sweep.js';
import { labChunks } from '../src/class/sweep-page.js';
import { CHROMIUM_ARGS, chromiumPath } from './helpers/chromium.js';
import { layoutProblems } from './helpers/layout.js';
import { REPO } from './helpers/server.js';
import { sweepFixture } from './helpers/sweep-report.js';

const OUT = join(REPO, 'test-output');
const report = sweepFixture();
let browser: Browser;
let page: Page;
beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
});

/** The page written to test-output/ and opened from there, as an instructor opens out/sweep.html. */
async function open(lang: 'en' | 'es', width: number, height: number): Promise<void> {
  const file = join(OUT, `sweep.${lang}.html`);
  writeFileSync(file, renderPage(report, lang));
  await page.setViewportSize({ width, height });
  await page.goto(pathToFileURL(file).href);
}

describe('the sweep page, every host x every lab x every server build', () => {
  /** Tables a build is split into: at most 8 labs each (LABS_PER_TABLE, src/class/sweep-page.ts), written here by hand. */
  const tables = Math.ceil(report.labs.length / 8);

  it('is laid out as the fixture says: 17 hosts x every lab of the catalogue x 3 builds', () => {
    expect(report.clients).toHaveLength(17);
    expect(report.servers).toHaveLength(3);
    expect(report.cells).toHaveLength(report.labs.length * 17 * 3);
  });

  it.each([
    ['en', 1920, 1080],
    ['en', 1280, 720],
    ['es', 1920, 1080],
    ['es', 1280, 720],
  ] as const)('in %s at %ix%i: nothing overlaps, spills, scrolls sideways or reads under 4.5:1, for every server build', async (lang, width, height) => {
    await open(lang, width, height);
    const builds = page.locator('label.choice-build');
    expect(await builds.count()).toBe(report.servers.length);
    for (let i = 0; i < report.servers.length; i++) {
      await builds.nth(i).click();
      // One build at a time: the chosen build's tables (more than one past 8 labs), its host x lab cells each one figure.
      expect(await page.locator('table.grid:visible').count()).toBe(tables);
      expect(await page.locator('table.grid:visible tbody tr').count()).toBe(report.clients.length * tables);
      expect(await page.locator('table.grid:visible td.cell').count()).toBe(report.clients.length * report.labs.length * 3);
      expect(await layoutProblems(page), `${report.servers[i]}`).toEqual([]);
      if (i === 0 && lang === 'en') await page.screenshot({ path: join(OUT, `sweep-${width}x${height}.png`) });
    }
    // Every other figure too, on the last build.
    const figures = page.locator('label.choice-figure');
    for (let i = 0; i < (await figures.count()); i++) {
      await figures.nth(i).click();
      expect(await layoutProblems(page), (await figures.nth(i).textContent()) ?? '').toEqual([]);
    }
    if (lang === 'es' && width === 1280) await page.screenshot({ path: join(OUT, `sweep-es-${width}x${height}-last-figure.png`) });
  });
});

describe('a sweep of many labs is split into tables of at most 8 labs, of even size (labChunks)', () => {
  it('8 labs: one table; 10: two of 5; 12: two of 6; 17: three of 6, 6 and 5; none: no table of labs', () => {
    const sizes = (n: number) => labChunks(Array.from({ length: n }, (_, i) => i)).map((c) => c.length);
    expect(sizes(8)).toEqual([8]);
    expect(sizes(10)).toEqual([5, 5]);
    expect(sizes(12)).toEqual([6, 6]);
    expect(sizes(17)).toEqual([6, 6, 5]);
    expect(sizes(0)).toEqual([]);
    expect(labChunks([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]).flat()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
