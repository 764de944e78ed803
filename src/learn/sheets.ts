/**
 * Lab sheets (labs/<id>/README.md, README.es.md): markdown a code host shows
 * as it is, and the terminal renders with marked.
 *
 * A sheet never copies a diff by hand: it includes it from breaks/ or
 * solutions/ between markers, and `npm run sheets` rewrites those regions
 * from the files (test/sheets.test.ts fails when one is out of date):
 *
 *   <!-- include: breaks/broken-schema.patch -->
 *   ```diff
 *   ...the file's text...
 *   ```
 *   <!-- /include -->
 *
 * The figures a sheet quotes are measured, not typed: a region
 *
 *   <!-- figures -->
 *   | question | measured ... |
 *   <!-- /figures -->
 *
 * holds each question's measurement over the lab's seeds (mean, least and
 * most), and `npm run sheets` rewrites it from a real run of the lab.
 *
 * `<!-- after-the-run -->` separates what a learner reads before predicting
 * from what would give the answers away. Hints are `<details>` blocks whose
 * summary starts with "Hint" ("Pista" in Spanish), revealed one at a time.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Marked, type MarkedExtension } from 'marked';
import { REPO } from '../lab/paths.js';
import { forUser } from '../core/cwd.js';
import { colourOn } from '../core/colour.js';
import { formatNumber, t } from '../core/messages/index.js';
import { figurePaths, measureAcross, unitWord, type Lab, type LabResults, type Lang, type Question } from './catalogue.js';
import { UserError } from '../core/user-error.js';

export const AFTER_THE_RUN = '<!-- after-the-run -->';

/** A sheet that is not there: a clear one-line error for the learner. */
export class SheetError extends UserError {}

export function sheetPath(lab: string, lang: Lang, root = REPO): string {
  return join(root, 'labs', lab, lang === 'en' ? 'README.md' : `README.${lang}.md`);
}

export function readSheet(lab: string, lang: Lang, root = REPO): string {
  const file = sheetPath(lab, lang, root);
  if (!existsSync(file)) throw new SheetError(`there is no ${lang === 'es' ? 'Spanish' : 'English'} sheet for ${lab} yet (${file})`);
  return readFileSync(file, 'utf8');
}

const INCLUDE = /<!-- include: (\S+) -->\n```(\w*)\n[\s\S]*?```\n<!-- \/include -->/g;

/** The files a sheet includes, in order. */
export function includedFiles(sheet: string): string[] {
  return [...sheet.matchAll(INCLUDE)].map((m) => m[1]!);
}

/** The sheet with every include region holding its file's current text. */
export function withIncludes(sheet: string, root = REPO): string {
  return sheet.replace(INCLUDE, (_all, file: string, lang: string) => {
    const text = readFileSync(join(root, file), 'utf8');
    return `<!-- include: ${file} -->\n\`\`\`${lang}\n${text.endsWith('\n') ? text : `${text}\n`}\`\`\`\n<!-- /include -->`;
  });
}

const FIGURES = /<!-- figures -->\n[\s\S]*?<!-- \/figures -->/;

/** Whether a sheet has a figures region. */
export function hasFigures(sheet: string): boolean {
  return FIGURES.test(sheet);
}

/** The question ids a sheet's figures region lists, in order. */
export function figureRows(sheet: string): string[] {
  const region = FIGURES.exec(sheet)?.[0] ?? '';
  return [...region.matchAll(/^\| `([\w.-]+)` \|/gm)].map((m) => m[1]!);
}

/**
 * The figures region for a lab: one row per question, with the run it reads
 * and its measurement over the seeds (a label: the one most seeds gave, and
 * how many gave it).
 */
export function figuresRegion(lab: Lab, perSeed: LabResults[], seeds: number[], lang: Lang): string {
  const rows = lab.questions.map((question) => {
    const runName = figurePaths(question.figure)[0]!.split('.')[0]!;
    const run = lab.runs.find((r) => r.name === runName);
    return `| \`${question.id}\` | ${run ? `${run.name} (${run.server}, ${run.client})` : runName} | ${figureValue(question, perSeed, lang)} |`;
  });
  const measured = t('learn.figuresMeasured', lang, { first: seeds[0]!, last: seeds.at(-1)! });
  return [`<!-- figures -->`, `| ${t('common.question', lang)} | ${t('learn.figuresRun', lang)} | ${measured} |`, '|---|---|---|', ...rows, '<!-- /figures -->'].join('\n');
}

/** A question's measurement over the seeds as the sheets write it: "3.56 (3.32–3.82)", "16.4% (12–23)", "`isError`". */
export function figureValue(question: Question, perSeed: LabResults[], lang: Lang): string {
  const m = measureAcross(question.figure, perSeed);
  const unit = question.unit ? (question.unit === '%' ? '%' : ` ${unitWord(question.unit, lang)}`) : '';
  return typeof m.value === 'number'
    ? `${formatNumber(m.value, lang)}${unit}${m.min !== m.max ? ` (${formatNumber(m.min!, lang)}–${formatNumber(m.max!, lang)})` : ''}`
    : `\`${m.value}\`${m.agree !== perSeed.length ? ` (${m.agree}/${perSeed.length})` : ''}`;
}

/**
 * A figure quoted in prose (docs/workshop.md's table of what each lab shows, a sheet's text) is a
 * region too, rewritten by `npm run sheets` from the same run:
 * `<!-- figure: broken-schema retries-per-failing-call -->3.56 (3.32–3.82)<!-- /figure -->`.
 */
const INLINE = /<!-- figure: ([\w-]+) ([\w.-]+) -->([^<]*)<!-- \/figure -->/g;

/** The figures a text quotes: lab, question and the value written there. */
export function quotedFigures(text: string): { lab: string; question: string; value: string }[] {
  return [...text.matchAll(INLINE)].map((m) => ({ lab: m[1]!, question: m[2]!, value: m[3]! }));
}

/** The text with each quoted figure rewritten; `valueOf` gives undefined for a lab not measured this time (left as it is). */
export function withQuotedFigures(text: string, valueOf: (lab: string, question: string) => string | undefined): string {
  return text.replace(INLINE, (all, lab: string, question: string) => {
    const value = valueOf(lab, question);
    return value === undefined ? all : `<!-- figure: ${lab} ${question} -->${value}<!-- /figure -->`;
  });
}

/** The sheet with its figures region replaced. */
export function withFigures(sheet: string, region: string): string {
  return sheet.replace(FIGURES, region);
}

/** Before the run (hypothesis, the break, predict-then-run) and after it (what to observe, cause, hints, fix). */
export function splitSheet(sheet: string): { before: string; after: string } {
  const at = sheet.indexOf(AFTER_THE_RUN);
  if (at === -1) return { before: sheet, after: '' };
  return { before: sheet.slice(0, at), after: sheet.slice(at + AFTER_THE_RUN.length) };
}

const HINT = /<details>\s*<summary>\s*((?:Hint|Pista)[^<]*)<\/summary>([\s\S]*?)<\/details>/g;

/** The hint cascade, in order: each hint's title and text. */
export function hints(sheet: string): { title: string; text: string }[] {
  return [...sheet.matchAll(HINT)].map((m) => ({ title: m[1]!.trim(), text: m[2]!.trim() }));
}

let terminalMarked: Marked | undefined;

/** marked-terminal's style options: each a function from text to painted text. */
const STYLE_KEYS = ['code', 'blockquote', 'html', 'heading', 'firstHeading', 'hr', 'listitem', 'table', 'paragraph', 'strong', 'em', 'codespan', 'del', 'link', 'href'] as const;

/**
 * marked with marked-terminal, set up once. Loaded on first use: with the
 * highlighter it brings, marked-terminal is the costliest module of the kit
 * to start (about 0.1 s of CPU), and most commands never print a sheet.
 */
async function terminalRenderer(): Promise<Marked> {
  if (terminalMarked) return terminalMarked;
  const { markedTerminal } = await import('marked-terminal');
  // Off a terminal (a file, a pipe, NO_COLOR), plain text: no style and no coloured table borders.
  const plain = !colourOn();
  // A terminal that reports no size (a pty nobody sized: \`script\`, some CI) says 0 columns: 80 then, not one letter a line.
  const styles = plain ? Object.fromEntries(STYLE_KEYS.map((k) => [k, (text: string) => text])) : {};
  terminalMarked = new Marked(
    markedTerminal({ reflowText: true, width: Math.min(process.stdout.columns || 80, 100), tab: 2, ...styles, ...(plain ? { tableOptions: { style: { head: [], border: [] } } } : {}) }) as MarkedExtension,
  );
  // marked-terminal 7.3 prints a list item's text token as it is, backticks and
  // all, with marked >= 13; parse its inline tokens instead (false falls back).
  terminalMarked.use({
    renderer: {
      text(token) {
        return 'tokens' in token && token.tokens ? this.parser.parseInline(token.tokens) : false;
      },
    },
  });
  return terminalMarked;
}

/** A sheet for the terminal: hints folded to one line each (revealed one at a time with --hint N), the rest rendered. */
export async function renderForTerminal(markdown: string, lab: string, lang: Lang = 'en'): Promise<string> {
  let n = 0;
  const langFlag = lang === 'en' ? '' : ` --lang ${lang}`;
  const folded = markdown.replace(HINT, (_all, title: string) => `- ${title.trim()}: \`npm run lab -- --variant ${lab} --hint ${++n}${langFlag}\`\n`);
  const details = folded.replace(/<details>\s*<summary>([^<]*)<\/summary>/g, '**$1**\n').replace(/<\/details>/g, '').replace(/<!--[\s\S]*?-->/g, '');
  return (await terminalRenderer()).parse(fromHere(details, lab), { async: false });
}

/**
 * A sheet's relative links (`../GLOSSARY.md`) are written from labs/<lab>/, where a code host shows the
 * file; in the terminal each is the path from the folder the command was typed in (labs/GLOSSARY.md
 * from the kit's root), so that it can be opened as printed.
 */
function fromHere(markdown: string, lab: string): string {
  return markdown.replace(/\]\((?![a-z][\w+.-]*:|#|\/)([^)\s]+)\)/gi, (_all, target: string) => `](${forUser(join(REPO, 'labs', lab, target))})`);
}
