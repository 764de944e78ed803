/**
 * SARIF a code-scanning page can place (issue 33), through the real thing: a
 * git checkout in a temp folder holding a small stdio MCP server whose tool
 * names are written in src/tools/*.mjs (tracked) and built into dist/
 * (untracked, as a build is), linted by the real lint command as
 * `node dist/index.mjs`; and a server started from outside the checkout.
 *
 * Expected values are hand-written: the line of each tool's name in the
 * files this test writes (PLACES), the baseline's one entry, the rule that
 * a lossy verdict is no result and a refused or dropped one on a targeted
 * host is (the brief of issue 33).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toSarif } from '../src/lint/sarif.js';
import type { LintReport } from '../src/lint/types.js';
import { lint, sarifValidator } from './helpers/lint.js';

const scratch = mkdtempSync(join(tmpdir(), 'schema-breaks-sarif-places-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Result = {
  ruleId: string;
  level: string;
  message: { text: string };
  locations: { physicalLocation?: { artifactLocation: { uri: string; uriBaseId?: string }; region?: { startLine: number } } }[];
  partialFingerprints: Record<string, string>;
  baselineState?: string;
  properties: { tool?: string; host?: string; verdict?: string; evidence?: unknown; hurts?: { host: string; unconfirmed?: boolean }[] };
};
type Log = { runs: { results: Result[]; originalUriBaseIds: Record<string, { uri: string }> }[] };

/** The server: raw JSON-RPC over stdio, node built-ins only; its tools imported from ./tools/. */
const SERVER = `import { createInterface } from 'node:readline';
import { findNote } from './tools/find.mjs';
import { listNotes } from './tools/list.mjs';
import { pickNote } from './tools/pick.mjs';

const tools = [findNote, listNotes, pickNote];
const info = { name: 'notes-server', version: '1.0.0' };
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
for await (const line of createInterface({ input: process.stdin })) {
  const msg = JSON.parse(line);
  if (msg.method === 'initialize') send({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: info } });
  else if (msg.method === 'tools/list') send({ jsonrpc: '2.0', id: msg.id, result: { tools } });
  else if (msg.id !== undefined) send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
}
`;

const OBJECT = (key: string) => `{ type: 'object', properties: { ${key}: { type: 'string' } }, required: ['${key}'] }`;
/** The tracked sources, line by line. find.mjs comes first in git's order and mentions list_notes in a description. */
const TOOLS: Record<string, string[]> = {
  'find.mjs': [
    '// Finding a note by its words or its tag: the root is a union (root-object).',
    'export const findNote = {',
    "  name: 'find_note',",
    "  description: 'Finds a note; call `list_notes` first for the names.',",
    `  inputSchema: { oneOf: [${OBJECT('words')}, ${OBJECT('tag')}] },`,
    '};',
  ],
  'list.mjs': [
    'export const listNotes = {',
    '  name: "list_notes",',
    "  description: 'Lists the notes whose name starts with a prefix.',",
    "  inputSchema: { type: 'object', properties: { prefix: { type: ['string', 'null'], pattern: '^[a-z]+$', description: 'The first letters.' }, owner: { type: 'string', format: 'email' } } },",
    '};',
  ],
  'pick.mjs': [
    '// Picking a note by its id or its name: a required union of two objects.',
    '',
    'export const pickNote = {',
    '  name: `pick_note`,',
    "  description: 'Picks one note.',",
    `  inputSchema: { type: 'object', properties: { by: { anyOf: [${OBJECT('id')}, ${OBJECT('name')}] } }, required: ['by'] },`,
    '};',
  ],
};
/** Where each name is defined, written by hand from the lines above (and SERVER's line 7 for the server's name). */
const PLACES: Record<string, { uri: string; startLine: number }> = {
  find_note: { uri: 'src/tools/find.mjs', startLine: 3 },
  list_notes: { uri: 'src/tools/list.mjs', startLine: 2 },
  pick_note: { uri: 'src/tools/pick.mjs', startLine: 4 },
  '(server)': { uri: 'src/server.mjs', startLine: 7 },
};

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** The server as `entry` in `dir`, its tools in `dir`/tools/, each name changed by `rename`. */
function writeServer(dir: string, entry: string, rename: (name: string) => string = (n) => n): void {
  write(join(dir, entry), SERVER);
  for (const [file, lines] of Object.entries(TOOLS)) write(join(dir, 'tools', file), `${lines.join('\n').replace(/\b(find_note|list_notes|pick_note)\b/g, rename)}\n`);
}

/** The author's checkout: src/ and docs and tests tracked (each naming the tools too), dist/ built and ignored. */
function checkout(): string {
  const repo = join(scratch, 'notes');
  if (existsSync(repo)) return repo;
  writeServer(join(repo, 'src'), 'server.mjs');
  // A page first in git's order, named for a tool, with calls that look like definitions: a document is never preferred to a source.
  write(join(repo, 'docs/find-note.md'), '# notes\n\n```js\nserver.tool("find_note", ...);\nserver.tool("list_notes", ...);\nserver.tool("pick_note", ...);\n```\n');
  // Sources before src/tools/ in git's order that name tools too: a client script named for the tool that calls it (a use, not a
  // definition), and a table that looks like a definition in a file not named for the tool.
  write(join(repo, 'scripts/pick-note.mjs'), "await client.callTool({ name: 'pick_note', arguments: { by: { id: '1' } } });\n");
  write(join(repo, 'src/aliases.mjs'), "export const aliases = [{ name: 'find_note', alias: 'find' }];\n");
  // Files named for a tool, first in git's order, defining it, that are not read: one binary (a NUL byte, as git
  // tells binary files), one over the 1 MB a source file is read up to.
  write(join(repo, 'src/find-note.mjs'), "\0export const findNote = { name: 'find_note' };\n");
  write(join(repo, 'src/list-notes.bundle.mjs'), `export const listNotes = { name: 'list_notes' };\n${'//\n'.repeat(400_000)}`);
  write(join(repo, 'test/notes.test.mjs'), "// name: 'find_note', name: 'list_notes', name: 'pick_note'\n");
  write(join(repo, '.gitignore'), 'dist/\n');
  write(join(repo, 'package.json'), JSON.stringify({ name: 'notes', type: 'module', private: true }));
  // The build: a copy, as a bundler-free build is; it names the tools too, and is not tracked.
  writeServer(join(repo, 'dist'), 'index.mjs');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore', env: { ...process.env, GIT_CEILING_DIRECTORIES: scratch } });
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=Author', '-c', 'user.email=author@example.com', 'commit', '-q', '-m', 'notes');
  return repo;
}

/** The lint command typed in `cwd` (npm keeps it as INIT_CWD: src/core/cwd.ts). */
async function lintIn(cwd: string, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  vi.stubEnv('INIT_CWD', cwd);
  try {
    return await lint(argv);
  } finally {
    vi.unstubAllEnvs();
  }
}

const readLog = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Log;
const where = (r: Result) => r.locations[0]!.physicalLocation;

describe('SARIF from a server built in a git checkout', () => {
  let repo: string;
  let first: Log;
  let second: Log;
  let baselined: Log;
  let report: LintReport;
  let stderr: string;
  const command = ['--', process.execPath, 'dist/index.mjs'];

  beforeAll(async () => {
    repo = checkout();
    const r = await lintIn(repo, ['--sarif', 'first.sarif', ...command]);
    expect(r.code, r.stdout + r.stderr).toBe(1); // the root union is an error
    stderr = r.stderr;
    first = readLog(join(repo, 'first.sarif'));
    await lintIn(repo, ['--sarif', 'second.sarif', ...command]);
    second = readLog(join(repo, 'second.sarif'));
    report = JSON.parse((await lintIn(repo, ['--json', ...command])).stdout) as LintReport;
    // A baseline written by hand: it holds pick_note's union, and nothing else.
    writeFileSync(
      join(repo, 'baseline.json'),
      JSON.stringify({
        format: 'schema-breaks/lint-baseline',
        version: 1,
        findings: [{ server: 'notes-server', tool: 'pick_note', rule: 'no-structural-union', path: '/inputSchema/properties/by/anyOf' }],
        hosts: [],
      }),
    );
    await lintIn(repo, ['--baseline', 'baseline.json', '--sarif', 'baselined.sarif', ...command]);
    baselined = readLog(join(repo, 'baselined.sarif'));
  }, 120_000);

  it('validates against the SARIF 2.1.0 schema, with and without a baseline', () => {
    const validate = sarifValidator();
    for (const log of [first, baselined]) {
      const { ok, errors } = validate(log);
      expect(ok, errors).toBe(true);
    }
    expect(validate({ ...baselined, runs: [{ ...baselined.runs[0], results: [{ ...baselined.runs[0]!.results[0], baselineState: 'old' }] }] }).ok).toBe(false);
  });

  it("places each tool's results at the line of its name in the tracked sources, not in dist/, the docs, the tests or a script", () => {
    const run = first.runs[0]!;
    expect(run.originalUriBaseIds['%SRCROOT%']!.uri).toBe(`file://${repo}/`);
    const tools = new Set(run.results.map((r) => r.properties.tool ?? '(server)'));
    // Every tool has results (each breaks a rule a targeted host is hurt by: list_notes' format "email", which
    // ai-sdk-google refuses on unconfirmed evidence, a warning), so every row of PLACES is checked.
    expect([...tools].filter((t) => t !== '(server)').sort()).toEqual(['find_note', 'list_notes', 'pick_note']);
    for (const r of run.results) {
      const place = PLACES[r.properties.tool ?? '(server)']!;
      expect(where(r), r.message.text).toEqual({ artifactLocation: { uri: place.uri, uriBaseId: '%SRCROOT%' }, region: { startLine: place.startLine } });
    }
    // The lines, found again by this test's own reading of the files.
    for (const [tool, place] of Object.entries(PLACES).filter(([t]) => t !== '(server)'))
      expect(readFileSync(join(repo, place.uri), 'utf8').split('\n')[place.startLine - 1]).toContain(tool);
    // Every result placed: nothing to say on stderr.
    expect(stderr).toBe('');
  });

  it('has a result for each error and warning finding, and for refused or dropped verdicts on targeted hosts only', () => {
    const results = first.runs[0]!.results;
    const findings = [...report.server.findings.map((f) => ({ tool: undefined, f })), ...report.tools.flatMap((t) => t.findings.map((f) => ({ tool: t.name, f })))].filter(
      ({ f }) => f.severity !== 'info',
    );
    expect(results.filter((r) => !r.ruleId.startsWith('host/')).map((r) => [r.properties.tool, r.ruleId, r.level])).toEqual(findings.map(({ tool, f }) => [tool, f.rule, f.severity]));
    const verdicts = [
      ...Object.entries(report.server.hosts).map(([host, v]) => ({ tool: undefined as string | undefined, host, verdict: v.verdict })),
      ...report.tools.flatMap((t) => Object.entries(t.hosts).map(([host, v]) => ({ tool: t.name as string | undefined, host, verdict: v.verdict }))),
    ];
    // The case the filter is for: some host loses something (list_notes' pattern, its type list), and that is no result.
    expect(verdicts.some((v) => v.verdict === 'lossy')).toBe(true);
    const expected = verdicts.filter((v) => (v.verdict === 'refused' || v.verdict === 'dropped') && report.server.targets!.includes(v.host));
    expect(expected.length).toBeGreaterThan(0);
    const hosts = results.filter((r) => r.ruleId.startsWith('host/'));
    expect(hosts.map((r) => ({ tool: r.properties.tool, host: r.properties.host, verdict: r.properties.verdict }))).toEqual(expected);
    for (const r of hosts) expect([r.level, r.ruleId]).toEqual(['error', `host/${r.properties.host}`]);
  });

  it('gives the same log twice, and the same fingerprints with a baseline; the baselined result is unchanged, the rest new', () => {
    expect(second).toEqual(first);
    const key = (r: Result) => `${r.ruleId} ${r.properties.tool} ${r.properties.host ?? ''}`;
    const fingerprints = (log: Log) => log.runs[0]!.results.map((r) => [key(r), r.partialFingerprints]);
    expect(fingerprints(baselined)).toEqual(fingerprints(first));
    const results = baselined.runs[0]!.results;
    expect(results.length).toBe(first.runs[0]!.results.length);
    expect(results.filter((r) => r.baselineState === 'unchanged').map(key)).toEqual(['no-structural-union pick_note ']);
    expect(results.filter((r) => r.baselineState !== 'unchanged').every((r) => r.baselineState === 'new')).toBe(true);
    // Without --baseline no result says anything about one.
    expect(first.runs[0]!.results.every((r) => r.baselineState === undefined)).toBe(true);
  });

  it('carries evidence and unconfirmed hurts as properties; fingerprints ignore the message, info findings and untargeted hosts are no results', () => {
    // The report as the lead's gate will write it (issue 33, provenance): evidence on a verdict, an unconfirmed hurt,
    // an info finding, a refusal by a host the author does not target, and another wording of every message.
    const tool = report.tools.find((t) => t.name === 'find_note')!;
    const [host, verdict] = Object.entries(tool.hosts).find(([, v]) => v.verdict === 'refused')!;
    const untargeted = 'claude-code-2025-07';
    expect(report.server.targets).not.toContain(untargeted);
    const evidence = { kind: 'docs' as const, date: '2026-11-01', source: 'a vendor page', unconfirmed: true as const };
    // And the kit's own profile failing on list_notes for a host that takes it: a tool notification, no result.
    const listing = report.tools.find((t) => t.name === 'list_notes')!;
    const [failed] = Object.entries(listing.hosts).find(([, v]) => v.verdict === 'accepted' || v.verdict === 'lossy')!;
    const changed: LintReport = {
      ...report,
      tools: report.tools.map((t) =>
        t === listing
          ? { ...t, hosts: { ...t.hosts, [failed]: { verdict: 'unknown', detail: 'TypeError: x is undefined' } } }
          : t !== tool
          ? t
          : {
              ...t,
              findings: [
                ...t.findings.map((f) => ({ ...f, message: `${f.message} (reworded)`, ...(f.hurts ? { hurts: f.hurts.map((h) => ({ ...h, unconfirmed: true as const })) } : {}) })),
                { rule: 'const', severity: 'info' as const, path: '/inputSchema/x', message: 'hurts no targeted host' },
              ],
              hosts: { ...t.hosts, [host]: { ...verdict, detail: `${verdict.detail} (reworded)`, evidence }, [untargeted]: { verdict: 'refused', detail: 'no' } },
            },
      ),
    };
    const before = toSarif([{ report }], { cwd: repo }).log as unknown as Log;
    const after = toSarif([{ report: changed }], { cwd: repo }).log as unknown as Log;
    const results = after.runs[0]!.results;
    expect(results.map((r) => r.partialFingerprints)).toEqual(before.runs[0]!.results.map((r) => r.partialFingerprints));
    expect(results.find((r) => r.properties.tool === 'find_note' && r.properties.host === host)!.properties.evidence).toEqual(evidence);
    const hurting = results.filter((r) => r.properties.tool === 'find_note' && r.properties.hurts);
    expect(hurting.length).toBeGreaterThan(0);
    for (const r of hurting) for (const h of r.properties.hurts!) expect(h.unconfirmed).toBe(true);
    expect(results.some((r) => r.ruleId === 'const' || r.properties.host === untargeted)).toBe(false);
    const notes = (after as unknown as { runs: { invocations: { toolExecutionNotifications: { level: string; message: { text: string } }[] }[] }[] }).runs[0]!.invocations[0]!.toolExecutionNotifications;
    expect(notes).toEqual([{ level: 'error', message: { text: `notes-server: list_notes: the kit's profile ${failed} failed (a bug in src/lab/profiles/): TypeError: x is undefined` } }]);
  });
});

describe('SARIF from a config outside any git repository', () => {
  it("places the server's results at its line in the config, before its script", async () => {
    const folder = join(scratch, 'no-git');
    writeServer(join(folder, 'dist'), 'index.mjs');
    // "notes" on line 3, written by hand.
    write(join(folder, 'mcp.json'), `{\n  "mcpServers": {\n    "notes": { "command": ${JSON.stringify(process.execPath)}, "args": ["dist/index.mjs"] }\n  }\n}\n`);
    await lintIn(folder, ['--config', 'mcp.json', '--sarif', 'config.sarif']);
    const results = readLog(join(folder, 'config.sarif')).runs[0]!.results;
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) expect(where(r)).toEqual({ artifactLocation: { uri: 'mcp.json', uriBaseId: '%SRCROOT%' }, region: { startLine: 3 } });
  }, 60_000);
});

describe('SARIF from a server started outside the checkout', () => {
  it('has no file for its results, and says so in one line on stderr', async () => {
    const repo = checkout();
    // A server elsewhere, as npx or a .bin path gives: its tool names written nowhere in the checkout.
    const elsewhere = join(scratch, 'elsewhere');
    const memo: Record<string, string> = { find_note: 'seek_memo', list_notes: 'all_memos', pick_note: 'one_memo' };
    writeServer(elsewhere, 'server.mjs', (name) => memo[name]!);
    const r = await lintIn(repo, ['--sarif', 'outside.sarif', '--', process.execPath, join(elsewhere, 'server.mjs')]);
    const results = readLog(join(repo, 'outside.sarif')).runs[0]!.results;
    // The server's own name is still written in the checkout: its whole-list results (if any) are placed there.
    const tools = results.filter((r) => r.properties.tool !== undefined);
    expect(tools.length).toBeGreaterThan(0);
    for (const r of tools) expect(where(r)).toBeUndefined();
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('SARIF: '));
    expect(lines).toEqual([
      `SARIF: ${tools.length} of ${results.length} results have no line (${tools.length} no file either): no tracked file names their tools (seek_memo, all_memos, one_memo) as a string (server started outside the checkout, or names built at run time?)`,
    ]);
  }, 60_000);
});
