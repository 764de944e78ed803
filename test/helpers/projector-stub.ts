/**
 * A stand-in for `npm run class -- serve` as the projector page sees it
 * (test/projector.test.ts, test/presenter.test.ts): the three routes the page
 * uses (GET /, GET /api/state with the token, POST /api/reveal), answered from
 * projectorState on a class folder, every request kept for the test to read.
 * A reveal puts the lab's measurement, as the test gives it, in the state.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { projectorHtml } from '../../src/class/projector-page.js';
import { projectorState, type Measurements } from '../../src/class/projector.js';
import type { Lang } from '../../src/learn/catalogue.js';

export const TOKEN = 'tok-3f9a1c';

/** What the class server measured itself at broken-schema's reveal (made up, and unlike the learners' 42, so a leak would show). */
export const SERVER_MEASURED: Measurements = {
  'broken-schema': {
    'missing-arguments': { value: 37.25, range: [35, 40], seeds: 3 },
    'dominant-failure': { value: 'rpc:-32603', seeds: 3 },
    'dominant-failure-mcpserver': { value: 'isError', seeds: 3 },
    'retries-per-failing-call': { value: 3, range: [3, 3], seeds: 3 },
    'ok-drop-low-level': { value: 13.33, range: [10, 16.67], seeds: 3 },
    'ok-drop-mcpserver': { value: 3.33, range: [0, 6.67], seeds: 3 },
  },
};

export interface Stub {
  url: string;
  server: Server;
  measured: Measurements;
  seen: { method: string; url: string; authorization?: string; body?: string }[];
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => resolve(text));
  });
}

/** The stub on 127.0.0.1, on a free port; `serverMeasured` is what a reveal of each lab shows. */
export async function startStub(folder: string, lang: Lang, serverMeasured: Measurements): Promise<Stub> {
  const stub: Stub = { url: '', server: undefined as never, measured: {}, seen: [] };
  stub.server = createServer(async (req, res) => {
    const text = req.method === 'POST' ? await body(req) : undefined;
    stub.seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body: text });
    const path = new URL(req.url!, 'http://x').pathname;
    if (req.method === 'GET' && path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(projectorHtml(lang));
      return;
    }
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'no or wrong token' }));
      return;
    }
    if (req.method === 'GET' && path === '/api/state') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(projectorState({ folder, lang, measured: stub.measured })));
      return;
    }
    if (req.method === 'POST' && path === '/api/reveal') {
      const { lab, revealed } = JSON.parse(text!) as { lab: string; revealed: boolean };
      if (revealed) stub.measured[lab] = serverMeasured[lab]!;
      else delete stub.measured[lab];
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => stub.server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(stub.server.address() as AddressInfo).port}`;
  return stub;
}
