/**
 * The kit's languages, and the one way a message table is looked up. At the
 * bottom of the layers: every front-end (the lab, the learner's path, the
 * reports, workshop mode) speaks through this.
 *
 * `--lang` wins; otherwise the locale (LC_ALL, LC_MESSAGES, LANG) decides:
 * "es_*" is Spanish, anything else English.
 */
export type Lang = 'en' | 'es';
export const LANGS: readonly Lang[] = ['en', 'es'];

export function isLang(value: string): value is Lang {
  return (LANGS as readonly string[]).includes(value);
}

export function detectLang(env: NodeJS.ProcessEnv = process.env): Lang {
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return /^es([_.-]|$)/i.test(locale) ? 'es' : 'en';
}

/** A message table's lookup: the text in that language, with each {name} filled in. Shared by every table of the kit. */
export function translator<K extends string>(messages: Record<K, Record<Lang, string>>) {
  return (id: K, lang: Lang, values: Record<string, string | number> = {}): string =>
    messages[id][lang].replace(/\{(\w+)\}/g, (_m, key: string) => String(values[key] ?? `{${key}}`));
}

/** A number as the language writes it: 2.5 in English, 2,5 in Spanish. */
export function formatNumber(value: number, lang: Lang, digits = 2): string {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: digits, useGrouping: false }).format(value);
}
