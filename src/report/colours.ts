/**
 * One look per outcome label, the same everywhere: the outcome table's ANSI
 * colours (src/lab/outcomes.ts) turned into screen colours, with its texture
 * per label so that the colour is never the only cue.
 */
import { outcomeLook } from '../lab/outcomes.js';
import type { Swatch } from './svg.js';

/** The ANSI colours of the outcome table as colours that read on a white page and on a projector. */
const ANSI_HEX: Record<string, string> = {
  '31': '#c62828', // red
  '32': '#1a7f37', // green
  '33': '#e3b505', // yellow
  '34': '#1f5fbf', // blue
  '35': '#a2307f', // magenta
  '36': '#00a0b0', // cyan
  '37': '#b0b0b0', // white/default: a light grey
  '41': '#6d0f1a', // red background: a dark red
  '93': '#b36b00', // bright yellow: an amber
  '95': '#7b4fa0', // bright magenta: a violet
  '90': '#6e6e6e', // grey
  '91': '#ff7a5c', // bright red: a salmon
};

/** The colour and texture of an outcome label, from the outcome table. */
export function outcomeSwatch(label: string): Swatch {
  const look = outcomeLook(label);
  return { colour: ANSI_HEX[look.ansi] ?? ANSI_HEX['37']!, pattern: look.texture };
}

/** Bars that are not outcomes (retries, accuracy, latency): one dark neutral, no texture. */
export const NEUTRAL: Swatch = { colour: '#3d4b5c', pattern: 'solid' };
