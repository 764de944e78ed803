/**
 * `npm run doctor [-- --lang en|es]`: before a workshop, on each laptop, does
 * this computer have what the kit needs? Node at the version package.json's
 * `engines` asks for; every runtime dependency (package.json `dependencies`,
 * what `npm ci --omit=dev` installs) in node_modules at its pinned version;
 * with the TypeScript compiler built for this computer (src/learn/compiler.ts);
 * a learners folder that can be written; and, shown but never needed by a
 * learner, the host frameworks (hosts/, `npm ci --prefix hosts`) and, for the
 * kit's own tests, Chromium (src/core/chromium.ts). Each miss says what to
 * do. Exit 0 when everything a learner needs is there, 1 otherwise.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { hostsDir } from '../core/bundler.mjs';
import { findChromium } from '../core/chromium.js';
import { forUser } from '../core/cwd.js';
import { detectLang, isLang, LANGS, type Lang } from '../core/lang.js';
import { t, type MessageId, type Values } from '../core/messages/index.js';
import { HELP_OPTION, optionsHelp, parseOptions } from '../core/options.js';
import { UsageError } from '../core/user-error.js';
import { REPO } from '../lab/paths.js';
import { COMPILER_PACKAGE } from '../learn/compiler.js';
import { rememberedLang } from '../learn/learner.js';

const OPTIONS = [
  { name: 'lang', kind: 'string', value: 'en|es', help: 'language of the answers (default: the last one asked for, else the locale)' },
  HELP_OPTION,
] as const;

const USAGE = `Usage: npm run doctor [-- --lang en|es]

Checks what the kit needs on this computer: Node's version, the installed packages,
a learners folder that can be written, and, never needed for the labs, the host
frameworks (npm ci --prefix hosts) and Chromium (for npm test only). Says what to
do for each miss. Exit 0 when every lab command will work, 1 otherwise.

${optionsHelp(OPTIONS)}`;

/** One check's answer: what was found, and for a miss what to do. `needed: false` is a miss the labs do not mind. */
export interface Finding {
  ok: boolean;
  needed: boolean;
  says: [MessageId, Values];
  todo?: [MessageId, Values];
}

interface Manifest {
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function checkNode(manifest: Manifest): Finding {
  const range = manifest.engines?.node ?? '*';
  const version = process.versions.node;
  const ok = semver.satisfies(version, range);
  return { ok, needed: true, says: [ok ? 'doctor.node' : 'doctor.nodeOld', { version, range }], ...(ok ? {} : { todo: ['doctor.nodeFix', { range }] }) };
}

/** The version a pin names: "1.2.3", or the version of an alias "npm:other@1.2.3". */
const pinned = (spec: string) => spec.slice(spec.lastIndexOf('@') + 1);

/** Read from <root>/node_modules/<name>/package.json, not resolved: some packages' `exports` hide their package.json from require. */
function installedVersion(name: string, root = REPO): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** The packages of `wanted` not installed under `root` at the version they pin, as name@version. */
function notInstalled(wanted: [string, string][], root = REPO): string[] {
  return wanted.filter(([name, spec]) => installedVersion(name, root) !== pinned(spec)).map(([name, spec]) => `${name}@${pinned(spec)}`);
}

const listed = (names: string[]) => (names.length > 5 ? `${names.slice(0, 5).join(', ')}, ...` : names.join(', '));

function checkInstall(manifest: Manifest): Finding {
  // Of the optional dependencies, the compiler built for this computer: npm installs the one whose os and cpu match.
  const compiler: [string, string][] = [[COMPILER_PACKAGE, manifest.optionalDependencies?.[COMPILER_PACKAGE] ?? 'none']];
  const wanted = [...Object.entries(manifest.dependencies ?? {}), ...compiler];
  const missing = notInstalled(wanted);
  if (missing.length === 0) return { ok: true, needed: true, says: ['doctor.install', { count: wanted.length }] };
  return { ok: false, needed: true, says: ['doctor.installMissing', { count: missing.length, names: listed(missing) }], todo: ['doctor.installFix', {}] };
}

/** The host frameworks' own install (hosts/package.json): a learner's path never needs it. */
function checkHosts(): Finding {
  const manifest = JSON.parse(readFileSync(join(hostsDir(REPO), 'package.json'), 'utf8')) as Manifest;
  const wanted = Object.entries(manifest.dependencies ?? {});
  const missing = notInstalled(wanted, hostsDir(REPO));
  if (missing.length === 0) return { ok: true, needed: false, says: ['doctor.hosts', { count: wanted.length }] };
  return { ok: false, needed: false, says: ['doctor.hostsMissing', { count: missing.length, names: listed(missing) }], todo: ['doctor.hostsFix', {}] };
}

/** Writes and removes a file in learners/, as the lab commands will (made when missing, as they make it). */
function checkLearners(): Finding {
  const dir = join(REPO, 'learners');
  const path = `${forUser(dir)}/`;
  const probe = join(dir, `.doctor-${randomUUID()}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe);
    return { ok: true, needed: true, says: ['doctor.learners', { path }] };
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { ok: false, needed: true, says: ['doctor.learnersMissing', { path, reason }], todo: ['doctor.learnersFix', { path: forUser(dir) }] };
  }
}

function checkChromium(lang: Lang): Finding {
  const found = findChromium();
  if (found.found) return { ok: true, needed: false, says: ['doctor.chromium', { path: found.path }] };
  const reason = found.variable ? t('doctor.chromiumVariable', lang, { variable: found.variable, path: found.looked[0]! }) : t('doctor.chromiumNone', lang);
  return { ok: false, needed: false, says: ['doctor.chromiumMissing', { reason }], todo: ['doctor.chromiumFix', {}] };
}

/** Every check, in the order a newcomer fixes them: Node, then the install, then the folder; then what only some uses need (the host frameworks, the tests' browser). */
export function diagnose(lang: Lang): Finding[] {
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Manifest;
  return [checkNode(manifest), checkInstall(manifest), checkLearners(), checkHosts(), checkChromium(lang)];
}

/** The findings as the terminal shows them: a mark, what was found, and under a miss what to do. */
export function renderFindings(findings: Finding[], lang: Lang): string {
  const lines = [t('doctor.intro', lang, { root: forUser(REPO) })];
  for (const f of findings) {
    // A miss the labs do not need is marked "-", not "✗": it does not make the computer unready.
    lines.push(`  ${f.ok ? '✓' : f.needed ? '✗' : '-'} ${t(f.says[0], lang, f.says[1])}`);
    if (!f.ok && f.todo) lines.push(`      ${t('doctor.todo', lang)} ${t(f.todo[0], lang, f.todo[1])}`);
  }
  const misses = findings.filter((f) => !f.ok && f.needed).length;
  lines.push('', misses === 0 ? t('doctor.ready', lang) : t('doctor.notReady', lang, { count: misses }));
  return `${lines.join('\n')}\n`;
}

export function main(argv: string[]): number {
  const fail = (message: string) => new UsageError(message, 'npm run doctor -- --help');
  const { values } = parseOptions(OPTIONS, argv, fail);
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.lang !== undefined && !isLang(values.lang)) throw fail(`unknown language "${values.lang}"; one of: ${LANGS.join(', ')}`);
  const lang = (values.lang as Lang | undefined) ?? rememberedLang(REPO) ?? detectLang();
  const findings = diagnose(lang);
  process.stdout.write(renderFindings(findings, lang));
  return findings.some((f) => !f.ok && f.needed) ? 1 : 0;
}
