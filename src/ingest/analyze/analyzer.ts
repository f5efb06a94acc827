/**
 * What an analyzer makes of threads (DESIGN §8, "Analyze"). Two analyzers sit behind this
 * interface: `rules` (default: offline, deterministic) and `llm` (an OpenAI-compatible endpoint,
 * opt-in). Both return quotes copied verbatim from one post or comment, so every signal can be
 * checked against its source.
 *
 * An analyzer is started once per digest run (`start`): the run's state lives in the returned
 * AnalyzerRun — the `llm` analyzer's token budget and fallback, the `rules` analyzer's worker
 * threads — and is released by `close`. Threads arrive in batches (the run's write batches), and
 * analysis is asynchronous, so a network analyzer can batch requests and a CPU-bound one can use
 * other cores.
 */
import type { ProjectMemory, SignalKind } from '../../domain/resources.ts';
import type { SourceThread } from '../sources/source.ts';

export interface Move {
  title: string;
  body: string;
}

/** Move kinds a pain can carry (DESIGN §8, "Brief"): `content` always, the others when they fit. */
export type Moves = { content: Move } & Partial<Record<'offer' | 'pricing' | 'roadmap' | 'position', Move>>;

export interface FoundSignal {
  kind: SignalKind;
  /** A verbatim slice of the post's title or text or of one comment. */
  quote: string;
  author: string;
  /** When the quoted post or comment was written (ISO): the signal's `seenAt`. */
  at: string;
  /** The product, for `competitor` signals (its display name); null otherwise. */
  competitor: string | null;
  /** For pains: the suggested moves (what to write or do about it). */
  moves: Moves | null;
  /** For `competitor` signals: the sentence also voices a complaint (the product's weakness). */
  complaint: boolean;
}

/** What the analyzer needs to know of the project: who its competitors are, what to ignore. */
export type AnalyzerMemory = Pick<ProjectMemory, 'name' | 'description' | 'competitors' | 'offerings' | 'filterRules'>;

/** A theme as the grouper drafted it, offered to an analyzer that can name and merge themes. */
export interface ThemeDraft {
  id: string;
  title: string;
  summary: string;
  /** Distinct posts behind it so far. */
  posts: number;
  /** Its most characteristic quotes (a handful). */
  quotes: string[];
}

export interface ThemeNaming {
  /** Better titles and summaries, for some of the drafts (ids from the drafts). */
  names: { id: string; title: string; summary: string }[];
  /** Drafts judged to be the same problem: `from` joins `into` (both ids from the drafts). */
  merges: { from: string; into: string }[];
}

/** What a run's analysis did besides finding signals, recorded with the run. */
export interface AnalyzerReport {
  /** The analyzer that produced the signals: `rules`, `llm`, or `llm+rules` after a fallback. */
  analyzer: string;
  /** Plain sentences for the run summary: fallbacks, dropped quotes, budget reached. */
  notes: string[];
}

export interface AnalyzerRun {
  /** Signals of each thread, in the threads' order. Deterministic for `rules`. */
  analyze(threads: readonly SourceThread[], signal?: AbortSignal): Promise<FoundSignal[][]>;
  /**
   * The source has read this many items and is still reading: an analyzer that runs in parallel
   * may start its workers now, so they load while the input is read (`rules` with workers).
   */
  expect?(itemsRead: number): void;
  /** Present when the analyzer can name and merge themes (`llm`); the grouper's drafts otherwise stand. */
  nameThemes?(drafts: readonly ThemeDraft[], signal?: AbortSignal): Promise<ThemeNaming>;
  report(): AnalyzerReport;
  /** Frees what the run holds (workers, sockets). Safe to call twice. */
  close(): Promise<void>;
}

export interface Analyzer {
  readonly name: string;
  start(memory: AnalyzerMemory): AnalyzerRun;
}
