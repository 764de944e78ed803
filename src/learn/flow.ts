/**
 * The learner's path through one lab, from "what is this" to "I proved the
 * fix": whom a command acts for, the lab's state in the notes, predictions
 * locked before the run, the lab's runs, prediction next to measurement,
 * notes, the workspace and its check. What a learner reads and picks from
 * (the catalogue menu, the sheet, the hints) is src/learn/browse.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { confirm, input } from './prompts.js';
import type { Command } from './command.js';
import { seedsFrom } from '../lab/side-by-side.js';
import { runLabSeeds } from './lab-runs.js';
import { REPO } from '../lab/paths.js';
import { renderTerminal } from '../lab/report.js';
import { solutionPatch } from '../lab/variants.js';
import { labSheetQuote, writeReportPage } from '../report/write.js';
import { DEFAULT_LAB_SEEDS, type Lab, type LabResults, type Lang } from './catalogue.js';
import { referenceLines } from './reference.js';
import type { FigureDef } from '../lab/figures.js';
import { checkWorkspace, type CheckVerdict, type CompilerCatches, type RunComparison } from './check.js';
import { isLang } from '../core/lang.js';
import { t, type MessageId } from '../core/messages/index.js';
import { Journal, type JournalEntry } from './journal.js';
import { learnerDir, listLearners, rememberedLearner, rememberLearner, validateLearnerName } from './learner.js';
import { askPredictions, compare, readPredictionFile, renderComparison, tooLong, type Prediction } from './predictions.js';
import { readSheet, renderForTerminal, splitSheet } from './sheets.js';
import { createWorkspace, filesToEdit, resetWorkspace, workspaceDir, WorkspaceExistsError } from './workspace.js';
import { Interrupted, UserError } from '../core/user-error.js';
import { forUser } from '../core/cwd.js';
import { wroteLine } from '../core/file-option.js';
import { classOf, classHold, sendWaiting } from './live.js';

/** A learner's mistake the command explains in one line (exit code 2). */
export class FlowError extends UserError {}

const out = (text = '') => process.stdout.write(`${text}\n`);

/** Prompts only where a person can answer them. */
export function interactive(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}

// ---------------------------------------------------------------------------
// Learner and notes
// ---------------------------------------------------------------------------

/** --learner, else the remembered one, else asked (in a terminal), else a clear error. */
export async function resolveLearner(command: Pick<Command, 'learner' | 'lang'>, root = REPO): Promise<string> {
  let name = command.learner !== undefined ? validateLearnerName(command.learner) : rememberedLearner(root);
  if (name === undefined) {
    if (!interactive()) throw new FlowError(t('learn.needLearner', command.lang));
    const typed = await input({
      message: t('learn.learnerName', command.lang),
      validate: (text) => {
        try {
          validateLearnerName(text);
          return true;
        } catch (error) {
          return (error as Error).message;
        }
      },
    });
    name = validateLearnerName(typed);
  }
  return name;
}

/** --learner, else the remembered one, else undefined: for a command that needs no name (the catalogue, the sheet, a hint). */
export function knownLearner(command: Pick<Command, 'learner'>, root = REPO): string | undefined {
  return command.learner !== undefined ? validateLearnerName(command.learner) : rememberedLearner(root);
}

/**
 * The first line of every learner's command: whom it acts for and where
 * that learner's notes and workspaces are, so that a learner who shares a
 * copy of the kit sees at once whose work a command reads or writes; and
 * the live class they are in, if any (their entries go there).
 */
export function sayWho(name: string | undefined, lang: Lang, root = REPO): void {
  if (!name) {
    out(t('learn.actingForNobody', lang));
    return;
  }
  const dir = `${forUser(learnerDir(root, name))}/`;
  const url = classOf(root, name);
  out(url ? t('learn.actingForClass', lang, { name, dir, url }) : t('learn.actingFor', lang, { name, dir }));
}

/** sayWho, unless this command's who line named the same learner already (the menu's, before the action chosen in it). */
export function sayWhoOnce(name: string | undefined, command: Pick<Command, 'lang' | 'whoSaid'>, root = REPO): void {
  if (command.whoSaid && command.whoSaid.name === name) return;
  sayWho(name, command.lang, root);
}

/**
 * Runs a learner's command and, once it has succeeded, remembers the learner
 * (learners/.current): a `--learner X` on a command that fails (a reset
 * without --yes, a bad lab) does not switch whose notes the next command uses.
 */
async function asLearner(name: string | undefined, root: string, body: () => Promise<number>): Promise<number> {
  const code = await body();
  if (name !== undefined) rememberLearner(root, name);
  return code;
}

export function journalOf(name: string, root = REPO): Journal {
  return new Journal(join(learnerDir(root, name), 'notes'), { render: renderEntry });
}

/** The readable block of breaks.md for one entry, in the language the learner had when it was written. */
export function renderEntry(entry: JournalEntry): string {
  const data = entry.data as Record<string, any>;
  const lang: Lang = typeof data.lang === 'string' && isLang(data.lang) ? data.lang : 'en';
  const say = (id: MessageId, values?: Record<string, string | number>) => t(id, lang, values);
  const lines = [`## ${entry.lab} · ${entry.kind} · ${entry.at.replace('T', ' ').slice(0, 16)} UTC`, ''];
  if (data.settings) lines.push(`${say('learn.journal.settings')}: ${JSON.stringify(data.settings)}`, '');
  if (data.answers) {
    lines.push(`| ${say('common.question')} | ${say('learn.journal.prediction')} |`, '|---|---|');
    for (const [id, value] of Object.entries(data.answers as Record<string, unknown>)) lines.push(`| ${id} | ${value ?? say('common.noAnswer')} |`);
    lines.push('');
  }
  if (data.reasoning) lines.push(`${say('learn.journal.reasoning')}: ${data.reasoning}`, '');
  if (data.comparison) {
    lines.push(`| ${say('common.question')} | ${say('common.predicted')} | ${say('common.measured')} | ${say('learn.journal.off')} |`, '|---|---|---|---|');
    for (const row of data.comparison as { question: string; predicted: unknown; measured: unknown; off: unknown }[]) {
      lines.push(`| ${row.question} | ${row.predicted ?? say('common.noAnswer')} | ${row.measured} | ${row.off === true ? say('common.right') : row.off === false ? say('common.wrong') : (row.off ?? '')} |`);
    }
    lines.push('');
  }
  if (data.figures) {
    for (const [run, figures] of Object.entries(data.figures as Record<string, unknown>)) lines.push(`- ${run}: ${JSON.stringify(figures)}`);
    lines.push('');
  }
  if (data.text) lines.push(`> ${String(data.text).replace(/\n/g, ' ')}`, '');
  if (data.note) lines.push(String(data.note), '');
  return `${lines.join('\n')}\n`;
}

/**
 * The prediction (or revision) locked since the lab's last run, if any: held
 * for the instructor's reveal, or left by a run that was interrupted. The run
 * that follows is compared with it, not with one made after it.
 */
export function lockedSinceLastRun(entries: JournalEntry[], lab: string): JournalEntry | undefined {
  let locked: JournalEntry | undefined;
  for (const entry of entries) {
    if (entry.lab !== lab) continue;
    if (entry.kind === 'run') locked = undefined;
    else if (entry.kind === 'prediction' || entry.kind === 'revision') locked = entry;
  }
  return locked;
}

export type LabState = 'not started' | 'predicted' | 'run' | 'fixed';

export function labState(entries: JournalEntry[], lab: string): LabState {
  const kinds = new Set(entries.filter((e) => e.lab === lab).map((e) => e.kind));
  if (kinds.has('fixed')) return 'fixed';
  if (kinds.has('run')) return 'run';
  if (kinds.has('prediction') || kinds.has('revision')) return 'predicted';
  return 'not started';
}

// ---------------------------------------------------------------------------
// Predict, run, compare
// ---------------------------------------------------------------------------

/** The few figures a journal keeps of each run. */
function keyFigures(results: LabResults): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(results).map(([name, report]) => {
      const v = report.runs.variant!;
      return [
        `${name} (${report.settings.client}, ${report.settings.server})`,
        { outcomes: v.outcomes, ok: v.finalOutcomes.ok ?? 0, accuracy: `${v.accuracy.correct}/${v.accuracy.total}`, silentWrong: v.silentWrong, retriesPerFailingCall: v.retries.perFailingCall },
      ];
    }),
  );
}

export async function runLabPath(lab: Lab, command: Command, root = REPO): Promise<number> {
  const { lang } = command;
  const canAsk = interactive();
  const name = command.noPredict && command.learner === undefined && !rememberedLearner(root) ? undefined : await resolveLearner(command, root);
  const earlier = name ? journalOf(name, root).read() : [];
  // In a live class that has not revealed this lab the run waits: the prediction is locked, sent, and the command stops there.
  const labCommand = `npm run lab -- --variant ${lab.id}`;
  const hold = command.unheld ? { held: false as const } : await classHold(root, name, lab.id, labCommand, lang);
  const held = hold.held;
  const unreachable = hold.held ? hold.unreachable : undefined;
  const locked = held || command.noPredict ? undefined : lockedSinceLastRun(earlier, lab.id);
  if (!command.noPredict && !locked && command.predictFile === undefined && !canAsk) throw new FlowError(t('learn.noTty', lang));
  sayWhoOnce(name, command, root);
  const notes = name ? forUser(join(learnerDir(root, name), 'notes', 'breaks.md')) : '';
  /*
   * What this run has written so far: Ctrl+C says exactly that. Once anything
   * is written the learner is remembered, so that the next command finds the
   * notes it was written to.
   */
  let kept: 'prediction' | 'run' | undefined;
  const keep = (what: 'prediction' | 'run') => {
    kept = what;
    rememberLearner(root, name!);
  };
  const interrupted = () =>
    kept === 'run' ? t('learn.interruptedRun', lang, { file: notes }) : kept === 'prediction' ? t('learn.interruptedPrediction', lang, { file: notes, command: `npm run lab -- --variant ${lab.id}` }) : t('learn.interrupted', lang);
  return asLearner(name, root, async () => {
    const journal = name ? journalOf(name, root) : undefined;
    out(`${lab.id}: ${lab.title[lang]}`);
    out();
    let prediction: Prediction | undefined;
    if (held && command.noPredict) {
      out(unreachable ?? t('learn.class.heldNoPredict', lang, { command: labCommand }));
      return 0;
    }
    if (command.noPredict) {
      // Without a learner nothing is written: say so, not that it goes into notes.
      out(t(journal ? 'learn.noPredict' : 'learn.noPredictNoNotes', lang));
    } else if (locked) {
      out(t('learn.class.lockedEarlier', lang, { time: locked.at.slice(0, 16).replace('T', ' ') }));
      if (command.predictFile !== undefined) out(t('learn.class.predictFileNotRead', lang, { file: forUser(command.predictFile) }));
      out();
      prediction = { answers: locked.data.answers as Prediction['answers'], reasoning: typeof locked.data.reasoning === 'string' ? locked.data.reasoning : '' };
    } else {
      // A --predict file is read first: a bad one is its one line, not the sheet and the reference before it.
      const fromFile = command.predictFile !== undefined ? readPredictionFile(command.predictFile, lab, lang) : undefined;
      if (canAsk && command.predictFile === undefined) out(await renderForTerminal(splitSheet(readSheet(lab.id, lang)).before, lab.id, lang));
      const previous = earlier.filter((e) => e.lab === lab.id && (e.kind === 'prediction' || e.kind === 'revision')).at(-1);
      // The reference before the first question: the baseline in the runs the questions are scored on, the model and the agent.
      for (const line of referenceLines(lab, lang, command.run.settings.knobs, { seeds: seedsFrom(command.run.settings.seed, command.run.seeds ?? lab.seeds ?? DEFAULT_LAB_SEEDS), calls: command.run.settings.calls })) out(line);
      out();
      out(t(held ? 'learn.predictIntroHeld' : 'learn.predictIntro', lang));
      if (previous) out(`${t('learn.previousPrediction', lang)} ${previous.at.slice(0, 16).replace('T', ' ')}. ${t('learn.revising', lang)}`);
      out();
      prediction = fromFile ?? (await askPredictions(lab, lang));
      // Locked: written before anything runs. A later change is a new, dated entry.
      journal!.append({ kind: previous ? 'revision' : 'prediction', lab: lab.id, data: { answers: prediction.answers, reasoning: prediction.reasoning, runs: lab.runs, lang } });
      keep('prediction');
      out(`${t('learn.locked', lang)} ${notes}`);
      await sendWaiting(root, name, lang);
      if (held) {
        out();
        out(unreachable ?? t('learn.class.held', lang, { command: labCommand }));
        if (command.reflect !== undefined) out(t('learn.class.reflectNotWritten', lang));
        return 0;
      }
    }
  
    out(`${t('learn.running', lang)}: ${lab.runs.map((r) => `${r.name} (${r.client}, ${r.server})`).join(' · ')}`);
    // A progress line on a terminal: the lab's runs take a few seconds.
    const progress = process.stderr.isTTY ? (n: number, count: number) => process.stderr.write(`\r${t('learn.progress', lang, { n, count })} `) : undefined;
    // Ctrl+C while the runner works is a signal, not a prompt's ExitPromptError: say what was kept all the same.
    const onInterrupt = () => {
      process.stderr.write(`\n${interrupted()}\n`);
      process.exit(130);
    };
    process.on('SIGINT', onInterrupt);
    let perSeed: LabResults[];
    try {
      ({ perSeed } = await runLabSeeds(lab, { seed: command.run.settings.seed, seeds: command.run.seeds, calls: command.run.settings.calls, knobs: command.run.settings.knobs }, progress));
    } finally {
      process.off('SIGINT', onInterrupt);
    }
    if (progress) process.stderr.write('\r\u001b[K');
    const results = perSeed[0]!;
    // The published schema is the same in every run of a lab: its diff is shown once.
    Object.entries(results).forEach(([runName, report], i) => {
      out();
      out(`━━ ${runName} ━━`);
      out(renderTerminal(report, lang, { hideSchemaDiff: i > 0 }));
    });
    const rows = compare(lab, prediction, perSeed);
    out(renderComparison(lab, rows, lang, { predicted: prediction !== undefined }));
    out();
    if (journal) {
      const seeds = seedsFrom(command.run.settings.seed, perSeed.length);
      const settings = { seed: command.run.settings.seed, seeds, calls: command.run.settings.calls, temperature: command.run.settings.knobs.temperature, runs: lab.runs };
      // measured: the mean (or the commonest label) over the seeds; measuredRange: the least and most.
      const measured = Object.fromEntries(rows.map((r) => [r.question, r.measured]));
      const measuredRange = Object.fromEntries(rows.filter((r) => r.range).map((r) => [r.question, r.range]));
      journal.append({ kind: 'run', lab: lab.id, data: { settings, lang, comparison: rows, measured, measuredRange, figures: keyFigures(results) } });
      keep('run');
      await sendWaiting(root, name, lang);
      // --reflect gives it without asking (scripts, a class of simulated learners); Ctrl+C at the prompt leaves the prediction and the run written: say so, not "nothing".
      const text = command.reflect ?? (prediction && canAsk ? (await input({ message: `${t('learn.assumedWrong', lang)} ${t('learn.skip', lang)}`, validate: (typed) => tooLong(typed, lang) ?? true }).catch((error: unknown) => {
        throw error instanceof Error && error.name === 'ExitPromptError' ? new Interrupted(interrupted()) : error;
      })).trim() : '');
      if (text) {
        journal.append({ kind: 'reflection', lab: lab.id, data: { text, lang } });
        await sendWaiting(root, name, lang);
      }
      out(`${t('learn.savedNotes', lang)} ${notes}`);
    }
    if (command.htmlFile) {
      writeReportPage(command.htmlFile, { lab, results, perSeed, predictions: prediction ? [{ learner: name, answers: prediction.answers, reasoning: prediction.reasoning }] : [], lang, sheet: labSheetQuote(lab.id, lang) });
      out(wroteLine(command.htmlFile, lang));
    }
    out();
    out(`${t('learn.next', lang)}:`);
    out(`  ${t('learn.nextRead', lang)}: npm run lab -- --variant ${lab.id} --read${lang === 'es' ? ' --lang es' : ''}`);
    out(`  ${t('learn.nextWorkspace', lang)}: npm run lab -- --variant ${lab.id} --workspace`);
    out(`  ${t('learn.nextCheck', lang)}: npm run check -- ${lab.id}`);
    return 0;
  });
}

/** A name as one word of a shell command: quoted when it holds a space. */
const shellWord = (name: string) => (/\s/.test(name) ? `"${name}"` : name);

// ---------------------------------------------------------------------------
// Workspace, reset, check
// ---------------------------------------------------------------------------

export async function makeWorkspace(lab: Lab, command: Command, root = REPO): Promise<number> {
  const name = await resolveLearner(command, root);
  sayWhoOnce(name, command, root);
  return asLearner(name, root, async () => {
    try {
      createWorkspace(name, lab.id, root);
    } catch (error) {
      if (error instanceof WorkspaceExistsError) throw new FlowError(t('learn.workspaceExists', command.lang, { dir: relative(root, workspaceDir(name, lab.id, root)), lab: lab.id }));
      throw error;
    }
    out(t('learn.workspaceReady', command.lang));
    for (const file of filesToEdit(name, lab.id, root)) out(`  ${file}`);
    out(`${t('learn.workspaceThen', command.lang)} npm run check -- ${lab.id}`);
    return 0;
  });
}

export async function reset(lab: Lab, command: Command, root = REPO): Promise<number> {
  const name = await resolveLearner(command, root);
  sayWho(name, command.lang, root);
  return asLearner(name, root, async () => {
    if (!command.yes) {
      if (!interactive()) throw new FlowError(t('learn.resetNoTty', command.lang));
      if (!(await confirm({ message: t('learn.resetAsk', command.lang, { lab: lab.id }), default: false }))) {
        out(t('learn.cancelled', command.lang));
        return 0;
      }
    }
    const { dir, keptAt } = resetWorkspace(name, lab.id, root);
    journalOf(name, root).append({ kind: 'reset', lab: lab.id, data: { note: keptAt ? t('learn.journal.resetKept', command.lang, { dir: relative(root, keptAt) }) : t('learn.journal.resetFresh', command.lang), lang: command.lang } });
    out(`${t('learn.resetDone', command.lang)} ${relative(root, dir)}`);
    if (keptAt) out(`${t('learn.resetKept', command.lang)} ${relative(root, keptAt)}`);
    return 0;
  });
}

/** What the check says when the break put back on the workspace is not refused by the compiler. */
const COMPILER_VERDICT = { blind: 'learn.checkCompilerBlind', present: 'learn.checkCompilerPresent', unapplied: 'learn.checkCompilerUnapplied' } as const satisfies Record<Exclude<NonNullable<CompilerCatches>, 'caught'>, MessageId>;

export function renderVerdict(lab: Lab, verdict: CheckVerdict, lang: Lang): string {
  const lines = [t('learn.checkTitle', lang), ''];
  if ('buildError' in verdict) {
    lines.push(t('learn.checkBuild', lang), verdict.buildError);
    return lines.join('\n');
  }
  if ('typeErrors' in verdict) {
    lines.push(`✗ ${t('learn.checkTypes', lang)}`, verdict.typeErrors);
    return lines.join('\n');
  }
  lines.push(`✓ ${t('learn.checkTypesOk', lang)}`);
  if (verdict.compilerCatchesBreak === 'caught') lines.push(`✓ ${t('learn.checkCompilerCaught', lang)}`);
  else if (verdict.compilerCatchesBreak) lines.push(`✗ ${t(COMPILER_VERDICT[verdict.compilerCatchesBreak], lang, { lab: lab.id })}`);
  if (verdict.violations.length === 0) lines.push(`✓ ${t('learn.checkContractOk', lang)}`);
  else {
    lines.push(`✗ ${t('learn.checkContractBad', lang)}`);
    // The message in the learner's language (the English one is what npm run lint and the tests read).
    for (const v of verdict.violations) lines.push(`    ${v.rule}  ${v.tool} ${v.path || t('learn.checkWholeTool', lang)}`, `      ${t(v.said.id, lang, v.said.values)}`);
  }
  // Each figure as "label: workspace (reference solution: value)".
  const said = (f: FigureDef, r: RunComparison) => `${f.label[lang]}: ${f.format(f.read(r.workspace), r.workspace, lang)} (${t('learn.checkReference', lang)}: ${f.format(f.read(r.reference), r.reference, lang)})`;
  for (const r of verdict.runs) {
    const label = `${r.run.name} (${r.run.client}, ${r.run.server})`;
    if (r.worse.length === 0 && r.better.length > 0) {
      lines.push(`✓ ${label}: ${t('learn.checkRunBetter', lang)}`);
      for (const b of r.better) lines.push(`      ${said(b, r)}`);
    } else if (r.worse.length === 0) lines.push(`✓ ${label}: ${t('learn.checkRunOk', lang)}`);
    else {
      lines.push(`✗ ${label}: ${t('learn.checkRunBad', lang)}`);
      for (const w of r.worse) lines.push(`      ${said(w, r)}`);
    }
  }
  return lines.join('\n');
}

export async function runCheck(lab: Lab, command: Pick<Command, 'learner' | 'lang' | 'whoSaid'>, root = REPO): Promise<number> {
  const name = await resolveLearner(command, root);
  sayWhoOnce(name, command, root);
  // The check is a learner's command too: what waits for the class goes first.
  await sendWaiting(root, name, command.lang);
  return asLearner(name, root, async () => {
    const dir = workspaceDir(name, lab.id, root);
    if (!existsSync(dir)) {
      // The learner may be the wrong one (a copy shared by two, a --learner once): name whose workspaces there are.
      const others = listLearners(root).filter((other) => other !== name && existsSync(workspaceDir(other, lab.id, root)));
      const hint = others.length > 0 ? `${t('learn.workspacesOf', command.lang, { lab: lab.id, learners: others.join(', ') })} npm run check -- ${lab.id} --learner ${shellWord(others[0]!)}` : undefined;
      throw new FlowError(`${t('learn.noWorkspace', command.lang, { name, lab: lab.id, dir: forUser(dir) })} npm run lab -- --variant ${lab.id} --workspace`, 2, hint);
    }
    const verdict = await checkWorkspace(lab, dir);
    out(renderVerdict(lab, verdict, command.lang));
    out();
    if (!verdict.fixed) {
      out(`${t('learn.checkNotFixed', command.lang)} npm run lab -- --variant ${lab.id} --hint 1`);
      return 1;
    }
    journalOf(name, root).append({
      kind: 'fixed',
      lab: lab.id,
      data: { note: t('learn.journal.fixed', command.lang), lang: command.lang, figures: 'runs' in verdict ? Object.fromEntries(verdict.runs.map((r) => [r.run.name, { ok: r.workspace.finalOutcomes.ok ?? 0, accuracy: `${r.workspace.accuracy.correct}/${r.workspace.accuracy.total}`, silentWrong: r.workspace.silentWrong }])) : {} },
    });
    out(t('learn.checkFixed', command.lang));
    out(readFileSync(solutionPatch(lab.id), 'utf8'));
    return 0;
  });
}
