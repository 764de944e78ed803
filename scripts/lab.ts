/** npm run lab -- --variant <id> [options]; see src/lab/cli.ts. */
import { main } from '../src/cli/lab.js';

process.exitCode = await main(process.argv.slice(2));
