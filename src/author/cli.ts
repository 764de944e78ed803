/**
 * `npm run author -- <command> <id> [options]`, for an instructor making a
 * lab of an incident (docs/authoring.md): new, break, fix, questions, check.
 * Every bad command line is one line and exit 2; `check` exits 1 when a
 * step fails, 0 when every one passes.
 */
import { HELP_OPTION, optionsHelp, parseOptions } from '../core/options.js';
import { detectLang, isLang, type Lang } from '../core/lang.js';
import { t } from '../core/messages/index.js';
import { UsageError } from '../core/user-error.js';
import { checkLab, type VerdictsWorse } from './check.js';
import { candidateLine, parseRuns, questions } from './questions.js';
import { startLab, writeBreak, writeFix } from './workspace.js';

const OPTIONS = [
  { name: 'base', kind: 'string', value: 'LAB', help: 'new: the break builds on this lab\'s break (its server is the baseline)' },
  { name: 'title', kind: 'string', value: 'TEXT', help: 'new: the lab\'s title in English (default: the id)' },
  { name: 'title-es', kind: 'string', value: 'TEXT', help: 'new: the lab\'s title in Spanish (default: the English one)' },
  { name: 'runs', kind: 'string', value: 'LIST', help: ['questions: the lab\'s runs, NAME=SERVER/CLIENT[/WORKLOAD][/read-only] comma-separated', '(e.g. openai=mcpserver-1.32/openai-functions-2026-11,faithful=mcpserver-1.32/faithful)'] },
  { name: 'seeds', kind: 'string', value: 'N', help: 'questions: the seeds the lab runs (1 to 20; default: the catalogue\'s, 5)' },
  { name: 'pick', kind: 'string', value: 'PATH,...', help: 'questions: write a question on each figure (a path the listing gives)' },
  { name: 'id', kind: 'string', value: 'ID,...', help: 'questions: the picked questions\' ids, in order (default: from the path)' },
  { name: 'prompt', kind: 'string', value: 'TEXT', help: 'questions: the question in English (one pick)' },
  { name: 'prompt-es', kind: 'string', value: 'TEXT', help: 'questions: the question in Spanish (one pick)' },
  { name: 'unit', kind: 'string', value: 'UNIT', help: 'questions: the picked figures\' unit (calls, points, %)' },
  { name: 'unchanged', kind: 'boolean', help: 'questions: the picked figures are meant not to move (nothing visible changes, or the contrast host)' },
  { name: 'lang', kind: 'string', value: 'en|es', help: 'language of the messages (default: the locale)' },
  HELP_OPTION,
] as const;

const COMMANDS = ['new', 'break', 'fix', 'questions', 'check'] as const;
type Command = (typeof COMMANDS)[number];

/** Which options each command takes: any other is a bad command line. */
const TAKES: Record<Command, string[]> = {
  new: ['base', 'title', 'title-es'],
  break: [],
  fix: [],
  questions: ['runs', 'seeds', 'pick', 'id', 'prompt', 'prompt-es', 'unit', 'unchanged'],
  check: [],
};

const USAGE = `Usage: npm run author -- <command> <id> [options]

Makes a lab of an incident (docs/authoring.md walks through one):
  new ID         a workspace in authoring/ID/ holding the baseline's server, to make the break in;
                 skeleton sheets labs/ID/README.md and README.es.md; the lab at the end of labs/catalogue.json
  break ID       breaks/ID.patch: the workspace against the baseline (make the break first)
  fix ID         solutions/ID.patch: the workspace against the break (then make the fix)
  questions ID   runs the lab (baseline and variant over its seeds) and lists the figures that move;
                 --pick writes questions on them into the catalogue
  check ID       what the kit proves for its own labs, one line per failure (exit 1 until all pass)

${optionsHelp(OPTIONS)}`;

export async function main(argv: string[], verdictsWorse?: VerdictsWorse): Promise<number> {
  const langGiven = argv.includes('--lang') ? argv[argv.indexOf('--lang') + 1] : undefined;
  const early: Lang = langGiven && isLang(langGiven) ? langGiven : detectLang();
  const fail = (message: string) => new UsageError(`${message} (${t('author.seeHelp', early)})`);
  const { values, positionals } = parseOptions(OPTIONS, argv, fail, { positionals: true });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.lang !== undefined && !isLang(values.lang)) throw fail(t('author.badLang', early, { lang: values.lang }));
  const lang: Lang = (values.lang as Lang | undefined) ?? detectLang();
  const [command, id, ...extra] = positionals;
  if (command === undefined) throw fail(t('author.noCommand', lang, { commands: COMMANDS.join(', ') }));
  if (!(COMMANDS as readonly string[]).includes(command)) throw fail(t('author.unknownCommand', lang, { command, commands: COMMANDS.join(', ') }));
  if (id === undefined) throw fail(t('author.noId', lang, { command }));
  if (extra.length > 0) throw fail(t('author.extraWords', lang, { words: extra.join(' ') }));
  const given = Object.keys(values).filter((name) => name !== 'lang' && (values as Record<string, unknown>)[name] !== undefined);
  const foreign = given.find((name) => !TAKES[command as Command].includes(name));
  if (foreign) throw fail(t('author.optionNotFor', lang, { option: `--${foreign}`, command }));

  switch (command as Command) {
    case 'new': {
      const title = { en: values.title ?? id, es: values['title-es'] ?? values.title ?? id };
      startLab({ id, ...(values.base ? { base: values.base } : {}), title }, lang);
      console.log(t('author.started', lang, { id, dir: `authoring/${id}/` }));
      return 0;
    }
    case 'break': {
      const { files } = writeBreak(id, lang);
      console.log(t('author.wroteBreak', lang, { id, files: files.join(', ') }));
      return 0;
    }
    case 'fix': {
      const { files } = writeFix(id, lang);
      console.log(t('author.wroteFix', lang, { id, files: files.join(', ') }));
      return 0;
    }
    case 'questions': {
      const seeds = values.seeds === undefined ? undefined : Number(values.seeds);
      if (seeds !== undefined && (!Number.isInteger(seeds) || seeds < 1 || seeds > 20)) throw fail(t('author.badSeeds', lang, { seeds: values.seeds! }));
      const pick = values.pick?.split(',').map((p) => p.trim()).filter(Boolean);
      const ids = values.id?.split(',').map((p) => p.trim()).filter(Boolean);
      if ((values.prompt !== undefined || values['prompt-es'] !== undefined) && pick?.length !== 1) throw fail(t('author.promptOnePick', lang));
      const { candidates, written, seeds: ran } = await questions(
        id,
        {
          ...(values.runs !== undefined ? { runs: parseRuns(values.runs, lang) } : {}),
          ...(seeds !== undefined ? { seeds } : {}),
          ...(pick ? { pick } : {}),
          ...(ids ? { ids } : {}),
          prompt: { ...(values.prompt !== undefined ? { en: values.prompt } : {}), ...(values['prompt-es'] !== undefined ? { es: values['prompt-es'] } : {}) },
          ...(values.unit !== undefined ? { unit: values.unit } : {}),
          ...(values.unchanged ? { unchanged: true } : {}),
        },
        lang,
      );
      const moving = candidates.filter((c) => c.movement.moves);
      console.log(t('author.moving', lang, { count: moving.length, first: ran[0]!, last: ran.at(-1)! }));
      for (const c of moving) console.log(`  ${candidateLine(c, lang)}`);
      const still = candidates.length - moving.length;
      if (still > 0) console.log(t('author.notMoving', lang, { count: still }));
      for (const q of written) console.log(t('author.wroteQuestion', lang, { question: q.id, id }));
      return 0;
    }
    case 'check': {
      const steps = await checkLab(id, lang, verdictsWorse, (step) => {
        if (step.failures.length === 0) console.log(`✓ ${t(`author.step.${step.step}`, lang)}`);
        for (const failure of step.failures) console.log(`✗ ${failure}`);
      });
      const failed = steps.some((s) => s.failures.length > 0);
      console.log(failed ? t('author.checkFailed', lang, { id }) : t('author.checkPassed', lang, { id }));
      return failed ? 1 : 0;
    }
  }
}
