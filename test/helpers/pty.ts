/**
 * A command in a real pseudo-terminal, as a person runs it: `script` (util-linux,
 * part of every Debian system) gives the child a tty, we type into it and read
 * the screen. ANSI escapes are stripped from what `screen()` returns.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][A-Za-z0-9]|\u001b[=>]|\r/g;

export class Terminal {
  private readonly child: ChildProcessWithoutNullStreams;
  private output = '';
  exitCode: number | null | undefined;
  private readonly exited: Promise<number | null>;

  constructor(command: string, cwd: string, env: NodeJS.ProcessEnv = {}) {
    this.child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd,
      env: { ...process.env, TERM: 'xterm-256color', COLUMNS: '110', LINES: '50', FORCE_COLOR: '0', ...env },
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => (this.output += chunk));
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => (this.output += chunk));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve((this.exitCode = code))));
  }

  /** Everything shown so far, escapes removed. */
  screen(): string {
    return this.output.replace(ANSI, '');
  }

  /** Waits until the screen, from `from` on, matches; fails with the screen's tail otherwise. */
  async waitFor(pattern: RegExp, timeoutMs = 30_000, from = 0): Promise<number> {
    const started = Date.now();
    for (;;) {
      const text = this.screen();
      const match = pattern.exec(text.slice(from));
      if (match) return from + match.index + match[0].length;
      if (this.exitCode !== undefined || Date.now() - started > timeoutMs) {
        throw new Error(`waited for ${pattern} (exit ${this.exitCode}); the screen ends with:\n${text.slice(-1500)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Types text; "\r" is Enter. */
  type(text: string): void {
    this.child.stdin.write(text);
  }

  async answer(prompt: RegExp, text: string, from = 0): Promise<number> {
    const at = await this.waitFor(prompt, 30_000, from);
    this.type(`${text}\r`);
    return at;
  }

  async done(timeoutMs = 60_000): Promise<number | null> {
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}
