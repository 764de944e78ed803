/**
 * Long text on a terminal goes through a pager, as `git log` and `man` do:
 * the reader starts at the top and scrolls on when ready, instead of landing
 * on the last screenful (for a lab sheet, the part that gives the answers
 * away). The pager is `$PAGER` when it is set, else `less -R` (-R lets the
 * sheet's colours through). Text that fits on the screen, or that goes to a
 * file or a pipe, is written as it is: a pager off a terminal would only get
 * in the way of `> file` or `| head`.
 *
 * As git does, `$PAGER` is run by the shell, so it may carry options
 * ("less -RF", "more") (https://git-scm.com/docs/git-var, GIT_PAGER), and an
 * empty one turns paging off (https://git-scm.com/docs/git-config, core.pager).
 */
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';

/** The terminal the text is for: its stream, the environment, and its height in lines. */
export interface PagerTarget {
  stream?: Writable & { isTTY?: boolean; rows?: number };
  env?: NodeJS.ProcessEnv;
}

/** The shell's exit code for a command it could not find (POSIX sh, "Command Search and Execution"). */
const NOT_FOUND = 127;

/**
 * Writes `text` (ending with a newline) to the terminal through the pager
 * when it is longer than the screen, else directly. A pager that cannot be
 * started leaves the text printed directly.
 */
export async function showLong(text: string, { stream = process.stdout, env = process.env }: PagerTarget = {}): Promise<void> {
  const body = text.endsWith('\n') ? text : `${text}\n`;
  const lines = body.split('\n').length - 1;
  const pager = env.PAGER;
  // Off a terminal, never; on one, only when the text does not fit (an unknown height: assume it does not).
  if (stream.isTTY !== true || lines < (stream.rows ?? 0) || pager?.trim() === '') {
    stream.write(body);
    return;
  }
  const shown = await throughPager(body, pager);
  if (!shown) stream.write(body);
}

/** Runs the pager with the text on its stdin; false when it could not be started. */
function throughPager(text: string, pager: string | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const child = pager !== undefined ? spawn(pager, { shell: true, stdio: ['pipe', 'inherit', 'inherit'] }) : spawn('less', ['-R'], { stdio: ['pipe', 'inherit', 'inherit'] });
    // Ctrl+C belongs to the pager while it runs (less uses it to stop a search); this process waits for it to end.
    const ignore = () => {};
    process.on('SIGINT', ignore);
    const done = (shown: boolean) => {
      process.off('SIGINT', ignore);
      resolve(shown);
    };
    child.on('error', () => done(false));
    child.on('exit', (code) => done(code !== NOT_FOUND));
    // A reader who quits before the end closes the pipe: not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(text);
  });
}
