// Entry of a `rules` analyzer worker thread (rules-pool.ts): loads the TypeScript sources through
// tsx, as bin/signals.mjs does, whatever started the main thread.
import { register } from 'tsx/esm/api';

register();
await import('./rules-worker.ts');
