/**
 * The server side of `npm run bench`, run by bench/run.ts as a CHILD process (fork, with IPC) so
 * that autocannon's load generation does not share this event loop.
 *
 * It serves the real application, built by createApp from src/http/app.ts on the generated
 * database, plus ONE extra route in the same Hono app and process: `GET /bench/bare`, a fixed
 * ~2 KB JSON answer with no database, auth or validation behind it. It passes through the same
 * app-wide middleware (request id, request log) as every other route, so it is the ceiling the
 * framework, Node's HTTP stack and the loopback socket allow; run.ts reports every capability as
 * a ratio to it.
 *
 * Logging: level `warn` (createLogger), so the per-request `info` line is skipped. At `info`,
 * every request would write a JSON line to a pipe read by the parent, and that write would be a
 * large share of a sub-millisecond request: the bench would measure logging, not the service.
 *
 * Usage: node --import tsx bench/server.ts DATABASE_URL   (prints nothing; tells the parent
 * `{ type: 'ready', port }` over IPC; answers `{ type: 'cpu' }` with its CPU time so far, and
 * `profile-start` / `profile-stop` (with a file name) by running the V8 CPU profiler; SIGTERM or an
 * IPC `stop` closes it cleanly).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { LastUsedRecorder } from '../src/auth/api-keys.ts';
import { createApp } from '../src/http/app.ts';
import { createLogger } from '../src/logger.ts';
import { openStore } from '../src/store/db.ts';
import { migrate } from '../src/store/migrate.ts';

/** About 2 KB of JSON, shaped like a small capability answer; built once, serialised per request. */
const BARE_BODY = {
  data: {
    rows: Array.from({ length: 9 }, (_, i) => ({
      id: `sov_bare${String(i).padStart(22, '0')}`,
      title: `A fixed row number ${i + 1} of the bare route`,
      summary: 'A fixed sentence that stands in for a theme summary in this benchmark.',
      postCount: 10 + i,
      lastUpdatedAt: '2026-11-20T06:00:00.000Z',
    })),
    totalCount: 9,
    page: 1,
  },
};

async function main(): Promise<void> {
  const databaseUrl = process.argv[2];
  if (!databaseUrl) throw new Error('usage: bench/server.ts DATABASE_URL');
  const logger = createLogger(process.env.BENCH_LOG_LEVEL ?? 'warn');
  const store = openStore(databaseUrl, { onPoolError: (err) => logger.warn({ err: err.message }, 'database connection lost') });
  await migrate(store);
  const lastUsed = new LastUsedRecorder(store.db, 30_000, (err) => logger.warn({ err }, 'could not record key use'));
  const app = createApp({ store, logger, lastUsed });
  app.get('/bench/bare', (c) => c.json(BARE_BODY));

  // Requests still running when the load stops (autocannon drops its sockets mid-request) must
  // finish before the store closes under them. A synchronous answer stays synchronous, so the
  // bare route keeps the adapter's fast path.
  let inFlight = 0;
  const counted: typeof app.fetch = (request, env, ctx) => {
    inFlight += 1;
    let answer: ReturnType<typeof app.fetch>;
    try {
      answer = app.fetch(request, env, ctx);
    } catch (err) {
      inFlight -= 1;
      throw err;
    }
    if (answer instanceof Promise) return answer.finally(() => (inFlight -= 1));
    inFlight -= 1;
    return answer;
  };
  let server!: ReturnType<typeof serve>;
  await new Promise<void>((resolve) => {
    server = serve({ fetch: counted, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close(async () => {
      while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await lastUsed.flush().catch(() => {});
      await store.close();
      // An explicit exit also lets node's own --cpu-prof write its profile, should one be asked for.
      process.exit(0);
    });
    // Idle keep-alive sockets would hold close() open; a request still running finishes first.
    (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // The CPU profiler, switched on and off by the parent around one target's load, so that each
  // profile holds that target's requests only (`npm run bench -- --cpu-prof`).
  let inspector: Session | undefined;
  process.on('message', (message) => {
    const { type, file } = message as { type?: string; file?: string };
    if (type === 'stop') stop();
    if (type === 'profile-start') {
      if (!inspector) {
        inspector = new Session();
        inspector.connect();
      }
      inspector.post('Profiler.enable', () =>
        inspector!.post('Profiler.setSamplingInterval', { interval: 200 }, () => inspector!.post('Profiler.start', () => process.send?.({ type: 'profile-started' }))),
      );
    }
    if (type === 'profile-stop' && inspector && file) {
      inspector.post('Profiler.stop', (err, result) => {
        if (!err) writeFileSync(file, JSON.stringify(result.profile));
        process.send?.({ type: 'profile-stopped', error: err?.message });
      });
    }
    // CPU time used so far (µs): per request, it is steadier than req/s on a shared machine.
    if (type === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ type: 'cpu', micros: user + system });
    }
  });
  // Parent gone (crashed or killed): do not linger.
  process.on('disconnect', stop);
  process.send?.({ type: 'ready', port, bareBytes: JSON.stringify(BARE_BODY).length });
}

main().catch((err) => {
  process.stderr.write(`bench server: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
