/**
 * A printable handout per lab: the title, the hypothesis and the break (with
 * its diff) from the lab sheet, the reference the terminal prints before the
 * questions (the baseline's figures and what the model does:
 * src/learn/reference.ts, the very sentences), the lab's prediction
 * questions with empty boxes to write in, and a box with the glossary's
 * words the page uses.
 *
 * Only the part of the sheet before `<!-- after-the-run -->` is read (via
 * `splitSheet`), and of that only the opening paragraph and the first two
 * sections (the hypothesis and the break; the third, "predict, then run",
 * is replaced by the questions). Nothing from a run of the break and
 * nothing from the catalogue's figures is used, so the handout cannot give an
 * answer away: its one set of figures is the healthy server's, from
 * labs/<id>/baseline.json, as the terminal shows them before predicting.
 *
 * The questions come in the order the terminal asks them (`askingOrder`),
 * then one line of why for them all, as the terminal asks it.
 *
 * The diff is set at 8 pt or more on paper, never smaller (a smaller one is
 * a grey smudge once printed): it shows the changed lines with one line of
 * context each side, a hunk with a long unchanged stretch split in two at it
 * (`changedHunks`). It prints on A4 or US Letter with the printer's default
 * margins set to 10 mm: the layout is sized for the smaller of the two
 * (190 x 259 mm) and uses no background colours. A handout fits one page,
 * its prose set up to a fifth smaller if need be (the diff kept at 8 pt);
 * where even that is not enough (the labs with the longest diffs), it takes
 * two pages at full size, no question box split between them
 * (test/handout.test.ts prints each with chromium, counts the pages and
 * measures the diff's printed size).
 */
import { Marked } from 'marked';
import { DEFAULT_LAB_SEEDS, unitWord, type Lab, type Lang, type Question } from '../learn/catalogue.js';
import { readGlossary, termsUsedIn, type GlossaryEntry } from '../learn/glossary.js';
import { askingOrder, promptOnRun } from '../learn/predictions.js';
import { readSheet, splitSheet } from '../learn/sheets.js';
import { reference, type Reference } from '../learn/reference.js';
import { LAB_DEFAULTS } from '../learn/lab-runs.js';
import { seedsFrom } from '../lab/side-by-side.js';
import { REPO } from '../lab/paths.js';
import { esc, page } from './html.js';
import { t } from '../core/messages/index.js';

/** The pieces of a sheet a handout shows. */
export interface HandoutSheet {
  title: string;
  intro: string;
  sections: { heading: string; markdown: string }[];
  diff: string;
  /** Which section the diff belongs to (the break), or -1. */
  diffIn: number;
}

const INCLUDE_REGION = /<!-- include: \S+ -->\n```(\w*)\n([\s\S]*?)```\n<!-- \/include -->/;

/** Splits the before-the-run part of a sheet into its title, opening paragraph, hypothesis and break (diff apart). */
export function handoutSheet(sheet: string): HandoutSheet {
  const before = splitSheet(sheet).before;
  const [head = '', ...rest] = before.split(/^## /m);
  const title = (/^# (.+)$/m.exec(head)?.[1] ?? '').trim();
  // The sheet's link to the glossary points nowhere from where a handout is written: the page carries its words instead.
  const intro = head.replace(/^# .+$/m, '').replace(/^.*\]\(\.\.\/GLOSSARY[\w.]*\.md\).*$/m, '').trim();
  const sections = rest.slice(0, 2).map((chunk) => {
    const newline = chunk.indexOf('\n');
    return { heading: chunk.slice(0, newline).trim(), markdown: chunk.slice(newline + 1) };
  });
  let diff = '';
  let diffIn = -1;
  for (const [i, section] of sections.entries()) {
    const m = INCLUDE_REGION.exec(section.markdown);
    if (m && diffIn === -1) {
      diff = m[2]!.replace(/\n$/, '');
      diffIn = i;
      section.markdown = section.markdown.replace(INCLUDE_REGION, '');
    }
    section.markdown = section.markdown.replace(/<!--[\s\S]*?-->/g, '').trim();
  }
  return { title, intro, sections, diff, diffIn };
}

const markdown = new Marked({ gfm: true });

function md(text: string, inline = false): string {
  return inline ? markdown.parseInline(text, { async: false }) : markdown.parse(text, { async: false });
}

export type DiffLine = { kind: 'file' | 'hunk' | 'add' | 'del' | 'ctx'; text: string };

/** Unchanged lines kept on each side of a change: enough to place it, few enough to set the diff large. */
export const CONTEXT = 1;

/**
 * The diff, line by line, with + and - lines marked (colour and weight: it
 * still reads in black and white). Each file's four header lines (diff --git,
 * index, ---, +++) are shown as one line naming the file. Of each hunk only
 * the changed lines and `context` unchanged lines around each are kept; where
 * a longer unchanged stretch is left out, the hunk is split in two, each part
 * with its own `@@ -old,n +new,n @@` line, counted as git counts them
 * (https://www.gnu.org/software/diffutils/manual/html_node/Detailed-Unified.html).
 */
export function diffLines(diff: string, context = CONTEXT): DiffLine[] {
  const out: DiffLine[] = [];
  let hunk: { old: number; new: number; tail: string; body: string[] } | undefined;
  const flush = () => {
    if (hunk) out.push(...changedHunks(hunk, context));
    hunk = undefined;
  };
  for (const line of diff.split('\n')) {
    const file = /^diff --git a\/(\S+) b\/(\S+)$/.exec(line);
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/.exec(line);
    if (file) {
      flush();
      out.push({ kind: 'file', text: file[1] === file[2] ? file[2]! : `${file[1]} → ${file[2]}` });
    } else if (!hunk && /^(index |--- |\+\+\+ |new file mode |deleted file mode )/.test(line) && out.at(-1)?.kind === 'file') continue;
    else if (header) {
      flush();
      hunk = { old: Number(header[1]), new: Number(header[2]), tail: header[3]!, body: [] };
    } else if (hunk) hunk.body.push(line);
    else if (line !== '') out.push({ kind: 'ctx', text: line });
  }
  flush();
  return out;
}

/** One hunk cut down to its changes and their context: one or more hunks. */
function changedHunks(hunk: { old: number; new: number; tail: string; body: string[] }, context: number): DiffLine[] {
  // A patch file ends with a newline: the hunk's last "line" is then empty, not a context line.
  const body = hunk.body.at(-1) === '' ? hunk.body.slice(0, -1) : hunk.body;
  let oldAt = hunk.old;
  let newAt = hunk.new;
  const lines = body.map((text) => {
    const kind: DiffLine['kind'] = text.startsWith('+') ? 'add' : text.startsWith('-') ? 'del' : 'ctx';
    const at = { old: oldAt, new: newAt };
    // "\ No newline at end of file" is a note on the line before it, not a line of either file.
    if (!text.startsWith('\\')) {
      if (kind !== 'add') oldAt++;
      if (kind !== 'del') newAt++;
    }
    return { kind, text, at };
  });
  const changed = lines.flatMap((l, i) => (l.kind === 'ctx' ? [] : [i]));
  const kept = lines.map((_, i) => changed.some((c) => Math.abs(c - i) <= context));
  const out: DiffLine[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!kept[i] || (i > 0 && kept[i - 1])) continue;
    let end = i;
    while (end + 1 < lines.length && kept[end + 1]) end++;
    const part = lines.slice(i, end + 1);
    const olds = part.filter((l) => l.kind !== 'add' && !l.text.startsWith('\\')).length;
    const news = part.filter((l) => l.kind !== 'del' && !l.text.startsWith('\\')).length;
    // A side with no lines names the line before the change (GNU diff's convention).
    const oldStart = olds === 0 ? part[0]!.at.old - 1 : part[0]!.at.old;
    const newStart = news === 0 ? part[0]!.at.new - 1 : part[0]!.at.new;
    out.push({ kind: 'hunk', text: `@@ -${oldStart},${olds} +${newStart},${news} @@${out.length === 0 ? hunk.tail : ''}` });
    out.push(...part.map((l) => ({ kind: l.kind, text: l.text })));
  }
  return out;
}

function renderDiff(diff: string): { html: string; lines: string[] } {
  const lines = diffLines(diff);
  const html = lines.map((l) => `<span class="${l.kind}">${esc(l.text) || ' '}</span>`).join('');
  return { html, lines: lines.map((l) => l.text) };
}

/** The diff's size on paper, in points: never smaller (test/handout.test.ts measures it in chromium). */
export const DIFF_PT = 8;

/**
 * A rough estimate of the printed height (CSS px at 96 dpi, before any zoom),
 * fitted to chromium's layout of the kit's sheets: the fixed parts, the
 * prose by lines of about 108 characters, the reference (8 pt) by lines of
 * about 120, the diff by its lines of about 107 characters at 8 pt, the
 * questions by rows of two cards, the words in two columns. Only used to
 * choose a zoom for the prose; the test prints the real thing.
 */
export function estimateHeight(sheet: HandoutSheet, questions: Question[], words: GlossaryEntry[], lang: Lang, told: Reference = { runs: [], model: '' }): number {
  const paragraphs = [sheet.intro, ...sheet.sections.map((x) => x.markdown)].join('\n\n').split(/\n\s*\n/).filter((p) => p.trim() !== '');
  const proseLines = paragraphs.reduce((n, p) => n + Math.ceil(p.length / 108), 0);
  const sentences = referenceTexts(told).filter((x) => x !== '');
  const reference = sentences.length === 0 ? 0 : 10 + 12.8 * sentences.reduce((n, x) => n + Math.ceil(x.length / 120), 0);
  const diff = 12.8 * renderDiff(sheet.diff).lines.reduce((n, l) => n + Math.max(1, Math.ceil(l.length / 107)), 0);
  let promptRows = 0;
  for (let i = 0; i < questions.length; i += 2) promptRows += Math.max(...questions.slice(i, i + 2).map((q) => Math.ceil(q.prompt[lang].length / 50)));
  const wordLines = words.reduce((n, w) => n + Math.ceil((w.terms.join(', ').length + firstSentence(w.definition).length) / 60), 0);
  const glossary = words.length === 0 ? 0 : 24 + 11.5 * Math.ceil(wordLines / 2);
  // The lines to write on take the slot an odd count of questions leaves, or sit side by side under an even count.
  const writing = questions.length % 2 === 1 ? -70 : -48;
  return 360 + writing + 12.5 * proseLines + reference + diff + 16 * promptRows + 36 * Math.ceil(questions.length / 2) + glossary;
}

/** The reference's sentences, in the order the terminal prints them. */
const referenceTexts = (told: Reference): string[] => [...(told.title ? [told.title] : []), ...told.runs, ...(told.otherSettings ? [told.otherSettings] : []), told.model];

/**
 * The reference the terminal prints before the first question (src/learn/reference.ts, the very sentences): the
 * baseline's figures in the runs the questions are scored on, measured by `npm run sheets` at the plain run's
 * settings, and what the model and the agent do. The baseline's, never the break's: the questions ask about the break.
 */
function referenceBox(told: Reference): string {
  const runs = told.runs.length > 0 ? `<ul>${told.runs.map((line) => `<li>${esc(line)}</li>`).join('')}</ul>` : '';
  return `<section class="reference">${told.title ? `<p class="lead">${esc(told.title)}</p>` : ''}${runs}${told.otherSettings ? `<p>${esc(told.otherSettings)}</p>` : ''}<p>${esc(told.model)}</p></section>`;
}

/**
 * The page's margins: 10 mm, within what office printers print (their edges are 4 to 6 mm), and the content they leave on
 * the smaller of A4 and US Letter: A4's width less the margins (190 mm), Letter's height (259 mm).
 */
const MARGIN_MM = 10;
const WIDTH_MM = 210 - 2 * MARGIN_MM;
const HEIGHT_MM = 279.4 - 2 * MARGIN_MM;

/** The printed page's content height we aim for: 259 mm is 980 px; chromium's print layout runs a few percent longer than its screen layout, so leave room. */
const TARGET_HEIGHT = Math.round(HEIGHT_MM * 3.78 * 0.93);
/** Prose is never set smaller than this share of its size to fit a page. */
const MIN_ZOOM = 0.78;
/**
 * An estimate above this does not fit one page even at MIN_ZOOM (chromium, the kit's labs with the reference: readonly-gate
 * in Spanish, estimated 1274, fits, and only just; root-transform, estimated 1485, does not): such a handout takes two pages at full size
 * rather than a diff set too small to read.
 */
const ONE_PAGE_UP_TO = 1380;

/** One question: its prompt, the run it is scored on (a lab with several runs asks about each), and a box. */
function questionBlock(lab: Lab, question: Question, n: number, lang: Lang): string {
  const unit = question.unit ? unitWord(question.unit, lang) : '';
  const range = question.kind === 'number' && question.min !== undefined && question.max !== undefined ? t('class.range', lang, { min: question.min, max: question.max }) : '';
  const hint = question.kind === 'label' ? t('class.outcomeHint', lang) : range;
  return `<li class="q">
<p class="prompt"><span class="qn">${n}</span>${esc(promptOnRun(lab, question, lang))}</p>
<div class="answer"><span class="box ${question.kind}"></span>${unit ? `<span class="unit">${esc(unit)}</span>` : ''}<span class="hint">${esc(hint)}</span></div>
</li>`;
}

/** A definition's first sentence (up to a full stop or colon outside `code`): what a box of words on a page has room for. */
function firstSentence(definition: string): string {
  let inCode = false;
  for (let i = 0; i < definition.length; i++) {
    const c = definition[i]!;
    if (c === '`') inCode = !inCode;
    else if (!inCode && (c === '.' || c === ':') && (i + 1 === definition.length || /\s/.test(definition[i + 1]!))) return `${definition.slice(0, i)}.`;
  }
  return definition;
}

/** The glossary's words this page uses, each with its definition's first sentence. */
function glossaryBox(words: GlossaryEntry[], lang: Lang): string {
  if (words.length === 0) return '';
  const items = words.map((w) => `<li>${w.terms.map((term) => `<b>${md(term, true)}</b>`).join(', ')}: ${md(firstSentence(w.definition), true)}</li>`).join('\n');
  return `<aside class="words"><h2>${esc(t('class.wordsTitle', lang))}</h2><ul>\n${items}\n</ul></aside>`;
}

const CSS = `
@page { margin: ${MARGIN_MM}mm; }
* { box-sizing: border-box; }
html { font-size: 9pt; }
body { margin: 0; color: #000; background: #fff; font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; line-height: 1.26; }
.sheet { width: ${WIDTH_MM}mm; max-width: 100%; margin: 0 auto; }
@media screen { body { background: #e9e9e9; } .sheet { background: #fff; padding: ${MARGIN_MM}mm; width: 210mm; min-height: 279mm; max-width: none; margin: 8mm auto; box-shadow: 0 0 6px #999; } }
header { display: flex; justify-content: space-between; align-items: flex-end; gap: 4mm; border-bottom: 1.2pt solid #000; padding-bottom: 1.2mm; }
.on { font-size: 7.5pt; white-space: nowrap; }
.kicker { margin: 0; font-size: 7.5pt; letter-spacing: .04em; text-transform: uppercase; }
.who { display: flex; gap: 2mm; font-size: 8.5pt; white-space: nowrap; }
.who span { display: inline-block; border-bottom: .8pt solid #000; width: 38mm; height: 4mm; margin-right: 3mm; }
.who span.short { width: 22mm; margin-right: 0; }
h1 { font-size: 15pt; margin: 2mm 0 .6mm; line-height: 1.15; }
h2 { font-size: 10.5pt; margin: 1.8mm 0 .5mm; }
p { margin: 0 0 1mm; }
.intro p { font-style: italic; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .92em; }
pre.diff { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: ${DIFF_PT}pt; line-height: 1.2; white-space: break-spaces; overflow-wrap: anywhere; border: .6pt solid #777; border-radius: 1.5mm; padding: 1.2mm 2mm; margin: 1.2mm 0 0; }
pre.diff span { display: block; padding-left: 1.3em; text-indent: -1.3em; }
pre.diff .add { color: #00661d; font-weight: 700; }
pre.diff .del { color: #a30000; }
pre.diff .hunk { color: #444; font-style: italic; }
pre.diff .hunk:not(:first-child):not(.file + .hunk) { border-top: .4pt dashed #999; margin-top: .5mm; }
pre.diff .file { font-weight: 700; border-bottom: .4pt solid #999; margin-top: .6mm; }
pre.diff .file:first-child { margin-top: 0; }
.reference { margin-top: 1.6mm; border-left: 1.2pt solid #000; padding: .2mm 0 .2mm 2.5mm; font-size: 8pt; line-height: 1.2; break-inside: avoid; }
.reference p { margin: 0 0 .4mm; }
.reference p:last-child { margin-bottom: 0; }
.reference .lead { font-weight: 700; }
.reference ul { margin: 0 0 .4mm; padding-left: 4mm; }
.predict { margin-top: 1.6mm; border-top: 1.2pt solid #000; }
.predict > p { font-size: 8.5pt; margin-bottom: 1.2mm; }
/* The questions two by two, and the two lines to write on in the slot an odd count leaves, or side by side under them. */
.cards { display: grid; grid-template-columns: 1fr 1fr; column-gap: 5mm; row-gap: 2mm; }
ol.questions { list-style: none; margin: 0; padding: 0; display: contents; }
.writing.below { grid-column: 1 / -1; display: grid; grid-template-columns: 1fr 1fr; column-gap: 5mm; }
.writing.beside { align-self: end; }
h2 { break-after: avoid; }
.reasoning, .afterwards, .words, .words li { break-inside: avoid; }
.q { break-inside: avoid; border: .6pt solid #888; border-radius: 1.5mm; padding: 1.2mm 2mm 1.4mm; display: flex; flex-direction: column; justify-content: space-between; }
.q .prompt { font-size: 8.5pt; margin: 0 0 1mm; }
.qn { display: inline-block; font-weight: 700; border: 1pt solid #000; border-radius: 50%; width: 4.4mm; height: 4.4mm; line-height: 4.1mm; text-align: center; font-size: 7.5pt; margin-right: 1.5mm; }
.answer { display: flex; align-items: flex-end; gap: 2mm; }
.box { flex: none; display: inline-block; height: 8mm; border: 1.2pt solid #000; border-radius: 1mm; }
.box.number { width: 22mm; }
.box.label { width: 34mm; }
.unit { flex: none; font-weight: 700; padding-bottom: 1mm; }
.hint { font-size: 7.5pt; color: #444; line-height: 1.1; padding-bottom: .6mm; }
.line { display: block; border-bottom: .7pt solid #000; height: 7mm; }
.writing.beside .afterwards { margin-top: 2mm; }
.reasoning p, .afterwards p { font-size: 8.5pt; margin: 0; }
.words { margin-top: 1.5mm; border: .6pt solid #888; border-radius: 1.5mm; padding: 1mm 2mm 1.2mm; font-size: 7.5pt; }
.words h2 { font-size: 8.5pt; margin: 0 0 .6mm; }
.words ul { margin: 0; padding-left: 3.5mm; columns: 2; column-gap: 6mm; }
.words li { margin: 0; break-inside: avoid; }
footer { margin-top: 1mm; font-size: 7.5pt; color: #333; }
@media print {
  html, body { background: #fff; }
  .sheet { margin: 0; }
  /* Text colours (the diff's + and - lines) are kept; nothing relies on a background. */
  pre.diff { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;

export function renderHandout(lab: Lab, lang: Lang, root = REPO): string {
  const sheet = handoutSheet(readSheet(lab.id, lang, root));
  const diff = renderDiff(sheet.diff);
  const questions = askingOrder(lab.questions);
  // The words are looked for in what the page says in prose (not in the diff's code: "contract/" there is a folder).
  // The settings of a plain run (`npm run lab -- --variant <lab>`): what the handout's command starts.
  const told = reference(lab, lang, LAB_DEFAULTS.knobs, { seeds: seedsFrom(LAB_DEFAULTS.seed, lab.seeds ?? DEFAULT_LAB_SEEDS), calls: LAB_DEFAULTS.calls }, root);
  const prose = [sheet.title, sheet.intro, ...sheet.sections.flatMap((x) => [x.heading, x.markdown]), ...referenceTexts(told), ...questions.map((q) => promptOnRun(lab, q, lang))].join('\n');
  const words = termsUsedIn(prose.replace(/<[^>]+>|[*_[\]()]/g, ' '), readGlossary(lang, root));
  const sections = sheet.sections
    .map((s, i) => `<section><h2>${md(s.heading, true)}</h2>${md(s.markdown)}${i === sheet.diffIn ? `<pre class="diff" aria-label="diff">${diff.html}</pre>` : ''}</section>`)
    .join('\n');
  const command = `npm run lab -- --variant ${lab.id} --learner &lt;${esc(t('class.learnerPlaceholder', lang))}&gt;${lang === 'es' ? ' --lang es' : ''}`;
  const height = estimateHeight(sheet, questions, words, lang, told);
  const zoom = height > ONE_PAGE_UP_TO ? 1 : Math.max(MIN_ZOOM, Math.min(1, TARGET_HEIGHT / height));
  // Zoom shrinks the box too: widen it by as much, so the text wraps as on a full-width page. The diff is set larger by
  // as much as the page is zoomed: on paper it stays at DIFF_PT.
  const fit = zoom < 1 ? `\n@media print { .sheet { zoom: ${zoom.toFixed(3)}; width: calc(${WIDTH_MM}mm / ${zoom.toFixed(3)}); } pre.diff { font-size: ${(DIFF_PT / zoom).toFixed(2)}pt; } }` : '';
  const body = `<main class="sheet">
<header><p class="kicker">${esc(t('class.handoutKicker', lang))} · ${esc(lab.id)}</p><div class="who">${esc(t('class.name', lang))} <span></span> ${esc(t('class.date', lang))} <span class="short"></span></div></header>
<h1>${md(sheet.title || lab.title[lang], true)}</h1>
${sheet.intro ? `<div class="intro">${md(sheet.intro)}</div>` : ''}
${sections}
${referenceBox(told)}
<section class="predict"><h2>${esc(t('class.predictTitle', lang))}</h2><p>${esc(t('class.predictIntro', lang))}</p>
<div class="cards"><ol class="questions">
${questions.map((q, i) => questionBlock(lab, q, i + 1, lang)).join('\n')}
</ol>
<div class="writing ${questions.length % 2 === 1 ? 'beside' : 'below'}"><div class="reasoning"><p>${esc(t('learn.reasoning', lang))}</p><span class="line"></span></div>
<div class="afterwards"><p>${esc(t('class.afterwards', lang))}</p><span class="line"></span></div></div></div>
</section>
${glossaryBox(words, lang)}
<footer>${esc(t('class.command', lang))}: <code>${command}</code></footer>
</main>`;
  return page({ lang, title: `${lab.id} · ${sheet.title || lab.title[lang]}`, css: CSS + fit, body });
}
