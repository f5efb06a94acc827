// Entry of a `rules` analyzer worker thread (rules-pool.ts): loads the TypeScript sources through
// tsx, whatever started the main thread.
//
// Why tsx's CommonJS hook and not its ESM loader (as bin/signals.mjs uses): on Node 20, an ESM
// loader registered from a worker runs in a hooks thread of its own, a third V8 heap with tsx and
// esbuild loaded for each worker. The CommonJS hook transforms in the worker's own thread. The
// worker's modules are plain TypeScript without top-level await, so they load either way;
// rules-pool.test.ts checks a worker's answers equal the main thread's. 28 MB less at the peak
// of a 3,747-thread backfill (docs/performance.md, "One worker per spare core").
import { register } from 'tsx/cjs/api';

register({ namespace: 'rules-worker' }).require('./rules-worker.ts', import.meta.url);
