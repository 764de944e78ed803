/** npm run lab -- --variant <id> [options]; see src/lab/cli.ts. */
import { main } from '../src/lab/cli.js';

process.exitCode = await main(process.argv.slice(2));
