/** PLACEHOLDER: being written. */
import type { Collect } from './live.ts';
import type { SourceThread } from './source.ts';

// eslint-disable-next-line require-yield
export async function* collectRedditRss(collect: Collect, subreddits: readonly string[]): AsyncGenerator<SourceThread> {
  void collect;
  throw new Error('reddit-rss: not built yet');
}
