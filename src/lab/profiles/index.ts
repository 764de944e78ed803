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
import { geminiJsonSchema202611, geminiParameters202609 } from './gemini-api-2026.js';
import { geminiCli202506 } from './gemini-cli-2025-06.js';
import { geminiCli202511 } from './gemini-cli-2025-11.js';
import { gooseGoogle } from './goose-google.js';
import { langchainMcp } from './langchain-mcp.js';
import { langflow } from './langflow.js';
import { mastraGoogle202512 } from './mastra.js';
import { openAiAgents202510 } from './openai-agents.js';
import { openAiFunctions202611 } from './openai-functions.js';
import { openAiStrict } from './openai-strict.js';
import type { ClientProfile } from './shared.js';
import { vscodeCopilot202601 } from './vscode-copilot.js';

export type { ClientProfile } from './shared.js';

export const PROFILES: readonly ClientProfile[] = [
  faithful, continueGemini, gooseGoogle, geminiCli202506, geminiCli202511, openAiStrict, claudeCode202507, claudeCode202608, langflow,
  openAiAgents202510, mastraGoogle202512, langchainMcp, aiSdkGoogle,
  openAiFunctions202611, geminiParameters202609, geminiJsonSchema202611, vscodeCopilot202601,
];

export const PROFILE_IDS: readonly string[] = PROFILES.map((p) => p.id);

/**
 * Today's hosts: the host versions released on or after TODAY_SINCE, the 14
 * months before the kit's date (2026-12). Fourteen, not twelve, so that the
 * oldest TypeScript framework the labs gained in issue 21 (@openai/agents-core
 * 0.2.1, 2025-10-25) still counts: a server author's users run framework
 * versions their lockfiles pinned a year ago. The rest, with `faithful` (the
 * labs' control, no host), are the historic hosts the labs were built on. The
 * sets are computed from each profile's `released`, never listed by hand.
 * `openai-strict` is historic by its date (2024-08) and opt-in anyway: a host
 * sends strict tools only where it chooses to (openai-agents.ts).
 */
export const TODAY_SINCE = '2025-10-01';

export function isTodays(profile: ClientProfile): boolean {
  return profile.released !== undefined && profile.released >= TODAY_SINCE;
}

/**
 * Today's hosts are what a server ships to (IDEs, CLIs, frameworks); today's API fields (a profile with `apiField`)
 * are the path of an app that passes schemas through unchanged, judged only when asked (issue 33: Gemini's
 * `parameters` refused every tool of every zod server for its `$schema`, in the default set, though no host sends it).
 */
export const TODAYS_HOSTS: readonly string[] = PROFILES.filter((p) => isTodays(p) && !p.apiField).map((p) => p.id);
export const TODAYS_API_FIELDS: readonly string[] = PROFILES.filter((p) => isTodays(p) && p.apiField).map((p) => p.id);
export const HISTORIC_HOSTS: readonly string[] = PROFILES.filter((p) => !isTodays(p)).map((p) => p.id);

export function getProfile(id: string): ClientProfile | undefined {
  return PROFILES.find((p) => p.id === id);
}
