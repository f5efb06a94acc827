import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

export interface Served {
  base: string;
  port: number;
  close(): Promise<void>;
}

/** Serves a Hono app (anything with `fetch`) on a free loopback port over a real socket. */
export async function serveApp(app: { fetch: (request: Request) => Response | Promise<Response> }): Promise<Served> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  return { base: `http://127.0.0.1:${port}`, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
