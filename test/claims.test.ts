/**
 * Every claim about a figure in docs/ (docs/workshop.md's table of what each
 * lab shows), the lab sheets and the questions agrees with the measurement
 * (issue 23, item 2: the README, where that table was then, said the model
 * "resamples until the agent's turns run out" while 3.32 retries per failing
 * call of a possible 9 were measured, so a reader predicted 9).
 *
 * The measurement is each sheet's figures region, which `npm run sheets`
 * writes from a real run (and `--check` keeps current). Two kinds of claim:
 * a figure quoted in prose is a generated region of its own
 * (`<!-- figure: <lab> <question> -->...<!-- /figure -->`), which must say
 * what the figures region says; and a claim in words ("every call refused",
 * "until the agent stops") is listed below with the figure it is about and
 * what its words allow, written by hand from the words.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGS, loadCatalogue, type Lang } from '../src/learn/catalogue.js';
import { quotedFigures, sheetPath } from '../src/learn/sheets.js';
import { REPO } from './helpers/server.js';

const read = (file: string) => readFileSync(file, 'utf8');

/** A lab's measured figures as its sheet's figures region gives them: question id to the cell's text. */
function figuresOf(lab: string, lang: Lang = 'en'): Map<string, string> {
  const sheet = read(sheetPath(lab, lang));
  const region = /<!-- figures -->\n([\s\S]*?)<!-- \/figures -->/.exec(sheet)?.[1] ?? '';
  return new Map([...region.matchAll(/^\| `([\w.-]+)` \| [^|]* \| (.*) \|$/gm)].map((m) => [m[1]!, m[2]!]));
}

/** The mean and range of a figures cell ("3.56 (3.32–3.82)", "7,8 llamadas (7–8)", "0"). */
function numbers(cell: string): { mean: number; min: number; max: number } {
  const n = (s: string) => Number(s.replace(',', '.'));
  const mean = /-?\d+(?:[.,]\d+)?/.exec(cell);
  if (!mean) throw new Error(`no number in "${cell}"`);
  const range = /\((-?\d+(?:[.,]\d+)?)–(-?\d+(?:[.,]\d+)?)\)/.exec(cell);
  return { mean: n(mean[0]), min: range ? n(range[1]!) : n(mean[0]), max: range ? n(range[2]!) : n(mean[0]) };
}

const labs = loadCatalogue();
const texts: { file: string; lang: Lang; text: string }[] = [
  // docs/workshop.md first: its table of what each lab shows quotes figures; README.md and every other page of docs/ may too.
  ...['docs/workshop.md', 'README.md', ...readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md') && f !== 'workshop.md').sort().map((f) => `docs/${f}`)].map((file) => ({ file, lang: 'en' as Lang, text: read(join(REPO, file)) })),
  ...labs.flatMap((lab) => LANGS.map((lang) => ({ file: `labs/${lab.id}/${lang === 'en' ? 'README.md' : `README.${lang}.md`}`, lang, text: read(sheetPath(lab.id, lang)) }))),
];

describe('figures quoted in prose', () => {
  it('docs/workshop.md quotes broken-schema\'s retries per failing call (the claim that misled)', () => {
    expect(quotedFigures(texts[0]!.text).map((q) => `${q.lab} ${q.question}`)).toContain('broken-schema retries-per-failing-call');
  });

  for (const { file, lang, text } of texts) {
    for (const quoted of quotedFigures(text)) {
      it(`${file}: ${quoted.lab} ${quoted.question} says what was measured`, () => {
        expect(quoted.value).toBe(figuresOf(quoted.lab, lang).get(quoted.question));
      });
    }
  }
});

/** A claim in words: where it is, the figure it is about, and what its words allow for the figure's mean and range. */
interface Claim {
  file: string;
  words: string;
  lab: string;
  question: string;
  allows: (f: { mean: number; min: number; max: number }) => boolean;
}

const catalogueText = read(join(REPO, 'labs', 'catalogue.json'));

const CLAIMS: Claim[] = [
  // docs/workshop.md's table of what each lab shows.
  { file: 'docs/workshop.md', words: 'Continue with Gemini (2025-02): every call refused before anything runs', lab: 'structural-anyof', question: 'continue-ok', allows: (f) => f.max === 0 },
  { file: 'docs/workshop.md', words: 'Langflow: no errors, silently wrong answers', lab: 'structural-anyof', question: 'langflow-errors', allows: (f) => f.max === 0 },
  { file: 'docs/workshop.md', words: 'Langflow: no errors, silently wrong answers', lab: 'structural-anyof', question: 'langflow-silent-wrong', allows: (f) => f.min > 0 },
  { file: 'docs/workshop.md', words: 'no parameters published', lab: 'root-transform', question: 'published-parameters', allows: (f) => f.max === 0 },
  { file: 'docs/workshop.md', words: 'every request fails until the agent stops', lab: 'root-transform-shape', question: 'final-ok', allows: (f) => f.max === 0 },
  { file: 'docs/workshop.md', words: 'every request fails until the agent stops', lab: 'root-transform-shape', question: 'retries-per-failing-call', allows: (f) => f.min === 9 },
  { file: 'docs/workshop.md', words: 'Continue refuses the `oneOf`', lab: 'discriminated-union', question: 'continue-ok', allows: (f) => f.max === 0 },
  { file: 'docs/workshop.md', words: 'validation messages name the missing field', lab: 'discriminated-union', question: 'messages-named', allows: (f) => f.min === 100 },
  { file: 'docs/workshop.md', words: 'clears the undeclared field with success all the way', lab: 'schema-drift', question: 'edits-ok', allows: (f) => f.min === 100 },
  { file: 'docs/workshop.md', words: 'clears the undeclared field with success all the way', lab: 'schema-drift', question: 'fields-cleared', allows: (f) => f.min > 0 },
  { file: 'docs/workshop.md', words: 'lists come back wrong with success', lab: 'unreachable-filter', question: 'lessons-silent-wrong', allows: (f) => f.min > 0 },
  { file: 'docs/workshop.md', words: 'in read-only mode, deletes go through', lab: 'readonly-gate', question: 'mutations-through', allows: (f) => f.min > 0 },
  // The contrast hosts end ok as often as the baseline: within its range over seeds 1 to 5, 89 to 93 in labs/<id>/baseline.json.
  { file: 'docs/workshop.md', words: 'every call refused, every tool of the request lost', lab: 'long-description', question: 'openai-ok', allows: (f) => f.max === 0 },
  { file: 'docs/workshop.md', words: 'Claude Code (2026-08): ends ok as often as the baseline', lab: 'long-description', question: 'claude-code-ok', allows: (f) => f.min >= 89 && f.max <= 93 },
  { file: 'docs/workshop.md', words: 'so every call to `conjugate` is refused', lab: 'tool-name', question: 'claude-code-ok', allows: (f) => f.max === 0 },
  { file: 'docs/workshop.md', words: 'OpenAI function calling (2026-11): ends ok as often as the baseline', lab: 'tool-name', question: 'openai-ok', allows: (f) => f.min >= 89 && f.max <= 93 },
  { file: 'docs/workshop.md', words: 'leaves out every tool of the server, so the model is offered none', lab: 'schema-dialect', question: 'vscode-ok', allows: (f) => f.max === 0 },
  // "No difference": the healthy server behind Claude Code ends 89 to 93 of 100 ok (labs/schema-dialect/baseline.json).
  { file: 'docs/workshop.md', words: 'Claude Code: no difference', lab: 'schema-dialect', question: 'claude-code-ok', allows: (f) => f.min >= 85 },
  { file: 'labs/schema-dialect/README.md', words: 'All 100 requests end `no-call` and the eval is 0 of 30', lab: 'schema-dialect', question: 'vscode-ok', allows: (f) => f.max === 0 },
  { file: 'labs/schema-dialect/README.md', words: 'exactly one more first attempt fails than on the baseline', lab: 'schema-dialect', question: 'gemini-cli-host-refusals', allows: (f) => f.min === 1 && f.max === 1 },
  { file: 'labs/schema-dialect/README.es.md', words: 'falla exactamente un primer intento más que en la línea base', lab: 'schema-dialect', question: 'gemini-cli-host-refusals', allows: (f) => f.min === 1 && f.max === 1 },
  { file: 'labs/output-schema/README.md', words: 'no call ends ok, and the eval is 0 of 30', lab: 'output-schema', question: 'sdk-client-ok', allows: (f) => f.max === 0 },
  { file: 'labs/output-schema/README.es.md', words: 'ninguna llamada termina bien, y la evaluación da 0 de 30', lab: 'output-schema', question: 'sdk-client-ok', allows: (f) => f.max === 0 },
  // "No difference": the healthy low-level server behind the AI SDK ends 89 to 93 of 100 ok (labs/output-schema/baseline.json).
  { file: 'labs/output-schema/README.md', words: 'Behind the AI SDK: no difference', lab: 'output-schema', question: 'ai-sdk-ok', allows: (f) => f.min >= 85 },
  { file: 'docs/workshop.md', words: 'every answer is thrown away', lab: 'output-schema', question: 'sdk-client-ok', allows: (f) => f.max === 0 },
  { file: 'docs/workshop.md', words: 'behind the AI SDK, whose client never reads the outputSchema, no difference', lab: 'output-schema', question: 'ai-sdk-ok', allows: (f) => f.min >= 85 },
  // broken-schema's sheet: "7 or 8 of 100 use all 10 turns": the calls that no longer end ok.
  { file: 'labs/broken-schema/README.md', words: '7 or 8 of 100 use all 10 turns', lab: 'broken-schema', question: 'ok-drop-low-level', allows: (f) => f.min >= 7 && f.max <= 8 },
  { file: 'labs/broken-schema/README.es.md', words: '7 u 8 de cada 100 gastan los 10 turnos', lab: 'broken-schema', question: 'ok-drop-low-level', allows: (f) => f.min >= 7 && f.max <= 8 },
  // A question that quotes another lab's figure.
  { file: 'labs/catalogue.json', words: "root-transform's server ends about 86", lab: 'root-transform', question: 'final-ok', allows: (f) => Math.abs(f.mean - 86) <= 1 },
];

describe('claims in words', () => {
  for (const claim of CLAIMS) {
    it(`${claim.file}: "${claim.words}" (${claim.lab} ${claim.question})`, () => {
      const text = claim.file === 'labs/catalogue.json' ? catalogueText : read(join(REPO, claim.file));
      expect(text).toContain(claim.words);
      const cell = figuresOf(claim.lab).get(claim.question);
      expect(cell, `${claim.lab} has no figure ${claim.question}`).toBeDefined();
      expect(claim.allows(numbers(cell!)), `measured ${cell}`).toBe(true);
    });
  }

  it("no row of docs/workshop.md's table of what each lab shows says the turns run out unless its lab's retries per failing call are at the cap", () => {
    const page = read(join(REPO, 'docs', 'workshop.md'));
    const at = page.indexOf('## What each lab shows');
    expect(at).toBeGreaterThan(-1);
    const end = page.indexOf('\n\n', page.indexOf('| variant |', at));
    const table = page.slice(at, end === -1 ? undefined : end);
    const rows = [...table.matchAll(/^\| `([\w-]+)` \|.*$/gm)];
    expect(rows.length).toBe(labs.length);
    for (const [row, lab] of rows.map((m) => [m[0], m[1]!] as const)) {
      if (!/until the agent(?:'s turns run out| stops)|turns run out/.test(row)) continue;
      const retries = figuresOf(lab).get('retries-per-failing-call');
      expect(retries, `${lab} says its requests run until the agent stops, but measures no retries per failing call`).toBeDefined();
      expect(numbers(retries!).min, `${lab}: ${row}`).toBe(9);
    }
  });
});
