/**
 * A parsed `npm run lab` command line (src/cli/lab.ts parses it): what the
 * learner's path needs to know of it.
 */
import type { LabOptions } from '../lab/side-by-side.js';
import type { Lab, Lang } from './catalogue.js';

export interface Command {
  variant?: string;
  lab?: Lab;
  lang: Lang;
  learner?: string;
  /** --learners: list the learners of this copy instead. */
  learners: boolean;
  /** True when the learner chose the run settings (--client/--server/...): an exploration, not the lab's own runs. */
  explicitSettings: boolean;
  run: LabOptions;
  read: boolean;
  /** --all with --read: the whole sheet even before a run (it gives the answers away). */
  all: boolean;
  hint?: number;
  workspace: boolean;
  reset: boolean;
  yes: boolean;
  noPredict: boolean;
  /** --unheld: run a lab the class holds (not revealed, or the class cannot be reached), deliberately. */
  unheld: boolean;
  predictFile?: string;
  /** --html FILE: also write the results as an HTML page there. */
  htmlFile?: string;
  /** --join URL --code CODE: the live class to join (src/learn/live.ts), checked: an http(s) base URL and a join code. */
  join?: { url: string; code: string };
  /** --leave: forget the class. */
  leave: boolean;
  /** --reflect TEXT: the reflection written after the run, without asking. */
  reflect?: string;
  /** Whom this command's who line named already (src/learn/flow.ts sayWho): the menu says it before what was chosen runs. */
  whoSaid?: { name: string | undefined };
}
