/**
 * `npm run lab -- --variant <lab> --read`: the sheet in two halves. Before
 * the learner has run the lab, only what comes before the stop mark, and one
 * line on how to see the rest; after the run (in the current learner's
 * notes), the whole sheet; --all shows it anyway and says it spoils. On a
 * terminal, long text goes through the pager ($PAGER, else less -R); never
 * off one. Through the real command, in a fresh copy of the kit: piped (a
 * child process) and in a pseudo-terminal (test/helpers/pty.ts), with a
 * pager that only records what it was given.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lab, SHORT_RUN } from './helpers/lab.js';
import { freshCopy } from './helpers/copy.js';
import { Terminal } from './helpers/pty.js';


const STOP = {
  en: 'Stop here until you have run the lab: what follows gives the answers away.',
  es: 'Detente aquí hasta haber ejecutado el laboratorio: lo que sigue da las respuestas.',
};
/** The one line after the stop mark before a run, written out by hand. */
const REST = {
  en: 'The rest of the sheet gives the answers away: it opens once you have run the lab (npm run lab -- --variant broken-schema), or now with npm run lab -- --variant broken-schema --read --all.',
  es: 'El resto de la hoja da las respuestas: se abre cuando hayas ejecutado el laboratorio (npm run lab -- --variant broken-schema --lang es), o ya mismo con npm run lab -- --variant broken-schema --read --all --lang es.',
};

/** The headings of the part of a sheet after its stop mark, read from the sheet's own file. */
function headingsAfterTheStop(dir: string, lang: 'en' | 'es'): string[] {
  const sheet = readFileSync(join(dir, 'labs', 'broken-schema', lang === 'en' ? 'README.md' : 'README.es.md'), 'utf8');
  const after = sheet.slice(sheet.indexOf('<!-- after-the-run -->'));
  return after.split('\n').filter((line) => /^## /.test(line));
}

/** Text as read: colours gone, lines joined (marked reflows a paragraph to the terminal's width). */
const flat = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '').replace(/\s+/g, ' ');

/** What follows the stop line (-1 when there is none). */
function afterTheStop(text: string, lang: 'en' | 'es'): string | -1 {
  const at = flat(text).indexOf(STOP[lang]);
  return at === -1 ? -1 : flat(text).slice(at + STOP[lang].length).trim();
}

const read = (dir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) => lab(['--variant', 'broken-schema', '--read', ...args], dir, env);

/** A pager that writes what it was given, and its arguments, into files next to itself. */
function recordingPager(dir: string): { command: string; got: () => string | undefined; args: () => string | undefined; bin: string } {
  const bin = join(dir, 'fake-bin');
  mkdirSync(bin, { recursive: true });
  const script = join(bin, 'less');
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$*" > "${join(bin, 'args.txt')}"\ncat > "${join(bin, 'got.txt')}"\n`);
  chmodSync(script, 0o755);
  const file = (name: string) => () => (existsSync(join(bin, name)) ? readFileSync(join(bin, name), 'utf8') : undefined);
  return { command: `sh ${script}`, got: file('got.txt'), args: file('args.txt'), bin };
}

describe.each(['en', 'es'] as const)('--read piped to a file, in %s', (lang) => {
  const langArgs = lang === 'en' ? [] : ['--lang', lang];

  it('before a run holds nothing after the stop mark; after the run, the whole sheet', () => {
    const dir = freshCopy();
    const pager = recordingPager(dir);
    const before = read(dir, ['--learner', 'Ana', ...langArgs], { PAGER: pager.command });
    expect(before.status, before.stderr).toBe(0);
    expect(afterTheStop(before.stdout, lang)).toBe(REST[lang]);
    for (const heading of headingsAfterTheStop(dir, lang)) expect(before.stdout).not.toContain(heading);
    // Off a terminal the pager is never started, even with PAGER set.
    expect(pager.got()).toBeUndefined();

    // --all shows it anyway, saying first that it spoils.
    const all = read(dir, ['--all', '--learner', 'Ana', ...langArgs]);
    expect(all.status).toBe(0);
    // The first line says whom the command acts for (as every learner's command does); the sheet's own first line is next.
    expect(all.stdout.split('\n')[0]).toMatch(lang === 'en' ? /^Learner: Ana / : /^Participante: Ana /);
    expect(all.stdout.split('\n')[1]).toMatch(lang === 'en' ? /^--all: .*gives the answers away\.$/ : /^--all: .*da las respuestas\.$/);
    for (const heading of headingsAfterTheStop(dir, lang)) expect(all.stdout).toContain(heading);

    // Ana runs the lab: the whole sheet is hers, with --learner and as the remembered learner.
    expect(lab(['--variant', 'broken-schema', '--no-predict', '--learner', 'Ana', ...langArgs, ...SHORT_RUN], dir).status).toBe(0);
    for (const args of [['--learner', 'Ana'], []]) {
      const after = read(dir, [...args, ...langArgs]);
      expect(after.status).toBe(0);
      for (const heading of headingsAfterTheStop(dir, lang)) expect(after.stdout, heading).toContain(heading);
      expect(flat(after.stdout)).not.toContain(REST[lang]);
      expect(after.stdout).not.toMatch(/^--all/);
    }
    // Whose notes count: another learner, who has not run it, still gets the first half.
    expect(afterTheStop(read(dir, ['--learner', 'Bea', ...langArgs]).stdout, lang)).toBe(REST[lang]);
  });
});

describe('--all', () => {
  it('goes with --read only: one line, exit code 2', () => {
    const dir = freshCopy();
    const result = lab(['--variant', 'broken-schema', '--all'], dir);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^lab: --all goes with --read/);
    expect(result.stderr.trim().split('\n')).toHaveLength(2);
  });

  it('is in --help, in the language of the locale', () => {
    const dir = freshCopy();
    expect(lab(['--help'], dir, { LANG: 'en_GB.UTF-8', LC_ALL: '', LC_MESSAGES: '' }).stdout).toMatch(/--all +with --read: the whole sheet even before you have run the lab/);
    expect(lab(['--help'], dir, { LANG: 'es_ES.UTF-8', LC_ALL: '', LC_MESSAGES: '' }).stdout).toMatch(/--all +con --read: la hoja entera aunque aún no hayas ejecutado el laboratorio/);
  });
});

describe('on a terminal, the pager', () => {
  const command = 'node scripts/launch.mjs scripts/lab.ts --variant broken-schema --read --learner Ana';

  it('$PAGER gets the sheet on its stdin; nothing of it is printed around it', async () => {
    const dir = freshCopy();
    const pager = recordingPager(dir);
    const term = new Terminal(command, dir, { PAGER: pager.command });
    expect(await term.done()).toBe(0);
    const got = pager.got() ?? '';
    expect(flat(got)).toContain('The missing required');
    expect(afterTheStop(got, 'en')).toBe(REST.en);
    expect(flat(term.screen())).not.toContain('The missing required');
  });

  it('without $PAGER, less -R', async () => {
    const dir = freshCopy();
    const pager = recordingPager(dir);
    const term = new Terminal(command, dir, { PAGER: undefined, PATH: `${pager.bin}:${process.env.PATH}` });
    expect(await term.done()).toBe(0);
    expect(pager.args()?.trim()).toBe('-R');
    expect(afterTheStop(pager.got() ?? '', 'en')).toBe(REST.en);
  });

  it('a pager that cannot be started: the sheet is printed directly', async () => {
    const dir = freshCopy();
    const term = new Terminal(command, dir, { PAGER: 'no-such-pager-anywhere' });
    expect(await term.done()).toBe(0);
    expect(afterTheStop(term.screen(), 'en')).toBe(REST.en);
  });

  it('the menu\'s "Read the lab sheet" shows the first half before a run, through the pager', async () => {
    const dir = freshCopy();
    const pager = recordingPager(dir);
    const term = new Terminal('node scripts/launch.mjs scripts/lab.ts --learner Ana', dir, { PAGER: pager.command, LANG: 'en_GB.UTF-8' });
    await term.answer(/Which lab\?/, '');
    await term.answer(/What do you want to do\?/, '');
    expect(await term.done()).toBe(0);
    const got = pager.got() ?? '';
    expect(afterTheStop(got, 'en')).toBe(REST.en);
    for (const heading of headingsAfterTheStop(dir, 'en')) expect(flat(got)).not.toContain(heading);
  });
});
