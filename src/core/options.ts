/**
 * A command's options, written once: the table drives both the parsing
 * (node:util parseArgs, strict) and the lines --help prints, so the two cannot
 * drift apart. Every command of the kit (lab, check, report, sheets, class)
 * declares its options this way.
 */
import { parseArgs } from 'node:util';

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
  { positionals: allowPositionals = false } = {},
): { values: ValuesOf<T>; positionals: string[] } {
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
