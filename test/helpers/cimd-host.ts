/**
 * A client's home page for Client ID Metadata Documents, for the end-to-end suites: an https
 * server on localhost (certificate in test/fixtures/tls) serving the document a test sets. The
 * service under test is started with `cimdHostEnv(host)` so that it trusts that certificate
 * (NODE_EXTRA_CA_CERTS, read by Node at start) and may fetch from that private address
 * (FETCH_ALLOW_HOSTS, as an operator allows an intranet host).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

const TLS = new URL('../fixtures/tls/', import.meta.url).pathname;

export interface CimdHost {
  /** The document's URL (= the client_id) for a path. */
  url(path: string): string;
  /** Serves `document` at `path` (JSON, `Cache-Control: no-cache`). */
  serve(path: string, document: Record<string, unknown>): void;
  /** Paths fetched so far. */
  readonly fetched: string[];
  port: number;
  close(): Promise<void>;
}

export async function startCimdHost(): Promise<CimdHost> {
  const documents = new Map<string, string>();
  const fetched: string[] = [];
  const server: Server = createServer({ key: readFileSync(`${TLS}localhost-key.pem`), cert: readFileSync(`${TLS}localhost-cert.pem`) }, (req, res) => {
    fetched.push(req.url ?? '');
    const body = documents.get(req.url ?? '');
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    fetched,
    url: (path) => `https://localhost:${port}${path}`,
    serve: (path, document) => void documents.set(path, JSON.stringify(document)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The environment `signals serve` needs to fetch documents from this host. */
export function cimdHostEnv(host: CimdHost): Record<string, string> {
  return { NODE_EXTRA_CA_CERTS: `${TLS}localhost-cert.pem`, FETCH_ALLOW_HOSTS: `localhost:${host.port}` };
}
