/**
 * Lab sheets and the catalogue. A sheet's diffs are the files in breaks/ and
 * solutions/, not copies that can drift; its figures are a region `npm run
 * sheets` writes from a real run, listing every question; every sheet has the
 * same sections in both languages; every prediction question names a figure
 * the runner's JSON really has, measured with the lab's own run settings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getProfile } from '../src/lab/profiles/index.js';
import { listBreaks } from '../src/lab/variants.js';
import { at, figurePaths, isOutcomeLabel, LANGS, loadCatalogue, measure, type Figure } from '../src/learn/catalogue.js';
import { runLabOnce } from '../src/learn/lab-runs.js';
import { REPO } from '../src/lab/paths.js';
import { AFTER_THE_RUN, figureRows, hasFigures, hints, includedFiles, readSheet, withIncludes } from '../src/learn/sheets.js';

/**
 * A figure path exists in the results, or names an outcome label a histogram
 * simply did not have this time (outcomes.rpc:-32603 when nothing crashed),
 * or the figure says what its absence means (`default`). A typo in the leaf
 * ("finalOutcomes.okk") fails.
 */
function pathProblem(results: unknown, path: string, figure: Figure): string | undefined {
  if (at(results, path) !== undefined) return undefined;
  const parts = path.split('.');
  const leaf = parts.pop()!;
  const parent = parts.join('.');
  const histogram = /\.(outcomes|finalOutcomes|attempts)$/.test(parent) && at(results, parent) !== undefined;
  if (histogram && isOutcomeLabel(leaf)) return undefined;
  if ('default' in figure && figure.default !== undefined && at(results, parent) !== undefined) return undefined;
  return `${path}: not in the results`;
}

const SECTIONS = {
  en: ['Hypothesis', 'The break', 'Predict, then run', 'What to observe', 'The symptom', 'The hidden cause', 'Hints', 'The fix', 'Why this teaches the concept', 'References'],
  es: ['Hipótesis', 'La avería', 'Predice y después ejecuta', 'Qué observar', 'El síntoma', 'La causa oculta', 'Pistas', 'La solución', 'Por qué esto enseña el concepto', 'Referencias'],
};

const labs = loadCatalogue();
const cases = labs.flatMap((lab) => LANGS.map((lang) => [lab.id, lang] as const));

describe('the catalogue', () => {
  it('has one lab per break, each with runs and questions', () => {
    expect(labs.map((l) => l.id).sort()).toEqual(listBreaks());
    for (const lab of labs) {
      expect(lab.runs.length).toBeGreaterThan(0);
      expect(lab.questions.length).toBeGreaterThan(0);
      expect(new Set(lab.questions.map((q) => q.id)).size).toBe(lab.questions.length);
      for (const run of lab.runs) expect(getProfile(run.client), `${lab.id}: client ${run.client}`).toBeDefined();
      for (const q of lab.questions) for (const lang of LANGS) expect(q.prompt[lang].length, `${lab.id}.${q.id}.${lang}`).toBeGreaterThan(10);
    }
  });

  it.each(labs.map((l) => [l.id]))('%s: every question names a figure the runner\'s JSON really has, run with the lab\'s own settings', async (id) => {
    const lab = labs.find((l) => l.id === id)!;
    // The lab's own runs: their server build, client, workload and read-only setting, as the learner's path runs them.
    const results = JSON.parse(JSON.stringify(await runLabOnce(lab, 1, { seed: 1, calls: 20 })));
    for (const run of lab.runs) {
      const report = results[run.name];
      expect(report.settings, `${lab.id}.${run.name}`).toMatchObject({ client: run.client, server: run.server });
      expect(report.runs.variant.workload).toBe(run.workload ?? 'conjugate');
      expect(report.runs.variant.readOnly).toBe(run.readOnly ?? false);
    }
    const problems = lab.questions.flatMap((q) => figurePaths(q.figure).map((p) => pathProblem(results, p, q.figure)).filter((x): x is string => x !== undefined).map((x) => `${q.id}: ${x}`));
    expect(problems).toEqual([]);
    for (const question of lab.questions) expect(() => measure(question.figure, results), question.id).not.toThrow();
  });

  it('a figure path with a typo in its leaf is caught', () => {
    const results = { r: { runs: { variant: { finalOutcomes: { ok: 3 }, silentWrong: 0 } } } };
    expect(pathProblem(results, 'r.runs.variant.finalOutcomes.okk', { path: 'r.runs.variant.finalOutcomes.okk' })).toBeDefined();
    expect(pathProblem(results, 'r.runs.variant.silentWrongs', { path: 'r.runs.variant.silentWrongs' })).toBeDefined();
    expect(pathProblem(results, 'r.runs.variant.finalOutcomes.max-turns', { path: 'r.runs.variant.finalOutcomes.max-turns' })).toBeUndefined();
  });
});

describe.each(cases)('the %s sheet in %s', (id, lang) => {
  const sheet = readSheet(id, lang);

  it('includes the current diffs from breaks/ and solutions/ (npm run sheets rewrites them)', () => {
    expect(includedFiles(sheet)).toEqual([`breaks/${id}.patch`, `solutions/${id}.patch`]);
    expect(withIncludes(sheet)).toBe(sheet);
  });

  it('has every section, in order, and the answers after the run', () => {
    const headings = [...sheet.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim());
    expect(headings).toEqual(SECTIONS[lang]);
    const marker = sheet.indexOf(AFTER_THE_RUN);
    expect(marker).toBeGreaterThan(sheet.indexOf(`## ${SECTIONS[lang][2]}`));
    expect(marker).toBeLessThan(sheet.indexOf(`## ${SECTIONS[lang][3]}`));
  });

  it('has a cascade of hints', () => {
    expect(hints(sheet).length).toBeGreaterThanOrEqual(3);
  });

  it('no hint hands over the fix: none holds a line the solution adds', () => {
    // The solution's added lines, from solutions/<id>.patch itself (the last hint points at the place, it does not write the code).
    const added = readFileSync(join(REPO, 'solutions', `${id}.patch`), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('+') && !l.startsWith('+++'))
      .map((l) => l.slice(1).replace(/\s+/g, ' ').trim())
      .filter((l) => l.length > 12 && !l.startsWith('//') && !l.startsWith('*'));
    expect(added.length).toBeGreaterThan(0);
    for (const hint of hints(sheet)) {
      const text = hint.text.replace(/\s+/g, ' ');
      expect(added.filter((line) => text.includes(line)), hint.title).toEqual([]);
    }
  });

  it('has a figures region listing every question, after the run (npm run sheets writes it)', () => {
    expect(hasFigures(sheet)).toBe(true);
    expect(figureRows(sheet)).toEqual(labs.find((l) => l.id === id)!.questions.map((q) => q.id));
    expect(sheet.indexOf('<!-- figures -->')).toBeGreaterThan(sheet.indexOf(AFTER_THE_RUN));
  });

  it('links the glossary and cites nothing outside the kit', () => {
    expect(sheet).toContain(lang === 'en' ? '(../GLOSSARY.md)' : '(../GLOSSARY.es.md)');
    expect(sheet).not.toMatch(/facts\.md|design\.md/);
    expect(sheet).not.toMatch(/--spec\b/);
  });
});
