/**
 * What keeps a lint fast (issue 22: a 30-tool server under a second, npm run
 * bench section 7), tested for what it does, not for how fast it is (the
 * machine's pace is the bench's business): the host frameworks load while the
 * server starts, not after its tools arrive.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROFILES } from '../src/lab/profiles/index.js';
import { lintTarget } from '../src/lint/lint.js';
import { commandTarget } from '../src/lint/targets.js';
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
