/**
 * Dependency rules, checked by test/dependencies.test.ts (npm test) with
 * dependency-cruiser:
 * - the stand-in model, the agent and the real model's adapter (src/lab/chat)
 *   know only what a real model and agent are shown: they import nothing
 *   from the server (src/minimcp) or the conjugation engine (src/conjugation);
 * - the server and the engine are the bottom layer: they import nothing of
 *   the runner, the learner's path, the reports or workshop mode;
 * - the core (the languages, the message catalogues, options, colour) is
 *   shared by every front-end: it imports nothing of the kit outside it;
 * - the linter (src/lint) sees what a host sees: the contract rules, the host
 *   profiles and the core, nothing of the server, the runner or the learner's
 *   path; and nothing imports it;
 * - no import circles.
 */
module.exports = {
  forbidden: [
    {
      name: 'model-knows-only-what-it-is-shown',
      comment: 'The model, the agent and the requests see the published schema, the results and the errors, never the server or the engine (design: "nothing outside the server knows what a variant is supposed to do").',
      severity: 'error',
      from: { path: '^src/lab/(model|model-reading|intent|meanings|agent|workload|knobs|types|requests/.*|chat/.*)\\.(ts|json)$' },
      to: { path: '^src/(minimcp|conjugation)/' },
    },
    {
      name: 'server-is-the-bottom-layer',
      comment: 'The server and the engine import nothing from the layers above them.',
      severity: 'error',
      from: { path: '^src/(minimcp|conjugation)/' },
      to: { path: '^src/(lab|learn|report|class|contract)/' },
    },
    {
      name: 'core-is-shared',
      comment: 'Every layer may import src/core (the languages, the message catalogues); the core imports nothing of the kit outside it, or a front-end would depend on another through it.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'linter-sees-what-a-host-sees',
      comment: "The linter judges any server by its tools/list, as a host does, with the contract rules and the host profiles: it imports nothing of the kit's server, engine, runner or learner's path (scripts/lint.ts builds the kit's own variants), so the packed command (dist/schema-breaks.mjs) runs without the kit.",
      severity: 'error',
      from: { path: '^src/lint/' },
      to: { path: '^src/', pathNot: '^src/(lint|core|contract)/|^src/lab/profiles/|^src/lab/types\\.ts$|^src/class/html\\.ts$' },
    },
    {
      name: 'nothing-imports-the-linter',
      comment: 'The linter is a front-end: no layer of the kit depends on it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/lint/' },
      to: { path: '^src/lint/' },
    },
    {
      name: 'no-circular',
      comment: 'An import circle hides which layer a module belongs to.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  // dependency-cruiser reads the TypeScript here with @swc/core (a devDependency for that alone): without it, it
  // finds no imports and every rule would pass with nothing checked; test/dependencies.test.ts's mutations catch that
  // (measured: uninstalling @swc/core turns 8 of its 10 tests red).
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
