/**
 * The browser the page tests open the kit's pages in: found by
 * src/core/chromium.ts (CHROMIUM_PATH, then CHROME_PATH, then the usual
 * places on Linux, macOS and Windows), never one fixed path.
 *
 * When there is none, the test fails, naming the variable: it does not skip.
 * A skipped page test leaves `npm test` green on a machine where nobody
 * looked at the pages, and CI (.ci/run installs chromium, and goes on when it
 * cannot) would hide a missing browser the same way. A learner never needs
 * this: `npm run doctor` says so.
 */
import { CHROMIUM_VARIABLES, findChromium, type ChromiumFound } from '../../src/core/chromium.js';

/** What the page tests give chromium: no sandbox (CI runs as root), no network of its own. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Why there is no browser, and how to give the tests one: one paragraph. */
export function chromiumMissing(found: Extract<ChromiumFound, { found: false }>): string {
  const where = found.variable ? `${found.variable}=${found.looked[0]} is not a file` : `no Chromium or Google Chrome in the usual places (${found.looked.length} looked at, e.g. ${found.looked.slice(0, 3).join(', ')})`;
  return `the page tests need Chromium: ${where}. Install it (Debian/Ubuntu: apt-get install chromium; macOS or Windows: Google Chrome) or set ${CHROMIUM_VARIABLES[0]} to the browser's executable`;
}

/** The browser's executable, or an error saying how to name one (the calling test fails with it). */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  const found = findChromium(env);
  if (!found.found) throw new Error(chromiumMissing(found));
  return found.path;
}
