/**
 * What the linter lints: a command line, a Streamable HTTP server's URL,
 * every server of an `mcpServers` config file, or a tools/list result saved
 * earlier (--from).
 *
 * Config files, as the hosts write them (docs/sources.md, "The linter"):
 * Claude Desktop's claude_desktop_config.json, Cursor's .cursor/mcp.json and
 * Claude Code's .mcp.json keep servers under "mcpServers"; VS Code's
 * .vscode/mcp.json under "servers". A stdio entry has "command", optional
 * "args", "env" and "cwd"; a remote one "url" and optional "headers".
 * Comments and trailing commas (VS Code's JSONC) are allowed. Entries of the
 * older HTTP+SSE transport ("type": "sse") are listed as skipped. In "url"
 * and "headers", ${VAR}, ${VAR:-default} (Claude Code) and ${env:VAR}
 * (VS Code, Cursor) are read from the environment; elsewhere variables such
 * as ${input:...} or ${workspaceFolder} are passed on unexpanded.
 *
 * Paths: the command runs where the user typed it (src/core/cwd.ts), and
 * every file SARIF points at is relative to that folder, the root of the
 * repository in a CI job.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { refuseNpmBanner } from '../core/npm-banner.js';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { forUser, fromUser, typedIn } from '../core/cwd.js';
import { UserError } from '../core/user-error.js';
import type { HttpSpec, ServerSpec } from './server.js';
import { isObject, type ServerInfo } from './types.js';

/** A file a finding can point at in SARIF (GitHub's code scanning shows only results with one). */
export interface SourceFile {
  /** Relative to the folder the command was typed in, with "/". */
  uri: string;
  line?: number;
}

export type Target =
  | { kind: 'spawn'; spec: ServerSpec; shown: ServerInfo['target']; source?: SourceFile }
  | { kind: 'http'; spec: HttpSpec; shown: ServerInfo['target']; source?: SourceFile }
  | { kind: 'from'; label: string; file: string; source?: SourceFile };

/** A path relative to the folder the command was typed in, when it is a file under it. */
function underCwd(path: string, cwd = typedIn()): string | undefined {
  const full = resolve(cwd, path);
  const rel = relative(cwd, full);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  try {
    return statSync(full).isFile() ? rel.split('\\').join('/') : undefined;
  } catch {
    return undefined;
  }
}

/** The server's own script, when its command line names one under the current folder ("node dist/index.js"). */
function scriptOf(command: string, args: string[], cwd?: string): SourceFile | undefined {
  for (const part of [command, ...args]) {
    if (part.startsWith('-')) continue;
    const file = underCwd(cwd ? resolve(cwd, part) : part);
    if (file && /\.(c|m)?(j|t)s$|\.py$/.test(file)) return { uri: file };
  }
  return undefined;
}

/** A command line to start, in the folder it was typed in ("node server.js" means the server.js there). */
export function commandTarget(command: string, args: string[]): Target {
  const label = [command, ...args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ');
  const source = scriptOf(command, args);
  return { kind: 'spawn', spec: { label: label.length > 80 ? `${label.slice(0, 77)}...` : label, command, args, cwd: typedIn() }, shown: { command, args }, ...(source ? { source } : {}) };
}

/** A Streamable HTTP server given by its URL (--url). */
export function urlTarget(url: string, headers?: Record<string, string>): Target {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new UserError(`--url takes an http:// or https:// URL, not "${url}"`);
  return { kind: 'http', spec: { label: url, url, ...(headers ? { headers } : {}) }, shown: { url } };
}

/** JSONC to JSON: comments and trailing commas out, strings untouched. */
export function stripJsonc(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const comment = text.slice(i, end === -1 ? text.length : end + 2);
      out += comment.replace(/[^\n]/g, ' ');
      i = end === -1 ? text.length : end + 1;
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

function readJson(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UserError(`cannot read the ${what} ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  // `npm run lint -- --tools > tools.json` keeps npm's own lines in front (src/core/npm-banner.ts).
  refuseNpmBanner(text, forUser(file), 'en');
  try {
    return JSON.parse(stripJsonc(text));
  } catch (error) {
    throw new UserError(`the ${what} ${file} is not JSON: ${(error as Error).message}`);
  }
}

/** The line of `"name":` under the servers object, for SARIF. */
function lineOf(text: string, name: string): number | undefined {
  const at = text.search(new RegExp(`${JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`));
  return at === -1 ? undefined : text.slice(0, at).split('\n').length;
}

/**
 * The keys each format documents for one server (docs/sources.md, "Config files"): Claude Desktop, Cursor and
 * Claude Code under "mcpServers" (https://code.claude.com/docs/en/mcp, https://cursor.com/docs/mcp), VS Code
 * under "servers" (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration); "disabled" is
 * Cline's and Roo Code's. A key outside them is named only when the entry cannot be started without it.
 */
const KNOWN_KEYS: Record<'mcpServers' | 'servers', readonly string[]> = {
  mcpServers: ['command', 'args', 'env', 'cwd', 'envFile', 'type', 'url', 'headers', 'disabled'],
  servers: ['type', 'command', 'args', 'env', 'envFile', 'cwd', 'url', 'headers', 'disabled'],
};
/** "type" values: stdio; Streamable HTTP ("http" in Claude Code and VS Code, "streamable-http" in Cursor and Cline); the older HTTP+SSE. */
const STDIO_TYPES = ['stdio'];
const HTTP_TYPES = ['http', 'streamable-http', 'streamableHttp'];
const SSE_TYPES = ['sse'];

/** Levenshtein distance, for "did you mean": two rows of the classic table (keys are short). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

/** The known key closest to `key`, when it is close enough to be a typo (at most a third of its letters differ). */
export function nearest(key: string, known: readonly string[]): string | undefined {
  const [best] = known.map((k) => ({ k, d: distance(key, k) })).sort((x, y) => x.d - y.d);
  return best && best.d <= Math.max(1, Math.floor(key.length / 3)) ? best.k : undefined;
}

/** ${VAR}, ${VAR:-default} (Claude Code) and ${env:VAR} (VS Code, Cursor), read from the environment; throws on one that is not set. */
export function expandVariables(value: string, where: string): string {
  return value.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
    const m = /^(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(inner);
    if (!m) throw new UserError(`${where} uses ${whole}, which only the host can fill in; give the value through an environment variable instead: \${NAME}`);
    const set = process.env[m[1]!];
    if (set !== undefined && set !== '') return set;
    if (m[2] !== undefined) return m[2];
    throw new UserError(`${where} uses ${whole}, and ${m[1]} is not set in the environment`);
  });
}

/** Why an entry cannot be started as written, or undefined when it can. */
function unstartable(entry: Record<string, unknown>, known: readonly string[]): string | undefined {
  const unknown = Object.keys(entry).filter((k) => !known.includes(k));
  const named = unknown.map((k) => {
    const near = nearest(k, known);
    return `"${k}"${near ? ` (did you mean "${near}"?)` : ''}`;
  });
  const keys = named.length > 0 ? `; unknown key${named.length === 1 ? '' : 's'} ${named.join(', ')}` : '';
  const type = typeof entry.type === 'string' ? entry.type : undefined;
  if (entry.type !== undefined && (type === undefined || ![...STDIO_TYPES, ...HTTP_TYPES, ...SSE_TYPES].includes(type)))
    return `"type" is ${JSON.stringify(entry.type)}, not "stdio", "http" or "sse"${keys}`;
  if (entry.command === undefined && entry.url === undefined) return `no "command" (stdio) or "url" (Streamable HTTP)${keys}`;
  if (entry.command !== undefined && (typeof entry.command !== 'string' || entry.command === '')) return `"command" must be a non-empty string${keys}`;
  if (entry.url !== undefined && typeof entry.url !== 'string') return `"url" must be a string${keys}`;
  if (entry.args !== undefined && !(Array.isArray(entry.args) && entry.args.every((a) => typeof a === 'string' || typeof a === 'number')))
    return `"args" must be a list of strings${keys}`;
  for (const key of ['env', 'headers'])
    if (entry[key] !== undefined && !(isObject(entry[key]) && Object.values(entry[key]).every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))))
      return `"${key}" must be an object of strings${keys}`;
  return undefined;
}

/** The servers of a config file, in its order (or only `only`), and what was skipped; exit 2 for an entry that cannot be started as written. */
export function configTargets(file: string, only?: string): { targets: Target[]; skipped: { name: string; reason: string }[] } {
  const document = readJson(file, 'config');
  file = forUser(file);
  const key = isObject(document) && isObject(document.mcpServers) ? 'mcpServers' : isObject(document) && isObject(document.servers) ? 'servers' : undefined;
  if (!key) throw new UserError(`the config ${file} has no "mcpServers" object (Claude Desktop, Cursor, Claude Code) or "servers" object (VS Code)`);
  const servers = (document as Record<string, Record<string, unknown>>)[key]!;
  if (only !== undefined && !Object.hasOwn(servers, only)) throw new UserError(`the config ${file} has no server "${only}"; it has: ${Object.keys(servers).join(', ') || 'none'}`);
  const text = readFileSync(fromUser(file), 'utf8');
  const uri = underCwd(fromUser(file));
  const targets: Target[] = [];
  const skipped: { name: string; reason: string }[] = [];
  const broken: string[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    if (only !== undefined && name !== only) continue;
    if (!isObject(entry)) {
      broken.push(`"${name}" is not an object`);
      continue;
    }
    if (entry.disabled === true) {
      skipped.push({ name, reason: 'disabled in the config' });
      continue;
    }
    const why = unstartable(entry, KNOWN_KEYS[key]);
    if (why) {
      broken.push(`"${name}": ${why}`);
      continue;
    }
    const line = lineOf(text, name);
    const inConfig = uri ? { uri, ...(line ? { line } : {}) } : undefined;
    const type = typeof entry.type === 'string' ? entry.type : undefined;
    if ((type !== undefined && SSE_TYPES.includes(type)) || (typeof entry.url === 'string' && type !== undefined && !HTTP_TYPES.includes(type))) {
      skipped.push({ name, reason: `not a stdio or Streamable HTTP server (${type}): the linter does not speak the older HTTP+SSE transport` });
      continue;
    }
    if (typeof entry.url === 'string' && entry.command === undefined) {
      const url = expandVariables(entry.url, `the config ${file}: "${name}".url`);
      const headers = isObject(entry.headers)
        ? Object.fromEntries(Object.entries(entry.headers).filter(([, v]) => v !== null).map(([k, v]) => [k, expandVariables(String(v), `the config ${file}: "${name}".headers.${k}`)]))
        : undefined;
      if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new UserError(`the config ${file}: "${name}".url is not an http:// or https:// URL: "${url}"`);
      targets.push({ kind: 'http', spec: { label: name, url, ...(headers ? { headers } : {}) }, shown: { url }, ...(inConfig ? { source: inConfig } : {}) });
      continue;
    }
    const command = entry.command as string;
    const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
    const env = isObject(entry.env) ? Object.fromEntries(Object.entries(entry.env).filter(([, v]) => v !== null).map(([k, v]) => [k, String(v)])) : undefined;
    // Without "cwd" the server starts where the linter was started, as Claude Code starts a project's servers in it.
    const cwd = typeof entry.cwd === 'string' ? resolve(dirname(fromUser(file)), entry.cwd) : typedIn();
    // SARIF's place when no tracked file names the tool (src/lint/sarif.ts): the server's line in the config, else
    // the server's own script when the command names one, else the config file.
    const source = (inConfig?.line ? inConfig : undefined) ?? scriptOf(command, args, cwd) ?? inConfig;
    targets.push({
      kind: 'spawn',
      spec: { label: name, command, args, ...(env ? { env } : {}), cwd },
      shown: { command, args },
      ...(source ? { source } : {}),
    });
  }
  if (broken.length > 0)
    throw new UserError(
      `the config ${file} has ${broken.length === 1 ? 'a server' : `${broken.length} servers`} that cannot be started as written: ${broken.join('; ')}`,
      2,
      `the keys of a server under "${key}": ${KNOWN_KEYS[key].join(', ')}`,
    );
  return { targets, skipped };
}

/** A saved tools/list: the result ({"tools": [...]}), a JSON-RPC response holding one, or a bare list of tools. */
export function savedTools(file: string): unknown[] {
  const document = readJson(file, 'saved tools/list');
  const result = isObject(document) && isObject(document.result) ? document.result : document;
  if (Array.isArray(result)) return result;
  if (isObject(result) && Array.isArray(result.tools)) return result.tools;
  throw new UserError(`${file} holds no tools/list result: expected {"tools": [...]}, a JSON-RPC response with one, or a list of tools`);
}

export function fromTarget(file: string): Target {
  if (!existsSync(file)) throw new UserError(`cannot read the saved tools/list ${file}: no such file`);
  const uri = underCwd(file);
  return { kind: 'from', label: basename(file), file, ...(uri ? { source: { uri } } : {}) };
}
