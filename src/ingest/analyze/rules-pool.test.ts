/**
 * The `rules` analyzer's worker threads (rules-pool.ts): a batch analysed by two workers gives
 * exactly what the main thread gives, thread by thread, in order — on the real fixture threads;
 * only a backfill's batches go to them, and the main thread reads its batches a slice at a time.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { fixtureThreads } from '../../../test/helpers/reddit-export.ts';
import type { AnalyzerMemory } from './analyzer.ts';
import { rulesAnalyzer, rulesRun, threadReader, type AnalysisPool } from './rules.ts';
import { RulesWorkerPool, workerCount } from './rules-pool.ts';

const MEMORY: AnalyzerMemory = {
  name: 'Quantforge',
  description: '',
  competitors: [{ name: 'Ollama', url: 'https://ollama.com', description: '' }, { name: 'llama.cpp', url: 'https://github.com/ggml-org/llama.cpp', description: '' }],
  offerings: [],
  filterRules: ['ignore memes'],
};
const pool = new RulesWorkerPool(2, MEMORY);
after(() => pool.close());

test('two workers give what the main thread gives, in order', async () => {
  const threads = fixtureThreads();
  const inThread = threads.map(threadReader(MEMORY));
  const inWorkers = await pool.analyze(threads);
  assert.equal(inWorkers.length, threads.length);
  assert.deepEqual(inWorkers, inThread);
  assert.ok(inThread.flat().length > 500);
});

test('the analyzer started early by a backfill (expect) reads small and large batches as the main thread does', async () => {
  const saved = process.env.SIGNALS_ANALYZER_WORKERS;
  process.env.SIGNALS_ANALYZER_WORKERS = '2';
  const run = rulesAnalyzer.start(MEMORY);
  try {
    run.expect?.(100_000);
    const threads = fixtureThreads();
    const read = threadReader(MEMORY);
    // Two threads are read in the main thread (too little text for workers), the rest by the workers.
    assert.deepEqual(await run.analyze(threads.slice(0, 2)), threads.slice(0, 2).map(read));
    assert.deepEqual(await run.analyze(threads), threads.map(read));
  } finally {
    await run.close();
    if (saved === undefined) delete process.env.SIGNALS_ANALYZER_WORKERS;
    else process.env.SIGNALS_ANALYZER_WORKERS = saved;
  }
});

/** A pool that records what it is asked and reads in the main thread. */
function recordingPool(): AnalysisPool & { batches: number; started: number } {
  const read = threadReader(MEMORY);
  const pool = {
    batches: 0,
    started: 0,
    analyze: async (threads: Parameters<AnalysisPool['analyze']>[0]) => {
      pool.batches += 1;
      return threads.map(read);
    },
    start: () => {
      pool.started += 1;
    },
    close: async () => {},
  };
  return pool;
}

test('only a backfill (the source has read 5,000 items) sends its large batches to the workers', async () => {
  const threads = fixtureThreads();
  const read = threadReader(MEMORY);
  // A daily window: one large batch, read in the main thread (a worker would first load for a second).
  const daily = recordingPool();
  const dailyRun = rulesRun(MEMORY, daily);
  dailyRun.expect?.(4_999);
  assert.deepEqual(await dailyRun.analyze(threads), threads.map(read));
  assert.deepEqual({ batches: daily.batches, started: daily.started }, { batches: 0, started: 0 });

  // A backfill: the workers start once the source has read 5,000 items, and take its large batches.
  const backfill = recordingPool();
  const backfillRun = rulesRun(MEMORY, backfill);
  backfillRun.expect?.(5_000);
  assert.equal(backfill.started, 1);
  assert.deepEqual(await backfillRun.analyze(threads.slice(0, 2)), threads.slice(0, 2).map(read));
  assert.equal(backfill.batches, 0, 'two threads are too little text for the workers');
  assert.deepEqual(await backfillRun.analyze(threads), threads.map(read));
  assert.equal(backfill.batches, 1);
});

test('a batch read in the main thread gives the event loop turns, so a server keeps answering', async () => {
  const threads = fixtureThreads();
  let turns = 0;
  const timer = setInterval(() => {
    turns += 1;
  }, 1);
  try {
    assert.deepEqual(await rulesRun(MEMORY, undefined).analyze(threads), threads.map(threadReader(MEMORY)));
  } finally {
    clearInterval(timer);
  }
  // Read in one go, no timer fires until the whole batch is read.
  assert.ok(turns >= 10, `${turns} turns`);
  // A stopped run stops reading at the next turn.
  const stop = new AbortController();
  stop.abort(new Error('stopped'));
  await assert.rejects(rulesRun(MEMORY, undefined).analyze(threads, stop.signal), /stopped/);
});

test('a stopped pool refuses work with a clear reason', async () => {
  const stopped = new RulesWorkerPool(1, MEMORY);
  await stopped.close();
  await assert.rejects(stopped.analyze(fixtureThreads().slice(0, 2)), /the analyzer was stopped/);
});

test('SIGNALS_ANALYZER_WORKERS sets the pool size; a bad value is refused', () => {
  assert.equal(workerCount({ SIGNALS_ANALYZER_WORKERS: '0' }), 0);
  assert.equal(workerCount({ SIGNALS_ANALYZER_WORKERS: '3' }), 3);
  // The main thread is one core's worth of work: one worker per other core, up to 4.
  assert.equal(workerCount({}, 1), 0);
  assert.equal(workerCount({}, 2), 1);
  assert.equal(workerCount({}, 8), 4);
  assert.equal(workerCount({ SIGNALS_ANALYZER_WORKERS: '1' }, 8), 1);
  assert.throws(() => workerCount({ SIGNALS_ANALYZER_WORKERS: 'many' }), /SIGNALS_ANALYZER_WORKERS "many"/);
});
