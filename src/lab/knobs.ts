/**
 * Every knob of the stand-in model and of the agent loop, in one place, with
 * where its value comes from. None is chosen per variant: the same values run
 * the baseline, every break and every solution.
 *
 * The model's rates are per opportunity at the reference temperature 0.7, for
 * a small open model (1B to 9B). Where a value is counted from a published
 * evaluation it is `derived`: counts made by the kit from the Berkeley Function
 * Calling Leaderboard's published per-entry results (BFCL V1 "simple", eight
 * small open models at temperature 0.7; docs/sources.md, "Model error rates").
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
  /** Chance that, when no listed option can say what the request asks, the model writes its own words anyway instead of giving up. */
  offList: number;
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
  dropRequired: 0.0025,
  dropStatedOptional: 0.06,
  dropUnstatedOptional: 0.9,
  strayFromEnum: 0.02,
  offList: 0.6,
  wrongOption: 0.0015,
  guessRate: 0.5,
  maxTurns: 10,
  callTimeoutMs: 5000,
};

/** Where each knob's value comes from: what the report shows next to the figures. */
export const KNOB_SOURCES: Record<keyof Knobs, KnobSource> = {
  temperature: { kind: 'setting', source: '--temperature; 0.7 is the temperature BFCL ran before 2024-08 (gorilla PR 574)' },
  dropRequired: {
    kind: 'derived',
    source: 'BFCL V1 simple, missing_required: 15 of 3,200 calls (0.47%) for 8 small open models at T=0.7; about 2.2 required keys per call',
  },
  dropStatedOptional: { kind: 'derived', source: 'BFCL V1 simple, missing_optional: 48 of 824 calls that had to give an optional value (5.8%)' },
  dropUnstatedOptional: { kind: 'assumption', source: 'no published figure: a value the request does not state is usually left to the tool' },
  strayFromEnum: { kind: 'derived', source: 'BFCL V1 simple: 6 of 320 enum-bearing calls wrote a value outside the enum (1.9%), request matching a member' },
  offList: { kind: 'derived', source: 'BFCL V1 simple_234, no member fits the request: 5 of 8 small models wrote a value outside the enum anyway (one item: thin)' },
  wrongOption: { kind: 'derived', source: 'BFCL V1 simple: 4 in-enum wrong values in 2,280 enum-bearing calls (0.2%), all 57 models' },
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
