/**
 * `npm run class -- report` at its edges: zero learners, one learner, a
 * corrupt journal, two journals of one name, hostile learner text, a bad
 * folder or flag. The journals are written with the real Journal class in
 * temporary folders laid out as an instructor collects them
 * (room/laptop-N/learners/<name>/notes/breaks.jsonl; the shared helpers are
 * test/helpers/class-report.ts). Every expected number below was worked out
 * by hand from the data written here, not by calling the code under test.
 * (The 30-learner class is test/class-report.test.ts.)
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderClassPage } from '../src/class/page.js';
import type { ClassReport } from '../src/class/report.js';
import { renderClassTerminal } from '../src/class/terminal.js';
import { BS_MEASURED, cli, fresh, journalAt, predict, question, reflect, removeFreshDirs, report, run } from './helpers/class-report.js';

afterAll(removeFreshDirs);

// ---------------------------------------------------------------------------
// Edge cases
// ---------------------------------------------------------------------------

describe('edge cases', () => {
  it('zero learners: says so, writes an empty page, exits 0', () => {
    const root = fresh();
    const page = join(root, 'page.html');
    const out = cli(['report', root, '--out', page, '--lang', 'en']);
    expect(out.status).toBe(0);
    expect(out.stdout).toContain(`No journals found under ${root}.`);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('No journals found under');
    expect(html).not.toContain('<svg');
    expect(html).not.toContain('<section class="lab">');
    const json = JSON.parse(cli(['report', root, '--json']).stdout) as ClassReport;
    expect(json).toMatchObject({ journals: [], unreadable: [], labs: [] });
  });

  it('one learner', () => {
    const root = fresh();
    const j = journalAt(root, 'laptop', 'Solo');
    predict(j, 'broken-schema', { 'missing-arguments': 30, 'dominant-failure': 'rpc:-32603' }, 'en');
    run(j, 'broken-schema', { ...BS_MEASURED, 'missing-arguments': 50 }, 'en');
    reflect(j, 'broken-schema', 'fewer crashes than I thought', 'en');
    const r = report(root);
    expect(r.journals.map((x) => x.display)).toEqual(['Solo']);
    expect(r.labs.find((l) => l.id === 'broken-schema')).toMatchObject({ learners: 1, ran: 1, predicted: 1, revised: 0, predictedNotRun: 0 });
    const q = question(r, 'broken-schema', 'missing-arguments', 'number');
    expect([q.answered, q.min, q.median, q.max, q.medianOff]).toEqual([1, 30, 30, 30, -20]);
    expect(q.measured).toEqual({ value: 50, values: [{ value: 50, learners: 1 }], differs: false });
    expect(question(r, 'broken-schema', 'dominant-failure', 'label').right).toBe(1);
    expect(renderClassTerminal(r)).toContain('1 journal counted');
    expect(renderClassPage(r)).toContain('fewer crashes than I thought');
  });

  it('a corrupt journal is listed with the reason and skipped; the rest still count', () => {
    const root = fresh();
    for (const name of ['Ana', 'Ben']) {
      const j = journalAt(root, 'room/laptop-1', name);
      predict(j, 'broken-schema', { 'missing-arguments': name === 'Ana' ? 10 : 20 }, 'en');
      run(j, 'broken-schema', BS_MEASURED, 'en');
    }
    const bad = journalAt(root, 'room/laptop-2', 'Cleo');
    predict(bad, 'broken-schema', { 'missing-arguments': 99 }, 'en');
    appendFileSync(bad.jsonlPath, '{"id": "x", "kind": "run", "lab": "broken-sch'); // a cut-off line, as a bad copy leaves it
    const r = report(root);
    expect(r.journals.map((x) => x.learner)).toEqual(['Ana', 'Ben']);
    expect(r.unreadable).toHaveLength(1);
    expect(r.unreadable[0]).toMatchObject({ learner: 'Cleo', origin: 'room/laptop-2', path: 'room/laptop-2/learners/Cleo/notes/breaks.jsonl', line: 2 });
    expect(r.unreadable[0]!.reason).toMatch(/^line 2: the last line is incomplete/);
    const q = question(r, 'broken-schema', 'missing-arguments', 'number');
    expect([q.answered, q.min, q.median, q.max]).toEqual([2, 10, 15, 20]);

    const out = cli(['report', root, '--out', join(root, 'class-report.html'), '--lang', 'en']);
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('room/laptop-2/learners/Cleo/notes/breaks.jsonl: line 2: the last line is incomplete');
    // One journal: the singular (a plural form of the catalogue, not a sentence for every count).
    expect(out.stdout).toContain('1 could not be read and was skipped');
    expect(out.stdout).toContain('2 journals counted');
    const html = readFileSync(join(root, 'class-report.html'), 'utf8');
    expect(html).toContain('Journals that could not be read');
    expect(html).toContain('room/laptop-2/learners/Cleo/notes/breaks.jsonl');
  });

  it('two journals with the same name on different laptops: counted separately, and said so', () => {
    const root = fresh();
    for (const [laptop, value] of [['room/laptop-3', 20], ['room/laptop-7', 60]] as const) {
      const j = journalAt(root, laptop, 'Ana');
      predict(j, 'broken-schema', { 'missing-arguments': value }, 'en');
      run(j, 'broken-schema', BS_MEASURED, 'en');
    }
    const r = report(root);
    expect(r.journals.map((j) => j.display)).toEqual(['Ana (room/laptop-3)', 'Ana (room/laptop-7)']);
    expect(r.duplicateNames).toEqual([{ name: 'Ana', journals: ['Ana (room/laptop-3)', 'Ana (room/laptop-7)'] }]);
    expect(r.labs.find((l) => l.id === 'broken-schema')).toMatchObject({ ran: 2, predicted: 2 });
    expect(question(r, 'broken-schema', 'missing-arguments', 'number').predictions).toEqual([20, 60]);
    expect(renderClassTerminal(r)).toContain('2 journals are named Ana: counted separately');
    const html = renderClassPage(r);
    expect(html).toContain('2 journals are named Ana: counted separately');
    expect(html).toContain('Ana (room/laptop-7)');
  });

  it('escapes hostile learner text in the page and neutralises it in the terminal', () => {
    const root = fresh();
    const name = '<img src=x onerror=alert(2)>';
    const j = journalAt(root, 'laptop', name);
    predict(j, 'broken-schema', { 'missing-arguments': 30, 'dominant-failure': '<b>bold</b>' }, 'en');
    run(j, 'broken-schema', BS_MEASURED, 'en');
    reflect(j, 'broken-schema', '<script>alert(1)</script>', 'en');
    reflect(j, 'broken-schema', 'red \u001b[31mALERT\u001b[0m " onmouseover="x', 'es');
    const twin = journalAt(root, 'other', name); // a duplicate, so the name also appears in the notice
    run(twin, 'broken-schema', BS_MEASURED, 'en');
    const r = report(root);
    const html = renderClassPage(r);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>bold');
    expect(html).not.toContain('" onmouseover="x');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(html).not.toContain('\u001b');
    const terminal = renderClassTerminal(r);
    expect(terminal).toContain('<script>alert(1)</script>'); // plain text in a terminal is harmless...
    expect(terminal).not.toContain('\u001b'); // ...escape sequences are not
  });

  it('a bad folder or a bad flag is one line and exit code 2', () => {
    const missing = cli(['report', join(fresh(), 'nope')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/does not exist/);
    const file = join(fresh(), 'file.txt');
    appendFileSync(file, 'x');
    expect(cli(['report', file]).status).toBe(2);
    const flag = cli(['report', '--bogus']);
    expect(flag.status).toBe(2);
    expect(flag.stderr.trim().split('\n')).toHaveLength(1);
    expect(cli(['report', '--lang', 'fr']).status).toBe(2);
    expect(cli(['nonsense']).status).toBe(2);
    const help = cli(['--help']);
    expect(help.status).toBe(0);
    for (const command of ['report', 'handout', 'sweep']) expect(help.stdout).toContain(command);
  });
});
