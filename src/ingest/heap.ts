/**
 * A full garbage collection between a digest run's batches (issue 10: a backfill's peak memory).
 *
 * Why by hand: V8 lets a heap grow far past what is alive before it collects (on this 2-core
 * machine the main thread's heap reached 300 MB and each analyzer worker's about as much, with
 * perhaps a third of it live), because collecting less often is faster for short programs. A
 * digest run is a loop of large batches whose garbage dies together at the end of each batch,
 * so a collection there keeps the peak near the live set. Measured over the r/LocalLLaMA export
 * (3,747 threads, `signals digest run`, docs/performance.md): peak RSS 1,015 → 777 MB with two
 * workers (wall time 13.7 → 14.5 s) and 600 → 444 MB in one thread (17.1 s both).
 *
 * `gc` exists only with V8's --expose-gc. Setting the flag at run time is what the V8 API offers
 * for it (`v8.setFlagsFromString`; Node warns that flags changed late may do nothing, and a flag
 * that does nothing only loses the saving). The main thread reaches `gc` through a fresh context,
 * where V8 installs it once the flag is on; isolates created afterwards (the analyzer's worker
 * threads) have it as a global.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;

/** Turns --expose-gc on for this process and the workers started after this call. */
export function enableCollections(): void {
  if (collect !== undefined) return;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('typeof gc === "function" ? gc : null') as (() => void) | null;
    collect = gc;
  } catch {
    collect = null;
  }
}

/**
 * Garbage a batch may leave before it is worth a full collection. Collecting after every batch
 * cost 8–12% of a run's time (each collection marks the ~100 MB that stays alive: the NLP model,
 * the word list) for 735 / 441 MB; 32 MB costs 0–6% for 777 / 444 MB; 96 MB kept only a third
 * of the saving with workers (910 MB).
 */
const SLACK_BYTES = 32 * 1024 * 1024;
let afterLast = 0;

/** A full collection if enabled and the heap grew SLACK_BYTES since the last one. */
export function collectGarbage(): void {
  const gc = collect ?? (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  if (getHeapStatistics().used_heap_size < afterLast + SLACK_BYTES) return;
  gc();
  afterLast = getHeapStatistics().used_heap_size;
}
