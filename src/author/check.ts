/**
 * `npm run author -- check <id>`: what the kit proves for its own labs,
 * proved for one lab in the making, each failure one line saying what to do:
 * 1. the break applies to its baseline and changes one source file (a
 *    change to the contract, contract/, is the statement of a capability
 *    the break brings, as in structural-anyof, and is not counted);
 * 2. the solution applies on top of it;
 * 3. applied by hand to a copy of the sources, the break measures what the
 *    runner measures for the variant, and differs from the baseline
 *    (src/author/honesty.ts: the runner does not know what a variant does);
 * 4. the schema contract tests turn red on the break and green on its fix
 *    (for a lab on another lab's break: back to its base's violations);
 * 5. each question's figure resolves in the lab's results, on every seed,
 *    and moves between baseline and variant beyond the seeds' range
 *    (src/author/figures.ts), or, for a question marked `unchanged` (the
 *    lesson is that nothing visible changes, or the host where the incident
 *    does not happen), stays within it;
 * 6. the fix holds on every host where the baseline works: its calls end ok
 *    as often (src/author/hold.ts) and, handed over by scripts/author.ts,
 *    the linter's host verdicts are no worse (src/lint/hold.ts);
 * 7. the sheets (en, es) have their sections, stop mark and hints, and
 *    their figures, diffs and baseline.json regenerate as they are
 *    (src/learn/sheet-sync.ts, what `npm run sheets` writes).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { relative } from 'node:path';
import { checkServer } from '../contract/check.js';
import type { Violation } from '../contract/rules.js';
import { REPO } from '../lab/paths.js';
import { PROFILES, type ClientProfile } from '../lab/profiles/index.js';
import { seedsFrom } from '../lab/side-by-side.js';
import { breakPatch, buildServer, contractOf, patchChain, prepareSources, serverCommand, solutionPatch } from '../lab/variants.js';
import { LANGS, loadCatalogue, type Lab, type LabResults, type Lang } from '../learn/catalogue.js';
import { LAB_DEFAULTS, runLabSeeds } from '../learn/lab-runs.js';
import { labSheetFiles } from '../learn/sheet-sync.js';
import { AFTER_THE_RUN, figureValue, hints, includedFiles, readSheet, sheetPath } from '../learn/sheets.js';
import { formatNumber, t } from '../core/messages/index.js';
import { UserError } from '../core/user-error.js';
import { honestyCheck } from './honesty.js';
import { solutionShortfalls } from './hold.js';
import { movement } from './figures.js';
import { patchFiles } from './workspace.js';

/** What the linter says of a fix against its baseline, one line per host and tool made worse (src/lint/hold.ts, worseVerdicts). */
export type VerdictsWorse = (baselinePatches: string[], fixedPatches: string[], profiles: readonly ClientProfile[]) => Promise<string[]>;

export interface CheckStep {
  step: 'break' | 'fix' | 'honesty' | 'contract' | 'questions' | 'hold' | 'sheets';
  /** One line per failure, each saying what to do; empty when the step passed. */
  failures: string[];
}

const violationKey = (v: Violation) => `${v.rule} ${v.tool} ${v.path}`;

/** Whether a patch applies to the sources built from `below` (git apply --check on a copy). */
function applies(patch: string, below: string[]): boolean {
  const work = prepareSources(below);
  try {
    execFileSync('git', ['apply', '--check', '--whitespace=nowarn', patch], { cwd: work, env: { ...process.env, GIT_CEILING_DIRECTORIES: tmpdir() }, stdio: ['ignore', 'ignore', 'pipe'] });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Runs every step of the check on lab `id`; `onStep` hears each as it ends (the command prints it). */
export async function checkLab(id: string, lang: Lang, verdictsWorse: VerdictsWorse | undefined, onStep: (step: CheckStep) => void = () => {}): Promise<CheckStep[]> {
  const lab = loadCatalogue().find((l) => l.id === id);
  if (!lab) throw new UserError(t('author.notInCatalogue', lang, { id }));
  const steps: CheckStep[] = [];
  const done = (step: CheckStep) => {
    steps.push(step);
    onStep(step);
  };
  const say = (key: Parameters<typeof t>[0], values: Record<string, string | number> = {}) => t(key, lang, { id, ...values });

  // 1. The break: there, applying to its baseline, one source file.
  const chain = patchChain(id);
  const breakFailures: string[] = [];
  const breakApplies = existsSync(breakPatch(id)) && applies(breakPatch(id), chain.base);
  if (!existsSync(breakPatch(id))) breakFailures.push(say('author.check.noBreak'));
  else if (!breakApplies) breakFailures.push(say('author.check.breakDoesNotApply'));
  else {
    const files = patchFiles(readFileSync(breakPatch(id), 'utf8')).filter((file) => !file.startsWith('contract/'));
    if (files.length !== 1) breakFailures.push(say('author.check.breakFiles', { count: files.length, files: files.join(', ') || '-' }));
  }
  done({ step: 'break', failures: breakFailures });
  // 2. The fix: there, applying on top of the break.
  const fixFailures: string[] = [];
  if (!existsSync(solutionPatch(id))) fixFailures.push(say('author.check.noFix'));
  else if (breakApplies && !applies(solutionPatch(id), chain.variant)) fixFailures.push(say('author.check.fixDoesNotApply'));
  done({ step: 'fix', failures: fixFailures });
  // Nothing else is measured until the break is one fault in one file and the fix goes on top of it.
  if (breakFailures.length > 0 || fixFailures.length > 0) return steps;

  // 3. Honesty: the lab's first run's settings, with the clients of its runs (at most two). The break must change
  // something on one of them at least: a fault only a host's limit shows (a description, a tool's name) changes
  // nothing where the schema is shown as published, and that host is the lab's contrast.
  const clients = [...new Set(lab.runs.map((r) => r.client))].slice(0, 2);
  const honesty = await honestyCheck(id, lab.runs[0]!, clients);
  done({
    step: 'honesty',
    failures: [
      ...honesty.verdicts.filter((v) => v.differs).map((v) => say('author.check.notHonest', { client: v.client, path: v.differs })),
      ...(honesty.verdicts.some((v) => v.changed) ? [] : [say('author.check.changesNothing', { client: clients.join(', ') })]),
    ],
  });

  // 4. The contract tests: red on the break, green on the fix (a lab on another's break: back to its base's).
  const [variantJs, solutionJs, baseJs] = await Promise.all([buildServer(chain.variant), buildServer(chain.solution), buildServer(chain.base)]);
  const [onBreak, onFix, onBase] = await Promise.all([variantJs, solutionJs, baseJs].map(async (js) => (await checkServer(serverCommand(js), contractOf(js))).violations));
  const inherited = new Set(onBase!.map(violationKey));
  const contractFailures: string[] = [];
  if (onBreak!.every((v) => inherited.has(violationKey(v)))) contractFailures.push(say('author.check.contractGreenOnBreak'));
  const stillRed = onFix!.filter((v) => !inherited.has(violationKey(v)));
  if (stillRed.length > 0) contractFailures.push(say('author.check.contractRedOnFix', { rule: stillRed[0]!.rule, tool: stillRed[0]!.tool, path: stillRed[0]!.path || '/', count: stillRed.length }));
  done({ step: 'contract', failures: contractFailures });

  // 5. The questions, on the lab's own runs over its seeds (what `npm run sheets` measures too).
  const { seeds, perSeed } = await runLabSeeds(lab, LAB_DEFAULTS);
  const plain = JSON.parse(JSON.stringify(perSeed)) as LabResults[];
  const questionFailures: string[] = [];
  if (lab.questions.length === 0) questionFailures.push(say('author.check.noQuestions'));
  for (const question of lab.questions) {
    for (const l of LANGS) if ((question.prompt?.[l] ?? '').trim().length < 10) questionFailures.push(say('author.check.noPrompt', { question: question.id, lang: l }));
    try {
      const moved = movement(question.figure, plain);
      const values = { question: question.id, baseline: shown(moved.baseline, lang), variant: shown(moved.variant, lang) };
      if (question.unchanged && moved.moves) questionFailures.push(say('author.check.movesButUnchanged', values));
      if (!question.unchanged && !moved.moves) questionFailures.push(say('author.check.doesNotMove', values));
    } catch (error) {
      questionFailures.push(say('author.check.figureMissing', { question: question.id, why: (error as Error).message }));
    }
  }
  done({ step: 'questions', failures: questionFailures });

  // 6. The fix holds wherever the baseline works: calls ending ok, and (the linter's) host verdicts.
  const holdFailures: string[] = [];
  try {
    const { short } = await solutionShortfalls([lab], PROFILES, { cached: true });
    holdFailures.push(...short.map((line) => say('author.check.fixFallsShort', { what: line })));
    if (verdictsWorse) holdFailures.push(...(await verdictsWorse(chain.base, chain.solution, PROFILES)).map((line) => say('author.check.fixVerdictWorse', { what: line })));
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    holdFailures.push(error.message);
  }
  done({ step: 'hold', failures: holdFailures });

  // 7. The sheets: their parts, and what `npm run sheets` would write is what they hold.
  done({ step: 'sheets', failures: sheetFailures(lab, plain, seeds, lang) });
  return steps;
}

/** A measurement as a line of the check prints it: the mean (least–most), or the labels the seeds gave. */
function shown(m: ReturnType<typeof movement>['variant'], lang: Lang): string {
  if (typeof m.value !== 'number') return m.values.join(', ');
  return `${formatNumber(m.value, lang)} (${formatNumber(m.min!, lang)}–${formatNumber(m.max!, lang)})`;
}

function sheetFailures(lab: Lab, perSeed: LabResults[], seeds: number[], lang: Lang): string[] {
  const failures: string[] = [];
  const say = (key: Parameters<typeof t>[0], values: Record<string, string | number> = {}) => t(key, lang, { id: lab.id, ...values });
  const counts: number[] = [];
  for (const l of LANGS) {
    const path = relative(REPO, sheetPath(lab.id, l));
    let sheet: string;
    try {
      sheet = readSheet(lab.id, l);
    } catch {
      failures.push(say('author.check.noSheet', { sheet: path }));
      continue;
    }
    const after = sheet.indexOf(AFTER_THE_RUN);
    if (after === -1) failures.push(say('author.check.noStopMark', { sheet: path }));
    if (JSON.stringify(includedFiles(sheet)) !== JSON.stringify([`breaks/${lab.id}.patch`, `solutions/${lab.id}.patch`])) failures.push(say('author.check.noIncludes', { sheet: path }));
    const found = hints(sheet);
    counts.push(found.length);
    if (found.length < 3 || found.some((h) => h.text.length < 20 || /^(TODO|PENDIENTE)\b/.test(h.text))) failures.push(say('author.check.hintsToWrite', { sheet: path }));
    if (/^(TODO|PENDIENTE) \(npm run author/m.test(sheet)) failures.push(say('author.check.sheetToWrite', { sheet: path }));
  }
  if (counts.length === LANGS.length && new Set(counts).size > 1) failures.push(say('author.check.hintCounts', { counts: counts.join(' / ') }));
  // What `npm run sheets -- <id>` writes from the same run: the figures of this lab quoted in its sheets too.
  const quoted = (l: Lang) => (labId: string, questionId: string) => {
    const question = labId === lab.id ? lab.questions.find((q) => q.id === questionId) : undefined;
    return question ? figureValue(question, perSeed, l) : undefined;
  };
  for (const file of labSheetFiles(lab, perSeed, seedsFrom(seeds[0] ?? 1, perSeed.length), LAB_DEFAULTS.calls, quoted)) {
    if (!existsSync(file.path) || readFileSync(file.path, 'utf8') !== file.text) failures.push(say('author.check.sheetStale', { file: relative(REPO, file.path) }));
  }
  return failures;
}

