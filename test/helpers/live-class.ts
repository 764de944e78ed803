/**
 * The class of 30 learners the live-class tests share (test/projector.test.ts,
 * test/class-report-live.test.ts): hand-written journals laid out as the class
 * server keeps them (<folder>/<device>/learners/<name>/notes/breaks.jsonl),
 * written with the real Journal class. Every expected number is worked out by
 * hand from the table below (the sorted lists are in the comments), never
 * from the code's output.
 */
import { join } from 'node:path';
import type { Lang } from '../../src/learn/catalogue.js';
import { Journal } from '../../src/learn/journal.js';
import { BS_MEASURED, run } from './class-report.js';

export const HOSTILE = '<img src=x onerror="window.__pwned=1">';
export const LAB = 'broken-schema';

/**
 * The class. ma = missing-arguments (0..100), df = dominant-failure as typed;
 * `then` = their revision after the discussion; `ran` = they ran the lab
 * (their run measured 42, which must never reach the projector: only the
 * server's own measurement is shown, after the reveal).
 */
export const CLASS: { name: string; ma: number; df: string; then?: { ma: number; df: string }; ran?: true; lang?: Lang; why?: string; whyThen?: string }[] = [
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
export const FIRST_DF = [
  { value: 'rpc:-32603', learners: 12 },
  { value: 'isError', learners: 10 },
  { value: 'rpc:-32602', learners: 8 },
];
export const LATEST_DF = [
  { value: 'rpc:-32603', learners: 17 },
  { value: 'isError', learners: 10 },
  { value: 'rpc:-32602', learners: 3 },
];

const RUNS = [{ name: 'low-level', server: 'low-level', client: 'faithful' }];

export function writeClass(root: string): void {
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
    // Labels that are also the names of every object's inner workings: counted like any other.
    if (l.name === 'Bo' || l.name === 'Cy') j.append({ kind: 'prediction', lab: 'root-transform', data: { answers: { 'dominant-failure-1-20': l.name === 'Bo' ? '__proto__' : 'constructor' }, reasoning: '', runs: RUNS, lang } });
    if (l.name === 'Ben') {
      anyof('prediction', 20);
      anyof('revision', 60);
    }
  });
}
