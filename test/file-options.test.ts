/**
 * One rule for where a file option writes (src/core/file-option.ts, issue 32),
 * checked on every command's file options through real `npm run`, in a copy of
 * the kit, typed in a folder that is not the kit's root (work/): a bare name,
 * a `./` name and a subfolder's name land exactly there, from work/; no name
 * puts the command's default in the kit's out/; and each command names each
 * file it wrote in one line, as the user would type its path from work/.
 *
 * Also: a saved file that starts with npm's banner (`npm run lab -- ... --json
 * > run.json` without -s) is one line and exit 2 wherever the kit reads one.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitCopy, linkHosts, linkInstall, npmRun, personEnv, removeKitCopies } from './helpers/kit-copy.js';

let kit: string;
let work: string;

beforeAll(() => {
  kit = kitCopy();
  linkInstall(kit);
  linkHosts(kit);
  work = join(kit, 'work');
  mkdirSync(work);
}, 120_000);
afterAll(removeKitCopies, 120_000);

/** The three ways of naming a file, each from work/ (the folder typed in), and where the file must land. */
const NAMED = [
  ['a bare name', (name: string) => name, (name: string) => join(work, name)],
  ['a ./ name', (name: string) => `./${name}`, (name: string) => join(work, name)],
  ['a subfolder', (name: string) => `deep/er/${name}`, (name: string) => join(work, 'deep', 'er', name)],
] as const;

/** `npm run <script> -- <args>` typed in work/ (npm finds the kit above it; INIT_CWD is work/). */
function run(script: string, args: string[]) {
  const result = npmRun(work, script, args, { LANG: 'en_GB.UTF-8', LC_ALL: '', LC_MESSAGES: '' }, 240_000);
  expect(result.status, `npm run ${script} -- ${args.join(' ')}:\n${result.stdout}\n${result.stderr}`).toBe(0);
  return `${result.stdout}${result.stderr}`;
}

/** The file is there, and the command named it in exactly one line as forUser() shows it from work/: relative under it, else absolute. */
function landed(output: string, file: string): void {
  expect(existsSync(file), `${file} was not written; the command said:\n${output}`).toBe(true);
  const shown = relative(work, file).startsWith('..') ? file : relative(work, file);
  const lines = output.split('\n').filter((line) => line === `wrote ${shown}`);
  expect(lines, `one "wrote ${shown}" line in:\n${output}`).toHaveLength(1);
}

/** Each command with a file option: the arguments that name `path` (undefined: the default), and the file they make. */
interface Case {
  command: string;
  script: string;
  args: (path: string | undefined) => string[];
  name: string;
  /** Where the file goes with no path; absent: the option has no default (it is what asks for the file). */
  fallback?: string;
}

const SAVED = 'saved-run.json';
const LINT_FILES = ['l.sarif', 'l.html', 'l.fixed.json', 'l.tools.json', 'l.baseline.json'];

const CASES: Case[] = [
  { command: 'lab --html', script: 'lab', args: (p) => ['--variant', 'baseline', '--calls', '3', '--html', p!], name: 'lab.html' },
  { command: 'report -o', script: 'report', args: (p) => [SAVED, ...(p === undefined ? [] : ['-o', p])], name: 'page.html', fallback: 'out/saved-run.html' },
  { command: 'class report --out', script: 'class', args: (p) => ['report', ...(p === undefined ? [] : ['--out', p])], name: 'class.html', fallback: 'out/class-report.html' },
  { command: 'class handout --out', script: 'class', args: (p) => ['handout', 'broken-schema', '--lang', 'en', ...(p === undefined ? [] : ['--out', p])], name: 'h.html', fallback: 'out/handouts/broken-schema.en.html' },
  // The sweep kept small (one lab, one client, one build, 3 calls): where it writes is the point, not what it measures.
  { command: 'class sweep --out', script: 'class', args: (p) => ['sweep', '--labs', 'broken-schema', '--clients', 'faithful', '--servers', 'low-level', '--calls', '3', '--jobs', '1', ...(p === undefined ? [] : ['--out', p])], name: 's.html', fallback: 'out/sweep.html' },
  { command: 'class sweep --work', script: 'class', args: (p) => ['sweep', '--labs', 'broken-schema', '--clients', 'faithful', '--servers', 'low-level', '--calls', '3', '--jobs', '1', '--out', 'sweep-page.html', '--work', p!], name: 'work.json' },
];

describe('where a file option writes, typed in a folder that is not the kit root', () => {
  beforeAll(() => {
    // The saved run `report` reads, written as the docs say (npm run -s: nothing of npm's in it).
    const saved = spawnSync('sh', ['-c', `npm run -s lab -- --variant baseline --calls 3 --json > ${SAVED}`], { cwd: work, encoding: 'utf8', env: cleanEnv() });
    expect(saved.status, saved.stderr).toBe(0);
    JSON.parse(readFileSync(join(work, SAVED), 'utf8'));
  }, 120_000);

  for (const c of CASES) {
    for (const [how, path, where] of NAMED) {
      it(`${c.command} with ${how}`, { timeout: 240_000 }, () => {
        const file = path(c.name);
        landed(run(c.script, c.args(file)), where(c.name));
      });
    }
    if (c.fallback !== undefined) {
      it(`${c.command} with no path: the kit's ${c.fallback}`, { timeout: 240_000 }, () => {
        const output = run(c.script, c.args(undefined));
        landed(output, join(kit, c.fallback!));
        expect(existsSync(join(work, 'out')), 'nothing is written under the folder typed in').toBe(false);
      });
    }
  }

  // lint's five file options, each way of naming them in one run (they have no defaults: each asks for its file).
  for (const [how, path, where] of NAMED) {
    it(`lint --sarif, --html, --fix-schema, --save, --write-baseline with ${how}`, { timeout: 240_000 }, () => {
      const [sarif, html, fixed, tools, baseline] = LINT_FILES.map(path);
      const output = run('lint', ['--variant', 'broken-schema', '--fail-on', 'none', '--sarif', sarif!, '--html', html!, '--fix-schema', fixed!, '--save', tools!, '--write-baseline', baseline!]);
      for (const name of LINT_FILES) landed(output, where(name));
      for (const name of LINT_FILES.filter((n) => n.endsWith('.json') || n.endsWith('.sarif'))) JSON.parse(readFileSync(where(name), 'utf8'));
    });
  }

  it("each command's --help says the rule (the same sentence, src/core/messages)", { timeout: 240_000 }, () => {
    const rule = "A FILE you name is written exactly there, read from the folder you typed the command in;\na file you do not name goes into the kit's out/ folder (ignored by git). Each file written is named in one line.";
    for (const [script, args] of [['lab', ['--help']], ['report', ['--help']], ['class', ['--help']], ['class', ['sweep', '--help']], ['lint', ['--help']]] as const) {
      expect(run(script, [...args]), `npm run ${script} -- ${args.join(' ')}`).toContain(rule);
    }
    expect(npmRun(work, 'lab', ['--help'], { LANG: 'es_ES.UTF-8', LC_ALL: '', LC_MESSAGES: '' }).stdout).toContain('Un FILE que nombras se escribe justo ahí');
  });
});

describe("a saved file with npm's banner in it", () => {
  /** Writes a file as a shell redirect does, through npm run without -s: npm's banner first. */
  function redirected(command: string, file: string): void {
    const result = spawnSync('sh', ['-c', `${command} > ${file}`], { cwd: work, encoding: 'utf8', env: cleanEnv() });
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(work, file), 'utf8')).toMatch(/^\s*> schema-breaks@/);
  }

  function refused(script: string, args: string[], file: string): void {
    const result = npmRun(work, script, args, { LANG: 'en_GB.UTF-8', LC_ALL: '', LC_MESSAGES: '' });
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${file} starts with npm's own lines (> schema-breaks@`);
    expect(lines[0]).toContain('save it with npm run -s (silent)');
  }

  it('report, class report (a real model run saved in the class folder) and lint --from say so in one line, exit 2', { timeout: 240_000 }, () => {
    redirected('npm run lab -- --variant baseline --calls 3 --json', 'banner-run.json');
    refused('report', ['banner-run.json'], 'banner-run.json');
    mkdirSync(join(work, 'room'));
    writeFileSync(join(work, 'room', 'run.json'), readFileSync(join(work, 'banner-run.json')));
    refused('class', ['report', 'room'], 'run.json');
    redirected('npm run lint -- --variant baseline --tools', 'banner-tools.json');
    refused('lint', ['--from', 'banner-tools.json'], 'banner-tools.json');
  });
});

/** The environment of a command typed in work/: not the npm that started the tests (its INIT_CWD would win). */
function cleanEnv(): NodeJS.ProcessEnv {
  return personEnv({ LANG: 'en_GB.UTF-8', LC_ALL: '', LC_MESSAGES: '' });
}
