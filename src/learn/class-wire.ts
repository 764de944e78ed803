/**
 * The live class on the wire: what a learner's laptop and the instructor's
 * `npm run class -- serve` say to each other over HTTP. Defined once, here,
 * below both ends: the learner's side (src/learn/class-link.ts) sends, the
 * class server (src/class/serve*.ts) receives.
 *
 * The learner's journal stays the source of truth. What travels is journal
 * entries exactly as written (id and time included), so sending is
 * idempotent: the class keeps an entry once per (device, learner, id), and a
 * second send of the same entry is acknowledged as `already`.
 *
 *   POST /api/join     JoinRequest      -> 200 JoinReply
 *   POST /api/entries  EntriesRequest   -> 200 EntriesReply
 *   GET  /             the projector page (no data in it: it asks /api/state)
 *   GET  /api/state    Authorization: Bearer <token>   -> the projector's state
 *   POST /api/reveal   Authorization: Bearer <token>, RevealRequest -> 200
 *
 * Every refusal is a 4xx with `{ "error": "<one line>" }` (ErrorReply).
 */
import type { JournalEntry } from './journal.js';

/** Entries a learner sends to a class: the ones the room looks at. 'fixed' and 'reset' stay on the laptop. */
export const SENT_KINDS = ['prediction', 'revision', 'run', 'reflection'] as const satisfies readonly JournalEntry['kind'][];
export type SentKind = (typeof SENT_KINDS)[number];

/** How long a learner's command waits for the class, at most, in all: nothing a learner does waits longer on the network. */
export const SEND_TIMEOUT_MS = 1000;

/** Bounds the server enforces (and the learner's side respects, so that a valid journal never hits them). */
export const LIMITS = {
  /** One request's body. */
  bodyBytes: 256 * 1024,
  /** Entries in one POST /api/entries; a longer queue is sent in several. */
  entriesPerRequest: 50,
  /** One entry, as JSON. A run entry of the kit is about 3 KB. */
  entryBytes: 32 * 1024,
  /** A reasoning or reflection text, in characters. */
  textChars: 2000,
} as const;

/** The join code: short enough to read off a projector, from letters and digits nobody confuses (no 0/O, 1/I/L). */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 6;
export const CODE_PATTERN = new RegExp(`^[${CODE_ALPHABET}]{${CODE_LENGTH}}$`);

/** A laptop's id, made once by the learner's side (random, 16 hex digits): two learners called Ana on two laptops stay two. */
export const DEVICE_PATTERN = /^[0-9a-f]{16}$/;

/**
 * A device's secret (issue 35, D2): 32 random bytes, base64url, issued by the
 * class at the device's first join and carried by every later join and
 * entry. The device id names a laptop's folder in the class; the secret
 * proves the sender is that laptop, so that someone who saw an id (or
 * guessed one) cannot write into another learner's journal.
 */
export const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface JoinRequest {
  code: string;
  learner: string;
  device: string;
  /** The device's secret, once the class issued one (a first join has none). */
  secret?: string;
}

export interface JoinReply {
  /** The class's name as the instructor gave it (or the folder's name). */
  class: string;
  /** Labs whose measurement the instructor has revealed. */
  revealed: string[];
  /** The device's secret: issued at its first join, the same one after. */
  secret: string;
}

export interface EntriesRequest {
  code: string;
  learner: string;
  device: string;
  secret: string;
  entries: JournalEntry[];
}

export interface EntriesReply {
  /** Ids newly kept by the class. */
  stored: string[];
  /** Ids the class already had (a resend): acknowledged, not kept twice. */
  already: string[];
  revealed: string[];
}

export interface RevealRequest {
  lab: string;
  /** false hides it again (a reveal pressed too early). */
  revealed: boolean;
}

export interface ErrorReply {
  error: string;
}

/** What a learner's laptop remembers of the class it joined, beside the learner's name: learners/<name>/class.json. */
export interface ClassLinkFile {
  url: string;
  code: string;
  device: string;
  /** The device's secret, from the class's answer to a join (none until the class answered one). */
  secret?: string;
  /** When the learner joined; entries written before it are not sent. */
  joinedAt: string;
}
