/**
 * `npm run class -- report` for a class of 30 learners on three laptops, in
 * English and Spanish: the report, the terminal summary, --json, the page, and
 * the page opened in chromium. The journals are written with the real Journal
 * class in temporary folders laid out as an instructor collects them
 * (room/laptop-N/learners/<name>/notes/breaks.jsonl; the shared helpers are
 * test/helpers/class-report.ts). Every expected number below was worked out
 * by hand from the data written here, not by calling the code under test.
 * (The edge cases are test/class-report-edges.test.ts.)
 */
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { renderClassPage } from '../src/class/page.js';
import type { ClassReport, NumberQuestionSummary } from '../src/class/report.js';
import { renderClassTerminal } from '../src/class/terminal.js';
import type { Lang } from '../src/learn/catalogue.js';
import { BS_MEASURED, cli, fresh, journalAt, predict, question, reflect, removeFreshDirs, report, run, type Answers } from './helpers/class-report.js';
import { REPO } from './helpers/server.js';
import { CHROMIUM_ARGS, chromiumPath } from './helpers/chromium.js';

afterAll(removeFreshDirs);

// ---------------------------------------------------------------------------
// The 30-learner class
// ---------------------------------------------------------------------------

/**
 * Each learner's story in broken-schema:
 *  p  prediction, then run            r  prediction, revision, run (the revision counts)
 *  n  run without predicting          a  run, then a prediction (after the run: does not count)
 *  x  prediction, never ran           pr prediction, run, then a revision (the first prediction counts)
 * ma: their counted missing-arguments answer; df: their counted dominant-failure answer, as typed.
 */
const CLASS: { name: string; story: 'p' | 'r' | 'n' | 'a' | 'x' | 'pr'; lang: Lang; ma?: number | null; df?: string | null; retries?: number }[] = [
  { name: 'Ana', story: 'r', lang: 'en', ma: 30, df: '-32603' },
  { name: 'Ben', story: 'p', lang: 'en', ma: 40, df: '-32603', retries: 3 },
  { name: 'Cai', story: 'p', lang: 'en', ma: 42, df: 'isError', retries: 1 },
  { name: 'Dee', story: 'pr', lang: 'en', ma: 25, df: '-32602' },
  { name: 'Eli', story: 'p', lang: 'en', ma: 50, df: '-32603', retries: 2.5 },
  { name: 'Fay', story: 'n', lang: 'en' },
  { name: 'Gus', story: 'p', lang: 'en', ma: 10, df: 'rpc:-32603' },
  { name: 'Hal', story: 'p', lang: 'en', ma: 60, df: 'isError' },
  { name: 'Ivy', story: 'p', lang: 'en', ma: 35, df: '-32602' },
  { name: 'Jon', story: 'p', lang: 'en', ma: 20, df: '32603' },
  { name: 'Kim', story: 'r', lang: 'en', ma: 45, df: '-32603' },
  { name: 'Lou', story: 'n', lang: 'en' },
  { name: 'Max', story: 'p', lang: 'en', ma: 55, df: 'isError' },
  { name: 'Ned', story: 'p', lang: 'en', ma: null, df: '-32603' },
  { name: 'Oli', story: 'p', lang: 'en', ma: 70, df: 'ISERROR' },
  { name: 'Pam', story: 'r', lang: 'en', ma: 15, df: '-32603' },
  { name: 'Quin', story: 'p', lang: 'en', ma: 42, df: 'timeout' },
  { name: 'Ray', story: 'a', lang: 'en' },
  { name: 'Sue', story: 'p', lang: 'en', ma: 5, df: '-32603' },
  { name: 'Tom', story: 'p', lang: 'en', ma: 80, df: '-32602' },
  { name: 'Úrsula', story: 'r', lang: 'es', ma: 33, df: '-32603' },
  { name: 'Vera', story: 'p', lang: 'es', ma: 42, df: 'isError' },
  { name: 'Wen', story: 'p', lang: 'es', ma: 65, df: '-32603' },
  { name: 'Xavi', story: 'n', lang: 'es' },
  { name: 'Yago', story: 'p', lang: 'es', ma: 28, df: '-32603' },
  { name: 'Zoe', story: 'r', lang: 'es', ma: 90, df: '-32602' },
  { name: 'Álex', story: 'p', lang: 'es', ma: 12, df: '-32603' },
  { name: 'Bea', story: 'p', lang: 'es', ma: 48, df: 'isError' },
  { name: 'Ciro', story: 'x', lang: 'es' },
  { name: 'Dani', story: 'p', lang: 'es', ma: 38, df: null },
];

/** Reflections, by learner: case and spacing vary on purpose; Dee writes the same line twice. */
const REFLECTIONS: Record<string, { text: string; lang?: Lang }[]> = {
  Ana: [{ text: 'I thought schema validation would catch missing arguments', lang: 'en' }],
  Ben: [{ text: 'i thought  schema validation would catch missing arguments ', lang: 'en' }],
  Cai: [{ text: 'I THOUGHT schema validation would catch missing arguments', lang: 'en' }],
  Jon: [{ text: 'I thought schema\tvalidation would catch missing arguments', lang: 'en' }],
  Dee: [
    { text: 'I assumed -32603 would not be retried', lang: 'en' },
    { text: 'I assumed -32603 would NOT be retried', lang: 'en' },
  ],
  Eli: [{ text: 'I assumed -32603 would not be retried', lang: 'en' }],
  Gus: [{ text: 'i assumed -32603 would not be retried', lang: 'en' }],
  Hal: [{ text: 'Retries would fix it', lang: 'en' }],
  Úrsula: [{ text: 'Pensé que el esquema rechazaría la llamada', lang: 'es' }],
  Vera: [{ text: 'pensé que el esquema  rechazaría la llamada', lang: 'es' }],
  Wen: [{ text: 'PENSÉ QUE EL ESQUEMA RECHAZARÍA LA LLAMADA', lang: 'es' }],
  Yago: [{ text: 'Creí que habría menos reintentos', lang: 'es' }],
  Álex: [{ text: 'no language recorded' }],
};

/** Zoe, Álex and Bea ran with seed 2, which measures 43 missing arguments instead of 42. */
const SEED_2 = new Set(['Zoe', 'Álex', 'Bea']);

function writeClass(root: string): void {
  CLASS.forEach((l, i) => {
    const j = journalAt(root, `room/laptop-${(i % 3) + 1}`, l.name);
    const answers: Answers = { 'missing-arguments': l.ma ?? null, 'dominant-failure': l.df ?? null, 'retries-per-failing-call': l.retries ?? null, 'ok-drop-low-level': null, 'ok-drop-mcpserver': null };
    const measured = SEED_2.has(l.name) ? { ...BS_MEASURED, 'missing-arguments': 43 } : BS_MEASURED;
    const seed = SEED_2.has(l.name) ? 2 : 1;
    switch (l.story) {
      case 'p':
        predict(j, 'broken-schema', answers, l.lang);
        run(j, 'broken-schema', measured, l.lang, answers, seed);
        break;
      case 'r':
        predict(j, 'broken-schema', { 'missing-arguments': 99, 'dominant-failure': 'timeout' }, l.lang);
        predict(j, 'broken-schema', answers, l.lang, 'revision');
        run(j, 'broken-schema', measured, l.lang, answers, seed);
        break;
      case 'pr':
        predict(j, 'broken-schema', answers, l.lang);
        run(j, 'broken-schema', measured, l.lang, answers, seed);
        predict(j, 'broken-schema', { 'missing-arguments': 99, 'dominant-failure': '-32603' }, l.lang, 'revision');
        break;
      case 'n':
        run(j, 'broken-schema', measured, l.lang, {}, seed);
        break;
      case 'a':
        run(j, 'broken-schema', measured, l.lang, {}, seed);
        predict(j, 'broken-schema', { 'missing-arguments': 77, 'dominant-failure': '-32603' }, l.lang);
        break;
      case 'x':
        predict(j, 'broken-schema', { 'missing-arguments': 99, 'dominant-failure': '-32603' }, l.lang);
        break;
    }
    for (const r of REFLECTIONS[l.name] ?? []) reflect(j, 'broken-schema', r.text, r.lang);
  });
  // Three of them also did structural-anyof: Ana, Ben and Cai predicted 0, 50 and 100 calls ok behind Gemini.
  (['Ana', 'Ben', 'Cai'] as const).forEach((name, k) => {
    const i = CLASS.findIndex((l) => l.name === name);
    const j = journalAt(root, `room/laptop-${(i % 3) + 1}`, name);
    const answers = { 'continue-ok': [0, 50, 100][k]!, 'langflow-errors': null, 'langflow-silent-wrong': null, 'faithful-silent-wrong': null };
    predict(j, 'structural-anyof', answers, 'en');
    run(j, 'structural-anyof', { 'continue-ok': 0, 'langflow-errors': 0, 'langflow-silent-wrong': 20, 'faithful-silent-wrong': 0 }, 'en', answers);
  });
}

const classRoot = fresh();
writeClass(classRoot);

describe('30 learners, three laptops, English and Spanish', () => {
  const r = report(classRoot);
  const bs = r.labs.find((l) => l.id === 'broken-schema')!;

  it('counts every journal, and who predicted before their latest run', () => {
    expect(r.format).toBe('schema-breaks/class-report');
    expect(r.version).toBe(1);
    expect(r.journals).toHaveLength(30);
    expect(r.unreadable).toEqual([]);
    expect(r.duplicateNames).toEqual([]);
    expect(r.journals.find((j) => j.learner === 'Ana')).toMatchObject({ origin: 'room/laptop-1', display: 'Ana', path: 'room/laptop-1/learners/Ana/notes/breaks.jsonl' });
    // 30 touched the lab; Ciro only predicted. 25 stories p/r/pr predicted before their run; 5 of them revised.
    expect(bs).toMatchObject({ learners: 30, ran: 29, predicted: 25, revised: 5, predictedNotRun: 1 });
  });

  it('spreads the numeric predictions against the most common measured value', () => {
    const q = question(r, 'broken-schema', 'missing-arguments', 'number');
    // By hand: the 24 answers (Ned left it blank), sorted:
    const sorted = [5, 10, 12, 15, 20, 25, 28, 30, 33, 35, 38, 40, 42, 42, 42, 45, 48, 50, 55, 60, 65, 70, 80, 90];
    expect(q.answered).toBe(24);
    expect(q.predictions).toEqual(sorted);
    expect([q.min, q.median, q.max]).toEqual([5, 41, 90]); // median: (40 + 42) / 2
    expect(q.medianOff).toBe(-1); // 41 - 42
    expect(q.distribution.find((d) => d.value === 42)).toEqual({ value: 42, learners: 3 });
    expect(q.distribution).toHaveLength(22); // 24 answers, 42 three times
    // 26 runs measured 42, the three seed-2 runs 43: said so, and 42 is the reference.
    expect(q.measured).toEqual({ value: 42, values: [{ value: 42, learners: 26 }, { value: 43, learners: 3 }], differs: true });

    const retries = question(r, 'broken-schema', 'retries-per-failing-call', 'number');
    expect([retries.answered, retries.min, retries.median, retries.max, retries.medianOff]).toEqual([3, 1, 2.5, 3, -0.5]);
    expect(retries.measured).toEqual({ value: 3, values: [{ value: 3, learners: 29 }], differs: false });

    const drop = question(r, 'broken-schema', 'ok-drop-low-level', 'number');
    expect([drop.answered, drop.min, drop.median, drop.max]).toEqual([0, null, null, null]);
  });

  it('counts who named the dominant outcome, with labels normalised', () => {
    const q = question(r, 'broken-schema', 'dominant-failure', 'label');
    expect(q.answered).toBe(24); // Dani left it blank
    expect(q.right).toBe(13); // -32603, rpc:-32603 and 32603 all read as rpc:-32603
    expect(q.labels).toEqual([
      { label: 'rpc:-32603', learners: 13, right: true },
      { label: 'isError', learners: 6, right: false }, // ISERROR included
      { label: 'rpc:-32602', learners: 4, right: false },
      { label: 'timeout', learners: 1, right: false },
    ]);
  });

  it('groups "what I assumed wrong" by language, ignoring case and spacing, most frequent first', () => {
    expect(bs.reflections).toEqual([
      {
        lang: 'en',
        lines: [
          { text: 'I thought schema validation would catch missing arguments', learners: 4 },
          { text: 'I assumed -32603 would not be retried', learners: 3 }, // Dee twice counts once
          { text: 'Retries would fix it', learners: 1 },
        ],
      },
      {
        lang: 'es',
        lines: [
          { text: 'Pensé que el esquema rechazaría la llamada', learners: 3 },
          { text: 'Creí que habría menos reintentos', learners: 1 },
        ],
      },
      { lang: 'other', lines: [{ text: 'no language recorded', learners: 1 }] },
    ]);
  });

  it('summarises the other labs too', () => {
    const sa = r.labs.find((l) => l.id === 'structural-anyof')!;
    expect(sa).toMatchObject({ learners: 3, ran: 3, predicted: 3, revised: 0 });
    const q = question(r, 'structural-anyof', 'continue-ok', 'number');
    expect([q.min, q.median, q.max, q.medianOff]).toEqual([0, 50, 100, 50]);
    expect(r.labs.find((l) => l.id === 'root-transform')).toMatchObject({ learners: 0, ran: 0 });
  });

  it('prints a terminal summary and --json with the same numbers (exit 0)', () => {
    const terminal = renderClassTerminal(r);
    expect(terminal).toContain('30 journals counted');
    expect(terminal).toContain('29 of 30 ran it · 25 predicted before their latest run (5 revised)');
    expect(terminal).toMatch(/missing-arguments\s+measured 42\s+n=24 {2}min 5 {2}median 41 {2}max 90/);
    expect(terminal).toContain('13 of 24 named it right');
    expect(terminal).toContain('42 (26), 43 (3)');

    const json = cli(['report', classRoot, '--json', '--lang', 'en']);
    expect(json.stderr).toBe('');
    expect(json.status).toBe(0);
    const doc = JSON.parse(json.stdout) as ClassReport;
    expect(doc.format).toBe('schema-breaks/class-report');
    expect(doc.version).toBe(1);
    expect(doc.journals).toHaveLength(30);
    const q = doc.labs.find((l) => l.id === 'broken-schema')!.questions.find((x) => x.id === 'missing-arguments') as NumberQuestionSummary;
    expect([q.min, q.median, q.max]).toEqual([5, 41, 90]);

    const es = cli(['report', classRoot, '--lang', 'es', '--out', join(classRoot, 'informe.html')]);
    expect(es.status).toBe(0);
    expect(es.stdout).toContain('29 de 30 lo ejecutaron · 25 predijeron antes de su última ejecución (5 con revisión)');
    expect(readFileSync(join(classRoot, 'informe.html'), 'utf8')).toContain('<html lang="es">');
  });

  it('writes a self-contained page: every chart an SVG with role="img", a title, a description and a data table', () => {
    const html = renderClassPage(r);
    expect(html).not.toMatch(/<script|<link rel="stylesheet"|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    const charts = [...html.matchAll(/<svg class="chart"[^>]*role="img"[^>]*>[\s\S]*?<\/svg>\s*<details>[\s\S]*?<\/details>/g)];
    // broken-schema: 3 questions with answers (missing-arguments, dominant-failure, retries); structural-anyof: 1.
    expect(charts).toHaveLength(4);
    for (const [chart] of charts) {
      expect(chart).toMatch(/<title id="[^"]+">[^<]+<\/title><desc id="[^"]+">[^<]+<\/desc>/);
      expect(chart).toContain('<table>');
    }
    expect(html).toContain('Learners measured different values');
  });
});

// ---------------------------------------------------------------------------
// In a real browser
// ---------------------------------------------------------------------------

describe('the class page in chromium', () => {
  it('opens from disk with no console errors and no network, and its charts are visible', async () => {
    const executablePath = chromiumPath();
    // The class above, plus a corrupt journal and a second Ana, so the page shows its notices too.
    const root = fresh();
    writeClass(root);
    const twin = journalAt(root, 'room/laptop-7', 'Ana');
    predict(twin, 'broken-schema', { 'missing-arguments': 38, 'dominant-failure': '-32603' }, 'en');
    run(twin, 'broken-schema', BS_MEASURED, 'en');
    const bad = journalAt(root, 'room/laptop-2', 'Cleo');
    predict(bad, 'broken-schema', { 'missing-arguments': 99 }, 'en');
    appendFileSync(bad.jsonlPath, 'not json\n');
    const file = join(root, 'class-report.html');
    expect(cli(['report', root, '--out', file, '--lang', 'en']).status).toBe(0);

    const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('requestfailed', (r) => problems.push(`failed request: ${r.url()}`));
      page.on('request', (r) => {
        if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) problems.push(`network request: ${r.url()}`);
      });
      await page.goto(pathToFileURL(file).href);
      await page.waitForLoadState('load');
      const charts = page.locator('svg[role="img"]');
      expect(await charts.count()).toBe(4);
      for (const chart of await charts.all()) {
        await expect.poll(() => chart.isVisible()).toBe(true);
        const box = await chart.boundingBox();
        expect(box!.width).toBeGreaterThan(600);
        expect(box!.height).toBeGreaterThan(80);
        expect(await chart.locator('title').textContent()).toBeTruthy();
        expect(await chart.locator('desc').textContent()).toBeTruthy();
      }
      expect(await page.locator('circle').count()).toBe(24 + 3 + 1 + 3); // one dot per numeric answer (+ the second Ana)
      expect(await page.getByText('2 journals are named Ana: counted separately').isVisible()).toBe(true);
      expect(await page.getByText('Journals that could not be read').isVisible()).toBe(true);
      mkdirSync(join(REPO, 'test-output'), { recursive: true });
      await page.screenshot({ path: join(REPO, 'test-output', 'class-report.png'), fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
