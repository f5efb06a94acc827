/**
 * What an analyzer makes of one thread (DESIGN §8, "Analyze"). Two analyzers will sit behind this
 * interface: `rules` (default: offline, deterministic) and later `llm`. Both return quotes copied
 * verbatim from the thread, so every signal can be checked against its source.
 */
import type { ProjectMemory, SignalKind } from '../../domain/resources.ts';
import type { SourceThread } from '../sources/source.ts';

export interface Move {
  title: string;
  body: string;
}

export interface FoundSignal {
  kind: SignalKind;
  /** A verbatim slice of the post's title or text or of one comment. */
  quote: string;
  author: string;
  /** When the quoted post or comment was written (ISO): the signal's `seenAt`. */
  at: string;
  /** The product, for `competitor` signals (its display name); null otherwise. */
  competitor: string | null;
  /** For pains: a content move (what to write or do about it). */
  moves: { content: Move } | null;
  /** For `competitor` signals: the sentence also voices a complaint (the product's weakness). */
  complaint: boolean;
}

/** What the analyzer needs to know of the project: who its competitors are, what to ignore. */
export type AnalyzerMemory = Pick<ProjectMemory, 'name' | 'competitors' | 'offerings' | 'filterRules'>;

export interface Analyzer {
  readonly name: string;
  analyze(thread: SourceThread, memory: AnalyzerMemory): FoundSignal[];
}
