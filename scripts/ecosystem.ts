/**
 * npm run ecosystem -- refresh|page|pin: the ecosystem measured (src/lint/ecosystem/).
 */
import { runCommand } from '../src/core/user-error.js';
import { runEcosystem } from '../src/lint/ecosystem/cli.js';
import { REPO } from '../src/lab/paths.js';

process.exitCode = await runCommand('ecosystem', () => runEcosystem(process.argv.slice(2), REPO));
