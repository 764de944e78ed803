/**
 * The projector's presenter view (src/class/presenter-script.ts; issue 35)
 * in chromium at 1920x1080 and 1280x720: a class of 30 learners who answered
 * every question of broken-schema (a third of them revised), each question
 * shown alone before and after the reveal. The layout checker
 * (test/helpers/layout.ts) finds nothing on any screen: no text over text,
 * no mark across text, no text outside its box, no sideways scroll, contrast
 * of 4.5:1 at least, the question wholly in the window. Then what the room
 * must be able to read: the sizes, the fitted axis, who moved, the counts,
 * no measurement before the reveal. Screenshots in test-output/presenter-*.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeFreshDirs } from './helpers/class-report.js';
import { layoutProblems } from './helpers/layout.js';
import { expectNoMeasurement, LAB, movers, openClass, pageErrors, QUESTIONS, SERVER_MEASURED } from './helpers/projector-class.js';
import { TOKEN, type Stub } from './helpers/projector-stub.js';
import { REPO } from './helpers/server.js';

afterAll(removeFreshDirs);

let browser: Browser;
let stub: Stub;
beforeAll(async () => {
  ({ browser, stub } = await openClass());
});
afterAll(async () => {
  await browser?.close();
  stub?.server.close();
});

const OUT = join(REPO, 'test-output');
const screen = (page: Page) => page.locator('section.present');

/** Waits for the presenter view of `question`, drawn from a state with all 30 learners in it. */
async function showing(page: Page, question: string): Promise<void> {
  await expect.poll(() => screen(page).getAttribute('data-question'), { timeout: 10_000 }).toBe(question);
  await expect.poll(() => screen(page).locator('[data-count]').getAttribute('data-count'), { timeout: 10_000 }).not.toBeNull();
  expect(new URL(page.url()).search).toBe(`?lab=${LAB}&q=${question}`);
}

/** Every px font size of the text in the presenter view, with the text. */
function fontSizes(page: Page): Promise<{ text: string; px: number }[]> {
  return page.evaluate(`(function () {
    var out = [], walker = document.createTreeWalker(document.querySelector('section.present'), NodeFilter.SHOW_TEXT);
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.nodeValue.trim() || n.parentNode.closest('title')) continue;
      out.push({ text: n.nodeValue.trim().slice(0, 30), px: parseFloat(getComputedStyle(n.parentNode).fontSize) });
    }
    return out;
  })()`);
}

/** The axis's tick values, as drawn. */
async function ticks(page: Page): Promise<number[]> {
  return (await screen(page).locator('svg text.tick').allTextContents()).map(Number);
}

for (const [width, height] of [
  [1920, 1080],
  [1280, 720],
] as const) {
  describe(`the presenter view at ${width}x${height}, 30 learners`, () => {
    it('shows each question alone, wholly in the window, with nothing overlapping, before and after the reveal', async () => {
      mkdirSync(OUT, { recursive: true });
      const page = await browser.newPage({ viewport: { width, height } });
      const errors = pageErrors(page);
      stub.measured = {};
      await page.goto(`${stub.url}/?lab=${LAB}&q=${QUESTIONS[0]}#token=${TOKEN}`);
      await showing(page, QUESTIONS[0]!);
      expect(await screen(page).locator('[data-count]').getAttribute('data-count')).toBe('30');

      for (const phase of ['hidden', 'revealed'] as const) {
        // Forward through the lab with the arrow key (hidden), back with Page Up (revealed): both move.
        const order = phase === 'hidden' ? QUESTIONS : [...QUESTIONS].reverse();
        for (const [n, question] of order.entries()) {
          if (n > 0) await page.keyboard.press(phase === 'hidden' ? 'ArrowRight' : 'PageUp');
          await showing(page, question);
          const problems = await layoutProblems(page, { inView: 'section.present' });
          await page.screenshot({ path: join(OUT, `presenter-${width}x${height}-${phase}-${question}.png`) });
          expect(problems, `${question}, ${phase}`).toEqual([]);
          // Counts always there: this question's, and the lab's.
          expect(await screen(page).locator('.count').textContent()).toBe('30 predictions');
          expect(await screen(page).locator('.stats').textContent()).toBe('30 predicted · 10 revised · 0 ran it');
          // Who moved: one arrow each (numbers), and each named beside the chart (or "+N more" for those that do not fit).
          const moved = movers(question);
          expect(await screen(page).locator('aside.moved h4').textContent()).toBe(`Who moved (${moved})`);
          const listed = await screen(page).locator('aside.moved li:not(.more)').count();
          const more = (await screen(page).locator('aside.moved li.more').allTextContents())[0];
          expect(listed + (more ? Number(/\d+/.exec(more)![0]) : 0)).toBe(moved);
          if (!question.startsWith('dominant')) expect(await screen(page).locator('svg line.move').count()).toBe(moved);
          if (phase === 'hidden') {
            await expectNoMeasurement(page);
          } else {
            await expect.poll(() => page.locator('[data-measured], .lbars .measured').count()).toBe(1);
          }
          if (width === 1920) {
            // From the back of the room: every word at least 24 px, the measurement at least 48.
            const small = (await fontSizes(page)).filter((f) => f.px < 24);
            expect(small).toEqual([]);
            if (phase === 'revealed') {
              const measured = await page.locator('svg text.measured-label, .lbars .measured').evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
              expect(measured).toBeGreaterThanOrEqual(48);
            }
          }
        }
        if (phase === 'hidden') {
          await screen(page).locator('button.reveal').click();
          await expect.poll(() => page.locator('[data-measured]').count(), { timeout: 10_000 }).toBe(1);
          expect(await page.locator('svg text.measured-label').textContent()).toBe('Measured: 3.33');
        }
      }
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);

    it('fits the axis to the predictions and the measurement, the whole scale as a strip above it', async () => {
      const page = await browser.newPage({ viewport: { width, height } });
      stub.measured = { [LAB]: SERVER_MEASURED[LAB]! };
      await page.goto(`${stub.url}/?lab=${LAB}&q=ok-drop-low-level#token=${TOKEN}`);
      await showing(page, 'ok-drop-low-level');
      await expect.poll(() => page.locator('[data-measured]').count(), { timeout: 10_000 }).toBe(1);
      // Predictions 0..20 (revisions 6..10), measured 7.8 over 5..10.5: the axis spans about that, not -100..100.
      const drawn = await ticks(page);
      expect(Math.min(...drawn)).toBeGreaterThanOrEqual(-5);
      expect(Math.max(...drawn)).toBeLessThanOrEqual(25);
      expect(Math.max(...drawn)).toBeGreaterThanOrEqual(20);
      expect(await screen(page).locator('svg text', { hasText: 'from -100 to 100' }).count()).toBe(1);
      expect(await screen(page).locator('svg rect.window').count()).toBe(1);
      // The measured label sits over its line: its middle within the label's own width of the line.
      const line = await screen(page).locator('line.measured-line').boundingBox();
      const label = await screen(page).locator('text.measured-label').boundingBox();
      expect(label!.x).toBeLessThanOrEqual(line!.x + 3);
      expect(label!.x + label!.width).toBeGreaterThanOrEqual(line!.x);
      expect(label!.y + label!.height).toBeLessThanOrEqual(line!.y + 1);
      stub.measured = {};
      await page.close();
    }, 60_000);

    it('keeps the question across a reload, moves with the buttons, and goes back to the overview', async () => {
      const page = await browser.newPage({ viewport: { width, height } });
      await page.goto(`${stub.url}/?lab=${LAB}&q=retries-per-failing-call#token=${TOKEN}`);
      await showing(page, 'retries-per-failing-call');
      await page.reload();
      await showing(page, 'retries-per-failing-call');
      expect(await screen(page).locator('.pos').textContent()).toMatch(/^Question 4 of \d+$/);
      await screen(page).locator('button.next').click();
      await showing(page, 'ok-drop-low-level');
      await screen(page).locator('button.prev').click();
      await showing(page, 'retries-per-failing-call');
      await screen(page).locator('button.overview').click();
      await expect.poll(() => page.locator(`main section.lab[data-lab="${LAB}"]`).count()).toBe(1);
      expect(new URL(page.url()).search).toBe(`?lab=${LAB}`);
      expect(await page.locator('section.present').count()).toBe(0);
      // And in again from the overview's button: the lab on the wall, from its first question.
      await page.locator('#present').click();
      await showing(page, 'missing-arguments');
      await page.close();
    }, 60_000);
  });
}
