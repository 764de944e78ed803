/**
 * The hints of every lab sheet (issue 23, point 7): they lean only on labs
 * the learner has already done (labs/catalogue.json's order), every command
 * they give is the kit's own and works offline, and the listing of what a
 * server publishes (`npm run lint -- --variant ID --tools`) shows what hint 1
 * of broken-schema asks about.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../src/learn/catalogue.js';
import { LANGS } from '../src/core/lang.js';
import { hints, readSheet } from '../src/learn/sheets.js';
import { REPO } from './helpers/server.js';

const labs = loadCatalogue();
const every = labs.flatMap((lab, at) => LANGS.flatMap((lang) => hints(readSheet(lab.id, lang)).map((hint, i) => ({ lab: lab.id, at, lang, n: i + 1, text: `${hint.title}\n${hint.text}` }))));

/** The commands a hint gives: each line of a code block, and each command in backticks. */
function commands(text: string): string[] {
  const blocks = [...text.matchAll(/```\w*\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n').map((line) => line.trim()).filter(Boolean));
  const inline = [...text.replace(/```\w*\n[\s\S]*?```/g, '').matchAll(/`((?:npm|npx|node|pnpm|yarn|curl) [^`]*)`/g)].map((m) => m[1]!);
  return [...blocks, ...inline];
}

describe('the hints', () => {
  it('are there to check, in both languages', () => {
    expect(every.filter((h) => h.lang === 'en').length).toBeGreaterThanOrEqual(labs.length * 2);
    expect(every.filter((h) => h.lang === 'es').length).toBe(every.filter((h) => h.lang === 'en').length);
  });

  it('lean only on labs before their own in the catalogue', () => {
    const later = every.flatMap((h) =>
      labs
        .map((other, j) => ({ other: other.id, j }))
        // A lab's id as a word of its own: root-transform is not named by root-transform-shape.
        .filter(({ other, j }) => j > h.at && new RegExp(`(?<![\\w-])${other}(?![\\w-])`).test(h.text))
        .map(({ other }) => `${h.lab} (${h.lang}) hint ${h.n} names ${other}, a later lab`),
    );
    expect(later).toEqual([]);
  });

  it('give only the kit\'s own commands, which need no network', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const foreign = every.flatMap((h) =>
      commands(h.text)
        .filter((command) => {
          const npmRun = /^npm run (\S+)/.exec(command);
          if (npmRun) return !scripts.includes(npmRun[1]!);
          // npx runs a package of the kit's own node_modules offline, and fetches anything else (npx -y without asking).
          const npx = /^npx (\S+)/.exec(command);
          if (npx) return npx[1]!.startsWith('-') || !existsSync(join(REPO, 'node_modules', '.bin', npx[1]!));
          return true;
        })
        .map((command) => `${h.lab} (${h.lang}) hint ${h.n}: ${command}`),
    );
    expect(foreign).toEqual([]);
  });

  it('give lint commands that run (exit 0, or 1 for findings: never a usage error)', () => {
    const lint = [...new Set(every.flatMap((h) => commands(h.text)).filter((c) => c.startsWith('npm run lint -- ')))];
    expect(lint.length).toBeGreaterThanOrEqual(3);
    for (const command of lint) {
      const args = command.slice('npm run lint -- '.length).split(/\s+/);
      const result = spawnSync('npm', ['run', '--silent', 'lint', '--', ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
      expect([0, 1], `${command}: ${result.stderr}`).toContain(result.status);
      expect(result.stdout.trim(), command).not.toBe('');
    }
  }, 120_000);
});

describe('npm run lint -- --variant ID --tools', () => {
  function tools(variant: string): { name: string; inputSchema: { properties?: Record<string, unknown>; required?: string[] } }[] {
    const result = spawnSync('npm', ['run', '--silent', 'lint', '--', '--variant', variant, '--tools'], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
    expect(result.status, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as { tools: ReturnType<typeof tools> }).tools;
  }

  it('prints what the server publishes: the baseline requires verb, tense and person, broken-schema nothing', () => {
    // Hand-derived: src/minimcp/tools/conjugate.ts declares the three keys; breaks/broken-schema.patch adds .partial().
    const baseline = tools('baseline').find((t) => t.name === 'conjugate')!;
    const broken = tools('broken-schema').find((t) => t.name === 'conjugate')!;
    expect([...(baseline.inputSchema.required ?? [])].sort()).toEqual(['person', 'tense', 'verb']);
    expect(broken.inputSchema.required ?? []).toEqual([]);
    expect(Object.keys(broken.inputSchema.properties ?? {}).sort()).toEqual(['person', 'tense', 'verb']);
  }, 60_000);
});
