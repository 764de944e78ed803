/**
 * The reference before predicting (issue 23, item 2): before the first
 * question a learner sees the baseline's figures for the runs the questions
 * are scored on, and what the model and the agent do; every question names
 * its run in words; no word of the glossary is used before it is explained.
 *
 * "Explained", here: the lines the lab prints itself (the reference, then the
 * questions in the order they are asked) gloss a glossary term in brackets
 * right where it first appears ("the baseline (the healthy server, ...)").
 * The sheet shown before them links the glossary at its top.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalogue, type Lang } from '../src/learn/catalogue.js';
import { askingOrder, questionMessage, renderComparison } from '../src/learn/predictions.js';
import { referenceLines } from '../src/learn/reference.js';
import { DEFAULT_KNOBS } from '../src/lab/knobs.js';
import { Terminal } from './helpers/pty.js';
import { REPO } from './helpers/server.js';

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

function freshCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'schema-breaks-reference-'));
  copies.push(dir);
  for (const entry of ['src', 'contract', 'scripts', 'breaks', 'solutions', 'labs', 'package.json', 'package-lock.json', 'tsconfig.json']) {
    cpSync(join(REPO, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** The glossary's terms (its bold words), without backticks or a leading article, lower case. */
function glossaryTerms(lang: Lang): string[] {
  const text = readFileSync(join(REPO, 'labs', lang === 'en' ? 'GLOSSARY.md' : `GLOSSARY.${lang}.md`), 'utf8');
  const terms = [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]!.replace(/`/g, '').replace(/^(the|el|la) /i, '').trim().toLowerCase());
  return [...new Set(terms)];
}

/** A term anywhere in a text, each word in the singular or the plural ("retry", "retries"; "incorrecta sin avisar", "incorrectas sin avisar"). */
function termPattern(term: string): string {
  const words = term.split(/\s+/).map((w) => {
    const e = w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return w.endsWith('y') ? `${e.slice(0, -1)}(?:y|ies)` : `${e}(?:s|es)?`;
  });
  return `(?<![\\w-])${words.join('\\s+')}(?![\\w-])`;
}

/** The glossary terms whose first use along `lines` (in order) is not glossed in brackets right after it. */
function unexplained(lines: string[], lang: Lang): string[] {
  const text = lines.join('\n');
  return glossaryTerms(lang).filter((term) => {
    const first = new RegExp(termPattern(term), 'i').exec(text);
    if (!first) return false;
    return !/^\s*\(/.test(text.slice(first.index + first[0].length));
  });
}

/** Words a newcomer met unexplained in the questions before (issue 23): none of them is said any more. */
const JARGON = [/stated argument/i, /\(cap\)/, /outcome other than ok/i, /\(run [\w-]+:/, /argumento que la petición sí decía/, /resultado distinto de ok/, /\(ejecución [\w-]+:/];

describe('what a learner reads before answering', () => {
  for (const lab of loadCatalogue()) {
    for (const lang of ['en', 'es'] as const) {
      it(`${lab.id} (${lang}): no glossary term before it is explained, no jargon`, () => {
        const lines = [...referenceLines(lab, lang, DEFAULT_KNOBS, { seeds: [1, 2, 3, 4, 5], calls: 100 }), ...askingOrder(lab.questions).map((q) => questionMessage(lab, q, lang))];
        expect(unexplained(lines, lang)).toEqual([]);
        for (const word of JARGON) expect(lines.join('\n')).not.toMatch(word);
      });
    }
  }

  it('the comparison after the run lists each question with its run in words (a prompt alone may say "And here")', () => {
    const lab = loadCatalogue().find((l) => l.id === 'broken-schema')!;
    const text = renderComparison(lab, [], 'en');
    expect(text).toContain('ok-drop-mcpserver: And here, how many fewer than on the baseline? (on McpServer as in SDK 1.32, shown as published)');
    expect(text).toContain('ok-drop-low-level: Of 100 calls, how many fewer will end ok than on the baseline? (on the low-level server, shown as published)');
  });

  it('the check finds a term used before its gloss (the check is not vacuous)', () => {
    expect(unexplained(['how many retries will the agent make?', 'the agent (the loop around the model)'], 'en')).toEqual(['agent', 'retry']);
    expect(unexplained(['serán incorrectas sin avisar'], 'es')).toEqual(['incorrecta sin avisar']);
  });
});

describe("the baseline's figures a lab reads (labs/<id>/baseline.json, written by npm run sheets)", () => {
  for (const lab of loadCatalogue()) {
    it(`${lab.id}: one entry per run of the catalogue, over the lab's seeds, 100 calls`, () => {
      const figures = JSON.parse(readFileSync(join(REPO, 'labs', lab.id, 'baseline.json'), 'utf8'));
      expect(figures.lab).toBe(lab.id);
      expect(figures.calls).toBe(100);
      expect(figures.seeds).toEqual(Array.from({ length: lab.seeds! }, (_, i) => i + 1));
      expect(Object.keys(figures.runs).sort()).toEqual(lab.runs.map((r) => r.name).sort());
      for (const run of lab.runs) {
        expect(figures.runs[run.name]).toMatchObject({ server: run.server, client: run.client });
        const { finalOk, firstAttemptsFailed } = figures.runs[run.name];
        for (const f of [finalOk, firstAttemptsFailed]) expect(f.min <= f.mean && f.mean <= f.max && f.min >= 0 && f.max <= 100).toBe(true);
      }
    });
  }

  it('a run with other seeds or calls is told the figures were measured with the lab\'s own', () => {
    const lab = loadCatalogue()[0]!;
    const own = referenceLines(lab, 'en', DEFAULT_KNOBS, { seeds: [1, 2, 3, 4, 5], calls: 100 });
    const other = referenceLines(lab, 'en', DEFAULT_KNOBS, { seeds: [7, 8, 9, 10, 11], calls: 100 });
    expect(own.join('\n')).not.toMatch(/your run uses other settings/);
    expect(other.join('\n')).toMatch(/measured with 100 calls, seeds 1 to 5 and the model's default settings; your run uses other settings/);
    const hotter = referenceLines(lab, 'en', { ...DEFAULT_KNOBS, temperature: 1 }, { seeds: [1, 2, 3, 4, 5], calls: 100 });
    expect(hotter.join('\n')).toMatch(/your run uses other settings/);
  });
});

describe('a learner in a real terminal', () => {
  /**
   * Each broken-schema question's run in words, written by hand from the
   * catalogue's runs (low-level: server build low-level, client faithful;
   * mcpserver: mcpserver-1.32, faithful) and the glossary's words for them.
   */
  const RUN_IN_WORDS: [string, string][] = [
    ['leave out an argument the request gave', 'on the low-level server, shown as published'],
    ['how many retries will the agent make', 'on the low-level server, shown as published'],
    ['Of 100 calls, how many fewer will end ok', 'on the low-level server, shown as published'],
    ['And here, how many fewer', 'on McpServer as in SDK 1.32, shown as published'],
    ['Apart from ok, which result will first attempts get most often', 'on the low-level server, shown as published'],
    ['And here, which result apart from ok', 'on McpServer as in SDK 1.32, shown as published'],
  ];

  /** The screen with the prompt's own line breaks taken out: inquirer breaks a long question at the terminal's width, even inside a word. */
  const unwrapped = (term: Terminal) => term.screen().replace(/\n/g, '');

  /** Waits until the unwrapped screen holds `text` from `from` on; the index just after it. */
  async function waitForText(term: Terminal, text: string, from = 0): Promise<number> {
    const started = Date.now();
    for (;;) {
      const at = unwrapped(term).indexOf(text, from);
      if (at !== -1) return at + text.length;
      if (term.exitCode !== undefined || Date.now() - started > 30_000) throw new Error(`waited for "${text}"; the screen ends with:\n${term.screen().slice(-1500)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it("sees the baseline's measured figures before the first question, and each question's run in words", async () => {
    const dir = freshCopy();
    const baseline = JSON.parse(readFileSync(join(REPO, 'labs', 'broken-schema', 'baseline.json'), 'utf8'));
    const term = new Terminal('node scripts/launch.mjs scripts/lab.ts --variant broken-schema --learner Cy', dir, { LANG: 'en_GB.UTF-8' });
    const firstQuestion = await waitForText(term, RUN_IN_WORDS[0]![0]);
    const before = unwrapped(term).slice(0, firstQuestion);
    // The figures the sheets measured (labs/broken-schema/baseline.json), in each run the questions are scored on.
    const low = baseline.runs['low-level'];
    const mcp = baseline.runs.mcpserver;
    expect(before).toContain(`On the low-level server, shown as published: ${low.finalOk.mean} of 100 calls end ok (range ${low.finalOk.min}–${low.finalOk.max}); ${low.firstAttemptsFailed.mean}% of first attempts fail`);
    expect(before).toContain(`On McpServer as in SDK 1.32, shown as published: ${mcp.finalOk.mean} of 100 calls end ok`);
    // The lab's own settings: the figures are the run's, with no word of other settings.
    expect(before).not.toMatch(/your run uses other settings/);
    // The model's omission rates and the agent's turn cap (src/lab/knobs.ts: 59/980 stated optional keys, 10 turns).
    expect(before).toMatch(/leaves out an argument the schema marks optional 6% of the time/);
    expect(before).toMatch(/stops a request after 10 model turns: at most 9 retries/);
    // The reference comes before the questions' intro.
    expect(before.indexOf('Before you predict, the reference')).toBeGreaterThan(-1);
    expect(before.indexOf('Before you predict, the reference')).toBeLessThan(before.indexOf('Predict before you run'));

    try {
      let at = 0;
      for (const [question, run] of RUN_IN_WORDS) {
        at = await waitForText(term, question, at);
        const end = await waitForText(term, '(Enter to skip)', at);
        expect(unwrapped(term).slice(at, end)).toContain(`(${run})`);
        term.type('\r');
        at = end;
      }
    } finally {
      // Nothing of this run is needed: Ctrl+C ends it at the next prompt.
      term.type('\u0003');
      await term.done();
    }
  }, 90_000);
});
