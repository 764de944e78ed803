/**
 * The glossary (labs/GLOSSARY.md, GLOSSARY.es.md): each word the lab sheets
 * use, said once. A line of it is a bullet with one or more entries, each
 * its term(s) in bold, then a colon and the definition:
 *
 *   - **Baseline**: the kit's server without the break. **Variant**: with the break.
 *   - **Host**, **client profile** (`--client`): the application between ...
 *
 * Read here so that a page which cannot link to the file (a printed
 * handout) can carry the terms it uses.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../lab/paths.js';
import type { Lang } from './catalogue.js';

export interface GlossaryEntry {
  /** The bold words, as written (backticks kept): "Host", "client profile". */
  terms: string[];
  /** The rest of the entry after its colon, markdown. */
  definition: string;
}

export function glossaryPath(lang: Lang, root = REPO): string {
  return join(root, 'labs', lang === 'en' ? 'GLOSSARY.md' : `GLOSSARY.${lang}.md`);
}

/** An entry's head: bold terms, with ", " or a parenthesis between them, up to the colon. */
const ENTRY = /^((?:\*\*[^*]+\*\*[^:*]*?)+):\s+([\s\S]*)$/;

export function readGlossary(lang: Lang, root = REPO): GlossaryEntry[] {
  const entries: GlossaryEntry[] = [];
  for (const line of readFileSync(glossaryPath(lang, root), 'utf8').split('\n')) {
    if (!line.startsWith('- **')) continue;
    // A second entry on the same line starts with bold right after a sentence ends.
    for (const part of line.slice(2).split(/(?<=\.) (?=\*\*[^*]+\*\*[^:*]*?:)/)) {
      const m = ENTRY.exec(part.trim());
      if (m) entries.push({ terms: [...m[1]!.matchAll(/\*\*([^*]+)\*\*/g)].map((t) => t[1]!), definition: m[2]!.trim() });
    }
  }
  return entries;
}

/** A term as a reader meets it in running text: no backticks, no leading article, lower case. */
function plainTerm(term: string): string {
  return term.replace(/`/g, '').replace(/^(the|el|la|los|las) /i, '').trim().toLowerCase();
}

/**
 * The entries whose terms occur in `text` (plain text, not markdown), in the
 * glossary's order: a term matches as a whole word or words, in any case,
 * singular or plural.
 */
export function termsUsedIn(text: string, entries: GlossaryEntry[]): GlossaryEntry[] {
  const words = text.replace(/`/g, '').replace(/\s+/g, ' ').toLowerCase();
  return entries.filter((entry) =>
    entry.terms.some((term) => {
      const plain = plainTerm(term).replace(/(e?s)$/, '');
      const escaped = plain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      // "retry" is also "retries"; any other word takes an s or es.
      const word = /y$/.test(plain) ? `${escaped.slice(0, -1)}(?:y|ies)` : `${escaped}(?:e?s)?`;
      return new RegExp(`(?<![\\p{L}\\p{N}])${word}(?![\\p{L}\\p{N}])`, 'u').test(words);
    }),
  );
}
