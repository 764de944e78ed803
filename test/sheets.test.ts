/**
 * Lab sheets and the catalogue. A sheet's diffs are the files in breaks/ and
 * solutions/, not copies that can drift; every sheet has the same sections in
 * both languages; every prediction question names a figure the runner's JSON
 * really has.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_KNOBS } from '../src/lab/knobs.js';
import { getProfile } from '../src/lab/profiles/index.js';
import { runLab } from '../src/lab/side-by-side.js';
import { listBreaks } from '../src/lab/variants.js';
import { at, figurePaths, LANGS, loadCatalogue, measure, type LabResults } from '../src/learn/catalogue.js';
import { AFTER_THE_RUN, hints, includedFiles, readSheet, withIncludes } from '../src/learn/sheets.js';

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

  it.each(labs.map((l) => [l.id]))('%s: every question names a figure the runner\'s JSON really has', async (id) => {
    const lab = labs.find((l) => l.id === id)!;
    const results: LabResults = {};
    for (const run of lab.runs) {
      results[run.name] = JSON.parse(
        JSON.stringify(await runLab({ variant: lab.id, solution: false, json: true, settings: { client: getProfile(run.client)!, spec: run.spec, seed: 1, calls: 20, knobs: DEFAULT_KNOBS } })),
      );
    }
    for (const question of lab.questions) {
      for (const path of figurePaths(question.figure)) {
        // Histogram entries may be absent when nothing had that label; the run and field must exist.
        const parent = path.split('.').slice(0, -1).join('.');
        expect(at(results, path) ?? at(results, parent), `${question.id}: ${path}`).toBeDefined();
      }
      expect(() => measure(question.figure, results), question.id).not.toThrow();
    }
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
});
