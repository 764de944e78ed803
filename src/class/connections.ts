/**
 * The class server's connections (issue 35, D1): how many one client address
 * may hold open, and how long a request may take to arrive.
 *
 * Node's own mechanisms do the timing: `headersTimeout` (the request line and
 * headers) and `requestTimeout` (the whole request, body included) close a
 * slow client with a 408, and `connectionsCheckingInterval` is how often
 * Node looks (its default, 30 s, would let a slow client sit ten times
 * longer than the deadline): https://nodejs.org/api/http.html#serverheaderstimeout.
 * `server.maxConnections` bounds the total.
 *
 * What Node has no setting for is a bound per client address, so that one
 * laptop opening hundreds of slow connections cannot spend the total and
 * lock the room out (the D1: 300 slow connections from one address,
 * and a join from another reset). A connection past an address's cap is
 * answered 429 as soon as its request arrives, and closed after at most
 * OVER_CAP_MS however slowly it is sent; past twice the cap it is closed at
 * once, unanswered. So one address holds at most 2 x PER_ADDRESS sockets,
 * and the others always find room.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

export const CONNECTIONS = {
  /** Open at once in all; above it Node refuses new ones (server.maxConnections). */
  total: 256,
  /**
   * Open at once from one address: a quarter of the total. A learner's command
   * holds one connection at a time; a classroom behind one NAT is 30 laptops.
   */
  perAddress: 64,
  /** The request line and headers must have arrived within this (a learner's are one packet). */
  headersMs: 4_000,
  /** The whole request, body included (at most LIMITS.bodyBytes). */
  requestMs: 8_000,
  /** How often Node checks the two deadlines above. */
  checkMs: 250,
} as const;

/** How long a connection past its address's cap may stay to read its 429. */
const OVER_CAP_MS = 1_000;

/** The options createServer takes for the deadlines' checking. */
export const serverOptions = { connectionsCheckingInterval: CONNECTIONS.checkMs } as const;

/**
 * Sets the deadlines and the caps on `server`. Returns the test a request
 * handler makes first: true when the request came on a connection past its
 * address's cap (answer 429 and close).
 */
export function boundConnections(server: Server): (req: IncomingMessage) => boolean {
  server.maxConnections = CONNECTIONS.total;
  server.headersTimeout = CONNECTIONS.headersMs;
  server.requestTimeout = CONNECTIONS.requestMs;
  // An idle kept-alive connection is let go well before the deadlines: it holds a slot of its address.
  server.keepAliveTimeout = 2_000;
  const open = new Map<string, number>();
  const over = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > 2 * CONNECTIONS.perAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
    if (count > CONNECTIONS.perAddress) {
      over.add(socket);
      setTimeout(() => socket.destroy(), OVER_CAP_MS).unref();
    }
  });
  return (req) => over.has(req.socket);
}
