/**
 * A local HTTP server that answers with recorded responses (DESIGN §8: sources are tested against
 * replays in the real formats, never the internet). Recordings live in test/fixtures/sources/;
 * they are written by hand from each API's public documentation.
 *
 * Routes are matched in order against `METHOD path?query` (the query as sent, so a test can tell
 * page 1 from page 2). A route's answers are used one per request, the last one repeating: a 429
 * followed by the real page is `[{ status: 429 }, { file: 'page.json' }]`. A request no route
 * matches answers 404 and is kept in `unmatched`, so a test can show the source asked for nothing
 * it should not have.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('../fixtures/sources/', import.meta.url));

export interface Recorded {
  status?: number;
  headers?: Record<string, string>;
  /** A body given inline… */
  body?: string;
  /** …or a recording under test/fixtures/sources/ (`hn/search-page-0.json`). */
  file?: string;
  /** Placeholders in the body replaced before sending (`{{BASE}}` is the server's own URL). */
  replace?: Record<string, string>;
  /** Send only this many bytes of the body, then close the connection (a truncated answer). */
  truncateAt?: number;
  /** Never answer (a timeout). */
  hang?: boolean;
}

export interface Route {
  /** Matched against `METHOD /path?query`: a RegExp, or a string the line must start with. */
  match: RegExp | string;
  answers: Recorded | Recorded[];
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ReplayServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  /** `127.0.0.1:PORT`, as FETCH_ALLOW_HOSTS names it. */
  host: string;
  requests: SeenRequest[];
  unmatched: SeenRequest[];
  close(): Promise<void>;
}

export function recording(file: string): string {
  return readFileSync(FIXTURES + file, 'utf8');
}

export async function startReplay(routes: Route[]): Promise<ReplayServer> {
  const used = routes.map(() => 0);
  const requests: SeenRequest[] = [];
  const unmatched: SeenRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  let base = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: SeenRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(seen);
      const line = `${seen.method} ${seen.url}`;
      const index = routes.findIndex((r) => (typeof r.match === 'string' ? line.startsWith(r.match) : r.match.test(line)));
      if (index < 0) {
        unmatched.push(seen);
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
        return;
      }
      const answers = Array.isArray(routes[index]!.answers) ? (routes[index]!.answers as Recorded[]) : [routes[index]!.answers as Recorded];
      const answer = answers[Math.min(used[index]!, answers.length - 1)]!;
      used[index]! += 1;
      if (answer.hang) return;
      let body = answer.file !== undefined ? recording(answer.file) : (answer.body ?? '');
      for (const [key, value] of Object.entries({ BASE: base, ...answer.replace })) body = body.split(`{{${key}}}`).join(value);
      const bytes = Buffer.from(body, 'utf8');
      const type = answer.file?.endsWith('.xml') ? 'application/atom+xml; charset=UTF-8' : answer.file?.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8';
      if (answer.truncateAt !== undefined) {
        res.writeHead(answer.status ?? 200, { 'content-type': type, ...answer.headers });
        res.write(bytes.subarray(0, answer.truncateAt));
        res.end();
        return;
      }
      res.writeHead(answer.status ?? 200, { 'content-type': type, 'content-length': String(bytes.length), ...answer.headers });
      res.end(bytes);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    host: `127.0.0.1:${port}`,
    requests,
    unmatched,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
