/**
 * `npm run bench` is a command like the others: --help says what it measures
 * and measures nothing, and a flag it does not know is one line and exit 2
 * (src/core/user-error.ts), not four minutes of measuring.
 */
import { describe, expect, it } from 'vitest';
import { commandFailed } from '../scripts/bench/commands.js';
import { UserError } from '../src/core/user-error.js';
import { launched } from './helpers/lab.js';

describe('npm run bench', () => {
  it('--help prints its usage and options, and measures nothing', () => {
    const result = launched('scripts/bench.ts', ['--help']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Usage: npm run bench -- \[options\]/);
    expect(result.stdout).toMatch(/^ +--no-suite +leave out the test suite/m);
    // The first measurement's heading: never printed for --help.
    expect(result.stdout).not.toMatch(/Cold start/);
    expect(result.stderr).toBe('');
  });

  it('an unknown flag is one line naming it, with where the options are, and exit 2', () => {
    const result = launched('scripts/bench.ts', ['--suite-only']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe("bench: Unknown option '--suite-only'\n(npm run bench -- --help for the options)\n");
  });

  it('a command it times that fails is one line with its last words, exit 1, and a user error (no stack trace)', () => {
    const error = commandFailed('npx vitest run', 1, ' RUN  v4\n\n 1435 passed, 4 failed, 16 skipped \n\n');
    expect(error.message).toBe('npx vitest run exited with 1, so its time is no measure: 1435 passed, 4 failed, 16 skipped');
    // A UserError: runCommand prints it as one line, where any other error keeps its stack trace.
    expect(error).toBeInstanceOf(UserError);
    expect(error.exitCode).toBe(1);
    expect(commandFailed('npm run lab', null, '').message).toBe('npm run lab exited with a signal, so its time is no measure: (nothing)');
  });
});
