/** npm run class -- <report|handout|sweep> [options]: the instructor's workshop commands; see src/class/cli.ts. */
import { main } from '../src/class/cli.js';

process.exitCode = await main(process.argv.slice(2));
