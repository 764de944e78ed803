/**
 * The linter outside a clone: the tarball `npm run pack-lint` makes
 * (scripts/pack-lint.mjs: package.json "bin", built by scripts/build-bin.mjs,
 * with the kit's manifest minus its dependencies) holds one plain JavaScript file and
 * needs nothing but Node: it installs into an empty folder with
 * `npm install --offline` (no dependency to fetch), and its `schema-breaks
 * lint` lints a real server from there, with no tsx, TypeScript or kit
 * sources around it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REAL_SERVERS } from './helpers/lint.js';
import { REPO } from './helpers/server.js';

const dir = mkdtempSync(join(tmpdir(), 'schema-breaks-pack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error' } });

describe('npm run pack-lint, then npx in an empty folder', () => {
  let tarball: string;
  let app: string;

  it('packs the bundled command, with its README and license, and nothing else, with no dependency', () => {
    const [packed] = JSON.parse(npm(['run', '--silent', 'pack-lint', '--', dir], REPO)) as { filename: string; files: { path: string }[] }[];
    tarball = join(dir, packed!.filename);
    expect(packed!.files.map((f) => f.path).sort()).toEqual(['LICENSE', 'README.md', 'dist/schema-breaks.mjs', 'package.json']);
    const manifest = JSON.parse(execFileSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' }));
    expect(manifest.bin).toEqual({ 'schema-breaks': 'dist/schema-breaks.mjs' });
    expect(manifest.dependencies ?? {}).toEqual({});
    // What only the kit uses stays out: its scripts (a "prepack" of its own, say) would run at install.
    expect(manifest.scripts ?? {}).toEqual({});
    // Plain JS that imports nothing but Node's own modules.
    const code = execFileSync('tar', ['-xOzf', tarball, 'package/dist/schema-breaks.mjs'], { encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
    expect(code.startsWith('#!/usr/bin/env node\n')).toBe(true);
    // (ajv writes require("ajv/dist/runtime/...") into the code it generates, inside strings: not imports of the bundle;
    // so does json-schema-to-zod, a dependency of the Mastra profile's packages, for the zod code it writes out:
    // `${jsdocs}const { z } = require("zod")` and `import { z } from "zod"` in template strings.)
    const generated = /^\s*result = `(?:\$\{jsdocs\})?(?:const \{ z \} = require|import \{ z \} from)\b/;
    const scanned = code.split('\n').filter((line) => !generated.test(line)).join('\n');
    const imported = [...scanned.matchAll(/^import\s.*?from\s*["']([^"']+)["']/gm), ...scanned.matchAll(/(?<![`'"\w.])require\(["']([^"']+)["']\)/g)].map((m) => m[1]!);
    const builtin = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    expect(imported.filter((m) => !builtin.has(m))).toEqual([]);
  });

  it('installs offline into an empty folder', () => {
    app = join(dir, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), '{ "name": "app", "version": "1.0.0", "private": true }\n');
    npm(['install', '--offline', '--no-audit', '--no-fund', tarball], app);
    expect(JSON.parse(readFileSync(join(app, 'node_modules/schema-breaks/package.json'), 'utf8')).version).toBe('0.1.0');
  });

  it('lints a real server with npx, with only Node on the PATH', () => {
    const env = { PATH: dirname(process.execPath), HOME: dir, NO_COLOR: '1', npm_config_cache: join(dir, 'npm-cache') };
    const run = (args: string[]) => spawnSync(process.execPath, [join(app, 'node_modules/.bin/schema-breaks'), ...args], { cwd: app, env, encoding: 'utf8', timeout: 30_000 });
    const clean = run(['lint', '--json', '--', process.execPath, ...REAL_SERVERS['server-memory']!]);
    expect(clean.status, clean.stderr).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ format: 'schema-breaks/lint', version: 1, server: { name: 'memory-server' } });
    const flagged = run(['lint', '--', process.execPath, join(REPO, 'test/fixtures/lint/thirty-tools.mjs')]);
    expect(flagged.status, flagged.stdout.slice(-600) + flagged.stderr.slice(-600)).toBe(1);
    expect(flagged.stdout).toContain('no-structural-union');
    const variant = run(['lint', '--variant', 'baseline']);
    expect(variant.status).toBe(2);
    expect(variant.stderr).toBe("schema-breaks: --variant lints the kit's own server and needs a clone of the kit (npm run lint there); here, give your server's command after --\n");
    // And through npx itself, as the README says.
    const npx = spawnSync('npx', ['--offline', 'schema-breaks', 'lint', '--help'], { cwd: app, env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 30_000 });
    expect(npx.status, npx.stderr).toBe(0);
    expect(npx.stdout).toMatch(/^Usage: schema-breaks lint \[options\] -- <command> \[args\.\.\.\]/);
  });
});
