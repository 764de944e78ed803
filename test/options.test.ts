/**
 * One options table per command drives both its parsing and its --help
 * (src/core/options.ts): every option --help lists is one the command
 * accepts, and an option it does not list is refused.
 */
import { describe, expect, it } from 'vitest';
import { helpWidth, optionsHelp, parseOptions, type Option } from '../src/core/options.js';
import { parseCommand, USAGE as LAB_USAGE } from '../src/cli/lab.js';
import { parseSweepArgs, SWEEP_USAGE } from '../src/class/sweep.js';

const TABLE = [
  { name: 'calls', kind: 'string', value: 'N', help: 'how many' },
  { name: 'json', kind: 'boolean', help: ['one line', 'and a second'] },
  { name: 'output', kind: 'string', short: 'o', value: 'FILE', help: 'where' },
  { name: 'spec', kind: 'string', help: 'gone', hidden: true },
] as const satisfies readonly Option[];

const fail = (message: string) => new Error(message);

describe('parseOptions', () => {
  it('parses what the table declares, short names included, and leaves absent options undefined', () => {
    const { values } = parseOptions(TABLE, ['--calls', '5', '-o', 'x.html'], fail);
    expect(values).toEqual({ calls: '5', output: 'x.html' });
    expect(values.json).toBeUndefined();
  });

  it('a value that looks like a flag ("--calls -5") says what the value must be', () => {
    expect(() => parseOptions(TABLE, ['--calls', '-5'], fail)).toThrow('--calls takes a value, not -5 (a negative number is not allowed here)');
  });

  it('an unknown option is one line, without the advice about positionals', () => {
    expect(() => parseOptions(TABLE, ['--bogus'], fail, { positionals: true })).toThrow(/^Unknown option '--bogus'$/);
  });
});

describe('optionsHelp', () => {
  it('lists every option but the hidden ones, explanations in one column', () => {
    const lines = optionsHelp(TABLE).split('\n');
    expect(lines).toEqual([
      '  --calls N           how many',
      '  --json              one line',
      '                      and a second',
      '  -o, --output FILE   where',
    ]);
    expect(helpWidth(TABLE)).toBe('-o, --output FILE'.length + 3);
  });
});

/** The flags a --help text lists on its option lines ("  --calls N   ..."), with whether each takes a value. */
function listedFlags(usage: string): { flag: string; takesValue: boolean }[] {
  return [...usage.matchAll(/^ +(?:-\w, )?--([a-z][\w-]*)( [A-Z|a-z]+)?  /gm)].map((m) => ({ flag: m[1]!, takesValue: m[2] !== undefined }));
}

describe.each([
  { command: 'npm run lab', usage: LAB_USAGE, parse: (argv: string[]) => parseCommand(argv) },
  { command: 'npm run class -- sweep', usage: SWEEP_USAGE, parse: (argv: string[]) => parseSweepArgs(argv) },
])('$command --help and its parser', ({ usage, parse }) => {
  const flags = listedFlags(usage);

  it('lists options', () => {
    expect(flags.length).toBeGreaterThan(3);
  });

  it('accepts every option its --help lists (never "Unknown option")', () => {
    for (const { flag, takesValue } of flags) {
      let message = '';
      try {
        parse(takesValue ? [`--${flag}`, '1'] : [`--${flag}`]);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, `--${flag}`).not.toMatch(/Unknown option/);
    }
  });

  it('refuses an option its --help does not list', () => {
    expect(() => parse(['--not-an-option'])).toThrow(/Unknown option '--not-an-option'/);
  });
});
