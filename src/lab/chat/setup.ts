/**
 * What `--model openai` asks for, turned into each run's model: one endpoint
 * shared by every run of a lab (so the concurrency limit holds for all of
 * them together), wrapped per run in a recording (`--record DIR`), or
 * replaced per run by a transcript (`--replay DIR`).
 */
import { statSync } from 'node:fs';
import { ChatEndpoint, checkReachable, EndpointUnusable, normaliseBaseUrl, type ChatTransport } from './endpoint.js';
import { RecordingTransport, ReplayTransport, transcriptFile } from './transcript.js';
import type { ChatModel } from './agent.js';

export interface ChatSetup {
  /** Where the model is; not needed to replay. */
  baseUrl?: string;
  /** The model's name at the endpoint (`--model-name`); a replay takes the recorded one. */
  modelName?: string;
  /** Read from the environment variable `--api-key-env` names; never printed or written. */
  apiKey?: string;
  concurrency: number;
  timeoutMs: number;
  /** The first pause before retrying a 429 or 5xx (tests make it short). */
  backoffMs?: number;
  /** 429 and 5xx answers retried per request. */
  maxRetries?: number;
  record?: string;
  replay?: string;
}

/** The run a transcript belongs to. */
export interface RunIdentity {
  variant: string;
  client: string;
  server: string;
  seed: number;
  workload: string;
  readOnly: boolean;
}

/** Checked before any server starts: a URL where nothing answers fails in seconds (a replay needs no network). */
export async function prepareChat(setup: ChatSetup): Promise<void> {
  if (setup.replay) {
    if (!statSync(setup.replay, { throwIfNoEntry: false })?.isDirectory()) throw new EndpointUnusable(`--replay: no such folder ${setup.replay} (make one with --record)`);
    return;
  }
  await checkReachable(normaliseBaseUrl(setup.baseUrl!), setup.apiKey);
}

/** Makes each run's model from one setup. */
export function chatModels(setup: ChatSetup, temperature: number): (run: RunIdentity) => ChatModel & { concurrency: number } {
  const endpoint = setup.replay ? undefined : new ChatEndpoint({ baseUrl: setup.baseUrl!, apiKey: setup.apiKey, concurrency: setup.concurrency, timeoutMs: setup.timeoutMs, backoffMs: setup.backoffMs, maxRetries: setup.maxRetries });
  return (run) => {
    let transport: ChatTransport;
    let name = setup.modelName ?? '';
    if (setup.replay) {
      const replay = new ReplayTransport(transcriptFile(setup.replay, run));
      transport = replay;
      name = replay.model;
    } else {
      transport = setup.record ? new RecordingTransport(endpoint!, transcriptFile(setup.record, run), { run: transcriptFile('', run).slice(0, -'.jsonl'.length), model: name, baseUrl: endpoint!.baseUrl }) : endpoint!;
    }
    return { transport, name, temperature, maxTurns: 10, concurrency: setup.concurrency };
  };
}
