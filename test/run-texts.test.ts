/**
 * What a run prints, as a newcomer reads it (issue 23, point 10): a Spanish
 * run has no English left in the kit's own lines; every column of its tables
 * lines up in Spanish too (its labels run longer than the English ones);
 * `--no-predict` with no learner says the run is not saved, and saves
 * nothing; a prediction outside the seeds' range says so, as one inside it
 * does; the page's number line for a count of 0 starts at 0 and counts in
 * whole numbers. Through the real command, on a copy of the kit with no learners/
 * (so that no learner remembered by another test is used).
 */
import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderComparison, type ComparisonRow } from '../src/learn/predictions.js';
import { loadCatalogue } from '../src/learn/catalogue.js';
import { kitCopy, npmRun, removeKitCopies } from './helpers/kit-copy.js';
import { REPO } from './helpers/server.js';

afterAll(removeKitCopies);

/** The lines of a table: from the line that starts with `header` to the first that does not start a row (blank, or indented). */
function table(text: string, header: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(header));
  expect(start, `no table headed "${header}"`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && (l === '' || l.startsWith(' ')));
  return lines.slice(start, end);
}

describe('npm run lab -- --variant broken-schema --no-predict --lang es, with no learner', () => {
  let copy: string;
  let run: { status: number | null; stdout: string; stderr: string };
  beforeAll(() => {
    copy = kitCopy();
    symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'), 'dir');
    run = npmRun(copy, 'lab', ['--variant', 'broken-schema', '--no-predict', '--lang', 'es']);
  });

  it('runs', () => {
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('says the run is not saved, and saves nothing', () => {
    expect(run.stdout).toContain('esta ejecución se muestra, no se guarda (añade --learner NOMBRE para guardarla en tus notas)');
    expect(run.stdout).not.toContain('va a tus notas');
    const learners = join(copy, 'learners');
    // --lang may be remembered (learners/.lang); no learner's folder, no notes.
    const folders = existsSync(learners) ? readdirSync(learners, { withFileTypes: true }).filter((e) => e.isDirectory()) : [];
    expect(folders).toEqual([]);
  });

  it("says what the agent does in Spanish", () => {
    expect(run.stdout).toContain('agente: los valores por defecto del SDK de Agents de OpenAI (openai-agents-python v0.22.0): cada resultado y cada error vuelven al modelo');
    expect(run.stdout).not.toMatch(/every result and error|no resend|SDK defaults/);
  });

  it('lines up every column of the figures table (each row ends where its header ends)', () => {
    const rows = table(run.stdout, 'cifra ');
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) expect(row.length, row).toBe(rows[0]!.length);
  });

  it('lines up every column of the predictions table', () => {
    const rows = table(run.stdout, 'pregunta ');
    expect(rows.length).toBe(1 + 6); // the header and broken-schema's six questions
    for (const row of rows) expect(row.trimEnd().length, row).toBeLessThanOrEqual(rows[0]!.length);
    for (const row of rows.slice(1)) expect(row.length, row).toBe(rows[0]!.length);
  });
});

describe("the lab page's number line for a count of 0", () => {
  it('runs from 0, ticked at whole numbers (Continue with Gemini refuses every call of structural-anyof: 0 of 100 end ok)', () => {
    const copy = kitCopy();
    symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'), 'dir');
    const page = join(copy, 'page.html');
    const r = npmRun(copy, 'lab', ['--variant', 'structural-anyof', '--no-predict', '--lang', 'en', '--html', page]);
    expect(r.status, r.stderr).toBe(0);
    const html = readFileSync(page, 'utf8');
    // The chart's title carries the question's id.
    const svg = [...html.matchAll(/<svg[^>]*>[\s\S]*?<\/svg>/g)].map((m) => m[0]).find((s) => /<title id="[^"]*-continue-ok-title"/.test(s));
    expect(svg, 'no number line for continue-ok').toBeDefined();
    const ticks = [...svg!.matchAll(/text-anchor="middle" font-size="18" fill="#111">([^<]*)</g)].map((m) => m[1]);
    expect(ticks).toEqual(['0', '1']);
    expect(svg).toContain('Number line from 0 to 1. Measured: 0.');
  });
});

describe('a prediction against the seeds’ range', () => {
  const lab = loadCatalogue().find((l) => l.id === 'broken-schema')!;
  const row = (predicted: number, withinRange: boolean): ComparisonRow => ({ question: 'missing-arguments', predicted, measured: 16.4, seeds: 5, range: [12, 23], off: Math.round((predicted - 16.4) * 100) / 100, withinRange });
  const lineOf = (text: string) => text.split('\n').find((l) => l.startsWith('missing-arguments'))!;

  it('outside it is marked, in English and Spanish', () => {
    expect(lineOf(renderComparison(lab, [row(40, false)], 'en'))).toMatch(/\+23\.6 \(outside the range\)$/);
    expect(lineOf(renderComparison(lab, [row(40, false)], 'es'))).toMatch(/\+23,6 \(fuera del rango\)$/);
  });

  it('inside it is marked as before', () => {
    expect(lineOf(renderComparison(lab, [row(15, true)], 'en'))).toMatch(/-1\.4 \(inside the range\)$/);
    expect(lineOf(renderComparison(lab, [row(15, true)], 'es'))).toMatch(/-1,4 \(dentro del rango\)$/);
  });
});
