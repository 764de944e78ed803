/**
 * The HTML report: a page made from real runs is self-contained (no network,
 * no script), accessible (every chart an image with a title, a description
 * and a data table), uses one colour per outcome label everywhere, and
 * escapes whatever comes from outside. `npm run report` turns a saved --json
 * into a page and refuses anything else with one line and exit code 2;
 * `npm run lab -- --html FILE` writes one. Then Debian's chromium opens each
 * page from disk: no console error, no request, charts visible, and a
 * screenshot in test-output/ for a person to look at.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerBuild } from '../src/minimcp/errors.js';
import { DEFAULT_KNOBS } from '../src/lab/knobs.js';
import { getProfile } from '../src/lab/profiles/index.js';
import { toJson, type LabReport } from '../src/lab/report.js';
import { runLab } from '../src/lab/side-by-side.js';
import { loadCatalogue, measure, type Lab, type LabResults } from '../src/learn/catalogue.js';
import { renderReportPage, type PageInput } from '../src/report/html.js';
import { labSheetQuote } from '../src/report/write.js';
import { main as reportMain } from '../src/cli/report.js';
import { commandHere, lab as labCommand } from './helpers/lab.js';
import { REPO } from './helpers/server.js';
import { CHROMIUM_ARGS, chromiumPath } from './helpers/chromium.js';

const CALLS = 20;
const HOSTILE = '<img src=x onerror=alert(1)>';
const OUTPUT = join(REPO, 'test-output');

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'schema-breaks-html-'));
  temps.push(dir);
  return dir;
}

async function single(variant: string, client: string, server: ServerBuild): Promise<LabReport> {
  return runLab({ variant, solution: true, json: true, settings: { client: getProfile(client)!, server, seed: 1, calls: CALLS, knobs: DEFAULT_KNOBS } });
}

async function labResults(lab: Lab): Promise<LabResults> {
  const results: LabResults = {};
  for (const run of lab.runs) {
    results[run.name] = await runLab({ variant: lab.id, solution: false, json: false, settings: { client: getProfile(run.client)!, server: run.server, seed: 1, calls: CALLS, knobs: DEFAULT_KNOBS } });
  }
  return results;
}

// ---------------------------------------------------------------------------
// Reading the markup: real tags and their attributes, never the text between them
// ---------------------------------------------------------------------------

interface Tag {
  name: string;
  attrs: Record<string, string>;
  raw: string;
}

const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

function tags(html: string): Tag[] {
  const out: Tag[] = [];
  for (const m of html.matchAll(/<([a-zA-Z][\w:-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>"']+))?)*)\s*\/?>/g)) {
    const attrs: Record<string, string> = {};
    for (const a of m[2]!.matchAll(/([^\s=>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g)) attrs[a[1]!.toLowerCase()] = decode(a[2] ?? a[3] ?? a[4] ?? '');
    out.push({ name: m[1]!.toLowerCase(), attrs, raw: m[0] });
  }
  return out;
}

/** Every reason a page would reach outside itself or run code. */
function outsideReferences(html: string): string[] {
  const problems: string[] = [];
  for (const tag of tags(html)) {
    if (['script', 'link', 'iframe', 'img', 'object', 'embed', 'base', 'image', 'use', 'audio', 'video', 'source', 'form'].includes(tag.name)) problems.push(`<${tag.name}> element: ${tag.raw}`);
    for (const [name, value] of Object.entries(tag.attrs)) {
      if (name.startsWith('on')) problems.push(`event handler ${name} in ${tag.raw}`);
      if (['src', 'href', 'xlink:href', 'action', 'formaction', 'poster', 'srcset', 'background', 'data', 'ping', 'cite'].includes(name) && !value.startsWith('#')) problems.push(`${name}="${value}" in <${tag.name}>`);
      if (/https?:|\/\/|javascript:/i.test(value)) problems.push(`${name}="${value}" in <${tag.name}>`);
      for (const url of value.matchAll(/url\(\s*['"]?([^'")]*)/gi)) if (!url[1]!.startsWith('#')) problems.push(`url(${url[1]}) in ${name} of <${tag.name}>`);
    }
    if (tag.name === 'meta' && tag.attrs['http-equiv']?.toLowerCase() === 'refresh') problems.push('meta refresh');
  }
  for (const style of html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)) {
    if (/@import/i.test(style[1]!)) problems.push('@import in a style');
    for (const url of style[1]!.matchAll(/url\(\s*['"]?([^'")]*)/gi)) if (!url[1]!.startsWith('#')) problems.push(`url(${url[1]}) in a style`);
  }
  if (/<script/i.test(html)) problems.push('a <script> tag');
  return problems;
}

/** The <svg> elements, each with its opening tag and inside. */
function svgs(html: string): { open: Tag; inner: string }[] {
  return [...html.matchAll(/(<svg\b[^>]*>)([\s\S]*?)<\/svg>/g)].map((m) => ({ open: tags(m[1]!)[0]!, inner: m[2]! }));
}

/** For each element with a data-key, its colour and the colour of the pattern it is filled with. */
function colours(html: string): Map<string, Set<string>> {
  const patterns = new Map<string, string>();
  for (const m of html.matchAll(/<pattern id="([^"]+)"[^>]*><rect[^>]*fill="(#[0-9a-f]{6})"/g)) patterns.set(m[1]!, m[2]!);
  const byKey = new Map<string, Set<string>>();
  for (const tag of tags(html)) {
    const key = tag.attrs['data-key'];
    const colour = tag.attrs['data-colour'];
    if (key === undefined || colour === undefined || tag.name !== 'rect') continue;
    const fill = /^url\(#(.+)\)$/.exec(tag.attrs.fill ?? '')?.[1];
    expect(fill, `${tag.raw} is filled with a pattern`).toBeDefined();
    expect(patterns.get(fill!), `the pattern of ${key} has the colour of its data-colour`).toBe(colour);
    if (!byKey.has(key)) byKey.set(key, new Set());
    byKey.get(key)!.add(colour);
  }
  return byKey;
}

/** Assertions on a whole page that name what is missing instead of printing the page. */
function has(html: string, expected: string | RegExp, what = String(expected)): void {
  expect(typeof expected === 'string' ? html.includes(expected) : expected.test(html), `the page has ${what}`).toBe(true);
}
function hasNot(html: string, unexpected: string | RegExp, what = String(unexpected)): void {
  expect(typeof unexpected === 'string' ? html.includes(unexpected) : unexpected.test(html), `the page has no ${what}`).toBe(false);
}

// ---------------------------------------------------------------------------
// Real runs, three pages
// ---------------------------------------------------------------------------

const LAB = loadCatalogue().find((l) => l.id === 'broken-schema')!;
let broken: LabReport;
let gemini: LabReport;
let results: LabResults;
const pages: Record<string, { input: PageInput; html: string }> = {};

beforeAll(async () => {
  // One after the other: each run starts its own servers, and a loaded machine makes them slow to answer.
  broken = await single('broken-schema', 'faithful', 'low-level');
  gemini = await single('structural-anyof', 'continue-gemini-2025-02', 'mcpserver-1.32');
  results = await labResults(LAB);
  const predictions = [
    { learner: 'Ana', answers: { 'missing-arguments': 30, 'dominant-failure': 'rpc:-32603', 'retries-per-failing-call': 1, 'ok-drop-low-level': 10, 'ok-drop-mcpserver': null }, reasoning: 'the tool crashes' },
    { learner: HOSTILE, answers: { 'missing-arguments': 55, 'dominant-failure': HOSTILE, 'retries-per-failing-call': 4, 'ok-drop-low-level': 0, 'ok-drop-mcpserver': 2 }, reasoning: `"quoted" & ${HOSTILE}` },
  ];
  const inputs: Record<string, PageInput> = {
    'broken-schema': { report: broken, lang: 'en', sheet: labSheetQuote('broken-schema', 'en') },
    'structural-anyof': { report: gemini, lang: 'es', sheet: labSheetQuote('structural-anyof', 'es') },
    'lab-broken-schema': { lab: LAB, results, predictions, lang: 'en', sheet: labSheetQuote('broken-schema', 'en') },
  };
  for (const [name, input] of Object.entries(inputs)) pages[name] = { input, html: renderReportPage(input) };
}, 180_000);

describe('the page', () => {
  it('reaches nothing outside itself: no script, no link, no http(s) in src, href or url(...)', () => {
    for (const [name, { html }] of Object.entries(pages)) {
      expect(html.startsWith('<!DOCTYPE html>'), name).toBe(true);
      expect(outsideReferences(html), name).toEqual([]);
      hasNot(html, /<script\b[^>]*\bsrc/i);
      hasNot(html, /<link\b/i);
    }
    // The published schema's "$schema" is an http address: it may appear, as text only (the diff), never in a tag.
    const text = pages['broken-schema']!.html;
    for (const tag of tags(text)) expect(tag.raw).not.toMatch(/https?:/);
  });

  it('gives every chart role="img", a title, a description and a data table with its numbers', () => {
    for (const [name, { html }] of Object.entries(pages)) {
      const charts = svgs(html);
      expect(charts.length, name).toBeGreaterThanOrEqual(6);
      for (const { open, inner } of charts) {
        expect(open.attrs.role, `${name} ${open.raw}`).toBe('img');
        const id = open.attrs.id!;
        has(inner, new RegExp(`<title id="${id}-title">[^<]+</title>`), `a title in ${id}`);
        has(inner, new RegExp(`<desc id="${id}-desc">[^<]+</desc>`), `a description in ${id}`);
        expect(open.attrs['aria-labelledby']).toBe(`${id}-title`);
        expect(Number(open.attrs.width), `${id} is at least 600 wide`).toBeGreaterThanOrEqual(600);
        const table = new RegExp(`<div class="sr-only"><table class="data" data-chart="${id}">([\\s\\S]*?)</table></div>`).exec(html);
        expect(table, `${name}: a data table for ${id}`).not.toBeNull();
        expect(table![1]).toMatch(/<tbody><tr>/);
      }
    }
    // The numbers in a table are the report's.
    const html = pages['broken-schema']!.html;
    const table = /<table class="data" data-chart="r-outcomes">([\s\S]*?)<\/table>/.exec(html)![1]!;
    const runs = [broken.runs.baseline, broken.runs.variant!, broken.runs.solution!];
    for (const label of new Set(runs.flatMap((r) => Object.keys(r.outcomes)))) {
      has(table, `<tr><th scope="row">${label}</th>${runs.map((r) => `<td>${r.outcomes[label] ?? 0}</td>`).join('')}</tr>`);
    }
    const retries = /<table class="data" data-chart="r-retries">([\s\S]*?)<\/table>/.exec(html)![1]!;
    for (const [n, count] of Object.entries(broken.runs.variant!.retries.distribution)) has(retries, new RegExp(`<th scope="row">${n} retr(y|ies)</th><td>\\d+</td><td>${count}</td>`));
  });

  it('gives an outcome label the same colour in every chart, legend and page', () => {
    const all = new Map<string, Set<string>>();
    for (const { html } of Object.values(pages)) {
      for (const [key, set] of colours(html)) {
        expect(set.size, `${key} has one colour`).toBe(1);
        if (!all.has(key)) all.set(key, new Set());
        for (const c of set) all.get(key)!.add(c);
      }
    }
    for (const [key, set] of all) expect([...set], key).toHaveLength(1);
    for (const label of ['ok', 'rpc:-32603', 'client-rejected']) expect(all.has(label), label).toBe(true);
    expect(all.get('ok')).not.toEqual(all.get('rpc:-32603'));
    // The measured label of a label question wears its bars' colour.
    const lab = pages['lab-broken-schema']!.html;
    const dominant = measure(LAB.questions.find((q) => q.id === 'dominant-failure')!.figure, results) as string;
    has(lab, `--chip:${[...all.get(dominant)!][0]}`);
  });

  it('shows the schema diff, the host\'s rejection, the retries and the predictions', () => {
    const html = pages['broken-schema']!.html;
    const diff = /<pre class="diff">([\s\S]*?)<\/pre>/.exec(html)?.[1] ?? '';
    expect(diff).toMatch(/<span class="del"><span class="sr-only">removed: <\/span>- {3}&quot;required&quot;: \[<\/span>/);
    expect(diff).not.toMatch(/class="add"/);
    const es = pages['structural-anyof']!.html;
    has(es, '<html lang="es">');
    has(es, 'El anfitrión rechazó la lista de herramientas');
    // The API of 2025-02 parses the anyOf and names the additionalProperties inside its branches (gemini-api.ts).
    has(es, 'Unknown name &quot;additionalProperties&quot;');
    has(es, 'Resultados: el primer intento de cada llamada');
    const lab = pages['lab-broken-schema']!.html;
    // Each numeric question: one measurement and one dot per numeric answer, on one axis.
    for (const q of LAB.questions.filter((q) => q.kind === 'number')) {
      const svg = svgs(lab).find((s) => s.open.attrs.id?.endsWith(`-${q.id}`));
      expect(svg, q.id).toBeDefined();
      expect(svg!.inner.match(/class="measured"/g)).toHaveLength(1);
      // Ana left ok-drop-mcpserver unanswered.
      expect(svg!.inner.match(/class="prediction"/g), q.id).toHaveLength(q.id === 'ok-drop-mcpserver' ? 1 : 2);
    }
    has(lab, 'No answer from: Ana');
    has(lab, /Ana: 30% \((0|[+−][\d.]+)\)/);
  });

  it('escapes learner names, answers, reasoning, server texts and the sheet', () => {
    const lab = pages['lab-broken-schema']!.html;
    hasNot(lab, HOSTILE);
    has(lab, '&lt;img src=x onerror=alert(1)&gt;');
    has(lab, '&quot;quoted&quot; &amp; &lt;img');

    // Everything else that comes from outside, made hostile.
    const evil: LabReport = JSON.parse(toJson(gemini));
    evil.variant = `"><svg onload=alert(1)>`;
    evil.runs.variant!.host = { accepted: false, rejection: `<script>alert(1)</script> & 'x'` };
    evil.runs.variant!.stderrSample = [HOSTILE];
    evil.runs.variant!.serverNotes = [`<iframe src="https://evil.example/">`];
    evil.runs.variant!.outcomes = { [HOSTILE]: 3, ok: 17 };
    const sheet = `Hypothesis with raw HTML ${HOSTILE} and <script>alert(1)</script>, a [link](https://evil.example/x) and ![img](https://evil.example/i.png).`;
    const html = renderReportPage({ report: evil, lang: 'en', sheet });
    expect(outsideReferences(html)).toEqual([]);
    hasNot(html, HOSTILE);
    hasNot(html, /<(script|iframe|img)\b/i);
    hasNot(html, /<svg onload/i);
    has(html, '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#39;x&#39;');
    has(html, '(https://evil.example/x)');
  });
});

// ---------------------------------------------------------------------------
// npm run report, and npm run lab -- --html
// ---------------------------------------------------------------------------

function report(args: string[]) {
  const result = spawnSync(process.execPath, [join(REPO, 'scripts/launch.mjs'), 'scripts/report.ts', ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', LANG: 'en_GB.UTF-8' }, timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('npm run report', () => {
  // Where the page goes without -o (the kit's out/) is test/file-options.test.ts's, in a copy of the kit.
  it('turns a saved --json result into a page where -o says, in --lang', () => {
    const dir = tempDir();
    const saved = join(dir, 'run.json');
    writeFileSync(saved, `${toJson(broken)}\n`);
    const result = report([saved, '-o', join(dir, 'run.html')]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`wrote ${join(dir, 'run.html')}\n`);
    const html = readFileSync(join(dir, 'run.html'), 'utf8');
    has(html, '<h1>schema-breaks: broken-schema</h1>');
    expect(outsideReferences(html)).toEqual([]);

    const spanish = report([saved, '-o', join(dir, 'out', 'página.html'), '--lang', 'es']);
    expect(spanish.status).toBe(0);
    has(readFileSync(join(dir, 'out', 'página.html'), 'utf8'), 'Cifras clave');
  });

  it('refuses each bad input with one line and exit code 2 (the real process says the same)', async () => {
    const dir = tempDir();
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const cases: [string[], RegExp][] = [
      [[], /which file\?/],
      [[join(dir, 'missing.json')], /missing\.json: no such file/],
      [[dir], /is a directory/],
      [[file('text.json', 'not json at all')], /text\.json is not JSON \(/],
      [[file('empty.json', '')], /empty\.json is not JSON/],
      // Saved with `npm run lab -- ... --json > run.json`: npm's banner first (src/core/npm-banner.ts).
      [[file('banner.json', `\n> schema-breaks@0.1.0 lab\n> node scripts/launch.mjs scripts/lab.ts --json\n\n${toJson(broken)}\n`)], /banner\.json starts with npm's own lines \(> schema-breaks@0\.1\.0 lab\), not JSON: save it with npm run -s \(silent\), e\.g\. npm run -s lab -- \.\.\. --json > /],
      [[file('array.json', '[1, 2]')], /array\.json is not a lab report: the document is an array, not an object/],
      [[file('other.json', '{"hello": 1}')], /other\.json is not a lab report: it has no "format" field/],
      [[file('format.json', '{"format": "something-else", "version": 1}')], /format\.json is not a lab report: "format" is "something-else", expected "schema-breaks\/lab-report"/],
      [[file('version.json', '{"format": "schema-breaks/lab-report", "version": 1}')], /version\.json is not a lab report: "version" is 1, this kit reads version 2/],
      [[file('noversion.json', '{"format": "schema-breaks/lab-report"}')], /noversion\.json is not a lab report: it has no "version" field/],
      [[file('noruns.json', '{"format": "schema-breaks/lab-report", "version": 2, "runs": {}}')], /noruns\.json is not a lab report: runs\.baseline is missing/],
      [[join(dir, 'run.json'), '--lang', 'fr'], /unknown language "fr"/],
      [['--bogus'], /Unknown option '--bogus'/],
    ];
    for (const [args, message] of cases) {
      const result = await commandHere(reportMain, args);
      expect(result.status, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.stderr).toMatch(/^report: /);
      expect(result.stdout).toBe('');
    }
    for (const args of [cases[1]![0], ['--bogus']]) {
      const spawned = report(args);
      expect(spawned.status).toBe(2);
      expect(spawned.stdout).toBe('');
      expect(spawned.stderr).toBe((await commandHere(reportMain, args)).stderr);
    }
  });
});

describe('npm run lab -- --html FILE', () => {
  it('with --json: stdout stays one JSON document, the page is written, "wrote" goes to stderr', () => {
    const dir = tempDir();
    const page = join(dir, 'page.html');
    const result = labCommand(['--variant', 'broken-schema', '--json', '--calls', '5', '--html', page]);
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).format).toBe('schema-breaks/lab-report');
    expect(result.stderr).toBe(`wrote ${page}\n`);
    has(readFileSync(page, 'utf8'), 'schema-breaks: broken-schema');
  });

  it('in a single run: the terminal report, in the chosen language, then "wrote" (in that language too) on stdout', () => {
    const dir = tempDir();
    const page = join(dir, 'sub', 'page.html');
    const result = labCommand(['--variant', 'structural-anyof', '--client', 'continue-gemini-2025-02', '--calls', '5', '--html', page, '--lang', 'es']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('el anfitrión rechazó la lista de herramientas:');
    expect(result.stdout.trimEnd().endsWith(`escrito: ${page}`)).toBe(true);
    has(readFileSync(page, 'utf8'), 'El anfitrión rechazó la lista de herramientas');
  });

  it('in the lab path: the lab\'s runs and the learner\'s prediction', () => {
    // A fresh copy: the lab path writes the learner's notes.
    const dir = tempDir();
    for (const entry of ['src', 'contract', 'scripts', 'breaks', 'solutions', 'labs', 'package.json', 'package-lock.json']) cpSync(join(REPO, entry), join(dir, entry), { recursive: true });
    symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
    const predictions = join(dir, 'answers.json');
    writeFileSync(predictions, JSON.stringify({ answers: { 'missing-arguments': 25, 'dominant-failure': '-32603' }, reasoning: 'a crash is retried' }));
    const page = join(dir, 'lab.html');
    const result = labCommand(['--variant', 'broken-schema', '--learner', 'Zoë', '--predict', predictions, '--calls', '5', '--html', page], dir);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`wrote ${page}`);
    const html = readFileSync(page, 'utf8');
    has(html, 'Predictions next to what was measured');
    has(html, 'Zoë: 25%');
    has(html, 'Run “low-level”: faithful, low-level');
    has(html, 'Run “mcpserver”: faithful, mcpserver-1.32');
    has(html, /<th scope="row">Zoë<\/th><td><code>rpc:-32603<\/code><\/td><td><code>[^<]+<\/code><\/td><td class="(right|wrong)">/);
    expect(outsideReferences(html)).toEqual([]);
  });

  it('refuses --html without a run', () => {
    expect(labCommand(['--html', 'x.html']).stderr).toMatch(/--html writes the page of a run/);
    expect(labCommand(['--variant', 'broken-schema', '--read', '--html', 'x.html']).status).toBe(2);
    expect(labCommand(['--variant', 'broken-schema', '--html', '']).stderr).toMatch(/--html takes a file name/);
  });
});

// ---------------------------------------------------------------------------
// In a browser, from disk
// ---------------------------------------------------------------------------

describe('in a browser (chromium through playwright-core)', () => {
  it('opens each page from disk with no error and no request, shows its charts, and leaves a screenshot in test-output/', async () => {
    const executablePath = chromiumPath();
    const { chromium } = await import('playwright-core');
    mkdirSync(OUTPUT, { recursive: true });
    const browser = await chromium.launch({
      executablePath,
      args: CHROMIUM_ARGS,
    });
    try {
      // One tab for the pages, one after the other (a tab each would start a renderer each).
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      let problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
      page.on('request', (request) => {
        if (!/^(file|data):/.test(request.url())) problems.push(`request to ${request.url()}`);
      });
      for (const [name, { html }] of Object.entries(pages)) {
        const file = join(OUTPUT, `report-${name}.html`);
        writeFileSync(file, html);
        problems = [];
        await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });

        const charts = page.locator('svg.chart');
        const count = await charts.count();
        expect(count, name).toBe(svgs(html).length);
        for (let i = 0; i < count; i++) {
          const chart = charts.nth(i);
          await expect.poll(() => chart.isVisible(), { message: `${name}: chart ${i} visible` }).toBe(true);
          const box = await chart.boundingBox();
          expect(box, `${name}: chart ${i} has a box`).not.toBeNull();
          expect(box!.width, `${name}: chart ${i} width`).toBeGreaterThanOrEqual(600);
          expect(box!.height, `${name}: chart ${i} height`).toBeGreaterThan(50);
        }
        // What the browser built: no script, no attribute pointing outside, the charts are named images.
        const outside = await page.evaluate(() =>
          [...document.querySelectorAll('*')].flatMap((el) =>
            [...el.attributes].filter((a) => /^on/i.test(a.name) || (/^(src|href|xlink:href|action|srcset)$/i.test(a.name) && !a.value.startsWith('#')) || /url\((?!#)/i.test(a.value)).map((a) => `${el.tagName} ${a.name}=${a.value}`),
          ),
        );
        expect(outside, name).toEqual([]);
        expect(await page.locator('script').count()).toBe(0);
        const firstTitle = /<title id="[^"]+">([^<]+)<\/title>/.exec(html)![1]!;
        expect(await page.getByRole('img', { name: decode(firstTitle) }).first().isVisible()).toBe(true);
        expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('20px');
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name}: nothing wider than the window`).toBeLessThanOrEqual(1280);

        await page.screenshot({ path: join(OUTPUT, `report-${name}.png`), fullPage: true });
        expect(problems, name).toEqual([]);
      }
    } finally {
      await browser.close();
    }
    for (const name of Object.keys(pages)) expect(existsSync(join(OUTPUT, `report-${name}.png`))).toBe(true);
  }, 180_000);
});
