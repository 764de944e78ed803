/**
 * Client profiles: how a real host, at one date, presents a server's published
 * tool schemas to its model, and what it checks before it sends the model's
 * arguments. One file per host; shared.ts describes the shape, and every
 * behaviour cites its primary source next to its code.
 */
import { aiSdkGoogle } from './ai-sdk-google.js';
import { claudeCode202507 } from './claude-code-2025-07.js';
import { claudeCode202608 } from './claude-code-2026-08.js';
import { continueGemini } from './continue-gemini.js';
import { faithful } from './faithful.js';
import { geminiCli202506 } from './gemini-cli-2025-06.js';
import { geminiCli202511 } from './gemini-cli-2025-11.js';
import { gooseGoogle } from './goose-google.js';
import { langchainMcp } from './langchain-mcp.js';
import { langflow } from './langflow.js';
import { mastraGoogle202512 } from './mastra.js';
import { openAiAgents202510 } from './openai-agents.js';
import { openAiStrict } from './openai-strict.js';
import type { ClientProfile } from './shared.js';

export type { ClientProfile } from './shared.js';

export const PROFILES: readonly ClientProfile[] = [faithful, continueGemini, gooseGoogle, geminiCli202506, geminiCli202511, openAiStrict, claudeCode202507, claudeCode202608, langflow, openAiAgents202510, mastraGoogle202512, langchainMcp, aiSdkGoogle];

export const PROFILE_IDS: readonly string[] = PROFILES.map((p) => p.id);

export function getProfile(id: string): ClientProfile | undefined {
  return PROFILES.find((p) => p.id === id);
}
