/**
 * The class report's live view and "why" lines (src/class/report.ts and its
 * renderers) for the 30 learners of test/helpers/live-class.ts: the command
 * as an instructor types it, in English and Spanish, and its --json next to
 * what the projector's state (src/class/projector.ts) says for the same
 * folder. Expected values are hand-counted (see the helper's comments).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectorState, type ProjectorState } from '../src/class/projector.js';
import type { ClassReport } from '../src/class/report.js';
import { cli, fresh, removeFreshDirs } from './helpers/class-report.js';
import { FIRST_DF, HOSTILE, LAB, LATEST_DF, writeClass } from './helpers/live-class.js';

afterAll(removeFreshDirs);

let folder: string;
beforeAll(() => {
  folder = fresh();
  writeClass(folder);
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
