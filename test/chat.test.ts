/**
 * A real model in the loop (src/lab/chat/): the lab's runs driven by an
 * OpenAI-compatible endpoint over real HTTP. The endpoint here is scripted
 * (test/helpers/chat-endpoint.ts), so every expected value comes from what the
 * script answered, not from the kit: the kit must count what happened.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INSTRUCTIONS, INVALID_JSON_PREFIX } from '../src/lab/chat/agent.js';
import { EndpointUnusable } from '../src/lab/chat/endpoint.js';
import { prepareChat, type ChatSetup } from '../src/lab/chat/setup.js';
import { DEFAULT_KNOBS } from '../src/lab/knobs.js';
import { getProfile } from '../src/lab/profiles/index.js';
import { toJson, type LabReport } from '../src/lab/report.js';
import type { RunResult, RunSettings } from '../src/lab/runner.js';
import { runLab } from '../src/lab/side-by-side.js';
import { startEndpoint, tutorArguments, tutorScript, type ChatBody, type Reply, type Script } from './helpers/chat-endpoint.js';
import { REPO } from './helpers/server.js';

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'chat-test-'));
  dirs.push(d);
  return d;
};

const EVAL = (JSON.parse(readFileSync(join(REPO, 'src', 'lab', 'requests', 'conjugate.json'), 'utf8')) as { evaluation: { prompt: string }[] }).evaluation.map((e) => e.prompt);

function settings(calls: number, client = 'faithful', server: RunSettings['server'] = 'mcpserver-1.32'): RunSettings {
  return { client: getProfile(client)!, server, seed: 1, calls, knobs: DEFAULT_KNOBS };
}

function setup(baseUrl: string, extra: Partial<ChatSetup> = {}): ChatSetup {
  return { baseUrl, modelName: 'scripted', concurrency: 2, timeoutMs: 10_000, backoffMs: 5, ...extra };
}

const userPrompt = (b: ChatBody) => b.messages.find((m) => m.role === 'user')!.content!;
const opening = (b: ChatBody) => b.messages.at(-1)!.role === 'user';

/**
 * Everything two runs with the same answers must share: not the latencies, nor the order of the server's stderr
 * lines (two requests in flight at once write them in the order they happen to run).
 */
function figuresOf(run: RunResult) {
  const { latencyMs: _l, records: _r, stderrSample: _s, model, ...rest } = run;
  return { ...rest, model: { ...model, baseUrl: undefined } };
}

describe('a lab against a scripted endpoint over HTTP', () => {
  it('runs end to end with the same report shape; what the model was shown and what it answered add up', async () => {
    const endpoint = await startEndpoint(tutorScript(REPO));
    try {
      const report = await runLab({ variant: 'broken-schema', settings: settings(6), solution: false, json: true, chat: setup(endpoint.baseUrl) });
      expect(report.format).toBe('schema-breaks/lab-report');
      for (const run of [report.runs.baseline, report.runs.variant!]) {
        expect(run.model).toMatchObject({ kind: 'openai', name: 'scripted', baseUrl: endpoint.baseUrl, instructions: INSTRUCTIONS });
        expect(Object.values(run.finalOutcomes).reduce((a, b) => a + b, 0)).toBe(6);
        expect(run.accuracy.total).toBe(30);
      }
      // What the model saw: the instructions, the request's words, and the tools as the host shows them.
      const first = endpoint.bodies[0]!;
      expect(first.messages[0]).toEqual({ role: 'system', content: INSTRUCTIONS });
      expect(first.tools!.map((t) => t.function.name)).toEqual(expect.arrayContaining(['conjugate']));
      // (the baseline and the variant run side by side: each run's model got the schema its host showed)
      const shown = new Set(endpoint.bodies.map((b) => JSON.stringify(b.tools!.find((t) => t.function.name === 'conjugate')!.function.parameters)));
      for (const run of [report.runs.baseline, report.runs.variant!]) expect(shown.has(JSON.stringify(run.host.accepted ? run.host.seenSchema : null)), run.variant).toBe(true);
      expect(shown.size).toBe(2);
      // Each conversation the script opened with a question (no call) is a no-call; the eval's and the workload's apart,
      // each run's by the schema its model was shown.
      const shownConjugate = (b: ChatBody) => JSON.stringify(b.tools!.find((t) => t.function.name === 'conjugate')!.function.parameters);
      for (const run of [report.runs.baseline, report.runs.variant!]) {
        const seen = JSON.stringify(run.host.accepted ? run.host.seenSchema : null);
        const asked = endpoint.bodies.filter((b, i) => opening(b) && endpoint.replies[i] === 'text' && !EVAL.includes(userPrompt(b)) && shownConjugate(b) === seen);
        expect(run.finalOutcomes['no-call'] ?? 0, run.variant).toBe(asked.length);
      }
      // The stand-in ran next to it, over its seeds.
      expect(report.standIn?.seeds).toEqual([1, 2, 3, 4, 5]);
      expect(report.standIn?.baseline.ok).toBeDefined();
      expect(endpoint.maxInFlight).toBeLessThanOrEqual(2);
    } finally {
      await endpoint.close();
    }
  });

  it('arguments that are not JSON go back to the model in the SDK\'s words, nothing is sent, and the next call counts', async () => {
    const base = tutorScript(REPO);
    const seen = new Set<string>();
    const script: Script = (body, n) => {
      const prompt = userPrompt(body);
      if (opening(body) && tutorArguments(REPO, prompt) && !seen.has(prompt)) {
        seen.add(prompt);
        return { kind: 'tool-calls', calls: [{ name: 'conjugate', arguments: '{"verb": "eat",' }] };
      }
      const last = body.messages.at(-1)!;
      if (last.role === 'tool' && last.content!.startsWith(INVALID_JSON_PREFIX)) return { kind: 'tool-calls', calls: [{ name: 'conjugate', arguments: JSON.stringify(tutorArguments(REPO, prompt)) }] };
      return base(body, n);
    };
    const endpoint = await startEndpoint(script);
    try {
      const report = await runLab({ variant: 'baseline', settings: settings(3), solution: false, json: true, chat: setup(endpoint.baseUrl) });
      const run = report.runs.baseline;
      const invalid = run.records!.workload.flatMap((r) => r.attempts).filter((a) => a.label === 'client-invalid');
      expect(invalid.length).toBeGreaterThan(0);
      for (const a of invalid) expect(a.text.startsWith(INVALID_JSON_PREFIX)).toBe(true);
      // The tool message the model got next carries those words, and the retry is the agent's.
      expect(endpoint.bodies.some((b) => b.messages.some((m) => m.role === 'tool' && m.content!.startsWith(INVALID_JSON_PREFIX)))).toBe(true);
      expect(run.retries.total).toBeGreaterThanOrEqual(invalid.length);
      expect(run.model).toMatchObject({ httpRetries: 0 });
    } finally {
      await endpoint.close();
    }
  });

  it('a call to a tool the host did not show ends the request model-error; an answer with no call is no-call', async () => {
    const script: Script = (body) => {
      const prompt = userPrompt(body);
      if (/swim/.test(prompt)) return { kind: 'tool-calls', calls: [{ name: 'translate', arguments: '{}' }] };
      return { kind: 'text', content: 'I would rather not call anything.' };
    };
    const endpoint = await startEndpoint(script);
    try {
      const run = (await runLab({ variant: 'baseline', settings: settings(20), solution: false, json: true, chat: setup(endpoint.baseUrl) })).runs.baseline;
      const swims = run.records!.workload.filter((r) => /swim/.test((r.request as { prompt: string }).prompt));
      for (const r of swims) expect(r.final).toBe('model-error');
      for (const r of run.records!.workload.filter((x) => !swims.includes(x))) expect(r.final).toBe('no-call');
      expect(run.finalOutcomes['no-call']).toBe(20 - swims.length);
    } finally {
      await endpoint.close();
    }
  });

  it('429 and 500 are retried with backoff and counted apart from the agent\'s retries; a request past its timeout or its retries is model-error', async () => {
    const base = tutorScript(REPO);
    const script: Script = (body, n): Reply => {
      if (n === 0) return { kind: 'status', status: 429, body: '{"error":{"message":"slow down"}}', headers: { 'retry-after': '0' } };
      if (n === 1 || n === 2) return { kind: 'status', status: 500, body: 'oops' };
      if (EVAL.includes(userPrompt(body)) && EVAL.indexOf(userPrompt(body)) === 0) return { kind: 'status', status: 503, body: '{"error":"overloaded"}' };
      if (EVAL.indexOf(userPrompt(body)) === 1) return { kind: 'slow', ms: 1500, then: base(body, n) };
      return base(body, n);
    };
    const endpoint = await startEndpoint(script);
    try {
      const run = (await runLab({ variant: 'baseline', settings: settings(2), solution: false, json: true, chat: setup(endpoint.baseUrl, { concurrency: 1, timeoutMs: 1000, maxRetries: 3 }) })).runs.baseline;
      const model = run.model as Extract<RunResult['model'], { kind: 'openai' }>;
      // Three retried answers on the first request, and three more on the eval's first (503 until the retries ran out).
      expect(model.httpRetries).toBe(6);
      const evalErrors = run.records!.eval.filter((r) => r.final === 'model-error');
      expect(evalErrors.map((r) => (r.request as { prompt: string }).prompt).sort()).toEqual([EVAL[0], EVAL[1]].sort());
      expect(evalErrors.find((r) => (r.request as { prompt: string }).prompt === EVAL[1])!.attempts[0]!.text).toMatch(/no answer within 1 s/);
      expect(evalErrors.find((r) => (r.request as { prompt: string }).prompt === EVAL[0])!.attempts[0]!.text).toMatch(/HTTP 503.*overloaded/);
      // The endpoint's retries are not the agent's: the first request retried nothing as far as the agent is concerned.
      expect(run.records!.workload[0]!.attempts.length).toBeLessThanOrEqual(1);
    } finally {
      await endpoint.close();
    }
  });
});

describe('transcripts', () => {
  it('a recorded run replays to the same figures with no network, and no key is in any file', async () => {
    const key = 'sk-test-THIS-KEY-MUST-NOT-BE-WRITTEN-0123456789';
    const endpoint = await startEndpoint(tutorScript(REPO));
    const dir = scratch();
    let recorded: LabReport;
    try {
      recorded = await runLab({ variant: 'broken-schema', settings: settings(5), solution: true, json: true, chat: setup(endpoint.baseUrl, { apiKey: key, record: dir }) });
      expect(new Set(endpoint.authorizations)).toEqual(new Set([`Bearer ${key}`]));
    } finally {
      await endpoint.close();
    }
    const files = readdirSync(dir);
    expect(files.length).toBe(3);
    for (const f of files) expect(readFileSync(join(dir, f), 'utf8')).not.toContain(key);
    expect(toJson(recorded)).not.toContain(key);
    // The endpoint is gone: the replay cannot use the network.
    const replayed = await runLab({ variant: 'broken-schema', settings: settings(5), solution: true, json: true, chat: { replay: dir, concurrency: 2, timeoutMs: 1000 } });
    for (const role of ['baseline', 'variant', 'solution'] as const) {
      expect(figuresOf(replayed.runs[role]!), role).toEqual(figuresOf(recorded.runs[role]!));
    }
  });

  it('a replay of another run says which transcript it lacks', async () => {
    const dir = scratch();
    await expect(runLab({ variant: 'broken-schema', settings: settings(5), solution: false, json: true, chat: { replay: dir, concurrency: 2, timeoutMs: 1000 } })).rejects.toThrow(/no transcript for this run/);
  });
});

describe('an endpoint that cannot be used', () => {
  it('nothing listening: fails in well under 5 s, naming the URL and why', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const started = Date.now();
    await expect(prepareChat(setup(url))).rejects.toThrow(EndpointUnusable);
    await expect(prepareChat(setup(url))).rejects.toThrow(new RegExp(`cannot reach the model endpoint at ${url.replace(/[.]/g, '\\.')}: ECONNREFUSED`));
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a server without tool support says so', async () => {
    const endpoint = await startEndpoint(() => ({ kind: 'status', status: 400, body: '{"error":{"message":"registry.ollama.ai/library/gemma:2b does not support tools"}}' }));
    try {
      await expect(runLab({ variant: 'baseline', settings: settings(1), solution: false, json: true, chat: setup(endpoint.baseUrl) })).rejects.toThrow(/takes no tools with model scripted: .*does not support tools/);
    } finally {
      await endpoint.close();
    }
  });

  it("llama.cpp's server without --jinja (a 500) is not retried: it says so at once", async () => {
    const endpoint = await startEndpoint(() => ({ kind: 'status', status: 500, body: '{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}' }));
    try {
      await expect(runLab({ variant: 'baseline', settings: settings(1), solution: false, json: true, chat: setup(endpoint.baseUrl) })).rejects.toThrow(/takes no tools.*requires --jinja/);
      expect(endpoint.bodies.length).toBeLessThanOrEqual(2);
    } finally {
      await endpoint.close();
    }
  });

  it.each([
    [404, '{"error":{"message":"model \\"scripted\\" not found, try pulling it first"}}', /no chat completions for model scripted at .*\/v1\/chat\/completions \(HTTP 404: model "scripted" not found.*check --base-url/],
    [404, '404 page not found', /HTTP 404: 404 page not found\); check --base-url \(it usually ends in \/v1\)/],
    [401, '{"error":{"message":"Incorrect API key provided: sk-test-secret"}}', /refused the request \(HTTP 401: Incorrect API key provided: \[key\]\); check the key/],
  ])('an endpoint answering %i to every completion stops the run at the first, one line that never holds the key', async (status, body, message) => {
    const endpoint = await startEndpoint(() => ({ kind: 'status', status, body }));
    try {
      const run = runLab({ variant: 'baseline', settings: settings(5), solution: false, json: true, chat: { ...setup(endpoint.baseUrl), apiKey: 'sk-test-secret' } });
      await expect(run).rejects.toThrow(EndpointUnusable);
      await expect(run).rejects.toThrow(message);
      await expect(run).rejects.not.toThrow(/sk-test-secret/);
      // Stopped at once: one request per slot at most, none retried.
      expect(endpoint.bodies.length).toBeLessThanOrEqual(2);
    } finally {
      await endpoint.close();
    }
  });

  it('a replay from a folder that is not there says so before any server starts', async () => {
    await expect(prepareChat({ replay: '/nonexistent/transcripts', concurrency: 2, timeoutMs: 1000 })).rejects.toThrow('--replay: no such folder /nonexistent/transcripts (make one with --record)');
  });

  it('a key in the URL is refused before anything is sent', async () => {
    await expect(prepareChat(setup('http://user:secret@127.0.0.1:9/v1'))).rejects.toThrow(/must not carry a user or password/);
  });
});

describe('Ctrl+C', () => {
  it('stops starting requests and keeps what was measured, marked as stopped', async () => {
    const controller = new AbortController();
    const base = tutorScript(REPO);
    const script: Script = (body, n) => {
      if (n === 3) controller.abort();
      return base(body, n);
    };
    const endpoint = await startEndpoint(script);
    try {
      const s = { ...settings(50), signal: controller.signal };
      const run = (await runLab({ variant: 'baseline', settings: s, solution: false, json: true, chat: setup(endpoint.baseUrl, { concurrency: 1 }) })).runs.baseline;
      expect(run.interrupted).toBe(true);
      expect(run.calls).toBeLessThan(50);
      expect(Object.values(run.finalOutcomes).reduce((a, b) => a + b, 0)).toBe(run.calls);
    } finally {
      await endpoint.close();
    }
  });
});

it('the transcripts folder holds one JSON-lines file per run, each starting with its format line', () => {
  // (checked on the recording made above: every file there starts with the format header)
  for (const d of dirs.filter((x) => existsSync(x))) {
    for (const f of readdirSync(d)) expect(JSON.parse(readFileSync(join(d, f), 'utf8').split('\n')[0]!)).toMatchObject({ format: 'schema-breaks/model-transcript', version: 1 });
  }
});

/** `npm run lab` as a learner starts it, asynchronously (the scripted endpoint lives in this process). */
function lab(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/launch.mjs', 'scripts/lab.ts', ...args], { cwd: REPO, env: { ...process.env, NO_COLOR: '1', LANG: 'en_GB.UTF-8', LC_ALL: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (status) => resolve({ status, stdout, stderr, ms: Date.now() - started }));
  });
}

describe('npm run lab -- --model openai', () => {
  it('prints the same JSON report, the comparison with the stand-in on the terminal, and never the key', async () => {
    const key = 'sk-cli-SECRET-0123456789abcdef';
    const endpoint = await startEndpoint(tutorScript(REPO));
    const dir = scratch();
    try {
      const common = ['--variant', 'broken-schema', '--model', 'openai', '--base-url', endpoint.baseUrl, '--model-name', 'scripted', '--calls', '5', '--api-key-env', 'TUTOR_KEY'];
      const json = await lab([...common, '--json', '--record', join(dir, 'rec'), '--html', join(dir, 'page.html')], { TUTOR_KEY: key });
      expect(json.status, json.stderr).toBe(0);
      const report = JSON.parse(json.stdout) as LabReport;
      expect(report.runs.variant!.model).toMatchObject({ kind: 'openai', name: 'scripted' });
      expect(report.standIn?.seeds.length).toBe(5);
      const text = await lab(common, { TUTOR_KEY: key });
      expect(text.status, text.stderr).toBe(0);
      expect(text.stdout).toMatch(/The real model next to the stand-in/);
      expect(text.stdout.split('\n')[0]).toMatch(/^A real model's run: the lab's questions are about the stand-in's runs/);
      expect(text.stdout).toMatch(/model: scripted at http:\/\/127\.0\.0\.1:\d+\/v1/);
      // The page has the same comparison, a table per run.
      const page = readFileSync(join(dir, 'page.html'), 'utf8');
      expect(page).toMatch(/The real model next to the stand-in/);
      expect(page.match(/<section class="stand-in"/g)).toHaveLength(1);
      for (const out of [json.stdout, json.stderr, text.stdout, text.stderr, readFileSync(join(dir, 'page.html'), 'utf8'), ...readdirSync(join(dir, 'rec')).map((f) => readFileSync(join(dir, 'rec', f), 'utf8'))]) {
        expect(out).not.toContain(key);
      }
      // The class report finds the saved report in a class folder and shows it beside the stand-in's figures.
      mkdirSync(join(dir, 'class', 'laptop-1'), { recursive: true });
      writeFileSync(join(dir, 'class', 'laptop-1', 'real-model.json'), json.stdout);
      writeFileSync(join(dir, 'class', 'laptop-1', 'other.json'), '{"not": "a lab report"}');
      const cls = spawnSync(process.execPath, ['scripts/launch.mjs', 'scripts/class.ts', 'report', join(dir, 'class'), '--json', '--out', join(dir, 'class.html')], { cwd: REPO, encoding: 'utf8' });
      expect(cls.status, cls.stderr).toBe(0);
      const classReport = JSON.parse(cls.stdout) as { modelRuns: { path: string; model: string; rows: { figure: string; real: number }[] }[] };
      expect(classReport.modelRuns.map((m) => [m.path, m.model])).toEqual([['laptop-1/real-model.json', 'scripted']]);
      expect(classReport.modelRuns[0]!.rows.find((r) => r.figure === 'ok' && r)!.real).toBe(report.runs.baseline.finalOutcomes.ok ?? 0);
      expect(readFileSync(join(dir, 'class.html'), 'utf8')).toMatch(/Real models/);
      // And it replays from the recording with no endpoint at all.
      await endpoint.close();
      const replay = await lab(['--variant', 'broken-schema', '--replay', join(dir, 'rec'), '--calls', '5', '--json']);
      expect(replay.status, replay.stderr).toBe(0);
      const replayed = JSON.parse(replay.stdout) as LabReport;
      for (const role of ['baseline', 'variant'] as const) expect(figuresOf(replayed.runs[role]!)).toEqual(figuresOf(report.runs[role]!));
    } finally {
      await endpoint.close().catch(() => {});
    }
  });

  it('an unreachable URL is one line naming it, exit 2, in under 5 s', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const result = await lab(['--variant', 'broken-schema', '--model', 'openai', '--base-url', url, '--model-name', 'm']);
    expect(result.status).toBe(2);
    expect(result.ms).toBeLessThan(5000);
    expect(result.stderr.trim().split('\n')[0]).toBe(`lab: cannot reach the model endpoint at ${url}: ECONNREFUSED`);
    // Nothing on stdout before it: the endpoint is checked before the run's first line is printed.
    expect(result.stdout).toBe('');
  });

  it('refuses half a setup with one line and exit 2', async () => {
    for (const [args, message] of [
      [['--model', 'openai', '--base-url', 'http://127.0.0.1:1/v1'], /needs --model-name/],
      [['--model', 'gpt'], /unknown --model "gpt"; one of: stand-in, openai/],
      [['--record', 'x'], /--record is for a real model: add --model openai/],
      [['--model', 'openai', '--replay', 'a', '--record', 'b'], /exclude each other/],
      [['--model', 'openai', '--base-url', 'http://127.0.0.1:1/v1', '--model-name', 'm', '--api-key-env', 'NO_SUCH_VARIABLE_HERE'], /NO_SUCH_VARIABLE_HERE is not set/],
    ] as const) {
      const result = await lab(['--variant', 'broken-schema', ...args]);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr.split('\n')[0], args.join(' ')).toMatch(message);
    }
  });
});
