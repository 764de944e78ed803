/**
 * `npm run ecosystem -- refresh`: installs each candidate at its pinned
 * version in a folder of its own, outside the repository (npm install
 * --ignore-scripts: nothing of the package runs at install), starts its bin
 * as a stdio server with no credentials, lists its tools with the linter's
 * own reader (src/lint/server.ts readServer, as `npm run lint -- --tools`
 * does) and saves the list. The server runs in an empty temporary folder with
 * a home of its own and an environment stripped to PATH, HOME and TMPDIR, so
 * that it writes nothing into the repository or the person's home and sees
 * no key the person has. A server that will not start without a variable
 * names it on stderr: it is started again with a dummy value (a loopback
 * address for a URL), at most three times; one that needs a real key or the
 * network to list is skipped, with its own last words as the reason.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { readServer, StartError, type ServerSpec } from '../server.js';
import { isObject } from '../types.js';
import { safeName, writeJson, type Candidate, type Candidates, type EcosystemPaths, type ServerFixture, type Skipped } from './fixtures.js';

export interface RefreshSettings {
  /** Where the packages are installed: one folder per package and version. */
  cache: string;
  /** Try the first N candidates only. */
  limit?: number;
  /** Try these packages only. */
  only?: string[];
  /** Try again a candidate that already has a fixture at its version. */
  again: boolean;
  /** Installs and listings at once. */
  jobs: number;
  timeoutMs: number;
  /** The day written into each fixture (YYYY-MM-DD). */
  today: string;
  log: (line: string) => void;
}

export function defaultCache(): string {
  return join(tmpdir(), 'schema-breaks-ecosystem');
}

const INSTALL_TIMEOUT_MS = 240_000;

/** Runs npm with the caller's own environment (its cache and registry settings), output kept for the reason of a failure. */
function npmInstall(folder: string, spec: string): Promise<{ ok: true } | { ok: false; detail: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['install', spec, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'], env: npmEnv, detached: true });
    let out = '';
    child.stdout.on('data', (d) => (out = (out + String(d)).slice(-4000)));
    child.stderr.on('data', (d) => (out = (out + String(d)).slice(-4000)));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone already */
      }
    }, INSTALL_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, detail: error.message });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ ok: true });
      else resolve({ ok: false, detail: signal ? `npm install was ended after ${INSTALL_TIMEOUT_MS / 1000} s` : lastLines(out) });
    });
  });
}

function lastLines(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !/^npm (warn|notice)/i.test(l));
  return lines.slice(-3).join(' | ').slice(0, 400);
}

/** npm is run with the environment the command was given; servers are not (see stripEnvironment). */
let npmEnv: NodeJS.ProcessEnv = { ...process.env };

/**
 * The servers' environment: readServer hands a child the linter's own environment plus its `env`, so the refresh
 * empties its own first, keeping what a process needs to run and nothing that could be a credential.
 */
function stripEnvironment(home: string): void {
  npmEnv = { ...process.env };
  const keep = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: home, TMPDIR: tmpdir(), NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS };
  for (const key of Object.keys(process.env)) delete process.env[key];
  for (const [key, value] of Object.entries(keep)) if (value !== undefined) process.env[key] = value;
}

interface Bin {
  name: string;
  /** The bin's file, absolute. */
  file: string;
}

/** The package's bin: the one named, the only one, the one named after the package, or the first with "mcp" in its name. */
export function chooseBin(pkgDir: string, manifest: Record<string, unknown>, wanted?: string): Bin | undefined {
  const name = String(manifest.name ?? '');
  const bins: Record<string, string> = typeof manifest.bin === 'string' ? { [name.replace(/^@[^/]+\//, '')]: manifest.bin } : isObject(manifest.bin) ? (manifest.bin as Record<string, string>) : {};
  const names = Object.keys(bins);
  const pick =
    (wanted !== undefined ? names.find((n) => n === wanted) : undefined) ??
    (names.length === 1 ? names[0] : undefined) ??
    names.find((n) => n === name.replace(/^@[^/]+\//, '')) ??
    names.find((n) => /mcp/i.test(n)) ??
    names[0];
  return pick === undefined ? undefined : { name: pick, file: join(pkgDir, bins[pick]!) };
}

/** Node runs a JavaScript bin (whatever its shebang says about the PATH); anything else (a native binary, a shell script) runs itself. */
function commandFor(bin: Bin): { command: string; args: string[] } {
  const head = readFileSync(bin.file, { encoding: 'latin1' }).slice(0, 200);
  const js = /\.(c|m)?js$/.test(bin.file) || /^#!.*\bnode\b/.test(head);
  return js ? { command: process.execPath, args: [bin.file] } : { command: bin.file, args: [] };
}

/** Names a server asks for on its way out: SOME_API_KEY, FOO_URL (never a runtime's own error code). */
export function demandedVariables(text: string, already: Iterable<string>): string[] {
  const known = new Set(already);
  const words = text.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? [];
  return [...new Set(words)].filter(
    (w) => !known.has(w) && !/^(ERR|ERROR|NODE|MODULE|EADDR|ECONN|HTTP|JSON|UTF|MCP_PROTOCOL|ISO)_|_(ERROR|FAILED|NOT_FOUND)$/.test(w) && /KEY|TOKEN|SECRET|URL|URI|HOST|ID|PASSWORD|USER|ENDPOINT|DOMAIN|REGION|PROJECT|ACCOUNT|WORKSPACE|ORG|API|DSN|EMAIL|DATABASE|CONNECTION|TENANT|INSTANCE|SITE|PORT/.test(w),
  );
}

/** A dummy for one variable: a loopback address where a URL is wanted (nothing listens there), a word otherwise. */
export function dummyValue(name: string): string {
  if (/MONGO/.test(name)) return 'mongodb://127.0.0.1:9/dummy';
  if (/POSTGRES|PG_|DATABASE_URL|_DSN/.test(name)) return 'postgresql://dummy:dummy@127.0.0.1:9/dummy';
  if (/URL|URI|ENDPOINT|HOST|BASE|DOMAIN|INSTANCE|SITE/.test(name)) return 'http://127.0.0.1:9';
  if (/PORT/.test(name)) return '9';
  if (/EMAIL/.test(name)) return 'dummy@example.com';
  return 'dummy';
}

type Outcome = { fixture: ServerFixture } | { skipped: Skipped };

async function tryOne(c: Candidate, settings: RefreshSettings, downloadsWhat: string): Promise<Outcome> {
  const skip = (reason: Skipped['reason'], detail: string): Outcome => ({ skipped: { package: c.package, version: c.version, reason, detail } });
  const folder = join(settings.cache, `${safeName(c.package)}@${c.version}`);
  const pkgDir = join(folder, 'node_modules', ...c.package.split('/'));
  const manifestFile = join(pkgDir, 'package.json');
  const installed = existsSync(manifestFile) && (JSON.parse(readFileSync(manifestFile, 'utf8')) as { version?: string }).version === c.version;
  if (!installed) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), '{ "private": true }\n');
    const result = await npmInstall(folder, `${c.package}@${c.version}`);
    if (!result.ok) return skip('install', result.detail);
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
  const bin = chooseBin(pkgDir, manifest, c.bin);
  if (!bin || !existsSync(bin.file)) return skip('no-bin', bin ? `its bin ${bin.name} is not in the package` : 'the package has no bin: it is no server to start');
  const started = commandFor(bin);
  const env: Record<string, string> = { ...c.env };
  let last = '';
  for (let attempt = 0; attempt < 4; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), 'eco-run-'));
    const args = [...started.args, ...(c.args ?? []).map((a) => a.replace('{dir}', dir))];
    const spec: ServerSpec = { label: c.package, command: started.command, args, env: { ...env, HOME: join(dir, 'home') }, cwd: dir };
    mkdirSync(join(dir, 'home'));
    try {
      const listing = await readServer(spec, settings.timeoutMs);
      if (listing.tools.length === 0) return skip('no-tools', 'it started and listed no tools');
      return {
        fixture: {
          package: c.package,
          version: c.version,
          command: { command: started.command === process.execPath ? 'node' : relative(folder, started.command), args: [...args.slice(0, started.args.length).map((a) => relative(folder, a)), ...(c.args ?? [])] },
          env: Object.keys(env).sort(),
          listed: settings.today,
          downloads: { figure: c.downloads, what: downloadsWhat },
          server: { name: listing.serverName, version: listing.serverVersion, protocolVersion: listing.protocolVersion },
          tools: listing.tools,
        },
      };
    } catch (error) {
      if (!(error instanceof StartError)) throw error;
      last = `${error.failure.kind}: ${error.failure.message}`;
      const wanted = demandedVariables(error.failure.message, Object.keys(env));
      if (wanted.length === 0) break;
      for (const name of wanted.slice(0, 4)) env[name] = dummyValue(name);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return skip('start', last.replace(/\s+/g, ' ').slice(0, 500));
}

/** Tries every candidate (jobs at a time), writes each fixture as it comes and the skip list at the end. */
export async function refresh(paths: EcosystemPaths, doc: Candidates, settings: RefreshSettings): Promise<{ listed: ServerFixture[]; skipped: Skipped[] }> {
  let queue = doc.candidates;
  if (settings.only) queue = queue.filter((c) => settings.only!.includes(c.package));
  if (settings.limit !== undefined) queue = queue.slice(0, settings.limit);
  mkdirSync(settings.cache, { recursive: true });
  mkdirSync(paths.servers, { recursive: true });
  stripEnvironment(join(settings.cache, 'home'));
  mkdirSync(join(settings.cache, 'home'), { recursive: true });
  const previous: Skipped[] = existsSync(paths.skipped) ? (JSON.parse(readFileSync(paths.skipped, 'utf8')) as Skipped[]) : [];
  const listed: ServerFixture[] = [];
  const skipped: Skipped[] = [];
  const tried = new Set<string>();
  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const c = queue[next++]!;
      const file = join(paths.servers, `${safeName(c.package)}.json`);
      if (!settings.again && existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as ServerFixture).version === c.version) continue;
      if (!settings.again && previous.some((s) => s.package === c.package && s.version === c.version)) continue;
      tried.add(c.package);
      const outcome = await tryOne(c, settings, doc.downloads);
      if ('fixture' in outcome) {
        mkdirSync(dirname(file), { recursive: true });
        writeJson(file, outcome.fixture);
        listed.push(outcome.fixture);
        settings.log(`listed  ${c.package}@${c.version}: ${outcome.fixture.tools.length} tools${outcome.fixture.env.length ? ` (dummy ${outcome.fixture.env.join(', ')})` : ''}`);
      } else {
        rmSync(file, { force: true });
        skipped.push(outcome.skipped);
        settings.log(`skipped ${c.package}@${c.version}: ${outcome.skipped.reason}: ${outcome.skipped.detail.slice(0, 160)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, settings.jobs) }, worker));
  // The skip list keeps what this run did not try again, in the candidates' order.
  const order = new Map(doc.candidates.map((c, i) => [c.package, i]));
  const kept = [...previous.filter((s) => !tried.has(s.package) && order.has(s.package)), ...skipped].sort((a, b) => order.get(a.package)! - order.get(b.package)!);
  writeJson(paths.skipped, kept);
  return { listed, skipped };
}
