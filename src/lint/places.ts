/**
 * Where a name is written in the author's repository, for SARIF
 * (src/lint/sarif.ts): the file and line, among the files git tracks in the
 * repository that holds the folder the command was typed in, where a tool's
 * name (or the server's) is written as a string: "search", 'search' or
 * `search`. A code-scanning page shows a result on a file of the repository
 * at a line ("SARIF support for code scanning", region.startLine:
 * https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning);
 * the server the linter started is often built (dist/, untracked) or comes
 * from npm, so its own script is no place to point at (issue 33).
 *
 * Of the places a name is written, the one chosen is, in order: in a source
 * file before any other text file, a test, a document or a generated file;
 * where the string defines a name (`name: "search"`, `"name": "search"`,
 * `name="search"`, or the first argument of a call: `server.tool("search",
 * ...)`, `registerTool('search', ...)`) before a mention (a description
 * that says "call `search` first", a client's `callTool({ name: "search" })`);
 * then in a file named for it (src/tools/search.ts); then the first file in
 * git's order, the first line. Each file is read once per run, every name looked for in it at
 * once; big and binary files are skipped, and the reading stops once every
 * name has a place in a class of files, or at a byte budget.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Place {
  /** Relative to the repository's top, with "/". */
  uri: string;
  line: number;
}

export interface TrackedPlaces {
  /** The top of the git repository that holds the folder; absent when none does (or git is not installed). */
  root?: string;
  /** Where each name found is written. */
  places: Map<string, Place>;
  /** The byte budget stopped the reading before every candidate file was read. */
  cut: boolean;
}

/** A file bigger than this is not read: a bundle, a data dump, a recording. */
export const BIGGEST_FILE = 1024 * 1024;
/** The most read in one run: a monorepo's sources, not its history of fixtures. */
export const READ_BUDGET = 64 * 1024 * 1024;

const BINARY = /\.(png|jpe?g|gif|webp|avif|ico|bmp|tiff?|psd|pdf|zip|gz|tgz|bz2|xz|zst|7z|rar|jar|war|wasm|woff2?|ttf|otf|eot|mp[34]|m4a|mov|avi|mkv|webm|ogg|wav|flac|exe|dll|so|dylib|node|o|a|lib|bin|class|pyc|sqlite3?|db|parquet|onnx|pt|safetensors)$/i;
const GENERATED =
  /(^|\/)(dist|build|out|lib-cjs|coverage|vendor|node_modules|\.next|\.nuxt|target|__generated__|generated)\/|\.min\.[cm]?js$|\.d\.[cm]?ts$|\.map$|(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|poetry\.lock|uv\.lock|go\.sum)$/i;
const TEST = /(^|\/)(tests?|__tests__|specs?|fixtures?|__fixtures__|__mocks__|e2e|testdata)\/|[._-](test|spec)\.[a-z]+$|(^|\/)test_[^/]*\.py$|_test\.(go|py)$/i;
const DOCUMENT = /\.(md|mdx|markdown|rst|txt|adoc|html?)$|(^|\/)(docs?|examples?)\//i;
const SOURCE = /\.([cm]?[jt]sx?|py|go|rs|java|kts?|cs|rb|php|swift|scala|exs?|clj|lua|dart)$/i;

/** 0 a source file, 1 another text file (a JSON or YAML list of tools), 2 a test, 3 a document, 4 a generated file. */
export function fileClass(path: string): number {
  if (GENERATED.test(path)) return 4;
  if (TEST.test(path)) return 2;
  if (DOCUMENT.test(path)) return 3;
  return SOURCE.test(path) ? 0 : 1;
}

/** A string that defines a name, by what precedes it on its line: a name key, or the opening of a call's arguments. */
const DEFINES = /(?:\bname\s*[:=]\s*|["']name["']\s*:\s*|\(\s*)$/;
/** A line that calls the tool rather than defines it (a client, a script: `client.callTool({ name: "search", ... })`). */
const CALLS = /callTool|call_tool|tools\/call/;

/** Letters and digits only, lower case: `list-notes.ts` and `list_notes` compare as listnotes. */
const bare = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Whether a file's own name says it holds the tool (src/tools/search.ts for "search", list.mjs for "list_notes"): 0 yes, 1 no. */
function namedBy(uri: string, name: string): number {
  const file = bare(uri.slice(uri.lastIndexOf('/') + 1).replace(/\.[^.]*$/, ''));
  const tool = bare(name);
  return file.length >= 3 && tool.length >= 3 && (tool.includes(file) || file.includes(tool)) ? 0 : 1;
}
/** A quoted string of the characters tool names are made of (no space, quote or backslash); other names are looked for one by one. */
const QUOTED = /(["'`])([^"'`\s\\]{1,256})\1/g;
const PLAIN = /^[^"'`\s\\]{1,256}$/;

function git(args: string[], cwd: string): string | undefined {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 * 1024 * 1024 });
  } catch {
    return undefined;
  }
}

/** Where each of `names` is written in the tracked files of the repository that holds `cwd` (see above). */
export function trackedPlaces(names: Iterable<string>, cwd: string): TrackedPlaces {
  const wanted = new Set([...names].filter((n) => n !== ''));
  const places = new Map<string, Place>();
  const found: TrackedPlaces = { places, cut: false };
  const top = git(['rev-parse', '--show-toplevel'], cwd)?.trim();
  if (!top) return found;
  found.root = top;
  const listed = git(['ls-files', '-z', '--cached'], top);
  if (listed === undefined) return found;
  const files = listed.split('\0').filter((f) => f !== '');
  if (wanted.size === 0) return found;
  const odd = [...wanted].filter((n) => !PLAIN.test(n));
  // The best place so far of each name, with its rank within its class of files (0 best; see seen below).
  const best = new Map<string, { place: Place; rank: number }>();
  const classes = new Map<number, string[]>();
  for (const f of files) {
    if (BINARY.test(f)) continue;
    const cls = fileClass(f);
    const list = classes.get(cls);
    if (list) list.push(f);
    else classes.set(cls, [f]);
  }
  let budget = READ_BUDGET;
  for (const cls of [0, 1, 2, 3, 4]) {
    for (const uri of classes.get(cls) ?? []) {
      let bytes: Buffer;
      try {
        const stat = lstatSync(join(top, uri));
        // A symbolic link's target is its own file; a submodule is a folder.
        if (!stat.isFile() || stat.size > BIGGEST_FILE) continue;
        if (stat.size > budget) {
          found.cut = true;
          break;
        }
        bytes = readFileSync(join(top, uri));
      } catch {
        continue; // deleted in the work tree since it was added
      }
      budget -= bytes.length;
      // git's own test for a binary file: a NUL byte among the first 8,000 (xdiff's buffer_is_binary).
      if (bytes.subarray(0, 8000).includes(0)) continue;
      const text = bytes.toString('utf8');
      const seen = (name: string, at: number, line: number) => {
        const start = text.lastIndexOf('\n', at - 1) + 1;
        const end = text.indexOf('\n', at);
        const defines = DEFINES.test(text.slice(start, at)) && !CALLS.test(text.slice(start, end === -1 ? text.length : end)) ? 0 : 1;
        // Within a class of files: a definition first, then a file named for the tool, then git's order.
        const rank = defines * 2 + namedBy(uri, name);
        const was = best.get(name);
        if (!was || rank < was.rank) best.set(name, { place: { uri, line }, rank });
      };
      let line = 1;
      let counted = 0;
      const lineAt = (at: number) => {
        for (let i = text.indexOf('\n', counted); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
        counted = at;
        return line;
      };
      for (const m of text.matchAll(QUOTED)) if (wanted.has(m[2]!)) seen(m[2]!, m.index, lineAt(m.index));
      for (const name of odd)
        for (const q of ['"', "'", '`']) {
          const at = text.indexOf(`${q}${name}${q}`);
          if (at !== -1) seen(name, at, text.slice(0, at).split('\n').length);
        }
    }
    if (found.cut) break;
    // A better class of file is never beaten by a worse one: stop once every name has a place.
    if (best.size === wanted.size) break;
  }
  for (const [name, { place }] of best) places.set(name, place);
  return found;
}
