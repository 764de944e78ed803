/**
 * Where the page tests and `npm run doctor` find Chromium
 * (src/core/chromium.ts): the variable first, taken at its word, then the
 * usual places of each system. The expected places are written by hand from
 * where the browsers install (Debian's and Ubuntu's packages, Google's .deb,
 * the macOS app bundles, Chrome's Windows installer per user and per machine).
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findChromium, usualPlaces } from '../src/core/chromium.js';
import { chromiumMissing, chromiumPath } from './helpers/chromium.js';

const dir = mkdtempSync(join(tmpdir(), 'schema-breaks-chromium-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const browser = join(dir, 'chromium');
writeFileSync(browser, '#!/bin/sh\n');
chmodSync(browser, 0o755);

describe('the variable comes first', () => {
  it('CHROMIUM_PATH names the browser', () => {
    expect(findChromium({ CHROMIUM_PATH: browser, PATH: '' }, 'linux')).toEqual({ found: true, path: browser, from: 'variable', variable: 'CHROMIUM_PATH' });
  });

  it('CHROME_PATH when CHROMIUM_PATH is not set', () => {
    expect(findChromium({ CHROME_PATH: browser, PATH: '' }, 'linux')).toMatchObject({ found: true, path: browser, variable: 'CHROME_PATH' });
  });

  it('a variable pointing nowhere is a miss, even where a browser is on PATH', () => {
    const found = findChromium({ CHROMIUM_PATH: join(dir, 'nothing'), PATH: dir }, 'linux');
    expect(found).toEqual({ found: false, variable: 'CHROMIUM_PATH', looked: [join(dir, 'nothing')] });
    expect(() => chromiumPath({ CHROMIUM_PATH: join(dir, 'nothing') })).toThrow(`CHROMIUM_PATH=${join(dir, 'nothing')} is not a file`);
  });
});

describe('then the usual places', () => {
  it('on Linux, a browser on PATH by one of its package names, before /usr/bin (as a shell finds it)', () => {
    expect(findChromium({ PATH: dir }, 'linux')).toEqual({ found: true, path: browser, from: 'usual place' });
  });

  it('on Linux, Debian, Ubuntu and Google package names in /usr/bin, and Google Chrome in /opt', () => {
    const places = usualPlaces('linux', { PATH: '' });
    for (const p of ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/opt/google/chrome/chrome']) expect(places).toContain(p);
  });

  it('on macOS, the app bundles in /Applications', () => {
    const places = usualPlaces('darwin', {});
    expect(places).toContain('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome');
    expect(places).toContain('/Applications/Chromium.app/Contents/MacOS/Chromium');
  });

  it("on Windows, Chrome installed for the user and for the machine", () => {
    const places = usualPlaces('win32', { LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local' });
    expect(places).toContain('C:\\Users\\ana\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe');
    expect(places).toContain('C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe');
    expect(places).toContain('C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe');
  });

  it('none found: the message names the variable to set', () => {
    const found = findChromium({ PATH: '' }, 'win32');
    expect(found.found).toBe(false);
    if (!found.found) expect(chromiumMissing(found)).toMatch(/set CHROMIUM_PATH to the browser's executable/);
  });
});
