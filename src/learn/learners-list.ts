/**
 * `npm run lab -- --learners`: the learners of this copy of the kit (the
 * folders of learners/), how many labs each has run and fixed, and which one
 * the commands act for now. A copy shared by two learners, or a `--learner`
 * typed once, changes whose notes the next command uses: this says whose
 * there are.
 */
import { join } from 'node:path';
import { REPO } from '../lab/paths.js';
import { forUser } from '../core/cwd.js';
import { t } from '../core/messages/index.js';
import { loadCatalogue } from './catalogue.js';
import type { Command } from './command.js';
import { journalOf, labState } from './flow.js';
import { listLearners, rememberedLearner } from './learner.js';

const out = (text = '') => process.stdout.write(`${text}\n`);

export async function showLearners(command: Pick<Command, 'lang'>, root = REPO): Promise<number> {
  const { lang } = command;
  const labs = loadCatalogue();
  const learners = listLearners(root);
  const current = rememberedLearner(root);
  if (learners.length === 0) {
    out(t('learn.noLearners', lang));
    return 0;
  }
  out(t('learn.learnersTitle', lang, { dir: `${forUser(join(root, 'learners'))}/`, count: labs.length }));
  const width = Math.max(...learners.map((n) => [...n].length));
  for (const name of learners) {
    const entries = journalOf(name, root).read();
    const run = labs.filter((lab) => entries.some((e) => e.lab === lab.id && e.kind === 'run')).length;
    const fixed = labs.filter((lab) => labState(entries, lab.id) === 'fixed').length;
    const line = `${name}${' '.repeat(width - [...name].length)}  ${t('learn.learnerProgress', lang, { run, fixed })}`;
    out(`${name === current ? '*' : ' '} ${line}${name === current ? `  ${t('learn.learnerCurrent', lang)}` : ''}`);
  }
  out();
  out(t('learn.learnersSwitch', lang));
  return 0;
}
