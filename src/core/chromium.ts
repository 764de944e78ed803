/**
 * Where Chromium (or Google Chrome, the same engine) is on this machine: the
 * browser the kit's own tests open its pages in (`npm test`), and what
 * `npm run doctor` looks for. A learner's commands never need it.
 *
 * The variable CHROMIUM_PATH wins, then CHROME_PATH (the name chrome-launcher
 * and Lighthouse read); a variable that is set is taken at its word, so one
 * pointing nowhere is a miss, never a silent fallback. Without one, the
 * usual places: on Linux the commands on PATH by the names the packages give
 * them (xdg-open's list in playwright-core's bundled `open`: google-chrome,
 * google-chrome-stable, chromium, chromium-browser) and Google's
 * /opt/google/chrome/chrome; on macOS the app bundles in /Applications (and
 * ~/Applications); on Windows chrome.exe under LOCALAPPDATA, ProgramFiles and
 * ProgramFiles(x86), as playwright-core looks for its `chrome` channel
 * (microsoft/playwright packages/playwright-core/src/server/registry/index.ts).
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, win32 } from 'node:path';

/** The variables that name the browser, in the order they are read. */
export const CHROMIUM_VARIABLES = ['CHROMIUM_PATH', 'CHROME_PATH'] as const;

export type ChromiumFound =
  | { found: true; path: string; from: 'variable' | 'usual place'; variable?: string }
  | { found: false; /** The variable that was set and points nowhere. */ variable?: string; /** Every place looked at. */ looked: string[] };

const LINUX_COMMANDS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const LINUX_PLACES = ['/opt/google/chrome/chrome', '/snap/bin/chromium'];
const MAC_APPS = ['Google Chrome.app/Contents/MacOS/Google Chrome', 'Chromium.app/Contents/MacOS/Chromium'];
const WINDOWS_APPS = ['Google\\Chrome\\Application\\chrome.exe', 'Chromium\\Application\\chrome.exe'];

/** The places to look on `platform`, in order, without the variables. */
export function usualPlaces(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string[] {
  if (platform === 'darwin') return ['/Applications', join(homedir(), 'Applications')].flatMap((dir) => MAC_APPS.map((app) => join(dir, app)));
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.ProgramFiles ?? env.PROGRAMFILES ?? 'C:\\Program Files', env['ProgramFiles(x86)'] ?? env['PROGRAMFILES(X86)'] ?? 'C:\\Program Files (x86)'];
    return roots.filter((r): r is string => Boolean(r)).flatMap((root) => WINDOWS_APPS.map((app) => win32.join(root, app)));
  }
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  return [...new Set([...LINUX_COMMANDS.flatMap((name) => [...dirs, '/usr/bin'].map((dir) => join(dir, name))), ...LINUX_PLACES])];
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/** Chromium on this machine: the variables first, then the usual places of `platform`. */
export function findChromium(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): ChromiumFound {
  for (const variable of CHROMIUM_VARIABLES) {
    const value = env[variable];
    if (!value) continue;
    return isFile(value) ? { found: true, path: value, from: 'variable', variable } : { found: false, variable, looked: [value] };
  }
  const looked = usualPlaces(platform, env);
  const path = looked.find(isFile);
  return path ? { found: true, path, from: 'usual place' } : { found: false, looked };
}
