/**
 * Colour in the terminal, or none: on only when the stream is a terminal,
 * `NO_COLOR` is unset (https://no-color.org) and `TERM` is not `dumb`;
 * `FORCE_COLOR` (other than 0) turns it on anyway. Text piped to a file or
 * another program is never painted.
 */
import type { Writable } from 'node:stream';

export function colourOn(stream: Writable & { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** Text in an ANSI SGR style ("1" bold, "2" dim, "31" red, ...), or as it is when colour is off. */
export function paint(code: string, text: string, on = colourOn()): string {
  return on ? `\u001b[${code}m${text}\u001b[0m` : text;
}
