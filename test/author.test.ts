/**
 * `npm run author` makes a lab from scratch in a copy of the kit, with the
 * instructor's commands alone (issue 34), and `author check` passes on it;
 * then `check` fails, with one line naming the cause, on each fault an
 * instructor can make: a break touching two files, a question whose figure
 * does not move, a fix that fails on a host where the baseline works, a break
 * that the hand-applied copy does not reproduce.
 *
 * The lab: a `person` that may be null (`z.enum(...).nullable()`, published
 * by zod 4.6.7 as an `anyOf` with a `{"type": "null"}` branch), behind
 * Continue's Gemini provider of February 2025, whose API refused a `null`
 * branch in a union (the profile continue-gemini-2025-02, docs/sources.md,
 * "Hosts"), and shown as published (faithful), where nothing happens. What
 * the test expects is written from those rules by hand: behind Continue no
 * call ends ok; with the schema as published, the calls ending ok do not move.
 */
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitCopy, linkHosts, npmRun, removeKitCopies } from './helpers/kit-copy.js';
import { REPO } from './helpers/server.js';

const ID = 'nullable-person';
const WORKSPACE_TOOL = `authoring/${ID}/src/minimcp/tools/conjugate.ts`;
const PERSON = "  person: z.enum(PERSONS).describe('The grammatical person and number.'),";
const NULLABLE = "  person: z.enum(PERSONS).nullable().describe('The grammatical person and number; null for the infinitive.'),";

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
    ['README.md', 'A nullable person reaches Continue as a union with a null branch, which the Gemini API of February 2025 refused: every request fails before the model says a word.'],
    ['README.es.md', 'Una persona anulable llega a Continue como una unión con una rama null, que la API de Gemini de febrero de 2025 rechazaba: toda petición falla antes de que el modelo diga nada.'],
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
});
afterAll(() => {
  removeKitCopies();
  if (authoringMs > 0) process.stdout.write(`author.test: a lab authored through npm run author, new to a passing check, in ${(authoringMs / 1000).toFixed(1)} s\n`);
});

describe('npm run author makes a lab in a copy of the kit', () => {
  it('from new to a passing check', { timeout: 600_000 }, () => {
    const started = performance.now();
    const made = author('new', ID, '--title', 'A person that may be null', '--title-es', 'Una persona que puede ser nula');
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
    edit(WORKSPACE_TOOL, PERSON, NULLABLE);
    expect(author('break', ID).status).toBe(0);
    expect(readFileSync(file(`breaks/${ID}.patch`), 'utf8')).toContain(`+${NULLABLE}`);
    edit(WORKSPACE_TOOL, NULLABLE, PERSON);
    expect(author('fix', ID).status).toBe(0);
    expect(readFileSync(file(`solutions/${ID}.patch`), 'utf8')).toContain(`+${PERSON}`);

    // The runs: where the incident happens and where it does not; two seeds keep the test short.
    const listed = author('questions', ID, '--runs', 'continue=mcpserver-1.32/continue-gemini-2025-02,faithful=mcpserver-1.32/faithful', '--seeds', '2');
    expect(listed.status).toBe(0);
    // Behind Continue no call ends ok on either seed (the API refuses the request); with the schema as published it does not move.
    expect(listed.stdout).toMatch(/^ {2}continue\.runs\.variant\.finalOutcomes\.ok {2}baseline \d+ \d+ {2}variant 0 0$/m);
    expect(listed.stdout).not.toMatch(/faithful\.runs\.variant\.finalOutcomes\.ok/);
    const picked = author('questions', ID, '--pick', 'continue.runs.variant.finalOutcomes.ok', '--id', 'continue-ok', '--unit', 'calls', '--prompt', 'Of 100 calls behind Continue, how many will end ok?', '--prompt-es', 'De 100 llamadas detrás de Continue, ¿cuántas terminarán bien?');
    expect(picked.status).toBe(0);
    // A figure that does not move is refused, in one line.
    const still = author('questions', ID, '--pick', 'faithful.runs.variant.finalOutcomes.ok');
    expect(still.status).toBe(2);
    expect(still.stderr.trim().split('\n')).toEqual([expect.stringContaining('does not move')]);

    writeProse();
    expect(npmRun(kit, 'sheets', [ID], {}, 300_000).status).toBe(0);
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
      edit(WORKSPACE_TOOL, PERSON, NULLABLE);
      edit(`authoring/${ID}/src/minimcp/tools/lessons.ts`, "import { z } from 'zod';", "import { z } from 'zod';\n// Tidied up while I was here.");
      expect(author('break', ID).status).toBe(0);
    });
    expect(lines).toEqual([expect.stringMatching(/changes 2 source files \(src\/minimcp\/tools\/conjugate\.ts, src\/minimcp\/tools\/lessons\.ts\)/)]);
  });

  it('check names a question whose figure does not move', { timeout: 300_000 }, () => {
    const lines = failsWith(() => {
      // Written into the catalogue by hand (--pick refuses it): the host where nothing happens.
      const catalogue = JSON.parse(readFileSync(file('labs/catalogue.json'), 'utf8')) as { labs: { id: string; questions: unknown[] }[] };
      catalogue.labs.find((l) => l.id === ID)!.questions.push({ id: 'faithful-ok', kind: 'number', prompt: { en: 'And with the schema as published, how many?', es: 'Y con el esquema tal como se publica, ¿cuántas?' }, figure: { path: 'faithful.runs.variant.finalOutcomes.ok', default: 0 } });
      writeFileSync(file('labs/catalogue.json'), `${JSON.stringify(catalogue, null, 2)}\n`);
      expect(npmRun(kit, 'sheets', [ID], {}, 300_000).status).toBe(0);
    });
    expect(lines).toEqual([expect.stringMatching(/^✗ question faithful-ok: its figure does not move/)]);
  });

  it('check names a question marked unchanged whose figure moves', { timeout: 300_000 }, () => {
    const lines = failsWith(() => {
      const catalogue = JSON.parse(readFileSync(file('labs/catalogue.json'), 'utf8')) as { labs: { id: string; questions: { id: string; unchanged?: boolean }[] }[] };
      catalogue.labs.find((l) => l.id === ID)!.questions.find((q) => q.id === 'continue-ok')!.unchanged = true;
      writeFileSync(file('labs/catalogue.json'), `${JSON.stringify(catalogue, null, 2)}\n`);
    });
    expect(lines).toEqual([expect.stringMatching(/^✗ question continue-ok is marked "unchanged" but its figure moves/)]);
  });

  it('check names a fix that fails on a host where the baseline works', { timeout: 300_000 }, () => {
    const lines = failsWith(() => {
      // The fix with a usage guide pasted into the tool's description: past OpenAI's 1,024 characters, a limit only the API has.
      const guide = 'Usage guide: give the verb in its base form, the tense in plain words and the person. '.repeat(13);
      edit(WORKSPACE_TOOL, '  description:\n', `  description:\n    ${JSON.stringify(guide)} +\n`);
      expect(author('fix', ID).status).toBe(0);
    });
    // Both proofs of the hold name the host: its calls (none ends ok) and the linter's verdict (the tool refused).
    expect(lines.filter((line) => /^✗ the fix falls short where the baseline works: nullable-person on openai-functions-2026-11 \(mcpserver-1\.32, conjugate\): the solution's calls ending ok 0, 0 /.test(line))).toHaveLength(1);
    expect(lines.filter((line) => /^✗ the fix fares worse than the baseline on a host \(npm run lint\): openai-functions-2026-11: conjugate accepted -> refused/.test(line))).toHaveLength(1);
    // And the contract's rule 9 (fits-host-limits, src/contract/rules.ts) holds a description to the same 1,024: its line
    // names the description; besides, only the linter's verdict on the whole list (one request) is there.
    expect(lines.filter((line) => /^✗ the contract tests stay red on the fix \(1, first: fits-host-limits on conjugate at \/description\)/.test(line))).toHaveLength(1);
    expect(lines.filter((line) => /^✗ the fix fares worse than the baseline on a host \(npm run lint\): openai-functions-2026-11: \(all tools, one request\) accepted -> refused/.test(line))).toHaveLength(1);
    expect(lines, lines.join('\n')).toHaveLength(4);
  });

  it('check names a break that the hand-applied copy does not reproduce', { timeout: 300_000 }, () => {
    const lines = failsWith(() => {
      // A server that answers at random: the same sources measure differently each time.
      edit(WORKSPACE_TOOL, PERSON, NULLABLE);
      edit(WORKSPACE_TOOL, '  execute(args: ConjugateInput) {\n', "  execute(args: ConjugateInput) {\n    if (Math.random() < 0.5) throw new Error('busy, try again');\n");
      expect(author('break', ID).status).toBe(0);
      edit(WORKSPACE_TOOL, NULLABLE, PERSON);
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
