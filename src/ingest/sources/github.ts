/** PLACEHOLDER: being written. */
import type { Collect } from './live.ts';
import type { SourceThread } from './source.ts';

// eslint-disable-next-line require-yield
export async function* collectGithub(collect: Collect, owner: string, repo: string): AsyncGenerator<SourceThread> {
  void collect;
  throw new Error('github: not built yet');
}
