/**
 * The one lookup of the kit's texts, and the one number formatter. Every
 * front-end (the learner's path, the terminal and HTML reports, the class
 * pages, the sweep) speaks through `t()`, so that a plural or a decimal comma
 * is done once, by the language's own rules (Intl), not by hand.
 */
import type { Lang } from '../lang.js';
import { en, type MessageId } from './en.js';
import { es } from './es.js';
import type { Message, Plural } from './types.js';

export type { MessageId } from './en.js';
export type { Message, Plural } from './types.js';

export const CATALOGUES: Record<Lang, Record<MessageId, Message>> = { en, es };

/** What fills a message's `{name}`s: a number is written as the language writes it (formatNumber's defaults). */
export type Values = Record<string, string | number>;

export interface NumberStyle {
  /** At most this many decimals (default 2). */
  decimals?: number;
  /** At least this many decimals, for columns that line up (default 0). */
  minDecimals?: number;
  /** Thousands separators as the language puts them (1,234 / 12.345); off by default, so that a terminal column or a seed reads as typed. */
  grouping?: boolean;
}

const formatters = new Map<string, Intl.NumberFormat>();

/** A number as the language writes it: 2.5 in English, 2,5 in Spanish. */
export function formatNumber(value: number, lang: Lang, style: NumberStyle = {}): string {
  const decimals = style.decimals ?? 2;
  const minDecimals = Math.min(style.minDecimals ?? 0, decimals);
  const grouping = style.grouping ?? false;
  const key = `${lang}|${decimals}|${minDecimals}|${grouping}`;
  let format = formatters.get(key);
  if (!format) {
    // `useGrouping: true` means "always" in today's Intl (Spanish 1.234); left out it is the language's own rule (Spanish 1234, 12.345).
    format = new Intl.NumberFormat(lang, { maximumFractionDigits: decimals, minimumFractionDigits: minDecimals, ...(grouping ? {} : { useGrouping: false }) });
    formatters.set(key, format);
  }
  // What rounds to zero is written 0, never -0.
  return format.format(Math.abs(value) < 0.5 * 10 ** -decimals ? 0 : value);
}

const pluralRules = new Map<Lang, Intl.PluralRules>();

/** The form of a plural message for `count`; `other` when the language's category is one the message does not give (Spanish `many`). */
function pluralForm(message: Plural, lang: Lang, count: string | number | undefined): string {
  if (typeof count !== 'number') return message.other;
  let rules = pluralRules.get(lang);
  if (!rules) pluralRules.set(lang, (rules = new Intl.PluralRules(lang)));
  return message[rules.select(count)] ?? message.other;
}

/** The message in that language, its plural form chosen by `values.count`, each {name} filled in (an unknown one left as it is). */
export function t(id: MessageId, lang: Lang, values: Values = {}): string {
  const message = CATALOGUES[lang][id];
  const text = typeof message === 'string' ? message : pluralForm(message, lang, values.count);
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => {
    if (!Object.hasOwn(values, key)) return whole;
    const value = values[key]!;
    return typeof value === 'number' ? formatNumber(value, lang) : value;
  });
}

/** A message as the start of a sentence or a heading: its first letter upper-case, as the language writes it. */
export function sentence(text: string, lang: Lang): string {
  return text.charAt(0).toLocaleUpperCase(lang) + text.slice(1);
}
