/**
 * `--hosts`: which host profiles `npm run lint` judges on. The sets are written out here by hand from each profile's
 * release date (the 14 months before the kit's date, 2026-12: released on or after 2025-10-01 is today's) and from
 * what each is (a host a server ships to, or a model API's own field: issue 33), never read from the code under test; the verdicts come from test/lint-hosts.test.ts's hand-derived matrix.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseHosts } from '../src/lint/hosts.js';
import type { LintReport } from '../src/lint/types.js';
import { lint, RECORDED } from './helpers/lint.js';

const TODAY = [
  'gemini-cli-2025-11', // 2025-11-20
  'claude-code-2026-08', // 2026-08-18
  'langflow', // 2026-03-27
  'openai-agents-2025-10', // 2025-10-25
  'mastra-google-2025-12', // 2025-12-08
  'langchain-mcp-2026-01', // 2026-01-22
  'ai-sdk-google-2026-11', // 2026-11-07
  'vscode-copilot-2026-01', // 2026-01-23
];
// Today's model API fields, for an app that passes schemas through unchanged: judged only when asked.
const API = [
  'openai-functions-2026-11', // 2026-11-18
  'gemini-parameters-2026-09', // 2026-09-13
  'gemini-json-schema-2026-11', // 2026-11-12
];
// Before 2025-10-01, and faithful (no host): what the labs teach.
const HISTORIC = ['faithful', 'continue-gemini-2025-02', 'goose-google-2025-02', 'gemini-cli-2025-06', 'openai-strict', 'claude-code-2025-07'];

const everything = ['--from', join(RECORDED, 'server-everything.json')];
const judgedOn = async (args: string[]) => {
  const { code, stdout, stderr } = await lint([...everything, '--json', ...args]);
  const report = JSON.parse(stdout) as LintReport;
  return { code, stderr, server: Object.keys(report.server.hosts), tool: Object.keys(report.tools[0]!.hosts) };
};

describe('--hosts', () => {
  it("judges today's hosts by default, in the order of the profile list", async () => {
    const { server, tool } = await judgedOn([]);
    expect(server).toEqual(TODAY);
    expect(tool).toEqual(TODAY);
  });

  it('historic, all, and a list of ids (given in any order, judged in the profile list\'s)', async () => {
    expect((await judgedOn(['--hosts', 'historic'])).server).toEqual(HISTORIC);
    expect((await judgedOn(['--hosts', 'api'])).server).toEqual(API);
    expect((await judgedOn(['--hosts', 'all'])).server).toEqual(ALL);
    expect((await judgedOn(['--hosts', 'vscode-copilot-2026-01, faithful'])).server).toEqual(['faithful', 'vscode-copilot-2026-01']);
    expect((await judgedOn(['--hosts', 'historic,openai-functions-2026-11'])).server).toEqual([...HISTORIC, 'openai-functions-2026-11']);
  });

  it('an unknown word is one usage line naming the sets and every id, exit 2', async () => {
    const { code, stdout, stderr } = await lint([...everything, '--hosts', 'today,cursor']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^lint: --hosts takes today \(hosts released since 2025-10-01: .*\), api \(.*\), historic \(.*\), all, or a comma-separated list of ids; not "cursor" \(npm run lint -- --help\)$/);
    for (const id of [...TODAY, ...API, ...HISTORIC]) expect(lines[0]).toContain(id);
    expect((await lint([...everything, '--hosts', ','])).code).toBe(2);
  });

  it('--fail-on-host judges the hosts --hosts picks: today, the AI SDK refuses server-everything; with api, Gemini `parameters` too', async () => {
    // Today's columns of server-everything (test/lint-hosts.test.ts): 13 refuses the two tools with format "uri";
    // the historic hosts that refuse it (2, 3, 4, openai-strict) are not judged, nor the API fields unless asked: 15
    // refuses all 17 ($schema). The format findings are warnings (13's evidence is unconfirmed), so only the host gate fails.
    const refused = await lint([...everything, '--fail-on-host', 'refused']);
    expect(refused.code).toBe(1);
    expect(refused.stdout.trim().split('\n').at(-1)).toBe('exit 1: host verdicts reach --fail-on-host refused: ai-sdk-google-2026-11 (2 tools, the whole list)');
    const api = await lint([...everything, '--fail-on-host', 'refused', '--hosts', 'today,api']);
    expect(api.stdout.trim().split('\n').at(-1)).toBe(
      'exit 1: findings reach --fail-on error; host verdicts reach --fail-on-host refused: ai-sdk-google-2026-11 (2 tools, the whole list), gemini-parameters-2026-09 (17 tools, the whole list)',
    );
    const mine = await lint([...everything, '--fail-on-host', 'refused', '--hosts', 'claude-code-2026-08,vscode-copilot-2026-01,openai-functions-2026-11']);
    expect(mine.code).toBe(0);
  });

  it('--for-hosts still works, as the old name of --hosts, and says so', async () => {
    const { server, stderr } = await judgedOn(['--for-hosts', 'faithful,langflow']);
    expect(server).toEqual(['faithful', 'langflow']);
    expect(stderr).toBe('lint: --for-hosts is now --hosts (the hosts judged, and the ones --fail-on-host judges)\n');
  });

  it('chooseHosts gives the ids for other parts of the linter (the severity that follows the targeted hosts)', () => {
    expect(chooseHosts()).toEqual({ hosts: TODAY });
    expect(chooseHosts('all')).toEqual({ hosts: ALL });
    expect(chooseHosts('langflow,nope,x')).toEqual({ unknown: ['nope', 'x'] });
  });
});

/** Every profile, in the order of the profile list (src/lab/profiles/index.ts PROFILES, test/profiles.test.ts). */
const ALL = [
  'faithful', 'continue-gemini-2025-02', 'goose-google-2025-02', 'gemini-cli-2025-06', 'gemini-cli-2025-11', 'openai-strict', 'claude-code-2025-07',
  'claude-code-2026-08', 'langflow', 'openai-agents-2025-10', 'mastra-google-2025-12', 'langchain-mcp-2026-01', 'ai-sdk-google-2026-11',
  'openai-functions-2026-11', 'gemini-parameters-2026-09', 'gemini-json-schema-2026-11', 'vscode-copilot-2026-01',
];
