/**
 * The class sweep (`npm run class -- sweep`): every lab x every client profile
 * x every server build on one page. Checked here: the JSON covers every cell; a
 * cell's figures are what `runLab` measures for it directly (so running in
 * parallel worker threads, with the baseline shared between labs and a
 * server identical byte for byte run once, changes nothing); the same seed
 * gives the same figures whatever the number of jobs; what docs/sources.md says of Gemini's legacy parameters (unions refused) shows; the
 * page is self-contained and opens in a real browser without a request
 * leaving the disk.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cellVerdict, parseSweepArgs, planSweep, renderPage, runSweepCommand, sameServerOnce, sweep, SWEEP_FORMAT, verdict, type SweepCell, type SweepReport, type SweepRun } from '../src/class/sweep.js';
import type { SweepTiming } from '../src/class/sweep-model.js';
import { DEFAULT_KNOBS } from '../src/lab/knobs.js';
import { getProfile, PROFILE_IDS } from '../src/lab/profiles/index.js';
import type { RunResult } from '../src/lab/runner.js';
import { runLab } from '../src/lab/side-by-side.js';
import { buildServer, listBreaks } from '../src/lab/variants.js';
import { SERVER_BUILDS, type ServerBuild } from '../src/minimcp/errors.js';
import { loadCatalogue } from '../src/learn/catalogue.js';
import { withoutTimings } from './helpers/lab.js';
import { REPO } from './helpers/server.js';
import { CHROMIUM_ARGS, chromiumPath } from './helpers/chromium.js';

const SEED = 3;
const CALLS = 10;
/** The eval set's size, counted by hand in src/lab/requests/conjugate.json ("evaluation"). */
const EVAL_ITEMS = 30;

/** The sweep command as a learner starts it (npm run class -- sweep ...), in its own process: the JSON on stdout, the page in `out`. */
function sweepCommand(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['scripts/launch.mjs', 'scripts/class.ts', 'sweep', ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 240_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The labs the command runs end to end here: one whose break takes away a
 * schema keyword, the union a host refuses (its fix publishes every
 * parameter required, which strict mode takes), a lab built on another lab's break, and one whose requests
 * change the server, read-only. What the sweep plans for every lab is
 * checked without running it (planSweep).
 */
const LABS = ['broken-schema', 'structural-anyof', 'root-transform-shape', 'readonly-gate'];
/**
 * The clients it runs them under: the faithful client, one that passes
 * through what others refuse (langflow), strict mode, and a host that refuses
 * the union. Every client is checked in the plan (planSweep); the command's
 * --clients is checked here by running it.
 */
const CLIENTS = ['faithful', 'langflow', 'openai-strict', 'continue-gemini-2025-02'];

/** What two honest runs with the same seed must share: everything but the timings and the label. */
function figuresOf(run: SweepRun | RunResult) {
  return {
    outcomes: run.outcomes,
    finalOutcomes: run.finalOutcomes,
    attempts: run.attempts,
    retries: run.retries,
    accuracy: run.accuracy,
    silentWrong: run.silentWrong,
    missingArguments: run.missingArguments,
    fieldsCleared: run.fieldsCleared,
    mutationsThroughReadOnly: run.mutationsThroughReadOnly,
    errorProbe: run.errorProbe,
    host: run.host.accepted ? { accepted: true } : { accepted: false, rejection: run.host.rejection },
    serverNotes: run.serverNotes,
  };
}

let dir: string;
let pagePath: string;
let report: SweepReport;
let stderr: string;
/** What `--work` wrote: each client's work by workload (SweepTiming['byClient']). */
let work: SweepTiming['byClient'];

/** The cell of a lab (its first row, when its runs send more than one kind of request). */
const cell = (lab: string, client: string, server: ServerBuild): SweepCell => {
  const found = report.cells.find((c) => c.lab === lab && c.client === client && c.server === server);
  if (!found) throw new Error(`no cell ${lab} ${client} ${server}`);
  return found;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'schema-breaks-sweep-'));
  pagePath = join(dir, 'sweep.html');
  const workPath = join(dir, 'work.json');
  const result = sweepCommand(['--fresh', '--work', workPath, '--seed', String(SEED), '--calls', String(CALLS), '--jobs', '2', '--lang', 'en', '--json', '--out', pagePath, '--labs', LABS.join(','), '--clients', CLIENTS.join(',')]);
  expect(result.status, result.stderr).toBe(0);
  report = JSON.parse(result.stdout) as SweepReport;
  stderr = result.stderr;
  work = JSON.parse(readFileSync(workPath, 'utf8')) as SweepTiming['byClient'];
}, 240_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the sweep JSON', () => {
  it('is one versioned document: the labs asked for x the clients asked for x every server build, each with baseline, variant and solution', () => {
    expect(report.format).toBe(SWEEP_FORMAT);
    expect(report.format).toBe('schema-breaks/sweep');
    expect(report.version).toBe(1);
    expect(report.settings).toEqual({ seed: SEED, calls: CALLS, temperature: DEFAULT_KNOBS.temperature });
    expect([...new Set(report.labs.map((l) => l.id))]).toEqual(LABS.filter((id) => report.labs.some((l) => l.id === id)));
    expect(new Set(report.labs.map((l) => l.id))).toEqual(new Set(LABS));
    // In the order of the profiles, whatever the order asked for.
    expect(report.clients.map((c) => c.id)).toEqual(PROFILE_IDS.filter((id) => CLIENTS.includes(id)));
    expect(report.servers).toEqual([...SERVER_BUILDS]);
    expect(report.cells).toHaveLength(report.labs.length * CLIENTS.length * SERVER_BUILDS.length);
    for (const c of report.cells) {
      for (const run of [c.runs.baseline, c.runs.variant, c.runs.solution!]) {
        expect(Object.values(run.finalOutcomes).reduce((a, b) => a + b, 0)).toBe(CALLS);
      }
    }
  });

  it('plans every break x every profile x every server build, each with baseline, variant and solution, when no lab is named', () => {
    const plan = planSweep({ seed: SEED, calls: CALLS, jobs: 1 });
    const breaks = listBreaks();
    expect(breaks.length).toBeGreaterThan(0);
    // Every break is a row (a lab whose runs send two kinds of requests is a row for each).
    expect([...new Set(plan.labs.map((l) => l.id))].sort()).toEqual([...breaks].sort());
    expect(plan.clients.map((c) => c.id)).toEqual([...PROFILE_IDS]);
    expect(plan.servers).toEqual([...SERVER_BUILDS]);
    expect(plan.cells).toHaveLength(plan.labs.length * PROFILE_IDS.length * SERVER_BUILDS.length);
    const keys = new Set(plan.cells.map((c) => `${c.lab.id} ${c.lab.workload} ${c.lab.readOnly} ${c.client} ${c.server}`));
    expect(keys.size).toBe(plan.cells.length);
    for (const row of plan.labs) {
      for (const client of PROFILE_IDS) {
        for (const server of SERVER_BUILDS) {
          const c = plan.cells.find((x) => x.lab.id === row.id && x.lab.workload === row.workload && x.lab.readOnly === row.readOnly && x.client === client && x.server === server);
          expect(c, `${row.id} (${row.workload}) ${client} ${server}`).toBeDefined();
          // A chained lab's baseline is the lab its patch names on its first line ("Base: root-transform").
          const base = /^Base: (\S+)/.exec(readFileSync(join(REPO, 'breaks', `${row.id}.patch`), 'utf8'))?.[1];
          const run = (id: number | null) => plan.runs[id!]!;
          expect(run(c!.baseline).variant).toBe(base ?? 'baseline');
          expect(run(c!.variant).variant).toBe(row.id);
          expect(run(c!.variant).patches.map((p) => relative(REPO, p)).at(-1)).toBe(`breaks/${row.id}.patch`);
          expect(c!.solution, `${row.id} has a solution in solutions/`).not.toBeNull();
          expect(run(c!.solution).variant).toBe(`${row.id}+solution`);
          expect(run(c!.solution).patches.map((p) => relative(REPO, p)).at(-1)).toBe(`solutions/${row.id}.patch`);
          for (const id of [c!.baseline, c!.variant, c!.solution]) expect(run(id)).toMatchObject({ client, server, workload: row.workload, readOnly: row.readOnly, seed: SEED, calls: CALLS });
        }
      }
    }
  });

  it('makes one run of two servers with the same bytes and settings, whatever their files or labels, and two of any other', () => {
    const dir = mkdtempSync(join(tmpdir(), 'schema-breaks-same-'));
    try {
      const [a, sameAsA, other] = ['a.cjs', 'b.cjs', 'c.cjs'].map((name) => join(dir, name));
      writeFileSync(a!, 'one server');
      writeFileSync(sameAsA!, 'one server');
      writeFileSync(other!, 'another server');
      const task = { seed: SEED, calls: CALLS, temperature: 0, client: 'faithful', server: 'low-level', workload: 'conjugate', readOnly: false, shareServers: true } as const;
      const { tasks, measuredBy } = sameServerOnce([
        { ...task, id: 0, variant: 'baseline', serverJs: a! },
        { ...task, id: 1, variant: 'x+solution', serverJs: sameAsA! },
        { ...task, id: 2, variant: 'x', serverJs: other! },
        { ...task, id: 3, variant: 'baseline', serverJs: a!, client: 'langflow' },
        { ...task, id: 4, variant: 'baseline', serverJs: a!, readOnly: true },
      ]);
      expect(tasks.map((t) => t.id)).toEqual([0, 2, 3, 4]);
      expect([...measuredBy]).toEqual([[0, 0], [1, 0], [2, 2], [3, 3], [4, 4]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs each lab with the requests its catalogue runs send', () => {
    for (const lab of loadCatalogue()) {
      if (!listBreaks().includes(lab.id)) continue;
      const wanted = new Set(lab.runs.map((r) => `${r.workload ?? 'conjugate'} ${r.readOnly ?? false}`));
      const rows = new Set(planSweep({ seed: SEED, calls: CALLS, jobs: 1 }).labs.filter((l) => l.id === lab.id).map((l) => `${l.workload} ${l.readOnly}`));
      expect(rows, lab.id).toEqual(wanted);
    }
  });

  it('prints how long it took, on stderr (stdout is the document alone)', () => {
    expect(stderr).toMatch(/\d+ runs \([\d,]+ tool calls\) on \d+ server processes in \d+(\.\d)? s .*with 2 job\(s\)/);
    // Conjugations share a server process per build (src/lab/server-pool.ts): fewer processes than runs.
    const [, runs, calls, processes] = stderr.match(/(\d+) runs \(([\d,]+) tool calls\) on (\d+) server processes/)!.map((n) => Number(n.replaceAll(',', '')));
    expect(processes).toBeLessThan(runs!);
    // The workload's and the eval's calls, none more than the agent's turns a request.
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThanOrEqual(runs! * (CALLS + EVAL_ITEMS) * DEFAULT_KNOBS.maxTurns);
  });

  it('writes with --work what each client profile did, by workload: the runs and tool calls of the summary line, split', () => {
    const [, runs, calls] = stderr.match(/(\d+) runs \(([\d,]+) tool calls\)/)!.map((n) => Number(n.replaceAll(',', '')));
    const all = Object.values(work).flatMap((byWorkload) => Object.values(byWorkload));
    expect(Object.keys(work).sort()).toEqual([...CLIENTS].sort());
    expect(all.reduce((sum, w) => sum + w!.runs, 0)).toBe(runs);
    expect(all.reduce((sum, w) => sum + w!.roundTrips, 0)).toBe(calls);
    // The faithful client shows every tool list and sends every call the model writes (src/lab/profiles/faithful.ts):
    // one present a run, one check a call sent.
    for (const w of Object.values(work.faithful!)) {
      expect(w!.presents).toBe(w!.runs);
      expect(w!.checks).toBe(w!.roundTrips);
      expect(w!.refused).toBeLessThanOrEqual(w!.roundTrips + w!.probeCalls);
    }
    // broken-schema's break drops `required`: the model leaves arguments out and the server refuses those calls; the probe's calls are refusals too.
    expect(work.faithful!.conjugate!.refused).toBeGreaterThan(0);
    // The error probe sends a conjugation that worked again, once without each of its arguments (runner.ts).
    expect(work.faithful!.conjugate!.probeCalls).toBeGreaterThan(0);
    // Continue with Gemini (2025-02) has its tool list refused in structural-anyof (the test below): a run with no
    // call written checks nothing, so it checks fewer calls than faithful does with the same model.
    const checks = (client: string) => Object.values(work[client]!).reduce((sum, w) => sum + w!.checks, 0);
    expect(checks('continue-gemini-2025-02')).toBeLessThan(checks('faithful'));
  });

  /** runLab for one cell, directly, with the cell's settings and the same seed. */
  async function expectRunLabFigures(c: SweepCell): Promise<void> {
    const direct = await runLab({
      variant: c.lab,
      settings: { client: getProfile(c.client)!, server: c.server, seed: SEED, calls: CALLS, knobs: DEFAULT_KNOBS, workload: c.workload, readOnly: c.readOnly },
      solution: true,
      json: true,
    });
    expect(figuresOf(c.runs.baseline)).toEqual(figuresOf(direct.runs.baseline));
    expect(figuresOf(c.runs.variant)).toEqual(figuresOf(direct.runs.variant!));
    expect(figuresOf(c.runs.solution!)).toEqual(figuresOf(direct.runs.solution!));
  }

  it.each([
    ['broken-schema', 'langflow', 'low-level'],
    ['structural-anyof', 'openai-strict', 'mcpserver-1.32'],
    // Its fix puts back the very server of its baseline (root-transform's break): the sweep runs that once.
    ['root-transform-shape', 'faithful', 'mcpserver-1.20'],
  ] as const)('the figures of %s under %s, %s are what runLab measures for that cell directly', async (lab, client, server) => {
    await expectRunLabFigures(cell(lab, client, server));
  });

  it('so are those of a cell that sends other requests than conjugations, when a lab has one', async () => {
    const other = report.cells.find((c) => c.workload !== 'conjugate' || c.readOnly);
    if (!other) return;
    await expectRunLabFigures(other);
  });

  it('runs a server that is byte for byte another once per settings, and each cell keeps its own labels', async () => {
    const plan = planSweep({ seed: SEED, calls: CALLS, jobs: 2, labs: LABS, clients: CLIENTS });
    // Counted here from the bundles themselves: one run per (bundle bytes, client, build, workload, read-only).
    const digests = new Map<string, string>();
    for (const patches of new Set(plan.runs.map((r) => JSON.stringify(r.patches)))) {
      digests.set(patches, createHash('sha256').update(readFileSync(await buildServer(JSON.parse(patches) as string[]))).digest('hex'));
    }
    const distinct = new Set(plan.runs.map((r) => JSON.stringify([digests.get(JSON.stringify(r.patches)), r.client, r.server, r.workload, r.readOnly])));
    expect(distinct.size).toBeLessThan(plan.runs.length);
    expect(stderr).toMatch(new RegExp(`\\b${distinct.size} runs \\(`));
    const shape = cell('root-transform-shape', 'langflow', 'low-level');
    expect(shape.runs.baseline.variant).toBe('root-transform');
    expect(shape.runs.solution!.variant).toBe('root-transform-shape+solution');
    expect(figuresOf(shape.runs.solution!)).toEqual(figuresOf(shape.runs.baseline));
  });

  it('gives the same figures with one job and a server process per run as with two jobs sharing servers (latency aside)', async () => {
    // One lab (its baseline, break and fix) under two clients, each run on a process of its own, against the same cells of the sweep above.
    const labs = ['broken-schema'];
    const clients = ['faithful', 'langflow'];
    const { report: again, timing } = await sweep({ seed: SEED, calls: CALLS, jobs: 1, labs, clients, serverPerRun: true });
    expect(timing.jobs).toBe(1);
    expect(timing.servers).toEqual({ started: timing.runs, reused: 0 });
    const mine = { ...report, labs: report.labs.filter((l) => labs.includes(l.id)), clients: report.clients.filter((c) => clients.includes(c.id)), cells: report.cells.filter((c) => labs.includes(c.lab) && clients.includes(c.client)) };
    expect(again.cells).toHaveLength(labs.length * clients.length * SERVER_BUILDS.length);
    expect(withoutTimings(again)).toEqual(withoutTimings(mine));
  }, 120_000);

  it('structural-anyof in Continue with Gemini (2025-02): every call client-rejected, in every server build (the API of 2025-02 refuses the additionalProperties inside the union)', () => {
    for (const server of SERVER_BUILDS) {
      const c = cell('structural-anyof', 'continue-gemini-2025-02', server);
      expect(c.runs.variant.outcomes).toEqual({ 'client-rejected': CALLS });
      expect(c.runs.variant.finalOutcomes).toEqual({ 'client-rejected': CALLS });
      expect(c.runs.variant.host.accepted).toBe(false);
      if (!c.runs.variant.host.accepted) expect(c.runs.variant.host.rejection).toMatch(/Unknown name "additionalProperties" at '[^']*\.any_of\[0\]'/);
      // The refusal is the break's: the same host takes the baseline and the fix.
      expect(c.runs.baseline.host.accepted).toBe(true);
      expect(c.runs.solution!.host.accepted).toBe(true);
      expect(c.verdict.variant).toBe('worse');
    }
  });

  it('marks a fix as falling short exactly where it leaves the learner worse off than the baseline; structural-anyof\'s holds under strict mode', () => {
    for (const c of report.cells) {
      // The one rule, applied here to the cell's own runs (src/class/sweep-model.ts verdict).
      const judged = verdict(c.runs.solution!, c.runs.baseline);
      expect(c.verdict.solution, `${c.lab} ${c.client} ${c.server}`).toBe(judged);
      expect(c.verdict.solutionFallsShort, `${c.lab} ${c.client} ${c.server}`).toBe(judged === 'worse' || judged === 'mixed');
    }
    // None does in this sweep; a fix that did what the break does would: the break's runs, given as the fix.
    const refused = cell('structural-anyof', 'continue-gemini-2025-02', 'mcpserver-1.32');
    expect(cellVerdict({ ...refused.runs, solution: refused.runs.variant })).toEqual({ variant: 'worse', solution: 'worse', solutionFallsShort: true });
    // Every parameter required: strict mode takes the fix (its optional fields were refused: Missing 'past').
    for (const server of SERVER_BUILDS) {
      const c = cell('structural-anyof', 'openai-strict', server);
      expect(c.runs.solution!.finalOutcomes).toEqual({ ok: CALLS });
      expect(c.verdict.solutionFallsShort).toBe(false);
    }
    // A fix that does return to the baseline is not marked.
    expect(cell('broken-schema', 'faithful', 'low-level').verdict).toMatchObject({ variant: 'worse', solution: 'same', solutionFallsShort: false });
  });
});

describe('the verdicts', () => {
  const run = (over: Partial<SweepRun>): SweepRun => ({
    variant: 'x',
    outcomes: { ok: 10 },
    finalOutcomes: { ok: 10 },
    attempts: { ok: 10 },
    retries: { total: 0, perCall: 0, perFailingCall: 0, distribution: { '0': 10 }, cap: 9 },
    accuracy: { correct: 30, total: 30 },
    silentWrong: 0,
    missingArguments: { calls: 0, share: 0 },
    fieldsCleared: 0,
    mutationsThroughReadOnly: 0,
    errorProbe: { named: 1, total: 1 },
    latencyMs: { p50: 1, p95: 2 },
    host: { accepted: true },
    serverNotes: [],
    ...over,
  });
  const base = run({ finalOutcomes: { ok: 8, 'no-call': 2 }, outcomes: { ok: 8, 'no-call': 2 } });

  it('same figures (latency aside) are the same; more calls ending ok is better, even at the price of a few retries', () => {
    expect(verdict({ ...base, latencyMs: { p50: 9, p95: 9 }, variant: 'y' }, base)).toBe('same');
    expect(verdict(run({ retries: { total: 2, perCall: 0.2, perFailingCall: 1, distribution: { '0': 8, '1': 2 }, cap: 9 } }), base)).toBe('better');
  });

  it('a refused tool list is worse; the same answers with more retries are worse; ok up with silent errors is mixed', () => {
    expect(verdict(run({ finalOutcomes: { 'client-rejected': 10 }, accuracy: { correct: 0, total: 30 }, host: { accepted: false, rejection: 'no' } }), base)).toBe('worse');
    // Even against a baseline with silent errors: a refused list has none because it runs nothing.
    const refused = run({ finalOutcomes: { 'client-rejected': 10 }, accuracy: { correct: 0, total: 30 }, host: { accepted: false, rejection: 'no' } });
    expect(verdict(refused, { ...base, silentWrong: 2 })).toBe('worse');
    expect(verdict({ ...base, retries: { total: 5, perCall: 0.5, perFailingCall: 2.5, distribution: { '0': 8, '2': 1, '3': 1 }, cap: 9 } }, base)).toBe('worse');
    expect(verdict(run({ silentWrong: 3 }), base)).toBe('mixed');
    expect(verdict(run({ mutationsThroughReadOnly: 2 }), base)).toBe('mixed');
  });

  it('other first-attempt errors with the same ends are different', () => {
    expect(verdict({ ...base, outcomes: { ok: 8, isError: 2 } }, base)).toBe('different');
  });
});

describe('the sweep command', () => {
  it.each([
    [['--jobs', '0'], /--jobs takes a whole number of at least 1/],
    [['--calls', 'many'], /--calls takes a whole number/],
    [['--lang', 'fr'], /unknown language "fr"; one of: en, es/],
    [['--frobnicate'], /Unknown option '--frobnicate'/],
    [['--labs', 'broken-schema,nope'], /--labs: unknown "nope"; one of: broken-schema, /],
    [['--clients', 'claude-9'], /--clients: unknown "claude-9"; one of: faithful, /],
    [['--servers', ','], /--servers needs at least one of: low-level, mcpserver-1.20, mcpserver-1.32/],
  ])('%j is one clear line and exit code 2', async (args, message) => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
    try {
      expect(await runSweepCommand(args)).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(written.join('').split('\n')[0]).toMatch(message);
  });

  it('defaults: seed 1, 100 calls, as many jobs as cores', () => {
    const command = parseSweepArgs([], { LANG: 'es_ES.UTF-8' });
    expect(command).toMatchObject({ seed: 1, calls: 100, json: false, lang: 'es', serverPerRun: false });
    expect(command !== 'help' && command.jobs).toBeGreaterThanOrEqual(1);
    expect(parseSweepArgs(['--server-per-run'])).toMatchObject({ serverPerRun: true });
    expect(parseSweepArgs(['--labs', 'schema-drift, broken-schema', '--servers', 'low-level'])).toMatchObject({ labs: ['schema-drift', 'broken-schema'], servers: ['low-level'] });
    expect(parseSweepArgs([])).toMatchObject({ labs: undefined, clients: undefined, servers: undefined });
  });
});

describe('the page', () => {
  let html: string;
  beforeAll(() => {
    html = readFileSync(pagePath, 'utf8');
  });

  it('is self-contained: no http(s) src or href, no script, no link but the empty icon, no external url()', () => {
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/<script\b/i);
    // The one link is the empty icon of every workshop page (href="data:,"), so that no browser asks for a favicon.
    expect(html.replace('<link rel="icon" href="data:,">', '')).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/url\(/i);
    expect(html).not.toMatch(/@import/i);
  });

  it('says the server build decides how errors reach the client, naming each build, and credits no spec revision with it', () => {
    const intro = /<p class="intro">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';
    for (const build of SERVER_BUILDS) expect(intro).toContain(build);
    expect(intro).not.toMatch(/SEP-1303|2025-06-18|2025-11-25/);
  });

  it('is a table per server build, a row per host and three cells per lab (baseline, break, fix), each cell one figure of each kind', () => {
    const tables = html.match(/<table class="grid[^"]*">[\s\S]*?<\/table>/g) ?? [];
    expect(tables).toHaveLength(SERVER_BUILDS.length);
    const cells = html.match(/<td class="cell[^"]*"[^>]*>[\s\S]*?<\/td>/g) ?? [];
    expect(cells).toHaveLength(report.cells.length * 3);
    // The figure a cell shows first is the share of calls ending ok; each kind of figure is one span, shown when chosen.
    for (const td of cells) expect(td).toMatch(/^<td[^>]*><span class="fig fig-ok">⊘?\d+%<\/span>/);
    for (const td of cells) expect(new Set([...td.matchAll(/class="fig (fig-\w+)"/g)].map((m) => m[1])).size).toBe([...td.matchAll(/class="fig /g)].length);
    // Each cell says in words what it is (its title), since it holds a bare figure.
    for (const td of cells) expect(td).toMatch(/ title="[^"]+: \d+% ending ok/);
    expect(html).not.toMatch(/<svg\b/);
    expect(html).toContain("default-src 'none'");
  });

  it('escapes what it quotes (the hosts\' error texts carry quotes)', () => {
    // No fix of this sweep falls short; the findings list quotes a refusal when one does: the break's, made the fix here.
    const refused = cell('structural-anyof', 'continue-gemini-2025-02', 'mcpserver-1.32');
    const short: SweepReport = { ...report, cells: [{ ...refused, runs: { ...refused.runs, solution: refused.runs.variant }, verdict: { ...refused.verdict, solution: 'worse', solutionFallsShort: true } }] };
    const quoted = renderPage(short, 'en');
    // The API of 2025-02 parses anyOf and refuses the keys inside its branches that are no field of its Schema.
    expect(quoted).toContain('Unknown name &quot;additionalProperties&quot;');
    expect(quoted).not.toContain('Unknown name "additionalProperties"');
  });

  it('speaks Spanish with --lang es', () => {
    const es = renderPage(report, 'es');
    expect(es).toMatch(/<html lang="es">/);
    expect(es).toContain('todo el curso en una pantalla');
  });

  it('opens from disk in chromium: no console errors, no failed or non-file requests, the grid visible', async () => {
    const executablePath = chromiumPath();
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath,
      args: CHROMIUM_ARGS,
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
      page.on('request', (request) => requests.push(request.url()));
      await page.goto(pathToFileURL(pagePath).href, { waitUntil: 'load' });

      // The first server build's table is shown; the others wait for their choice.
      const grid = page.locator('table.grid:visible');
      await expect.poll(() => grid.count()).toBe(1);
      expect(await page.locator('table.grid td.cell').count()).toBe(report.cells.length * 3);
      // On a 1920x1080 screen the grid fits the width (no sideways scrolling), and it starts on the first screen.
      const box = await grid.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(1920);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1920);
      expect(box!.y).toBeLessThan(300);
      expect(await page.locator('td.short').count()).toBe(report.cells.filter((c) => c.verdict.solutionFallsShort).length);

      mkdirSync(join(REPO, 'test-output'), { recursive: true });
      await page.screenshot({ path: join(REPO, 'test-output', 'sweep.png'), fullPage: true });

      expect(problems).toEqual([]);
      expect(requests.filter((url) => !url.startsWith('file:'))).toEqual([]);
      expect(requests).toEqual([pathToFileURL(pagePath).href]);
    } finally {
      await browser.close();
    }
  });
});
