/**
 * `npm run author -- questions <id>`: the lab's runs (server build, client
 * profile, workload: `--runs` sets them in the catalogue) measured over its
 * seeds, baseline and variant, and the figures that move listed with their
 * values on each seed, to write the questions on; `--pick` writes the
 * chosen ones into the catalogue (a path that does not move is refused:
 * its question would ask for the seeds' noise; unless `--unchanged` says
 * that the lesson is that it does not move).
 */
import { existsSync } from 'node:fs';
import { SERVER_BUILDS, type ServerBuild } from '../minimcp/errors.js';
import { breakPatch } from '../lab/variants.js';
import { getProfile, PROFILES } from '../lab/profiles/index.js';
import { WORKLOADS, type Workload } from '../lab/runner.js';
import { loadCatalogue, type LabResults, type LabRun, type Lang, type Question } from '../learn/catalogue.js';
import { LAB_DEFAULTS, runLabSeeds } from '../learn/lab-runs.js';
import { formatNumber, t } from '../core/messages/index.js';
import { UserError } from '../core/user-error.js';
import { candidates, figureFor, movement, type Candidate } from './figures.js';
import { catalogueLab, readCatalogueFile, writeCatalogueFile } from './workspace.js';

/** `name=server/client[/workload][/read-only]`, comma-separated: the lab's runs as the catalogue holds them. */
export function parseRuns(text: string, lang: Lang): LabRun[] {
  return text.split(',').map((part) => {
    const match = /^([\w-]+)=([\w.-]+)\/([\w.-]+)(?:\/([\w-]+))?(\/read-only)?$/.exec(part.trim());
    if (!match) throw new UserError(t('author.badRun', lang, { run: part }));
    const [, name, server, client, workload, readOnly] = match;
    if (!(SERVER_BUILDS as readonly string[]).includes(server!)) throw new UserError(t('author.unknownServer', lang, { server: server!, builds: SERVER_BUILDS.join(', ') }));
    if (!getProfile(client!)) throw new UserError(t('author.unknownClient', lang, { client: client!, clients: PROFILES.map((p) => p.id).join(', ') }));
    if (workload !== undefined && !(WORKLOADS as readonly string[]).includes(workload)) throw new UserError(t('author.unknownWorkload', lang, { workload, workloads: WORKLOADS.join(', ') }));
    return { name: name!, server: server as ServerBuild, client: client!, ...(workload && workload !== 'conjugate' ? { workload: workload as Workload } : {}), ...(readOnly ? { readOnly: true } : {}) };
  });
}

export interface QuestionsOptions {
  runs?: LabRun[];
  seeds?: number;
  pick?: string[];
  ids?: string[];
  prompt?: { en?: string; es?: string };
  unit?: string;
  /** The picked figures are meant not to move (Question.unchanged). */
  unchanged?: boolean;
}

/** Sets the runs and seeds asked for, measures the lab, and writes the picked questions. Returns the figures, moving ones first. */
export async function questions(id: string, options: QuestionsOptions, lang: Lang, onSeed?: (n: number, count: number) => void): Promise<{ candidates: Candidate[]; written: Question[]; seeds: number[] }> {
  const file = readCatalogueFile();
  const entry = catalogueLab(file, id, lang);
  // The variant is built from the break: there is nothing to measure before `break`.
  if (!existsSync(breakPatch(id))) throw new UserError(t('author.noBreakYet', lang, { id }));
  if (options.runs) entry.runs = options.runs;
  if (options.seeds !== undefined) entry.seeds = options.seeds;
  if (options.runs || options.seeds !== undefined) writeCatalogueFile(file);
  const lab = loadCatalogue().find((l) => l.id === id)!;
  const { seeds, perSeed } = await runLabSeeds(lab, LAB_DEFAULTS, onSeed);
  const plain = JSON.parse(JSON.stringify(perSeed)) as LabResults[];
  const found = candidates(plain);
  const written: Question[] = [];
  const picks = options.pick ?? [];
  if (options.ids && options.ids.length !== picks.length) throw new UserError(t('author.idsCount', lang, { picks: picks.length, ids: options.ids.length }));
  for (const [i, path] of picks.entries()) {
    const { figure, kind } = figureFor(path);
    let moved;
    try {
      moved = movement(figure, plain);
    } catch {
      throw new UserError(t('author.pickMissing', lang, { path, id }));
    }
    if (!options.unchanged && !moved.moves) throw new UserError(t('author.pickDoesNotMove', lang, { path, id }));
    if (options.unchanged && moved.moves) throw new UserError(t('author.pickMoves', lang, { path }));
    const questionId = options.ids?.[i] ?? path.replace(/\.runs\.variant\./, '-').replace(/[^\w-]+/g, '-').toLowerCase();
    if (entry.questions.some((q) => q.id === questionId) || written.some((q) => q.id === questionId)) throw new UserError(t('author.questionTaken', lang, { question: questionId, id }));
    const one = picks.length === 1;
    written.push({
      id: questionId,
      kind,
      ...(options.unit ? { unit: options.unit } : {}),
      prompt: { en: one ? (options.prompt?.en ?? '') : '', es: one ? (options.prompt?.es ?? '') : '' },
      figure,
      ...(options.unchanged ? { unchanged: true } : {}),
    });
  }
  if (written.length > 0) {
    // Read again: the runs above took a while, and the file is the instructor's too.
    const now = readCatalogueFile();
    catalogueLab(now, id, lang).questions.push(...written);
    writeCatalogueFile(now);
  }
  return { candidates: found, written, seeds };
}

/** One line per figure: its path, and its values on each seed, baseline then variant. */
export function candidateLine(candidate: Candidate, lang: Lang): string {
  const values = (m: Candidate['movement']['variant']) => m.values.map((v) => (typeof v === 'number' ? formatNumber(v, lang) : v)).join(' ');
  return `${candidate.path}  ${t('author.baselineValues', lang)} ${values(candidate.movement.baseline)}  ${t('author.variantValues', lang)} ${values(candidate.movement.variant)}`;
}
