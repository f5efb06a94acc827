/**
 * Where a digest run's threads come from (DESIGN §8, "Collect"). Every source — the `file` source
 * today, Reddit and Hacker News adapters later — yields whole threads (a post with its nested
 * comments) in the bundle's post shape, so the analyzer and the store never know which one ran.
 */
import type { BundlePost } from '../bundle.ts';

/** A post with its comment tree, as stored (`posts` rows) and as analysed. */
export type SourceThread = BundlePost;

export interface CollectRequest {
  /** Watched community names as the memory holds them (`r/LocalLLaMA`, `LocalLLaMA`, `hn`). */
  communities: readonly string[];
  /** Threads whose post was created after this instant (exclusive)… */
  since: Date;
  /** …and at or before this one. */
  until: Date;
  /** Called now and then with what has been read so far (for progress lines on stderr). */
  onProgress?: (progress: CollectProgress) => void;
  signal?: AbortSignal;
}

export interface CollectProgress {
  stage: 'reading' | 'threads';
  /** Input lines (file source) or API items read so far. */
  itemsRead: number;
  /** Threads handed out so far. */
  threads: number;
}

export interface Source {
  /** `file:DIR`, `reddit-rss`, …: what a run records as its source. */
  readonly name: string;
  /** Threads of the window, oldest first, each once. */
  threads(request: CollectRequest): AsyncIterable<SourceThread>;
}

/** `r/LocalLLaMA`, `/r/LocalLLaMA/`, `LocalLLaMA` → `localllama`: how a subreddit is matched. */
export function communityKey(name: string): string {
  return name.trim().replace(/^\/?r\//i, '').replace(/\/+$/, '').toLowerCase();
}
