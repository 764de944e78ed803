/**
 * A printable one-page handout per lab: the title, the hypothesis and the
 * break (with its diff) from the lab sheet, and the lab's prediction
 * questions with empty boxes to write in.
 *
 * Only the part of the sheet before `<!-- after-the-run -->` is read (via
 * `splitSheet`), and of that only the opening paragraph and the first two
 * sections (the hypothesis and the break; the third, "predict, then run",
 * is replaced by the questions). Nothing from a run and nothing from the
 * catalogue's figures is used, so the handout cannot give an answer away.
 *
 * It prints on A4 or US Letter with the printer's default margins set to
 * 12 mm: the layout is sized for the smaller of the two (186 x 255 mm), uses
 * no background colours, and a long diff is set smaller and in two columns
 * so that every lab fits on one page (test/handout.test.ts prints each one
 * with chromium and counts the pages).
 */
import { Marked } from 'marked';
import { scoredOn, unitWord, type Lab, type Lang, type Question } from '../learn/catalogue.js';
import { readSheet, splitSheet } from '../learn/sheets.js';
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
  const intro = head.replace(/^# .+$/m, '').trim();
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

/**
 * The diff, line by line, with + and - lines marked (colour and weight: it
 * still reads in black and white). Each file's four header lines (diff --git,
 * index, ---, +++) are shown as one line naming the file; every other line is
 * the patch's own.
 */
export function diffLines(diff: string): { kind: 'file' | 'hunk' | 'add' | 'del' | 'ctx'; text: string }[] {
  const out: { kind: 'file' | 'hunk' | 'add' | 'del' | 'ctx'; text: string }[] = [];
  for (const line of diff.split('\n')) {
    const file = /^diff --git a\/(\S+) b\/(\S+)$/.exec(line);
    if (file) out.push({ kind: 'file', text: file[1] === file[2] ? file[2]! : `${file[1]} → ${file[2]}` });
    else if (/^(index |--- |\+\+\+ |new file mode |deleted file mode )/.test(line) && out.at(-1)?.kind === 'file') continue;
    else if (line.startsWith('@@')) out.push({ kind: 'hunk', text: line });
    else if (line.startsWith('+')) out.push({ kind: 'add', text: line });
    else if (line.startsWith('-')) out.push({ kind: 'del', text: line });
    else out.push({ kind: 'ctx', text: line });
  }
  return out;
}

function renderDiff(diff: string): { html: string; long: boolean; lines: string[] } {
  const lines = diffLines(diff);
  const visual = lines.reduce((n, l) => n + Math.max(1, Math.ceil(l.text.length / 110)), 0);
  const html = lines.map((l) => `<span class="${l.kind}">${esc(l.text) || ' '}</span>`).join('');
  return { html, long: visual > 24, lines: lines.map((l) => l.text) };
}

/**
 * A rough estimate of the printed height (CSS px at 96 dpi, before any zoom),
 * fitted to chromium's layout of the kit's sheets: the fixed parts, the
 * prose by lines of about 106 characters, the diff by its lines (in two
 * columns of about 68 characters when it is long), the questions by rows of
 * two cards. Only used to choose a zoom; the test prints the real thing.
 */
export function estimateHeight(sheet: HandoutSheet, questions: Question[], lang: Lang): number {
  const paragraphs = [sheet.intro, ...sheet.sections.map((x) => x.markdown)].join('\n\n').split(/\n\s*\n/).filter((p) => p.trim() !== '');
  const proseLines = paragraphs.reduce((n, p) => n + Math.ceil(p.length / 106), 0);
  const { long, lines } = renderDiff(sheet.diff);
  const diff = long ? 8.8 * Math.ceil(lines.reduce((n, l) => n + Math.max(1, Math.ceil(l.length / 68)), 0) / 2) : 11.2 * lines.reduce((n, l) => n + Math.max(1, Math.ceil(l.length / 110)), 0);
  let promptRows = 0;
  for (let i = 0; i < questions.length; i += 2) promptRows += Math.max(...questions.slice(i, i + 2).map((q) => Math.ceil(q.prompt[lang].length / 50)));
  return 332 + 12.5 * proseLines + diff + 16 * promptRows + 45 * Math.ceil(questions.length / 2);
}

/** The printed page's content height we aim for: 255 mm is 964 px; chromium's print layout runs a few percent longer than its screen layout, so leave room. */
const TARGET_HEIGHT = 900;


/** One question: its prompt, the run it is scored on (a lab with several runs asks about each), a box and a line for why. */
function questionBlock(lab: Lab, question: Question, n: number, lang: Lang): string {
  const unit = question.unit ? unitWord(question.unit, lang) : '';
  const range = question.kind === 'number' && question.min !== undefined && question.max !== undefined ? t('class.range', lang, { min: question.min, max: question.max }) : '';
  const hint = question.kind === 'label' ? t('class.outcomeHint', lang) : range;
  return `<li class="q">
<p class="prompt"><span class="qn">${n}</span>${esc(question.prompt[lang])} <span class="on">(${esc(t('common.run', lang))} ${esc(scoredOn(lab, question, lang))})</span></p>
<div class="answer"><span class="box ${question.kind}"></span>${unit ? `<span class="unit">${esc(unit)}</span>` : ''}<span class="why"><span class="hint">${esc(hint)}</span><span class="line"></span><span class="whytext">${esc(t('class.why', lang))}</span></span></div>
</li>`;
}

const CSS = `
@page { margin: 12mm; }
* { box-sizing: border-box; }
html { font-size: 9pt; }
body { margin: 0; color: #000; background: #fff; font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; line-height: 1.26; }
.sheet { width: 186mm; max-width: 100%; margin: 0 auto; }
@media screen { body { background: #e9e9e9; } .sheet { background: #fff; padding: 12mm; width: 210mm; min-height: 279mm; max-width: none; margin: 8mm auto; box-shadow: 0 0 6px #999; } }
header { display: flex; justify-content: space-between; align-items: flex-end; gap: 4mm; border-bottom: 1.2pt solid #000; padding-bottom: 1.2mm; }
.on { font-size: 7.5pt; white-space: nowrap; }
.kicker { margin: 0; font-size: 7.5pt; letter-spacing: .04em; text-transform: uppercase; }
.who { display: flex; gap: 2mm; font-size: 8.5pt; white-space: nowrap; }
.who span { display: inline-block; border-bottom: .8pt solid #000; width: 38mm; height: 4mm; margin-right: 3mm; }
.who span.short { width: 22mm; margin-right: 0; }
h1 { font-size: 15pt; margin: 2mm 0 .6mm; line-height: 1.15; }
h2 { font-size: 10.5pt; margin: 2.2mm 0 .6mm; }
p { margin: 0 0 1mm; }
.intro p { font-style: italic; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .92em; }
pre.diff { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 7pt; line-height: 1.2; white-space: pre-wrap; overflow-wrap: anywhere; border: .6pt solid #777; border-radius: 1.5mm; padding: 1.2mm 2mm; margin: 1.2mm 0 0; }
pre.diff.long { font-size: 5.8pt; line-height: 1.16; column-count: 2; column-gap: 4mm; column-rule: .4pt solid #bbb; }
pre.diff span { display: block; padding-left: 1.3em; text-indent: -1.3em; }
pre.diff .add { color: #00661d; font-weight: 700; }
pre.diff .del { color: #a30000; }
pre.diff .hunk { color: #444; font-style: italic; }
pre.diff .file { font-weight: 700; border-bottom: .4pt solid #999; margin-top: .6mm; }
pre.diff .file:first-child { margin-top: 0; }
.predict { margin-top: 2mm; border-top: 1.2pt solid #000; }
.predict > p { font-size: 8.5pt; margin-bottom: 1.2mm; }
ol.questions { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: 1fr 1fr; column-gap: 5mm; row-gap: 2mm; }
.q { break-inside: avoid; border: .6pt solid #888; border-radius: 1.5mm; padding: 1.2mm 2mm 1.4mm; display: flex; flex-direction: column; justify-content: space-between; }
.q .prompt { font-size: 8.5pt; margin: 0 0 1mm; }
.qn { display: inline-block; font-weight: 700; border: 1pt solid #000; border-radius: 50%; width: 4.4mm; height: 4.4mm; line-height: 4.1mm; text-align: center; font-size: 7.5pt; margin-right: 1.5mm; }
.answer { display: flex; align-items: flex-end; gap: 2mm; }
.box { flex: none; display: inline-block; height: 8mm; border: 1.2pt solid #000; border-radius: 1mm; }
.box.number { width: 22mm; }
.box.label { width: 34mm; }
.unit { flex: none; font-weight: 700; padding-bottom: 1mm; }
.why { flex: 1; display: flex; flex-direction: column; min-width: 0; }
.hint { font-size: 7pt; color: #444; line-height: 1.1; }
.line { display: block; border-bottom: .7pt solid #000; height: 5mm; }
.whytext { font-size: 6.8pt; color: #444; line-height: 1.1; padding-top: .4mm; }
.afterwards { margin-top: 2mm; }
.afterwards p { font-size: 8.5pt; margin: 0; }
.afterwards .line { height: 7mm; }
footer { margin-top: 1.5mm; font-size: 7.5pt; color: #333; }
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
  const sections = sheet.sections
    .map((s, i) => `<section><h2>${md(s.heading, true)}</h2>${md(s.markdown)}${i === sheet.diffIn ? `<pre class="diff${diff.long ? ' long' : ''}" aria-label="diff">${diff.html}</pre>` : ''}</section>`)
    .join('\n');
  const questions = lab.questions.map((q, i) => questionBlock(lab, q, i + 1, lang)).join('\n');
  const command = `npm run lab -- --variant ${lab.id} --learner &lt;${esc(t('class.learnerPlaceholder', lang))}&gt;${lang === 'es' ? ' --lang es' : ''}`;
  const zoom = Math.max(0.78, Math.min(1, TARGET_HEIGHT / estimateHeight(sheet, lab.questions, lang)));
  // Zoom shrinks the box too: widen it by as much, so the text wraps as on a full-width page.
  const fit = zoom < 1 ? `\n@media print { .sheet { zoom: ${zoom.toFixed(3)}; width: calc(186mm / ${zoom.toFixed(3)}); } }` : '';
  const body = `<main class="sheet">
<header><p class="kicker">${esc(t('class.handoutKicker', lang))} · ${esc(lab.id)}</p><div class="who">${esc(t('class.name', lang))} <span></span> ${esc(t('class.date', lang))} <span class="short"></span></div></header>
<h1>${md(sheet.title || lab.title[lang], true)}</h1>
${sheet.intro ? `<div class="intro">${md(sheet.intro)}</div>` : ''}
${sections}
<section class="predict"><h2>${esc(t('class.predictTitle', lang))}</h2><p>${esc(t('class.predictIntro', lang))}</p>
<ol class="questions">
${questions}
</ol>
<div class="afterwards"><p>${esc(t('class.afterwards', lang))}</p><span class="line"></span><span class="line"></span></div>
</section>
<footer>${esc(t('class.command', lang))}: <code>${command}</code></footer>
</main>`;
  return page({ lang, title: `${lab.id} · ${sheet.title || lab.title[lang]}`, css: CSS + fit, body });
}
