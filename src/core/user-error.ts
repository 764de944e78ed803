/**
 * An error a person caused and can fix (a bad flag, an unknown lab, a corrupt
 * journal, a workspace that does not build): every command prints it as one
 * line, `<command>: <message>`, and exits with its code, 2 unless it says
 * otherwise. Anything else is a bug in the kit, and keeps its stack trace.
 */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
    /** A second line: where to read more ("npm run lab -- --help"). */
    readonly hint?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A command line the command cannot take: exit 2; `help`, when given, is a second line saying where the options are. */
export class UsageError extends UserError {
  constructor(message: string, help?: string) {
    super(message, 2, help);
  }
}

/**
 * Ctrl+C at a prompt, from a command that knows what it had already written
 * (a locked prediction, a run): its message says what was kept, in place of
 * the command's `interrupted` text.
 */
export class Interrupted extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * Runs a command's main: a UserError is its line (and hint) on stderr and its
 * exit code; Ctrl+C at a prompt (inquirer's ExitPromptError) is exit 130,
 * after `interrupted` is printed (an Interrupted error's own message instead).
 */
export async function runCommand(name: string, main: () => Promise<number> | number, interrupted = 'Interrupted: nothing was saved.'): Promise<number> {
  try {
    return await main();
  } catch (error) {
    if (error instanceof Interrupted) {
      process.stderr.write(`\n${error.message}\n`);
      return 130;
    }
    if (error instanceof Error && error.name === 'ExitPromptError') {
      process.stderr.write(`\n${interrupted}\n`);
      return 130;
    }
    if (error instanceof UserError) {
      process.stderr.write(`${name}: ${error.message}\n${error.hint ? `${error.hint}\n` : ''}`);
      return error.exitCode;
    }
    throw error;
  }
}
