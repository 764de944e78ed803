/**
 * What a catalogue holds. A message is a string, or a plural: one text per
 * plural category of the language (Intl.PluralRules), chosen by the `count`
 * value. `other` is required because every language has it and the lookup
 * falls back to it (Spanish has `many` for a million; the kit need not say it).
 * Apart from the types, nothing here: the catalogues import only this file.
 */
export interface Plural {
  zero?: string;
  one?: string;
  two?: string;
  few?: string;
  many?: string;
  other: string;
}

export type Message = string | Plural;
