/**
 * What every client profile shares: the `ClientProfile` shape and small
 * helpers on published tools and JSON values.
 *
 * A profile sees only what a real client sees: the tool list as `tools/list`
 * returned it. `present` either refuses the whole request (the host's own
 * error text, before anything runs) or returns the tools as the model is shown
 * them, degraded where the host degrades them. `validate` is the host's own
 * check of the model's arguments for one tool, before anything is sent.
 *
 * Every behaviour cites its primary source next to the code that models it
 * (an issue as owner/repo#number, a file at a commit, a documentation page).
 * Where a wording or a rule is modelled rather than quoted from a source, the
 * comment and the profile's `notes` say so.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchema, SeenTool } from '../types.js';
import { detectLang } from '../../core/lang.js';
import { t } from '../../core/messages/index.js';
import { UserError } from '../../core/user-error.js';

/**
 * What a host verdict rests on (issue 33, "provenance on every verdict"): the host's own package run by the profile,
 * its code read at a commit, the vendor's documentation, an issue report, or the kit's assumption; and the date of
 * that evidence (YYYY-MM-DD).
 */
export type EvidenceKind = 'package' | 'code' | 'docs' | 'report' | 'assumed';
export interface Evidence {
  kind: EvidenceKind;
  date: string;
  /** Where, in a few words: "@mastra/core 0.24.6 run", "vercel/ai#18652". */
  source: string;
  /** Assumed, or dated before the host version it is applied to (and not the package itself): never an error on that ground alone. */
  unconfirmed?: true;
}

/** What every profile has; ClientProfile below says which have a release and evidence. */
interface ProfileCommon {
  /** 'faithful' | 'continue-gemini-2025-02' | 'goose-google-2025-02' | 'gemini-cli-2025-06' | 'gemini-cli-2025-11' | 'openai-strict' | 'claude-code-2025-07' | 'claude-code-2026-08' | 'langflow' | 'openai-agents-2025-10' | 'mastra-google-2025-12' | 'langchain-mcp-2026-01' | 'ai-sdk-google-2026-11' */
  id: string;
  title: string; // one line for the terminal
  /** The one host version and date the profile models, e.g. 'gemini-cli v0.17.0, 2025-11-20'; 'n/a' for faithful. */
  asOf: string;
  sources: string[];
  notes?: string;
  /**
   * Set for a model API's own field rather than a host (Gemini's `parameters` and `parametersJsonSchema`, OpenAI
   * function calling): what an app meets that passes MCP schemas through unchanged, in words for the matrix. The
   * linter judges these only when asked (`--hosts api`, or by id): a server ships to hosts (issue 33).
   */
  apiField?: string;
  /**
   * Whether the host's MCP client checks a result against the tool's published outputSchema (MCP 2025-06-18: clients
   * SHOULD). Absent: it does, as the MCP TypeScript SDK's `Client.callTool`, which the kit's runner calls through (a
   * result without `structuredContent` is refused with McpError -32600, one that does not validate with -32602; the
   * hosts of the other profiles are taken to check as it does). `false`: the host's own client never reads the
   * published outputSchema; its model gets the result's text whatever `structuredContent` says.
   */
  checksOutputSchema?: false;
  /**
   * The host presents the published tools: a rejection (the host's text, and what it takes down), or what the model sees.
   * Pure; never mutates its input. May be async: a profile that runs a host's own published code (a framework's
   * schema conversion, loaded on first use) answers with a promise, and every caller awaits it.
   */
  present(tools: Pick<Tool, 'name' | 'description' | 'inputSchema'>[]): Presented | Promise<Presented>;
  /** The host's own check of the model's arguments for one seen tool, before sending: `ok` when it passes, else the error text the host gives the model. May also return `{ args }` rewritten (e.g. Pydantic dropping unknown keys). May be async, as `present`. */
  validate(tool: SeenTool, args: Record<string, unknown>): Checked | Promise<Checked>;
  /**
   * Imports the host's published code ahead of its first use (onFirstUse below), for a caller that has time to
   * spare before it asks (the linter, while the server it lints starts: src/lint/hosts.ts loadHosts). Absent where
   * the profile is the kit's own code.
   */
  load?(): Promise<unknown>;
}

/** A real host at one version: a profile that says when and on what grounds, so a new one cannot leave them out. */
export interface HostProfile extends ProfileCommon {
  /**
   * The day the modelled host version was released (YYYY-MM-DD), the date `asOf` names. Read by TODAYS_HOSTS
   * (index.ts): whether the linter judges this host by default.
   */
  released: string;
  /**
   * What the profile's verdicts rest on, unless a rejection names its own (`Presented`'s `evidence`): the host's
   * package run, its code read at a commit, the vendor's documentation, an issue report, or assumed (issue 33).
   */
  evidence: Evidence;
}

/** `faithful`, the labs' control: it models no host, so it has no release and no evidence. */
export interface ReferenceProfile extends ProfileCommon {
  released?: undefined;
  evidence?: undefined;
}

export type ClientProfile = HostProfile | ReferenceProfile;

export type PublishedTool = Pick<Tool, 'name' | 'description' | 'inputSchema'>;
/**
 * What a rejection takes down with it. The labs read only `rejected`; the
 * linter's host matrix (src/lint/hosts.ts) reads this too, to tell a refusal
 * from a drop:
 *  - 'request': the model's API answers the whole request with an error, so
 *    every tool in it fails, this server's and any other's (a 400);
 *  - 'server': the host's own MCP client discards every tool of this server,
 *    with a log line at most; the host goes on without them.
 */
export type Lost = 'request' | 'server';
/**
 * What the model is shown. `skipped` names the tools a host left out on their
 * own while showing the rest (Claude Code 2.1.235 skips a tool with a top-level
 * union), each with the host's own log text; the labs see only that the tool is
 * not there, the linter reads the reason.
 */
export type Shown = { tools: SeenTool[]; skipped?: { name: string; reason: string }[] };
/** A rejection may name its own evidence where it rests on other grounds than the profile's (an older report, an assumption). */
export type Presented = { rejected: string; lost: Lost; evidence?: Evidence } | Shown;

/**
 * A host's published code, imported the first time the profile needs it and kept for the process. The packages
 * are bundled apart from the kit's command bundles (PROFILE_PACKAGES, src/core/bundler.mjs): a run on another host
 * never loads them. They are installed apart too (hosts/, `npm ci --prefix hosts`): where they are not, the
 * import fails as Node's does for a package it cannot find, and the command says in one line what to install.
 */
export function onFirstUse<T>(host: string, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      throw hostsMissing(host, error) ?? error;
    }));
}

/** Node's error for a package it cannot find (and the bundles' stand-in for one: src/core/bundler.mjs missingHost), as a user error naming the install. */
function hostsMissing(host: string, error: unknown): UserError | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  const name = /Cannot find (?:package|module) '([^']+)'/.exec(String(message))?.[1] ?? 'a host framework';
  return new UserError(t('common.hostsMissing', detectLang(), { host, package: name }));
}

/** The model's API refuses the whole request (`lost: 'request'`); `evidence` where it rests on other grounds than the profile's. */
export function refusedRequest(rejected: string, evidence?: Evidence): Presented {
  return evidence ? { rejected, lost: 'request', evidence } : { rejected, lost: 'request' };
}

/** The host's MCP client drops every tool of this server (`lost: 'server'`); `evidence` as for refusedRequest. */
export function droppedServer(rejected: string, evidence?: Evidence): Presented {
  return evidence ? { rejected, lost: 'server', evidence } : { rejected, lost: 'server' };
}
export type Checked = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

/** How many shown tools keptForShown finds by shape (the copies' lookup), the latest kept. */
const KEPT_SHAPES = 4096;

/**
 * What a profile's `present` keeps of each tool it showed, for its `validate`: a host checks a call with the tool it
 * built from the published schema, which the shown one may not say back (Mastra's CoreTool; @ai-sdk/google shows a
 * numeric enum as strings). Found by the very object `present` returned, else by name and shown schema (a caller
 * that copied it).
 */
export function keptForShown<T>(): { keep(seen: SeenTool, value: T): void; find(seen: SeenTool): T | undefined } {
  const byObject = new WeakMap<SeenTool, T>();
  const byShape = new Map<string, T>();
  const shape = (tool: SeenTool) => `${tool.name}\u0000${JSON.stringify(tool.inputSchema)}`;
  return {
    keep(seen, value) {
      byObject.set(seen, value);
      // The copies' lookup keeps the latest tools only: a linter run over many servers presents thousands.
      if (byShape.size >= KEPT_SHAPES) byShape.delete(byShape.keys().next().value!);
      byShape.set(shape(seen), value);
    },
    find: (seen) => byObject.get(seen) ?? byShape.get(shape(seen)),
  };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A string's length in code points, as the model APIs count a name or a description (pydantic's str, OpenAI's length). */
export function codePoints(s: string): number {
  return [...s].length;
}

/** A deep copy: every profile works on copies, so `present` never mutates what it was given. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}

export function schemaOf(tool: PublishedTool): JsonSchema {
  return tool.inputSchema as JsonSchema;
}

export function seenTool(tool: PublishedTool, inputSchema: JsonSchema): SeenTool {
  return tool.description === undefined ? { name: tool.name, inputSchema } : { name: tool.name, description: tool.description, inputSchema };
}

export function passThrough(args: Record<string, unknown>): Checked {
  return { ok: true, args };
}

/** The schema of a tool shown with no parameters (a declaration sent without `parameters`). */
export function noParameters(): JsonSchema {
  return { type: 'object', properties: {} };
}
