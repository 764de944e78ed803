/**
 * The message catalogues (src/core/messages): every id in both languages,
 * the same placeholders in both, plurals and numbers by the language's own
 * rules. The type of es.ts already refuses a missing or extra id; this checks
 * what a type cannot (placeholders, plural forms) and the catalogues as loaded.
 */
import { describe, expect, it } from 'vitest';
import { LANGS } from '../src/core/lang.js';
import { CATALOGUES, formatNumber, t, type Message, type MessageId } from '../src/core/messages/index.js';

const ids = (lang: 'en' | 'es') => Object.keys(CATALOGUES[lang]).sort();

/** Every text a message can be: a string, or each of its plural forms. */
const forms = (message: Message): string[] => (typeof message === 'string' ? [message] : Object.values(message));

const placeholders = (message: Message): string[] => [...new Set(forms(message).flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)))].sort();

describe('the catalogues', () => {
  it('have the same ids in every language, each with text', () => {
    expect(ids('en').length).toBeGreaterThan(100);
    for (const lang of LANGS) {
      expect(ids(lang)).toEqual(ids('en'));
      for (const id of ids(lang)) for (const text of forms(CATALOGUES[lang][id as MessageId])) expect(text.trim(), `${lang} ${id}`).not.toBe('');
    }
  });

  it('use namespaced ids', () => {
    for (const id of ids('en')) expect(id).toMatch(/^(common|build|doctor|learn|lab|page|contract|class|sweep|author)\.[\w.-]+$/);
  });

  it('give every {placeholder} of a message in both languages', () => {
    const differ = ids('en').filter((id) => placeholders(CATALOGUES.en[id as MessageId]).join() !== placeholders(CATALOGUES.es[id as MessageId]).join());
    expect(differ).toEqual([]);
  });

  it('give a plural its other form, and only forms plural rules know', () => {
    for (const lang of LANGS) {
      for (const [id, message] of Object.entries(CATALOGUES[lang])) {
        if (typeof message === 'string') continue;
        expect(message.other, `${lang} ${id}`).toBeTruthy();
        expect(placeholders(message), `${lang} ${id} counts`).toContain('count');
        for (const category of Object.keys(message)) expect(['zero', 'one', 'two', 'few', 'many', 'other']).toContain(category);
      }
    }
  });
});

describe('t()', () => {
  it('picks one or other by the count', () => {
    expect(t('class.journalsCounted', 'en', { count: 1 })).toBe('1 journal counted');
    expect(t('class.journalsCounted', 'en', { count: 2 })).toBe('2 journals counted');
    expect(t('class.journalsCounted', 'en', { count: 0 })).toBe('0 journals counted');
    expect(t('class.journalsCounted', 'es', { count: 1 })).toBe('1 diario contado');
    expect(t('class.journalsCounted', 'es', { count: 2 })).toBe('2 diarios contados');
    expect(t('sweep.workers', 'en', { count: 1 })).toBe('1 worker');
    expect(t('sweep.workers', 'es', { count: 4 })).toBe('4 hilos de trabajo');
  });

  it("falls back to other for a category the message does not give (Spanish 'many')", () => {
    expect(new Intl.PluralRules('es').select(1_000_000)).toBe('many');
    expect(t('class.entries', 'es', { count: 1_000_000 })).toBe('1000000 entradas');
  });

  it('writes numbers as the language does', () => {
    expect(t('learn.numberRange', 'en', { min: 0, max: 2.5 })).toBe('a number from 0 to 2.5');
    expect(t('learn.numberRange', 'es', { min: 0, max: 2.5 })).toBe('un número de 0 a 2,5');
  });

  it('fills in strings as they are and leaves an unknown placeholder visible', () => {
    expect(t('learn.workspaceExists', 'en', { dir: 'a/b' })).toBe('a/b already exists; your edits are there. To start over: npm run lab -- --variant {lab} --reset');
    expect(t('page.learnerN', 'en', { constructor: 'x' })).toBe('learner {n}');
  });
});

describe('formatNumber()', () => {
  it('writes 2.5 in English and 2,5 in Spanish, two decimals at most by default', () => {
    expect(formatNumber(2.5, 'en')).toBe('2.5');
    expect(formatNumber(2.5, 'es')).toBe('2,5');
    expect(formatNumber(1 / 3, 'en')).toBe('0.33');
    expect(formatNumber(2.456, 'es', { decimals: 1 })).toBe('2,5');
  });

  it('pads decimals when asked, so that a column lines up', () => {
    expect(formatNumber(3, 'en', { minDecimals: 2 })).toBe('3.00');
    expect(formatNumber(12.3, 'es', { decimals: 1, minDecimals: 1 })).toBe('12,3');
  });

  it('groups thousands only when asked, by the language (Spanish leaves four digits alone)', () => {
    expect(formatNumber(12345.5, 'en')).toBe('12345.5');
    expect(formatNumber(12345.5, 'en', { grouping: true })).toBe('12,345.5');
    expect(formatNumber(12345.5, 'es', { grouping: true })).toBe('12.345,5');
    expect(formatNumber(1234, 'es', { grouping: true })).toBe('1234');
  });

  it('never writes -0', () => {
    expect(formatNumber(-0.001, 'en')).toBe('0');
    expect(formatNumber(-0, 'es')).toBe('0');
    expect(formatNumber(-0.5, 'es')).toBe('-0,5');
  });
});
