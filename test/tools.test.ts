/**
 * The tutor's other tools and read-only mode, through the real server over
 * stdio. Expected answers are typed from the lessons and profiles the server
 * starts with (src/minimcp/tools/lessons.ts, profile.ts).
 */
import { describe, expect, it } from 'vitest';
import { connect } from './helpers/server.js';

type Result = { content: { type: string; text: string }[]; isError?: boolean };
const text = (r: unknown) => (r as Result).content.map((c) => c.text).join('\n');

describe('the tools a tutor needs besides conjugate', () => {
  it('lessons: list by level, get, create, delete', async () => {
    const { client, close } = await connect();
    try {
      const call = (args: Record<string, string>) => client.callTool({ name: 'lessons', arguments: { level: 'any', lessonId: '', title: '', ...args } });
      expect(text(await call({ action: 'list', level: 'B1' }))).toBe('L5 Present perfect (B1)\nL6 Past continuous (B1)');
      expect(text(await call({ action: 'get', lessonId: 'L7' }))).toBe('{"id":"L7","title":"Future perfect","level":"B2"}');
      expect(text(await call({ action: 'create', level: 'C2', title: 'Inversion' }))).toBe('Created lesson L9: Inversion (C2)');
      expect(text(await call({ action: 'delete', lessonId: 'L1' }))).toBe('Deleted lesson L1');
      expect(text(await call({ action: 'list', level: 'A1' }))).toBe('L2 To be: am, is, are (A1)');
      const missing = (await call({ action: 'get', lessonId: 'L1' })) as Result;
      expect(missing.isError).toBe(true);
      // The tool's own check, an McpError(InvalidParams): under McpServer (the default build) an isError result.
      expect(text(missing)).toMatch(/^MCP error -32602: lessonId: no lesson "L1"/);
    } finally {
      await close();
    }
  });

  it('update_profile replaces the whole profile; get_profile reads it back', async () => {
    const { client, close } = await connect();
    try {
      const before = JSON.parse(text(await client.callTool({ name: 'get_profile', arguments: { learner: 'ben' } })));
      expect(before).toEqual({ name: 'Ben', level: 'A2', goals: ['work emails'], reminder: 'weekdays 08:30', nativeLanguage: 'German' });
      await client.callTool({ name: 'update_profile', arguments: { learner: 'ben', ...before, level: 'B1' } });
      const after = JSON.parse(text(await client.callTool({ name: 'get_profile', arguments: { learner: 'ben' } })));
      expect(after).toEqual({ ...before, level: 'B1' });
      // Every field is required: a full replace needs the full state.
      const partial = (await client.callTool({ name: 'update_profile', arguments: { learner: 'ben', level: 'B2' } })) as Result;
      expect(partial.isError).toBe(true);
      // zod's words, as McpServer 1.32 prints them: one line per issue, "<message> at <path>".
      expect(text(partial)).toMatch(/Invalid input: expected string, received undefined at name$/m);
      expect(text(partial)).toMatch(/Invalid input: expected array, received undefined at goals$/m);
    } finally {
      await close();
    }
  });
});

describe('read-only mode', () => {
  it.each([['--read-only'], ['MINIMCP_READ_ONLY=1']])('(%s) lists no mutation and refuses the changing actions of a gated tool', async (how) => {
    const byFlag = how.startsWith('--');
    const { client, close } = await connect(byFlag ? [how] : [], undefined, byFlag ? {} : { MINIMCP_READ_ONLY: '1' });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['conjugate', 'get_profile', 'lessons']);
      const refused = (await client.callTool({ name: 'lessons', arguments: { action: 'delete', level: 'any', lessonId: 'L3', title: '' } })) as Result;
      expect(refused.isError).toBe(true);
      expect(text(refused)).toBe('Refused: action "delete" of lessons changes data, and the server is read-only');
      const listed = await client.callTool({ name: 'lessons', arguments: { action: 'list', level: 'A2', lessonId: '', title: '' } });
      expect(text(listed)).toBe('L3 Past simple: regular verbs (A2)\nL4 Irregular past forms (A2)');
      const update = (await client.callTool({ name: 'update_profile', arguments: { learner: 'ana', name: 'A', level: 'B1', goals: [], reminder: '', nativeLanguage: '' } })) as Result;
      expect(update.isError).toBe(true);
      expect(text(update)).toMatch(/^Refused: update_profile changes data/);
    } finally {
      await close();
    }
  });

  it('refuses on the low-level build too, as a tool result (a refusal is not invalid params)', async () => {
    const { client, close } = await connect(['--read-only', '--build', 'low-level']);
    try {
      const refused = (await client.callTool({ name: 'lessons', arguments: { action: 'create', level: 'C2', lessonId: '', title: 'x' } })) as Result;
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/^Refused: action "create"/);
    } finally {
      await close();
    }
  });
});
