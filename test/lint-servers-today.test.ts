/**
 * Issue 22's "done when", on the recorded tools/list of real servers the
 * linter was never tuned on (test/helpers/lint.ts says how each was
 * recorded), judged on the hosts a server author ships to today (the
 * linter's default, `--hosts today`) and, where the issue is a model API's own
 * field (OpenAI function calling, Gemini's `parameters`), on today's API fields
 * too (`--hosts today,api`: issue 33 put them apart). Every expected value is read from the
 * server's own list or from the host's documented rule, by hand:
 *  - OpenAI function calling refuses a function description over 1,024
 *    characters (getsentry/sentry-mcp#106: "Invalid 'tools[13].function.description':
 *    string too long");
 *  - the Gemini API's legacy `parameters` field (Continue's of 2025-02, and
 *    the API's own of 2026) refuses any keyword its Schema message lacks,
 *    `propertyNames` among them, wherever it stands;
 *  - a union of two objects is refused by no host of today, so it is a warning
 *    that names who is hurt (Continue 2025-02 refuses it; Langflow collapses it).
 */
import { describe, expect, it } from 'vitest';
import { chooseHosts } from '../src/lint/hosts.js';
import { lintTools } from '../src/lint/lint.js';
import { recorded } from './helpers/lint.js';

const hostsOf = (spec: string) => {
  const chosen = chooseHosts(spec);
  if (!('hosts' in chosen)) throw new Error(`no "${spec}" host set`);
  return chosen.hosts;
};
const TODAY = hostsOf('today');
const WITH_API = hostsOf('today,api');

/** OpenAI's documented limit on a function's description. */
const OPENAI_DESCRIPTION_LIMIT = 1024;

describe('Sentry (0.39.0): descriptions longer than OpenAI takes', () => {
  const tools = recorded('sentry-mcp') as { name: string; description?: string }[];
  const long = tools.filter((t) => (t.description ?? '').length > OPENAI_DESCRIPTION_LIMIT).map((t) => t.name);

  it('has the issue\'s search_events among its long descriptions (2,037 characters)', () => {
    expect(tools.find((t) => t.name === 'search_events')?.description?.length).toBe(2037);
    expect(long.length).toBeGreaterThan(1);
  });

  it('is refused whole by OpenAI function calling, naming the description and its length, and each long tool on its own', async () => {
    const report = await lintTools(tools, 'sentry-mcp', undefined, WITH_API);
    const whole = report.server.hosts['openai-functions-2026-11']!;
    expect(whole.verdict).toBe('refused');
    expect(whole.takesDown).toBe('request');
    expect(whole.detail).toMatch(/function\.description'?: string too long/);
    for (const t of report.tools) {
      const verdict = t.hosts['openai-functions-2026-11']!.verdict;
      expect([t.name, verdict]).toEqual([t.name, long.includes(t.name) ? 'refused' : 'accepted']);
      // Each long description is an error finding naming the field (issue 33: it passed the gate before).
      const found = t.findings.filter((f) => f.rule === 'description-length');
      expect(found.map((f) => [f.severity, f.hurts!.some((h) => h.host === 'openai-functions-2026-11')])).toEqual(long.includes(t.name) ? [['error', true]] : []);
    }
  });

  it('on the hosts alone (the default) the long descriptions hurt none: info', async () => {
    const report = await lintTools(tools, 'sentry-mcp', undefined, TODAY);
    expect(report.tools.flatMap((t) => t.findings.filter((f) => f.rule === 'description-length').map((f) => f.severity))).toEqual(long.map(() => 'info'));
  });
});

describe('Firecrawl (3.26.0): propertyNames', () => {
  const tools = recorded('firecrawl-mcp') as { name: string }[];
  const withPropertyNames = tools.filter((t) => JSON.stringify(t).includes('"propertyNames"')).map((t) => t.name);

  it('is refused on the legacy Gemini field (Continue 2025-02) for firecrawl_extract, and shown on gemini-cli 0.17', async () => {
    expect(withPropertyNames).toContain('firecrawl_extract');
    const report = await lintTools(tools, 'firecrawl-mcp', undefined, ['continue-gemini-2025-02', 'gemini-cli-2025-11']);
    const extract = report.tools.find((t) => t.name === 'firecrawl_extract')!;
    expect(extract.hosts['continue-gemini-2025-02']!.verdict).toBe('refused');
    expect(extract.hosts['continue-gemini-2025-02']!.detail).toMatch(/propertyNames|Unknown name/);
    expect(extract.hosts['gemini-cli-2025-11']!.verdict).not.toBe('refused');
  });

  it("is an error on today's Gemini parameters field wherever it stands, also in a tool the field refuses first for its $schema", async () => {
    const report = await lintTools(tools, 'firecrawl-mcp', undefined, WITH_API);
    const scrape = report.tools.find((t) => t.name === 'firecrawl_scrape')!;
    // Refused, and first for something else: the 2020-12 $schema every Firecrawl tool declares (an unknown name to the field).
    expect(scrape.hosts['gemini-parameters-2026-09']!.verdict).toBe('refused');
    expect(scrape.hosts['gemini-parameters-2026-09']!.detail).toMatch(/Unknown name "\$schema"/);
    const names = scrape.findings.find((f) => f.path === '/inputSchema/properties/jsonOptions/properties/schema/propertyNames')!;
    expect(names.severity).toBe('error');
    const gemini = names.hurts!.find((h) => h.host === 'gemini-parameters-2026-09')!;
    expect(gemini.verdict).toBe('refused');
    // What the field says of the keyword on its own.
    expect(gemini.what).toMatch(/Unknown name "propertyNames"/);
    // A host that takes propertyNames is not named: gemini-json-schema-2026-11 (parametersJsonSchema takes JSON Schema as published).
    expect(names.hurts!.map((h) => h.host)).not.toContain('gemini-json-schema-2026-11');
  });
});

describe('GitHub (2025.4.8): one union of two objects', () => {
  it('is a warning on today\'s hosts, naming Continue 2025-02 and Langflow among those it hurts', async () => {
    const report = await lintTools(recorded('server-github'), 'server-github', undefined, TODAY);
    const review = report.tools.find((t) => t.name === 'create_pull_request_review')!;
    const union = review.findings.find((f) => f.path === '/inputSchema/properties/comments/items/anyOf')!;
    expect(union.severity).toBe('warning');
    const hurt = (union.hurts ?? []).map((h) => h.host);
    expect(hurt).toEqual(expect.arrayContaining(['continue-gemini-2025-02', 'langflow']));
    // No host of today refuses or drops the tool because of it.
    expect((union.hurts ?? []).filter((h) => TODAY.includes(h.host) && h.verdict !== 'lossy')).toEqual([]);
  });

  it('is an error when the author still targets Continue 2025-02', async () => {
    const report = await lintTools(recorded('server-github'), 'server-github', undefined, [...TODAY, 'continue-gemini-2025-02']);
    const review = report.tools.find((t) => t.name === 'create_pull_request_review')!;
    expect(review.findings.find((f) => f.path === '/inputSchema/properties/comments/items/anyOf')!.severity).toBe('error');
  });
});

describe('Notion (2.5.2): one finding per cause', () => {
  it('reports the repeated, unreferenced $defs once, with their size, instead of once per tool and definition', async () => {
    const tools = recorded('notion-mcp-server') as { name: string; inputSchema: { $defs?: unknown } }[];
    const report = await lintTools(tools, 'notion', undefined, TODAY);
    const unused = (report.causes ?? []).filter((c) => c.rule === 'unused-defs');
    expect(unused).toHaveLength(1);
    // Every tool carries a $defs block; the one with a single parameter (API-get-user) references none of it.
    expect(tools.every((t) => t.inputSchema.$defs !== undefined)).toBe(true);
    expect(unused[0]!.tools).toContain('API-get-user');
    expect(unused[0]!.bytes).toBeGreaterThan(40_000);
    const getUser = report.tools.find((t) => t.name === 'API-get-user')!;
    // Its one parameter's "format": "uuid" too: a finding of its own (ai-sdk-google refuses it on the legacy field's rules).
    expect(getUser.findings.map((f) => f.rule)).toEqual(['format', 'unused-defs']);
    // Fewer causes than findings: what was 398 findings reads as a few dozen causes.
    expect(report.causes!.length).toBeLessThan(40);
  });
});
