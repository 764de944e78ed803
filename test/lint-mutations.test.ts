/**
 * Mutation check of the linter's guards: each case changes one line of
 * src/lint in a copy of the sources, bundles the copy, and shows that the
 * property a test of test/lint-*.test.ts asserts holds with the real code
 * and fails with the mutant. A guard that still passes with its feature
 * removed proves nothing.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { build as esbuild } from 'esbuild';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { LintReport } from '../src/lint/types.js';
import { recorded } from './helpers/lint.js';
import { REPO } from './helpers/server.js';
// @ts-expect-error: a plain JS fixture, no types
import { TOOLS } from './fixtures/lint/thirty-tools.data.mjs';
import { hostsDir } from '../src/core/bundler.mjs';

interface LintModule {
  lintTools(entries: unknown[], label?: string, operations?: undefined, hosts?: readonly string[]): Promise<LintReport>;
  runLint(argv: string[], ctx: { invocation: string; stdout: (t: string) => void; stderr: (t: string) => void; colour: boolean; width: number }): Promise<number>;
}

const FIXTURES = join(REPO, 'test/fixtures/lint');
// Inside the host frameworks' install (hosts/node_modules), so that the packages left out of the bundle resolve as
// Node walks up from there: the frameworks from hosts/node_modules, the kit's own packages from its node_modules.
mkdirSync(join(hostsDir(REPO), 'node_modules', '.cache'), { recursive: true });
const work = mkdtempSync(join(hostsDir(REPO), 'node_modules', '.cache', 'schema-breaks-lint-mutant-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;
// Each bundled linter adds its own exit handler (it ends the servers it started).
process.setMaxListeners(Math.max(process.getMaxListeners(), 40));

/**
 * The linter bundled from src/ with one line changed (or none), the change
 * made as esbuild loads the file: src/ itself is never touched. The packages
 * stay outside the bundle, so each build takes a moment.
 */
async function build(change?: { file: string; from: string; to: string }): Promise<LintModule> {
  const outfile = join(work, `m${++n}.mjs`);
  const target = change ? join(REPO, change.file) : undefined;
  if (change) expect(readFileSync(target!, 'utf8'), `the mutation's anchor is in ${change.file}`).toContain(change.from);
  await esbuild({
    stdin: { contents: "export { lintTools } from './src/lint/lint.ts';\nexport { runLint } from './src/lint/cli.ts';\n", resolveDir: REPO, loader: 'ts' },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
    plugins: [
      {
        name: 'mutate',
        setup(b) {
          if (!change) return;
          b.onLoad({ filter: /\.ts$/ }, (args) => (args.path === target ? { contents: readFileSync(target!, 'utf8').replace(change.from, change.to), loader: 'ts' } : undefined));
        },
      },
    ],
  });
  return (await import(pathToFileURL(outfile).href)) as LintModule;
}

async function json(mod: LintModule, argv: string[]): Promise<LintReport> {
  let out = '';
  await mod.runLint(['--json', ...argv], { invocation: 'lint', stdout: (t) => (out += t), stderr: () => {}, colour: false, width: 120 });
  return JSON.parse(out) as LintReport;
}

const tool = (report: LintReport, name: string) => report.tools.find((t) => t.name === name)!;
const rules = (report: LintReport, name: string) => tool(report, name).findings.map((f) => f.rule);
/** Who firecrawl_scrape's propertyNames hurts: a tool the Gemini parameters field refuses first for its 2020-12 $schema. */
/** A tool whose record has propertyNames, beside a bound Gemini's parameters field also refuses (exclusiveMinimum, no rule's). */
const RECORD_AND_BOUND = {
  name: 'tag',
  description: 'Tags a thing.',
  inputSchema: {
    type: 'object',
    properties: { count: { type: 'integer', exclusiveMinimum: 0 }, labels: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } } },
    required: ['count', 'labels'],
  },
};
const recordHurts = (report: LintReport) => (tool(report, 'tag').findings.find((f) => f.path === '/inputSchema/properties/labels/propertyNames')?.hurts ?? []).map((h) => h.host);

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

const mutations: { name: string; file: string; from: string; to: string; holds: (mod: LintModule) => Promise<boolean> | boolean }[] = [
  {
    name: 'the structural-union rule needs three structured branches',
    file: 'src/lint/rules.ts',
    from: 'if (structured > 1)',
    to: 'if (structured > 2)',
    holds: async (mod) => rules(await mod.lintTools(recorded('openapi-pet-clinic')), 'book-visit').includes('no-structural-union'),
  },
  {
    name: '$ref branches are counted unread',
    file: 'src/lint/rules.ts',
    from: '(followRef(inputSchema, branch) ?? branch)',
    to: 'branch',
    holds: async (mod) => !rules(await mod.lintTools(TOOLS), 'ref_union_scalars').includes('no-structural-union'),
  },
  {
    name: 'the description is not read for arguments',
    file: 'src/lint/rules.ts',
    from: 'const says = takesArguments(tool.description);',
    to: 'const says = null;',
    holds: async (mod) => rules(await mod.lintTools(TOOLS), 'no_params_says_args').includes('no-parameters'),
  },
  {
    name: 'every keyword passes as taught',
    file: 'src/lint/rules.ts',
    from: 'if (TAUGHT.has(key) || (root && ROOT_ONLY.has(key))) continue;',
    to: 'continue;',
    holds: async (mod) => rules(await mod.lintTools(TOOLS), 'vendor_keyword').includes('untaught'),
  },
  {
    name: 'definitions are walked whether a ref reaches them or not',
    file: 'src/lint/refs.ts',
    from: 'if (!DEF_MAPS.includes(step)) walk(sub, subPointer);',
    to: 'walk(sub, subPointer);',
    // API-get-user's own parameter has a format; nothing is found inside the definitions it never references.
    holds: async (mod) => rules(await mod.lintTools(recorded('notion-mcp-server')), 'API-get-user').filter((r) => r !== 'host-refusal').join() === 'format,unused-defs',
  },
  {
    name: 'a refusal is blamed on every cause, without asking the host again',
    file: 'src/lint/hurt.ts',
    from: 'if (takes(await ask(host, without))) {',
    to: 'if (true) {',
    holds: async (mod) => {
      const report = await mod.lintTools(recorded('server-github'), 'github', undefined, []);
      return !tool(report, 'create_pull_request_review').findings[0]!.hurts!.some((h) => h.host === 'openai-strict');
    },
  },
  {
    name: 'a cause that another cause also refuses is not asked about alone',
    file: 'src/lint/hurt.ts',
    from: 'if (takes(control) && fails(probe)) hurts.push(',
    to: 'if (false) hurts.push(',
    // A record with propertyNames beside a number's exclusiveMinimum, which Gemini's parameters field refuses too and no
    // rule names (so taking the other findings away does not help): only asking about propertyNames alone blames it.
    holds: async (mod) => recordHurts(await mod.lintTools([RECORD_AND_BOUND])).includes('gemini-parameters-2026-09'),
  },
  {
    name: 'a keyword asked about alone is blamed without its control',
    file: 'src/lint/hurt.ts',
    from: 'if (takes(control) && fails(probe)) hurts.push(',
    to: 'if (fails(probe)) hurts.push(',
    // OpenAI strict mode refuses the cut-down path itself (its property is optional): the control says so.
    holds: async (mod) => !recordHurts(await mod.lintTools([RECORD_AND_BOUND])).includes('openai-strict'),
  },
  {
    name: 'severity ignores the targeted hosts',
    file: 'src/lint/hurt.ts',
    from: 'const targeted = hurts.filter((h) => targets.includes(h.host));',
    to: 'const targeted = hurts;',
    holds: async (mod) => tool(await mod.lintTools(recorded('server-github'), 'github', undefined, ['faithful']), 'create_pull_request_review').findings[0]!.severity === 'info',
  },
  {
    name: 'findings are not grouped across tools',
    file: 'src/lint/causes.ts',
    from: 'add(`${f.rule}\\u0000${f.path}`, f, tool.name);',
    to: 'add(`${f.rule}\\u0000${f.path}\\u0000${tool.name}`, f, tool.name);',
    holds: async (mod) => (await mod.lintTools(recorded('notion-mcp-server'))).causes!.filter((c) => c.rule === 'unused-defs').length === 1,
  },
  {
    name: 'outputSchema is not read',
    file: 'src/lint/rules.ts',
    from: "if (isObject(tool.outputSchema)) found.push(...schemaFindings(tool.outputSchema, '/outputSchema'));",
    to: '',
    holds: async (mod) => rules(await mod.lintTools(recorded('server-filesystem')), 'read_media_file').includes('no-structural-union'),
  },
  {
    name: 'a drop is called a refusal',
    file: 'src/lint/hosts.ts',
    from: "return { verdict: view.lost === 'request' ? 'refused' : 'dropped',",
    to: "return { verdict: 'refused',",
    holds: async (mod) => tool(await mod.lintTools(recorded('openapi-pet-clinic')), 'crt-pet').hosts['claude-code-2025-07']!.verdict === 'dropped',
  },
  {
    name: 'a dropped enum is not a loss',
    file: 'src/lint/loss.ts',
    from: 'if (Array.isArray(p.enum) && !sameEnum(p.enum, s))',
    to: 'if (false)',
    holds: async (mod) => tool(await mod.lintTools(recorded('server-everything')), 'get-structured-content').hosts.langflow!.verdict === 'lossy',
  },
  {
    name: "the host's own argument check is not run",
    file: 'src/lint/hosts.ts',
    from: '...(await sentLosses(profile, seen))',
    to: '',
    holds: async (mod) => tool(await mod.lintTools(recorded('server-filesystem')), 'read_file').hosts.langflow!.verdict === 'lossy',
  },
  {
    name: 'nextCursor is not followed',
    file: 'src/lint/server.ts',
    from: 'cursor = page.nextCursor;',
    to: 'cursor = undefined;',
    holds: async (mod) => (await json(mod, ['--', process.execPath, join(FIXTURES, 'thirty-tools.mjs')])).tools.length === 30,
  },
  {
    name: 'stdout garbage is not counted',
    file: 'src/lint/server.ts',
    from: 'this.garbage++;',
    to: '',
    holds: async (mod) => (await json(mod, ['--', process.execPath, join(FIXTURES, 'thirty-tools.mjs'), '--banner'])).server.findings.some((f) => f.rule === 'stdout-json-rpc-only'),
  },
  {
    name: 'only the server process is signalled, not its group',
    file: 'src/lint/server.ts',
    from: "if (process.platform !== 'win32') process.kill(-pid, signal);",
    to: 'if (false) process.kill(-pid, signal);',
    holds: async (mod) => {
      const pids = join(work, `pids-${++n}`);
      await json(mod, ['--timeout', '0.5', '--', process.execPath, join(FIXTURES, 'garbage-hang.mjs'), pids]);
      const [server, child] = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
      // lint returns once the group is signalled: what is left by then stays (a zombie counts as gone).
      const deadline = Date.now() + 500;
      while (!(gone(server!) && gone(child!)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const clean = gone(server!) && gone(child!);
      for (const pid of [server!, child!]) if (!gone(pid)) process.kill(pid, 'SIGKILL'); // the mutant leaves them; the test does not
      return clean;
    },
  },
];

describe('mutation check: each guard fails when its feature is removed', () => {
  let real: LintModule;

  it('the real linter, bundled the same way, holds every property', async () => {
    real = await build();
    for (const m of mutations) expect(await m.holds(real), m.name).toBe(true);
  });

  it.concurrent.each(mutations)('$name', async (m) => {
    const mutant = await build(m);
    expect(await m.holds(mutant)).toBe(false);
  });
});
