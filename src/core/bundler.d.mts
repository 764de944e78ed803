// Types of bundler.mjs (plain JavaScript, so that scripts/launch.mjs can use it before anything compiles TypeScript).

/** Where the bundles of the kit at `root` are cached: node_modules/.cache/schema-breaks. */
export function cacheDir(root: string): string;

export interface SourcesKeyOptions {
  /** Folders (relative to root) whose files are hashed, recursively. */
  dirs?: string[];
  /** Only the files under `dirs` whose names end so (all files when empty). */
  endings?: string[];
  /** Single files (relative to root); missing ones are skipped. */
  files?: string[];
  /** Anything else the bundle depends on (a patch's content, an option). */
  extra?: (string | Buffer)[];
}

/** A 20-hex-digit key for what a bundle is made from, esbuild's version included. */
export function sourcesKey(root: string, options: SourcesKeyOptions): string;

/** sourcesKey's hash of the files, before its `extra`: finish a copy() of it per bundle. */
export function sourcesHash(root: string, options: Omit<SourcesKeyOptions, 'extra'>): import('node:crypto').Hash;

export interface BundleOptions {
  format?: 'esm' | 'iife';
  external?: string[];
  nodePaths?: string[];
  /** A `#!/usr/bin/env node` first line (the packed bin). */
  shebang?: boolean;
  logLevel?: 'silent' | 'warning';
  legalComments?: 'eof';
  /** The folder the bundle's comments name files relative to: the same sources give the same bytes wherever they were copied. */
  absWorkingDir?: string;
  /** esbuild plugins (commandBundle's, which sends the host frameworks to their own bundles). */
  plugins?: import('esbuild').Plugin[];
}

/** One file for Node 20 from a TypeScript entry point (an ES module unless `format: 'iife'`). */
export function bundle(entry: string, outfile: string, options?: BundleOptions): Promise<void>;

/** ES modules in `outdir`, one `<name>.mjs` per entry (a file, or a package specifier resolved from `absWorkingDir`), what they share in chunks under `chunks/`. */
export function splitBundle(entries: Record<string, string>, outdir: string, options?: { logLevel?: 'silent' | 'warning'; absWorkingDir?: string }): Promise<void>;

/** The npm packages of the host frameworks that profiles run (src/lab/profiles/), bundled apart from the kit (bundleWithHosts). */
export const PROFILE_PACKAGES: string[];

/** Whether `specifier` imports a host framework (one of PROFILE_PACKAGES, or a file in one). */
export function isHostImport(specifier: string): boolean;

/** The npm project the host frameworks are installed in (`npm ci --prefix hosts`): hosts/ under the kit at `root`. */
export function hostsDir(root: string): string;

/** Whether the package a host import names is installed (hosts/node_modules, then the kit's node_modules). */
export function hostInstalled(root: string, specifier: string): boolean;

/** Which host packages are installed, as a line for a bundle's key. */
export function installedHosts(root: string): string;

/** A name beside `path` for a file written in full before it is renamed to `path`: its own per process and call. */
export function stagedPath(path: string): string;

/** The cached file or folder `<cache>/<kind>/<key>/<name>`, made by `make(staged, final)` when missing and renamed into place once complete. */
export function cached(root: string, kind: string, key: string, name: string, make: (staged: string, final: string) => Promise<void>): Promise<{ path: string; built: boolean }>;

/** The cached bundle of a command-line entry point (`scripts/lab.ts`, relative to root), built when the kit's sources changed: the path of its entry file (the host frameworks in their own bundle, shared by the commands), what scripts/launch.mjs starts. */
export function commandBundle(root: string, entry: string): Promise<string>;

/** One ES module of `entry` in `file`, the host frameworks it imports loaded from their own bundle by a path relative to `folder`, where `file` will be once renamed into place. */
export function bundleWithHosts(root: string, entry: string, file: string, folder: string, external?: string[]): Promise<void>;
