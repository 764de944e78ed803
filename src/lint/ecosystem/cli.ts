/**
 * The `ecosystem` command: refresh (install and list the candidates), page
 * (docs/ecosystem.md and .html from the saved lists), pin (the verdicts the
 * test compares with). Bad input is one line and exit 2.
 */
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { UserError, UsageError } from '../../core/user-error.js';
import { writeWhole } from '../../core/write-whole.js';
import { join, resolve } from 'node:path';
import { ecosystemPaths, fixturePaths, readCandidates, readFixtures, readJson, readSkipped, writeJson, type EcosystemPaths } from './fixtures.js';
import { judgeServers } from './judge.js';
import { ecosystemPage } from './page.js';
import { pinVerdicts, type Pinned } from './pin.js';
import { defaultCache, refresh } from './refresh.js';

/** The pinned verdicts of the saved servers (those named in `only`, else every one): the linting, the slow part. */
export async function pinEcosystem(paths: EcosystemPaths, only?: readonly string[], log?: (line: string) => void): Promise<Pinned> {
  const fixtures = readFixtures(paths).filter((f) => !only || only.includes(f.package));
  return pinVerdicts(await judgeServers(fixtures, log));
}

/** verdicts.json, as pin wrote it. */
export function readPinned(paths: EcosystemPaths): Pinned {
  if (!existsSync(paths.verdicts)) throw new UserError(`${paths.verdicts} is not there: run npm run ecosystem -- pin first`);
  return readJson(paths.verdicts) as Pinned;
}

/** The page, from the saved lists and the pinned verdicts as verdicts.json holds them (no linting). */
export function renderEcosystemPage(paths: EcosystemPaths): { markdown: string; html: string } {
  return ecosystemPage(readFixtures(paths), readPinned(paths), readCandidates(paths), readSkipped(paths));
}

export function pageFiles(repo: string): { markdown: string; html: string } {
  return { markdown: join(repo, 'docs', 'ecosystem.md'), html: join(repo, 'docs', 'ecosystem.html') };
}

export const ECOSYSTEM_HELP = `npm run ecosystem -- <command> [options]

The ecosystem measured: the tools/list of MCP servers from npm, saved in
test/fixtures/ecosystem/, linted with the kit's own linter.

Commands:
  refresh [--limit N] [--only PKG,PKG] [--again] [--jobs N] [--timeout S] [--dir CACHE] [--fixtures DIR]
          install each candidate of test/fixtures/ecosystem/candidates.json at its
          pinned version in CACHE (default: ${defaultCache()}), start it as a stdio
          server with no credentials (a dummy for a variable it demands), list its
          tools, and save servers/<name>.json, or the reason in skipped.json.
          A candidate already listed or skipped at its version is not tried again
          unless --again. --fixtures: read candidates.json and write there instead
          of test/fixtures/ecosystem/. Needs the npm registry; nothing else.
  pin     lint every saved list and write test/fixtures/ecosystem/verdicts.json:
          each server's verdicts per host and its findings (minutes: every
          host profile is asked about every tool).
  page    write docs/ecosystem.md and docs/ecosystem.html from the saved lists
          and verdicts.json (no linting).
  update  pin, then page.
  help    this text.`;

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`${flag} takes a whole number above 0, not ${JSON.stringify(value)}`, 'npm run ecosystem -- help');
  return Number(value);
}

export async function runEcosystem(argv: string[], repo: string, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<number> {
  const [command, ...rest] = argv;
  let paths = ecosystemPaths(repo);
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${ECOSYSTEM_HELP}\n`);
    return command === undefined ? 2 : 0;
  }
  const options = {
    limit: { type: 'string' },
    only: { type: 'string' },
    again: { type: 'boolean' },
    jobs: { type: 'string' },
    timeout: { type: 'string' },
    dir: { type: 'string' },
    fixtures: { type: 'string' },
  } as const;
  let values: { limit?: string; only?: string; again?: boolean; jobs?: string; timeout?: string; dir?: string; fixtures?: string };
  try {
    ({ values } = parseArgs({ args: rest, options: command === 'refresh' ? options : {}, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError(`${command}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, 'npm run ecosystem -- help');
  }
  switch (command) {
    case 'refresh': {
      if (values.fixtures !== undefined) paths = fixturePaths(resolve(values.fixtures));
      const doc = readCandidates(paths);
      const only = values.only?.split(',').map((s) => s.trim()).filter(Boolean);
      const unknown = only?.filter((p) => !doc.candidates.some((c) => c.package === p)) ?? [];
      if (unknown.length > 0) throw new UsageError(`--only: not a candidate: ${unknown.join(', ')}`, 'npm run ecosystem -- help');
      const { listed, skipped } = await refresh(paths, doc, {
        cache: values.dir ?? defaultCache(),
        ...(values.limit !== undefined ? { limit: positiveInt(values.limit, '--limit') } : {}),
        ...(only ? { only } : {}),
        again: values.again === true,
        jobs: positiveInt(values.jobs, '--jobs') ?? 3,
        timeoutMs: (positiveInt(values.timeout, '--timeout') ?? 20) * 1000,
        today: new Date().toISOString().slice(0, 10),
        log,
      });
      log(`${listed.length} listed, ${skipped.length} skipped this run`);
      return 0;
    }
    case 'pin':
    case 'page':
    case 'update': {
      if (command !== 'page') {
        const pinned = await pinEcosystem(paths, undefined, log);
        writeJson(paths.verdicts, pinned);
        log(`wrote ${paths.verdicts}: ${Object.keys(pinned.servers).length} servers`);
      }
      if (command !== 'pin') {
        const { markdown, html } = renderEcosystemPage(paths);
        const files = pageFiles(repo);
        writeWhole(files.markdown, markdown);
        writeWhole(files.html, html);
        log(`wrote ${files.markdown} and ${files.html}`);
      }
      return 0;
    }
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}: refresh, page, pin, update or help`, 'npm run ecosystem -- help');
  }
}
