/**
 * Every command in README.md and docs/*.md runs as written (issue 32): the
 * harness reads those files when it runs, whatever they hold that day, takes
 * every command line of their ```sh (or ```bash) blocks and runs it in ONE
 * copy of the kit (test/helpers/kit-copy.ts, its node_modules linked from the
 * checkout's), typed in the kit's root, with no terminal (stdin is /dev/null).
 *
 * How the docs are read (the convention the docs are written to):
 * - A command line is a line of a ```sh block; a line ending in `\` goes on on
 *   the next one; a line that starts with `#` is a comment; a trailing
 *   ` # ...` is the line's comment.
 * - Each file's blocks run in order (README.md first, then docs/*.md by name),
 *   a block's commands in order, in the same folder: what one command writes
 *   (run.json) the next one may read. `cd DIR` moves the block's folder.
 * - Exit code: 0, unless the line's comment says `exits N` (e.g.
 *   `# exits 1: the break is an error`). `a && b` runs a, then b if a exited 0.
 * - A file the command writes as JSON (`> x.json`, `-o x.json`, `--out
 *   x.json`, `--sarif x.sarif`, `--save`, `--write-baseline`, `--fix-schema`,
 *   `--work`) must parse: a redirect keeps only what the command printed, so
 *   a doc that redirects JSON through npm says `npm run -s` (npm's banner
 *   otherwise comes first).
 * - Installs (`npm ci ...`, `npm install ...`) are checked to be well-formed
 *   (known flags, a --prefix folder with a package.json), not run: the copy is
 *   installed already. `npm test` (this suite, of which this file is a part)
 *   is checked the same way.
 * - `npm run class -- serve ...` is started (given `--port 0` unless the line
 *   names a port, so that two runs on one machine do not collide), must print
 *   its listening line, serves the rest of its block, and is stopped at the
 *   block's end. In the lines after it, ADDRESS, :4747 and CODE are what it
 *   printed (its address, its port, its join code).
 * - A command that asks questions in a terminal says, without one, which flag
 *   answers them (src/core/messages: learn.noTty, learn.needLearner,
 *   learn.resetNoTty): it is run again with that flag (--no-predict, --yes),
 *   as a script would run it.
 * - A line whose comment says `not run:` and why is checked to be
 *   well-formed (`npm run <script>` names a script of package.json) and
 *   listed, never run: for what needs the reader's own server, config or
 *   network.
 * - The same command twice is run once.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../src/core/messages/index.js';
import { kitCopy, linkHosts, linkInstall, removeKitCopies } from './helpers/kit-copy.js';
import { REPO } from './helpers/server.js';

/** A command line of a doc, continuations joined, its comment apart. */
interface Line {
  file: string;
  /** The line's number in the file (its first line's). */
  at: number;
  command: string;
  comment: string;
}

interface Block {
  file: string;
  at: number;
  lines: Line[];
}

/** The docs as they are now: README.md, then docs/*.md by name. */
function docFiles(root: string): string[] {
  const docs = existsSync(join(root, 'docs')) ? readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`) : [];
  return ['README.md', ...docs].filter((f) => existsSync(join(root, f)));
}

/** Where a ` # comment` starts, outside quotes; -1 if none. */
function commentStart(line: string): number {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return i;
  }
  return -1;
}

export function shBlocks(file: string, text: string): Block[] {
  const blocks: Block[] = [];
  let block: Block | undefined;
  let pending: { text: string; at: number } | undefined;
  text.split('\n').forEach((raw, i) => {
    if (!block) {
      if (/^\s*```(sh|bash|shell)\s*$/.test(raw)) block = { file, at: i + 1, lines: [] };
      return;
    }
    if (/^\s*```\s*$/.test(raw)) {
      blocks.push(block);
      block = undefined;
      pending = undefined;
      return;
    }
    const joined = pending ? `${pending.text} ${raw.trim()}` : raw.trim();
    const at = pending?.at ?? i + 1;
    if (joined.endsWith('\\')) {
      pending = { text: joined.slice(0, -1).trim(), at };
      return;
    }
    pending = undefined;
    if (joined === '' || joined.startsWith('#')) return;
    const hash = commentStart(joined);
    block.lines.push({ file, at, command: (hash === -1 ? joined : joined.slice(0, hash)).trim(), comment: hash === -1 ? '' : joined.slice(hash + 1).trim() });
  });
  return blocks;
}

/** `a && b` as its parts, outside quotes. */
function andParts(command: string): string[] {
  const parts: string[] = [];
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '&' && command[i + 1] === '&') {
      parts.push(command.slice(start, i).trim());
      start = i + 2;
      i++;
    }
  }
  parts.push(command.slice(start).trim());
  return parts;
}

/** The exit code a line's comment gives (`exits N`), else 0. */
const expectedExit = (comment: string) => Number(/\bexits? (\d+)\b/.exec(comment)?.[1] ?? 0);

const INSTALL = /^npm (ci|install|i)(\s|$)/;
/** npm's flags a doc's install may use (docs.npmjs.com, npm ci / npm install). */
const INSTALL_FLAGS = /^--(omit=(dev|optional|peer)|include=(dev|optional|peer)|no-audit|no-fund|ignore-scripts|prefer-offline|production|silent|prefix(=\S+)?)$|^-s$/;

/** An install, or `npm test`: well-formed, not run. What is wrong with it, if anything. */
function installProblem(command: string, root: string, cwd: string): string | undefined {
  const words = command.split(/\s+/).slice(2);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (command.startsWith('npm test') || command.startsWith('npm run test')) return words.length > 0 && command.startsWith('npm test') ? `npm test takes no arguments here: ${w}` : undefined;
    if (!INSTALL_FLAGS.test(w)) return `not a flag of npm ci/install this kit's docs use: ${w}`;
    if (w === '--prefix' || w.startsWith('--prefix=')) {
      const dir = w.includes('=') ? w.slice('--prefix='.length) : words[++i];
      if (dir === undefined || !existsSync(join(resolve(cwd, dir), 'package.json'))) return `--prefix ${dir ?? ''}: no package.json there`;
    }
  }
  return existsSync(join(root, 'package-lock.json')) ? undefined : 'no package-lock.json for npm ci';
}

/** A doc's `npm run [-s] <script>` names a script of package.json. */
function scriptProblem(command: string, root: string): string | undefined {
  const script = /^npm (?:run|run-script)(?: (?:-s|--silent))? (\S+)/.exec(command)?.[1];
  if (script === undefined) return undefined;
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  return Object.hasOwn(scripts, script) ? undefined : `package.json has no script "${script}"`;
}

/** The files a command writes as JSON, as written in it. */
function jsonOutputs(command: string): string[] {
  const files: string[] = [];
  const redirect = />\s*(\S+\.json)\b/.exec(command);
  if (redirect) files.push(redirect[1]!);
  for (const m of command.matchAll(/(?:^|\s)(?:-o|--output|--out|--sarif|--save|--write-baseline|--fix-schema|--work)[ =](\S+)/g)) if (/\.(json|sarif)$/.test(m[1]!)) files.push(m[1]!);
  return files;
}

const ENV: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'INIT_CWD' && k !== 'VITEST' && !k.startsWith('VITEST_'))),
  NO_COLOR: '1',
  LANG: 'en_GB.UTF-8',
  LC_ALL: '',
  LC_MESSAGES: '',
};

let kit: string;
const ran = new Map<string, { status: number | null; output: string }>();
const notRun: string[] = [];
const timings: string[] = [];

beforeAll(() => {
  kit = kitCopy();
  linkInstall(kit);
  linkHosts(kit);
}, 120_000);
afterAll(() => {
  // Printed so that what was not run, and what took long, is seen in the test's output, never skipped in silence.
  if (notRun.length > 0) process.stdout.write(`docs-commands: checked, not run:\n${notRun.map((l) => `  ${l}`).join('\n')}\n`);
  if (timings.length > 0) process.stdout.write(`docs-commands: the slowest commands:\n${timings.sort((a, b) => Number(b.split('s ')[0]) - Number(a.split('s ')[0])).slice(0, 8).map((l) => `  ${l}`).join('\n')}\n`);
  removeKitCopies();
}, 120_000);

/** Runs one part of a command line in `cwd`, no terminal. */
function runPart(command: string, cwd: string): { status: number | null; output: string } {
  const started = performance.now();
  const result = spawnSync('bash', ['-c', command], { cwd, env: ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
  timings.push(`${((performance.now() - started) / 1000).toFixed(1)}s ${command}`);
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The flag that answers a command's questions when it says there is no terminal (src/learn/flow.ts). */
function answeringFlag(output: string): string | undefined {
  // A lab's questions, or the name it asks before them: a script runs the lab without predictions.
  if (output.includes(t('learn.noTty', 'en')) || output.includes(t('learn.needLearner', 'en'))) return '--no-predict';
  if (output.includes(t('learn.resetNoTty', 'en'))) return '--yes';
  return undefined;
}

interface Server {
  child: ChildProcess;
  port: string;
  code: string;
}

async function startServer(command: string, cwd: string): Promise<Server> {
  const withPort = /--port\b/.test(command) ? command : `${command} --port 0`;
  const child = spawn('bash', ['-c', `exec ${withPort}`], { cwd, env: ENV, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const started = Date.now();
  while (!/Listening on port \d+/.test(out) || !/--code [A-Z0-9]+/.test(out)) {
    if (child.exitCode !== null) throw new Error(`${command}: ended (exit ${child.exitCode}) before its listening line:\n${out}`);
    if (Date.now() - started > 60_000) throw new Error(`${command}: no listening line within 60 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, port: /Listening on port (\d+)/.exec(out)![1]!, code: /--code ([A-Z0-9]+)/.exec(out)![1]! };
}

async function stopServer(server: Server): Promise<void> {
  const ended = new Promise((r) => server.child.on('exit', r));
  process.kill(-server.child.pid!, 'SIGINT');
  const timer = setTimeout(() => process.kill(-server.child.pid!, 'SIGKILL'), 10_000);
  await ended;
  clearTimeout(timer);
}

const SERVE = /^npm run(?: -s| --silent)? class -- serve\b/;

/** One block's commands, in order, in one folder; what went wrong, one string per command. */
async function runBlock(block: Block): Promise<string[]> {
  const problems: string[] = [];
  let cwd = kit;
  let server: Server | undefined;
  try {
    for (const line of block.lines) {
      const where = `${line.file}:${line.at}: ${line.command}`;
      let command = line.command;
      if (server) command = command.replace(/ADDRESS/g, '127.0.0.1').replace(/:4747\b/g, `:${server.port}`).replace(/\bCODE\b/g, server.code);
      const want = expectedExit(line.comment);
      if (/\bnot run:/.test(line.comment)) {
        const problem = andParts(command).map((p) => scriptProblem(p, kit)).find(Boolean);
        if (problem) problems.push(`${where}: ${problem}`);
        notRun.push(`${line.file}:${line.at}: ${line.command}  (${line.comment})`);
        continue;
      }
      for (const part of andParts(command)) {
        const cd = /^cd\s+(\S+)$/.exec(part);
        if (cd) {
          cwd = resolve(cwd, cd[1]!);
          continue;
        }
        if (INSTALL.test(part) || /^npm (test|run test)\b/.test(part)) {
          const problem = installProblem(part, kit, cwd);
          if (problem) problems.push(`${where}: ${problem}`);
          notRun.push(`${line.file}:${line.at}: ${part}  (${INSTALL.test(part) ? 'an install: the copy is installed' : 'the test suite itself'})`);
          continue;
        }
        const scriptWrong = scriptProblem(part, kit);
        if (scriptWrong) {
          problems.push(`${where}: ${scriptWrong}`);
          break;
        }
        if (SERVE.test(part)) {
          if (server) await stopServer(server);
          try {
            server = await startServer(part, cwd);
          } catch (error) {
            problems.push(`${where}: ${(error as Error).message}`);
          }
          continue;
        }
        const key = `${cwd}\0${part}`;
        let result = ran.get(key);
        if (!result) {
          result = runPart(part, cwd);
          const flag = result.status === 2 ? answeringFlag(result.output) : undefined;
          if (flag) result = runPart(`${part} ${flag}`, cwd);
          ran.set(key, result);
        }
        const last = part === andParts(command).at(-1);
        const expected = last ? want : 0;
        if (result.status !== expected) {
          problems.push(`${where}: exit ${result.status}, the doc says ${expected}:\n${result.output.split('\n').slice(-12).join('\n')}`);
          break;
        }
        for (const file of jsonOutputs(part)) {
          try {
            JSON.parse(readFileSync(resolve(cwd, file), 'utf8'));
          } catch (error) {
            problems.push(`${where}: ${file} does not parse as JSON: ${(error as Error).message.split('\n')[0]}`);
          }
        }
      }
    }
  } finally {
    if (server) await stopServer(server);
  }
  return problems;
}

const blocks = docFiles(REPO).flatMap((file) => shBlocks(file, readFileSync(join(REPO, file), 'utf8')));

describe('every command in README.md and docs/*.md runs as written', () => {
  it('the docs have commands to run', () => {
    expect(blocks.flatMap((b) => b.lines).length).toBeGreaterThan(0);
  });
  for (const block of blocks) {
    it(`${block.file}:${block.at} (${block.lines.length} command${block.lines.length === 1 ? '' : 's'})`, { timeout: 300_000 }, async () => {
      expect(await runBlock(block)).toEqual([]);
    });
  }
});
