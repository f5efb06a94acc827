/**
 * "Run now" (DESIGN §9): a digest started by a person from the dashboard, in this process, with
 * the same sources and analyzer as the daily runs. The run is recorded before `start` returns,
 * so the runs page the person is sent to already shows it; its work goes on in the background,
 * under the project lease like any run (a scheduled run of the same project waits its turn).
 *
 * The window is the last 24 hours, or the last 30 days until the project has a complete run, so that a new
 * project's first brief has something in it.
 */
import type { Logger } from '../../logger.ts';
import type { Store } from '../../store/db.ts';
import { lastCompleteWindowEnd } from '../../store/runs.ts';
import type { Analyzer } from '../analyze/analyzer.ts';
import { startDigest } from './run.ts';
import type { SourceFactory } from './sources.ts';

const HOUR = 3_600_000;
export const RUN_NOW_HOURS = 24;
export const FIRST_RUN_DAYS = 30;

export interface LauncherOptions {
  store: Store;
  logger: Logger;
  source: SourceFactory;
  analyzer?: Analyzer;
  leaseMs?: number;
  now?: () => Date;
}

export interface Launched {
  runId: string;
  window: { start: string; end: string };
}

export class DigestLauncher {
  private readonly running = new Set<Promise<unknown>>();
  private readonly abort = new AbortController();

  constructor(private readonly options: LauncherOptions) {}

  /** Starts a run of the project; throws DigestError / DigestBusyError when none can start. */
  async start(projectId: string): Promise<Launched> {
    const { store, logger } = this.options;
    if (this.abort.signal.aborted) throw new Error('the service is shutting down');
    const end = (this.options.now ?? (() => new Date()))();
    // "First run" is first complete run: after a first try that failed (a source was down) the
    // next one still reaches 30 days back.
    const completedBefore = (await lastCompleteWindowEnd(store.db, projectId)) !== undefined;
    const start = new Date(end.getTime() - (completedBefore ? RUN_NOW_HOURS * HOUR : FIRST_RUN_DAYS * 24 * HOUR));
    const started = await startDigest({
      store,
      projectId,
      source: this.options.source(),
      window: { start, end },
      logger,
      signal: this.abort.signal,
      ...(this.options.analyzer ? { analyzer: this.options.analyzer } : {}),
      ...(this.options.leaseMs ? { leaseMs: this.options.leaseMs } : {}),
    });
    const finished = started.finished
      .catch((err: unknown) => logger.error({ err, projectId, runId: started.runId }, 'digest run started from the dashboard broke off'))
      .finally(() => this.running.delete(finished));
    this.running.add(finished);
    return { runId: started.runId, window: { start: start.toISOString(), end: end.toISOString() } };
  }

  /** Runs still working in this process (tests wait for them). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** Fails the runs in progress cleanly (their error says the service stopped) and waits for them. */
  async stop(): Promise<void> {
    this.abort.abort(new Error('the service is shutting down'));
    await this.idle();
  }
}
