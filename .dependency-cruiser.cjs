/**
 * Dependency rules, checked by test/dependencies.test.ts (npm test) with
 * dependency-cruiser:
 * - the stand-in model and the agent know only what a real model and agent
 *   are shown: they import nothing from the server (src/minimcp) or the
 *   conjugation engine (src/conjugation);
 * - the server and the engine are the bottom layer: they import nothing of
 *   the runner, the learner's path, the reports or workshop mode;
 * - no import circles.
 */
module.exports = {
  forbidden: [
    {
      name: 'model-knows-only-what-it-is-shown',
      comment: 'The model, the agent and the requests see the published schema, the results and the errors, never the server or the engine (design: "nothing outside the server knows what a variant is supposed to do").',
      severity: 'error',
      from: { path: '^src/lab/(model|model-reading|intent|meanings|agent|workload|knobs|types|requests/.*)\\.(ts|json)$' },
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
      name: 'no-circular',
      comment: 'An import circle hides which layer a module belongs to.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
