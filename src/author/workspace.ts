/**
 * An instructor's lab in the making (`npm run author`, docs/authoring.md):
 * a workspace in authoring/<id>/ holding a copy of the server's sources
 * (src/, contract/) as the lab's baseline has them, where the break is made
 * and then the fix; breaks/<id>.patch and solutions/<id>.patch are the
 * workspace's diffs, and labs/<id>/README.md, README.es.md start as a
 * skeleton with the sections, the stop mark, the regions `npm run sheets`
 * fills (the diffs, the figures) and empty hints.
 *
 * The workflow, in order: `new` (the workspace holds the baseline), edit it
 * until it holds the fault, `break` (breaks/<id>.patch = workspace against
 * the baseline), edit it until it holds the fix, `fix` (solutions/<id>.patch
 * = workspace against the baseline with the break applied). A patch is the
 * same `git diff` form as the kit's own, so the runner, the learner's
 * workspace and the sheets read it as they read every other.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO } from '../lab/paths.js';
import { BASELINE, breakPatch, listBreaks, patchChain, prepareSources, solutionPatch } from '../lab/variants.js';
import { CATALOGUE_FILE, LANGS, type Lab, type Lang } from '../learn/catalogue.js';
import { sheetPath, withIncludes } from '../learn/sheets.js';
import { t } from '../core/messages/index.js';
import { UserError } from '../core/user-error.js';

/** What a lab id may be: lowercase words joined by hyphens (it names a folder, a patch and a figure path's lab). */
export const LAB_ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** The folder where a lab in the making is edited: authoring/<id>/ at the kit's root. */
export function authoringDir(id: string, root = REPO): string {
  return join(root, 'authoring', id);
}

/** Where the workspace keeps the sources it started from (the baseline's at `new`). */
const PRISTINE = '.pristine';

/** What `new` records beside the sources: the lab the break builds on, if any. */
interface AuthoringState {
  base?: string;
}

function readState(id: string): AuthoringState {
  const file = join(authoringDir(id), '.author.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as AuthoringState) : {};
}

/** The catalogue as its file holds it (version, seeds, labs), to be written back whole. */
interface CatalogueFile {
  $comment?: string;
  version: number;
  seeds?: number;
  labs: Lab[];
}

export function readCatalogueFile(file = CATALOGUE_FILE): CatalogueFile {
  return JSON.parse(readFileSync(file, 'utf8')) as CatalogueFile;
}

/** Writes the catalogue back as the kit keeps it (two spaces, one newline at the end), by rename: never half a file. */
export function writeCatalogueFile(catalogue: CatalogueFile, file = CATALOGUE_FILE): void {
  const staged = `${file}.staging-${process.pid}`;
  writeFileSync(staged, `${JSON.stringify(catalogue, null, 2)}\n`);
  renameSync(staged, file);
}

/** A lab of the catalogue file, or a one-line error naming the command that starts it. */
export function catalogueLab(catalogue: CatalogueFile, id: string, lang: Lang): Lab {
  const lab = catalogue.labs.find((l) => l.id === id);
  if (!lab) throw new UserError(t('author.notInCatalogue', lang, { id }));
  return lab;
}

/** Refuses an id that is not one, or that the kit already has (a lab, a break, a sheet, a workspace). */
export function checkNewId(id: string, lang: Lang): void {
  if (!LAB_ID.test(id) || id === BASELINE || id.length > 48) throw new UserError(t('author.badId', lang, { id }));
  const taken = [
    readCatalogueFile().labs.some((l) => l.id === id) && 'labs/catalogue.json',
    existsSync(breakPatch(id)) && `breaks/${id}.patch`,
    existsSync(join(REPO, 'labs', id)) && `labs/${id}/`,
    existsSync(authoringDir(id)) && `authoring/${id}/`,
  ].filter((x): x is string => typeof x === 'string');
  if (taken.length > 0) throw new UserError(t('author.idTaken', lang, { id, where: taken.join(', ') }));
}

export interface NewLab {
  id: string;
  base?: string;
  title: { en: string; es: string };
}

/**
 * Starts a lab: the workspace (the baseline's sources, or the base lab's
 * broken ones), the skeleton sheets, and its place at the end of the
 * catalogue with one run (faithful on today's SDK) until `questions --runs`
 * names the lab's own.
 */
export function startLab({ id, base, title }: NewLab, lang: Lang): string {
  checkNewId(id, lang);
  if (base !== undefined && !listBreaks().includes(base)) throw new UserError(t('author.unknownBase', lang, { base, labs: listBreaks().join(', ') }));
  const dir = authoringDir(id);
  const work = prepareSources(base ? patchChain(base).variant : []);
  try {
    mkdirSync(dirname(dir), { recursive: true });
    const staged = `${dir}.staging-${process.pid}`;
    cpSync(work, staged, { recursive: true });
    // The sources as they were when the lab started: the patches are diffs against them, so that a change to the
    // kit's own src/ meanwhile (an update pulled) is not taken into the break.
    cpSync(work, join(staged, PRISTINE), { recursive: true });
    writeFileSync(join(staged, '.author.json'), `${JSON.stringify({ ...(base ? { base } : {}) })}\n`);
    renameSync(staged, dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  mkdirSync(join(REPO, 'labs', id), { recursive: true });
  for (const l of LANGS) writeFileSync(sheetPath(id, l), skeletonSheet(id, title[l], l));
  const catalogue = readCatalogueFile();
  catalogue.labs.push({ id, title, runs: [{ name: 'faithful', server: 'mcpserver-1.32', client: 'faithful' }], questions: [] });
  writeCatalogueFile(catalogue);
  return dir;
}

/** The sections every sheet has, in order (test/sheets.test.ts holds them), and the words around them. */
const SKELETON: Record<Lang, { sections: string[]; slot: string; words: string; stop: string; reference: string; hint: string; todo: string }> = {
  en: {
    sections: ['Hypothesis', 'The break', 'Predict, then run', 'What to observe', 'The symptom', 'The hidden cause', 'Hints', 'The fix', 'Why this teaches the concept', 'References'],
    slot: '**In a 45-minute slot:** read the Hypothesis and The break (10 minutes), run `npm run lab -- --variant {id} --learner <your name>` (5 minutes), then read what to observe and the symptom, open the workspace and stop at Hint 2 before you fix it and prove the fix with `npm run check -- {id}` (30 minutes).',
    words: 'Words: [glossary](../GLOSSARY.md)',
    stop: '**Stop here until you have run the lab: what follows gives the answers away.**',
    reference: 'The reference solution',
    hint: 'Hint',
    todo: 'TODO (npm run author -- check {id} lists what is left to write)',
  },
  es: {
    sections: ['Hipótesis', 'La avería', 'Predice y después ejecuta', 'Qué observar', 'El síntoma', 'La causa oculta', 'Pistas', 'La solución', 'Por qué esto enseña el concepto', 'Referencias'],
    slot: '**En una sesión de 45 minutos:** lee la Hipótesis y La avería (10 minutos), ejecuta `npm run lab -- --variant {id} --learner <tu nombre>` (5 minutos), después lee qué observar y el síntoma, abre tu espacio de trabajo y detente en la Pista 2 antes de arreglarlo y de demostrar el arreglo con `npm run check -- {id}` (30 minutos).',
    words: 'Palabras: [glosario](../GLOSSARY.es.md)',
    stop: '**Detente aquí hasta haber ejecutado el laboratorio: lo que sigue da las respuestas.**',
    reference: 'La solución de referencia',
    hint: 'Pista',
    todo: 'PENDIENTE (npm run author -- check {id} dice lo que falta por escribir)',
  },
};

const include = (file: string) => `<!-- include: ${file} -->\n\`\`\`diff\n\`\`\`\n<!-- /include -->`;

/**
 * A sheet with every part the kit's tests and `npm run sheets` look for: the
 * ten sections in order, the stop mark (`<!-- after-the-run -->`) between
 * "Predict, then run" and "What to observe", the break's and the solution's
 * diffs as include regions, the figures region after the stop mark, and
 * three empty hints. The words in between are the instructor's to write.
 */
export function skeletonSheet(id: string, title: string, lang: Lang): string {
  const s = SKELETON[lang];
  const todo = s.todo.replace('{id}', id);
  const [hypothesis, theBreak, predict, observe, symptom, cause, hintsHeading, fix, why, references] = s.sections;
  const hintBlocks = [1, 2, 3].map((n) => `<details><summary>${s.hint} ${n}</summary>\n\n${todo}\n\n</details>`).join('\n\n');
  return [
    `# ${title}`,
    todo,
    s.slot.replaceAll('{id}', id),
    s.words,
    `## ${hypothesis}`,
    todo,
    `## ${theBreak}`,
    todo,
    include(`breaks/${id}.patch`),
    `## ${predict}`,
    `\`\`\`sh\nnpm run lab -- --variant ${id} --learner <name>\n\`\`\``,
    s.stop,
    '<!-- after-the-run -->',
    `## ${observe}`,
    '<!-- figures -->\n<!-- /figures -->',
    todo,
    `## ${symptom}`,
    todo,
    `## ${cause}`,
    todo,
    `## ${hintsHeading}`,
    hintBlocks,
    `## ${fix}`,
    `<details><summary>${s.reference}</summary>\n\n${include(`solutions/${id}.patch`)}\n\n</details>`,
    `## ${why}`,
    todo,
    `## ${references}`,
    todo,
    '',
  ].join('\n\n');
}

/**
 * `git diff` between two copies of the sources, as the kit's patches are
 * written (`a/src/...`, `b/src/...`, an index line per file): the two copies
 * are put side by side as `a` and `b` and compared with no prefix, so each
 * path is `a/` or `b/` and then the path inside the kit.
 */
function diffSources(before: string, after: string): string {
  const pair = mkdtempSync(join(tmpdir(), 'schema-breaks-author-diff-'));
  try {
    for (const [from, side] of [[before, 'a'], [after, 'b']] as const) {
      for (const dir of ['src', 'contract']) if (existsSync(join(from, dir))) cpSync(join(from, dir), join(pair, side, dir), { recursive: true });
    }
    try {
      execFileSync('git', ['diff', '--no-index', '--no-prefix', '--no-color', '--no-ext-diff', '--', 'a', 'b'], { cwd: pair, env: { ...process.env, GIT_CEILING_DIRECTORIES: tmpdir() }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      return '';
    } catch (error) {
      // git diff --no-index exits 1 when the two differ: its output is the diff.
      const { status, stdout } = error as { status?: number; stdout?: string };
      if (status === 1 && stdout) return stdout;
      throw error;
    }
  } finally {
    rmSync(pair, { recursive: true, force: true });
  }
}

/** The files a patch changes, as the kit names them (src/minimcp/tools/conjugate.ts). */
export function patchFiles(patch: string): string[] {
  return [...patch.matchAll(/^diff --git a\/(\S+) b\//gm)].map((m) => m[1]!);
}

function workspaceOf(id: string, lang: Lang): string {
  const dir = authoringDir(id);
  if (!existsSync(join(dir, 'src'))) throw new UserError(t('author.noWorkspace', lang, { id }));
  return dir;
}

/** breaks/<id>.patch from the workspace: what it changes against the lab's baseline. */
export function writeBreak(id: string, lang: Lang): { patch: string; files: string[] } {
  const dir = workspaceOf(id, lang);
  const { base } = readState(id);
  const diff = diffSources(join(dir, PRISTINE), dir);
  if (diff === '') throw new UserError(t('author.emptyBreak', lang, { id, dir: `authoring/${id}/` }));
  // A lab on another lab's break says so on its first line (src/lab/variants.ts, baseOf); git apply skips it.
  const patch = breakPatch(id);
  mkdirSync(dirname(patch), { recursive: true });
  writeFileSync(patch, `${base ? `Base: ${base} (this break applies on top of ${base}'s)\n` : ''}${diff}`);
  refreshIncludes(id);
  return { patch, files: patchFiles(diff) };
}

/** solutions/<id>.patch from the workspace: what it changes against the baseline with the break applied. */
export function writeFix(id: string, lang: Lang): { patch: string; files: string[] } {
  const dir = workspaceOf(id, lang);
  if (!existsSync(breakPatch(id))) throw new UserError(t('author.noBreakYet', lang, { id }));
  // The sources the workspace started from with the break applied (the base's break is in them already).
  const broken = prepareSources([breakPatch(id)], join(dir, PRISTINE));
  let diff: string;
  try {
    diff = diffSources(broken, dir);
  } finally {
    rmSync(broken, { recursive: true, force: true });
  }
  if (diff === '') throw new UserError(t('author.emptyFix', lang, { id, dir: `authoring/${id}/` }));
  const patch = solutionPatch(id);
  mkdirSync(dirname(patch), { recursive: true });
  writeFileSync(patch, diff);
  refreshIncludes(id);
  return { patch, files: patchFiles(diff) };
}

/** The sheets' diff regions rewritten from the patches there are (npm run sheets does the same with --diffs). */
function refreshIncludes(id: string): void {
  for (const lang of LANGS) {
    const path = sheetPath(id, lang);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, 'utf8');
    // Only the regions whose file exists: a sheet between `break` and `fix` has no solution to include yet.
    const synced = text.replace(/<!-- include: (\S+) -->\n```(\w*)\n[\s\S]*?```\n<!-- \/include -->/g, (region, file: string) => (existsSync(join(REPO, file)) ? withIncludes(region) : region));
    if (synced !== text) writeFileSync(path, synced);
  }
}
