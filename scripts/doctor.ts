/** npm run doctor [-- --lang en|es]: does this computer have what the kit needs? See src/cli/doctor.ts. */
import { main } from '../src/cli/doctor.js';
import { runCommand } from '../src/core/user-error.js';

// A bad flag is one line and exit 2; a miss is exit 1, with what to do.
process.exitCode = await runCommand('doctor', () => main(process.argv.slice(2)));
