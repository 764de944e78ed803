/**
 * One look per outcome label, the same everywhere: the terminal report's
 * colours (OUTCOME_COLOURS, ANSI codes) turned into screen colours, plus a
 * texture per label so that the colour is never the only cue.
 */
import { OUTCOME_COLOURS } from '../lab/report.js';
import type { PatternKind, Swatch } from './svg.js';

/** The ANSI colours of OUTCOME_COLOURS as colours that read on a white page and on a projector. */
const ANSI_HEX: Record<string, string> = {
  '31': '#c62828', // red
  '32': '#1a7f37', // green
  '33': '#e3b505', // yellow
  '34': '#1f5fbf', // blue
  '35': '#a2307f', // magenta
  '36': '#00a0b0', // cyan
  '37': '#b0b0b0', // white/default: a light grey
  '41': '#6d0f1a', // red background: a dark red
  '90': '#6e6e6e', // grey
  '91': '#ff7a5c', // bright red: a salmon
};

const PATTERNS: Record<string, PatternKind> = {
  ok: 'solid',
  isError: 'diagonal',
  'rpc:-32602': 'dots',
  'rpc:-32603': 'cross',
  'client-rejected': 'horizontal',
  'client-invalid': 'vertical',
  'no-call': 'grid',
  timeout: 'zigzag',
  'server-exit': 'back-diagonal',
};

const SPARE: PatternKind[] = ['dots', 'zigzag', 'grid', 'back-diagonal', 'vertical', 'horizontal', 'diagonal', 'cross'];

function hash(text: string): number {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  return h;
}

/** The colour and texture of an outcome label: from OUTCOME_COLOURS, and a texture picked by the label for any other. */
export function outcomeSwatch(label: string): Swatch {
  const colour = ANSI_HEX[OUTCOME_COLOURS[label] ?? '37'] ?? ANSI_HEX['37']!;
  return { colour, pattern: PATTERNS[label] ?? SPARE[hash(label) % SPARE.length]! };
}

/** Bars that are not outcomes (retries, accuracy, latency): one dark neutral, no texture. */
export const NEUTRAL: Swatch = { colour: '#3d4b5c', pattern: 'solid' };
