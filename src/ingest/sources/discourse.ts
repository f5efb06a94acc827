/** PLACEHOLDER: being written. */
import type { Collect } from './live.ts';
import type { SourceThread } from './source.ts';

// eslint-disable-next-line require-yield
export async function* collectDiscourse(collect: Collect, base: string, category: string | null): AsyncGenerator<SourceThread> {
  void collect;
  throw new Error('discourse: not built yet');
}
