/**
 * The kit's languages. At the bottom of the layers: every front-end (the lab,
 * the learner's path, the reports, workshop mode) speaks them, through the
 * catalogues in ./messages/.
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
