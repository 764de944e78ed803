/**
 * The known-violations list, contract/known-violations.json: violations of the
 * schema contract rules that are known, tracked by an issue, and excused until
 * that issue is fixed. The list may only shrink:
 *
 * - a violation no entry covers fails the check, as ever;
 * - a violation an entry covers is reported as known, not as a failure;
 * - an entry that covers no violation any more fails the check (rule
 *   `known-violation-fixed`), asking for the entry to be removed: a fix that
 *   leaves its entry behind would let the same fault come back unnoticed.
 *
 * An entry names a tool and a JSON Pointer into that tool's published
 * definition (never a line number), and covers that subtree: the pointer
 * itself and everything below it, segment by segment
 * (`/inputSchema/properties/verb` covers `/inputSchema/properties/verb/anyOf`,
 * not `/inputSchema/properties/verbose`). It may name one rule, and then
 * covers that rule only. It must cite the issue that tracks the fix ("#12" or
 * a URL) and say why. A malformed list is an error (KnownViolationsError),
 * never a list that excuses nothing or everything.
 *
 *     { "$comment": "...", "entries": [
 *       { "tool": "conjugate", "path": "/inputSchema/properties/verb", "rule": "no-structural-union",
 *         "issue": "#12", "reason": "verb by name or by principal parts; fixed by #12" } ] }
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_CONTRACT } from './contract.js';
import { SCHEMA_RULES, violation, type RuleId, type Violation } from './rules.js';
import { UserError } from '../core/user-error.js';

export const KNOWN_VIOLATIONS_FILE = 'known-violations.json';

/** The list next to the kit's contract: contract/known-violations.json. */
export const DEFAULT_KNOWN = knownFileFor(DEFAULT_CONTRACT);

/**
 * The list that goes with a contract document: the file beside it. A built
 * server carries its contract/ folder (src/lab/variants.ts), list included.
 */
export function knownFileFor(contractFile: string): string {
  return join(dirname(contractFile), KNOWN_VIOLATIONS_FILE);
}

export interface KnownEntry {
  tool: string;
  /** JSON Pointer into the tool's published definition; covers its subtree. */
  path: string;
  /** When given, only violations of this rule are covered. */
  rule?: RuleId;
  /** "#12" or a URL: the issue that tracks the fix. */
  issue: string;
  reason: string;
}

/** A violation an entry of the list covers: reported, not a failure. */
export interface KnownViolation extends Violation {
  issue: string;
  reason: string;
}

export class KnownViolationsError extends UserError {}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

const ENTRY_KEYS = ['tool', 'path', 'rule', 'issue', 'reason'];
const FILE_KEYS = ['$comment', 'entries'];

/**
 * RFC 6901, and inside the tool: "/" followed by segments in which "~" is only
 * ever "~0" or "~1". The empty pointer (the whole tool) is refused: an entry
 * that excused every fault of a tool would excuse the next one too.
 */
export function isJsonPointer(path: unknown): path is string {
  return typeof path === 'string' && /^(\/([^~/]|~[01])*)+$/.test(path);
}

/** Does an entry's pointer cover this violation's pointer? The pointer itself, or below it, segment-aligned. */
export function coversPath(entryPath: string, path: string): boolean {
  return path === entryPath || path.startsWith(`${entryPath}/`);
}

/** "#12", or an http(s) URL. */
export function isIssueCitation(issue: unknown): issue is string {
  if (typeof issue !== 'string') return false;
  if (/^#[1-9][0-9]*$/.test(issue)) return true;
  try {
    const url = new URL(issue);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && issue === issue.trim();
  } catch {
    return false;
  }
}

/**
 * The entries of a parsed list, checked. Every problem is collected and
 * thrown together, each naming the entry (its number, from 1, its tool and
 * path) and the field at fault.
 */
export function parseKnownViolations(document: unknown, file = KNOWN_VIOLATIONS_FILE): KnownEntry[] {
  const fail = (problems: string[]): never => {
    throw new KnownViolationsError(`${file} is not a valid known-violations list:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  };
  if (!isObject(document)) return fail(['it must be an object {"$comment": "...", "entries": [...]}']);
  const problems: string[] = [];
  for (const key of Object.keys(document)) if (!FILE_KEYS.includes(key)) problems.push(`unknown key "${key}" (the list has ${FILE_KEYS.join(' and ')})`);
  if (!Array.isArray(document.entries)) return fail([...problems, '"entries" must be a list (an empty one when nothing is known)']);

  const accepted: { entry: KnownEntry; n: number }[] = [];
  for (const [index, raw] of document.entries.entries()) {
    const n = index + 1;
    if (!isObject(raw)) {
      problems.push(`entry ${n} is not an object`);
      continue;
    }
    const name = `entry ${n} (${typeof raw.tool === 'string' ? raw.tool : '?'} ${typeof raw.path === 'string' ? raw.path : JSON.stringify(raw.path)})`;
    const before = problems.length;
    for (const key of Object.keys(raw)) {
      if (!ENTRY_KEYS.includes(key)) problems.push(`${name}: unknown key "${key}" (an entry has ${ENTRY_KEYS.join(', ')}; it names a JSON Pointer, never a line)`);
    }
    if (typeof raw.tool !== 'string' || raw.tool === '') problems.push(`${name}: "tool" must name the tool`);
    if (!isJsonPointer(raw.path)) {
      problems.push(
        `${name}: "path" ${JSON.stringify(raw.path)} is not a JSON Pointer into the tool's definition (RFC 6901, e.g. "/inputSchema/properties/verb"; "~" written "~0", "/" in a name "~1"; never a line number, never "" for the whole tool)`,
      );
    }
    if ('rule' in raw && !(typeof raw.rule === 'string' && (SCHEMA_RULES as readonly string[]).includes(raw.rule))) {
      problems.push(`${name}: unknown rule ${JSON.stringify(raw.rule)} (one of ${SCHEMA_RULES.join(', ')}; leave "rule" out to cover every rule at the path)`);
    }
    if (!isIssueCitation(raw.issue)) {
      problems.push(
        `${name}: ${'issue' in raw ? `"issue" ${JSON.stringify(raw.issue)} is not an issue citation` : 'no "issue"'}: every known violation must cite the issue that tracks its fix, as "#12" or a URL`,
      );
    }
    if (typeof raw.reason !== 'string' || raw.reason.trim() === '') problems.push(`${name}: "reason" must say why the violation is excused`);
    if (problems.length > before) continue;

    const entry: KnownEntry = { tool: raw.tool as string, path: raw.path as string, issue: raw.issue as string, reason: raw.reason as string };
    if (typeof raw.rule === 'string') entry.rule = raw.rule as RuleId;
    // The same tool and path twice, for the same rule, or one of the two for every rule: one entry is enough.
    const twin = accepted.find(({ entry: e }) => e.tool === entry.tool && e.path === entry.path && (e.rule === entry.rule || e.rule === undefined || entry.rule === undefined));
    if (twin) {
      problems.push(`${name}: a duplicate of entry ${twin.n} (same tool and path${twin.entry.rule && entry.rule ? ' and rule' : ', one of them for every rule'}); keep one`);
      continue;
    }
    accepted.push({ entry, n });
  }
  if (problems.length > 0) fail(problems);
  return accepted.map(({ entry }) => entry);
}

/**
 * Reads the list. A missing file means "no known violations": the list can
 * only excuse, so without it nothing is excused and the check is at its
 * strictest; it cannot make a check pass that would fail. (It also keeps
 * learners' workspaces copied before the list existed checkable.) A file that
 * is there but cannot be read or parsed is an error.
 */
export function loadKnownViolations(file = DEFAULT_KNOWN): KnownEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []; // no list: no known violations
    throw new KnownViolationsError(`cannot read the known-violations list ${file}: ${(error as Error).message}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new KnownViolationsError(`the known-violations list ${file} is not JSON: ${(error as Error).message}`);
  }
  return parseKnownViolations(document, file);
}

function coveredBy(entry: KnownEntry, v: Violation): boolean {
  return entry.tool === v.tool && coversPath(entry.path, v.path) && (entry.rule === undefined || entry.rule === v.rule);
}

/**
 * The violations found, against the list: those it covers are known; the
 * others fail; an entry that covers none fails too, as `known-violation-fixed`.
 * `violations` holds every failure (the uncovered ones, then the stale
 * entries), so that "no violations" stays the one condition for green;
 * `stale` holds the stale entries' violations again, for who wants them apart.
 */
export function applyKnownViolations(found: Violation[], entries: KnownEntry[]): { violations: Violation[]; known: KnownViolation[]; stale: Violation[] } {
  const violations: Violation[] = [];
  const known: KnownViolation[] = [];
  for (const v of found) {
    const entry = entries.find((e) => coveredBy(e, v));
    if (entry) known.push({ ...v, issue: entry.issue, reason: entry.reason });
    else violations.push(v);
  }
  // Named as in a source tree (a learner's workspace, the kit): a built server's copy lives in a cache no one edits.
  const list = `contract/${KNOWN_VIOLATIONS_FILE}`;
  const stale: Violation[] = entries
    .filter((e) => !found.some((v) => coveredBy(e, v)))
    .map((e) =>
      e.rule
        ? violation('known-violation-fixed', e.tool, e.path, 'contract.knownFixedRule', { list, rule: e.rule, tool: e.tool, path: e.path, issue: e.issue })
        : violation('known-violation-fixed', e.tool, e.path, 'contract.knownFixed', { list, tool: e.tool, path: e.path, issue: e.issue }),
    );
  return { violations: [...violations, ...stale], known, stale };
}
