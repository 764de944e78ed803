/**
 * Every knob of the stand-in model and of the agent loop, in one place, with
 * where its value comes from. None is chosen per variant: the same values run
 * the baseline, every break and every solution.
 *
 * The model's rates are per opportunity at the reference temperature 0.7, for
 * a small open model (1B to 9B). Where a value is counted from a published
 * evaluation it is `derived`: counts made by the kit from the Berkeley Function
 * Calling Leaderboard's published per-entry results (BFCL V1 "simple", run of
 * 2024-07-25 at temperature 0.7; the eleven small open models: every model of
 * that run whose licence BFCL does not give as "Proprietary" and which has 9B
 * parameters or fewer; docs/sources.md, "Model error rates").
 * Where nothing is published it is an `assumption`, and the report says so.
 */
export interface Knobs {
  /** Sampling temperature (`--temperature`). At 0 the model is greedy: the same context gives the same call. */
  temperature: number;
  /** Chance, per required key, that the model leaves it out. */
  dropRequired: number;
  /** Chance, per optional key whose value the request states, that the model leaves it out ("stops early"). */
  dropStatedOptional: number;
  /** Chance, per optional key whose value the request does not state, that the model leaves it out rather than invent one. */
  dropUnstatedOptional: number;
  /** Chance, per value the schema lists options for, that the model writes its own words instead of the option that says them. */
  strayFromEnum: number;
  /** Chance that, when no listed option can say what the request asks, the model writes its own words anyway. */
  offList: number;
  /** When no listed option can say it and the model does not write its own words: the chance it leaves the key out rather than pick a listed option all the same. */
  offListOmit: number;
  /** Chance, per listed value, that the model picks a neighbouring option (the wrong tense or person, valid for the schema). */
  wrongOption: number;
  /** Chance that the model writes a parameter it was never shown (a tool published with no properties), named after a word of the description. */
  guessRate: number;
  /** The agent's run stops after this many model turns (one turn: one model call); a tool result never seen by the model counts for nothing. */
  maxTurns: number;
  /** A tool call with no answer after this long is a timeout. */
  callTimeoutMs: number;
}

export type KnobSource = { kind: 'derived' | 'assumption' | 'framework' | 'setting'; source: string };

export const DEFAULT_KNOBS: Knobs = {
  temperature: 0.7,
  // The counts behind each rate are in KNOB_SOURCES and docs/sources.md; written as the fractions counted.
  dropRequired: 16 / 8403,
  dropStatedOptional: 59 / 980,
  dropUnstatedOptional: 0.9,
  strayFromEnum: 3 / 2280,
  offList: 5 / 11,
  offListOmit: 1 / 6,
  wrongOption: 4 / 2280,
  guessRate: 0.5,
  maxTurns: 10,
  callTimeoutMs: 5000,
};

/** Where each knob's value comes from: what the report shows next to the figures. */
export const KNOB_SOURCES: Record<keyof Knobs, KnobSource> = {
  temperature: { kind: 'setting', source: '--temperature; 0.7 is the temperature BFCL ran before 2024-08 (gorilla PR 574)' },
  dropRequired: {
    kind: 'derived',
    source:
      'BFCL V1 simple, 11 small open models at T=0.7, missing_required: 16 of the 3,867 calls that decoded (533 of 4,400 never did), 8,403 required keys in them; 12 of the 16 are Llama-3-8B-Instruct',
  },
  dropStatedOptional: { kind: 'derived', source: 'BFCL V1 simple, 11 small open models, missing_optional: 59 of the 980 decoded calls that had to give an optional value (6.0%)' },
  dropUnstatedOptional: { kind: 'assumption', source: 'no published figure: a value the request does not state is usually left to the tool' },
  strayFromEnum: {
    kind: 'derived',
    source: 'BFCL V1 simple, a member fitting the request: 0 of 440 enum-bearing calls strayed in the 11 small models; 3 of 2,280 in all 57 models (0.13%), the rate taken',
  },
  offList: { kind: 'derived', source: 'BFCL V1 simple_234 (region, the request says "European"): 5 of 11 small models wrote a value outside the enum anyway (one item: thin)' },
  offListOmit: { kind: 'derived', source: 'BFCL V1 simple_234: of the 6 small models that did not, 5 picked a listed region, 1 left the key out; none gave up (one item: thin)' },
  wrongOption: {
    kind: 'derived',
    source: 'BFCL V1 simple: 4 in-enum wrong values in 2,280 enum-bearing calls (0.18%), all 57 models, all four on one ambiguous item (simple_177: "status": "open" for "all Patent lawsuit cases")',
  },
  guessRate: { kind: 'assumption', source: 'no published figure for naming arguments of a tool that publishes none' },
  maxTurns: { kind: 'framework', source: 'OpenAI Agents SDK (openai-agents-python v0.22.0) DEFAULT_MAX_TURNS = 10, then MaxTurnsExceeded' },
  callTimeoutMs: { kind: 'framework', source: 'OpenAI Agents SDK MCPServerStdio client_session_timeout_seconds = 5' },
};

/**
 * A rate at a temperature. BFCL's move from 0.7 to 0.001 changed these rates
 * by about a tenth at most (docs/sources.md): temperature mostly adds
 * variance, which the runner's seeding gives. The slope is an assumption.
 */
export function atTemperature(rate: number, temperature: number): number {
  // A rate of 0 or 1 is a rule, not a chance: temperature leaves it alone.
  if (rate <= 0 || rate >= 1) return Math.max(0, Math.min(1, rate));
  return Math.min(1, rate * (0.9 + temperature / 7));
}
