/**
 * A source over threads already in memory (the demo's shipped fixture, tests): the window's
 * threads, oldest first, each once — what every source hands out.
 */
import type { Source, SourceThread } from './source.ts';

export function memorySource(name: string, threads: readonly SourceThread[]): Source {
  return {
    name,
    async *threads(request) {
      const inWindow = threads
        .filter((t) => {
          const at = Date.parse(t.postCreatedAt);
          return at > request.since.getTime() && at <= request.until.getTime();
        })
        .sort((a, b) => (a.postCreatedAt < b.postCreatedAt ? -1 : a.postCreatedAt > b.postCreatedAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      for (const thread of inWindow) {
        request.signal?.throwIfAborted();
        yield thread;
      }
    },
  };
}
