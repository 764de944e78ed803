/**
 * No page a learner reads before a lab's run states a figure or an outcome
 * that one of the lab's questions asks (issue 32: README.md's first table
 * gave broken-schema's 3.56 retries per failing call and 7.8 calls away, and
 * which hosts refuse or answer wrong).
 *
 * The pages: README.md, labs/GLOSSARY.md and GLOSSARY.es.md, each lab sheet
 * up to its stop mark (`<!-- after-the-run -->`: what `--read` and the run
 * show before the questions), and each lab's handout in both languages (a
 * handout has no back: the whole page is read before the run).
 *
 * The expected values come from elsewhere than the pages and the code that
 * renders them: the questions from labs/catalogue.json as it is written, the
 * measured figures from each sheet's figures region after its stop mark
 * (written by `npm run sheets` from a real run), read here with a regular
 * expression of this file. From each figure this file derives the ways a
 * page could print it (3.56, 3.6; 16.4%, 16; 7.8, 7–8, "7 or 8"; 3,56 in
 * Spanish). Outcomes (a host that refuses, an answer silently wrong) are in
 * OUTCOMES below, written by hand, per lab.
 *
 * What counts as "about a lab": on README.md and the glossaries, a block (a
 * paragraph, a list item, a table row, a fenced block) that names the lab by
 * its id or title; on a lab's own sheet and handout, everything (and any
 * block there that names another lab is about that lab too). A page of a
 * later lab may quote an earlier lab's measurement (root-transform-shape's
 * question quotes root-transform's 86): the learner has run that lab already.
 *
 * Exempt from OUTCOMES, and only from them: a lab's own one-line summary under
 * its title and its Hypothesis section. The hypothesis is what the lab asks
 * the learner to test, and says what the fault should do; what the lab
 * measures (the figures) is still checked there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderHandout } from '../src/class/handout.js';
import { loadCatalogue } from '../src/learn/catalogue.js';
import { REPO } from './helpers/server.js';

type Lang = 'en' | 'es';
const LANGS: Lang[] = ['en', 'es'];
const read = (...path: string[]) => readFileSync(join(REPO, ...path), 'utf8');

/** labs/catalogue.json as written: the labs in order, their titles and questions. */
interface CatalogueQuestion { id: string; kind: 'number' | 'label'; min?: number; max?: number; prompt: Record<Lang, string> }
interface CatalogueLab { id: string; title: Record<Lang, string>; questions: CatalogueQuestion[] }
const CATALOGUE = (JSON.parse(read('labs', 'catalogue.json')) as { labs: CatalogueLab[] }).labs;
const ORDER = CATALOGUE.map((l) => l.id);

const STOP = '<!-- after-the-run -->';
const sheetFile = (lab: string, lang: Lang) => join('labs', lab, lang === 'en' ? 'README.md' : `README.${lang}.md`);

/** A sheet's measured figures, from its figures region (after the stop mark): question id to mean, least and most. */
function measured(lab: string): Map<string, { mean: string; min: string; max: string }> {
  const sheet = read(sheetFile(lab, 'en'));
  const at = sheet.indexOf(STOP);
  const region = /<!-- figures -->\n([\s\S]*?)<!-- \/figures -->/.exec(sheet.slice(at))?.[1];
  if (at === -1 || !region) throw new Error(`${lab}: no figures region after the stop mark`);
  const out = new Map<string, { mean: string; min: string; max: string }>();
  for (const row of region.matchAll(/^\| `([\w.-]+)` \| [^|]* \| (.*) \|$/gm)) {
    const cell = row[2]!;
    if (cell.startsWith('`')) continue; // an outcome label: OUTCOMES covers those
    const mean = /-?\d+(?:\.\d+)?/.exec(cell)![0];
    const range = /\((-?\d+(?:\.\d+)?)–(-?\d+(?:\.\d+)?)\)/.exec(cell);
    out.set(row[1]!, { mean, min: range?.[1] ?? mean, max: range?.[2] ?? mean });
  }
  return out;
}

/** Numbers too common to say anything on their own: a page states them for other reasons. Their outcome is in OUTCOMES. */
function trivial(n: string, q: CatalogueQuestion): boolean {
  const v = Number(n);
  if (v === q.min || v === q.max || v === 0 || v === 100) return true;
  if (Number.isInteger(v) && Math.abs(v) < 10) return true;
  // A number the question itself prints ("At most 9", "Of 100 calls").
  return LANGS.some((lang) => new RegExp(`(?<![\\d.,])${n.replace('.', '[.,]')}(?![\\d])`).test(q.prompt[lang]));
}

/** The ways a page could print a question's figure, in both languages, as regular expressions with their text. */
function figureForms(q: CatalogueQuestion, f: { mean: string; min: string; max: string }): { text: string; re: RegExp }[] {
  const numbers = new Set<string>([f.mean]);
  const mean = Number(f.mean);
  if (!Number.isInteger(mean)) {
    numbers.add(mean.toFixed(1));
    if (Math.abs(mean) >= 10) numbers.add(String(Math.round(mean)));
  }
  const forms: string[] = [...numbers].filter((n) => !trivial(n, q));
  if (f.min !== f.max) {
    for (const sep of ['–', '-', ' to ', ' or ', ' a ', ' u ', ' o ']) forms.push(`${f.min}${sep}${f.max}`);
  }
  const out: { text: string; re: RegExp }[] = [];
  for (const form of new Set(forms)) {
    for (const written of new Set([form, form.replace(/\./g, ',')])) {
      const escaped = written.replace(/[.]/g, '\\.');
      out.push({ text: written, re: new RegExp(`(?<![\\d.,\\w-])${escaped}(?![\\d\\w]|[.,]\\d)`) });
    }
  }
  return out;
}

/**
 * Outcomes that answer a question, per lab, in the words a page would use
 * (English and Spanish), written by hand from each question and its measured
 * answer. Questions whose answer is a number only (none here by phrase) are
 * covered by the figures.
 */
const OUTCOMES: Record<string, RegExp[]> = {
  // dominant-failure (-32603), dominant-failure-mcpserver (isError), retries-per-failing-call, ok-drop.
  'broken-schema': [/crash(?:es|ed)? inside (?:it|the tool)/i, /-32603`? on the `?low-level/i, /falla(?:n)? dentro de la herramienta/i, /turns run out|turnos se agotan/i],
  // continue-ok 0, langflow-errors 0, langflow-silent-wrong > 0.
  'structural-anyof': [
    /refuses? every (?:call|request)/i,
    /every (?:call|request) (?:is |was )?refused/i,
    /silently wrong answers/i,
    /answers? (?:come back |are )?wrong(?:ly)?\b/i, // not "answers silently wrong": the sheets name a question so
    /answers? (?:come back|are) silently wrong/i,
    /no errors, silently/i,
    /rechaza(?:n)? todas las (?:llamadas|peticiones)/i,
    /responde(?:n)? mal/i,
  ],
  // published-parameters 0, final-ok (recovers from the errors), dominant failures.
  'root-transform': [/no parameters (?:published|at all)/i, /published with no parameters/i, /publishe?s? no parameters/i, /learns? (?:them|the parameters) from the errors?/i, /publicada sin parámetros/i, /no publica ningún parámetro/i],
  // final-ok 0, retries-per-failing-call 9.
  'root-transform-shape': [/every (?:call|request) (?:fails|will crash)/i, /until the agent(?:'s \d+ turns are used up| stops)/i, /turns (?:are used up|run out)/i, /nothing (?:is |will be )?validated/i, /hasta que el agente/i, /se agotan los \d+ turnos/i],
  // messages-named 100%, continue-ok 0, gemini-cli-ok, langflow-ok.
  'discriminated-union': [/name the missing field/i, /Continue refuses/i, /refuses the `?oneOf/i, /drops? it silently/i, /(?:accept|take)s? (?:it|the `?oneOf`?) still fewer hosts|fewer hosts (?:can )?take/i, /lo aceptan todavía menos/i],
  // edits-ok 100, fields-cleared > 0, edits-silent-wrong.
  'schema-drift': [/clears? the undeclared field/i, /success all the way/i, /every edit succeeds/i, /reminders? (?:disappear|are lost)/i, /todas las ediciones salen bien/i, /recordatorios desaparecen/i],
  // lessons-ok, first-attempt-failures, lessons-silent-wrong > 0.
  'unreachable-filter': [/come back wrong/i, /with the wrong lessons/i, /every list request succeeds/i, /lecciones equivocadas/i, /todas las peticiones de listado salen bien/i],
  // published-parameters 0, mutations-through > 0, retries-per-failing-call.
  'readonly-gate': [/deletes go through/i, /(?:lets )?creates and deletes (?:go )?through/i, /falls back to "?read"?: in read-only/i, /mutations? (?:go|get)s? through/i, /deja pasar creaciones y borrados/i, /no parameters published/i],
};

/** Blocks of a markdown page: paragraphs, list items, table rows, fenced blocks. */
function blocks(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let fenced = false;
  const flush = () => {
    if (current.length > 0) out.push(current.join('\n'));
    current = [];
  };
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) {
      if (!fenced) flush();
      current.push(line);
      fenced = !fenced;
      if (!fenced) flush();
      continue;
    }
    if (fenced) current.push(line);
    else if (line.trim() === '') flush();
    else if (/^\s*(?:[-*] |\d+\. |\|)/.test(line) || /^#/.test(line)) {
      flush();
      current.push(line);
      if (/^\s*\||^#/.test(line)) flush();
    } else current.push(line);
  }
  flush();
  return out;
}

/** Whether a block names a lab: its id as a whole word, or its title in either language. */
function names(block: string, lab: CatalogueLab): boolean {
  const plain = block.replace(/`/g, '');
  return new RegExp(`(?<![\\w-])${lab.id}(?![\\w-])`).test(plain) || LANGS.some((lang) => plain.includes(lab.title[lang].replace(/`/g, '')));
}

const norm = (s: string) => s.replace(/`/g, '').replace(/\s+/g, ' ').trim();

interface Page {
  name: string;
  text: string;
  /** The lab whose own page this is (a sheet, a handout), or undefined. */
  own?: string;
  /** Text exempt from OUTCOMES: the own lab's summary line and hypothesis. */
  hypothesis?: string;
  /** false for a rendered page (a handout's text). */
  markdown?: boolean;
}

/** A sheet's summary line (under its title) and its Hypothesis section. */
function hypothesisOf(before: string): string {
  const head = before.split(/^## /m)[0]!.replace(/^# .*$/m, '');
  const section = /^## (?:Hypothesis|Hipótesis)\n([\s\S]*?)(?=^## )/m.exec(before)?.[1] ?? '';
  return `${head}\n${section}`;
}

function textOfHtml(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');
}

const catalogue = loadCatalogue();

function pages(): Page[] {
  const out: Page[] = [{ name: 'README.md', text: read('README.md') }];
  for (const lang of LANGS) out.push({ name: `labs/GLOSSARY${lang === 'en' ? '' : `.${lang}`}.md`, text: read('labs', lang === 'en' ? 'GLOSSARY.md' : `GLOSSARY.${lang}.md`) });
  for (const lab of CATALOGUE) {
    for (const lang of LANGS) {
      const sheet = read(sheetFile(lab.id, lang));
      const at = sheet.indexOf(STOP);
      if (at === -1) throw new Error(`${sheetFile(lab.id, lang)} has no stop mark`);
      const before = sheet.slice(0, at);
      const hypothesis = hypothesisOf(before);
      out.push({ name: `${sheetFile(lab.id, lang)} (before the stop mark)`, text: before, own: lab.id, hypothesis });
      const handoutLab = catalogue.find((l) => l.id === lab.id)!;
      out.push({ name: `the ${lab.id} handout (${lang})`, text: textOfHtml(renderHandout(handoutLab, lang)), own: lab.id, hypothesis: textOfHtml(hypothesis), markdown: false });
    }
  }
  return out;
}

/** Every figure or outcome a page gives away: page, lab, what, and the block it is in. */
function spoilers(page: Page): string[] {
  const found: string[] = [];
  const ownAt = page.own ? ORDER.indexOf(page.own) : -1;
  const checked = CATALOGUE.filter((lab) => ORDER.indexOf(lab.id) >= ownAt); // a later lab's page may quote an earlier lab
  // A handout is one page of text; a markdown page is read block by block.
  const units = page.markdown === false ? [page.text] : blocks(page.text);
  for (const lab of checked) {
    const figures = measured(lab.id);
    for (const unit of units) {
      if (lab.id !== page.own && !names(unit, lab)) continue;
      for (const q of lab.questions) {
        const f = figures.get(q.id);
        if (!f) continue;
        for (const form of figureForms(q, f)) {
          if (form.re.test(unit)) found.push(`${lab.id} ${q.id}: "${form.text}" in "${norm(unit).slice(0, 160)}"`);
        }
      }
      for (const phrase of OUTCOMES[lab.id] ?? []) {
        for (const m of norm(unit).matchAll(new RegExp(phrase.source, `${phrase.flags.replace('g', '')}g`))) {
          // The own lab's hypothesis says what the fault should do: its own words are not a spoiler, anywhere on its pages.
          if (lab.id === page.own && page.hypothesis !== undefined && norm(page.hypothesis).toLowerCase().includes(m[0].toLowerCase())) continue;
          found.push(`${lab.id} outcome: "${m[0]}" in "${norm(unit).slice(Math.max(0, m.index! - 60), m.index! + 100)}"`);
        }
      }
    }
  }
  return found;
}

describe('no page a learner reads before a run gives a lab away', () => {
  it('knows every lab of the catalogue, with a measured figure or an outcome phrase for each', () => {
    expect(Object.keys(OUTCOMES).sort()).toEqual([...ORDER].sort());
    for (const lab of ORDER) expect(measured(lab).size + OUTCOMES[lab]!.length).toBeGreaterThan(0);
  });

  it("finds what the old README's table of labs gave away (the check can fail)", () => {
    const oldRow =
      '| `broken-schema` | the `required` list disappears | partial calls reach the tool and crash inside it: <!-- figure: broken-schema retries-per-failing-call -->3.56 (3.32–3.82)<!-- /figure --> retries per failing call, and 7.8 calls (7–8) of 100 fewer end ok |\n' +
      '| `structural-anyof` | `verb` becomes a union | Continue with Gemini (2025-02): every call refused before anything runs; Langflow: no errors, silently wrong answers |';
    const found = spoilers({ name: 'README.md', text: oldRow });
    expect(found.some((s) => s.startsWith('broken-schema retries-per-failing-call: "3.56"'))).toBe(true);
    expect(found.some((s) => s.startsWith('broken-schema ok-drop-low-level: "7.8"'))).toBe(true);
    expect(found.some((s) => s.startsWith('structural-anyof outcome: "every call refused"'))).toBe(true);
    expect(found.some((s) => s.startsWith('structural-anyof outcome: "silently wrong answers"'))).toBe(true);
    // A block that names no lab is not about one: the glossary's definition of "silently wrong" is no spoiler.
    expect(spoilers({ name: 'README.md', text: '- **Silently wrong**: a request that ended ok with the wrong answer.' })).toEqual([]);
  });

  for (const page of pages()) {
    it(`${page.name} states no measured figure or outcome a question asks`, () => {
      expect(spoilers(page)).toEqual([]);
    });
  }
});
