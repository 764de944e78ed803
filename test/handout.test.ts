/**
 * `npm run class -- handout`: a printable handout per lab, in both
 * languages. Each has every question's prompt and the break's diff, gives
 * nothing away (no measured figure, nothing from after the run), asks in the
 * terminal's order, carries the glossary's words it uses, and prints on A4
 * and on US Letter in chromium with its diff at 8 pt or more: on one page,
 * two for the labs with the longest diffs.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHandout } from '../src/class/handout.js';
import { LANGS, loadCatalogue } from '../src/learn/catalogue.js';
import { hints, readSheet, splitSheet } from '../src/learn/sheets.js';
import { promptOnRun } from '../src/learn/predictions.js';
import { diffLines } from '../src/class/handout.js';
import { referenceLines } from '../src/learn/reference.js';
import { DEFAULT_KNOBS } from '../src/lab/knobs.js';
import { layoutProblems } from './helpers/layout.js';
import { REPO } from './helpers/server.js';
import { CHROMIUM_ARGS, chromiumPath } from './helpers/chromium.js';

const labs = loadCatalogue();
const cases = labs.flatMap((lab) => LANGS.map((lang) => [lab.id, lang] as const));
const dir = mkdtempSync(join(tmpdir(), 'handout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The text a reader sees: no style block, no tags, entities decoded. `exact` keeps every space (for diff lines); otherwise each tag is a space and runs of space are one. */
function textOf(html: string, exact = false): string {
  const text = html
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<title>[\s\S]*?<\/title>/g, '')
    .replace(/<[^>]+>/g, exact ? '' : ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
  return exact ? text : text.replace(/\s+/g, ' ');
}

/** A style sheet without its `@media screen { ... }` blocks (what applies when printing). */
function printStyles(css: string): string {
  let out = css;
  for (let at = out.indexOf('@media screen'); at !== -1; at = out.indexOf('@media screen')) {
    let depth = 0;
    let end = out.indexOf('{', at);
    for (; end < out.length; end++) {
      if (out[end] === '{') depth++;
      else if (out[end] === '}' && --depth === 0) break;
    }
    out = out.slice(0, at) + out.slice(end + 1);
  }
  return out;
}

/**
 * The figure-bearing phrases of the sheet's after-the-run part (its generated figures table and its prose), e.g. "86 (84–87)",
 * "24 of 30", "1.07", "19.2%", leaving out any the before-the-run part also uses (a baseline it states may be on the handout).
 */
function figuresInSheet(sheet: string, told = ''): string[] {
  const { before, after } = splitSheet(sheet);
  const phrases = after.replace(/`/g, '').match(/\d+ \(\d+(?:[.,]\d+)?–\d+(?:[.,]\d+)?\)|\d+ (?:of|de) \d+|\d+(?:[.,]\d+)? ?%|\d+[.,]\d+/g) ?? [];
  return [...new Set(phrases)].filter((p) => !before.includes(p) && !told.includes(p));
}

/**
 * What the terminal tells before the first question of a plain run (src/learn/reference.ts): the baseline's figures,
 * which the sheet's figures table repeats after the run. The handout tells them too; test/no-spoilers.test.ts holds
 * that none of them is a figure a question asks.
 */
function toldBefore(lab: (typeof labs)[number], lang: 'en' | 'es'): string {
  return referenceLines(lab, lang, DEFAULT_KNOBS, { seeds: Array.from({ length: lab.seeds ?? 5 }, (_, i) => i + 1), calls: 100 }).join(' ');
}

describe.each(cases)('the %s handout in %s', (id, lang) => {
  const lab = labs.find((l) => l.id === id)!;
  const html = renderHandout(lab, lang);
  const text = textOf(html);
  const exact = textOf(html, true);
  const sheet = readSheet(id, lang);

  it('has the title, the hypothesis and every question\'s prompt, with a box to write in', () => {
    expect(text).toContain(lab.title[lang].replace(/`/g, ' ').replace(/\s+/g, ' ').trim());
    expect(text).toContain(lang === 'en' ? 'Hypothesis' : 'Hipótesis');
    for (const q of lab.questions) expect(exact, q.id).toContain(q.prompt[lang]);
    // Each prompt names the run it is scored on in the terminal's own words (test/reference.test.ts holds those words
    // against a hand-written table), so a lab with two builds asks about each, and paper and terminal read alike.
    for (const q of lab.questions) expect(exact, q.id).toContain(promptOnRun(lab, q, lang));
    expect(exact).not.toMatch(lang === 'en' ? /\(run [\w.-]+:/ : /\(ejecución [\w.-]+:/);
    expect([...html.matchAll(/<span class="box (number|label)"><\/span>/g)]).toHaveLength(lab.questions.length);
  });

  it('includes the break\'s diff: every changed line of breaks/<lab>.patch', () => {
    const patch = readFileSync(join(REPO, 'breaks', `${id}.patch`), 'utf8');
    const changed = patch.split('\n').filter((l) => /^[+-]/.test(l) && !/^(\+\+\+|---) /.test(l));
    expect(changed.length).toBeGreaterThan(0);
    for (const line of changed) expect(exact, line).toContain(line);
    for (const file of patch.matchAll(/^diff --git a\/(\S+)/gm)) expect(text).toContain(file[1]!);
  });

  it('gives nothing away: no measured figures, nothing from after the run', () => {
    expect(text).not.toMatch(/measured|medid[oa]s?\b/i);
    const told = toldBefore(lab, lang);
    const figures = figuresInSheet(sheet, told);
    expect(figures.length, 'the sheet\'s own figures, to look for').toBeGreaterThan(0);
    for (const figure of figures) expect(text, figure).not.toContain(figure);
    // Any bare number from that table which the before-the-run part, the reference and the questions never use must not
    // appear either (e.g. "86"). (One-digit numbers are left out: the handout numbers its questions and prints each one's range.)
    const before = [splitSheet(sheet).before, told, ...lab.questions.flatMap((q) => [q.prompt[lang], q.min, q.max])].join(' ');
    const table = splitSheet(sheet).after.split('\n').filter((l) => /^\|/.test(l)).map((l) => l.split('|').at(-2) ?? '').join(' ');
    const bare = [...new Set(table.match(/\d+(?:[.,]\d+)?/g) ?? [])].filter((n) => n.replace(/\D/g, '').length >= 2 && !new RegExp(`(?<![\\d.,])${n.replace(/[.]/g, '\\.')}(?![\\d])`).test(before));
    for (const n of bare) expect(text, n).not.toMatch(new RegExp(`(?<![\\d.,-])${n.replace(/[.]/g, '\\.')}(?![\\d])`));
    // Nothing of what comes after the run: its headings, hints, the solution's diff.
    const after = splitSheet(sheet).after;
    // No after-the-run section is on the page: neither its heading as a heading (the sheet's reading plan may name it in
    // a sentence) nor the opening of its first paragraph.
    const headings = [...html.matchAll(/<h\d[^>]*>([\s\S]*?)<\/h\d>/g)].map((h) => textOf(h[1]!).trim());
    for (const section of after.split(/^## /m).slice(1)) {
      const [heading, ...body] = section.split('\n');
      expect(headings, heading).not.toContain(heading!.trim());
      const opening = body.find((l) => /^[A-Za-zÁÉÍÓÚ¿*]/.test(l.trim()) && !l.startsWith('<!--'));
      if (opening) expect(text, opening).not.toContain(textOf(opening.replace(/`/g, '')).trim().slice(0, 50));
    }
    for (const hint of hints(sheet)) expect(text).not.toContain(hint.text.slice(0, 40));
    const solution = readFileSync(join(REPO, 'solutions', `${id}.patch`), 'utf8');
    const patch = readFileSync(join(REPO, 'breaks', `${id}.patch`), 'utf8');
    for (const line of solution.split('\n').filter((l) => /^\+[^+]/.test(l) && l.trim().length > 12 && !patch.includes(l.slice(1)))) expect(text, line).not.toContain(line);
    expect(text).not.toMatch(/Stop here|Detente aquí/);
  });

  it('carries the reference the terminal prints before the questions (the baseline\'s figures, the model\'s line), before them', () => {
    // The terminal's own lines for a plain run (seed 1 on, the lab's seeds, 100 calls, the default knobs), as src/learn/flow.ts prints them.
    const lines = referenceLines(lab, lang, DEFAULT_KNOBS, { seeds: Array.from({ length: lab.seeds ?? 5 }, (_, i) => i + 1), calls: 100 }).map((l) => l.trim());
    expect(lines.length, 'a title, a line per scored run, the model').toBeGreaterThanOrEqual(3);
    for (const line of lines) expect(text, line).toContain(line);
    expect(text).not.toMatch(/your run uses other settings|tu ejecución usa otros ajustes/);
    const firstPrompt = /<p class="prompt">/.exec(html)!.index;
    expect(html.indexOf('<section class="reference">')).toBeGreaterThan(-1);
    expect(html.indexOf('<section class="reference">')).toBeLessThan(firstPrompt);
  });

  it('asks the questions in the terminal\'s order (numbers, then outcomes), then one why for them all, as the terminal does', () => {
    // The terminal's order (src/learn/predictions.ts, and test/learner-path.test.ts through a pty): every number question
    // in the catalogue's order, then every outcome label in the catalogue's order.
    const expected = [...lab.questions.filter((q) => q.kind === 'number'), ...lab.questions.filter((q) => q.kind === 'label')].map((q) => q.prompt[lang]);
    const shown = [...html.matchAll(/<p class="prompt"><span class="qn">\d+<\/span>([\s\S]*?)<\/p>/g)].map((m) => textOf(m[1]!, true));
    expect(shown).toHaveLength(expected.length);
    shown.forEach((prompt, i) => expect(prompt.startsWith(expected[i]!), prompt).toBe(true));
    // One why, in the terminal's words (src/core/messages, learn.reasoning), not one per question.
    const why = lang === 'en' ? 'In one line: why do you expect that?' : 'En una línea: ¿por qué esperas eso?';
    expect(text.split(why).length - 1).toBe(1);
    expect(text).not.toMatch(/Why do you expect that\? \(one line\)|¿Por qué esperas eso\? \(una línea\)/);
  });

  it('carries the glossary\'s words it uses, and links to no file', () => {
    expect(html).not.toMatch(/GLOSSARY[\w.]*\.md"|href="\.\.\//);
    const box = /<aside class="words">([\s\S]*?)<\/aside>/.exec(html)?.[1] ?? '';
    const boxed = [...box.matchAll(/<b>([\s\S]*?)<\/b>/g)].map((m) => textOf(m[1]!).trim());
    expect(boxed.length).toBeGreaterThan(0);
    // Each bold term of the glossary file that the page's own words use (outside the box and the diff) is in the box.
    const glossary = readFileSync(join(REPO, 'labs', lang === 'en' ? 'GLOSSARY.md' : 'GLOSSARY.es.md'), 'utf8');
    const terms = [...glossary.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]!.replace(/`/g, ''));
    const page = textOf(html.replace(/<aside class="words">[\s\S]*?<\/aside>/, '').replace(/<pre class="diff"[\s\S]*?<\/pre>/, '')).toLowerCase();
    for (const term of terms) {
      const bare = term.replace(/^(the|el|la) /i, '').toLowerCase();
      if (new RegExp(`(?<![\\p{L}])${bare.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`, 'u').test(page)) expect(boxed, term).toContain(term);
    }
  });

  it('is self-contained and prints without backgrounds', () => {
    expect(html).not.toMatch(/<script|<link rel="stylesheet"|<img|https?:\/\/(?!www\.w3\.org)/);
    const printCss = printStyles(html.slice(html.indexOf('<style>'), html.indexOf('</style>')));
    expect(printCss).toContain('@media print');
    expect(printCss).not.toMatch(/background(-color)?:\s*(?![\s#]|transparent|none)|background(-color)?:\s*#(?!fff\b)/);
  });
});

describe('the reference on a handout', () => {
  it('gives broken-schema\'s baseline as labs/broken-schema/baseline.json has it, in both languages (written here by hand)', () => {
    const lab = labs.find((l) => l.id === 'broken-schema')!;
    expect(textOf(renderHandout(lab, 'en'))).toContain('On the low-level server, shown as published: 91.4 of 100 calls end ok (range 89–93); 9.8% of first attempts fail (range 8–11).');
    expect(textOf(renderHandout(lab, 'en'))).toMatch(/The model is a seeded stand-in for a small open model: .* at most 9 retries/);
    expect(textOf(renderHandout(lab, 'es'))).toMatch(/91,4 de 100 llamadas/);
  });
});

describe('the diff on a handout', () => {
  it('keeps each change with one line of context, and splits a hunk where a longer unchanged stretch is left out', () => {
    // A hunk of lines 10 to 21 of a file: a change at line 12, seven unchanged lines, a change at line 20.
    const patch = [
      'diff --git a/x.ts b/x.ts',
      'index 1..2 100644',
      '--- a/x.ts',
      '+++ b/x.ts',
      '@@ -10,12 +10,12 @@ function f() {',
      ' a10', ' a11', '-a12', '+b12', ' a13', ' a14', ' a15', ' a16', ' a17', ' a18', ' a19', '-a20', '+b20', ' a21',
      '',
    ].join('\n');
    // Hand-counted: lines 11 to 13 of either file, then lines 19 to 21.
    expect(diffLines(patch).map((l) => `${l.kind} ${l.text}`)).toEqual([
      'file x.ts',
      'hunk @@ -11,3 +11,3 @@ function f() {', 'ctx  a11', 'del -a12', 'add +b12', 'ctx  a13',
      'hunk @@ -19,3 +19,3 @@', 'ctx  a19', 'del -a20', 'add +b20', 'ctx  a21',
    ]);
  });

  it('counts each side of a cut-down hunk as git does', () => {
    const patch = ['diff --git a/x.ts b/x.ts', '@@ -5,4 +5,6 @@', ' a5', ' a6', '+n7', '+n8', ' a7', ' a8', ''].join('\n');
    expect(diffLines(patch).filter((l) => l.kind === 'hunk').map((l) => l.text)).toEqual(['@@ -6,2 +6,4 @@']);
  });
});

describe('npm run class -- handout', () => {
  const run = (args: string[]) => spawnSync(process.execPath, ['scripts/launch.mjs', 'scripts/class.ts', ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, LANG: 'en_GB.UTF-8', LC_ALL: '', LC_MESSAGES: '' } });

  it('writes one lab, or every lab in both languages with --all', () => {
    const one = run(['handout', 'broken-schema', '--lang', 'es', '--out', join(dir, 'one.html')]);
    expect(one.status).toBe(0);
    expect(readFileSync(join(dir, 'one.html'), 'utf8')).toContain('<html lang="es">');
    const all = run(['handout', '--all', '--out', join(dir, 'all')]);
    expect(all.status).toBe(0);
    expect(readdirSync(join(dir, 'all')).sort()).toEqual(cases.map(([id, lang]) => `${id}.${lang}.html`).sort());
  });

  it('an unknown lab or language is one line and exit code 2', () => {
    const bad = run(['handout', 'no-such-lab']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('broken-schema');
    expect(run(['handout', 'broken-schema', '--lang', 'de']).status).toBe(2);
    expect(run(['handout']).status).toBe(2);
  });
});

// ---------------------------------------------------------------------------
// Printed, in chromium
// ---------------------------------------------------------------------------


/** Pages in a PDF chromium wrote: its page tree's /Count, checked against the page objects. */
function pageCount(pdf: Buffer): number {
  const text = pdf.toString('latin1');
  const objects = (text.match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;
  const count = Number(/\/Type\s*\/Pages\b[^>]*?\/Count\s+(\d+)/.exec(text)?.[1] ?? /\/Count\s+(\d+)[^>]*?\/Type\s*\/Pages\b/.exec(text)?.[1] ?? NaN);
  expect(count, 'the PDF page tree and its page objects disagree').toBe(objects);
  return objects;
}

describe('printed in chromium', () => {
  let browser: Browser;
  // One tab for every handout, as a teacher prints them one after another: a tab of its own for each
  // would start a renderer process each time (the handouts are files, and file: pages share one).
  let page: Page;
  let problems: string[] = [];
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    page = await browser.newPage({ deviceScaleFactor: 1.5 });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('request', (r) => {
      if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) problems.push(`network request: ${r.url()}`);
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  /**
   * The labs whose break changes too much to fit one page with its diff at 8 pt: their patches have 47 to 67 lines,
   * each changing two files (hand-counted from breaks/*.patch); every other lab's patch has at most 26.
   */
  const TWO_PAGES = ['structural-anyof', 'root-transform', 'discriminated-union'];

  it.each(cases)('%s (%s) prints on one page (two for the longest diffs), A4 and Letter, its diff at 8 pt or more', async (id, lang) => {
    const file = join(dir, `${id}.${lang}.html`);
    writeFileSync(file, renderHandout(labs.find((l) => l.id === id)!, lang));
    problems = [];
    await page.goto(pathToFileURL(file).href);
    for (const format of ['A4', 'Letter'] as const) expect(pageCount(await page.pdf({ format, preferCSSPageSize: true })), format).toBe(TWO_PAGES.includes(id) ? 2 : 1);
    expect(problems).toEqual([]);
    // The diff's size as printed: a run of its glyphs measured against the same glyphs set at 8 pt outside the page's
    // layout (no zoom, no scale), in the print styles. A ratio of widths: it holds whatever the font and however the
    // page is zoomed.
    await page.emulateMedia({ media: 'print' });
    const sizes = await page.evaluate(() => {
      const sample = 'M'.repeat(40);
      const widthOf = (parent: Element, style = '') => {
        const span = document.createElement('span');
        span.setAttribute('style', `white-space: pre; display: inline; ${style}`);
        span.textContent = sample;
        parent.appendChild(span);
        const width = span.getBoundingClientRect().width;
        span.remove();
        return width;
      };
      const printedSize = (element: Element) =>
        (8 * widthOf(element)) / widthOf(document.documentElement, `position: absolute; font-family: ${getComputedStyle(element).fontFamily}; font-size: 8pt; zoom: 1`);
      return { diff: [...document.querySelectorAll('pre.diff > span')].map(printedSize), prose: printedSize(document.querySelector('section p')!) };
    });
    await page.emulateMedia({ media: null });
    // A handout on two pages needs no shrinking: its prose is at the page's own 9 pt.
    if (TWO_PAGES.includes(id)) expect(sizes.prose, 'the prose, in pt').toBeGreaterThanOrEqual(8.99);
    expect(sizes.diff.length, 'diff lines measured').toBe(diffLines(readFileSync(join(REPO, 'breaks', `${id}.patch`), 'utf8')).length);
    // 8 pt: the issue's floor for type on paper (written here, not read from the code under test).
    expect(Math.min(...sizes.diff), 'the smallest diff line, in pt').toBeGreaterThanOrEqual(7.99);
    if (id === 'broken-schema' && lang === 'en') {
      mkdirSync(join(REPO, 'test-output'), { recursive: true });
      const viewport = page.viewportSize();
      await page.setViewportSize({ width: 880, height: 600 });
      await page.screenshot({ path: join(REPO, 'test-output', 'handout-broken-schema.png'), fullPage: true });
      if (viewport) await page.setViewportSize(viewport);
    }
  });
});

// ---------------------------------------------------------------------------
// On screen, in chromium (issue 35: a handout shown on the projector before it is printed)
// ---------------------------------------------------------------------------

describe('on screen in chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each([
    ['broken-schema', 'en', 1920, 1080],
    ['broken-schema', 'en', 1280, 720],
    ['discriminated-union', 'es', 1920, 1080],
    ['discriminated-union', 'es', 1280, 720],
  ] as const)('%s (%s) at %ix%i: the layout checker finds nothing', async (id, lang, width, height) => {
    const file = join(dir, `screen-${id}.${lang}.html`);
    writeFileSync(file, renderHandout(labs.find((l) => l.id === id)!, lang));
    const page = await browser.newPage({ viewport: { width, height } });
    try {
      await page.goto(pathToFileURL(file).href);
      expect(await layoutProblems(page)).toEqual([]);
      mkdirSync(join(REPO, 'test-output'), { recursive: true });
      await page.screenshot({ path: join(REPO, 'test-output', `handout-${id}.${lang}-${width}x${height}.png`), fullPage: true });
    } finally {
      await page.close();
    }
  });
});
