/**
 * The small things a newcomer hit (issue 35, "Small things a newcomer hit"),
 * each tried as the newcomer met it: the command in a fresh copy of the kit,
 * or the function that answers it. Each failed on 0e6de2a.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../src/learn/catalogue.js';
import { compilerCatchesBreak } from '../src/learn/check.js';
import { renderVerdict } from '../src/learn/flow.js';
import { hints, readSheet } from '../src/learn/sheets.js';
import { createWorkspace } from '../src/learn/workspace.js';
import { CODE_ALPHABET, CODE_LENGTH } from '../src/learn/class-wire.js';
import { joinCode } from '../src/learn/class-link.js';
import { LANGS } from '../src/core/lang.js';
import { freshCopy } from './helpers/copy.js';
import { labHere, launched, SHORT_RUN } from './helpers/lab.js';
import { REPO } from './helpers/server.js';

const lab = (id: string) => loadCatalogue().find((l) => l.id === id)!;
const root = mkdtempSync(join(tmpdir(), 'schema-breaks-newcomer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A learner's command in a copy of the kit, typed from its root. */
const inCopy = (dir: string, args: string[], env: NodeJS.ProcessEnv = {}) => launched('scripts/lab.ts', args, dir, { LANG: 'en_GB.UTF-8', LC_ALL: '', INIT_CWD: dir, ...env });

describe('npm run check on a workspace just created', () => {
  it('says the break is still there, not that it "no longer applies"', () => {
    const dir = createWorkspace('Newt', 'broken-schema', root);
    const caught = compilerCatchesBreak(lab('broken-schema'), dir);
    expect(caught).toBe('present');
    for (const lang of LANGS) {
      const text = renderVerdict(lab('broken-schema'), { fixed: false, violations: [], runs: [], compilerCatchesBreak: caught }, lang);
      expect(text).not.toMatch(/no longer applies|ya no se aplica/);
    }
    expect(renderVerdict(lab('broken-schema'), { fixed: false, violations: [], runs: [], compilerCatchesBreak: caught }, 'en')).toMatch(/✗ Your workspace still has the break/);
  });
});

describe("lab 1's hints and the instructor's notes", () => {
  it.each(LANGS)('a hint names the step npm run check insists on: the executor typed from the schema (%s)', (lang) => {
    const text = hints(readSheet('broken-schema', lang)).map((h) => h.text).join('\n');
    expect(text).toContain('ConjugateInput');
    expect(text).toContain('npm run check');
  });

  it('INSTRUCTOR.md and .es.md do not call the fix one line', () => {
    expect(readFileSync(join(REPO, 'labs', 'INSTRUCTOR.md'), 'utf8')).not.toMatch(/fix is one line/i);
    expect(readFileSync(join(REPO, 'labs', 'INSTRUCTOR.es.md'), 'utf8')).not.toMatch(/arreglo es una línea/i);
  });
});

describe('--no-predict and --predict FILE', () => {
  const dir = freshCopy();

  it('--no-predict shows what was measured, with no column of "(no answer)"', () => {
    const result = inCopy(dir, ['--variant', 'broken-schema', '--no-predict', ...SHORT_RUN]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('(no answer)');
    expect(result.stdout).toMatch(/What was measured \(no predictions\)/);
    expect(result.stdout).toMatch(/missing-arguments\s+\d/);
  });

  it('a bad --predict file is its one line, without the reference before it', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ answers: { 'how-many-cats': 3 } }));
    const result = inCopy(dir, ['--variant', 'broken-schema', '--predict', bad, '--learner', 'Dee']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/"how-many-cats" is not a question of broken-schema/);
    expect(result.stdout).not.toMatch(/Before you predict, the reference/);
  });
});

describe('Spanish all the way', () => {
  it.each([
    [['--variant', 'nope'], /variante desconocida "nope"/],
    [['--variant', 'broken-schema', '--client', 'nope'], /cliente desconocido "nope"/],
    [['--variant', 'broken-schema', '--spec', '2025-06-18'], /--spec ya no existe/],
  ])('%j --lang es: the line and its footer in Spanish', async (args, message) => {
    const result = await labHere([...args, '--lang', 'es']);
    expect(result.status).toBe(2);
    const [line, footer] = result.stderr.split('\n');
    expect(line).toMatch(message);
    expect(footer).toBe('(npm run lab -- --help para ver las opciones)');
  });

  it('a run in Spanish says "línea base", never "baseline", and writes the model\'s numbers with a decimal comma', () => {
    const result = inCopy(freshCopy(), ['--variant', 'broken-schema', '--client', 'faithful', '--calls', '5', '--lang', 'es']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(/\bbaseline\b/);
    expect(result.stdout).toMatch(/línea base: primer intento de cada llamada/);
    expect(result.stdout).toMatch(/modelo: .*dropUnstatedOptional 0,9, guessRate 0,5/);
  });
});

describe('whose notes, the glossary, the join code', () => {
  it.each([
    [['--variant', 'broken-schema', '--read'], 'Ana'],
    [['--variant', 'broken-schema', '--hint', '1'], 'Bo'],
    [['--learners'], 'Cy'],
  ])('%j --learner X makes X current, as INSTRUCTOR.md says', (args, name) => {
    const dir = freshCopy();
    const result = inCopy(dir, [...args, '--learner', name]);
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(dir, 'learners', '.current'), 'utf8').trim()).toBe(name);
  });

  it('the glossary link of a sheet is printed as the path from where the command was typed', () => {
    const dir = freshCopy();
    const result = inCopy(dir, ['--variant', 'broken-schema', '--read']);
    expect(result.stdout).toMatch(/glossary \(labs\/GLOSSARY\.md\)/);
    expect(result.stdout).not.toContain('../GLOSSARY');
    expect(existsSync(join(dir, 'labs', 'GLOSSARY.md'))).toBe(true);
    const es = inCopy(dir, ['--variant', 'broken-schema', '--read', '--lang', 'es']);
    expect(es.stdout).toMatch(/\(labs\/GLOSSARY\.es\.md\)/);
  });

  it('--code: the message says what a code is made of, and the check takes exactly that', async () => {
    const refused = await labHere(['--join', 'http://127.0.0.1:8000', '--code', 'WRONG1']);
    expect(refused.status).toBe(2);
    const line = refused.stderr.split('\n')[0]!;
    // WRONG1 is six letters and digits; what makes it no code is its O and its 1, which no code has.
    expect(line).toMatch(/WRONG1 has O, 1/);
    expect(line).toContain(CODE_ALPHABET);
    const short = await labHere(['--join', 'http://127.0.0.1:8000', '--code', 'K7Q']);
    expect(short.stderr.split('\n')[0]).toMatch(new RegExp(`${CODE_LENGTH}-character code .*K7Q, 3 characters`));
    // Every character the message offers makes a code the check takes; every one it rules out, none.
    for (let at = 0; at < CODE_ALPHABET.length; at += CODE_LENGTH) expect(joinCode(CODE_ALPHABET.slice(at, at + CODE_LENGTH).padEnd(CODE_LENGTH, 'A'))).toBeDefined();
    for (const misread of ['0', 'O', '1', 'I', 'L']) expect(joinCode(`${misread}AAAAA`)).toBeUndefined();
  });
});
