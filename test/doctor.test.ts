/**
 * `npm run doctor`, through the real command: on the kit as installed here it
 * passes; on a copy of the kit where everything a learner needs is wrong
 * (a Node range this Node is not in, a package missing and one at another
 * version, a learners "folder" that is a file, CHROMIUM_PATH pointing
 * nowhere) it names each miss, says what to do, in English and in Spanish,
 * and exits 1. A missing Chromium alone never makes a laptop unready: only
 * the kit's own tests need it. Before `npm ci`, the launcher itself says what
 * to do.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitCopy, npmRun, removeKitCopies } from './helpers/kit-copy.js';
import { REPO } from './helpers/server.js';

const scratch = mkdtempSync(join(tmpdir(), 'schema-breaks-doctor-'));
const browser = join(scratch, 'chrome');
writeFileSync(browser, '#!/bin/sh\n');
chmodSync(browser, 0o755);
const nowhere = join(scratch, 'no-such-browser');
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  removeKitCopies();
});

// package.json's dependencies, and of its optionalDependencies the TypeScript compiler built for this computer.
const runtimeCount = Object.keys((JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { dependencies: object }).dependencies).length + 1;
const hostsCount = Object.keys((JSON.parse(readFileSync(join(REPO, 'hosts', 'package.json'), 'utf8')) as { dependencies: object }).dependencies).length;

describe('on the kit as installed here', () => {
  it('everything is there: five ticks, "Ready", exit 0', () => {
    const r = npmRun(REPO, 'doctor', ['--lang', 'en'], { CHROMIUM_PATH: browser });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`✓ Node ${process.versions.node}: the kit needs >=20.`);
    expect(r.stdout).toContain(`✓ Installed: the ${runtimeCount} packages the lab commands use, at the versions the kit pins.`);
    expect(r.stdout).toContain('✓ Your notes and workspaces can be written in learners/.');
    expect(r.stdout).toContain(`✓ The host frameworks (for --client on the framework profiles, the sweep's framework hosts, the linter's default hosts; never for the labs): installed, ${hostsCount} packages.`);
    expect(r.stdout).toContain(`✓ Chromium for the kit's own tests (npm test only; the labs do not need it): ${browser}.`);
    expect(r.stdout).toMatch(/\nReady: every lab command will work here\.\n$/);
    expect(r.status).toBe(0);
  });

  it('no Chromium is said, with what to do, and is not a reason to fail', () => {
    const r = npmRun(REPO, 'doctor', ['--lang', 'es'], { CHROMIUM_PATH: nowhere });
    expect(r.stdout).toContain(`- No hay Chromium para las pruebas del propio kit (solo npm test; los laboratorios no lo necesitan): CHROMIUM_PATH apunta a ${nowhere}, que no es un archivo.`);
    expect(r.stdout).toContain('Qué hacer: solo si vas a ejecutar npm test: instala Chromium o Google Chrome, o pon en CHROMIUM_PATH la ruta de su ejecutable.');
    expect(r.stdout).toContain('Listo: todos los comandos del laboratorio funcionarán aquí.');
    expect(r.status).toBe(0);
  });

  it('a bad flag is one line and exit 2', () => {
    const r = npmRun(REPO, 'doctor', ['--lang', 'fr']);
    expect(r.stderr).toBe('doctor: unknown language "fr"; one of: en, es\nnpm run doctor -- --help\n');
    expect(r.status).toBe(2);
  });
});

describe('on a copy where nothing is installed yet', () => {
  it('says to run npm ci --omit=dev, in both languages, not a stack trace', () => {
    const copy = kitCopy();
    const r = npmRun(copy, 'doctor', []);
    expect(r.stderr).toContain("The kit's packages are not installed. In ");
    expect(r.stderr).toContain(' run: npm ci --omit=dev, then: npm run doctor');
    expect(r.stderr).toContain('Los paquetes del kit no están instalados.');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.status).toBe(1);
  });
});

describe('on a copy where a learner would be stuck', () => {
  let copy: string;
  beforeAll(() => {
    copy = kitCopy();
    // The kit's packages, as installed: what the copy's package.json asks for decides what is missing.
    symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'), 'dir');
    const manifest = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as { engines: { node: string }; dependencies: Record<string, string> };
    manifest.engines.node = '>=99';
    manifest.dependencies['left-pad'] = '1.3.0'; // not installed
    manifest.dependencies.marked = '1.0.0'; // installed at another version
    writeFileSync(join(copy, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    // A file where the folder should be: nothing can be written in it, even by root (chmod would not stop root).
    writeFileSync(join(copy, 'learners'), 'not a folder\n');
  });

  it('in English: each miss, what to do for it, exit 1', () => {
    const r = npmRun(copy, 'doctor', [], { CHROMIUM_PATH: nowhere, LC_ALL: '', LC_MESSAGES: '', LANG: 'en_GB.UTF-8' });
    expect(r.stdout).toContain(`✗ Node ${process.versions.node} is too old: the kit needs >=99.`);
    expect(r.stdout).toContain('What to do: install Node >=99 (https://nodejs.org, or: nvm install 20), then run npm ci --omit=dev again');
    expect(r.stdout).toContain('✗ 2 packages the lab commands use are missing or at another version: marked@1.0.0, left-pad@1.3.0.');
    expect(r.stdout).toContain('What to do: in the kit\'s folder, run: npm ci --omit=dev');
    expect(r.stdout).toMatch(/✗ Nothing can be written in \S*learners\/ \((ENOTDIR|EEXIST)\)/);
    expect(r.stdout).toContain('What to do: work in a copy of the kit that is yours');
    expect(r.stdout).toContain(`- No Chromium for the kit's own tests (npm test only; the labs do not need it): CHROMIUM_PATH points to ${nowhere}, which is not a file.`);
    expect(r.stdout).toMatch(/\nNot ready: 3 things to fix, above\.\n$/);
    expect(r.status).toBe(1);
  });

  it('in Spanish, from the locale as every command reads it', () => {
    const r = npmRun(copy, 'doctor', [], { CHROMIUM_PATH: nowhere, LC_ALL: '', LC_MESSAGES: '', LANG: 'es_ES.UTF-8' });
    expect(r.stdout).toContain(`✗ Node ${process.versions.node} es demasiado antiguo: el kit necesita >=99.`);
    expect(r.stdout).toContain('✗ Faltan 2 paquetes que usan los comandos del laboratorio, o están en otra versión: marked@1.0.0, left-pad@1.3.0.');
    expect(r.stdout).toContain('Qué hacer: en la carpeta del kit, ejecuta: npm ci --omit=dev');
    expect(r.stdout).toMatch(/✗ No se puede escribir nada en \S*learners\/ \((ENOTDIR|EEXIST)\)/);
    expect(r.stdout).toContain('No está listo: hay 3 cosas que arreglar, arriba.');
    expect(r.status).toBe(1);
  });
});
