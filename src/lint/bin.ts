/**
 * The packaged command, `schema-breaks lint ...` (package.json "bin"; built
 * by scripts/build-bin.mjs into dist/schema-breaks.mjs, plain JS that needs
 * nothing but Node). It lints any server; --variant needs a clone of the kit.
 */
import { runCommand, UserError } from '../core/user-error.js';
import { runLint } from './cli.js';
import packageJson from '../../package.json' with { type: 'json' };

const [command, ...rest] = process.argv.slice(2);
const USAGE = `Usage: schema-breaks lint [options] -- <command> [args...]   (schema-breaks lint --help)\n`;

process.exitCode = await runCommand('schema-breaks', async () => {
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${packageJson.version}\n`);
    return 0;
  }
  if (command === undefined || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'lint') throw new UserError(`unknown command "${command}"; the package has one: lint`, 2, USAGE.trimEnd());
  return runLint(rest, { invocation: 'schema-breaks lint' });
});
