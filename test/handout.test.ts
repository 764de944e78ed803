/**
 * `npm run class -- handout`: a printable one-page handout per lab, in both
 * languages. Each has every question's prompt and the break's diff, gives
 * nothing away (no measured figure, nothing from after the run), and prints
 * to exactly one page, on A4 and on US Letter, in chromium.
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
function figuresInSheet(sheet: string): string[] {
  const { before, after } = splitSheet(sheet);
  const phrases = after.replace(/`/g, '').match(/\d+ \(\d+(?:[.,]\d+)?–\d+(?:[.,]\d+)?\)|\d+ (?:of|de) \d+|\d+(?:[.,]\d+)? ?%|\d+[.,]\d+/g) ?? [];
  return [...new Set(phrases)].filter((p) => !before.includes(p));
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
    // Each prompt names the run it is scored on (the run a figure path starts with), so a lab with two builds asks about each.
    for (const q of lab.questions) {
      const f = q.figure;
      const path = 'path' in f ? f.path : 'count' in f ? f.count : 'dominant' in f ? f.dominant : 'ratio' in f ? f.ratio[0] : f.difference[0];
      expect(exact, q.id).toContain(`${q.prompt[lang]} (${lang === 'en' ? 'run' : 'ejecución'} ${path.split('.')[0]}:`);
    }
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
    const figures = figuresInSheet(sheet);
    expect(figures.length, 'the sheet\'s own figures, to look for').toBeGreaterThan(0);
    for (const figure of figures) expect(text, figure).not.toContain(figure);
    // Any bare number from that table which the before-the-run part and the questions never use must not appear either (e.g. "86").
    // (One-digit numbers are left out: the handout numbers its questions and prints each one's range.)
    const before = [splitSheet(sheet).before, ...lab.questions.flatMap((q) => [q.prompt[lang], q.min, q.max])].join(' ');
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

  it('is self-contained and prints without backgrounds', () => {
    expect(html).not.toMatch(/<script|<link rel="stylesheet"|<img|https?:\/\/(?!www\.w3\.org)/);
    const printCss = printStyles(html.slice(html.indexOf('<style>'), html.indexOf('</style>')));
    expect(printCss).toContain('@media print');
    expect(printCss).not.toMatch(/background(-color)?:\s*(?![\s#]|transparent|none)|background(-color)?:\s*#(?!fff\b)/);
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

  it.each(cases)('%s (%s) prints on exactly one page, A4 and Letter', async (id, lang) => {
    const file = join(dir, `${id}.${lang}.html`);
    writeFileSync(file, renderHandout(labs.find((l) => l.id === id)!, lang));
    problems = [];
    await page.goto(pathToFileURL(file).href);
    for (const format of ['A4', 'Letter'] as const) expect(pageCount(await page.pdf({ format, preferCSSPageSize: true })), format).toBe(1);
    expect(problems).toEqual([]);
    if (id === 'broken-schema' && lang === 'en') {
      mkdirSync(join(REPO, 'test-output'), { recursive: true });
      const viewport = page.viewportSize();
      await page.setViewportSize({ width: 880, height: 600 });
      await page.screenshot({ path: join(REPO, 'test-output', 'handout-broken-schema.png'), fullPage: true });
      if (viewport) await page.setViewportSize(viewport);
    }
  });
});
