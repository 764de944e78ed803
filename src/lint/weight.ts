/**
 * The weight of a tools/list: what a host puts in the model's context for
 * every request, before the conversation starts. Bytes are the tool as the
 * server sent it, serialized as the MCP SDK sends it (JSON.stringify, no
 * spaces); tokens are estimated at 4 characters per token, OpenAI's rule of
 * thumb for English text ("What are tokens and how to count them",
 * https://help.openai.com/en/articles/4936856). It is an estimate: JSON's
 * punctuation tokenizes more densely than prose, so the real count is higher,
 * not lower, and no tokenizer of a host is run here.
 *
 * The warning threshold: a tenth of a 128,000-token window (OpenAI's stated
 * request limit in the same article), 12,800 tokens. A tenth is the share at
 * which Claude Code stops sending MCP tool definitions up front and defers
 * them to a search tool (its tool search, ENABLE_TOOL_SEARCH=auto, default
 * 10% of the context window as third-party write-ups report it; docs/sources.md,
 * "The linter", says which and what Anthropic's own pages say): past it, a host
 * that does not defer spends that share of every request on this server.
 */
import type { Finding } from './types.js';

export const CHARS_PER_TOKEN = 4;
export const CONTEXT_WINDOW = 128_000;
export const WEIGHT_THRESHOLD_TOKENS = CONTEXT_WINDOW / 10;

export interface Weight {
  bytes: number;
  /** Estimated: characters / 4, rounded up. */
  tokens: number;
}

export function weightOf(value: unknown): Weight {
  const text = JSON.stringify(value) ?? '';
  return { bytes: Buffer.byteLength(text), tokens: Math.ceil(text.length / CHARS_PER_TOKEN) };
}

/** The whole list's weight: the tools array as tools/list's result carries it. */
export function listWeight(tools: unknown[]): Weight {
  return weightOf(tools);
}

export function weightFinding(weight: Weight, toolCount: number): Finding | null {
  if (weight.tokens <= WEIGHT_THRESHOLD_TOKENS) return null;
  return {
    rule: 'list-weight',
    severity: 'warning',
    path: '',
    message:
      `tools/list weighs ${weight.bytes} bytes, about ${weight.tokens} tokens (4 characters a token) for ${toolCount} tools: more than ${WEIGHT_THRESHOLD_TOKENS} tokens, a tenth of a 128,000-token window, ` +
      'the share past which Claude Code defers MCP tool definitions to its tool search; a host that sends them all spends that on every request',
  };
}
