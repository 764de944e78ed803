/**
 * The order test files start in. vitest runs the files that took longest
 * last time first, but on a clean clone (CI) it has no times and starts the
 * largest files first: then a short file that waits on processes one after
 * another (the learner's path in a terminal, `npm run check` on every lab)
 * can start late and run on alone at the end. These start first, in this
 * order, the longest measured on a clean clone first (install, server-pool
 * and progress mostly wait: on npm and the disk, on a timeout, on a long
 * run); the rest keep vitest's order.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const FIRST = ['install', 'learner-path', 'lab', 'check', 'fuzz', 'chat', 'html-report', 'lint-cli', 'lint-fix', 'honesty', 'sweep', 'solutions-hold', 'sweep-cache', 'whose-work', 'class-join', 'class-join-flow', 'server-pool', 'progress'];

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
