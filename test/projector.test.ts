/**
 * The live class's projector (src/class/projector.ts, projector-page.ts), in
 * a real browser: the 30 learners of test/helpers/live-class.ts, a tiny
 * node:http stub (test/helpers/projector-stub.ts) answering the page's
 * three requests from projectorState, and the page opened in headless chromium. (The class
 * report's side of the same numbers: test/class-report-live.test.ts.)
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measurementFromRows, projectorState } from '../src/class/projector.js';
import { loadCatalogue } from '../src/learn/catalogue.js';
import { fresh, removeFreshDirs } from './helpers/class-report.js';
import { CHROMIUM_ARGS, chromiumPath } from './helpers/chromium.js';
import { HOSTILE, LAB, writeClass } from './helpers/live-class.js';
import { REPO } from './helpers/server.js';
import { SERVER_MEASURED, startStub, TOKEN, type Stub } from './helpers/projector-stub.js';

afterAll(removeFreshDirs);


// ---------------------------------------------------------------------------

let folder: string;
let browser: Browser;
const stubs: Stub[] = [];

beforeAll(async () => {
  folder = fresh();
  writeClass(folder);
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
  for (const stub of stubs) stub.server.close();
});

/** The page opened as the instructor opens it, with every console error, page error and request to elsewhere collected. */
async function open(stub: Stub, hash = `#token=${TOKEN}`): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith(stub.url) && !r.url().startsWith('data:')) problems.push(`request elsewhere: ${r.url()}`);
  });
  await page.goto(`${stub.url}/${hash}`);
  return { page, problems };
}

const card = (page: Page, question: string) => page.locator(`section[data-lab="${LAB}"] [data-question="${question}"]`);

describe('the projector page in chromium', () => {
  it('shows one lab at a time when the instructor picks it, kept in the address across a reload, and every lab again on "All labs"', async () => {
    const stub = await startStub(folder, 'en', SERVER_MEASURED);
    stubs.push(stub);
    const labs = (p: Page) => p.locator('main section[data-lab]');
    const { page, problems } = await open(stub, `?lab=structural-anyof#token=${TOKEN}`);
    // Asked for in the address: that lab alone, its button pressed, the token gone and the choice kept.
    await expect.poll(() => labs(page).count(), { timeout: 10_000 }).toBe(1);
    expect(await labs(page).getAttribute('data-lab')).toBe('structural-anyof');
    expect(await page.locator('nav#focus button[aria-pressed="true"]').textContent()).toBe('2 structural-anyof');
    expect(new URL(page.url()).search).toBe('?lab=structural-anyof');
    expect(new URL(page.url()).hash).toBe('');
    // Every lab of the catalogue has its button (the catalogue's order, with its key), and "All labs" before them.
    const buttons = await page.locator('nav#focus button').allTextContents();
    expect(buttons[0]).toBe('All labs');
    expect(buttons.slice(1, 3)).toEqual(['1 broken-schema', '2 structural-anyof']);
    await page.locator('nav#focus button', { hasText: 'All labs' }).click();
    await expect.poll(() => labs(page).count()).toBe(buttons.length - 1);
    expect(new URL(page.url()).search).toBe('');
    await page.locator(`nav#focus button[data-focus="${LAB}"]`).click();
    await expect.poll(() => labs(page).count()).toBe(1);
    expect(await labs(page).getAttribute('data-lab')).toBe(LAB);
    // A reload keeps the choice (the token is in this tab's sessionStorage).
    await page.reload();
    await expect.poll(() => labs(page).count(), { timeout: 10_000 }).toBe(1);
    expect(await labs(page).getAttribute('data-lab')).toBe(LAB);
    // A lab the class does not have: every lab.
    await page.goto(`${stub.url}/?lab=no-such-lab`);
    await expect.poll(() => labs(page).count(), { timeout: 10_000 }).toBe(buttons.length - 1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('counts 30 predictions per question before the reveal, with no measurement anywhere in the page; shows the server measurement after it', async () => {
    const stub = await startStub(folder, 'en', SERVER_MEASURED);
    stubs.push(stub);
    const { page, problems } = await open(stub);
    const ma = card(page, 'missing-arguments');
    const df = card(page, 'dominant-failure');
    await expect.poll(() => ma.locator('[data-count]').getAttribute('data-count'), { timeout: 10_000 }).toBe('30');

    // The token: sent as a bearer header, gone from the address bar.
    expect(new URL(page.url()).hash).toBe('');
    expect(stub.seen.filter((r) => r.url === '/api/state').every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);

    expect(await ma.locator('.count').textContent()).toBe('30 predictions');
    expect(await df.locator('[data-count]').getAttribute('data-count')).toBe('30');
    // One hollow dot per first prediction, one filled dot per latest.
    expect(await ma.locator('circle.first').count()).toBe(30);
    expect(await ma.locator('circle.latest').count()).toBe(30);
    expect(await ma.locator('.numbers').allTextContents()).toEqual(['First predictions: min 5 · median 42 · max 90', 'Now, with revisions: min 12 · median 42 · max 85']);
    for (const [label, first, latest] of [
      ['rpc:-32603', 12, 17],
      ['isError', 10, 10],
      ['rpc:-32602', 8, 3],
    ] as const) {
      const row = df.locator(`[data-label="${label}"]`);
      expect(await row.locator('.lbar.first').textContent()).toBe(`${first} · First predictions`);
      expect(await row.locator('.lbar.latest').textContent()).toBe(`${latest} · Now, with revisions`);
    }
    const stats = page.locator(`section[data-lab="${LAB}"] .stats`);
    expect(await stats.textContent()).toBe('30 predicted · 6 revised · 10 ran it');

    // Hidden: nothing measured in the DOM, neither the server's 37.25 nor the 42 the learners' runs measured, nor the word.
    const text = (await page.locator('main').textContent())!;
    expect(await page.locator('[data-measured]').count()).toBe(0);
    expect(text).not.toContain('Measured');
    expect(text).not.toContain('37.25');
    expect(await page.locator('.lname .tick').count()).toBe(0); // no outcome ticked as the measured one (the axes' own .tick are numbers)
    expect(await page.locator(`section[data-lab="${LAB}"] .badge`).textContent()).toBe('Measurement hidden until the instructor reveals it');

    // Revisions next to the first predictions: the six who revised, each with only what changed.
    const rows = page.locator(`section[data-lab="${LAB}"] table.revisions tr:has(td)`);
    expect(await rows.count()).toBe(6);
    const ana = rows.filter({ has: page.locator('td.name', { hasText: /^Ana$/ }) });
    expect(await ana.locator('td.first').textContent()).toBe('missing-arguments 90% · dominant-failure rpc:-32602');
    expect(await ana.locator('td.latest').textContent()).toBe('missing-arguments 40% · dominant-failure rpc:-32603');
    const eli = rows.filter({ has: page.locator('td.name', { hasText: /^Eli$/ }) });
    expect(await eli.locator('td.first').textContent()).toBe('missing-arguments 80%');
    expect(await eli.locator('td.latest').textContent()).toBe('missing-arguments 38%');

    // The why lines, grouped like reflections: six learners wrote the -32603 line, four the schema line, two in Spanish.
    const why = page.locator(`section[data-lab="${LAB}"] .why li`);
    expect(await why.allTextContents()).toEqual(['6×The server answers -32603 for a bad call', '4×The schema rejects bad calls', '2×El esquema no se comprueba']);

    // A hostile name is text: shown as typed, no element made from it, nothing run.
    const hostile = page.locator(`section[data-lab="${LAB}"] td.name`, { hasText: '<img' });
    expect(await hostile.textContent()).toBe(HOSTILE);
    expect(await page.locator('.who .name', { hasText: '<img' }).textContent()).toBe(HOSTILE);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    // The reveal: the button posts it, the next state carries the server's measurement, drawn against the spread.
    await page.locator(`section[data-lab="${LAB}"] button`).click();
    await expect.poll(() => ma.locator('[data-measured]').count(), { timeout: 10_000 }).toBe(1);
    expect(stub.seen.filter((r) => r.url === '/api/reveal').map((r) => [r.authorization, JSON.parse(r.body!)])).toEqual([[`Bearer ${TOKEN}`, { lab: LAB, revealed: true }]]);
    // Said once, by the chart, in the measurement's own lane over its dashed line (test/projector-overview.test.ts: never across a word).
    expect(await ma.locator('svg text.measured-label').textContent()).toBe('Measured: 37.25%');
    expect(await ma.locator('p.measured').count()).toBe(0);
    expect(await ma.locator('svg line[stroke-dasharray]').count()).toBe(1);
    expect(await df.locator('[data-label="rpc:-32603"] .tick').textContent()).toBe('✓');
    expect(await df.locator('[data-label="rpc:-32603"] .measured').textContent()).toBe('Measured: rpc:-32603');
    expect(await df.locator('.tick').count()).toBe(1);
    expect(await page.locator(`section[data-lab="${LAB}"] .badge`).textContent()).toBe('✓ Revealed');
    // Only that lab: the others stay hidden.
    expect(await page.locator('section[data-lab="structural-anyof"] .badge').textContent()).toBe('Measurement hidden until the instructor reveals it');
    expect(await page.locator('section[data-lab="structural-anyof"] .stats').textContent()).toBe('2 predicted · 1 revised · 0 ran it');
    // Labels named like an object's inner workings are rows like any other, and change nothing else.
    const rt = page.locator('section[data-lab="root-transform"] [data-question="dominant-failure-1-20"]');
    for (const label of ['__proto__', 'constructor']) expect(await rt.locator(`[data-label="${label}"] .lbar.first`).textContent()).toBe('1 · First predictions');
    expect(await page.evaluate(() => Object.keys(Object.prototype).length)).toBe(0);

    mkdirSync(join(REPO, 'test-output'), { recursive: true });
    await page.screenshot({ path: join(REPO, 'test-output', 'projector.png'), fullPage: true });

    // And hidden again.
    await page.locator(`section[data-lab="${LAB}"] button`).click();
    await expect.poll(() => page.locator('[data-measured]').count(), { timeout: 10_000 }).toBe(0);
    expect(await page.locator('main').textContent()).not.toContain('37.25');

    // A reload: the address has no token any more; this tab's sessionStorage still has it.
    const before = stub.seen.length;
    await page.reload();
    expect(new URL(page.url()).hash).toBe('');
    await expect.poll(() => ma.locator('[data-count]').getAttribute('data-count'), { timeout: 10_000 }).toBe('30');
    expect(stub.seen.slice(before).filter((r) => r.url === '/api/state').every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);

    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('without the token, or with a wrong one, says so in one line and shows no data', async () => {
    const stub = await startStub(folder, 'es', SERVER_MEASURED);
    stubs.push(stub);
    const none = await open(stub, '');
    await expect.poll(() => none.page.locator('#status').textContent()).toContain('token');
    expect(await none.page.locator('section.lab').count()).toBe(0);
    expect(stub.seen.some((r) => r.url === '/api/state')).toBe(false);
    await none.page.close();

    const wrong = await open(stub, '#token=nope');
    await expect.poll(() => wrong.page.locator('#status').textContent()).toBe('El servidor de la clase rechazó este token. Vuelve a abrir la dirección que mostró `npm run class -- serve`.');
    expect(await wrong.page.locator('section.lab').count()).toBe(0);
    await wrong.page.close();

    // In Spanish, with the right token.
    const right = await open(stub);
    await expect.poll(() => card(right.page, 'missing-arguments').locator('.count').textContent(), { timeout: 10_000 }).toBe('30 predicciones');
    expect(await right.page.locator(`section[data-lab="${LAB}"] .badge`).textContent()).toBe('Medición oculta hasta que se revele');
    expect(right.problems.filter((p) => !p.includes('401'))).toEqual([]);

    // The server gone: one line saying so, and what was shown stays.
    stub.server.closeAllConnections();
    stub.server.close();
    await expect.poll(() => right.page.locator('#status').textContent(), { timeout: 10_000 }).toBe('El servidor de la clase no responde; se vuelve a intentar cada 2 segundos.');
    expect(await card(right.page, 'missing-arguments').locator('.count').textContent()).toBe('30 predicciones');
    await right.page.close();
  }, 60_000);
});

describe('the measurement in the state', () => {
  it('is the server\'s, for revealed labs only, labels normalised as the report normalises them', () => {
    const state = projectorState({ folder, lang: 'en', measured: { [LAB]: { 'dominant-failure': { value: '-32603', seeds: 3 }, 'missing-arguments': { value: 37.25, range: [35, 40], seeds: 3 } } } });
    const bs = state.labs.find((l) => l.id === LAB)!;
    expect(bs.revealed).toBe(true);
    const q = (id: string) => bs.questions.find((x) => x.id === id)!.measured;
    expect(q('dominant-failure')).toEqual({ value: 'rpc:-32603', seeds: 3 });
    expect(q('missing-arguments')).toEqual({ value: 37.25, range: [35, 40], seeds: 3 });
    expect(q('retries-per-failing-call')).toBeNull(); // revealed, but the server gave no figure for it
    const anyof = state.labs.find((l) => l.id === 'structural-anyof')!;
    expect(anyof.revealed).toBe(false);
    expect(anyof.questions.every((x) => x.measured === null)).toBe(true);
    // Each lab's key is its place in labs/catalogue.json, 1 on, however many labs the catalogue holds.
    expect(state.labs.map((l) => l.id)).toEqual(loadCatalogue().map((l) => l.id));
    expect(state.labs.map((l) => l.key)).toEqual(loadCatalogue().map((_l, i) => i + 1));
  });

  it('measurementFromRows keeps each row\'s value, range and seeds', () => {
    expect(
      measurementFromRows([
        { question: 'missing-arguments', predicted: null, measured: 41.33, range: [40, 43], seeds: 3, off: null },
        { question: 'dominant-failure', predicted: null, measured: 'rpc:-32603', seeds: 3, off: null },
      ]),
    ).toEqual({ 'missing-arguments': { value: 41.33, range: [40, 43], seeds: 3 }, 'dominant-failure': { value: 'rpc:-32603', seeds: 3 } });
  });
});
