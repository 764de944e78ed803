/**
 * What `npm run sheets` writes for one lab, from one run of its runs over
 * its seeds: labs/<id>/baseline.json, and each sheet with its diffs
 * included from breaks/ and solutions/, its figures region and the figures
 * it quotes. scripts/sheets.ts writes them; `npm run author -- check`
 * compares them with the files (a sheet whose figures do not regenerate
 * is out of date).
 */
import { existsSync, readFileSync } from 'node:fs';
import { LANGS, type Lab, type LabResults, type Lang } from './catalogue.js';
import { baselineFigures, baselinePath, writeBaselineText } from './reference.js';
import { figuresRegion, hasFigures, sheetPath, withFigures, withIncludes, withQuotedFigures } from './sheets.js';

/** A figure quoted in prose: its value in a language, or undefined for a lab not measured this time. */
export type QuotedValue = (lang: Lang) => (labId: string, questionId: string) => string | undefined;

/** The files of one lab as `npm run sheets` writes them: path and text (a sheet that is not there is left out). */
export function labSheetFiles(lab: Lab, perSeed: LabResults[] | undefined, seeds: number[], calls: number, quoted: QuotedValue): { path: string; text: string }[] {
  const files: { path: string; text: string }[] = [];
  if (perSeed) files.push({ path: baselinePath(lab.id), text: writeBaselineText(baselineFigures(lab, perSeed, seeds, calls)) });
  for (const lang of LANGS) {
    const path = sheetPath(lab.id, lang);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, 'utf8');
    let synced = withQuotedFigures(withIncludes(text), quoted(lang));
    if (perSeed && hasFigures(text)) synced = withFigures(synced, figuresRegion(lab, perSeed, seeds, lang));
    files.push({ path, text: synced });
  }
  return files;
}
