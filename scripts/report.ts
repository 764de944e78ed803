/** npm run report -- <saved.json> [-o page.html] [--lang en|es]; see src/cli/report.ts. */
import { main } from '../src/cli/report.js';

process.exitCode = await main(process.argv.slice(2));
