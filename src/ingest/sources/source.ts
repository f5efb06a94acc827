/**
 * Where a digest run's threads come from (DESIGN §8, "Collect"). Every source — a `file:` dump,
 * or the live sources picked per community (Reddit, Hacker News, Stack Exchange, GitHub,
 * Discourse) — yields whole threads (a post with its nested comments) in the bundle's post shape,
 * so the analyzer and the store never know which one ran.
 */
import type { BundlePost } from '../bundle.ts';
import type { CommunityOutcome } from '../../domain/resources.ts';

export type { CommunityOutcome };

/** A post with its comment tree, as stored (`posts` rows) and as analysed. */
export type SourceThread = BundlePost;

export interface CollectRequest {
  /** Watched community names as the memory holds them (`r/LocalLLaMA`, `LocalLLaMA`, `hn`). */
  communities: readonly string[];
  /**
   * Threads with something new after this instant (exclusive)… A dump's threads are those whose
   * post was created in the window; a live source's are those with a post or comment in it (a
   * thread seen again brings its new comments; known signals are not added twice).
   */
  since: Date;
  /** …and at or before this one. */
  until: Date;
  /** The project collected for: live sources key their cursors by it and search for its names. */
  project?: { id: string; name: string; competitors: readonly string[] };
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
  /** `file:DIR`, `live`, …: what a run records as its source. */
  readonly name: string;
  /** Threads of the window, each once (a dump: oldest first). */
  threads(request: CollectRequest): AsyncIterable<SourceThread>;
  /** Per-community outcomes of the collection so far (live sources). */
  outcomes?(): CommunityOutcome[];
  /** Called once the run has stored every thread it was given: live sources move their cursors. */
  commit?(): Promise<void>;
}


/** `r/LocalLLaMA`, `/r/LocalLLaMA/`, `LocalLLaMA` → `localllama`: how a subreddit is matched. */
export function communityKey(name: string): string {
  return name.trim().replace(/^\/?r\//i, '').replace(/\/+$/, '').toLowerCase();
}
