/**
 * The order test files start in. vitest runs the files that took longest
 * last time first, but on a clean clone (CI) it has no times and starts the
 * largest files first: then a file that runs one long test (the live class
 * of 30 learners: some 110 s) or waits on processes one after another (the
 * learner's path in a terminal) can start late and run on alone at the end,
 * the other workers idle. These start first, in this order: the longest
 * first, as measured on the 2-core build machine (2026-12-03, npx vitest
 * run: class-live 135 s, solutions-hold 105 s, then 74 s down to 20 s;
 * the install test, 113 s then, takes some 14 s since 2026-12-05 and
 * starts among the middle ones; author, new on 2026-12-06, 75 to 95 s of
 * one test after another on a loaded machine); the rest keep vitest's order and fill in
 * behind them.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const FIRST = ['class-live', 'solutions-hold', 'author', 'learner-path', 'lab', 'sweep-cache', 'lint-fix', 'npm-words', 'lint-mutations', 'lint-cli', 'sheet-read', 'fuzz', 'lint-pack', 'whose-work', 'class-join', 'check', 'honesty', 'chat', 'install', 'sweep', 'handout', 'html-report', 'class-serve-restart', 'class-join-flow', 'server-pool', 'progress'];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = FIRST.findIndex((name) => file.moduleId.replaceAll('\\', '/').endsWith(`/test/${name}.test.ts`));
      return at === -1 ? FIRST.length : at;
    };
    // Array.prototype.sort is stable: files of the same rank keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
