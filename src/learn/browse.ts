/**
 * What a learner reads and picks from: the catalogue with each lab's state
 * and what to do next (a menu in a terminal), the sheet in its two halves,
 * and the hints. The lab's own path (predict, run, compare, the workspace) is
 * src/learn/flow.ts; this module only calls into it.
 */
import type { Command } from './command.js';
import { select } from './prompts.js';
import { REPO } from '../lab/paths.js';
import { loadCatalogue, type Lab, type Lang } from './catalogue.js';
import { t, type MessageId } from '../core/messages/index.js';
import { learnerDir } from './learner.js';
import { hints, readSheet, renderForTerminal, splitSheet } from './sheets.js';
import { forUser } from '../core/cwd.js';
import { showLong } from '../core/pager.js';
import { FlowError, interactive, journalOf, knownLearner, labState, makeWorkspace, runCheck, runLabPath, sayWho, type LabState } from './flow.js';

const out = (text = '') => process.stdout.write(`${text}\n`);

const STATE_TEXT: Record<LabState, MessageId> = {
  'not started': 'learn.stateNotStarted',
  predicted: 'learn.statePredicted',
  run: 'learn.stateRun',
  fixed: 'learn.stateFixed',
};

function nextCommand(lab: Lab, state: LabState): string {
  switch (state) {
    case 'not started':
    case 'predicted':
      return `npm run lab -- --variant ${lab.id}`;
    case 'run':
      return `npm run lab -- --variant ${lab.id} --workspace   ·   npm run check -- ${lab.id}`;
    case 'fixed':
      return `npm run lab -- --variant ${lab.id} --read`;
  }
}

// ---------------------------------------------------------------------------
// The catalogue
// ---------------------------------------------------------------------------

export async function showCatalogue(command: Command, root = REPO): Promise<number> {
  const labs = loadCatalogue();
  const name = knownLearner(command, root);
  const entries = name ? journalOf(name, root).read() : [];
  const states = labs.map((lab) => labState(entries, lab.id));
  sayWho(name, command.lang, root);
  out(t('learn.catalogueTitle', command.lang));
  out('');
  // Numbers right-aligned, so that the ids stay in one column past the ninth lab.
  const digits = String(labs.length).length;
  labs.forEach((lab, i) => out(`  ${String(i + 1).padStart(digits)}. ${lab.id.padEnd(22)} ${t(STATE_TEXT[states[i]!], command.lang).padEnd(12)} ${lab.title[command.lang]}`));
  out('');
  const next = labs.findIndex((_, i) => states[i] !== 'fixed');
  if (next === -1) {
    out(t('learn.allDone', command.lang));
    return 0;
  }
  out(`${t('learn.whatNext', command.lang)} ${nextCommand(labs[next]!, states[next]!)}`);
  if (!name) out(`(--learner <name>: ${t('learn.needLearner', command.lang)})`);
  if (!interactive()) return 0;

  // A menu where a person can use one.
  const chosen = await select({
    message: t('learn.chooseLab', command.lang),
    default: labs[next]!.id,
    choices: [...labs.map((lab, i) => ({ name: `${lab.id} (${t(STATE_TEXT[states[i]!], command.lang)})`, value: lab.id })), { name: t('learn.actionQuit', command.lang), value: '' }],
  });
  const lab = labs.find((l) => l.id === chosen);
  if (!lab) return 0;
  const action = await select({
    message: t('learn.chooseAction', command.lang),
    choices: [
      { name: t('learn.actionRead', command.lang), value: 'read' },
      { name: t('learn.actionRun', command.lang), value: 'run' },
      { name: t('learn.actionWorkspace', command.lang), value: 'workspace' },
      { name: t('learn.actionCheck', command.lang), value: 'check' },
      { name: t('learn.actionHint', command.lang), value: 'hint' },
      { name: t('learn.actionQuit', command.lang), value: 'quit' },
    ],
  });
  const labCommand: Command = { ...command, variant: lab.id, lab, whoSaid: { name } };
  switch (action) {
    case 'read':
      return showSheet(lab, labCommand, root);
    case 'run':
      return runLabPath(lab, labCommand);
    case 'workspace':
      return makeWorkspace(lab, labCommand);
    case 'check':
      return runCheck(lab, labCommand);
    case 'hint': {
      // The cascade goes gentle to nearly-the-answer: the learner picks how far to go.
      const all = hints(readSheet(lab.id, command.lang));
      const n = await select({ message: t('learn.chooseHint', command.lang), choices: all.map((h, i) => ({ name: h.title, value: i + 1 })) });
      return showHint(lab, n, command.lang, name);
    }
    default:
      return 0;
  }
}

// ---------------------------------------------------------------------------
// The sheet and its hints
// ---------------------------------------------------------------------------

/**
 * The sheet, in two halves: before the learner (--learner, else the
 * remembered one) has a run of the lab in their notes, only the part before
 * the stop mark and one line on how to see the rest; after it, or with
 * --all (which says it spoils), the whole sheet. Through the pager on a
 * terminal (src/core/pager.ts).
 */
export async function showSheet(lab: Lab, command: Pick<Command, 'learner' | 'lang' | 'all'>, root = REPO): Promise<number> {
  const { lang } = command;
  const name = knownLearner(command, root);
  const state = name ? labState(journalOf(name, root).read(), lab.id) : 'not started';
  const ran = state === 'run' || state === 'fixed';
  const sheet = readSheet(lab.id, lang, root);
  const langFlag = lang === 'en' ? '' : ` --lang ${lang}`;
  let text: string;
  if (ran) text = await renderForTerminal(sheet, lab.id, lang);
  else if (command.all) text = `${t('learn.sheetSpoils', lang)}\n\n${await renderForTerminal(sheet, lab.id, lang)}`;
  else {
    const rest = t('learn.sheetRest', lang, { run: `npm run lab -- --variant ${lab.id}${langFlag}`, all: `npm run lab -- --variant ${lab.id} --read --all${langFlag}` });
    text = `${(await renderForTerminal(splitSheet(sheet).before, lab.id, lang)).trimEnd()}\n\n${rest}`;
  }
  await showLong(`${text}\n`);
  return 0;
}

/** The sheets write a learner's folder as learners/<name>/ (learners/<nombre>/ in Spanish). */
const LEARNER_PLACEHOLDER = /learners\/<(?:name|nombre)>\//g;

/** A hint, with the learner's own folder where the sheet has the placeholder (when the kit knows the learner). */
export async function showHint(lab: Lab, n: number, lang: Lang, learner?: string, root = REPO): Promise<number> {
  const all = hints(readSheet(lab.id, lang));
  const hint = all[n - 1];
  if (!hint) throw new FlowError(t('learn.noSuchHint', lang, { count: all.length }));
  const text = learner ? hint.text.replace(LEARNER_PLACEHOLDER, () => `${forUser(learnerDir(root, learner))}/`) : hint.text;
  out(await renderForTerminal(`**${hint.title}**\n\n${text}\n`, lab.id, lang));
  if (n < all.length) out(`${t('learn.nextHint', lang)} npm run lab -- --variant ${lab.id} --hint ${n + 1}${lang === 'en' ? '' : ` --lang ${lang}`}`);
  return 0;
}

