/**
 * The lab command as a learner meets it: clear errors for bad input, one JSON
 * document with --json, the same figures for the same seed, a runner that
 * survives servers that crash, hang or write garbage, and the effects each
 * break must show. Expectations come from the spec and facts.md (which era
 * gives which code; which host refuses what), never from the runner.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KNOBS } from '../src/lab/knobs.js';
import { getProfile } from '../src/lab/profiles/index.js';
import { run } from '../src/lab/runner.js';
import { comparable, lab } from './helpers/lab.js';

const json = (args: string[]) => {
  const result = lab([...args, '--json']);
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};

describe('bad input is one clear line and exit code 2', () => {
  it.each([
    [['--variant', 'nope'], /unknown variant "nope"; one of: baseline, broken-schema, .*structural-anyof/],
    [['--variant', 'broken-schema', '--client', 'nope'], /unknown client "nope"; one of: faithful, .*langflow/],
    [['--variant', 'broken-schema', '--spec', '2024-01-01'], /unknown spec "2024-01-01"; one of: 2025-06-18, 2025-11-25/],
    [['--variant', 'broken-schema', '--calls', 'many'], /--calls takes a whole number/],
    [['--variant', 'broken-schema', '--temperature', '9'], /--temperature takes a number from 0 to 2/],
    [['--variant', 'broken-schema', '--frobnicate'], /Unknown option '--frobnicate'/],
    [['--read'], /--read needs a lab: --variant /],
    [['--variant', 'broken-schema', '--lang', 'fr'], /unknown language "fr"; one of: en, es/],
    [['--variant', 'baseline', '--solution'], /--solution needs a break/],
  ])('%j', (args, message) => {
    const result = lab(args);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(message);
  });

  it('no --variant: the catalogue as plain text when there is no terminal, exit 0', () => {
    const result = lab([]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/1\. broken-schema/);
    expect(result.stdout).toMatch(/What next\? npm run lab -- --variant /);
  });

  it('--help lists the options and the variants, exit 0', () => {
    const result = lab(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/--variant ID/);
    expect(result.stdout).toMatch(/Variants: baseline, broken-schema/);
  });
});

describe('--json', () => {
  const args = ['--variant', 'broken-schema', '--spec', '2025-06-18', '--seed', '5', '--calls', '30', '--solution'];

  it('prints one documented JSON document and nothing else', () => {
    const report = json(args);
    expect(report.format).toBe('schema-breaks/lab-report');
    expect(report.version).toBe(1);
    for (const name of ['baseline', 'variant', 'solution']) {
      const r = report.runs[name];
      for (const key of ['variant', 'client', 'spec', 'seed', 'calls', 'publishedSchema', 'outcomes', 'attempts', 'retries', 'accuracy', 'silentWrong', 'latencyMs']) {
        expect(r, `${name}.${key}`).toHaveProperty(key);
      }
      expect(Object.keys(r.retries).sort()).toEqual(['distribution', 'perCall', 'perFailingCall', 'total']);
      // The distribution adds up to the calls, and to the total of retries.
      const distribution = Object.entries(r.retries.distribution as Record<string, number>);
      expect(distribution.reduce((sum, [, n]) => sum + n, 0)).toBe(30);
      expect(distribution.reduce((sum, [k, n]) => sum + Number(k) * n, 0)).toBe(r.retries.total);
      expect(Object.keys(r.latencyMs).sort()).toEqual(['p50', 'p95']);
      expect(r.accuracy.total).toBe(30);
      // First attempts: one per workload call.
      expect(Object.values(r.outcomes as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(30);
    }
  });

  it('the same command twice gives the same figures, latency aside', () => {
    const strip = (report: any) => ({ ...report, runs: Object.fromEntries(Object.entries(report.runs).map(([k, r]) => [k, comparable(r as any)])) });
    expect(strip(json(args))).toEqual(strip(json(args)));
  });
});

describe('what each break must show (facts.md, the spec)', () => {
  it('broken-schema, 2025-06-18: crashes inside the tool come back as -32603, the agent retries them, accuracy drops', () => {
    const { baseline, variant } = json(['--variant', 'broken-schema', '--spec', '2025-06-18']).runs;
    expect(baseline.outcomes['rpc:-32603']).toBeUndefined();
    expect(variant.outcomes['rpc:-32603']).toBeGreaterThan(10);
    expect(variant.retries.perFailingCall).toBeGreaterThanOrEqual(2);
    expect(variant.accuracy.correct).toBeLessThan(baseline.accuracy.correct);
    expect(variant.publishedSchema.required).toBeUndefined();
  });

  it('broken-schema, 2025-11-25: no JSON-RPC errors at all; failures are isError results the model reads', () => {
    const { variant } = json(['--variant', 'broken-schema', '--spec', '2025-11-25']).runs;
    expect(Object.keys(variant.attempts).filter((l) => l.startsWith('rpc:'))).toEqual([]);
    expect(variant.outcomes.isError).toBeGreaterThan(10);
  });

  it('structural-anyof under gemini: every call refused by the host before anything runs', () => {
    const { baseline, variant } = json(['--variant', 'structural-anyof', '--client', 'gemini']).runs;
    expect(variant.outcomes).toEqual({ 'client-rejected': 100 });
    expect(variant.host.rejection).toMatch(/^400 INVALID_ARGUMENT: .*Unknown name "anyOf"/);
    expect(baseline.host.accepted).toBe(true);
  });

  it('structural-anyof under langflow: few or no errors, but silently wrong answers', () => {
    const { variant } = json(['--variant', 'structural-anyof', '--client', 'langflow']).runs;
    expect(variant.silentWrong).toBeGreaterThan(0);
    expect(variant.finalOutcomes.ok).toBeGreaterThanOrEqual(95);
  });

  it('structural-anyof under faithful: no harm', () => {
    const { baseline, variant } = json(['--variant', 'structural-anyof', '--client', 'faithful']).runs;
    expect(variant.silentWrong).toBe(0);
    expect(variant.finalOutcomes.ok).toBeGreaterThanOrEqual(baseline.finalOutcomes.ok);
  });

  it.each(['root-transform', 'root-transform-shape'])('%s publishes a tool with no parameters', (id) => {
    const { variant } = json(['--variant', id]).runs;
    expect(variant.publishedSchema).toEqual({ type: 'object', properties: {} });
  });

  it('root-transform (registered as the SDK does): still validated, so the model recovers from the errors', () => {
    const { baseline, variant } = json(['--variant', 'root-transform', '--spec', '2025-06-18']).runs;
    expect(variant.outcomes['rpc:-32602']).toBeGreaterThan(50);
    expect(variant.finalOutcomes.ok).toBe(baseline.finalOutcomes.ok);
  });

  it('root-transform-shape (the .shape idiom): the tool gets no arguments and every call fails', () => {
    const { variant } = json(['--variant', 'root-transform-shape', '--spec', '2025-06-18']).runs;
    expect(variant.finalOutcomes).toEqual({ 'rpc:-32603': 100 });
    expect(variant.stderrSample.join('\n')).toMatch(/Cannot read properties of undefined/);
  });

  it.each([
    ['broken-schema', 'faithful'],
    ['broken-schema', 'openai-strict'],
    ['root-transform', 'gemini'],
    ['root-transform', 'openai-strict'],
    ['root-transform-shape', 'faithful'],
  ])('the solution of %s brings the figures back to the baseline\'s (%s)', (id, client) => {
    const { baseline, solution } = json(['--variant', id, '--client', client, '--solution']).runs;
    const { publishedSchema: _a, host: _b, stderrSample: _c, ...want } = comparable(baseline);
    const { publishedSchema: _d, host: _e, stderrSample: _f, ...got } = comparable(solution);
    expect(got).toEqual(want);
  });

  it.each(['faithful', 'gemini', 'langflow'])('the solution of structural-anyof keeps the new capability without harm (%s)', (client) => {
    const { baseline, solution } = json(['--variant', 'structural-anyof', '--client', client, '--solution']).runs;
    expect(solution.host.accepted).toBe(true);
    expect(solution.silentWrong).toBe(0);
    expect(solution.retries.total).toBeLessThanOrEqual(baseline.retries.total);
    expect(solution.accuracy.correct).toBeGreaterThanOrEqual(baseline.accuracy.correct);
  });
});

describe('what the later breaks must show', () => {
  it('discriminated-union: better messages than the plain anyOf, and a oneOf Gemini refuses', () => {
    const plain = json(['--variant', 'structural-anyof']).runs.variant;
    const tagged = json(['--variant', 'discriminated-union']).runs.variant;
    expect(tagged.publishedSchema.properties.verb.oneOf).toHaveLength(2);
    expect(tagged.errorProbe.named / tagged.errorProbe.total).toBeGreaterThan(plain.errorProbe.named / plain.errorProbe.total);
    const gemini = json(['--variant', 'discriminated-union', '--client', 'gemini']).runs;
    expect(gemini.variant.outcomes).toEqual({ 'client-rejected': 100 });
    expect(gemini.variant.host.rejection).toMatch(/Unknown name "oneOf"/);
    expect(gemini.baseline.host.accepted).toBe(true);
  });

  it('schema-drift: profile edits succeed all the way and lose a field; the lesson filter cannot be sent', () => {
    const profile = json(['--variant', 'schema-drift', '--workload', 'profile']).runs;
    expect(profile.baseline.fieldsCleared).toBe(0);
    expect(profile.variant.fieldsCleared).toBeGreaterThan(0);
    expect(profile.variant.finalOutcomes).toEqual({ ok: 100 });
    expect(profile.variant.publishedSchema.properties.reminder).toBeUndefined();
    const lessons = json(['--variant', 'schema-drift', '--workload', 'lessons']).runs;
    expect(lessons.variant.silentWrong).toBeGreaterThan(lessons.baseline.silentWrong);
  });

  it('readonly-gate: with the server read-only, changes get through the lessons tool', () => {
    const { baseline, variant } = json(['--variant', 'readonly-gate', '--workload', 'lessons', '--read-only']).runs;
    expect(baseline.mutationsThroughReadOnly).toBe(0);
    expect(variant.mutationsThroughReadOnly).toBeGreaterThan(0);
    expect(variant.publishedSchema).toEqual({ type: 'object', properties: {} });
  });

  it.each([
    ['schema-drift', ['--workload', 'profile']],
    ['schema-drift', ['--workload', 'lessons']],
    ['readonly-gate', ['--workload', 'lessons', '--read-only']],
  ])("the solution of %s brings the figures back to the baseline's (%j)", (id, extra) => {
    const { baseline, solution } = json(['--variant', id, ...extra, '--solution']).runs;
    const { host: _b, stderrSample: _c, ...want } = comparable(baseline);
    const { host: _e, stderrSample: _f, ...got } = comparable(solution);
    expect(got).toEqual(want);
  });
});

describe('a server that misbehaves cannot hang the runner', () => {
  const fixture = fileURLToPath(new URL('./fixtures/misbehaving-server.mjs', import.meta.url));
  const settings = { client: getProfile('faithful')!, spec: '2025-11-25' as const, seed: 1, calls: 10, knobs: { ...DEFAULT_KNOBS, callTimeoutMs: 300 } };
  const leftovers = () => {
    try {
      return execFileSync('pgrep', ['-f', fixture], { encoding: 'utf8' }).trim();
    } catch {
      return ''; // pgrep exits 1 when nothing matches
    }
  };

  it.each([
    ['crash', 'server-exit'],
    ['hang', 'timeout'],
    ['garbage', 'timeout'],
  ])('%s: every call ends as %s, with a note, and no process is left behind', async (mode, label) => {
    const started = Date.now();
    const result = await run(mode, [fixture, mode], settings);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result.outcomes).toEqual({ [label]: 10 });
    expect(result.serverNotes.join('\n')).toMatch(/gave up on the server/);
    if (mode === 'garbage') expect(result.serverNotes.join('\n')).toMatch(/not JSON-RPC/);
    expect(leftovers()).toBe('');
  });

  it('dead at start: every call ends as server-exit, not as a host refusal', async () => {
    const result = await run('dead', [fixture, 'dead'], settings);
    expect(result.outcomes).toEqual({ 'server-exit': 10 });
    expect(result.publishedSchema).toBeNull();
    expect(result.serverNotes.join('\n')).toMatch(/did not answer tools\/list.*cannot start/s);
    expect(leftovers()).toBe('');
  });
});
