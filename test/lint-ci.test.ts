/**
 * The linter as a server author keeps it in CI, through the real thing: the
 * GitHub Actions step docs/linting.md gives, run as written, in a folder of its own (SARIF
 * validated against the SARIF 2.1.0 schema, every result located in that
 * folder, host verdicts included); a baseline that accepts today and fails on
 * what is new; config entries that cannot be started; a server that dies at
 * start; a Streamable HTTP server on 127.0.0.1 next to its stdio twin.
 * Expected values are hand-derived: the levels from SARIF 2.1.0 §3.27.10 as
 * docs/linting.md states them, the new finding from breaks/structural-anyof.patch
 * (verb becomes an anyOf of two objects), the error line from node's own.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LintConfigReport, LintReport } from '../src/lint/types.js';
import { lint, REAL_SERVERS, recorded, sarifValidator } from './helpers/lint.js';
import { REPO } from './helpers/server.js';

const FIXTURES = join(REPO, 'test/fixtures/lint');
const scratch = mkdtempSync(join(tmpdir(), 'schema-breaks-lint-ci-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Result = {
  ruleId: string;
  level: string;
  message: { text: string };
  locations: { physicalLocation?: { artifactLocation: { uri: string; uriBaseId?: string }; region?: { startLine: number } }; logicalLocations: { fullyQualifiedName: string }[] }[];
  partialFingerprints: Record<string, string>;
  properties: { tool?: string; host?: string; verdict?: string };
};

/** An author's repository: package.json, and the fixture server built as dist/index.js, listing `tools`. */
function project(name: string, tools: unknown[]): string {
  const dir = join(scratch, name);
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, type: 'module', private: true }));
  copyFileSync(join(FIXTURES, 'listed-server.mjs'), join(dir, 'dist/index.js'));
  writeFileSync(join(dir, 'dist/tools.json'), JSON.stringify({ tools }));
  return dir;
}

/** The lint step's command, as docs/linting.md's workflow writes it. */
function workflowCommand(): string {
  const page = readFileSync(join(REPO, 'docs', 'linting.md'), 'utf8');
  const step = /- name: Lint the MCP server\n\s+run: (.+)\n/.exec(page);
  if (!step) throw new Error('docs/linting.md has no "Lint the MCP server" step');
  return step[1]!;
}

/** A shell in `cwd`, as a CI runner has it: no INIT_CWD of ours. */
function shell(command: string, cwd: string): { status: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.INIT_CWD;
  const r = spawnSync('sh', ['-c', command], { cwd, encoding: 'utf8', env, timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("docs/linting.md's GitHub Actions step, run as written", () => {
  // The pet clinic's tools: findings (unions, a root oneOf) and hosts that refuse, drop and lose.
  const repo = project('author-repo', recorded('openapi-pet-clinic'));
  let log: { runs: { results: Result[]; originalUriBaseIds: Record<string, { uri: string }> }[] };
  let report: LintReport;
  let stderr = '';

  beforeAll(() => {
    // actions/checkout of the kit into .schema-breaks, then npm ci there: here, the kit itself.
    symlinkSync(REPO, join(repo, '.schema-breaks'));
    const command = workflowCommand();
    expect(command).toBe('npm run --prefix .schema-breaks lint -- --sarif mcp-lint.sarif -- node dist/index.js');
    const r = shell(command, repo);
    // The clinic's unions are errors: the step fails, as CI should; upload-sarif still runs (if: !cancelled()).
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toContain('wrote mcp-lint.sarif');
    stderr = r.stderr;
    log = JSON.parse(readFileSync(join(repo, 'mcp-lint.sarif'), 'utf8'));
    report = JSON.parse(shell(`${command.replace('--sarif mcp-lint.sarif ', '--json ')}`, repo).stdout.replace(/^[^{]*/, '')) as LintReport;
  }, 240_000);

  it('writes SARIF that the SARIF 2.1.0 schema accepts, and the schema can refuse', () => {
    const validate = sarifValidator();
    const { ok, errors } = validate(log);
    expect(ok, errors).toBe(true);
    expect(validate({ ...log, runs: [{ ...log.runs[0], results: [{ level: 'fatal' }] }] }).ok).toBe(false);
  });

  it('locates every result in the folder the command was started in: the server\'s own file, by a path relative to it', () => {
    const run = log.runs[0]!;
    expect(run.originalUriBaseIds['%SRCROOT%']!.uri).toBe(`file://${repo}/`);
    expect(run.results.length).toBeGreaterThan(0);
    for (const r of run.results) {
      expect(r.locations[0]!.physicalLocation?.artifactLocation, r.message.text).toEqual({ uri: 'dist/index.js', uriBaseId: '%SRCROOT%' });
      expect(existsSync(join(repo, r.locations[0]!.physicalLocation!.artifactLocation.uri))).toBe(true);
      expect(Object.values(r.partialFingerprints)[0]).toMatch(/^[0-9a-f]{32}$/);
    }
    // The folder is no git checkout and the built file names no tool: no result has a line, and one line says why.
    expect(stderr.split('\n').filter((l) => l.startsWith('SARIF: '))).toEqual([
      expect.stringMatching(new RegExp(`^SARIF: ${run.results.length} of ${run.results.length} results have no line: no git repository holds ${repo}, so no tracked file was searched`)),
    ]);
  });

  it('has a result of its host\'s rule for every refused or dropped verdict on a targeted host, at level error; none for a lossy one', () => {
    // Issue 33: the results are what the gate counts; SARIF 2.1.0 §3.27.10: "error", a serious problem (the model sees none of the tool).
    const results = log.runs[0]!.results.filter((r) => r.ruleId.startsWith('host/'));
    const verdicts = [
      ...Object.entries(report.server.hosts).map(([host, v]) => ({ tool: undefined, host, verdict: v.verdict })),
      ...report.tools.flatMap((t) => Object.entries(t.hosts).map(([host, v]) => ({ tool: t.name, host, verdict: v.verdict }))),
    ];
    // The clinic is lost on by some host: the case the rule leaves out.
    expect(verdicts.some((v) => v.verdict === 'lossy')).toBe(true);
    const expected = verdicts.filter((v) => (v.verdict === 'refused' || v.verdict === 'dropped') && report.server.targets!.includes(v.host));
    expect(results.map((r) => ({ tool: r.properties.tool, host: r.ruleId.slice('host/'.length), verdict: r.properties.verdict }))).toEqual(expected);
    for (const r of results) expect(r.level).toBe('error');
    // Hand-derived: crt-pet's root is a oneOf with no "type": "object"; Claude Code 2.1.235's MCP client parses the list
    // with the MCP SDK's Tool shape and drops every tool of the server for it (anthropics/claude-code#88049), one of today's hosts.
    expect(results.find((r) => r.properties.tool === 'crt-pet' && r.ruleId === 'host/claude-code-2026-08')?.level).toBe('error');
    // Without --fail-on-host the verdicts are still there (the exit code follows findings alone).
    expect(results.length).toBeGreaterThan(10);
  });
});

describe('SARIF from a saved list', () => {
  it('points each result at the line of the list that names its tool, relative to the folder typed in', async () => {
    const dir = join(scratch, 'saved');
    mkdirSync(dir);
    // Line 1 "{", line 2 "tools", line 3 the first tool, line 4 the second: written by hand.
    writeFileSync(
      join(dir, 'list.json'),
      [
        '{',
        '  "tools": [',
        '    { "name": "plain", "inputSchema": { "type": "object", "properties": { "q": { "type": "string" } } } },',
        '    { "name": "pick", "inputSchema": { "type": "object", "properties": { "by": { "anyOf": [{ "type": "object", "properties": { "a": { "type": "string" } } }, { "type": "object", "properties": { "b": { "type": "string" } } }] } } } }',
        '  ]',
        '}',
      ].join('\n'),
    );
    vi.stubEnv('INIT_CWD', dir);
    try {
      // A union of two objects is refused by no host of today (the default --hosts): a warning, so exit 0.
      expect((await lint(['--from', 'list.json', '--sarif', 'out.sarif'])).code).toBe(0);
    } finally {
      vi.unstubAllEnvs();
    }
    const results = JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8')).runs[0].results as Result[];
    const union = results.find((r) => r.ruleId === 'no-structural-union')!;
    expect(union.locations[0]!.physicalLocation).toEqual({ artifactLocation: { uri: 'list.json', uriBaseId: '%SRCROOT%' }, region: { startLine: 4 } });
    for (const r of results.filter((x) => x.properties.tool === 'plain')) expect(r.locations[0]!.physicalLocation!.region).toEqual({ startLine: 3 });
  });
});

describe('variables in a config\'s url and headers', () => {
  it('${VAR}, ${VAR:-default} (Claude Code) and ${env:VAR} (VS Code, Cursor) from the environment; a host-only one is refused', async () => {
    const { expandVariables } = await import('../src/lint/targets.js');
    vi.stubEnv('KIT_TOKEN', 't0k');
    try {
      expect(expandVariables('Bearer ${KIT_TOKEN}', 'h')).toBe('Bearer t0k');
      expect(expandVariables('Bearer ${env:KIT_TOKEN}', 'h')).toBe('Bearer t0k');
      expect(expandVariables('${KIT_UNSET_X:-http://127.0.0.1:1}/mcp', 'u')).toBe('http://127.0.0.1:1/mcp');
      expect(() => expandVariables('Bearer ${input:api-token}', 'h')).toThrow('h uses ${input:api-token}, which only the host can fill in');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('a baseline', () => {
  const baseline = join(scratch, 'baseline.json');

  it('written on the kit\'s baseline server makes the same run exit 0; the structural-anyof break exits 1 naming only its new union', () => {
    // npm run lint, typed in the scratch folder (--variant needs the clone's scripts/lint.ts).
    const run = (args: string[]) => {
      const r = spawnSync(process.execPath, ['scripts/launch.mjs', 'scripts/lint.ts', ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', INIT_CWD: scratch }, timeout: 120_000 });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const written = run(['--variant', 'baseline', '--fail-on-host', 'refused', '--write-baseline', 'baseline.json']);
    expect(written.stdout).toContain('wrote baseline.json');
    const document = JSON.parse(readFileSync(baseline, 'utf8'));
    // Keyed stably: no message text, no line.
    for (const entry of [...document.findings, ...document.hosts]) expect(Object.keys(entry).sort()).toEqual(Object.keys(entry).includes('rule') ? ['path', 'rule', 'server', 'tool'] : ['host', 'server', 'tool', 'verdict']);
    const same = run(['--variant', 'baseline', '--fail-on-host', 'refused', '--baseline', 'baseline.json']);
    expect(same.code, same.stdout).toBe(0);
    const anyOf = run(['--variant', 'structural-anyof', '--baseline', 'baseline.json']);
    expect(anyOf.code).toBe(1);
    const news = anyOf.stdout.split('\n').filter((l) => l.trimStart().startsWith('new: '));
    // breaks/structural-anyof.patch: conjugate's verb becomes an anyOf of two objects (a name, or the principal parts).
    expect(news).toHaveLength(1);
    expect(news[0]).toMatch(/^ {2}new: minimcp\/conjugate no-structural-union at \/inputSchema\/properties\/verb\/anyOf: /);
    expect(anyOf.stdout).toContain('baseline baseline.json: 0 findings and 0 host verdicts accepted; 1 new');
  }, 120_000);

  it('the run that writes it accepts what it writes: structural-anyof, an error without it, exits 0 with --write-baseline (issue 33)', () => {
    const run = (args: string[]) => spawnSync(process.execPath, ['scripts/launch.mjs', 'scripts/lint.ts', ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', INIT_CWD: scratch }, timeout: 120_000 });
    expect(run(['--variant', 'structural-anyof']).status).toBe(1);
    const written = run(['--variant', 'structural-anyof', '--write-baseline', 'anyof-baseline.json']);
    expect(written.status, written.stdout).toBe(0);
    expect(written.stdout).toContain('wrote anyof-baseline.json');
    expect(run(['--variant', 'structural-anyof', '--baseline', 'anyof-baseline.json']).status).toBe(0);
  }, 120_000);

  it('on a saved list with one extra union: only that tool is new, the rest accepted, and the same list again passes', async () => {
    // The same file name, as a list saved again in place is (--from names the server by its file).
    mkdirSync(join(scratch, 'before'));
    mkdirSync(join(scratch, 'after'));
    const before = join(scratch, 'before', 'tools.json');
    const after = join(scratch, 'after', 'tools.json');
    const file = join(scratch, 'list-baseline.json');
    writeFileSync(before, JSON.stringify({ tools: recorded('openapi-pet-clinic') }));
    // A required union of two objects: Mastra (one of today's hosts, the default --hosts) turns a required anyOf into a
    // zod intersection its Google layer throws on (test/profile-mastra.test.ts), so the union is an error there.
    const union = {
      name: 'find_owner',
      inputSchema: { type: 'object', properties: { by: { anyOf: [{ type: 'object', properties: { id: { type: 'integer' } } }, { type: 'object', properties: { name: { type: 'string' } } }] } }, required: ['by'] },
    };
    writeFileSync(after, JSON.stringify({ tools: [...recorded('openapi-pet-clinic'), union] }));
    // Host failures count too.
    const judged = ['--fail-on-host', 'refused'];
    expect((await lint(['--from', before, ...judged])).code).toBe(1);
    await lint(['--from', before, ...judged, '--write-baseline', file]);
    const again = await lint(['--from', before, ...judged, '--baseline', file]);
    expect(again.code).toBe(0);
    // The clinic's errors (its non-object root, its unions where a host of today refuses them) and its host refusals: all accepted.
    expect(again.stdout).toMatch(/: [1-9]\d* findings and [1-9]\d* host verdicts accepted; 0 new/);
    const grown = await lint(['--from', after, ...judged, '--baseline', file]);
    expect(grown.code).toBe(1);
    // The new tool alone: its union, and Mastra's refusal of it.
    expect(grown.stdout.split('\n').filter((l) => l.includes('new: '))).toEqual([
      expect.stringMatching(/^ {2}new: tools\.json\/find_owner no-structural-union at \/inputSchema\/properties\/by\/anyOf: .*refused for it by mastra-google-2025-12/),
      '  new: tools.json/find_owner mastra-google-2025-12: refused',
    ]);
  });

  it('says so in one line when the file is not a baseline', async () => {
    const r = await lint(['--from', join(FIXTURES, 'recorded/server-memory.json'), '--baseline', join(FIXTURES, 'recorded/server-memory.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('is not a lint baseline');
  });
});

describe('config entries that cannot be started as written', () => {
  it('exit 2, naming the entry, its unknown keys and the nearest known one', async () => {
    const file = join(scratch, 'typo.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { memory: { comand: 'node', args: ['x.js'] }, web: { type: 'http', url: 'http://127.0.0.1:9/mcp', hedaers: {} } } }));
    const r = await lint(['--config', file]);
    expect(r.code).toBe(2);
    const [line, hint] = r.stderr.trim().split('\n');
    expect(line).toBe(`lint: the config ${file} has a server that cannot be started as written: "memory": no "command" (stdio) or "url" (Streamable HTTP); unknown key "comand" (did you mean "command"?)`);
    expect(hint).toBe('the keys of a server under "mcpServers": command, args, env, cwd, envFile, type, url, headers, disabled');
    // VS Code's "servers": its own keys, and a type it does not have.
    writeFileSync(file, JSON.stringify({ servers: { fs: { type: 'stdoi', command: 'node', args: 'fs.js' } } }));
    const vscode = await lint(['--config', file]);
    expect(vscode.code).toBe(2);
    expect(vscode.stderr).toContain('"fs": "type" is "stdoi", not "stdio", "http" or "sse"');
    writeFileSync(file, JSON.stringify({ servers: { fs: { type: 'stdio', command: 'node', args: 'fs.js' } } }));
    expect((await lint(['--config', file])).stderr).toContain('"fs": "args" must be a list of strings');
  });
});

describe('a server that dies at start', () => {
  it('shows its own last error line, not only the tail of its stack', async () => {
    const missing = join(scratch, 'nowhere', 'server.js');
    const r = await lint(['--', process.execPath, missing]);
    expect(r.code).toBe(2);
    // node's own line above the stack (which ends "requireStack: []").
    expect(r.stderr).toContain(`before answering initialize: Error: Cannot find module '${missing}'`);
  });
});

describe('a Streamable HTTP server on 127.0.0.1', () => {
  let port = 0;
  let server: ReturnType<typeof spawn>;
  const TOKEN = 'kit-token-1234';

  beforeAll(async () => {
    server = spawn(process.execPath, [join(FIXTURES, 'everything-http.mjs')], { cwd: REPO, env: { ...process.env, EXPECT_AUTHORIZATION: `Bearer ${TOKEN}` }, stdio: ['ignore', 'pipe', 'inherit'] });
    port = await new Promise<number>((resolve, reject) => {
      server.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim().split('\n')[0])));
      server.once('exit', (code) => reject(new Error(`everything-http.mjs exited with ${code}`)));
    });
  });
  afterAll(() => {
    server?.kill('SIGTERM');
  });

  it('a url entry with its Authorization header from the environment lints as its stdio twin does: the same tools, findings and host verdicts', async () => {
    const file = join(scratch, 'http.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { everything: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: 'Bearer ${TOKEN}' } } } }));
    vi.stubEnv('TOKEN', TOKEN);
    let http: LintConfigReport;
    try {
      const r = await lint(['--json', '--config', file]);
      expect(r.code, r.stderr).toBe(0);
      http = JSON.parse(r.stdout) as LintConfigReport;
    } finally {
      vi.unstubAllEnvs();
    }
    const stdio = JSON.parse((await lint(['--json', '--', process.execPath, ...REAL_SERVERS['server-everything']!])).stdout) as LintReport;
    const [served] = http.servers;
    expect(served!.server.error).toBeUndefined();
    expect(served!.server.target).toEqual({ url: `http://127.0.0.1:${port}/mcp` });
    expect(served!.tools.length).toBe(17); // docs/sources.md: 17 tools with roots, sampling and elicitation declared
    expect(served!.tools).toEqual(stdio.tools);
    expect(served!.server.findings).toEqual(stdio.server.findings);
    expect(served!.server.hosts).toEqual(stdio.server.hosts);
  }, 60_000);

  it('without the header: the server\'s 401, exit 2; with ${TOKEN} unset: exit 2 naming it, before anything is sent', async () => {
    const bare = await lint(['--url', `http://127.0.0.1:${port}/mcp`]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('initialize failed (HTTP 401)');
    const file = join(scratch, 'http-unset.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { everything: { url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: 'Bearer ${SCHEMA_BREAKS_UNSET_TOKEN}' } } } }));
    const unset = await lint(['--config', file]);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('"everything".headers.Authorization uses ${SCHEMA_BREAKS_UNSET_TOKEN}, and SCHEMA_BREAKS_UNSET_TOKEN is not set in the environment');
  });

  it('a port where nothing listens: exit 2, cannot reach', async () => {
    // A free port on 127.0.0.1, closed again before the lint.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    const r = await lint(['--url', `http://127.0.0.1:${closed}/mcp`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot reach http://127.0.0.1:${closed}/mcp: ECONNREFUSED`);
  });
});
