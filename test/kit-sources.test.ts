/**
 * A learner who fixed the kit's own src/ in place of the workspace (issue
 * 23, point 7): the break no longer applies, and the command says which of
 * the kit's files changed and how to put them back (in a clone, where git
 * can tell), or where edits belong (in a copy without .git).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshCopy } from './helpers/copy.js';
import { launched, SHORT_RUN } from './helpers/lab.js';

const FILE = 'src/minimcp/tools/conjugate.ts';

/** The edit a learner makes to the wrong copy: the line breaks/broken-schema.patch changes, "fixed" in the kit's own src/. */
function editKitSource(dir: string): void {
  const file = join(dir, FILE);
  const text = readFileSync(file, 'utf8');
  const edited = text.replace("  person: z.enum(PERSONS).describe('The grammatical person and number.'),\n});", "  person: z.enum(PERSONS).describe('The grammatical person and number.'),\n}); // checked by hand");
  expect(edited).not.toBe(text);
  writeFileSync(file, edited);
}

const lab = (dir: string) => launched('scripts/lab.ts', ['--variant', 'broken-schema', '--no-predict', '--learner', 'Ana', ...SHORT_RUN], dir, { LANG: 'en_GB.UTF-8', INIT_CWD: dir });

describe('a changed src/', () => {
  it('in a clone: names the changed file and how to restore it, and the command it gives works', () => {
    const dir = freshCopy();
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    writeFileSync(join(dir, '.gitignore'), 'node_modules\n.cache/\nlearners/\n');
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'the kit');
    editKitSource(dir);

    const broken = lab(dir);
    expect(broken.status).toBe(1);
    const [line, hint] = broken.stderr.split('\n');
    expect(line).toBe(`lab: breaks/broken-schema.patch does not apply to the kit's src/: you changed ${FILE}. The labs build every server from the kit's own src/; your edits belong in your workspace (npm run lab -- --variant <lab> --workspace).`);
    expect(hint).toBe(`To put the kit's files back: git checkout -- ${FILE}   (or keep your edits aside first: git stash push -- ${FILE})`);

    // The command it gives, as given.
    const restore = /git checkout -- (\S+)/.exec(hint!)![1]!;
    git('checkout', '--', restore);
    const fixed = lab(dir);
    expect(fixed.status, fixed.stderr).toBe(0);
  }, 120_000);

  it('in a copy without .git: the patch that does not apply, and where edits belong', () => {
    const dir = freshCopy();
    editKitSource(dir);
    const broken = lab(dir);
    expect(broken.status).toBe(1);
    const [line, hint] = broken.stderr.split('\n');
    expect(line).toMatch(/^lab: breaks\/broken-schema\.patch does not apply to the baseline: /);
    expect(hint).toMatch(/^Did you edit the kit's own src\/\? .*your workspace/);
  }, 120_000);
});
