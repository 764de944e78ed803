/**
 * Every knob of the stand-in model and the agent, in one place, with the
 * reason for its value. None of them is chosen per variant: the same values
 * run the baseline, every break and every solution.
 */
export interface Knobs {
  /**
   * Sampling temperature (`--temperature`). At 0 the model is greedy: it writes
   * every key it has a value for and never guesses. Above 0 it samples, and the
   * chances below scale with it.
   */
  temperature: number;
  /**
   * Chance, per optional key, that a sampling model closes the object instead
   * of writing the key, for a clear prompt at temperature 1. Grammar-constrained
   * decoding offers `}` as soon as the schema allows it; a small model takes
   * that exit now and then even when it knows the value.
   */
  earlyClose: number;
  /**
   * The same chance for a key whose value the prompt does not state
   * ("conjugate eat for me" states no tense): with nothing to copy, closing is
   * far likelier than inventing a value. This is why vague prompts lose more
   * keys: they leave more unsaid.
   */
  earlyCloseUnstated: number;
  /**
   * Chance that the model writes a parameter it was never shown (a tool
   * published with no properties), naming it after a word in the tool's
   * description. Models do guess argument names from descriptions; they do not
   * always dare.
   */
  guessRate: number;
  /** The agent retries a transient failure (-32603, timeout, server exit) this many times with the same arguments. */
  maxTransientRetries: number;
  /** At most this many attempts per call in all: the agent's loop is bounded, as real hosts bound theirs. */
  maxAttempts: number;
  /** A call that has no answer after this long is a timeout. */
  callTimeoutMs: number;
}

export const DEFAULT_KNOBS: Knobs = {
  temperature: 0.7,
  earlyClose: 0.15,
  earlyCloseUnstated: 0.9,
  guessRate: 0.5,
  maxTransientRetries: 3,
  maxAttempts: 5,
  callTimeoutMs: 5000,
};

/** A chance scaled by temperature and kept within [0, 1]. */
export function scaled(chance: number, temperature: number): number {
  return Math.max(0, Math.min(1, chance * temperature));
}
