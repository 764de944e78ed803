/**
 * The class server's HTTP side: five routes (src/learn/class-wire.ts), the
 * bounds on every request, the rate limits, and the validation of what
 * learners send. `npm run class -- serve` (src/class/serve.ts) starts it.
 *
 * node:http and no framework: five fixed routes need no router, and each
 * bound is a line or two (a Content-Length check and a counted read for the
 * body size, a token bucket for the rate; the connections, per address and
 * in all, with Node's own deadlines, are src/class/connections.ts). A
 * framework would add a dependency and hide exactly the checks this file
 * exists to show.
 *
 * Order of the checks, cheapest and least revealing first: a connection past
 * its address's cap (429, closed); route (404) and method (405); the
 * per-address rate (429) before anything is read; the
 * instructor's token (401) on the instructor's routes; Content-Type (415);
 * the body's size (413: a Content-Length over the limit is refused unread,
 * a longer body is cut off as soon as it passes it); JSON, nested at most
 * MAX_DEPTH deep (400); the per-device limit (429); the join code (403), so
 * that someone without it learns nothing about the schema; then the schema
 * built from the catalogue (ajv), the kit's own label and range checks and
 * the learner's name (400, saying which entry and why, src/class/serve-validate.ts);
 * then the device's secret (403 on an entry; 409 on a join naming a known
 * device without it): issued at its first join, carried by every entry;
 * then the quotas (429, src/class/class-folder.ts QUOTAS). A journal whose
 * lock another process holds is 503 with Retry-After, never waited for.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import type { Lab, Lang } from '../learn/catalogue.js';
import { CODE_PATTERN, DEVICE_PATTERN, LIMITS, type EntriesReply, type EntriesRequest, type JoinReply, type JoinRequest } from '../learn/class-wire.js';
import { JournalBusyError, type JournalEntry } from '../learn/journal.js';
import { validateLearnerName } from '../learn/learner.js';
import { t, type MessageId, type Values } from '../core/messages/index.js';
import { QUOTAS, QuotaReached, type ClassFolder } from './class-folder.js';
import type { LabMeasurement } from './measure.js';
import { projectorState, type ServerMeasurement } from './projector.js';
import { projectorHtml } from './projector-page.js';
import { boundConnections, serverOptions } from './connections.js';
import { buildValidators, depthOf, kitProblem, MAX_DEPTH, Refusal, why } from './serve-validate.js';

export { Refusal } from './serve-validate.js';

// ---------------------------------------------------------------------------
// The projector's page and state: the merge point
// ---------------------------------------------------------------------------

export interface ProjectorInput {
  folder: string;
  lang: Lang;
  /** The revealed labs. */
  revealed: string[];
  /** Measurements of the revealed labs only: a hidden lab's is never sent. */
  measured: Record<string, LabMeasurement>;
}

/**
 * Where GET / and GET /api/state come from: the projector's page
 * (src/class/projector-page.ts, static: it holds no data) and its state
 * (src/class/projector.ts, built from the class folder with the class
 * report's own counting). A revealed lab still being measured is sent as
 * revealed with nothing measured yet; a hidden lab's measurement is never
 * sent.
 */
export function pageAndState(): { page: (lang: Lang) => string; state: (input: ProjectorInput) => unknown } {
  return {
    page: projectorHtml,
    state: (input) => projectorState({ folder: input.folder, lang: input.lang, measured: Object.fromEntries(input.revealed.map((lab) => [lab, shown(input.measured[lab])])) }),
  };
}

/** A lab's measurement as the projector draws it: each question's value over the seeds, with its range. */
function shown(measurement: LabMeasurement | undefined): Record<string, ServerMeasurement> {
  if (!measurement) return {};
  return Object.fromEntries(
    Object.entries(measurement.questions).map(([id, m]) => [id, { value: m.value, ...(m.min !== undefined && m.max !== undefined ? { range: [m.min, m.max] as [number, number] } : {}), seeds: measurement.seeds.length }]),
  );
}

// ---------------------------------------------------------------------------
// Rate limits
// ---------------------------------------------------------------------------

/**
 * A token bucket per client: `capacity` requests at once, then `perSecond`.
 * A learner's command sends one join, or its queue in batches of
 * LIMITS.entriesPerRequest (a day's journal is a few batches), so 20 at once
 * and 4 a second never slow a learner. The per-address cap is for the room:
 * a classroom's NAT, or the end-to-end test's 30 learners on 127.0.0.1, share
 * one address.
 */
export const RATE = {
  device: { capacity: 20, perSecond: 4 },
  address: { capacity: 300, perSecond: 60 },
} as const;

/** How much of an oversized body is read and dropped after the 413, at most, so that the client reads the refusal. */
const LINGER_BYTES = 4 * 1024 * 1024;

class Buckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(private readonly rate: { capacity: number; perSecond: number }) {}

  /** 0 when the request may go on, else the seconds until it may. */
  take(key: string, now = performance.now()): number {
    const bucket = this.buckets.get(key) ?? { tokens: this.rate.capacity, at: now };
    bucket.tokens = Math.min(this.rate.capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.rate.perSecond);
    bucket.at = now;
    if (this.buckets.size > 10_000) this.forgetFull(now);
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return Math.ceil((1 - bucket.tokens) / this.rate.perSecond);
    bucket.tokens -= 1;
    return 0;
  }

  /** Keys whose bucket has refilled carry no state worth keeping: memory stays bounded under a flood of new keys. */
  private forgetFull(now: number): void {
    for (const [key, b] of this.buckets) if (b.tokens + ((now - b.at) / 1000) * this.rate.perSecond >= this.rate.capacity) this.buckets.delete(key);
  }
}

// ---------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------

export interface ClassServerOptions {
  classFolder: ClassFolder;
  labs: readonly Lab[];
  lang: Lang;
  /** Revealed labs' measurements so far (a revealed lab still being measured has none yet). */
  measured: () => Record<string, LabMeasurement>;
  /** The token holder reveals or hides a lab (POST /api/reveal): kept in the class folder before it returns. */
  onReveal: (lab: string, revealed: boolean) => void;
  /** A learner joined: the instructor's terminal says so. */
  onJoin?: (learner: string) => void;
  /** Entries were stored (never a resend, which keep() answers `already`): the instructor's terminal says so. */
  onKept?: (learner: string, entries: readonly JournalEntry[]) => void;
}

/** Each quota as the refusal names it. */
const QUOTA_WORDS = { devicesPerAddress: 'class.serve.quota.devicesPerAddress', devicesPerClass: 'class.serve.quota.devicesPerClass', learnersPerDevice: 'class.serve.quota.learnersPerDevice', journalBytes: 'class.serve.quota.journalBytes' } as const satisfies Record<keyof typeof QUOTAS, MessageId>;

const ROUTES: Record<string, string> = { '/': 'GET', '/api/state': 'GET', '/api/join': 'POST', '/api/entries': 'POST', '/api/reveal': 'POST' };

export function createClassServer(options: ClassServerOptions): Server {
  const { classFolder, lang } = options;
  const say = (id: MessageId, values?: Values) => t(id, lang, values);
  const validators = buildValidators(options.labs);
  const labs = new Map(options.labs.map((lab) => [lab.id, lab]));
  const byAddress = new Buckets(RATE.address);
  const byDevice = new Buckets(RATE.device);
  const token = Buffer.from(classFolder.token);
  const projector = pageAndState();

  const limited = (buckets: Buckets, key: string) => {
    const wait = buckets.take(key);
    if (wait > 0) throw new Refusal(429, say('class.serve.refused.rate', { seconds: wait }), { 'retry-after': String(wait) });
  };

  const checkToken = (req: IncomingMessage) => {
    const given = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    // timingSafeEqual: the time a comparison takes says nothing about how much of the token was right.
    const ok = given !== undefined && Buffer.byteLength(given) === token.length && timingSafeEqual(Buffer.from(given), token);
    if (!ok) throw new Refusal(401, say(given === undefined ? 'class.serve.refused.noToken' : 'class.serve.refused.badToken'));
  };

  const readJson = async (req: IncomingMessage): Promise<unknown> => {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') throw new Refusal(415, say('class.serve.refused.notJson'));
    const tooLarge = (headers: Record<string, string> = {}) => new Refusal(413, say('class.serve.refused.tooLarge', { bytes: LIMITS.bodyBytes }), headers);
    // Declared too large: refused before a byte of it is read, and the connection closed after the reply.
    if (Number(req.headers['content-length'] ?? 0) > LIMITS.bodyBytes) throw tooLarge({ connection: 'close' });
    const body = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let refused = false;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= LIMITS.bodyBytes) return void chunks.push(chunk);
        if (!refused) {
          // Over the limit: nothing more is kept, and the refusal goes out at once.
          refused = true;
          chunks.length = 0;
          reject(tooLarge());
        }
        /*
         * What the client still sends is read and dropped, not kept, until it stops or has sent
         * LINGER_BYTES: closing at once could reset the connection before the client reads the 413
         * (RFC 9112 §9.6, "Tear-down": a server closes in stages, reading on until the client is done).
         */
        if (size > LIMITS.bodyBytes + LINGER_BYTES) req.socket.destroy();
      });
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw new Refusal(400, say('class.serve.refused.badJson'));
    }
    // Before anything walks it recursively (ajv, JSON.stringify): 5,000 levels overflowed the stack (issue 35, D5).
    if (depthOf(parsed) > MAX_DEPTH) throw new Refusal(400, say('class.serve.refused.deep', { levels: MAX_DEPTH }));
    return parsed;
  };

  /** The per-device limit, the join code, the envelope's schema and the learner's name; returns the name, normalised. */
  const member = (body: unknown, validate: ValidateFunction): string => {
    const fields = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    if (typeof fields.device === 'string' && DEVICE_PATTERN.test(fields.device)) limited(byDevice, fields.device);
    const code = typeof fields.code === 'string' ? fields.code.toUpperCase() : '';
    if (!CODE_PATTERN.test(code) || code !== classFolder.code) throw new Refusal(403, say('class.serve.refused.code'));
    if (!validate(body)) throw new Refusal(400, say('class.serve.refused.invalid', { why: why(validate.errors) }));
    try {
      return validateLearnerName(fields.learner as string);
    } catch (error) {
      throw new Refusal(400, (error as Error).message);
    }
  };

  const revealedList = () => Object.keys(classFolder.revealed);
  let cachedState: { key: string; body: string } | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (overCap(req)) throw new Refusal(429, say('class.serve.refused.connections'), { 'retry-after': '1', connection: 'close' });
    const path = (req.url ?? '/').split('?')[0]!;
    const method = ROUTES[path];
    if (method === undefined) throw new Refusal(404, say('class.serve.refused.notFound', { path: path.slice(0, 100) }));
    if (req.method !== method) throw new Refusal(405, say('class.serve.refused.method', { method }), { allow: method });
    limited(byAddress, req.socket.remoteAddress ?? '');
    if (path === '/') {
      // The page holds no data (it asks /api/state with the token), and may fetch nothing from anywhere else.
      send(res, 200, projector.page(lang), { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; img-src data:" });
      return;
    }
    if (path === '/api/state') {
      checkToken(req);
      const revealed = new Set(revealedList());
      const measured = Object.fromEntries(Object.entries(options.measured()).filter(([lab]) => revealed.has(lab)));
      // Built again only when an entry was kept, a lab revealed or measured: a projector polls every few seconds, and reading every journal each time slowed a poll to 0.25 s (issue 35, D4).
      const key = `${classFolder.version}/${Object.keys(measured).sort().join(',')}`;
      if (cachedState?.key !== key) cachedState = { key, body: JSON.stringify(projector.state({ folder: classFolder.folder, lang, revealed: [...revealed], measured })) };
      send(res, 200, cachedState.body, { 'content-type': 'application/json; charset=utf-8' });
      return;
    }
    if (path === '/api/reveal') {
      checkToken(req);
      const body = await readJson(req);
      if (!validators.reveal(body)) throw new Refusal(400, say('class.serve.refused.invalid', { why: why(validators.reveal.errors) }));
      options.onReveal(body.lab, body.revealed);
      sendJson(res, 200, { revealed: revealedList() });
      return;
    }
    const body = await readJson(req);
    if (path === '/api/join') {
      const learner = member(body, validators.join);
      const request = body as JoinRequest;
      // A device id the class knows, without its secret: another laptop's id, refused (issue 35, D2). 409, not 403: the code was right.
      const secret = classFolder.admit(request.device, request.secret, req.socket.remoteAddress ?? '');
      if (secret === undefined) throw new Refusal(409, say('class.serve.refused.device'));
      options.onJoin?.(learner);
      sendJson(res, 200, { class: classFolder.name, revealed: revealedList(), secret } satisfies JoinReply);
      return;
    }
    const learner = member(body, validators.entries);
    const request = body as EntriesRequest;
    if (!classFolder.verify(request.device, request.secret)) throw new Refusal(403, say('class.serve.refused.device'));
    const entries: JournalEntry[] = request.entries;
    entries.forEach((entry, i) => {
      const id = typeof entry.id === 'string' ? entry.id.slice(0, 128) : '?';
      const refuse = (reason: string) => new Refusal(400, say('class.serve.refused.entry', { n: i + 1, id, why: reason }));
      // An entry the server cannot serialise is the sender's to fix: 400, never a 500.
      let size: number;
      try {
        size = Buffer.byteLength(JSON.stringify(entry));
      } catch (error) {
        throw refuse((error as Error).message);
      }
      if (size > LIMITS.entryBytes) throw refuse(say('class.serve.refused.entryTooLarge', { bytes: LIMITS.entryBytes }));
      if (!validators.entry(entry)) throw refuse(why(validators.entry.errors));
      if (Number.isNaN(Date.parse(entry.at))) throw refuse('/at is not a date-time');
      const validate = validators.data.get(`${entry.lab}/${entry.kind}`)!;
      if (!validate(entry.data)) throw refuse(`data${why(validate.errors)}`);
      const problem = kitProblem(labs.get(entry.lab)!, entry, lang);
      if (problem !== undefined) throw refuse(problem);
    });
    // Acknowledged only after every append returned (each fsyncs and renames).
    const kept = classFolder.keep(request.device, learner, entries);
    if (kept.stored.length > 0) {
      const stored = new Set(kept.stored);
      options.onKept?.(learner, entries.filter((e) => stored.has(e.id)));
    }
    sendJson(res, 200, { ...kept, revealed: revealedList() } satisfies EntriesReply);
  };

  let overCap: (req: IncomingMessage) => boolean = () => false;
  const server = createServer(serverOptions, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof Refusal) {
        sendJson(res, error.status, { error: error.message }, error.headers);
        return;
      }
      if (error instanceof QuotaReached) {
        sendJson(res, 429, { error: say('class.serve.refused.quota', { quota: say(QUOTA_WORDS[error.quota], { n: QUOTAS[error.quota] }) }) });
        return;
      }
      // Another process holds that journal's lock: not waited for (the server has one thread for the whole room); the learner's laptop sends again later.
      if (error instanceof JournalBusyError) {
        sendJson(res, 503, { error: say('class.serve.refused.busy') }, { 'retry-after': '1' });
        return;
      }
      // A bug or a disk that refuses: the learner keeps the entry and sends it later.
      process.stderr.write(`${say('class.serve.failed', { error: error instanceof Error ? error.message : String(error) })}\n`);
      if (!res.headersSent) sendJson(res, 500, { error: say('class.serve.failedReply') });
      else res.destroy();
    });
  });
  overCap = boundConnections(server);
  return server;
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string>): void {
  res.writeHead(status, { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  send(res, status, JSON.stringify(value), { 'content-type': 'application/json; charset=utf-8', ...headers });
}
