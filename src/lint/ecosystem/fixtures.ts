/**
 * The ecosystem's saved tool lists (test/fixtures/ecosystem/): the candidates
 * tried (candidates.json: MCP server packages of the npm registry, by
 * downloads), one fixture per server that listed at least one tool
 * (servers/<safe-name>.json), and the servers skipped with the reason
 * (skipped.json). `npm run ecosystem -- refresh` writes them; `page` and
 * `pin` only read them, so the page and the pinned verdicts need no network.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../core/user-error.js';
import { writeWhole } from '../../core/write-whole.js';
import { isObject } from '../types.js';

/** One package to try: the version is pinned, so that a refresh lists the same code. */
export interface Candidate {
  package: string;
  version: string;
  /** The figure the candidates are ranked by (candidates.json `downloads` says what it is). */
  downloads: number;
  /** Arguments the server needs to start as a stdio server ("{dir}": an empty temporary folder). */
  args?: string[];
  /** Dummy values for variables the server demands to start (never a real credential). */
  env?: Record<string, string>;
  /** The bin to start, where the package has several. */
  bin?: string;
}

export interface Candidates {
  /** Where the ranking figure comes from, and how the list was chosen: said on the page. */
  downloads: string;
  chosen: string;
  candidates: Candidate[];
}

/** One server's tools/list, as the kit's reader received it. */
export interface ServerFixture {
  package: string;
  version: string;
  /** How it was started, inside its own install folder: the command and its arguments. */
  command: { command: string; args: string[] };
  /** Names of the variables it was given: a dummy value it demanded to start, or a setting its candidate names (PRO_MODE). */
  env: string[];
  /** The day it was listed (YYYY-MM-DD). */
  listed: string;
  downloads: { figure: number; what: string };
  /** From initialize. */
  server: { name: string | null; version: string | null; protocolVersion: string | null };
  tools: unknown[];
}

export interface Skipped {
  package: string;
  version: string;
  /**
   * 'install' | 'no-bin' | 'start' (it exited or did not answer: most demand a key or the network) | 'no-tools' |
   * 'lint-time' (listed, but linting it takes minutes: set by hand, the list kept in `detail`'s words).
   */
  reason: 'install' | 'no-bin' | 'start' | 'no-tools' | 'lint-time';
  detail: string;
}

export interface EcosystemPaths {
  root: string;
  candidates: string;
  servers: string;
  skipped: string;
  verdicts: string;
}

export function ecosystemPaths(repo: string): EcosystemPaths {
  return fixturePaths(join(repo, 'test', 'fixtures', 'ecosystem'));
}

/** The files of a fixtures folder (refresh --fixtures DIR writes to another). */
export function fixturePaths(root: string): EcosystemPaths {
  return { root, candidates: join(root, 'candidates.json'), servers: join(root, 'servers'), skipped: join(root, 'skipped.json'), verdicts: join(root, 'verdicts.json') };
}

/** `@scope/name` -> `scope__name`: a file name on every system, one per package. */
export function safeName(pkg: string): string {
  return pkg.replace(/^@/, '').replace(/\//g, '__').replace(/[^A-Za-z0-9._-]/g, '_');
}

export function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UserError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function readCandidates(paths: EcosystemPaths): Candidates {
  const doc = readJson(paths.candidates);
  if (!isObject(doc) || !Array.isArray(doc.candidates) || typeof doc.downloads !== 'string' || typeof doc.chosen !== 'string')
    throw new UserError(`${paths.candidates} is not a candidates file ({ downloads, chosen, candidates: [...] })`);
  return doc as unknown as Candidates;
}

/** Every saved server, in file-name order (so every reader sees one order). */
export function readFixtures(paths: EcosystemPaths): ServerFixture[] {
  if (!existsSync(paths.servers)) return [];
  return readdirSync(paths.servers)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => readJson(join(paths.servers, f)) as ServerFixture);
}

export function readSkipped(paths: EcosystemPaths): Skipped[] {
  return existsSync(paths.skipped) ? (readJson(paths.skipped) as Skipped[]) : [];
}

export function writeJson(file: string, value: unknown): void {
  writeWhole(file, `${JSON.stringify(value, null, 2)}\n`);
}
