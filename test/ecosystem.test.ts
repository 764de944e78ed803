/**
 * The ecosystem, pinned (issue 33): the tools/list of each saved MCP server
 * from npm (test/fixtures/ecosystem/servers/), linted now with the kit's own
 * linter, must give the verdicts and findings pinned in verdicts.json, and the
 * page (docs/ecosystem.md and .html) must be what verdicts.json gives. A
 * change to a host profile or a rule shows here as a diff of the ecosystem:
 * review it, then run `npm run ecosystem -- update`.
 *
 * Linting all 198 servers asks every host profile about each of some 4,500
 * tools: many minutes on the 2-core machine, more than the whole suite may
 * take. So the suite lints again the servers issue 33 names (ISSUE_SERVERS);
 * ECOSYSTEM_FULL=1 lints every one (npx vitest run test/ecosystem.test.ts).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { pageFiles, pinEcosystem, readPinned, renderEcosystemPage } from '../src/lint/ecosystem/cli.js';
import { ecosystemPaths, readFixtures, readSkipped } from '../src/lint/ecosystem/fixtures.js';
import { Answers } from '../src/lint/verdicts.js';
import { hostMatrix, HOST_IDS } from '../src/lint/hosts.js';
import { lintTools } from '../src/lint/lint.js';
import { splitEntries } from '../src/lint/rules.js';
import { REPO } from './helpers/server.js';

const paths = ecosystemPaths(REPO);
const fixtures = readFixtures(paths);

/** The servers issue 33 quotes, at the versions it quotes (issue 33's text, not the fixtures). */
const QUOTED: Record<string, string> = {
  '@supabase/mcp-server-supabase': '0.13.0',
  'mongodb-mcp-server': '3.0.4',
  '@hubspot/mcp-server': '0.4.0',
  '@brightdata/mcp': '2.11.3',
  '@azure/mcp': '2.0.5',
  'figma-developer-mcp': '0.13.2',
};

describe('the saved lists', () => {
  it('hold at least 100 servers, each with its tools, none also skipped, the ones issue 33 quotes at its versions', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(100);
    for (const f of fixtures) {
      expect(f.tools.length, f.package).toBeGreaterThan(0);
      expect(f.listed, f.package).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    const skipped = new Set(readSkipped(paths).map((s) => s.package));
    expect(fixtures.filter((f) => skipped.has(f.package)).map((f) => f.package)).toEqual([]);
    const saved = Object.fromEntries(fixtures.map((f) => [f.package, f.version]));
    for (const [pkg, version] of Object.entries(QUOTED)) expect(saved[pkg], pkg).toBe(version);
  });

  it('are the lists the issue measured: MongoDB 3.0.4 lists 27 tools, Azure MCP 2.0.5 a description of 1,729 characters', () => {
    const byName = (pkg: string) => fixtures.find((f) => f.package === pkg)!;
    expect(byName('mongodb-mcp-server').tools).toHaveLength(27);
    const longest = Math.max(...byName('@azure/mcp').tools.map((t) => String((t as { description?: unknown }).description ?? '').length));
    expect(longest).toBe(1729);
  });
});

/** The servers issue 33 names: the six it quotes and the six it counted refusals on (its text). */
const ISSUE_SERVERS = [
  ...Object.keys(QUOTED),
  '@notionhq/notion-mcp-server',
  '@playwright/mcp',
  'chrome-devtools-mcp',
  '@modelcontextprotocol/server-everything',
  '@modelcontextprotocol/server-sequential-thinking',
  '@upstash/context7-mcp',
];

describe('the pinned verdicts and the page', () => {
  const pinned = readPinned(paths);

  it('hold every saved server at its version, and no other', () => {
    expect(Object.entries(pinned.servers).map(([p, s]) => `${p}@${s.version}`).sort()).toEqual(fixtures.map((f) => `${f.package}@${f.version}`).sort());
  });

  it('are what docs/ecosystem.md and docs/ecosystem.html say', () => {
    const built = renderEcosystemPage(paths);
    const files = pageFiles(REPO);
    expect(readFileSync(files.markdown, 'utf8'), 'docs/ecosystem.md is stale: run npm run ecosystem -- page').toBe(built.markdown);
    expect(readFileSync(files.html, 'utf8'), 'docs/ecosystem.html is stale: run npm run ecosystem -- page').toBe(built.html);
  });

  const full = process.env.ECOSYSTEM_FULL === '1';
  it(`are what the linter says now, on ${full ? 'every saved server' : 'the servers issue 33 names'}`, async () => {
    for (const name of ISSUE_SERVERS) expect(fixtures.some((f) => f.package === name), name).toBe(true);
    const started = performance.now();
    const now = await pinEcosystem(paths, full ? undefined : ISSUE_SERVERS);
    // The figure to watch: how long the linting takes here.
    console.log(`ecosystem: ${Object.keys(now.servers).length} servers linted in ${Math.round((performance.now() - started) / 1000)} s`);
    const changed = Object.keys(now.servers).filter((s) => JSON.stringify(pinned.servers[s]) !== JSON.stringify(now.servers[s]));
    expect(changed, `the ecosystem's verdicts changed for ${changed.join(', ')}: review, then run npm run ecosystem -- update and read the diff of verdicts.json`).toEqual([]);
    expect(now.defaultHosts).toEqual(pinned.defaultHosts);
    for (const s of Object.keys(now.servers)) expect(now.servers[s], s).toEqual(pinned.servers[s]);
  }, 900_000);
});

describe('the answers shared between the matrix and the lint', () => {
  it('change nothing in the report: a server linted with them and without them reads the same', async () => {
    const f = fixtures.find((x) => x.package === '@modelcontextprotocol/server-memory')!;
    const answers = new Answers('/nonexistent/never-written', { kind: 'from', label: f.package, file: f.package });
    await hostMatrix(splitEntries(f.tools).tools, answers, HOST_IDS);
    const shared = await lintTools(f.tools, f.package, undefined, HOST_IDS, answers);
    const alone = await lintTools(f.tools, f.package, undefined, HOST_IDS);
    expect(shared).toEqual(alone);
  }, 120_000);
});
