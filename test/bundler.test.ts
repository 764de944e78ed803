/**
 * The kit's one bundler and cache (src/core/bundler.mjs), used by the
 * launcher, the runner's server builds, the sweep's worker and the packed bin.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { bundle, cacheDir, cached, commandBundle, PROFILE_PACKAGES, sourcesKey } from '../src/core/bundler.mjs';
import { REPO } from './helpers/server.js';
import { linkHosts } from './helpers/kit-copy.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function kit(): string {
  const root = mkdtempSync(join(tmpdir(), 'bundler-test-'));
  roots.push(root);
  mkdirSync(join(root, 'src', 'lab', 'requests'), { recursive: true });
  writeFileSync(join(root, 'src', 'lab', 'requests', 'conjugate.json'), '{"requests": ["eat"]}');
  writeFileSync(join(root, 'src', 'main.ts'), "import data from './lab/requests/conjugate.json' with { type: 'json' };\nconsole.log(JSON.stringify(data));\n");
  writeFileSync(join(root, 'package-lock.json'), '{}');
  return root;
}

const KEY = { dirs: ['src'], endings: ['.ts', '.mjs', '.json'], files: ['package-lock.json'] };

describe('sourcesKey', () => {
  it('changes with any source the bundle is made from, a JSON import included, and only with those', () => {
    const root = kit();
    const first = sourcesKey(root, KEY);
    expect(first).toMatch(/^[0-9a-f]{20}$/);
    expect(sourcesKey(root, KEY)).toBe(first);
    writeFileSync(join(root, 'notes.md'), 'not a source');
    expect(sourcesKey(root, KEY)).toBe(first);
    // The requests the workload reads are JSON: a CLI bundle that hashed only .ts kept serving the old ones.
    writeFileSync(join(root, 'src', 'lab', 'requests', 'conjugate.json'), '{"requests": ["go"]}');
    const second = sourcesKey(root, KEY);
    expect(second).not.toBe(first);
    writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion": 3}');
    expect(sourcesKey(root, KEY)).not.toBe(second);
    expect(sourcesKey(root, { ...KEY, extra: ['a patch'] })).not.toBe(sourcesKey(root, KEY));
  });
});

describe('cached', () => {
  it('builds once, serves the same file after, and bundles what the sources say now', async () => {
    const root = kit();
    let builds = 0;
    const make = (staged: string) => {
      builds++;
      return bundle(join(root, 'src', 'main.ts'), staged);
    };
    const first = await cached(root, 'cli', sourcesKey(root, KEY), 'main.mjs', make);
    expect(first.built).toBe(true);
    expect(first.path.startsWith(cacheDir(root))).toBe(true);
    expect(spawnSync(process.execPath, [first.path], { encoding: 'utf8' }).stdout.trim()).toBe('{"requests":["eat"]}');
    const again = await cached(root, 'cli', sourcesKey(root, KEY), 'main.mjs', make);
    expect(again).toEqual({ path: first.path, built: false });
    expect(builds).toBe(1);
    writeFileSync(join(root, 'src', 'lab', 'requests', 'conjugate.json'), '{"requests": ["go"]}');
    const edited = await cached(root, 'cli', sourcesKey(root, KEY), 'main.mjs', make);
    expect(edited.built).toBe(true);
    expect(spawnSync(process.execPath, [edited.path], { encoding: 'utf8' }).stdout.trim()).toBe('{"requests":["go"]}');
  });

  it('a build that fails leaves nothing in the cache, not even its staged file', async () => {
    const root = kit();
    const failing = async (staged: string) => {
      writeFileSync(staged, 'half a bundle');
      throw new Error('the server does not build');
    };
    await expect(cached(root, 'servers', 'k', 'server.cjs', failing)).rejects.toThrow('the server does not build');
    const folder = join(cacheDir(root), 'servers', 'k');
    expect(existsSync(join(folder, 'server.cjs'))).toBe(false);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('writes an ES module that can require() CommonJS, and a plain script for a snapshot', async () => {
    const root = kit();
    writeFileSync(join(root, 'src', 'req.ts'), "import { createRequire } from 'node:module';\nconsole.log(typeof require);\n");
    await bundle(join(root, 'src', 'req.ts'), join(root, 'esm.mjs'));
    expect(spawnSync(process.execPath, [join(root, 'esm.mjs')], { encoding: 'utf8' }).stdout.trim()).toBe('function');
    await bundle(join(root, 'src', 'main.ts'), join(root, 'script.cjs'), { format: 'iife' });
    expect(readFileSync(join(root, 'script.cjs'), 'utf8')).toMatch(/^\(\(\) => \{/);
  });
});

describe('commandBundle', () => {
  // The profiles of src/lab/profiles/ that run a host's own package, with the packages each imports
  // (read from each profile's import() calls, by hand).
  const IMPORTED = [
    'ai-sdk-6', 'ai-sdk-google-3', 'ai-sdk-mcp-1', // ai-sdk-google.ts
    '@langchain/mcp-adapters', '@langchain/openai', '@langchain/core/tools', 'langchain', // langchain-mcp.ts
    '@mastra/mcp', '@mastra/core/agent', '@ai-sdk/google-v5', // mastra.ts
    '@openai/agents-core', 'sdk-1-20/types.js', // openai-agents.ts
    'gemini-cli-core-0-17/dist/src/utils/schemaValidator.js', 'gemini-cli-core-0-17/dist/src/tools/mcp-tool.js', // gemini-cli-2025-11.ts
  ];

  it("keeps the host frameworks out of the command's file, bundled apart (shared by the commands) and imported only by import()", async () => {
    const entry = await commandBundle(REPO, 'scripts/lint.ts');
    const code = readFileSync(entry, 'utf8');
    for (const pkg of PROFILE_PACKAGES) expect(code).not.toMatch(new RegExp(`from ["']${pkg}["']|import\\(["']${pkg}["']`));
    // Nothing of the frameworks' folder is loaded at start: no static import names it.
    const imports = [...code.matchAll(/import\("(\.\.?\/[^"]+)"\)/g)].map((m) => m[1]!);
    for (const path of imports) expect(code).not.toContain(`from "${path}"`);
    expect(imports.map((path) => basename(path)).sort()).toEqual(IMPORTED.map((i) => `${i.replace(/\W+/g, '_')}.mjs`).sort());
    // One folder holds them all, out of the command's own; another command that runs hosts imports the very same files.
    const folders = new Set(imports.map((path) => resolve(dirname(entry), dirname(path))));
    expect(folders.size).toBe(1);
    const [folder] = folders;
    expect(folder!.startsWith(dirname(entry))).toBe(false);
    const lab = await commandBundle(REPO, 'scripts/lab.ts');
    expect(new Set([...readFileSync(lab, 'utf8').matchAll(/import\("(\.\.?\/[^"]+)"\)/g)].map((m) => resolve(dirname(lab), dirname(m[1]!))))).toEqual(folders);
    // Each is a bundle with the package's own exports.
    for (const path of imports) expect(existsSync(resolve(dirname(entry), path)), path).toBe(true);
    const bundled = (await import(join(folder!, 'gemini_cli_core_0_17_dist_src_utils_schemaValidator_js.mjs'))) as { SchemaValidator: { validate: unknown } };
    expect(typeof bundled.SchemaValidator.validate).toBe('function');
  });

  it('an edit of the kit rebuilds the command, not the frameworks: the edited kit imports the same folder', async () => {
    const frameworks = (entry: string) => new Set([...readFileSync(entry, 'utf8').matchAll(/import\("(\.\.?\/[^"]+)"\)/g)].map((m) => realpathSync(resolve(dirname(entry), dirname(m[1]!)))));
    const before = await commandBundle(REPO, 'scripts/lint.ts');
    // A copy of the kit sharing its node_modules (and so its cache), one source file edited, as by an instructor.
    const copy = mkdtempSync(join(tmpdir(), 'schema-breaks-bundler-'));
    roots.push(copy);
    for (const entry of ['src', 'scripts', 'package.json', 'package-lock.json']) cpSync(join(REPO, entry), join(copy, entry), { recursive: true });
    symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'));
    linkHosts(copy);
    writeFileSync(join(copy, 'src/lab/runner.ts'), `${readFileSync(join(copy, 'src/lab/runner.ts'), 'utf8')}\n// edited by test/bundler.test.ts\n`);
    const after = await commandBundle(copy, 'scripts/lint.ts');
    expect(realpathSync(after)).not.toBe(realpathSync(before));
    expect(frameworks(after)).toEqual(frameworks(before));
    expect(frameworks(after).size).toBe(1);
  });
});
