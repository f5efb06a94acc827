/**
 * Worker threads for the `rules` analyzer (issue 10: a backfill must use both cores). A batch is
 * cut into one chunk per worker, balanced by text length, and the chunks' answers are put back
 * in the batch's order, so the result equals analysing in the main thread.
 *
 * Workers start on the first batch that needs them (each loads tsx, wink's model, compromise and
 * the word vectors: about a second) and stop with the run. A worker that dies fails the batch
 * with its reason; the run then fails and says why.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { AnalyzerMemory, FoundSignal } from './analyzer.ts';
import type { SourceThread } from '../sources/source.ts';
import { textLength } from './text.ts';
import { wordVectorBytes } from './vectors.ts';

/** Each worker's young generation (V8's default is 48 MB): see start(). */
const WORKER_YOUNG_GENERATION_MB = 8;

interface Pending {
  resolve: (signals: FoundSignal[][]) => void;
  reject: (err: Error) => void;
}

/**
 * How many workers a run uses: SIGNALS_ANALYZER_WORKERS, else one per core but one, up to 4 (0:
 * none, the main thread reads). The main thread is not idle while workers read: it collects,
 * groups and writes (about a third of a backfill's work), so it counts as one core's worth. On a
 * 2-core machine, a second worker made a 3,747-thread backfill 11% faster and its peak memory
 * about 100 MB larger (three busy threads for two cores: docs/performance.md, "One worker per
 * spare core").
 */
export function workerCount(env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): number {
  const configured = env.SIGNALS_ANALYZER_WORKERS?.trim();
  if (configured) {
    const n = Number(configured);
    if (!Number.isInteger(n) || n < 0 || n > 64) throw new Error(`SIGNALS_ANALYZER_WORKERS "${configured}" is not a whole number from 0 to 64`);
    return n;
  }
  return Math.max(0, Math.min(4, cores - 1));
}

export class RulesWorkerPool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private readonly owed = new Map<Worker, number>();
  private nextId = 0;
  private failure: Error | undefined;

  constructor(
    private readonly size: number,
    private readonly memory: AnalyzerMemory,
  ) {}

  async analyze(threads: readonly SourceThread[]): Promise<FoundSignal[][]> {
    if (this.failure) throw this.failure;
    this.start();
    const chunks = balance(threads, this.workers.length);
    const answers = await Promise.all(chunks.map((chunk, i) => (chunk.length === 0 ? Promise.resolve([]) : this.send(this.workers[i]!, chunk))));
    return answers.flat();
  }

  async close(): Promise<void> {
    // A batch still waiting on a worker fails now rather than waiting forever.
    this.fail(new Error('the analyzer was stopped'));
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.terminate()));
  }

  /** Starts the workers if they are not running (analyze() does too; a run may start them early). */
  start(): void {
    if (this.workers.length > 0) return;
    for (let i = 0; i < this.size; i++) {
      const worker = new Worker(new URL('./rules-worker.mjs', import.meta.url), {
        workerData: { memory: this.memory, vectors: wordVectorBytes() },
        // V8's default young generation (48 MB) per worker is memory the run's peak pays twice
        // over; 8 MB measured 740 instead of 800 MB for a 3,747-thread backfill, in the same time.
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
      });
      worker.on('message', (message: { id: number; signals?: FoundSignal[][]; error?: string }) => {
        const waiting = this.pending.get(message.id);
        if (!waiting) return;
        this.pending.delete(message.id);
        if (message.error !== undefined) waiting.reject(new Error(`analyzer worker: ${message.error}`));
        else waiting.resolve(message.signals!);
      });
      worker.on('error', (err) => this.fail(new Error(`analyzer worker failed: ${err.message}`)));
      worker.on('exit', (code) => {
        if (code !== 0 && this.workers.includes(worker)) this.fail(new Error(`analyzer worker exited with code ${code}`));
      });
      // Idle workers must not keep the process alive (close() ends them at the end of a run).
      worker.unref();
      this.workers.push(worker);
    }
  }

  /**
   * A worker is referenced while it owes an answer (two pipelined batches may both be owed), so a
   * run waiting on it keeps the process alive, and an idle one does not.
   */
  private async send(worker: Worker, threads: SourceThread[]): Promise<FoundSignal[][]> {
    const id = this.nextId++;
    const owed = (this.owed.get(worker) ?? 0) + 1;
    this.owed.set(worker, owed);
    if (owed === 1) worker.ref();
    try {
      return await new Promise<FoundSignal[][]>((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        worker.postMessage({ id, threads });
      });
    } finally {
      const left = this.owed.get(worker)! - 1;
      this.owed.set(worker, left);
      if (left === 0) worker.unref();
    }
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const waiting of this.pending.values()) waiting.reject(err);
    this.pending.clear();
  }
}

/** Consecutive chunks of about equal text length (threads keep their order: chunk i, then i+1). */
function balance(threads: readonly SourceThread[], parts: number): SourceThread[][] {
  const sizes = threads.map((thread) => textLength([thread]));
  const total = sizes.reduce((a, b) => a + b, 0);
  const chunks: SourceThread[][] = Array.from({ length: parts }, () => []);
  let part = 0;
  let filled = 0;
  threads.forEach((thread, i) => {
    if (part < parts - 1 && filled >= (total * (part + 1)) / parts) part += 1;
    chunks[part]!.push(thread);
    filled += sizes[i]!;
  });
  return chunks;
}
