/** `signals serve`: migrate, then serve until SIGINT/SIGTERM, then drain and close cleanly. */
import { serve } from '@hono/node-server';
import { LastUsedRecorder } from '../auth/api-keys.ts';
import { defaultMetadataFetch } from '../auth/cimd.ts';
import type { Config } from '../config.ts';
import { createLogger } from '../logger.ts';
import { openStore } from '../store/db.ts';
import { authSecret } from '../store/settings.ts';
import { openAuth } from '../auth/better-auth.ts';
import { migrate } from '../store/migrate.ts';
import { createApp } from './app.ts';
import { startScheduler } from '../ingest/digest/scheduler.ts';
import { startMemoryBuilder } from '../ingest/memory/build.ts';
import { summarizerFromEnv } from '../ingest/memory/summary.ts';
import { sourceFrom } from '../ingest/digest/sources.ts';
import { analyzerFromEnv } from '../ingest/analyze/select.ts';
import { DigestLauncher } from '../ingest/digest/launcher.ts';

/** `signals serve` could not start (a busy port): said in one line by the CLI. */
export class StartError extends Error {}

export async function runServer(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  const store = openStore(config.databaseUrl, {
    onPoolError: (err) => logger.warn({ err: err.message }, 'database connection lost; the pool will reconnect'),
  });
  const applied = await migrate(store);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  const lastUsed = new LastUsedRecorder(store.db, 30_000, (err) => logger.warn({ err }, 'could not record key use'));
  const auth = await openAuth(store, { secret: await authSecret(store), publicUrl: config.publicUrl, logger, metadataFetch: defaultMetadataFetch(config.fetchAllowHosts) });
  // The daily runs and the dashboard's "Run now" read the same sources with the same analyzer.
  const source = sourceFrom(config.digest.source, 'DIGEST_SOURCE', { db: store.db, settings: config.sources });
  const analyzer = analyzerFromEnv(process.env, logger);
  const launcher = new DigestLauncher({ store, logger, source, analyzer, leaseMs: config.digest.leaseMs });
  const app = createApp({ store, logger, lastUsed, auth, launcher, config: { publicUrl: config.publicUrl, host: config.host, digestHourUtc: config.digest.hourUtc } });

  const scheduler = startScheduler({
    store,
    logger,
    hourUtc: config.digest.hourUtc,
    source,
    analyzer,
    tickMs: config.digest.tickMs,
    leaseMs: config.digest.leaseMs,
  });

  // New projects and refresh requests get their memory from their site (DESIGN §8).
  const summarize = summarizerFromEnv(process.env, logger);
  const memoryBuilder = startMemoryBuilder({ store, logger, fetch: { allowHosts: config.fetchAllowHosts }, ...(summarize ? { summarize } : {}) });

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    logger.info({ url: `http://${config.host}:${info.port}`, publicUrl: config.publicUrl, database: store.location }, 'listening');
  });

  await new Promise<void>((resolve, reject) => {
    // A port in use (or not ours to take) is the operator's to fix: one line, not a stack trace.
    server.once('error', (err: NodeJS.ErrnoException) => {
      const reason = err.code === 'EADDRINUSE' ? `port ${config.port} on ${config.host} is already in use (another signals serve?); pick another with --port or PORT` : err.code === 'EACCES' ? `port ${config.port} on ${config.host} may not be opened by this user` : err.message;
      void Promise.all([scheduler.stop(), memoryBuilder.stop(), launcher.stop()])
        .then(() => store.close())
        .finally(() => reject(new StartError(`cannot listen: ${reason}`)));
    });
    const stop = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      server.close(async () => {
        await Promise.all([scheduler.stop(), memoryBuilder.stop(), launcher.stop()]);
        await lastUsed.flush().catch((err) => logger.warn({ err }, 'could not record key use'));
        await store.close();
        resolve();
      });
      // Idle keep-alive sockets would hold close() open; end them.
      (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}
