/**
 * `npm run bench` is a command like the others: --help says what it measures
 * and measures nothing, and a flag it does not know is one line and exit 2
 * (src/core/user-error.ts), not four minutes of measuring.
 */
import { describe, expect, it } from 'vitest';
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
});
