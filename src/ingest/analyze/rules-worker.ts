/**
 * A `rules` analyzer worker (rules-pool.ts): reads the threads it is sent with the memory it was
 * started with and answers their signals, in order. Pure per thread (nlp.ts keeps tagging
 * independent of what was read before), so a worker's answer equals the main thread's.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { AnalyzerMemory } from './analyzer.ts';
import { threadReader } from './rules.ts';
import { collectGarbage } from '../heap.ts';
import { useWordVectorBytes } from './vectors.ts';
import type { SourceThread } from '../sources/source.ts';

const data = workerData as { memory: AnalyzerMemory; vectors: Uint8Array };
// The parent's copy of the word vectors, shared: not a second 22 MB read of the file.
useWordVectorBytes(data.vectors);
const read = threadReader(data.memory);
parentPort!.on('message', (message: { id: number; threads: SourceThread[] }) => {
  try {
    parentPort!.postMessage({ id: message.id, signals: message.threads.map(read) });
    // A chunk's garbage dies with it: collect before the next one (see ../heap.ts).
    collectGarbage();
  } catch (err) {
    parentPort!.postMessage({ id: message.id, error: err instanceof Error ? err.message : String(err) });
  }
});
