/**
 * The linter's vocabulary: what it reports about one server, and the JSON
 * document `npm run lint -- --json` prints (format "schema-breaks/lint",
 * version 1; docs/linting.md, "Exit codes and options", gives the shape).
 */

export const LINT_FORMAT = 'schema-breaks/lint';
/** Bumped when a field changes meaning or goes away. */
export const LINT_FORMAT_VERSION = 1;
/** The document `--config` prints: one lint document per server. */
export const LINT_CONFIG_FORMAT = 'schema-breaks/lint-config';

/**
 * error: a targeted host refuses or drops the tool because of it (or a rule no host judges says so); warning: a
 * targeted host loses something because of it, or the refusal rests on unconfirmed evidence; info: no targeted host
 * is hurt (shown with --show info, never a reason to fail).
 */
export type Severity = 'error' | 'warning' | 'info';

export type { Evidence, EvidenceKind } from '../lab/profiles/shared.js';
import type { Evidence } from '../lab/profiles/shared.js';

/** One problem in one tool (or, in `server.findings`, in the server as a whole). */
export interface Finding {
  /** A rule of src/lint/rules.ts, or of src/contract/rules.ts with --contract. */
  rule: string;
  severity: Severity;
  /** A JSON Pointer into the tool's published definition: "/inputSchema/properties/verb/anyOf", "/name"; "" for the tool or the server as a whole. */
  path: string;
  message: string;
  /** What to change, in one line: in the schema, or in the zod source where the idiom is known (src/lint/advice.ts). */
  advice?: string;
  /**
   * The hosts this finding's cause hurts, from the host matrix (src/lint/hurt.ts): each host that refuses or
   * drops the tool because of it, or loses something at its path. Absent for findings no host judges (names, shapes).
   */
  hurts?: Hurt[];
  /** unused-defs: the bytes of the entries nothing references. */
  bytes?: number;
}

/** One host hurt by one finding's cause. */
export interface Hurt {
  host: string;
  /** refused or dropped: the host fails the tool because of this cause (without it, it would not). lossy: it loses something at the finding's path. */
  verdict: 'refused' | 'dropped' | 'lossy';
  /** In words: the host's error text, or what it loses. */
  what: string;
  /** Set when the host's verdict rests on unconfirmed evidence: then the hurt never makes its finding an error. */
  unconfirmed?: true;
}

/** 'unknown' only when the kit's own profile code fails on a schema (a kit bug, reported as such). */
export type Verdict = 'accepted' | 'lossy' | 'refused' | 'dropped' | 'unknown';

/** What one host does with one tool (or, in `server.hosts`, with the whole tool list in one request). */
export interface HostVerdict {
  verdict: Verdict;
  /** In words: what is lost, or the host's own error text, or "shown as published". */
  detail: string;
  /** lossy: each thing the model is no longer told, or that the host changes on the way. */
  lost?: Loss[];
  /**
   * refused or dropped: 'request' (every tool of the request fails, any server's), 'server' (every tool of this server
   * is discarded) or 'tool' (this tool alone is left out, the server's others are shown: Claude Code 2.1.235).
   */
  takesDown?: 'request' | 'server' | 'tool';
  /** What this verdict rests on (src/lint/evidence.ts). */
  evidence?: Evidence;
}

export interface Loss {
  /** What sort of thing is lost: 'enum', 'union', 'parameter', 'required', 'type', 'const', 'items', 'additionalProperties', 'constraint', 'default', 'description', 'ref', 'keyword', 'name', 'sent'. */
  kind: string;
  /** JSON Pointer into the published tool: "/inputSchema/properties/tense/enum". */
  path: string;
  what: string;
}

export interface ToolReport {
  name: string;
  /** The tool as tools/list sent it: its bytes, and tokens estimated at 4 characters each (src/lint/weight.ts). */
  weight?: { bytes: number; tokens: number };
  findings: Finding[];
  /** By profile id, in the order of PROFILES. */
  hosts: Record<string, HostVerdict>;
}

/** Why a server could not be linted. */
export interface ServerFailure {
  /** 'connect': a server given by URL that could not be reached. */
  kind: 'spawn' | 'connect' | 'exit' | 'timeout' | 'garbage' | 'protocol' | 'unreadable';
  message: string;
}

export interface ServerInfo {
  /** The name it is linted under: the config entry, the variant, or the command. */
  label: string;
  /** How it was started: the command line, `--variant ID`, the saved file read with --from, or the URL of a Streamable HTTP server. */
  target: { command: string; args: string[] } | { variant: string } | { from: string } | { url: string };
  /** From initialize: serverInfo.name and version, and the protocol revision both ends agreed on. */
  name: string | null;
  version: string | null;
  protocolVersion: string | null;
  /** tools/list pages read (1 when the server does not paginate). */
  pages: number;
  /** Milliseconds from the spawn to the last tools/list page. */
  listedInMs: number | null;
  /** Findings about the server as a whole (stdout garbage, a contract operation it does not publish). */
  findings: Finding[];
  /** What each host does with the whole tool list, sent as one request as hosts send it. */
  hosts: Record<string, HostVerdict>;
  /** The hosts the author targets (profile ids): a finding is an error only where one of them refuses or drops. */
  targets?: string[];
  /** Hosts not asked, none of them targeted: their frameworks are not installed (hosts/, npm ci --prefix hosts). */
  notAsked?: string[];
  /** The whole tool list: bytes, and tokens estimated at 4 characters each (src/lint/weight.ts). */
  weight?: { bytes: number; tokens: number };
  error?: ServerFailure;
}

/** One server's lint document, as --json prints it. */
export interface LintReport {
  format: typeof LINT_FORMAT;
  version: typeof LINT_FORMAT_VERSION;
  server: ServerInfo;
  tools: ToolReport[];
  /** The findings of every tool, one per cause: grouped by rule and path across tools (src/lint/causes.ts). */
  causes?: Cause[];
  /** With --fix-schema: the rewritten list's file, each change, and the hosts on the whole list before and after (src/lint/fix.ts). */
  fix?: {
    file: string;
    /** narrows: a value the original accepted may be refused after (`what` says which, "narrows: ..."). */
    changes: { tool: string; rule: string; path: string; what: string; narrows?: true }[];
    causesAfter: number;
    hosts: Record<string, { before: Verdict; after: Verdict; detail: string }>;
  };
}

/** One cause: the same rule at the same path in one tool or many. */
export interface Cause {
  rule: string;
  /** The worst of its findings'. */
  severity: Severity;
  path: string;
  /** The first tool's message; for unused-defs across tools, the bytes repeated in all. */
  message: string;
  advice: string;
  /** The tools it is found in, in list order; ["(server)"] for the server's own. */
  tools: string[];
  /** Every host hurt in any of those tools (once per host, its worst verdict). */
  hurts: Hurt[];
  bytes?: number;
}

/** What --config prints: every server of the file, and the entries that were not linted. */
export interface LintConfigReport {
  format: typeof LINT_CONFIG_FORMAT;
  version: typeof LINT_FORMAT_VERSION;
  config: string;
  servers: LintReport[];
  skipped: { name: string; reason: string }[];
}

/** A published tool as tools/list gives it: anything, since the linter must read what nobody validated. */
export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: unknown;
  [key: string]: unknown;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** RFC 6901 escaping of one pointer segment. */
export function segment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
