/** Python's repr() of JSON values, as Python-based hosts print them inside their error texts. */
import { isObject } from './shared.js';

/** Python's repr() of a str, as Python prints it inside a tuple, a dict or an error. */
export function pyStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let body = s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  if (quote === "'") body = body.replace(/'/g, "\\'");
  return `${quote}${body}${quote}`;
}

/** Python's repr() of a JSON value parsed by json.loads. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return pyStr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (isObject(value)) return `{${Object.entries(value).map(([k, v]) => `${pyStr(k)}: ${pyRepr(v)}`).join(', ')}}`;
  return pyStr(String(value));
}

/** The name of the Python type json.loads gives for a JSON value. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

/** Python's repr() of a tuple of str: (), ('a',), ('a', 'b'). */
export function pyTuple(parts: string[]): string {
  if (parts.length === 0) return '()';
  if (parts.length === 1) return `(${pyStr(parts[0]!)},)`;
  return `(${parts.map(pyStr).join(', ')})`;
}
