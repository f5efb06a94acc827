/**
 * One digest run (DESIGN §8): collect a window's threads from a source, analyze them, group the
 * pains into themes, write the brief and record the run. Used by `signals digest run`, by the
 * scheduler inside `signals serve`, and by `signals demo`.
 *
 * - Exactly one run per project at a time, across processes: the run starts by claiming the
 *   project's lease (store/leases.ts) and renews it while it works; losing it aborts the run.
 * - The run record follows DESIGN §4: `queued` when claimed, `running` while collecting, then
 *   `complete`, or `failed` with the reason in `runs.error` and in the log.
 * - Threads are handled in batches (collect → analyze → group → write in one transaction), so
 *   memory holds one batch plus the theme index whatever the input size, and a failure loses at
 *   most the batch in flight.
 * - Re-running a window adds nothing twice: signal ids derive from project + post + kind + quote,
 *   so known signals are skipped (and keep their theme); posts are upserted; the brief's id derives
 *   from the window, so it is replaced, not duplicated.
 */
import { hostname } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../logger.ts';
import { derivedId, newId } from '../../domain/ids.ts';
import type { ProjectMemory, SignalKind } from '../../domain/resources.ts';
import { commentCount } from '../../domain/thread.ts';
import { collectGarbage, enableCollections } from '../heap.ts';
import type { Store } from '../../store/db.ts';
import { competitorKey } from '../../store/competitors.ts';
import {
  competitorThemeIds,
  existingSignalIds,
  mergeThemes,
  nameSizes,
  painThemeDocs,
  pooledPains,
  productNames,
  renameThemes,
  themeSignalsInWindow,
  themesInWindow,
  unthemedPainsInWindow,
  writeDigestBatch,
  type StoredPain,
} from '../../store/digest.ts';
import { toJson } from '../../store/json.ts';
import { claimLease, releaseLease, renewLease } from '../../store/leases.ts';
import { storedCommentIds } from '../../store/posts.ts';
import { getProject } from '../../store/projects.ts';
import { advanceRun, recordRunProgress } from '../../store/runs.ts';
import type { SignalsTable, ThemesTable } from '../../store/schema.ts';
import { upsertBriefs } from '../../store/writes.ts';
import { postRowOf } from '../rows.ts';
import type { Analyzer, AnalyzerRun, FoundSignal } from '../analyze/analyzer.ts';
import { rulesAnalyzer } from '../analyze/rules.ts';
import { familyKey } from '../analyze/products.ts';
import { productKey } from '../analyze/text.ts';
import type { CommunityOutcome, Source, SourceThread } from '../sources/source.ts';
import { buildBrief, LOOSE_CANDIDATES, type RankedTheme } from './brief.ts';
import { NameSizes } from './name-sizes.ts';
import { painContext, POOL_MAX, ThemeGrouper, type PainDoc } from './themes.ts';
import { windowLabel, type Window } from './window.ts';

export const DEFAULT_LEASE_MS = 60_000;
const BATCH_THREADS = 500;
/**
 * Two batches are in memory at once (one analysed while the one before it is written): 10,000
 * comments a batch peaked 30 MB higher than 5,000 on the 3,747-thread backfill, in the same time;
 * 2,500 was slower and no smaller (docs/performance.md, "One worker per spare core").
 */
const BATCH_COMMENTS = 5_000;
/** Threads analysed between two turns of the event loop (a few milliseconds of work). */
const YIELD_EVERY_THREADS = 20;
const RANKED_THEMES = 40;
/** Themes offered to an analyzer that names them (the run's biggest). */
const NAMED_THEMES = 40;
const SIGNALS_PER_RANKED_THEME = 10;

export interface DigestProgress {
  stage: 'reading' | 'analyzing' | 'grouping' | 'briefing';
  /** Input lines (or API items) read by the source. */
  itemsRead: number;
  postsCollected: number;
  postsAnalyzed: number;
  signalsFound: number;
}

export interface DigestOptions {
  store: Store;
  projectId: string;
  source: Source;
  window: Window;
  analyzer?: Analyzer;
  logger?: Logger;
  onProgress?: (progress: DigestProgress) => void;
  /** Aborting fails the run with the signal's reason (e.g. SIGTERM). */
  signal?: AbortSignal;
  /** Lease length; the holder renews it every third of it. */
  leaseMs?: number;
  /** Who holds the lease (default: host:pid:random); shows in the log of a losing process. */
  holder?: string;
  batchThreads?: number;
  /** The run's id (the demo derives it from the window); default a new random one. */
  runId?: string;
  /** Scheduler: do nothing if this window already has a run that did not fail. */
  oncePerWindow?: boolean;
  /** The run's clock (tests, the demo's fixed history). */
  now?: () => Date;
}

export interface DigestSummary {
  runId: string;
  projectId: string;
  status: 'complete' | 'failed';
  source: string;
  analyzer: string;
  window: { start: string; end: string; label: string };
  postsAnalyzed: number;
  signalCounts: Record<SignalKind, number>;
  /** Signals this run stored for the first time (0 when re-running a window). */
  signalsAdded: number;
  themesCreated: number;
  themesUpdated: number;
  /** What the analyzer reported besides signals: a fallback, dropped quotes, a budget reached. */
  analyzerNotes: string[];
  /** Per watched community, what a live collection got (empty for a file source). */
  communities: CommunityOutcome[];
  brief: { id: string; items: number } | null;
  error: string | null;
  durationMs: number;
}

/** The project cannot run a digest as asked: a user error, nothing was recorded. */
export class DigestError extends Error {}

/** Another process holds the project's lease: its run goes on, nothing was recorded here. */
export class DigestBusyError extends DigestError {
  constructor(
    readonly projectId: string,
    readonly heldBy: string | null,
    readonly runId: string | null,
  ) {
    super(`a digest of project ${projectId} is already running${runId ? ` (${runId}${heldBy ? `, held by ${heldBy}` : ''})` : ''}`);
  }
}

export function leaseHolder(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export async function runDigest(options: DigestOptions): Promise<DigestSummary> {
  return (await startDigest(options)).finished;
}

export interface StartedDigest {
  runId: string;
  /** Settles when the run is complete or failed; never rejects once the run has started. */
  finished: Promise<DigestSummary>;
}

/**
 * Checks the project, claims its lease and records the run (`queued`), then does the run's work
 * without waiting for it: the dashboard's "Run now" answers as soon as the run exists, and its
 * runs page shows it going. Throws DigestError (or DigestBusyError) when no run could start.
 */
export async function startDigest(options: DigestOptions): Promise<StartedDigest> {
  const { store, projectId, source, window } = options;
  const now = options.now ?? (() => new Date());
  const analyzer = options.analyzer ?? rulesAnalyzer;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const holder = options.holder ?? leaseHolder();
  const started = Date.now();
  if (window.end.getTime() <= window.start.getTime()) throw new DigestError('the window is empty: --since must be before its end');

  const project = await getProject(store.db, projectId);
  if (!project) throw new DigestError(`no project "${projectId}"`);
  const memory = project.memory;
  if (memory.communities.length === 0) {
    throw new DigestError(`project ${projectId} watches no community yet (add one with memory.edit: add_community)`);
  }

  const runId = options.runId ?? newId('run');
  const claim = await claimLease(store, holder, {
    id: runId,
    projectId,
    windowStart: window.start.toISOString(),
    windowEnd: window.end.toISOString(),
    at: now().toISOString(),
  }, leaseMs, { oncePerWindow: options.oncePerWindow });
  if (!claim.claimed) throw new DigestBusyError(projectId, claim.heldBy, claim.runId);
  for (const expired of claim.expiredRuns) {
    options.logger?.warn({ runId: expired, projectId }, 'digest run failed: its process stopped before finishing (lease expired)');
  }

  return { runId, finished: work() };

  // The run's work, after the claim: every failure from here on is recorded on the run.
  async function work(): Promise<DigestSummary> {
    const log = options.logger?.child({ runId, projectId, source: source.name, analyzer: analyzer.name });
    const abort = new AbortController();
    const onOuterAbort = () => abort.abort(options.signal?.reason ?? new Error('aborted'));
    options.signal?.addEventListener('abort', onOuterAbort, { once: true });
    if (options.signal?.aborted) onOuterAbort();
    const heartbeat = setInterval(() => {
      renewLease(store, projectId, holder, runId, leaseMs)
        .then((ours) => {
          if (!ours) abort.abort(new Error('lost the project lease (another process took over after it expired)'));
        })
        .catch((err: unknown) => log?.warn({ err }, 'could not renew the digest lease; retrying'));
    }, Math.max(50, Math.floor(leaseMs / 3)));
    heartbeat.unref();

    // Before the analyzer starts its workers, so that they can collect too.
    enableCollections();
    const analysis = analyzer.start(memory);
    const work = new RunWork(store, projectId, memory, analysis, options.batchThreads ?? BATCH_THREADS, now);
    const label = windowLabel(window);
    const base = {
      runId,
      projectId,
      source: source.name,
      analyzer: analyzer.name,
      window: { start: window.start.toISOString(), end: window.end.toISOString(), label },
    };
    try {
      await advanceRun(store.db, runId, 'running', {}, now().toISOString());
      log?.info({ window: label }, 'digest run started');
      await work.seed();
      let itemsRead = 0;
      // "reading" until the source hands out its first thread (the file source reads all its input
      // first), then "analyzing": the source's later counts update the figures, not the stage.
      let stage: DigestProgress['stage'] = 'reading';
      const progress = (next: DigestProgress['stage']) => {
        stage = next;
        options.onProgress?.({ stage, itemsRead, postsCollected: work.postsCollected, postsAnalyzed: work.postsAnalyzed, signalsFound: work.signalsFound });
      };
      const threads = source.threads({
        communities: memory.communities.map((c) => c.name),
        since: window.start,
        until: window.end,
        project: { id: projectId, name: memory.name, competitors: memory.competitors.map((c) => c.name) },
        signal: abort.signal,
        onProgress: (p) => {
          itemsRead = p.itemsRead;
          analysis.expect?.(itemsRead);
          progress(stage);
        },
      });
      let sinceYield = 0;
      for await (const thread of abortable(threads, abort.signal)) {
        stage = 'analyzing';
        // Sources that read a local spill and a synchronous SQLite driver resolve everything as
        // microtasks: without a turn of the event loop now and then, no timer fires (the lease
        // renewal starves and the lease expires under a live run) and, inside `signals serve`, no
        // HTTP request is answered until the run ends.
        if (++sinceYield >= YIELD_EVERY_THREADS) {
          sinceYield = 0;
          await nextTurn();
        }
        if (work.add(thread)) {
          // This batch is analysed while the one before it is grouped and written; waiting for
          // that one (not this one) keeps at most two batches in memory.
          const before = work.lastWrite();
          work.flush(abort.signal);
          await before;
          await recordRunProgress(store.db, runId, { signalCounts: work.signalCounts, postsAnalyzed: work.postsAnalyzed });
          // The batch before this one is written: its garbage is all dead now.
          collectGarbage();
          progress('analyzing');
        }
      }
      await work.flush(abort.signal);
      // Before the pool is re-clustered: a run that could read no community fails without
      // touching any theme (re-clustering alone moves pains and renames themes).
      const communities = source.outcomes?.() ?? [];
      nothingCollected(communities);
      progress('grouping');
      await work.settleThemes(abort.signal);
      progress('briefing');
      // The brief reads what the run wrote: a backfill can leave the planner's statistics far behind.
      await store.refreshStatistics();
      const brief = await work.writeBrief(window, label);
      abort.signal.throwIfAborted();
      // Every thread is stored: the live source's cursors may move past them now.
      await source.commit?.();
      const counts = { signalCounts: work.signalCounts, postsAnalyzed: work.postsAnalyzed };
      if (!(await advanceRun(store.db, runId, 'complete', { ...counts, communities }, now().toISOString()))) {
        throw new Error('the run was marked failed while it worked (its lease expired)');
      }
      const summary: DigestSummary = { ...base, ...analysisOf(analysis), status: 'complete', ...counts, communities, ...work.themeCounts(), signalsAdded: work.signalsAdded, brief, error: null, durationMs: Date.now() - started };
      for (const c of communities) if (c.status !== 'ok') log?.warn({ community: c.community, source: c.source, error: c.error }, 'a watched community could not be collected');
      log?.info({ postsAnalyzed: summary.postsAnalyzed, signalCounts: summary.signalCounts, signalsAdded: summary.signalsAdded, brief }, 'digest run complete');
      return summary;
    } catch (err) {
      // A source that broke mid-run: the batches it handed out before are still analysed and
      // written (analysis runs beside the reading, in workers or a slice at a time), so a failure
      // loses only the threads of the batch it interrupted. Not when the run was stopped (SIGTERM,
      // a lost lease): then nothing more may be written.
      if (!abort.signal.aborted) await work.idle();
      // Nothing may still be writing when the run is marked failed: stop the analysis (workers,
      // requests), then let a batch write in progress finish or fail.
      abort.abort(err);
      await analysis.close().catch(() => {});
      await work.idle();
      const reason = abort.signal.reason === err ? describe(err) : describe(abort.signal.reason);
      const counts = { signalCounts: work.signalCounts, postsAnalyzed: work.postsAnalyzed };
      const communities = source.outcomes?.() ?? [];
      await advanceRun(store.db, runId, 'failed', { ...counts, communities, error: reason }, now().toISOString()).catch((e: unknown) =>
        log?.error({ err: e }, 'could not record the digest run as failed'),
      );
      log?.error({ err, reason }, 'digest run failed');
      return { ...base, ...analysisOf(analysis), status: 'failed', ...counts, communities, ...work.themeCounts(), signalsAdded: work.signalsAdded, brief: null, error: reason, durationMs: Date.now() - started };
    } finally {
      clearInterval(heartbeat);
      await analysis.close().catch((err: unknown) => log?.warn({ err }, 'could not close the analyzer'));
      options.signal?.removeEventListener('abort', onOuterAbort);
      await releaseLease(store, projectId, holder, runId).catch((err: unknown) => log?.warn({ err }, 'could not release the digest lease'));
    }
  }
}

/**
 * The source's threads, but an abort ends the wait for the next one at once: a source blocked on
 * a slow network read or a pipe must not keep a SIGTERM'd or lease-less run alive.
 */
export async function* abortable<T>(items: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const iterator = items[Symbol.asyncIterator]();
  try {
    for (;;) {
      signal.throwIfAborted();
      // A listener per wait, removed when the wait ends. (Racing every next() against one
      // long-lived "aborted" promise would leak: each race leaves a reaction on that promise that
      // holds its result, so every thread of the run would stay in memory.)
      const next = await new Promise<IteratorResult<T>>((resolve, reject) => {
        const onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        iterator.next().then(
          (result) => {
            signal.removeEventListener('abort', onAbort);
            resolve(result);
          },
          (err: unknown) => {
            signal.removeEventListener('abort', onAbort);
            reject(err);
          },
        );
      });
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Let the source clean up (temporary files) without waiting on a read that may never end.
    void iterator.return?.()?.catch(() => {});
  }
}

/**
 * A live run in which no community could be read has nothing to report and must not look like a
 * quiet day: it fails, naming each community's reason. One community read is enough to complete.
 */
function nothingCollected(communities: readonly CommunityOutcome[]): void {
  if (communities.length === 0 || communities.some((c) => c.status === 'ok')) return;
  throw new Error(`no watched community could be collected: ${communities.map((c) => `${c.community}: ${c.error ?? c.status}`).join('; ')}`);
}

function analysisOf(analysis: AnalyzerRun): { analyzer: string; analyzerNotes: string[] } {
  const report = analysis.report();
  return { analyzer: report.analyzer, analyzerNotes: report.notes };
}

function describe(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return String(reason);
}

/** The state of one run between batches: pending threads, counts, the theme index. */
class RunWork {
  postsCollected = 0;
  postsAnalyzed = 0;
  signalsFound = 0;
  signalsAdded = 0;
  readonly signalCounts: Record<SignalKind, number> = { pain: 0, competitor: 0, content: 0 };
  private pending: SourceThread[] = [];
  private written: Promise<void> = Promise.resolve();
  private pendingComments = 0;
  private readonly grouper: ThemeGrouper;
  private readonly seenPosts = new Set<string>();
  private readonly spellings = new Map<string, string>();
  private readonly sizes: NameSizes;
  /** This run's signals of each product (competitor key), so a product found to be a model leaves the counts. */
  private readonly mentionsFound = new Map<string, number>();
  private readonly competitorThemes = new Set<string>();
  /** Themes this run founded, and every theme it wrote (created or updated). */
  private readonly themesCreated = new Set<string>();
  private readonly themesTouched = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly projectId: string,
    private readonly memory: ProjectMemory,
    private readonly analysis: AnalyzerRun,
    private readonly batchThreads: number,
    private readonly now: () => Date,
  ) {
    // A theme's id derives from its founding pain's signal id: unique (two posts saying the same
    // sentence found two themes, not one id twice) and the same whichever run founds it.
    this.grouper = new ThemeGrouper((founder) => derivedId('sov', projectId, 'pain', founder.signalId));
    this.sizes = new NameSizes(projectId, memory.competitors.map((c) => c.name));
  }

  /** The project's themes and product spellings as they stand before this run. */
  async seed(): Promise<void> {
    await seedGrouper(this.grouper, this.store, this.projectId);
    for (const id of await competitorThemeIds(this.store.db, this.projectId)) this.competitorThemes.add(id);
    this.sizes.seed(await nameSizes(this.store.db, this.projectId));
    for (const competitor of this.memory.competitors) this.spellings.set(productKey(competitor.name), competitor.name);
    for (const name of await productNames(this.store.db, this.projectId)) {
      if (!this.spellings.has(productKey(name))) this.spellings.set(productKey(name), name);
    }
  }

  /** Takes one collected thread; true when a batch is ready to analyze and write. */
  add(thread: SourceThread): boolean {
    // A source hands out each thread once; this guards a file listing the same post twice.
    if (this.seenPosts.has(thread.id)) return false;
    this.seenPosts.add(thread.id);
    this.postsCollected += 1;
    this.pending.push(thread);
    this.pendingComments += commentCount(thread.comments);
    // Threads vary a thousandfold in size: a batch also ends at a comment budget, so memory
    // holds about the same amount of text whatever the threads.
    return this.pending.length >= this.batchThreads || this.pendingComments >= BATCH_COMMENTS;
  }

  /** The last batch's write (settled when written; rejected if it failed). */
  lastWrite(): Promise<void> {
    return this.written;
  }

  /** Settles once no batch is being analysed or written, whatever the outcome. */
  async idle(): Promise<void> {
    await this.written.catch(() => {});
  }

  /**
   * Starts analysing the pending threads now and writes them once the batches before them are
   * written (in order: grouping is deterministic only in the order threads arrived). Returns the
   * promise of this batch's write.
   */
  flush(signal: AbortSignal): Promise<void> {
    if (this.pending.length === 0) return this.written;
    signal.throwIfAborted();
    const threads = this.pending;
    this.pending = [];
    this.pendingComments = 0;
    const analysed = this.analysis.analyze(threads, signal);
    // Observed through `written`; this keeps an early failure from being reported as unhandled.
    analysed.catch(() => {});
    this.written = this.written.then(async () => this.write(threads, await analysed, signal));
    this.written.catch(() => {});
    return this.written;
  }

  private async write(threads: SourceThread[], analysed: FoundSignal[][], signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const batch = threads.map((thread, i) => ({ thread, found: analysed[i] ?? [] }));
    this.postsAnalyzed += batch.length;
    const at = this.now().toISOString();
    this.sizes.weighPassages(threads, await storedCommentIds(this.store.db, this.projectId, threads.map((t) => t.id)));
    this.learnSpellings(batch.flatMap(({ found }) => found));
    const found = batch.flatMap(({ thread, found }) => found.map((s) => this.signalRow(thread, s)));
    const known = await existingSignalIds(this.store.db, found.map((r) => r.id));
    this.sizes.weighMentions(found.flatMap((r) => (r.kind === 'competitor' && !known.has(r.id) ? [r.competitor!] : [])));
    // Judged after this batch's own counts: a release thread writes "QwQ-32B" next to its first "QwQ".
    const rows = found.filter((r) => r.kind !== 'competitor' || !this.sizes.notAProduct(r.competitor!));
    for (const r of rows) this.count(r);
    const { rows: nameSizes, notProducts: families } = this.sizes.settle();
    const notProducts = this.keysOfFamilies(families);
    for (const key of notProducts) this.forgetProduct(key);
    const fresh = rows.filter((r) => !known.has(r.id));
    const threadsById = new Map(batch.map(({ thread }) => [thread.id, thread]));
    const competitorThemes: ThemesTable[] = [];
    for (const row of fresh) {
      if (row.kind === 'pain') {
        const thread = threadsById.get(row.post_id)!;
        const placement = this.grouper.add({ signalId: row.id, postId: row.post_id, quote: row.quote, context: painContext(thread), at: row.seen_at, community: thread.community });
        row.theme_id = placement.themeId;
      } else if (row.kind === 'competitor' && row.theme_id !== null) {
        if (!this.competitorThemes.has(row.theme_id)) this.themesCreated.add(row.theme_id);
        this.competitorThemes.add(row.theme_id);
        competitorThemes.push(competitorTheme(row.theme_id, this.projectId, row.competitor!, at));
      }
    }
    const assigned = this.takeAssigned(fresh);
    await writeDigestBatch(this.store.db, this.projectId, {
      posts: batch.map(({ thread }) => postRowOf(this.projectId, thread)),
      signals: fresh,
      themes: [...this.changedPainThemes(at), ...new Map(competitorThemes.map((t) => [t.id, t])).values()],
      assigned,
      nameSizes,
      notProducts,
    });
    // Statistics recorded while the tables were nearly empty would plan every later statement
    // from that shape: FTS5's own range reads of its data table became scans, one per segment
    // merge, and a 37,000-thread backfill took 463 s instead of 218 s. Refreshed after each
    // batch, they follow the tables as they grow (docs/performance.md, "Statistics that follow a
    // backfill").
    await this.store.refreshStatistics();
    for (const t of competitorThemes) this.themesTouched.add(t.id);
    this.signalsAdded += fresh.length;
  }

  /**
   * End of the run: the pool is re-clustered (pooled pains join themes that grew, or pair up),
   * and an analyzer that names themes (`llm`) may rename the run's themes and merge duplicates.
   */
  async settleThemes(signal: AbortSignal): Promise<void> {
    this.grouper.recluster();
    const at = this.now().toISOString();
    const themes = this.changedPainThemes(at);
    const assigned = this.takeAssigned([]);
    if (themes.length === 0 && assigned.size === 0) return;
    await writeDigestBatch(this.store.db, this.projectId, { posts: [], signals: [], themes, assigned });
    if (!this.analysis.nameThemes) return;
    const drafts = [...this.themesTouched]
      .map((id) => this.grouper.get(id))
      .filter((t): t is NonNullable<typeof t> => t !== undefined)
      .sort((a, b) => b.posts.size - a.posts.size || (a.id < b.id ? -1 : 1))
      .slice(0, NAMED_THEMES)
      .map((t) => ({ id: t.id, title: this.grouper.title(t), summary: this.grouper.summary(t), posts: t.posts.size, quotes: t.quotes.map((q) => q.quote) }));
    if (drafts.length === 0) return;
    const naming = await this.analysis.nameThemes(drafts, signal);
    signal.throwIfAborted();
    await renameThemes(this.store.db, this.projectId, naming.names);
    await mergeThemes(this.store.db, this.projectId, naming.merges);
    for (const { from, into } of naming.merges) this.grouper.mergeInto(from, into);
  }

  themeCounts() {
    const created = [...this.themesTouched].filter((id) => this.themesCreated.has(id)).length;
    return { themesCreated: created, themesUpdated: this.themesTouched.size - created };
  }

  /** Rows for the pain themes the grouper changed since the last write. */
  private changedPainThemes(at: string): ThemesTable[] {
    return this.grouper.changedThemes().map((theme) => {
      theme.changed = false;
      if (!theme.seeded) this.themesCreated.add(theme.id);
      this.themesTouched.add(theme.id);
      return {
        id: theme.id,
        project_id: this.projectId,
        type: 'pain',
        title: this.grouper.title(theme),
        summary: this.grouper.summary(theme),
        updated_at: at,
        recent_at: at,
        post_count: 0,
        signal_count: 0,
        first_seen_at: null,
        last_seen_at: null,
      };
    });
  }

  /** Pains that left the pool since the last write; those of `fresh` get their theme on the row itself. */
  private takeAssigned(fresh: SignalsTable[]): Map<string, string> {
    const moved = this.grouper.takeReassigned();
    for (const row of fresh) {
      const theme = moved.get(row.id);
      if (theme !== undefined) {
        row.theme_id = theme;
        moved.delete(row.id);
      }
    }
    return moved;
  }

  /** The window's brief, written under an id derived from the window (a re-run replaces it). */
  async writeBrief(window: Window, label: string): Promise<{ id: string; items: number } | null> {
    const start = window.start.toISOString();
    const end = window.end.toISOString();
    const ranked = async (type: 'pain' | 'competitor'): Promise<RankedTheme[]> => {
      const out: RankedTheme[] = [];
      for (const theme of await themesInWindow(this.store.db, this.projectId, type, start, end, RANKED_THEMES)) {
        const signals = await themeSignalsInWindow(this.store.db, theme.themeId, start, end, SIGNALS_PER_RANKED_THEME);
        if (signals.length > 0) out.push({ theme, signals });
      }
      return out;
    };
    const pains = await ranked('pain');
    const rivals = await ranked('competitor');
    const loose = await unthemedPainsInWindow(this.store.db, this.projectId, start, end, LOOSE_CANDIDATES);
    const sections = buildBrief({
      project: { name: this.memory.name, offerings: this.memory.offerings, competitors: this.memory.competitors.map((c) => c.name) },
      pains,
      rivals,
      loose,
      fit: (text, theme) => this.grouper.fit(text, theme.theme.themeId),
      quoteFit: (text, quote) => this.grouper.quoteFit(text, quote),
    });
    const items = sections.reduce((n, s) => n + s.items.length, 0);
    if (items === 0) return null;
    const id = derivedId('brf', this.projectId, start, end);
    await upsertBriefs(this.store.db, [
      { id, project_id: this.projectId, window: label, window_start: start, window_end: end, created_at: this.now().toISOString(), sections: toJson(sections) },
    ]);
    return { id, items };
  }

  private count(row: SignalsTable): void {
    this.signalsFound += 1;
    this.signalCounts[row.kind as SignalKind] += 1;
    if (row.competitor_key !== null) this.mentionsFound.set(row.competitor_key, (this.mentionsFound.get(row.competitor_key) ?? 0) + 1);
  }

  /** The competitor keys of the project's products in these families (every spelling it has named them by). */
  private keysOfFamilies(families: ReadonlySet<string>): string[] {
    if (families.size === 0) return [];
    return [...new Set([...this.spellings.values()].filter((name) => families.has(familyKey(name))).map(competitorKey))];
  }

  /** A product found to be a model family or hardware: its mentions and its theme (dropped by the store in this batch) leave the run's counts. */
  private forgetProduct(key: string): void {
    const found = this.mentionsFound.get(key) ?? 0;
    this.signalsFound -= found;
    this.signalCounts.competitor -= found;
    this.mentionsFound.delete(key);
    const theme = this.competitorThemeId(key);
    this.competitorThemes.delete(theme);
    this.themesCreated.delete(theme);
    this.themesTouched.delete(theme);
  }

  /** A product's competitor theme: one per product, its id derived from the product's key. */
  private competitorThemeId(key: string): string {
    return derivedId('sov', this.projectId, 'competitor', key);
  }

  private signalRow(thread: SourceThread, s: FoundSignal): SignalsTable {
    // learnSpellings has named every product of the batch.
    const competitor = s.competitor === null ? null : (this.spellings.get(productKey(s.competitor)) ?? s.competitor);
    const key = competitor === null ? null : competitorKey(competitor);
    return {
      id: derivedId('sig', this.projectId, thread.id, s.kind, s.quote, key ?? ''),
      project_id: this.projectId,
      post_id: thread.id,
      kind: s.kind,
      quote: s.quote,
      author: s.author,
      // Pains get their theme when grouped; a competitor's complaint joins that product's theme.
      theme_id: s.kind === 'competitor' && s.complaint && key !== null ? this.competitorThemeId(key) : null,
      competitor,
      competitor_key: key,
      seen_at: s.at,
      moves: toJson(s.moves ?? {}),
    };
  }

  /**
   * A product new to the project is named by the spelling its batch uses most ("vLLM" 40 times
   * against one "VLLM" headline), not by whichever came first: that spelling names it from then
   * on, in every signal and in competitors.list. Ties go to the first seen.
   */
  private learnSpellings(found: readonly FoundSignal[]): void {
    const counts = new Map<string, Map<string, number>>();
    for (const s of found) {
      if (s.competitor === null) continue;
      const key = productKey(s.competitor);
      if (this.spellings.has(key)) continue;
      const spellings = counts.get(key) ?? new Map<string, number>();
      spellings.set(s.competitor, (spellings.get(s.competitor) ?? 0) + 1);
      counts.set(key, spellings);
    }
    for (const [key, spellings] of counts) {
      let best: [string, number] | undefined;
      for (const entry of spellings) if (!best || entry[1] > best[1]) best = entry;
      this.spellings.set(key, best![0]);
    }
  }
}

function competitorTheme(id: string, projectId: string, product: string, at: string): ThemesTable {
  return {
    id,
    project_id: projectId,
    type: 'competitor',
    title: `${product} shortcomings`,
    summary: `What people say goes wrong with ${product}: its bugs, gaps and costs as users report them.`,
    updated_at: at,
    recent_at: at,
    post_count: 0,
    signal_count: 0,
    first_seen_at: null,
    last_seen_at: null,
  };
}

/**
 * A grouper holding the project's themes and unthemed pool as they stand in the store: where
 * every run starts, and what a script scoring the grouper's similarities needs.
 */
export async function seedGrouper(grouper: ThemeGrouper, store: Pick<Store, 'db'>, projectId: string): Promise<void> {
  for (const theme of await painThemeDocs(store.db, projectId)) grouper.seed(theme.id, theme.docs.map(painDoc), theme.title);
  for (const pain of await pooledPains(store.db, projectId, POOL_MAX)) grouper.seedPool(painDoc(pain));
}

/** A stored pain as the grouper reads it. */
function painDoc(p: StoredPain): PainDoc {
  return { signalId: p.signalId, postId: p.postId, quote: p.quote, context: painContext(p), at: p.at, community: p.community };
}
