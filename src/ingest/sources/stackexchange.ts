/** PLACEHOLDER: being written. */
import type { Collect } from './live.ts';
import type { SourceThread } from './source.ts';

// eslint-disable-next-line require-yield
export async function* collectStackExchange(collect: Collect, site: string, tags: readonly string[]): AsyncGenerator<SourceThread> {
  void collect;
  throw new Error('stackexchange: not built yet');
}
