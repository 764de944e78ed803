/**
 * The live class's projector (src/class/projector.ts, projector-page.ts), in
 * a real browser: hand-written journals of 30 learners laid out as the class
 * server keeps them (<folder>/<device>/learners/<name>/notes/breaks.jsonl,
 * written with the real Journal class), a tiny node:http stub in this file
 * answering the page's three requests from projectorState, and the page
 * opened in headless chromium. Then `npm run class -- report <folder> --json`
 * on the same folder, which must give the same numbers.
 *
 * Every expected number is worked out by hand from the table below (the
 * sorted lists are written out in the comments), never from the code's output.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectorHtml } from '../src/class/projector-page.js';
import { measurementFromRows, projectorState, type Measurements, type ProjectorState } from '../src/class/projector.js';
import type { ClassReport } from '../src/class/report.js';
import type { Lang } from '../src/learn/catalogue.js';
import { Journal } from '../src/learn/journal.js';
import { BS_MEASURED, cli, fresh, removeFreshDirs, run } from './helpers/class-report.js';
import { CHROMIUM_ARGS, chromiumPath } from './helpers/chromium.js';
import { REPO } from './helpers/server.js';

afterAll(removeFreshDirs);

const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const LAB = 'broken-schema';

/**
 * The class. ma = missing-arguments (0..100), df = dominant-failure as typed;
 * `then` = their revision after the discussion; `ran` = they ran the lab
 * (their run measured 42, which must never reach the projector: only the
 * server's own measurement is shown, after the reveal).
 */
const CLASS: { name: string; ma: number; df: string; then?: { ma: number; df: string }; ran?: true; lang?: Lang; why?: string; whyThen?: string }[] = [
  { name: 'Ana', ma: 90, df: '-32602', then: { ma: 40, df: '-32603' }, why: 'The schema rejects bad calls', whyThen: 'The server answers -32603 for a bad call' },
  { name: 'Ben', ma: 10, df: '-32602', then: { ma: 45, df: '-32603' }, why: 'the schema rejects  bad calls', whyThen: 'the server answers -32603 for a bad call' },
  { name: 'Cai', ma: 70, df: '-32602', then: { ma: 42, df: '-32603' }, why: 'THE SCHEMA REJECTS BAD CALLS', whyThen: 'The server answers -32603 for a bad call' },
  { name: 'Dee', ma: 5, df: '-32602', then: { ma: 35, df: '-32603' }, why: 'The schema rejects bad calls ', whyThen: 'The server answers -32603 for a bad call' },
  { name: HOSTILE, ma: 60, df: '-32602', then: { ma: 50, df: '-32603' }, whyThen: 'The server answers -32603 for a bad call' },
  { name: 'Eli', ma: 80, df: 'isError', then: { ma: 38, df: 'isError' }, whyThen: 'The server answers -32603 for a bad call' },
  { name: 'Fay', ma: 20, df: '-32602', ran: true },
  { name: 'Gus', ma: 25, df: '-32602', ran: true },
  { name: 'Hal', ma: 30, df: '-32602', ran: true },
  { name: 'Ivy', ma: 35, df: 'iserror', ran: true },
  { name: 'Jon', ma: 40, df: 'isError', ran: true },
  { name: 'Kim', ma: 40, df: 'isError', ran: true },
  { name: 'Lou', ma: 45, df: 'isError', ran: true },
  { name: 'Max', ma: 50, df: 'isError', ran: true },
  { name: 'Ned', ma: 50, df: 'isError', ran: true },
  { name: 'Oli', ma: 55, df: 'isError', ran: true },
  { name: 'Pam', ma: 60, df: 'isError' },
  { name: 'Quin', ma: 65, df: 'isError' },
  { name: 'Ray', ma: 42, df: '32603' },
  { name: 'Sue', ma: 42, df: 'rpc -32603' },
  { name: 'Tom', ma: 42, df: '-32603' },
  { name: 'Uma', ma: 33, df: '-32603', lang: 'es', why: 'El esquema no se comprueba' },
  { name: 'Vic', ma: 38, df: '-32603', lang: 'es', why: 'el esquema no se comprueba' },
  { name: 'Wes', ma: 48, df: '-32603' },
  { name: 'Xia', ma: 52, df: '-32603' },
  { name: 'Yan', ma: 15, df: '-32603' },
  { name: 'Zed', ma: 75, df: '-32603' },
  { name: 'Abe', ma: 85, df: '-32603' },
  { name: 'Bo', ma: 12, df: '-32603' },
  { name: 'Cy', ma: 28, df: '-32603' },
];

// By hand from the table:
// first ma, sorted: 5 10 12 15 20 25 28 30 33 35 38 40 40 42 42 | 42 45 48 50 50 52 55 60 60 65 70 75 80 85 90: min 5, median 42, max 90
// latest ma (Ana 40, Ben 45, Cai 42, Dee 35, hostile 50, Eli 38):
//   12 15 20 25 28 30 33 35 35 38 38 40 40 40 42 | 42 42 42 45 45 48 50 50 50 52 55 60 65 75 85: min 12, median 42, max 85
// first df: rpc:-32602 8 (Ana Ben Cai Dee hostile Fay Gus Hal), isError 10 (Eli Ivy..Quin), rpc:-32603 12 (Ray..Cy)
// latest df: rpc:-32602 3, isError 10, rpc:-32603 17
const FIRST_DF = [
  { value: 'rpc:-32603', learners: 12 },
  { value: 'isError', learners: 10 },
  { value: 'rpc:-32602', learners: 8 },
];
const LATEST_DF = [
  { value: 'rpc:-32603', learners: 17 },
  { value: 'isError', learners: 10 },
  { value: 'rpc:-32602', learners: 3 },
];

/** What the class server measured itself at the reveal (made up, and unlike the learners' 42, so a leak would show). */
const SERVER_MEASURED: Measurements = {
  [LAB]: {
    'missing-arguments': { value: 37.25, range: [35, 40], seeds: 3 },
    'dominant-failure': { value: 'rpc:-32603', seeds: 3 },
    'dominant-failure-mcpserver': { value: 'isError', seeds: 3 },
    'retries-per-failing-call': { value: 3, range: [3, 3], seeds: 3 },
    'ok-drop-low-level': { value: 13.33, range: [10, 16.67], seeds: 3 },
    'ok-drop-mcpserver': { value: 3.33, range: [0, 6.67], seeds: 3 },
  },
};

const RUNS = [{ name: 'low-level', server: 'low-level', client: 'faithful' }];

function writeClass(root: string): void {
  CLASS.forEach((l, i) => {
    // As the class server keeps them: one folder per laptop (its device id), then the learner.
    const device = (i + 1).toString(16).padStart(16, '0');
    const j = new Journal(join(root, device, 'learners', l.name, 'notes'));
    const lang = l.lang ?? 'en';
    j.append({ kind: 'prediction', lab: LAB, data: { answers: { 'missing-arguments': l.ma, 'dominant-failure': l.df }, reasoning: l.why ?? '', runs: RUNS, lang } });
    if (l.then) j.append({ kind: 'revision', lab: LAB, data: { answers: { 'missing-arguments': l.then.ma, 'dominant-failure': l.then.df }, reasoning: l.whyThen ?? '', runs: RUNS, lang } });
    if (l.ran) run(j, LAB, BS_MEASURED, lang, { 'missing-arguments': l.ma, 'dominant-failure': l.df });
    // A second lab nobody has run: Ana predicts 70; Ben 20, then revises to 60.
    const anyof = (kind: 'prediction' | 'revision', continueOk: number) => j.append({ kind, lab: 'structural-anyof', data: { answers: { 'continue-ok': continueOk }, reasoning: '', runs: RUNS, lang } });
    if (l.name === 'Ana') anyof('prediction', 70);
    if (l.name === 'Ben') {
      anyof('prediction', 20);
      anyof('revision', 60);
    }
  });
}

// ---------------------------------------------------------------------------
// The stub: the three routes the page uses, answered from projectorState
// ---------------------------------------------------------------------------

const TOKEN = 'tok-3f9a1c';

interface Stub {
  url: string;
  server: Server;
  measured: Measurements;
  seen: { method: string; url: string; authorization?: string; body?: string }[];
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => resolve(text));
  });
}

async function startStub(folder: string, lang: Lang): Promise<Stub> {
  const stub: Stub = { url: '', server: undefined as never, measured: {}, seen: [] };
  stub.server = createServer(async (req, res) => {
    const text = req.method === 'POST' ? await body(req) : undefined;
    stub.seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body: text });
    const path = new URL(req.url!, 'http://x').pathname;
    if (req.method === 'GET' && path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(projectorHtml(lang));
      return;
    }
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'no or wrong token' }));
      return;
    }
    if (req.method === 'GET' && path === '/api/state') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(projectorState({ folder, lang, measured: stub.measured })));
      return;
    }
    if (req.method === 'POST' && path === '/api/reveal') {
      const { lab, revealed } = JSON.parse(text!) as { lab: string; revealed: boolean };
      if (revealed) stub.measured[lab] = SERVER_MEASURED[lab]!;
      else delete stub.measured[lab];
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => stub.server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(stub.server.address() as AddressInfo).port}`;
  return stub;
}

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
  it('counts 30 predictions per question before the reveal, with no measurement anywhere in the page; shows the server measurement after it', async () => {
    const stub = await startStub(folder, 'en');
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
    expect(await page.locator('.tick').count()).toBe(0);
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
    expect(await ma.locator('p.measured').textContent()).toBe('Measured: 37.25%');
    expect(await ma.locator('svg text', { hasText: 'Measured: 37.25%' }).count()).toBe(1);
    expect(await ma.locator('svg line[stroke-dasharray]').count()).toBe(1);
    expect(await df.locator('[data-label="rpc:-32603"] .tick').textContent()).toBe('✓');
    expect(await df.locator('[data-label="rpc:-32603"] .measured').textContent()).toBe('Measured: rpc:-32603');
    expect(await df.locator('.tick').count()).toBe(1);
    expect(await page.locator(`section[data-lab="${LAB}"] .badge`).textContent()).toBe('✓ Revealed');
    // Only that lab: the others stay hidden.
    expect(await page.locator('section[data-lab="structural-anyof"] .badge').textContent()).toBe('Measurement hidden until the instructor reveals it');
    expect(await page.locator('section[data-lab="structural-anyof"] .stats').textContent()).toBe('2 predicted · 1 revised · 0 ran it');

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
    const stub = await startStub(folder, 'es');
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

describe('the projector and the class report agree', () => {
  it('npm run class -- report FOLDER --json gives the same counts as projectorState, and both the hand-counted ones', () => {
    const state: ProjectorState = projectorState({ folder, lang: 'en', measured: {} });
    const result = cli(['report', folder, '--json', '--lang', 'en']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as ClassReport;
    const fromReport = report.labs.find((l) => l.id === LAB)!;
    const fromState = state.labs.find((l) => l.id === LAB)!;

    expect([fromReport.live.predicted, fromReport.live.revised, fromReport.ran]).toEqual([30, 6, 10]);
    expect([fromState.predicted, fromState.revised, fromState.ran]).toEqual([30, 6, 10]);
    for (const q of fromState.questions) {
      const r = fromReport.live.questions.find((x) => x.id === q.id)!;
      expect([q.id, q.first, q.latest]).toEqual([r.id, r.first, r.latest]);
    }
    const df = fromState.questions.find((q) => q.id === 'dominant-failure')!;
    expect(df.first.distribution).toEqual(FIRST_DF);
    expect(df.latest.distribution).toEqual(LATEST_DF);
    const ma = fromState.questions.find((q) => q.id === 'missing-arguments')!;
    expect([ma.first.answered, ma.latest.answered]).toEqual([30, 30]);
    expect(ma.first.distribution.filter((d) => d.value === 42)).toEqual([{ value: 42, learners: 3 }]);
    expect(ma.latest.distribution.filter((d) => d.value === 42)).toEqual([{ value: 42, learners: 4 }]);
    expect(fromState.reasons).toEqual(fromReport.reasons);
    expect(fromReport.reasons).toEqual([
      { lang: 'en', lines: [{ text: 'The server answers -32603 for a bad call', learners: 6 }, { text: 'The schema rejects bad calls', learners: 4 }] },
      { lang: 'es', lines: [{ text: 'El esquema no se comprueba', learners: 2 }] },
    ]);
    // Nothing measured in the state before the reveal, although ten learners ran the lab; the report still shows what their runs measured.
    expect(fromState.questions.every((q) => q.measured === null)).toBe(true);
    expect(fromReport.questions.find((q) => q.id === 'missing-arguments')!.measured?.value).toBe(42);
    // Names: the report's display names, the hostile one among them as typed.
    expect(fromState.learners.map((l) => l.name)).toEqual(fromReport.live.learners.map((l) => l.learner));
    expect(fromState.learners.map((l) => l.name)).toContain(HOSTILE);
  });
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
    expect(state.labs.map((l) => l.key)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
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

describe('the class report adds the live view and the why lines', () => {
  it('in the terminal, in English and Spanish, for a lab run by some and for a lab run by nobody', () => {
    const en = cli(['report', folder, '--lang', 'en', '--out', join(folder, 'report.en.html')]);
    expect(en.status).toBe(0);
    const lines = en.stdout.split('\n');
    const at = (text: string) => lines.findIndex((l) => l === text);
    const bs = at('broken-schema · The missing `required`');
    const sa = at('structural-anyof · Two shapes for one parameter');
    expect(bs).toBeGreaterThan(-1);
    const bsLines = lines.slice(bs, sa);
    expect(bsLines).toContain('  10 of 30 ran it · 10 predicted before their latest run (0 revised) · 20 predicted but have not run it yet');
    expect(bsLines).toContain('  30 locked a prediction, run or not · 6 revised');
    const after = (pattern: RegExp) => bsLines[bsLines.findIndex((l) => pattern.test(l)) + 1];
    expect(bsLines.find((l) => /^ {4}missing-arguments +first +/.test(l))).toMatch(/first +n=30  min 5  median 42  max 90$/);
    expect(after(/^ {4}missing-arguments +first +/)).toMatch(/^ +latest +n=30  min 12  median 42  max 85$/);
    expect(bsLines.find((l) => /^ {4}dominant-failure +first +/.test(l))).toMatch(/first +n=30  rpc:-32603 12 · isError 10 · rpc:-32602 8$/);
    expect(after(/^ {4}dominant-failure +first +/)).toMatch(/^ +latest +n=30  rpc:-32603 17 · isError 10 · rpc:-32602 3$/);
    expect(bsLines).toContain('  Who revised: first prediction, then latest:');
    expect(bsLines).toContain('    Ana: missing-arguments 90 → 40 · dominant-failure rpc:-32602 → rpc:-32603');
    expect(bsLines).toContain('    Eli: missing-arguments 80 → 38');
    expect(bsLines).toContain(`    ${HOSTILE}: missing-arguments 60 → 50 · dominant-failure rpc:-32602 → rpc:-32603`);
    const why = bsLines.indexOf('  Why: the reasoning written with the predictions (in English):');
    expect(bsLines.slice(why + 1, why + 5)).toEqual(['      6× The server answers -32603 for a bad call', '      4× The schema rejects bad calls', '  Why: the reasoning written with the predictions (in Spanish):', '      2× El esquema no se comprueba']);

    // Nobody ran structural-anyof: its predictions are shown all the same.
    const saLines = lines.slice(sa, sa + 8);
    expect(saLines).toContain('  Nobody has run this lab yet. 2 predicted but have not run it yet');
    expect(saLines).toContain('  2 locked a prediction, run or not · 1 revised');
    expect(saLines.find((l) => /^ {4}continue-ok +first +/.test(l))).toMatch(/first +n=2  min 20  median 45  max 70$/);
    expect(saLines.find((l) => /^ +latest +n=2/.test(l))).toMatch(/latest +n=2  min 60  median 65  max 70$/);
    expect(saLines).toContain('    Ben: continue-ok 20 → 60');

    const es = cli(['report', folder, '--lang', 'es', '--out', join(folder, 'report.es.html')]);
    expect(es.status).toBe(0);
    expect(es.stdout).toContain('\n  30 fijaron una predicción, con o sin ejecución · 6 la revisaron\n');
    expect(es.stdout).toContain('\n  Quién revisó: la primera predicción y la última:\n');
    expect(es.stdout).toContain('\n  Por qué: el razonamiento escrito con las predicciones (en español):\n      2× El esquema no se comprueba\n');
  });

  it('in the HTML report: the live card and the why lines, the hostile name escaped', () => {
    const file = join(folder, 'report.en.html');
    expect(cli(['report', folder, '--lang', 'en', '--out', file]).status).toBe(0);
    const html = readFileSync(file, 'utf8');
    // A lab's part of the page: from its heading to the next lab's.
    const section = (id: string) => {
      const start = html.indexOf(`<h2 id="lab-${id}"`);
      const next = html.indexOf('<section class="lab">', start);
      return html.slice(start, next === -1 ? undefined : next);
    };
    const bs = section('broken-schema');
    expect(bs).toContain('<h3>Predictions as locked, run or not: first and latest</h3><p class="stats">30 locked a prediction, run or not · 6 revised</p>');
    expect(bs).toContain('<td>n=30 · min 5 · median 42 · max 90</td><td>n=30 · min 12 · median 42 · max 85</td>');
    expect(bs).toContain('<td>n=30 · rpc:-32603 12 · isError 10 · rpc:-32602 8</td><td>n=30 · rpc:-32603 17 · isError 10 · rpc:-32602 3</td>');
    expect(bs).toContain('<tr><td>Ana</td><td>missing-arguments 90 · dominant-failure rpc:-32602</td><td>missing-arguments 40 · dominant-failure rpc:-32603</td></tr>');
    expect(bs).toContain('<tr><td>&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;</td>');
    expect(bs).toContain('<h3>Why: the reasoning written with the predictions</h3>');
    expect(bs).toContain('<li><span class="count">6×</span><span class="quote">The server answers -32603 for a bad call</span></li><li><span class="count">4×</span><span class="quote">The schema rejects bad calls</span></li>');
    expect(html).not.toContain('<img');
    const sa = section('structural-anyof');
    expect(sa).toContain('Nobody has run this lab yet.');
    expect(sa).toContain('<p class="stats">2 locked a prediction, run or not · 1 revised</p>');
    expect(sa).toContain('<tr><td>Ben</td><td>continue-ok 20</td><td>continue-ok 60</td></tr>');
  });
});
