/**
 * `signals digest run --project P [--since 24h] [--until T] [--source file:DIR]` (DESIGN §8):
 * one digest run in this process, progress on stderr, a summary on stdout (`--json`: the
 * DigestSummary object). Exit 0 when the run completes, 1 when it cannot start (no such project,
 * another process is running it, bad window or source) or fails (the run is recorded `failed`
 * with the reason, which is printed). SIGINT/SIGTERM fail the run cleanly before exiting.
 */
import pino from 'pino';
import { loadConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import type { Store } from '../store/db.ts';
import { DigestError, runDigest, type DigestProgress, type DigestSummary } from '../ingest/digest/run.ts';
import { sourceFrom } from '../ingest/digest/sources.ts';
import { analyzerFromEnv } from '../ingest/analyze/select.ts';
import { LlmConfigError } from '../ingest/analyze/llm.ts';
import { parseInstant, parseSince, WindowError } from '../ingest/digest/window.ts';
import { UserError } from './errors.ts';

export interface DigestRunArgs {
  projectId: string;
  since?: string;
  until?: string;
  source?: string;
  json: boolean;
}

const PROGRESS_EVERY_MS = 1_000;

export async function digestRun(store: Store, args: DigestRunArgs): Promise<{ summary: DigestSummary; human: string }> {
  const now = new Date();
  let window;
  let source;
  let analyzer;
  try {
    analyzer = analyzerFromEnv(process.env);
    const end = args.until ? parseInstant(args.until, '--until') : now;
    window = { start: parseSince(args.since ?? '24h', end), end };
    const config = loadConfig();
    const live = { db: store.db, settings: config.sources };
    source = (args.source !== undefined ? sourceFrom(args.source, '--source', live) : sourceFrom(config.digest.source, 'DIGEST_SOURCE', live))();
  } catch (err) {
    if (err instanceof WindowError || err instanceof DigestError) throw new UserError(err.message);
    if (err instanceof LlmConfigError) throw new UserError(err.message);
    throw err;
  }

  const abort = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => abort.abort(new Error(`interrupted by ${signal}`));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const progress = progressPrinter(source.name.startsWith('file:') ? 'lines' : 'items');
  try {
    const summary = await runDigest({
      store,
      projectId: args.projectId,
      source,
      window,
      analyzer,
      signal: abort.signal,
      // Silent unless LOG_LEVEL asks: the progress lines and the one-line outcome say it all, and
      // stdout stays the summary's.
      logger: createLogger(process.env.LOG_LEVEL ?? 'silent', pino.destination(2)),
      leaseMs: loadConfig().digest.leaseMs,
      onProgress: progress.update,
    });
    progress.done();
    if (abort.signal.aborted) {
      // The run is recorded failed; a source read still pending (a pipe, a socket) must not keep
      // the process alive after the signal that asked it to stop.
      setTimeout(() => process.exit(1), 1_000).unref();
    }
    if (summary.status === 'failed') {
      // The run was recorded: scripts get its summary (with runId and error) as for a success.
      if (args.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
      throw new UserError(`digest ${summary.runId} failed: ${summary.error}`);
    }
    return { summary, human: describeSummary(summary) };
  } catch (err) {
    if (err instanceof DigestError) throw new UserError(err.message);
    throw err;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

/** One stderr line a second at most, and one at each change of stage. */
function progressPrinter(unit: 'lines' | 'items') {
  let last = 0;
  let stage = '';
  let latest: DigestProgress | undefined;
  let printed: DigestProgress | undefined;
  const print = (p: DigestProgress) => {
    printed = p;
    process.stderr.write(
      `digest: ${p.stage}: ${p.itemsRead.toLocaleString('en-US')} ${unit} read, ${p.postsCollected.toLocaleString('en-US')} posts collected, ` +
        `${p.postsAnalyzed.toLocaleString('en-US')} analyzed, ${p.signalsFound.toLocaleString('en-US')} signals found\n`,
    );
  };
  return {
    update(p: DigestProgress) {
      latest = p;
      const t = Date.now();
      if (p.stage !== stage || t - last >= PROGRESS_EVERY_MS) {
        stage = p.stage;
        last = t;
        print(p);
      }
    },
    done() {
      if (latest && latest !== printed) print(latest);
    },
  };
}

/** `r/SaaS (reddit-rss): 12 threads, 13 requests` or `github: a/b (github): failed: … not found`. */
function describeOutcome(o: DigestSummary['communities'][number]): string {
  const what = o.status === 'ok' ? `${o.threads} thread${o.threads === 1 ? '' : 's'}, ${o.requests} request${o.requests === 1 ? '' : 's'}` : `${o.status === 'skipped' ? 'skipped' : 'FAILED'}: ${o.error}`;
  return [`Community ${o.community}${o.source ? ` (${o.source})` : ''}: ${what}.`, ...(o.notes ?? []).map((n) => `  Note: ${n}`)].join('\n');
}

function describeSummary(s: DigestSummary): string {
  const counts = Object.entries(s.signalCounts)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');
  return [
    `Digest ${s.runId} ${s.status} for ${s.window.label} (${s.source}, ${s.analyzer} analyzer, ${(s.durationMs / 1000).toFixed(1)} s).`,
    `Posts analyzed: ${s.postsAnalyzed}. Signals: ${counts} (${s.signalsAdded} new).`,
    `Themes: ${s.themesCreated} new, ${s.themesUpdated} updated.`,
    ...s.analyzerNotes.map((note) => `Analyzer: ${note}`),
    ...s.communities.map(describeOutcome),
    s.brief ? `Brief ${s.brief.id}: ${s.brief.items} items (briefs.list shows it).` : 'No brief: nothing in this window to report.',
  ].join('\n');
}
