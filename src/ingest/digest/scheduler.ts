/**
 * The daily digest inside `signals serve` (DESIGN §8): every tick, for each project that watches a
 * community, run the window that ended at the latest `DIGEST_HOUR_UTC:00` unless that slot already
 * has a run (complete, in progress, or failed MAX_ATTEMPTS times) or closed before the project
 * was created. The window starts where the
 * project's last complete run ended (at most MAX_CATCH_UP back), else one day before the slot.
 *
 * Several processes may run this against one PostgreSQL: the project lease decides which one
 * runs a slot (the others get DigestBusyError and move on). The "slot already has a run" check is
 * repeated inside the lease claim (`oncePerWindow`), because a fast run can start and finish
 * between another process's first check and its claim. Each tick also sweeps expired leases, so a
 * run whose process was killed reads `failed` within one tick plus the lease length, and is retried.
 */
import type { Logger } from '../../logger.ts';
import type { Store } from '../../store/db.ts';
import { sweepExpiredLeases } from '../../store/leases.ts';
import { lastCompleteWindowEnd, runsEndingAt } from '../../store/runs.ts';
import type { SourceFactory } from './sources.ts';
import type { Analyzer } from '../analyze/analyzer.ts';
import { DigestBusyError, DigestError, runDigest } from './run.ts';
import { startTicker, type Ticker } from '../ticker.ts';

const DAY = 86_400_000;
/** A slot that failed this many times is left for a person to look at (`signals digest run`). */
export const MAX_ATTEMPTS = 3;
/**
 * After downtime, one run covers the days since the last complete run if that ended at most this
 * long ago; after a longer gap it covers one day, and older days are backfilled by hand
 * (`signals digest run --since`), so one scheduled run never turns into a surprise backfill.
 */
const MAX_CATCH_UP = 7 * DAY;

export interface SchedulerOptions {
  store: Store;
  logger: Logger;
  /** Hour of the day (UTC) a project's daily window closes. */
  hourUtc: number;
  /** Where each run's threads come from (live by default; `DIGEST_SOURCE=file:DIR` reads a dump). */
  source: SourceFactory;
  /** The analyzer of every scheduled run (default `rules`). */
  analyzer?: Analyzer;
  tickMs?: number;
  leaseMs?: number;
  now?: () => Date;
}

/** stop() also fails a run in progress cleanly before waiting for the pass to end. */
export type Scheduler = Ticker;

/** The latest slot at or before `now`: today's HOUR:00 UTC, or yesterday's if that is still ahead. */
export function latestSlot(now: Date, hourUtc: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hourUtc);
  return new Date(today <= now.getTime() ? today : today - DAY);
}

export function startScheduler(options: SchedulerOptions): Scheduler {
  const { store, logger } = options;
  const now = options.now ?? (() => new Date());
  const log = logger.child({ component: 'digest-scheduler' });
  const abort = new AbortController();

  const tick = async () => {
    for (const failed of await sweepExpiredLeases(store, now().toISOString())) {
      log.warn(failed, 'digest run failed: its process stopped before finishing (lease expired)');
    }
    const slot = latestSlot(now(), options.hourUtc);
    const projects = await store.db.selectFrom('projects').select(['id', 'created_at']).where('communities', '!=', '[]').orderBy('id').execute();
    for (const project of projects) {
      if (abort.signal.aborted) return;
      // A project's first daily run is the first slot after it was created ("the first digest
      // runs at 06:00 UTC — or run it now"): a slot that closed before it existed is not its to
      // run, and running it at once would take the 30-day window of its first "Run now".
      if (project.created_at > slot.toISOString()) continue;
      const runs = await runsEndingAt(store.db, project.id, slot.toISOString());
      if (runs.some((r) => r.status !== 'failed') || runs.length >= MAX_ATTEMPTS) continue;
      const last = await lastCompleteWindowEnd(store.db, project.id);
      const start = last && Date.parse(last) >= slot.getTime() - MAX_CATCH_UP && Date.parse(last) < slot.getTime() ? new Date(last) : new Date(slot.getTime() - DAY);
      try {
        const summary = await runDigest({ store, projectId: project.id, source: options.source(), window: { start, end: slot }, analyzer: options.analyzer, logger, leaseMs: options.leaseMs, signal: abort.signal, oncePerWindow: true });
        if (summary.status === 'failed') log.warn({ projectId: project.id, runId: summary.runId, attempt: runs.length + 1 }, 'scheduled digest failed');
      } catch (err) {
        if (err instanceof DigestBusyError) log.debug({ projectId: project.id }, err.message);
        else if (err instanceof DigestError) log.warn({ projectId: project.id }, err.message);
        else log.error({ err, projectId: project.id }, 'scheduled digest could not start');
      }
    }
  };

  const ticker = startTicker(tick, options.tickMs ?? 60_000, (err) => log.error({ err }, 'digest scheduler tick failed'));
  return {
    tick: ticker.tick,
    async stop() {
      abort.abort(new Error('the service is shutting down'));
      await ticker.stop();
    },
  };
}
