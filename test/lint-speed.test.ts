/**
 * What keeps a lint fast (issue 22: a 30-tool server under a second, npm run
 * bench section 7), tested for what it does, not for how fast it is (the
 * machine's pace is the bench's business): the host frameworks load while the
 * server starts, not after its tools arrive; and a server linted again with
 * the same tools is judged from the hosts' answers kept the first time.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandBundle } from '../src/core/bundler.mjs';
import { PROFILES } from '../src/lab/profiles/index.js';
import { lintTarget } from '../src/lint/lint.js';
import { commandTarget, fromTarget } from '../src/lint/targets.js';
import type { HostVerdict, LintReport } from '../src/lint/types.js';
import { answersFile } from '../src/lint/verdicts.js';
import { REPO } from './helpers/server.js';

const THIRTY_TOOLS = join(REPO, 'test/fixtures/lint/thirty-tools.mjs');

describe('the host frameworks load beside the server start', () => {
  it('every profile that runs a framework is asked to load it before the tools/list answer is in', async () => {
    const events: string[] = [];
    const framed = PROFILES.filter((p) => p.load);
    // The profiles that run a host's published code (src/lab/profiles/: openai-agents, mastra, langchain-mcp,
    // ai-sdk-google import their framework; gemini-cli-2025-11 imports gemini-cli-core's SchemaValidator).
    expect(framed.map((p) => p.id).sort()).toEqual(['ai-sdk-google-2026-11', 'gemini-cli-2025-11', 'langchain-mcp-2026-01', 'mastra-google-2025-12', 'openai-agents-2025-10']);
    const loads = new Map(framed.map((p) => [p, p.load!]));
    for (const [p, load] of loads) p.load = () => (events.push(p.id), load());
    try {
      const report = await lintTarget(commandTarget(process.execPath, [THIRTY_TOOLS]), { timeoutMs: 20_000, listed: () => events.push('listed') });
      expect(report.tools).toHaveLength(30);
    } finally {
      for (const [p, load] of loads) p.load = load;
    }
    const listed = events.indexOf('listed');
    expect(listed).toBeGreaterThan(-1);
    expect(events.slice(0, listed).sort()).toEqual(framed.map((p) => p.id).sort());
  }, 60_000);
});

/** npm run lint as a user types it (node scripts/launch.mjs scripts/lint.ts ...), its report as JSON. */
function npmRunLint(args: string[]): LintReport {
  const r = spawnSync(process.execPath, ['scripts/launch.mjs', 'scripts/lint.ts', '--json', '--fail-on', 'none', ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as LintReport;
}

/** Every verdict of a report, host by host and tool by tool, with its detail. */
const verdictsOf = (report: LintReport) => ({ whole: report.server.hosts, tools: report.tools.map((t) => [t.name, t.hosts, t.findings]) });

describe('the verdict cache (src/lint/verdicts.ts)', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'schema-breaks-lint-speed-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  // Two tools written here: a plain one, and one whose top-level union some hosts refuse (test/lint-hosts.test.ts).
  const plain = { name: 'get_time', description: 'The time now.', inputSchema: { type: 'object', properties: { zone: { type: 'string' } } } };
  const union = { name: 'find', description: 'Find a thing.', inputSchema: { type: 'object', properties: { by: { anyOf: [{ type: 'string' }, { type: 'object', properties: { id: { type: 'integer' } } }] } } } };
  const saved = join(scratch, 'tools.json');
  const cacheFolder = async () => join(dirname(await commandBundle(REPO, 'scripts/lint.ts')), 'verdicts');

  it('gives the report a fresh run gives; the hosts are answered from it (a kept answer shows), a changed tool is asked again, --no-cache asks all', async () => {
    writeFileSync(saved, JSON.stringify({ tools: [plain, union] }));
    const fresh = npmRunLint(['--no-cache', '--from', saved]);
    const first = npmRunLint(['--from', saved]);
    const file = answersFile(await cacheFolder(), fromTarget(saved));
    const written = statSync(file).mtimeMs;
    const again = npmRunLint(['--from', saved]);
    expect(verdictsOf(first)).toEqual(verdictsOf(fresh));
    expect(verdictsOf(again)).toEqual(verdictsOf(fresh));
    // A run that asked nothing new leaves the file as it was.
    expect(statSync(file).mtimeMs).toBe(written);

    // Each kept answer marked: a run that reads them shows the marks.
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Record<string, HostVerdict>;
    expect(Object.keys(kept).length).toBeGreaterThan(0);
    writeFileSync(file, JSON.stringify(Object.fromEntries(Object.entries(kept).map(([k, v]) => [k, { ...v, detail: `kept: ${v.detail}` }]))));
    const marked = npmRunLint(['--from', saved]);
    for (const tool of marked.tools) for (const v of Object.values(tool.hosts)) expect(v.detail).toMatch(/^kept: /);

    // --no-cache: no mark.
    const afresh = npmRunLint(['--no-cache', '--from', saved]);
    for (const tool of afresh.tools) for (const v of Object.values(tool.hosts)) expect(v.detail).not.toMatch(/^kept: /);

    // One tool changed (its description): it is asked again, the other is still answered from the cache.
    writeFileSync(saved, JSON.stringify({ tools: [{ ...plain, description: 'The time now, in a zone.' }, union] }));
    const changed = npmRunLint(['--from', saved]);
    for (const v of Object.values(changed.tools[0]!.hosts)) expect(v.detail).not.toMatch(/^kept: /);
    for (const v of Object.values(changed.tools[1]!.hosts)) expect(v.detail).toMatch(/^kept: /);
  }, 180_000);
});
