/**
 * A command's options, written once: the table drives both the parsing
 * (node:util parseArgs, strict) and the lines --help prints, so the two cannot
 * drift apart. Every command of the kit (lab, check, report, sheets, class)
 * declares its options this way.
 */
import { parseArgs } from 'node:util';
import { detectLang } from './lang.js';
import { t } from './messages/index.js';

export interface Option {
  /** The flag without its dashes: 'calls' is --calls. */
  readonly name: string;
  readonly kind: 'string' | 'boolean';
  /** A one-letter alias: 'o' is -o. */
  readonly short?: string;
  /** What --help calls the value: 'N', 'FILE', 'en|es'. */
  readonly value?: string;
  /** What --help says of it, a line or several. */
  readonly help: string | readonly string[];
  /** Parsed but not listed: an option that is gone and answers with what replaced it. */
  readonly hidden?: boolean;
}

/** The values a table's options parse to: a string for a string option, a boolean for a flag, undefined when absent. */
export type ValuesOf<T extends readonly Option[]> = { [O in T[number] as O['name']]?: O['kind'] extends 'boolean' ? boolean : string };

/** The option every command has. */
export const HELP_OPTION = { name: 'help', kind: 'boolean', short: 'h', help: 'this text' } as const satisfies Option;

/**
 * Parses `argv` against the table. A bad command line throws what `fail`
 * makes of one line saying what is wrong (each command has its own user
 * error, with its own hint).
 */
export function parseOptions<const T extends readonly Option[]>(
  table: T,
  argv: string[],
  fail: (message: string) => Error,
  { positionals: allowPositionals = false, env = process.env }: { positionals?: boolean; env?: NodeJS.ProcessEnv } = {},
): { values: ValuesOf<T>; positionals: string[] } {
  const eaten = eatenByNpm(table, env);
  if (eaten.length > 0) {
    /*
     * The command again, with `--` in its place. npm keeps no trace of where
     * an option stood: a string option whose value npm left to the script
     * (--variant x: npm_config_variant=true, and x) takes the first word it
     * left when that is the only way to read it (as many such options as
     * words); else the command is shown with "…" for the learner to fill in.
     */
    const lost = eaten.filter((word, i) => word.startsWith('--') && table.find((o) => `--${o.name}` === word)?.kind === 'string' && (eaten[i + 1] === undefined || eaten[i + 1]!.startsWith('--')));
    const sure = lost.length === 0 || lost.length === argv.length;
    const left = [...argv];
    const words = eaten.flatMap((word) => (lost.includes(word) ? [shellWord(word), sure ? shellWord(left.shift()!) : '…'] : [shellWord(word)]));
    const command = `npm run ${env.npm_lifecycle_event} -- ${[...words, ...(sure ? left.map(shellWord) : [])].join(' ')}`;
    throw fail(t('common.npmTookOption', detectLang(env), { options: eaten.filter((word) => word.startsWith('--')).join(', '), command }));
  }
  const options = Object.fromEntries(table.map((o) => [o.name, { type: o.kind, ...(o.short ? { short: o.short } : {}) }]));
  try {
    const { values, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals });
    return { values: values as ValuesOf<T>, positionals };
  } catch (error) {
    const message = (error as Error).message;
    // parseArgs reads "--calls -5" as a flag missing its value: say what the value must be.
    const ambiguous = /Option '--(\w[\w-]*)[^']*' argument is ambiguous/.exec(message);
    if (ambiguous) {
      const at = argv.indexOf(`--${ambiguous[1]}`);
      const next = argv[at + 1];
      throw fail(`--${ambiguous[1]} takes a value, not ${next ?? 'nothing'}${/^-\d/.test(next ?? '') ? ' (a negative number is not allowed here)' : ''}`);
    }
    // With positionals allowed, parseArgs adds how to pass one that starts with '-': not what went wrong here.
    throw fail(message.split('\n')[0]!.replace(/\. To specify a positional argument.*$/, ''));
  }
}

/** The table as --help prints it: one option a line, the explanations in one column. */
export function optionsHelp(table: readonly Option[], { indent = 2, width }: { indent?: number; width?: number } = {}): string {
  const left = (o: Option) => `${o.short ? `-${o.short}, ` : ''}--${o.name}${o.value ? ` ${o.value}` : ''}`;
  const shown = table.filter((o) => !o.hidden);
  const column = width ?? helpWidth(shown);
  return shown
    .flatMap((o) => {
      const [first = '', ...rest] = typeof o.help === 'string' ? [o.help] : o.help;
      return [`${' '.repeat(indent)}${left(o).padEnd(column)}${first}`, ...rest.map((line) => `${' '.repeat(indent + column)}${line}`)];
    })
    .join('\n');
}

/** The width of the option column that fits every table given (so that two groups of one --help line up). */
export function helpWidth(...tables: (readonly Option[])[]): number {
  return Math.max(...tables.flat().filter((o) => !o.hidden).map((o) => `${o.short ? `-${o.short}, ` : ''}--${o.name}${o.value ? ` ${o.value}` : ''}`.length)) + 3;
}

/*
 * A forgotten `--`: `npm run lab --variant broken-schema` hands --variant to
 * npm, which keeps an option it does not know as its own config, passes the
 * script only `broken-schema`, and tells the script in the environment:
 * npm_config_variant=true (https://docs.npmjs.com/cli/v11/using-npm/config,
 * "Command Line Flags" and "Environment Variables"; docs/sources.md, "npm
 * around the kit's commands"). A value written with `=` is kept there whole
 * (--variant=x: npm_config_variant=x); --no-x is x="".
 *
 * Only an option npm itself does not define says anything: npm puts some of
 * its own in every script's environment (npm_config_yes, ...), and a user's
 * .npmrc or CI may set others; the names below are those of the kit's option
 * tables that `npm config ls -l` (npm 11) lists as npm's own.
 */
const NPM_OWN = new Set(['all', 'json', 'read-only', 'save', 'workspace', 'yes']);

/** The kit's flags npm takes as an abbreviation of one of its own (nopt expands a unique prefix): --read is npm's --read-only. */
const NPM_ABBREVIATES: Record<string, string> = { read: 'read-only' };

/** The words of the command line npm took for itself before the script started, as the user typed them; none outside `npm run`. */
export function eatenByNpm(table: readonly Option[], env: NodeJS.ProcessEnv = process.env): string[] {
  if (!env.npm_lifecycle_event) return [];
  const names = new Set(table.map((o) => o.name));
  const words: string[] = [];
  for (const option of table) {
    const variable = (name: string) => env[`npm_config_${name.replace(/-/g, '_')}`];
    const npmOwn = NPM_ABBREVIATES[option.name];
    if (npmOwn !== undefined) {
      if (variable(npmOwn) === 'true') words.push(`--${option.name}`);
      continue;
    }
    if (NPM_OWN.has(option.name)) continue;
    const value = variable(option.name);
    if (value === undefined) continue;
    if (value === '' && names.has(`no-${option.name}`)) words.push(`--no-${option.name}`);
    else if (value === 'true') words.push(`--${option.name}`);
    else if (value !== '') words.push(`--${option.name}`, value);
  }
  return words;
}

/** A word of a shell command: quoted when it holds a space or a quote. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
