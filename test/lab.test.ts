/**
 * The lab command as a learner meets it: clear errors for bad input, one JSON
 * document with --json, the same figures for the same seed, a runner that
 * survives servers that crash, hang or write garbage, and the effects each
 * break must show. Expectations come from the real server builds, the hosts'
 * documented rules and the agent's defaults (docs/sources.md), never from the runner.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KNOBS } from '../src/lab/knobs.js';
import { getProfile } from '../src/lab/profiles/index.js';
import { run } from '../src/lab/runner.js';
import { comparable, lab, labHere } from './helpers/lab.js';
import { REPO } from './helpers/server.js';

/** A run's --json document, from a process of its own (as a learner starts it). */
const jsonSpawned = (args: string[]) => {
  const result = lab([...args, '--json']);
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};

/** The same document from the lab command's main in this process: the runs are the same real server processes. */
const json = async (args: string[]) => {
  const result = await labHere([...args, '--json']);
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};

describe('bad input is one clear line and exit code 2', () => {
  it.each([
    [['--variant', 'nope'], /unknown variant "nope"; one of: baseline, broken-schema, .*structural-anyof/],
    [['--variant', 'broken-schema', '--client', 'nope'], /unknown client "nope"; one of: faithful, .*langflow/],
    [['--variant', 'broken-schema', '--server', 'sdk-2'], /unknown server build "sdk-2"; one of: low-level, mcpserver-1.20, mcpserver-1.32/],
    [['--variant', 'broken-schema', '--spec', '2025-06-18'], /--spec is gone: .*server build.*--server low-level\|mcpserver-1.20\|mcpserver-1.32/],
    [['--variant', 'broken-schema', '--calls', '-5'], /--calls takes a value, not -5/],
    [['--variant', 'broken-schema', '--calls', '100000'], /--calls takes a whole number from 1 to 1000/],
    [['--variant', 'broken-schema', '--seeds', '0'], /--seeds takes a whole number from 1 to 20/],
    [['--variant', 'broken-schema', '--calls', 'many'], /--calls takes a whole number/],
    [['--variant', 'broken-schema', '--temperature', '9'], /--temperature takes a number from 0 to 2/],
    [['--variant', 'broken-schema', '--frobnicate'], /Unknown option '--frobnicate'/],
    [['--read'], /--read needs a lab: --variant /],
    [['--variant', 'broken-schema', '--lang', 'fr'], /unknown language "fr"; one of: en, es/],
    [['--variant', 'baseline', '--solution'], /--solution needs a break/],
  ])('%j', async (args, message) => {
    const result = await labHere(args);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(message);
  });

  it('the real process says the same: the line, a pointer to --help, nothing on stdout, exit 2', async () => {
    for (const args of [['--variant', 'nope'], ['--variant', 'broken-schema', '--calls', '-5']]) {
      const spawned = lab(args);
      expect(spawned.status).toBe(2);
      expect(spawned.stdout).toBe('');
      expect(spawned.stderr.split('\n')[1]).toMatch(/npm run lab -- --help/);
      expect(spawned.stderr).toBe((await labHere(args)).stderr);
    }
  });

  it('no --variant: the catalogue as plain text when there is no terminal, exit 0', async () => {
    const result = await labHere([]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/1\. broken-schema/);
    expect(result.stdout).toMatch(/What next\? npm run lab -- --variant /);
  });

  it('--help lists the options and the variants, exit 0', async () => {
    const result = await labHere(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/--variant ID/);
    expect(result.stdout).toMatch(/Variants: baseline, broken-schema/);
  });
});

describe('no colour codes off a terminal', () => {
  it.each([[{}], [{ NO_COLOR: '1' }]])('--read and a run, piped (%j), are plain text', (env) => {
    for (const args of [['--variant', 'broken-schema', '--read'], ['--variant', 'broken-schema', '--client', 'faithful', '--calls', '5']]) {
      const result = lab(args, REPO, { NO_COLOR: '', ...env });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout.length).toBeGreaterThan(200);
      expect(result.stdout).not.toMatch(/\u001b\[/);
    }
  });
});

describe('a reader that stops early', () => {
  it('--read into a pipe already closed (| true): the command ends quietly, exit 0, no stack trace', () => {
    const result = spawnSync('bash', ['-c', 'set -o pipefail; node scripts/launch.mjs scripts/lab.ts --variant broken-schema --read | true'], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('--json', () => {
  const args = ['--variant', 'broken-schema', '--server', 'low-level', '--seed', '5', '--calls', '30', '--solution'];

  it('prints one documented JSON document and nothing else', () => {
    const report = jsonSpawned(args);
    expect(report.format).toBe('schema-breaks/lab-report');
    expect(report.version).toBe(2);
    expect(report.settings.server).toBe('low-level');
    for (const name of ['baseline', 'variant', 'solution']) {
      const r = report.runs[name];
      for (const key of ['variant', 'client', 'server', 'seed', 'calls', 'model', 'agent', 'publishedSchema', 'outcomes', 'attempts', 'retries', 'accuracy', 'silentWrong', 'latencyMs']) {
        expect(r, `${name}.${key}`).toHaveProperty(key);
      }
      expect(Object.keys(r.retries).sort()).toEqual(['cap', 'distribution', 'perCall', 'perFailingCall', 'total']);
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
    expect(strip(jsonSpawned(args))).toEqual(strip(jsonSpawned(args)));
  });
});

// Expectations come from what the real builds do (docs/sources.md, "Server builds", measured in
// test/build-parity.test.ts), from each host's documented rules ("Hosts") and from the agent's
// defaults ("The agent"), never from the runner.
describe('what each break must show', () => {
  it('broken-schema on the low-level build: crashes inside the tool come back as -32603, and the model retries them until the agent stops it', async () => {
    const { baseline, variant } = (await json(['--variant', 'broken-schema', '--server', 'low-level'])).runs;
    expect(baseline.outcomes['rpc:-32603']).toBeUndefined();
    expect(variant.outcomes['rpc:-32603']).toBeGreaterThan(10);
    // The OpenAI Agents SDK never resends by itself: each retry is the model's, and max_turns (10) ends the loop.
    expect(variant.finalOutcomes['max-turns']).toBeGreaterThan(0);
    expect(variant.retries.cap).toBe(9);
    expect(variant.retries.distribution['9']).toBeGreaterThan(0);
    expect(variant.retries.perFailingCall).toBeGreaterThan(2);
    expect(variant.finalOutcomes.ok).toBeLessThan(baseline.finalOutcomes.ok);
    expect(variant.publishedSchema.required).toBeUndefined();
  });

  it.each(['mcpserver-1.20', 'mcpserver-1.32'])('broken-schema on %s: the same crashes are isError results, and no -32603 anywhere', async (server) => {
    const { variant } = (await json(['--variant', 'broken-schema', '--server', server])).runs;
    expect(variant.attempts['rpc:-32603']).toBeUndefined();
    expect(variant.outcomes.isError).toBeGreaterThan(10);
  });

  it('root-transform: still validated; mcpserver-1.20 answers invalid arguments with -32602, mcpserver-1.32 with isError', async () => {
    const old = (await json(['--variant', 'root-transform', '--server', 'mcpserver-1.20'])).runs;
    expect(Object.entries(old.variant.outcomes).sort((x: any, y: any) => y[1] - x[1])[0]![0]).toBe('rpc:-32602');
    expect(old.variant.finalOutcomes.ok).toBeGreaterThan(old.baseline.finalOutcomes.ok - 10);
    const now = (await json(['--variant', 'root-transform', '--server', 'mcpserver-1.32'])).runs;
    expect(Object.keys(now.variant.attempts).filter((l) => l.startsWith('rpc:'))).toEqual([]);
    expect(now.variant.outcomes.isError).toBeGreaterThan(50);
  });

  it.each(['root-transform', 'root-transform-shape'])('%s publishes a tool with no parameters', async (id) => {
    const { variant } = (await json(['--variant', id])).runs;
    expect(variant.publishedSchema).toEqual({ type: 'object', properties: {} });
  });

  it("root-transform-shape (the .shape idiom): the tool is called with McpServer's extra, so every request fails until the agent's turns run out", async () => {
    const { baseline, variant } = (await json(['--variant', 'root-transform-shape'])).runs;
    // Its baseline is root-transform's server: the same published schema, still validated.
    expect(baseline.variant).toBe('root-transform');
    expect(baseline.finalOutcomes.ok).toBeGreaterThan(50);
    expect(variant.finalOutcomes).toEqual({ 'max-turns': 100 });
    // extra has no `parts`: the executor's first use of it breaks.
    expect(variant.stderrSample.join('\n')).toMatch(/the tool threw TypeError: Cannot destructure property 'infinitive' of 'parts' as it is undefined/);
  });

  it('structural-anyof in Continue with Gemini (2025-02): every call refused by the API before anything runs', async () => {
    const { baseline, variant } = (await json(['--variant', 'structural-anyof', '--client', 'continue-gemini-2025-02'])).runs;
    expect(variant.outcomes).toEqual({ 'client-rejected': 100 });
    // The API of 2025-02 parses the anyOf (new-api#766) but not the additionalProperties Continue leaves in its branches.
    expect(variant.host.rejection).toMatch(/Unknown name "additionalProperties" at 'tools\[0\]\.function_declarations\[0\]\.parameters\.properties\[0\]\.value\.any_of\[0\]'/);
    expect(baseline.host.accepted).toBe(true);
  });

  it('structural-anyof in Goose (2025-02): no refusal; the union is shown to the model as a plain string', async () => {
    const { variant } = (await json(['--variant', 'structural-anyof', '--client', 'goose-google-2025-02'])).runs;
    expect(variant.host.accepted).toBe(true);
    expect(variant.host.seenSchema.properties.verb.type).toBe('string');
    expect(variant.finalOutcomes.ok ?? 0).toBeLessThan(50);
  });

  it('structural-anyof under langflow: few or no errors, but silently wrong answers', async () => {
    const { variant } = (await json(['--variant', 'structural-anyof', '--client', 'langflow'])).runs;
    expect(variant.silentWrong).toBeGreaterThan(0);
    expect(variant.finalOutcomes.ok).toBeGreaterThanOrEqual(95);
  });

  it('structural-anyof under faithful: no harm', async () => {
    const { baseline, variant } = (await json(['--variant', 'structural-anyof', '--client', 'faithful'])).runs;
    expect(variant.silentWrong).toBeLessThanOrEqual(2);
    expect(variant.finalOutcomes.ok).toBeGreaterThanOrEqual(baseline.finalOutcomes.ok);
  });

  it.each(['langflow', 'openai-strict'])(
    "the union labs' fix holds where a fix with optional fields did not (%s): every parameter required, none left out to arrive as null, none strict mode misses",
    async (client) => {
      for (const lab of ['structural-anyof', 'discriminated-union']) {
        const { baseline, solution } = (await json(['--variant', lab, '--client', client, '--solution'])).runs;
        expect(solution.host.accepted).toBe(true);
        expect(solution.publishedSchema.required).toEqual(['verb', 'tense', 'person', 'past', 'pastParticiple']);
        expect(solution.finalOutcomes.ok).toBeGreaterThanOrEqual(baseline.finalOutcomes.ok);
        expect(solution.stderrSample.join('\n')).not.toMatch(/invalid arguments: past/);
      }
    },
  );

  it.each([
    ['broken-schema', 'faithful', 'low-level'],
    ['broken-schema', 'openai-strict', 'low-level'],
    ['root-transform', 'continue-gemini-2025-02', 'mcpserver-1.32'],
    ['root-transform', 'openai-strict', 'mcpserver-1.32'],
    ['root-transform-shape', 'faithful', 'mcpserver-1.32'],
  ])("the solution of %s brings the figures back to the baseline's (%s, %s)", async (id, client, server) => {
    const { baseline, solution } = (await json(['--variant', id, '--client', client, '--server', server, '--solution'])).runs;
    const { publishedSchema: _a, host: _b, stderrSample: _c, ...want } = comparable(baseline);
    const { publishedSchema: _d, host: _e, stderrSample: _f, ...got } = comparable(solution);
    expect(got).toEqual(want);
  });

  it.each(['faithful', 'continue-gemini-2025-02', 'gemini-cli-2025-11'])('the solution of structural-anyof keeps the new capability without harm (%s)', async (client) => {
    const { baseline, solution } = (await json(['--variant', 'structural-anyof', '--client', client, '--solution'])).runs;
    expect(solution.host.accepted).toBe(true);
    expect(solution.silentWrong).toBe(0);
    expect(solution.finalOutcomes.ok).toBeGreaterThan(baseline.finalOutcomes.ok);
    expect(solution.accuracy.correct).toBeGreaterThan(baseline.accuracy.correct);
  });
});

describe('the model knows only what it is shown', () => {
  it('on the baseline, a host that does not read enums (Langflow) has visibly fewer first attempts ok than one that shows them', async () => {
    const faithful = (await json(['--variant', 'baseline', '--client', 'faithful'])).runs.baseline;
    const langflow = (await json(['--variant', 'baseline', '--client', 'langflow'])).runs.baseline;
    expect(langflow.host.seenSchema.properties.person.enum).toBeUndefined();
    expect(langflow.outcomes.ok ?? 0).toBeLessThan((faithful.outcomes.ok ?? 0) - 30);
  });

  it('temperature and seed move the baseline', async () => {
    const at = async (...extra: string[]) => comparable((await json(['--variant', 'baseline', ...extra])).runs.baseline) as { outcomes: unknown };
    const cold = await at('--temperature', '0');
    const hot = await at('--temperature', '2');
    expect(hot.outcomes).not.toEqual(cold.outcomes);
    expect((await at('--seed', '2')).outcomes).not.toEqual((await at('--seed', '3')).outcomes);
  });

  it('the runs say which model and agent wrote them, and which knobs are assumptions', async () => {
    const { baseline } = (await json(['--variant', 'baseline'])).runs;
    expect(baseline.model.kind).toBe('stand-in');
    expect(baseline.model.assumptions).toEqual(['dropUnstatedOptional', 'guessRate']);
    expect(baseline.agent.maxTurns).toBe(10);
    expect(baseline.agent.policy).toMatch(/OpenAI Agents SDK/);
  });
});

describe('what the later breaks must show', () => {
  it('discriminated-union: better messages than the plain anyOf; Continue refuses the oneOf, gemini-cli 0.1 drops it silently', async () => {
    const plain = (await json(['--variant', 'structural-anyof'])).runs.variant;
    const tagged = (await json(['--variant', 'discriminated-union'])).runs.variant;
    expect(tagged.publishedSchema.properties.verb.oneOf).toHaveLength(2);
    expect(tagged.errorProbe.named / tagged.errorProbe.total).toBeGreaterThan(plain.errorProbe.named / plain.errorProbe.total);
    const cont = (await json(['--variant', 'discriminated-union', '--client', 'continue-gemini-2025-02'])).runs;
    expect(cont.variant.outcomes).toEqual({ 'client-rejected': 100 });
    expect(cont.variant.host.rejection).toMatch(/Unknown name "oneOf"/);
    expect(cont.baseline.host.accepted).toBe(true);
    const cli = (await json(['--variant', 'discriminated-union', '--client', 'gemini-cli-2025-06'])).runs.variant;
    expect(cli.host.accepted).toBe(true);
    // @google/genai 1.4.0 keeps 20 keys: the oneOf goes, the description stays, and no type is left.
    expect(cli.host.seenSchema.properties.verb).toEqual({ description: tagged.publishedSchema.properties.verb.description });
  });

  it('schema-drift: profile edits succeed all the way and lose a field', async () => {
    const profile = (await json(['--variant', 'schema-drift', '--workload', 'profile'])).runs;
    expect(profile.baseline.fieldsCleared).toBe(0);
    expect(profile.variant.fieldsCleared).toBeGreaterThan(0);
    expect(profile.variant.finalOutcomes).toEqual({ ok: 100 });
    expect(profile.variant.publishedSchema.properties.reminder).toBeUndefined();
  });

  it('unreachable-filter: the lesson filter cannot be sent, so lists come back wrong with success', async () => {
    const lessons = (await json(['--variant', 'unreachable-filter', '--workload', 'lessons'])).runs;
    expect(lessons.variant.publishedSchema.properties.level).toBeUndefined();
    expect(lessons.variant.silentWrong).toBeGreaterThan(lessons.baseline.silentWrong + 20);
  });

  it('readonly-gate: with the server read-only, changes get through the lessons tool', async () => {
    const { baseline, variant } = (await json(['--variant', 'readonly-gate', '--workload', 'lessons', '--read-only'])).runs;
    expect(baseline.mutationsThroughReadOnly).toBe(0);
    expect(variant.mutationsThroughReadOnly).toBeGreaterThan(0);
    expect(variant.publishedSchema).toEqual({ type: 'object', properties: {} });
  });

  // OpenAI function calling refuses a request with a description over 1,024 characters (getsentry/sentry-mcp#106); the
  // break's description has 1,287 (counted by hand in breaks/long-description.patch); Claude Code 2.1.235 sends it as published.
  it('long-description: OpenAI function calling refuses every call over the description; Claude Code runs as on the baseline', async () => {
    const openai = (await json(['--variant', 'long-description', '--client', 'openai-functions-2026-11'])).runs;
    expect(openai.variant.finalOutcomes).toEqual({ 'client-rejected': openai.variant.calls });
    expect(openai.variant.host.rejection).toBe("400 Invalid 'tools[0].function.description': string too long. Expected a string with maximum length 1024, but got a string with length 1287 instead.");
    const claude = (await json(['--variant', 'long-description', '--client', 'claude-code-2026-08'])).runs;
    const { publishedSchema: _p, host: _h, variant: _v, ...variant } = comparable(claude.variant) as Record<string, unknown>;
    const { publishedSchema: _q, host: _i, variant: _w, ...baseline } = comparable(claude.baseline) as Record<string, unknown>;
    expect(variant).toEqual(baseline);
  });

  // Claude Code 1.0.63 names the tool mcp__tutor__ + its name: 12 + 56 = 68, over the API's 64 (anthropics/claude-code#2485);
  // lessons is the server's fourth tool (src/minimcp/tools/index.ts). OpenAI's function name takes 56 (at most 64).
  it('tool-name: Claude Code of July 2025 refuses every call to conjugate over the lessons tool\'s name; OpenAI function calling runs as on the baseline', async () => {
    const claude = (await json(['--variant', 'tool-name', '--client', 'claude-code-2025-07'])).runs;
    expect(claude.variant.finalOutcomes).toEqual({ 'client-rejected': claude.variant.calls });
    expect(claude.variant.host.rejection).toBe('400 invalid_request_error: tools.3.custom.name: String should have at most 64 characters');
    const openai = (await json(['--variant', 'tool-name', '--client', 'openai-functions-2026-11'])).runs;
    const { host: _h, variant: _v, ...variant } = comparable(openai.variant) as Record<string, unknown>;
    const { host: _i, variant: _w, ...baseline } = comparable(openai.baseline) as Record<string, unknown>;
    expect(variant).toEqual(baseline);
  });

  // VS Code of 2026-01 omits every tool whose schema declares 2020-12 (its validator cannot load the meta-schema), so the
  // model is offered none; gemini-cli 0.17's Ajv throws on its first compile of each such schema and caches it, so one
  // first attempt more than the baseline's is the host's own refusal (docs/sources.md, "Hosts"). Written from those rules.
  // 20 calls a run (the eval's 30 run besides): the rules hold call by call, and the suite's time is shared.
  const CALLS = 20;
  const few = ['--calls', String(CALLS)];
  it('schema-dialect: VS Code offers the model no tool; gemini-cli refuses one first attempt more; nothing else moves', async () => {
    const vscode = (await json(['--variant', 'schema-dialect', '--client', 'vscode-copilot-2026-01', ...few])).runs;
    expect(vscode.variant.publishedSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(vscode.baseline.finalOutcomes.ok).toBeGreaterThan(CALLS / 2);
    expect(vscode.variant.finalOutcomes).toEqual({ 'no-call': CALLS });
    expect(vscode.variant.accuracy.correct).toBe(0);
    const cli = (await json(['--variant', 'schema-dialect', '--client', 'gemini-cli-2025-11', ...few])).runs;
    expect((cli.variant.outcomes['client-invalid'] ?? 0) - (cli.baseline.outcomes['client-invalid'] ?? 0)).toBe(1);
    expect(cli.variant.accuracy).toEqual(cli.baseline.accuracy);
  });

  // The SDK's Client.callTool refuses a result without structuredContent from a tool that published an outputSchema
  // (-32600); McpServer 1.21+ refuses it itself as an isError result, 1.13 to 1.20 as -32602; the AI SDK's own client
  // never reads the published outputSchema (docs/sources.md, "Labs from the field's incidents"). Written from those rules.
  it('output-schema: the answer is refused where the outputSchema is read, and reaches the model where it is not', async () => {
    const sdk = (await json(['--variant', 'output-schema', '--server', 'low-level', ...few])).runs;
    expect(sdk.baseline.finalOutcomes.ok).toBeGreaterThan(CALLS / 2);
    expect(sdk.variant.finalOutcomes.ok ?? 0).toBe(0);
    expect(Object.keys(sdk.variant.outcomes).sort()).toEqual(['rpc:-32600', 'rpc:-32602']);
    expect(sdk.variant.outcomes['rpc:-32600']).toBe(sdk.baseline.outcomes.ok);
    const mcp = (await json(['--variant', 'output-schema', '--server', 'mcpserver-1.32', ...few])).runs.variant;
    expect(mcp.outcomes).toEqual({ isError: CALLS });
    const old = (await json(['--variant', 'output-schema', '--server', 'mcpserver-1.20', ...few])).runs.variant;
    expect(old.outcomes).toEqual({ 'rpc:-32602': CALLS });
    const ai = (await json(['--variant', 'output-schema', '--server', 'low-level', '--client', 'ai-sdk-google-2026-11', ...few])).runs;
    expect(ai.variant.finalOutcomes).toEqual(ai.baseline.finalOutcomes);
    expect(ai.variant.accuracy).toEqual(ai.baseline.accuracy);
  });

  it.each([
    ['output-schema', ['--server', 'low-level', '--calls', '20']],
    ['schema-dialect', ['--client', 'vscode-copilot-2026-01', '--calls', '20']],
    ['schema-drift', ['--workload', 'profile']],
    ['unreachable-filter', ['--workload', 'lessons']],
    ['readonly-gate', ['--workload', 'lessons', '--read-only']],
  ])("the solution of %s brings the figures back to the baseline's (%j)", async (id, extra) => {
    const { baseline, solution } = (await json(['--variant', id, ...extra, '--solution'])).runs;
    const { host: _b, stderrSample: _c, ...want } = comparable(baseline);
    const { host: _e, stderrSample: _f, ...got } = comparable(solution);
    expect(got).toEqual(want);
  });
});

describe('a server that misbehaves cannot hang the runner', () => {
  const fixture = fileURLToPath(new URL('./fixtures/misbehaving-server.mjs', import.meta.url));
  // This file's servers are told apart from other files' (which may run at the same time) by an argument the fixture ignores.
  const OWNER = 'lab-test';
  const settings = { client: getProfile('faithful')!, server: 'mcpserver-1.32' as const, seed: 1, calls: 10, knobs: { ...DEFAULT_KNOBS, callTimeoutMs: 300 } };
  const leftovers = () => {
    try {
      return execFileSync('pgrep', ['-f', `${fixture} [a-z-]+ ${OWNER}`], { encoding: 'utf8' }).trim();
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
    const result = await run(mode, [fixture, mode, OWNER], settings);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result.outcomes).toEqual({ [label]: 10 });
    expect(result.serverNotes.join('\n')).toMatch(/gave up on the server/);
    if (mode === 'garbage') expect(result.serverNotes.join('\n')).toMatch(/not JSON-RPC/);
    expect(leftovers()).toBe('');
  });

  it('dead at start: every call ends as server-exit, not as a host refusal', async () => {
    const result = await run('dead', [fixture, 'dead', OWNER], settings);
    expect(result.outcomes).toEqual({ 'server-exit': 10 });
    expect(result.publishedSchema).toBeNull();
    expect(result.serverNotes.join('\n')).toMatch(/did not answer tools\/list.*cannot start/s);
    expect(leftovers()).toBe('');
  });
});
