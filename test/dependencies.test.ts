/**
 * The dependency rules of .dependency-cruiser.cjs, checked with
 * dependency-cruiser on the real sources: the model and the agent import
 * nothing from the server or the engine, the server imports nothing from
 * above it, the core imports nothing outside it, and there is no import circle. Each rule is shown to fire on a
 * small tree that breaks it (a rule that cannot fail proves nothing).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cruise, type IReporterOutput } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from './helpers/server.js';

const rules = createRequire(import.meta.url)(join(REPO, '.dependency-cruiser.cjs'));

async function violations(dir: string, tsConfig?: string): Promise<{ rule: string; from: string; to: string }[]> {
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const result: IReporterOutput = await cruise(['src'], { validate: true, ruleSet: { forbidden: rules.forbidden }, tsPreCompilationDeps: true, doNotFollow: { path: 'node_modules' }, ...(tsConfig ? { tsConfig: { fileName: tsConfig } } : {}) });
    const output = result.output as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
    return output.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
  } finally {
    process.chdir(cwd);
  }
}

const trees: string[] = [];
afterAll(() => trees.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'schema-breaks-deps-'));
  trees.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('the kit keeps its layers', () => {
  it('src has no dependency violation', async () => {
    expect(await violations(REPO, 'tsconfig.json')).toEqual([]);
  });
});

describe('each rule fires when broken', () => {
  it('the model importing the conjugation engine', async () => {
    const dir = tree({
      'src/conjugation/engine.ts': 'export const TENSES = ["simple past"];\n',
      'src/lab/model.ts': "import { TENSES } from '../conjugation/engine.js';\nexport const words = TENSES;\n",
    });
    expect(await violations(dir)).toEqual([{ rule: 'model-knows-only-what-it-is-shown', from: 'src/lab/model.ts', to: 'src/conjugation/engine.ts' }]);
  });

  it('the agent importing the server', async () => {
    const dir = tree({
      'src/minimcp/errors.ts': 'export const SERVER_BUILDS = ["low-level"];\n',
      'src/lab/agent.ts': "import { SERVER_BUILDS } from '../minimcp/errors.js';\nexport const builds = SERVER_BUILDS;\n",
    });
    expect(await violations(dir)).toEqual([{ rule: 'model-knows-only-what-it-is-shown', from: 'src/lab/agent.ts', to: 'src/minimcp/errors.ts' }]);
  });

  it("the real model's adapter importing the engine", async () => {
    const dir = tree({
      'src/conjugation/engine.ts': 'export const TENSES = ["simple present"];\n',
      'src/lab/chat/agent.ts': "import { TENSES } from '../../conjugation/engine.js';\nexport const t = TENSES;\n",
    });
    expect(await violations(dir)).toEqual([{ rule: 'model-knows-only-what-it-is-shown', from: 'src/lab/chat/agent.ts', to: 'src/conjugation/engine.ts' }]);
  });

  it('the server importing the runner', async () => {
    const dir = tree({
      'src/lab/knobs.ts': 'export const DEFAULT_KNOBS = {};\n',
      'src/minimcp/protocol.ts': "import { DEFAULT_KNOBS } from '../lab/knobs.js';\nexport const k = DEFAULT_KNOBS;\n",
    });
    expect(await violations(dir)).toEqual([{ rule: 'server-is-the-bottom-layer', from: 'src/minimcp/protocol.ts', to: 'src/lab/knobs.ts' }]);
  });

  it('the core importing a front-end', async () => {
    const dir = tree({
      'src/lab/figures.ts': 'export const FIGURES = ["ok"];\n',
      'src/core/messages/index.ts': "import { FIGURES } from '../../lab/figures.js';\nexport const ids = FIGURES;\n",
    });
    expect(await violations(dir)).toEqual([{ rule: 'core-is-shared', from: 'src/core/messages/index.ts', to: 'src/lab/figures.ts' }]);
  });

  it('the linter importing the runner (the packed command would need the kit)', async () => {
    const dir = tree({
      'src/lab/variants.ts': 'export const BASELINE = "baseline";\n',
      'src/lint/cli.ts': "import { BASELINE } from '../lab/variants.js';\nexport const b = BASELINE;\n",
    });
    expect(await violations(dir)).toEqual([{ rule: 'linter-sees-what-a-host-sees', from: 'src/lint/cli.ts', to: 'src/lab/variants.ts' }]);
  });

  it('the linter may use the host profiles and the contract rules', async () => {
    const dir = tree({
      'src/lab/profiles/index.ts': 'export const PROFILES = [];\n',
      'src/contract/rules.ts': 'export const RULES = {};\n',
      'src/lint/hosts.ts': "import { PROFILES } from '../lab/profiles/index.js';\nimport { RULES } from '../contract/rules.js';\nexport const p = [PROFILES, RULES];\n",
    });
    expect(await violations(dir)).toEqual([]);
  });

  it('a layer of the kit importing the linter', async () => {
    const dir = tree({
      'src/lint/rules.ts': 'export const LINT_RULES = {};\n',
      'src/learn/check.ts': "import { LINT_RULES } from '../lint/rules.js';\nexport const r = LINT_RULES;\n",
    });
    expect(await violations(dir)).toEqual([{ rule: 'nothing-imports-the-linter', from: 'src/learn/check.ts', to: 'src/lint/rules.ts' }]);
  });

  it('an import circle', async () => {
    const dir = tree({
      'src/learn/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'src/learn/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
    });
    const found = await violations(dir);
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found.map((v) => v.rule))).toEqual(new Set(['no-circular']));
  });
});
