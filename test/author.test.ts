/**
 * `npm run author` makes a lab from scratch in a copy of the kit, with the
 * instructor's commands alone (issue 34), and `author check` passes on it;
 * then `check` fails, with one line naming the cause, on each fault an
 * instructor can make: a break touching two files, a question whose figure
 * does not move, a fix that fails on a host where the baseline works, a break
 * that the hand-applied copy does not reproduce.
 *
 * The lab: one of the kit's own, `long-description`, made again from
 * scratch (the copy's lab removed first): a usage guide pasted into
 * `conjugate`'s description, past the 1,024 characters OpenAI function
 * calling takes (the profile openai-functions-2026-11, docs/sources.md, "Labs
 * from the field's incidents"), and behind Claude Code of 2026-08, which sends a
 * description as published, where nothing happens. What the test expects is
 * written from those rules by hand: behind OpenAI no call ends ok; behind
 * Claude Code the calls ending ok do not move. The faults of the checks that
 * fail use a `person` that may be null, which Continue's Gemini provider of
 * February 2025 refused (continue-gemini-2025-02) where the baseline works.
 */
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitCopy, linkHosts, npmRun, removeKitCopies } from './helpers/kit-copy.js';
import { REPO } from './helpers/server.js';

const ID = 'long-description';
const WORKSPACE_TOOL = `authoring/${ID}/src/minimcp/tools/conjugate.ts`;
const PERSON = "  person: z.enum(PERSONS).describe('The grammatical person and number.'),";
const NULLABLE = "  person: z.enum(PERSONS).nullable().describe('The grammatical person and number; null for the infinitive.'),";
/** The break: a usage guide pasted into the description, 1,118 characters and the description's own. */
const GUIDE = 'Usage guide: give the verb in its base form, the tense in plain words and the person. '.repeat(13);
const PASTE = ['  description:\n', `  description:\n    ${JSON.stringify(GUIDE)} +\n`] as const;

let kit: string;
/** Wall time of the authoring steps, new to a passing check (the sheets' prose written in between by the test). */
let authoringMs = 0;

const author = (...args: string[]) => npmRun(kit, 'author', args, { LANG: 'C' }, 300_000);
const file = (path: string) => join(kit, path);
const edit = (path: string, from: string, to: string) => {
  const text = readFileSync(file(path), 'utf8');
  expect(text, `${path} holds ${from}`).toContain(from);
  writeFileSync(file(path), text.replace(from, to));
};
/** The ✗ lines of a check's output. */
const failures = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('✗ '));

/** The sheets' prose, as an instructor writes it: every TODO paragraph and hint of the skeleton filled in. */
function writeProse(): void {
  for (const [sheet, words] of [
    ['README.md', 'A usage guide pasted into the description takes it past the 1,024 characters OpenAI function calling takes: every request is refused before the model says a word.'],
    ['README.es.md', 'Una guía de uso pegada en la descripción la lleva más allá de los 1.024 caracteres que admite la llamada a funciones de OpenAI: toda petición se rechaza antes de que el modelo diga nada.'],
  ] as const) {
    const path = file(`labs/${ID}/${sheet}`);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/^(TODO|PENDIENTE) \(npm run author .*$/gm, words));
  }
}

beforeAll(() => {
  kit = kitCopy();
  // The checkout's install, shared (its bundle and server caches too), and its host frameworks for the hold on every host.
  symlinkSync(join(REPO, 'node_modules'), join(kit, 'node_modules'));
  linkHosts(kit);
  // The kit's own lab taken out of the copy, to be made again with the instructor's commands alone.
  for (const path of [`labs/${ID}`, `breaks/${ID}.patch`, `solutions/${ID}.patch`]) rmSync(file(path), { recursive: true });
  const catalogue = JSON.parse(readFileSync(file('labs/catalogue.json'), 'utf8')) as { labs: { id: string }[] };
  catalogue.labs = catalogue.labs.filter((l) => l.id !== ID);
  writeFileSync(file('labs/catalogue.json'), `${JSON.stringify(catalogue, null, 2)}\n`);
  // And its row of docs/workshop.md's answers, which quotes its figures: the instructor writes it once the lab is made.
  const workshop = readFileSync(file('docs/workshop.md'), 'utf8');
  writeFileSync(file('docs/workshop.md'), workshop.split('\n').filter((line) => !line.startsWith(`| \`${ID}\` |`)).join('\n'));
});
afterAll(() => {
  removeKitCopies();
  if (authoringMs > 0) process.stdout.write(`author.test: a lab authored through npm run author, new to a passing check, in ${(authoringMs / 1000).toFixed(1)} s\n`);
});

describe('npm run author makes a lab in a copy of the kit', () => {
  it('from new to a passing check', { timeout: 600_000 }, () => {
    const started = performance.now();
    const made = author('new', ID, '--title', 'A description past 1,024 characters', '--title-es', 'Una descripción de más de 1.024 caracteres');
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    // The skeleton has the parts the kit's sheets have; the lab is at the end of the catalogue.
    const sheet = readFileSync(file(`labs/${ID}/README.md`), 'utf8');
    for (const part of ['## Hypothesis', '<!-- after-the-run -->', '<!-- figures -->', `<!-- include: breaks/${ID}.patch -->`, `<!-- include: solutions/${ID}.patch -->`, '<summary>Hint 3</summary>']) expect(sheet).toContain(part);
    expect(readFileSync(file(`labs/${ID}/README.es.md`), 'utf8')).toContain('<summary>Pista 1</summary>');
    expect((JSON.parse(readFileSync(file('labs/catalogue.json'), 'utf8')) as { labs: { id: string }[] }).labs.at(-1)!.id).toBe(ID);
    // Nothing to measure before the break: one line, exit 2.
    const early = author('questions', ID);
    expect(early.status).toBe(2);
    expect(early.stderr.trim().split('\n')).toEqual([expect.stringContaining(`there is no breaks/${ID}.patch yet`)]);

    // The break, made in the workspace, and the fix.
    edit(WORKSPACE_TOOL, ...PASTE);
    expect(author('break', ID).status).toBe(0);
    expect(readFileSync(file(`breaks/${ID}.patch`), 'utf8')).toContain(`+    ${JSON.stringify(GUIDE)} +`);
    edit(WORKSPACE_TOOL, PASTE[1], PASTE[0]);
    expect(author('fix', ID).status).toBe(0);
    expect(readFileSync(file(`solutions/${ID}.patch`), 'utf8')).toContain(`-    ${JSON.stringify(GUIDE)} +`);

    // The runs: where the incident happens and where it does not; two seeds keep the test short.
    const listed = author('questions', ID, '--runs', 'openai=mcpserver-1.32/openai-functions-2026-11,claude=mcpserver-1.32/claude-code-2026-08', '--seeds', '2');
    expect(listed.status).toBe(0);
    // Behind OpenAI no call ends ok on either seed (the API refuses the request); behind Claude Code it does not move.
    expect(listed.stdout).toMatch(/^ {2}openai\.runs\.variant\.finalOutcomes\.ok {2}baseline \d+ \d+ {2}variant 0 0$/m);
    expect(listed.stdout).not.toMatch(/claude\.runs\.variant\.finalOutcomes\.ok/);
    const picked = author('questions', ID, '--pick', 'openai.runs.variant.finalOutcomes.ok', '--id', 'openai-ok', '--unit', 'calls', '--prompt', 'Of 100 calls behind OpenAI function calling, how many will end ok?', '--prompt-es', 'De 100 llamadas detrás de la llamada a funciones de OpenAI, ¿cuántas terminarán bien?');
    expect(picked.status).toBe(0);
    // A figure that does not move is refused, in one line.
    const still = author('questions', ID, '--pick', 'claude.runs.variant.finalOutcomes.ok');
    expect(still.status).toBe(2);
    expect(still.stderr.trim().split('\n')).toEqual([expect.stringContaining('does not move')]);

    writeProse();
    const sheets = npmRun(kit, 'sheets', [ID], {}, 300_000);
    expect(sheets.status, sheets.stderr).toBe(0);
    const checked = author('check', ID);
    authoringMs = performance.now() - started;
    expect(failures(checked.stdout)).toEqual([]);
    expect(checked.stdout.split('\n').filter((line) => line.startsWith('✓ '))).toHaveLength(7);
    expect(checked.status).toBe(0);
  });

  /** Runs `change`, then check: it fails with the lines `expected` says; the files are put back after. */
  function failsWith(change: () => void): string[] {
    const kept = ['labs/catalogue.json', `breaks/${ID}.patch`, `solutions/${ID}.patch`, `labs/${ID}/README.md`, `labs/${ID}/README.es.md`, `labs/${ID}/baseline.json`, WORKSPACE_TOOL, `authoring/${ID}/src/minimcp/tools/lessons.ts`].map((path) => [path, readFileSync(file(path), 'utf8')] as const);
    try {
      change();
      const checked = author('check', ID);
      expect(checked.status).toBe(1);
      return failures(checked.stdout);
    } finally {
      for (const [path, text] of kept) writeFileSync(file(path), text);
    }
  }

  it('check names a break that touches two files', { timeout: 300_000 }, () => {
    const lines = failsWith(() => {
      edit(WORKSPACE_TOOL, ...PASTE);
      edit(`authoring/${ID}/src/minimcp/tools/lessons.ts`, "import { z } from 'zod';", "import { z } from 'zod';\n// Tidied up while I was here.");
      expect(author('break', ID).status).toBe(0);
    });
    expect(lines).toEqual([expect.stringMatching(/changes 2 source files \(src\/minimcp\/tools\/conjugate\.ts, src\/minimcp\/tools\/lessons\.ts\)/)]);
  });

  it('check names a question whose figure does not move', { timeout: 300_000 }, () => {
    const lines = failsWith(() => {
      // Written into the catalogue by hand (--pick refuses it): the host where nothing happens.
      const catalogue = JSON.parse(readFileSync(file('labs/catalogue.json'), 'utf8')) as { labs: { id: string; questions: unknown[] }[] };
      catalogue.labs.find((l) => l.id === ID)!.questions.push({ id: 'claude-ok', kind: 'number', prompt: { en: 'And behind Claude Code, how many?', es: 'Y detrás de Claude Code, ¿cuántas?' }, figure: { path: 'claude.runs.variant.finalOutcomes.ok', default: 0 } });
      writeFileSync(file('labs/catalogue.json'), `${JSON.stringify(catalogue, null, 2)}\n`);
      expect(npmRun(kit, 'sheets', [ID], {}, 300_000).status).toBe(0);
    });
    expect(lines).toEqual([expect.stringMatching(/^✗ question claude-ok: its figure does not move/)]);
  });

  it('check names a question marked unchanged whose figure moves', { timeout: 300_000 }, () => {
    const lines = failsWith(() => {
      const catalogue = JSON.parse(readFileSync(file('labs/catalogue.json'), 'utf8')) as { labs: { id: string; questions: { id: string; unchanged?: boolean }[] }[] };
      catalogue.labs.find((l) => l.id === ID)!.questions.find((q) => q.id === 'openai-ok')!.unchanged = true;
      writeFileSync(file('labs/catalogue.json'), `${JSON.stringify(catalogue, null, 2)}\n`);
    });
    expect(lines).toEqual([expect.stringMatching(/^✗ question openai-ok is marked "unchanged" but its figure moves/)]);
  });

  it('check names a fix that fails on a host where the baseline works', { timeout: 300_000 }, () => {
    const lines = failsWith(() => {
      // The fix makes the person nullable while it takes the guide out: an anyOf with a null branch, which the Gemini API
      // behind Continue of February 2025 refused (continue-gemini-2025-02), where the baseline works.
      edit(WORKSPACE_TOOL, PERSON, NULLABLE);
      expect(author('fix', ID).status).toBe(0);
    });
    // Both proofs of the hold name the host: its calls (none ends ok) and the linter's verdict (the tool refused).
    expect(lines.filter((line) => /^✗ the fix falls short where the baseline works: long-description on continue-gemini-2025-02 \(mcpserver-1\.32, conjugate\): the solution's calls ending ok 0, 0 /.test(line)), lines.join('\n')).toHaveLength(1);
    expect(lines.filter((line) => /^✗ the fix fares worse than the baseline on a host \(npm run lint\): continue-gemini-2025-02: conjugate \w+ -> refused/.test(line)), lines.join('\n')).toHaveLength(1);
    // Every line names the fix, and no host but those that refuse a union with a null branch.
    for (const line of lines) expect(line).toMatch(/the fix|contract tests stay red on the fix/);
  });

  it('check names a break that the hand-applied copy does not reproduce', { timeout: 300_000 }, () => {
    const lines = failsWith(() => {
      // A server that answers at random: the same sources measure differently each time.
      edit(WORKSPACE_TOOL, ...PASTE);
      edit(WORKSPACE_TOOL, '  execute(args: ConjugateInput) {\n', "  execute(args: ConjugateInput) {\n    if (Math.random() < 0.5) throw new Error('busy, try again');\n");
      expect(author('break', ID).status).toBe(0);
      edit(WORKSPACE_TOOL, PASTE[1], PASTE[0]);
      edit(WORKSPACE_TOOL, "    if (Math.random() < 0.5) throw new Error('busy, try again');\n", '');
      expect(author('fix', ID).status).toBe(0);
    });
    expect(lines[0]).toMatch(/^✗ applied by hand to a copy of the sources, the break measures differently from the variant the runner built/);
  });

  it('a bad command line is one line and exit 2', () => {
    for (const args of [[], ['nope', ID], ['new', 'Bad Id'], ['new', ID], ['questions', ID, '--runs', 'x=nowhere/faithful'], ['break', ID, '--seeds', '3'], ['check', 'no-such-lab']]) {
      const bad = author(...args);
      expect(bad.status, args.join(' ')).toBe(2);
      expect(bad.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });
});
