/**
 * Provenance (issue 33): what each profile's verdicts rest on, and the rejections that rest on weaker or older
 * grounds than their profile's. The kinds below are read by hand from each profile's header and sources: 'package'
 * where the profile runs the host's own npm package, 'code' where it transcribes the host's code read at a version,
 * 'docs' for the vendor's documentation, 'report' for issue reports. The rejections are the hosts' own (their
 * packages run here, for ai-sdk-google and gemini-cli-2025-06), the expected evidence hand-written from each
 * profile's comments.
 */
import { describe, expect, it } from 'vitest';
import { getProfile, PROFILES } from '../src/lab/profiles/index.js';
import type { Presented, PublishedTool } from '../src/lab/profiles/shared.js';

const KIND: Record<string, string> = {
  'continue-gemini-2025-02': 'code',
  'goose-google-2025-02': 'code',
  'gemini-cli-2025-06': 'code',
  'gemini-cli-2025-11': 'package',
  'openai-strict': 'docs',
  'claude-code-2025-07': 'code',
  'claude-code-2026-08': 'code',
  langflow: 'code',
  'openai-agents-2025-10': 'package',
  'mastra-google-2025-12': 'package',
  'langchain-mcp-2026-01': 'package',
  'ai-sdk-google-2026-11': 'package',
  'openai-functions-2026-11': 'report',
  'gemini-parameters-2026-09': 'docs',
  'gemini-json-schema-2026-11': 'docs',
  'vscode-copilot-2026-01': 'code',
};

/** A real calendar day, YYYY-MM-DD, not after the kit's date. */
function isDay(date: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date) && date <= '2026-12-31';
}

const one = (inputSchema: Record<string, unknown>, name = 't'): PublishedTool[] => [{ name, description: 'A tool.', inputSchema: inputSchema as PublishedTool['inputSchema'] }];

async function rejected(id: string, tools: PublishedTool[]): Promise<Extract<Presented, { rejected: string }>> {
  const view = await getProfile(id)!.present(tools);
  if (!('rejected' in view)) throw new Error(`${id} showed the tools`);
  return view;
}

describe('every host profile says what its verdicts rest on', () => {
  it('each but faithful: a kind (by hand, above), a real date, a source in a few words; faithful none', () => {
    expect(Object.fromEntries(PROFILES.filter((p) => p.evidence).map((p) => [p.id, p.evidence!.kind]))).toEqual(KIND);
    for (const p of PROFILES) {
      if (p.id === 'faithful') {
        expect(p.evidence).toBeUndefined();
        continue;
      }
      expect(isDay(p.evidence!.date), `${p.id}: ${p.evidence!.date}`).toBe(true);
      expect(p.evidence!.source.length, p.id).toBeGreaterThan(5);
      expect(p.evidence!.source, p.id).not.toContain('\n');
    }
  });
});

describe('a rejection on weaker or older grounds than its profile carries its own evidence', () => {
  it("ai-sdk-google: the API's refusal of format \"uri\" is the 2025 rules applied to 2026-11, unconfirmed", async () => {
    const view = await rejected('ai-sdk-google-2026-11', one({ type: 'object', properties: { url: { type: 'string', format: 'uri' } }, required: ['url'] }));
    expect(view.lost).toBe('request');
    expect(view.rejected).toContain("format: only 'enum' and 'date-time' are supported for STRING type");
    expect(view.evidence).toMatchObject({ kind: 'report', date: '2025-07-03', unconfirmed: true });
  });

  it('ai-sdk-google: an Unknown-name refusal of a keyword the 2026-09 Schema message has no field for (oneOf) rests on that message: confirmed', async () => {
    const view = await rejected('ai-sdk-google-2026-11', one({ type: 'object', properties: { k: { oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'string' } } }] } } }));
    expect(view.rejected).toContain('Unknown name "oneOf"');
    // content.proto of @google-ai/generativelanguage 4.1.0 (2026-09-13) lists the Schema fields; oneOf is not one.
    expect(view.evidence).toMatchObject({ kind: 'code', date: '2026-09-13' });
    expect(view.evidence!.unconfirmed).toBeUndefined();
  });

  it("ai-sdk-google: what the package itself refuses (its MCP client, its converter) rests on the package: no evidence of its own", async () => {
    expect((await rejected('ai-sdk-google-2026-11', one({ properties: {} }))).evidence).toBeUndefined();
    expect((await rejected('ai-sdk-google-2026-11', one({ type: 'object', properties: { a: { enum: ['x', 1] } } }))).evidence).toBeUndefined();
  });

  it('gemini-cli-2025-06: a type list loses the server by the SDK 1.4.0 run, its effect in gemini-cli unconfirmed; the API\'s 400 rests on reports', async () => {
    const list = await rejected('gemini-cli-2025-06', one({ type: 'object', properties: { note: { type: ['string', 'null'] } } }));
    expect(list).toMatchObject({ lost: 'server', evidence: { kind: 'package', unconfirmed: true } });
    const format = await rejected('gemini-cli-2025-06', one({ type: 'object', properties: { url: { type: 'string', format: 'uri' } } }));
    expect(format.lost).toBe('request');
    expect(format.evidence).toEqual({ kind: 'report', date: '2025-07-03', source: 'Gemini API 400s reported with gemini-cli 0.1.x (gemini-cli#2031, #3178)' });
  });

  it("langflow: the server's failure is read in code older than the version modelled, unconfirmed", async () => {
    const view = await rejected('langflow', one({ anyOf: [{ type: 'object' }, { type: 'object' }] } as never));
    expect(view.lost).toBe('server');
    expect(view.evidence).toMatchObject({ kind: 'code', date: '2025-05-07', unconfirmed: true });
  });

  it('gemini-json-schema-2026-11: a ref that points nowhere, reported in 2025-11, unconfirmed a year later; a $ref beside a type rests on the docs', async () => {
    const nowhere = await rejected('gemini-json-schema-2026-11', one({ type: 'object', properties: { a: { $ref: '#/$defs/Nope' } } }));
    expect(nowhere.evidence).toMatchObject({ kind: 'report', date: '2025-11-21', unconfirmed: true });
    const beside = await rejected('gemini-json-schema-2026-11', one({ type: 'object', properties: { a: { $ref: '#/$defs/A', type: 'string' } }, $defs: { A: { type: 'string' } } }));
    expect(beside.evidence).toBeUndefined();
  });
});
