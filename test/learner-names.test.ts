/**
 * Learner names: which are refused (with a message naming the problem) and
 * which accepted, the learner's folder, and the remembered current learner.
 * (The journal itself is test/journal-files.test.ts and test/journal.test.ts.)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LearnerNameError,
  learnerDir,
  rememberLearner,
  rememberedLearner,
  validateLearnerName,
} from '../src/learn/learner.js';
import { fresh, removeFreshDirs } from './helpers/journal.js';

afterEach(removeFreshDirs);

// ------------------------------------------------------------------ learner names

describe('learner names', () => {
  const refused: [string, RegExp][] = [
    ['../x', /'\.\.'/],
    ['a/b', /'\/'/],
    ['a\\b', /'\\'/],
    ['a\u0000b', /NUL/],
    ['.hidden', /starts with '\.'/],
    ['..', /'\.\.'/],
    ['', /empty/],
    [' ', /empty/],
    ['a'.repeat(41), /41 characters long; the limit is 40/],
    ['ana\nbob', /control character U\+000A \(line break\)/],
    ['a\tb', /control character U\+0009 \(tab\)/],
    ['ana:b', /':'/],
    ['-ana', /must start with a letter or digit/],
    ['CON', /reserved device name/],
  ];
  it.each(refused)('refuses %j with a message naming the problem', (name, problem) => {
    expect(() => validateLearnerName(name)).toThrow(LearnerNameError);
    try {
      validateLearnerName(name);
    } catch (err) {
      expect((err as Error).message).toMatch(problem);
      // ...and says what is allowed.
      expect((err as Error).message).toMatch(/letters or digits/);
    }
    expect(() => learnerDir('/repo', name)).toThrow(LearnerNameError);
  });

  it.each([
    ['Ana', 'Ana'],
    ['José María', 'José María'],
    ['ana-2', 'ana-2'],
    ['Zoë_K.', 'Zoë_K.'],
    ['  Ana  ', 'Ana'],
    ['Jose\u0301', 'José'], // decomposed é becomes the composed one (NFC)
    ['a'.repeat(40), 'a'.repeat(40)],
  ])('accepts %j as %j', (raw, expected) => {
    expect(validateLearnerName(raw)).toBe(expected);
  });

  it('learnerDir is a direct child of <root>/learners', () => {
    const root = fresh();
    for (const name of ['Ana', 'José María', 'ana-2', 'Zoë_K.']) {
      const dir = learnerDir(root, name);
      expect(path.dirname(dir)).toBe(path.join(root, 'learners'));
      expect(path.basename(dir)).toBe(name.normalize('NFC'));
    }
    expect(() => learnerDir(root, '../../etc')).toThrow(LearnerNameError);
  });

  it('learnerDir refuses a learner folder that is a symlink out of learners/', () => {
    const root = fresh();
    const outside = fresh();
    fs.mkdirSync(path.join(root, 'learners'), { recursive: true });
    fs.symlinkSync(outside, path.join(root, 'learners', 'eve'), 'dir');
    expect(() => learnerDir(root, 'eve')).toThrow(/outside the learners folder/);
  });

  it('remembers the current learner (atomic file, round trip, invalid content ignored)', () => {
    const root = fresh();
    expect(rememberedLearner(root)).toBeUndefined();
    rememberLearner(root, 'José María');
    expect(rememberedLearner(root)).toBe('José María');
    rememberLearner(root, '  Zoë_K. ');
    expect(rememberedLearner(root)).toBe('Zoë_K.');
    expect(fs.readFileSync(path.join(root, 'learners', '.current'), 'utf8')).toBe('Zoë_K.\n');
    expect(fs.readdirSync(path.join(root, 'learners'))).toEqual(['.current']); // no temp files left
    expect(() => rememberLearner(root, '../x')).toThrow(LearnerNameError);
    expect(rememberedLearner(root)).toBe('Zoë_K.');
    fs.writeFileSync(path.join(root, 'learners', '.current'), '../../etc\n');
    expect(rememberedLearner(root)).toBeUndefined();
  });
});
