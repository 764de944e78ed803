/**
 * The learner's path, tried as a new learner would: in a real pseudo-terminal,
 * in a fresh copy of the kit, `npm run lab` leads by its own words through
 * predicting, running, reading the sheet, fixing in the workspace and
 * `npm run check`, for broken-schema, in English and in Spanish.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launched } from './helpers/lab.js';
import { Terminal } from './helpers/pty.js';
import { freshCopy } from './helpers/copy.js';


const DOWN = '\u001b[B';

const WORDS = {
  en: {
    env: { LANG: 'en_GB.UTF-8' },
    chooseLab: /Which lab\?/,
    chooseAction: /What do you want to do\?/,
    name: /Your name/,
    questions: [/in how many will the model leave out/, /how many retries will the agent make/i, /Of 100 calls, how many fewer will end ok/, /And here, how many fewer/, /Apart from ok, which result will first/, /And here, which result apart from ok/],
    reasoning: /why do you expect that\?/,
    comparison: /Your predictions next to what was measured/,
    assumed: /What did you assume that turned out wrong\?/,
    next: /Next:/,
    readCommand: /npm run lab -- --variant broken-schema --read/,
    sheetHeading: /What to observe/,
    workspaceReady: /Your workspace is ready/,
    notFixed: /Not fixed yet/,
    compilerBlind: /✗ With the break put back on a copy of your workspace, it still type-checks/,
    fixed: /Fixed\. The lab is marked done/,
    stateFixed: /broken-schema\s+fixed/,
    notesTable: /\| question \| predicted \| measured \| off \|/,
    whoBea: /Learner: Bea /g,
    requiredMissing: /parameter "\w+" is needed by the contract but missing from "required"/,
  },
  es: {
    env: { LANG: 'es_ES.UTF-8' },
    chooseLab: /¿Qué laboratorio\?/,
    chooseAction: /¿Qué quieres hacer\?/,
    name: /Tu nombre/,
    questions: [/en cuántas omitirá el modelo/, /cuántos reintentos hará el agente/i, /cuántas menos que en la línea base/, /Y aquí, cuántas menos/, /Aparte de ok, ¿qué resultado/, /Y aquí, qué resultado aparte de ok/],
    reasoning: /por qué esperas eso\?/,
    comparison: /Tus predicciones junto a lo que se midió/,
    assumed: /Qué supusiste que resultó ser falso\?/,
    next: /Siguiente:/,
    readCommand: /npm run lab -- --variant broken-schema --read --lang es/,
    sheetHeading: /Qué observar/,
    workspaceReady: /Tu espacio de trabajo está listo/,
    notFixed: /Aún sin arreglar/,
    compilerBlind: /✗ Con la avería repuesta en una copia de tu espacio de trabajo, los tipos siguen pasando/,
    fixed: /Arreglado\. El laboratorio queda marcado como hecho/,
    stateFixed: /broken-schema\s+arreglado/,
    // breaks.md in the learner's language (hand-written, not read from the catalogue).
    notesTable: /\| pregunta \| predicho \| medido \| desvío \|/,
    whoBea: /Participante: Bea /g,
    requiredMissing: /el contrato necesita el parámetro "\w+", pero falta en "required"/,
  },
} as const;

function npm(dir: string, args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync('npm', ['run', '--silent', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 120_000 });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

/**
 * What `npm run <script> -- <args>` runs, without npm around it (the line
 * package.json gives each script: node scripts/launch.mjs scripts/<script>.ts).
 * The path above goes through npm as the learner types it; the cases below
 * are about the command's answers, not npm's.
 */
function script(dir: string, name: string, args: string[], env: NodeJS.ProcessEnv) {
  const { scripts } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(scripts[name]).toBe(`node scripts/launch.mjs scripts/${name}.ts`);
  const result = launched(`scripts/${name}.ts`, args, dir, env);
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

describe.each(['en', 'es'] as const)('a new learner, in %s', (lang) => {
  const words = WORDS[lang];

  it('goes from npm run lab to a proven fix, led by the kit\'s own words', async () => {
    const dir = freshCopy();

    // 1. npm run lab: the catalogue, then a menu. Enter picks the suggested lab, then "Predict, then run".
    const term = new Terminal('npm run --silent lab', dir, words.env);
    await term.waitFor(/broken-schema/);
    await term.answer(words.chooseLab, '');
    await term.waitFor(words.chooseAction);
    term.type(`${DOWN}\r`);
    await term.answer(words.name, 'Ana María');
    // Predictions: numbers first, then the typed outcome, then one line of reasoning.
    let at = 0;
    const answers = ['30', '2', '10', '5', '-32603', 'isError'];
    for (const [i, question] of words.questions.entries()) at = await term.answer(question, answers[i]!, at);
    await term.answer(words.reasoning, 'partial calls crash inside the tool', at);
    await term.waitFor(words.comparison, 60_000);
    expect(term.screen()).toMatch(/missing-arguments\s+30\s+\d+/);
    expect(term.screen()).toMatch(/dominant-failure\s+rpc:-32603\s+rpc:-32603/);
    await term.answer(words.assumed, 'I expected -32602');
    await term.waitFor(words.next);
    expect(await term.done()).toBe(0);
    const screen = term.screen();
    expect(screen).toMatch(words.readCommand);

    // The notes hold the locked prediction, the run and the reflection, in order.
    const notes = readFileSync(join(dir, 'learners', 'Ana María', 'notes', 'breaks.md'), 'utf8');
    expect(notes.indexOf('prediction')).toBeGreaterThan(0);
    expect(notes.indexOf('· run ·')).toBeGreaterThan(notes.indexOf('· prediction ·'));
    expect(notes).toMatch(/I expected -32602/);
    expect(notes).toMatch(words.notesTable);

    // 2. The command the kit printed: read the sheet.
    const read = npm(dir, ['lab', '--', '--variant', 'broken-schema', '--read', ...(lang === 'es' ? ['--lang', 'es'] : [])], words.env);
    expect(read.status).toBe(0);
    expect(read.out).toMatch(words.sheetHeading);

    // 3. The workspace, a fix that is not there yet, then the fix.
    const ws = npm(dir, ['lab', '--', '--variant', 'broken-schema', '--workspace'], words.env);
    expect(ws.status, ws.out).toBe(0);
    expect(ws.out).toMatch(words.workspaceReady);
    const file = join(dir, ws.out.match(/learners\/\S.*conjugate\.ts/)![0]);
    expect(existsSync(file)).toBe(true);
    const notYet = npm(dir, ['check', '--', 'broken-schema'], words.env);
    expect(notYet.status).toBe(1);
    expect(notYet.out).toMatch(words.notFixed);
    expect(notYet.out).toMatch(/required-parameters\s+conjugate \/inputSchema\/required/);
    // The rule's message in the learner's language.
    expect(notYet.out).toMatch(words.requiredMissing);
    // Undoing the break alone is not lab 1's fix: the sheet has the learner type the executor from the schema first.
    writeFileSync(file, readFileSync(file, 'utf8').replace('}).partial();', '});'));
    const undone = npm(dir, ['check', '--', 'broken-schema'], words.env);
    expect(undone.status, undone.out).toBe(1);
    expect(undone.out).toMatch(words.compilerBlind);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/interface ConjugateInput \{[^}]*\}/, 'type ConjugateInput = z.infer<typeof ConjugateArgs>;'));
    const fixed = npm(dir, ['check', '--', 'broken-schema'], words.env);
    expect(fixed.status, fixed.out).toBe(0);
    expect(fixed.out).toMatch(words.fixed);

    // 4. Back at the catalogue, the lab shows as fixed.
    const after = npm(dir, ['lab'], words.env);
    expect(after.out).toMatch(words.stateFixed);
    // A dozen commands through npm, three checks among them (tsc each): 30 s alone, twice that beside the suite's other files.
  }, 180_000);

  it('names the learner once when the menu runs what was chosen', async () => {
    const dir = freshCopy();
    const term = new Terminal('npm run --silent lab -- --learner Bea', dir, words.env);
    await term.answer(words.chooseLab, '');
    await term.waitFor(words.chooseAction);
    // The fourth action: the check (no workspace yet, which it says after the who line).
    term.type(`${DOWN}${DOWN}${DOWN}\r`);
    await term.done();
    expect(term.screen().match(words.whoBea)?.length, term.screen()).toBe(1);
  });

  it('Ctrl+C at a prompt writes nothing', async () => {
    const dir = freshCopy();
    const term = new Terminal('npm run --silent lab -- --variant broken-schema --learner Bea', dir, words.env);
    await term.waitFor(words.questions[0]!);
    term.type('\u0003');
    expect(await term.done()).not.toBe(0);
    expect(existsSync(join(dir, 'learners', 'Bea', 'notes', 'breaks.jsonl'))).toBe(false);
  });
});

describe('without a terminal', () => {
  const plain = (dir: string, args: string[]) => script(dir, 'lab', args, { LANG: 'en_GB.UTF-8' });

  it('says what to do and exits 2 instead of waiting for answers', () => {
    const dir = freshCopy();
    const result = plain(dir, ['--variant', 'broken-schema', '--learner', 'Cai']);
    expect(result.status).toBe(2);
    expect(result.out).toMatch(/--no-predict .*--predict FILE/s);
    expect(existsSync(join(dir, 'learners', 'Cai', 'notes'))).toBe(false);
  });

  it('--no-predict runs and says it asked nothing', () => {
    const dir = freshCopy();
    const result = plain(dir, ['--variant', 'broken-schema', '--no-predict', '--calls', '20']);
    expect(result.status, result.out).toBe(0);
    expect(result.out).toMatch(/Not asking for predictions \(--no-predict\)/);
    // No predictions, no column of them (issue 35): what was measured alone.
    expect(result.out).toMatch(/What was measured \(no predictions\)/);
    expect(result.out).not.toContain('(no answer)');
  });

  it('--predict FILE answers the questions, and a question the lab does not have is refused', () => {
    const dir = freshCopy();
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ answers: { 'missing-arguments': 25, 'dominant-failure': 'isError' }, reasoning: 'a guess' }));
    const ok = plain(dir, ['--variant', 'broken-schema', '--predict', good, '--learner', 'Dee', '--calls', '20']);
    expect(ok.status, ok.out).toBe(0);
    expect(ok.out).toMatch(/dominant-failure\s+isError\s+rpc:-32603\s+wrong/);
    const entries = readFileSync(join(dir, 'learners', 'Dee', 'notes', 'breaks.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(entries.map((e) => e.kind)).toEqual(['prediction', 'run']);

    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ answers: { 'how-many-cats': 3 } }));
    const refused = plain(dir, ['--variant', 'broken-schema', '--predict', bad, '--learner', 'Dee']);
    expect(refused.status).toBe(2);
    expect(refused.out).toMatch(/"how-many-cats" is not a question of broken-schema/);

    // A reasoning past the class's bound (2,000 characters, src/learn/class-wire.ts LIMITS) is refused before anything is written:
    // a live class would refuse the entry, and it would wait in the learner's queue for ever.
    const long = join(dir, 'long.json');
    writeFileSync(long, JSON.stringify({ answers: {}, reasoning: 'é'.repeat(2001) }));
    const tooLong = plain(dir, ['--variant', 'broken-schema', '--predict', long, '--learner', 'Eve']);
    expect(tooLong.status, tooLong.out).toBe(2);
    expect(tooLong.out).toMatch(/"reasoning": at most 2000 characters, please \(this is 2001\)/);
    expect(existsSync(join(dir, 'learners', 'Eve', 'notes', 'breaks.jsonl'))).toBe(false);
  });

  it('a corrupt journal is one line and exit 2, never a stack trace, and is left as it was', () => {
    const dir = freshCopy();
    const notes = join(dir, 'learners', 'Fay', 'notes');
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, 'breaks.jsonl'), '{"not": "an entry"\n');
    for (const args of [['--variant', 'broken-schema', '--learner', 'Fay', '--no-predict', '--calls', '5'], ['--variant', 'broken-schema', '--reset', '--yes', '--learner', 'Fay']]) {
      const result = plain(dir, args);
      expect(result.status, result.out).toBe(2);
      expect(result.out).toMatch(/^lab: .*breaks\.jsonl/m);
      expect(result.out).not.toMatch(/^\s+at /m);
    }
    expect(readFileSync(join(notes, 'breaks.jsonl'), 'utf8')).toBe('{"not": "an entry"\n');
  });

  it('--learner on a command that fails does not switch the remembered learner', () => {
    const dir = freshCopy();
    expect(plain(dir, ['--variant', 'broken-schema', '--workspace', '--learner', 'Gus']).status).toBe(0);
    expect(readFileSync(join(dir, 'learners', '.current'), 'utf8').trim()).toBe('Gus');
    // A reset asks first; without a terminal and without --yes it refuses.
    const refused = plain(dir, ['--variant', 'broken-schema', '--reset', '--learner', 'Hal']);
    expect(refused.status).toBe(2);
    expect(readFileSync(join(dir, 'learners', '.current'), 'utf8').trim()).toBe('Gus');
  });

  it('--lang es is remembered for the next command, and --workspace speaks it', () => {
    const dir = freshCopy();
    expect(plain(dir, ['--variant', 'broken-schema', '--read', '--lang', 'es']).status).toBe(0);
    const ws = plain(dir, ['--variant', 'broken-schema', '--workspace', '--learner', 'Jo']);
    expect(ws.out).toMatch(/Tu espacio de trabajo está listo/);
    const again = plain(dir, ['--variant', 'broken-schema', '--workspace', '--learner', 'Jo']);
    expect(again.status).toBe(2);
    expect(again.out).toMatch(/ya existe; tus cambios están ahí/);
  });

  it('an outcome typed with a typo is refused, naming the outcomes there are', () => {
    const dir = freshCopy();
    const typo = join(dir, 'typo.json');
    writeFileSync(typo, JSON.stringify({ answers: { 'dominant-failure': 'isEror' } }));
    const result = plain(dir, ['--variant', 'broken-schema', '--predict', typo, '--learner', 'Ivo']);
    expect(result.status).toBe(2);
    expect(result.out).toMatch(/"isEror" is not an outcome; outcomes are ok, isError/);
  });

  it.each(['../x', 'a/b', 'a\\b'])('refuses the learner name %j with a clear message', (name) => {
    const dir = freshCopy();
    const result = plain(dir, ['--variant', 'broken-schema', '--workspace', '--learner', name]);
    expect(result.status).toBe(2);
    expect(result.out.split('\n').find((l) => l.startsWith('lab:'))).toMatch(/name/i);
    expect(existsSync(join(dir, 'learners'))).toBe(false);
  });
});

describe('npm run check on a workspace that does not work at all', () => {
  it.each([
    ['does not build', (text: string) => `${text}\nthis is not TypeScript (\n`],
    ['crashes at start', (text: string) => `throw new Error('broken on purpose');\n${text}`],
  ])('a server that %s gets a clear message and exit 1', (_what, spoil) => {
    const dir = freshCopy();
    const env = { LANG: 'en_GB.UTF-8' };
    const ws = script(dir, 'lab', ['--variant', 'broken-schema', '--workspace', '--learner', 'Eli'], env);
    expect(ws.status, ws.out).toBe(0);
    const file = join(dir, ws.out.match(/learners\/\S.*conjugate\.ts/)![0]);
    writeFileSync(file, spoil(readFileSync(file, 'utf8')));
    const result = script(dir, 'check', ['broken-schema'], env);
    expect(result.status).toBe(1);
    expect(result.out).toMatch(/Your server does not build or does not start:/);
    expect(result.out).not.toMatch(/^\s+at /m); // a message, not a stack trace
  });
});
