/**
 * What the linter lints: a command line, every stdio server of an
 * `mcpServers` config file, or a tools/list result saved earlier (--from).
 *
 * Config files, as the hosts write them (docs/sources.md, "The linter"):
 * Claude Desktop's claude_desktop_config.json, Cursor's .cursor/mcp.json and
 * Claude Code's .mcp.json keep servers under "mcpServers"; VS Code's
 * .vscode/mcp.json under "servers" (with "type": "stdio"). Each stdio entry
 * has "command", optional "args", "env" and "cwd". Comments and trailing
 * commas (VS Code's JSONC) are allowed. Entries with a "url" (HTTP, SSE) are
 * listed as skipped: the linter speaks stdio only. Variables such as
 * ${input:...} or ${workspaceFolder} are passed on unexpanded.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { UserError } from '../core/user-error.js';
import type { ServerSpec } from './server.js';
import { isObject, type ServerInfo } from './types.js';

/** A file a finding can point at in SARIF (GitHub's code scanning shows only results with one). */
export interface SourceFile {
  /** Relative to the current folder, with "/". */
  uri: string;
  line?: number;
}

export type Target =
  | { kind: 'spawn'; spec: ServerSpec; shown: ServerInfo['target']; source?: SourceFile }
  | { kind: 'from'; label: string; file: string; source?: SourceFile };

/** A path relative to the current folder, when it is a file under it. */
function underCwd(path: string, cwd = process.cwd()): string | undefined {
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

/** A command line to start. */
export function commandTarget(command: string, args: string[]): Target {
  const label = [command, ...args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ');
  return { kind: 'spawn', spec: { label: label.length > 80 ? `${label.slice(0, 77)}...` : label, command, args }, shown: { command, args }, source: scriptOf(command, args) };
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

/** The stdio servers of a config file, in its order (or only `only`), and what was skipped. */
export function configTargets(file: string, only?: string): { targets: Target[]; skipped: { name: string; reason: string }[] } {
  const document = readJson(file, 'config');
  const key = isObject(document) && isObject(document.mcpServers) ? 'mcpServers' : isObject(document) && isObject(document.servers) ? 'servers' : undefined;
  if (!key) throw new UserError(`the config ${file} has no "mcpServers" object (Claude Desktop, Cursor, Claude Code) or "servers" object (VS Code)`);
  const servers = (document as Record<string, Record<string, unknown>>)[key]!;
  if (only !== undefined && !Object.hasOwn(servers, only)) throw new UserError(`the config ${file} has no server "${only}"; it has: ${Object.keys(servers).join(', ') || 'none'}`);
  const text = readFileSync(file, 'utf8');
  const uri = underCwd(file);
  const targets: Target[] = [];
  const skipped: { name: string; reason: string }[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    if (only !== undefined && name !== only) continue;
    if (!isObject(entry)) {
      skipped.push({ name, reason: 'not an object' });
      continue;
    }
    if (entry.disabled === true) {
      skipped.push({ name, reason: 'disabled in the config' });
      continue;
    }
    if (typeof entry.url === 'string' || (typeof entry.type === 'string' && entry.type !== 'stdio')) {
      skipped.push({ name, reason: `not a stdio server (${typeof entry.type === 'string' ? entry.type : 'url'}): the linter starts stdio servers only` });
      continue;
    }
    if (typeof entry.command !== 'string' || entry.command === '') {
      skipped.push({ name, reason: 'no "command"' });
      continue;
    }
    const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
    const env = isObject(entry.env) ? Object.fromEntries(Object.entries(entry.env).filter(([, v]) => v !== null).map(([k, v]) => [k, String(v)])) : undefined;
    const cwd = typeof entry.cwd === 'string' ? resolve(dirname(file), entry.cwd) : undefined;
    const line = lineOf(text, name);
    targets.push({
      kind: 'spawn',
      spec: { label: name, command: entry.command, args, ...(env ? { env } : {}), ...(cwd ? { cwd } : {}) },
      shown: { command: entry.command, args },
      source: uri ? { uri, ...(line ? { line } : {}) } : scriptOf(entry.command, args, cwd),
    });
  }
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
