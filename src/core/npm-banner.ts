/**
 * A JSON file saved with `npm run lab -- ... --json > run.json` starts with
 * npm's own lines, not ours: npm prints "> schema-breaks@0.1.0 lab" and the
 * script's command on stdout before the kit's code runs, so no flag of ours
 * can keep them out. `npm run -s` (npm's --silent) does. A command that reads
 * such a file says that, in one line (exit 2), where JSON.parse would only
 * say "Unexpected token '>'".
 */
import { UserError } from './user-error.js';
import type { Lang } from './lang.js';
import { t } from './messages/index.js';

/** npm's banner: an optional blank line, then "> name@version script" (npm's lib/commands/run-script.js). */
const BANNER = /^\s*> (\S+@\S+ \S+)\r?\n/;

/** The banner's first line ("schema-breaks@0.1.0 lab") when `text` starts with it. */
export function npmBanner(text: string): string | undefined {
  return BANNER.exec(text)?.[1];
}

/** Throws the one line when `text` (the file `shown`) starts with npm's banner. */
export function refuseNpmBanner(text: string, shown: string, lang: Lang): void {
  const banner = npmBanner(text);
  if (banner !== undefined) throw new UserError(t('common.npmBanner', lang, { file: shown, banner, script: banner.split(' ')[1]! }));
}
