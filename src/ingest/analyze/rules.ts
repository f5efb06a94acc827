/**
 * The `rules` analyzer (DESIGN §8.2): offline, deterministic, no model download. It reads a
 * thread sentence by sentence (title, post text, every comment), tags each sentence with wink-nlp
 * (nlp.ts) and keeps:
 *
 * - `pain`: a sentence in which the writer has a problem (pain.ts), with moves that fit its kind
 *   (moves.ts); a thread keeps its strongest pains, so one long thread cannot flood a brief;
 * - `content`: a question asking how to do something ("How do I…?", "Is there a way to…?");
 * - `competitor`: a product the sentence names (products.ts): the memory's competitors anywhere,
 *   other names only in a product context; `complaint` when the sentence is also a pain and does
 *   not name the product only as what something else is compared with ("worse than GLM").
 *
 * Every quote is a verbatim slice of one post or comment. Sentences that hit a filter rule of the
 * memory ("ignore …", "exclude …") are dropped, and so is the whole thread when its title does.
 * The same threads, read in the same order with the same memory, always give the same signals in
 * the same order; a thread's own signals can (very rarely) depend on what the tagger read before
 * it (nlp.ts, "Determinism").
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SourceThread } from '../sources/source.ts';
import type { Analyzer, AnalyzerMemory, AnalyzerRun, FoundSignal } from './analyzer.ts';
import { movesFor } from './moves.ts';
import { tag } from './nlp.ts';
import { deniesProblem, isHowTo, leakAsNews, mistakesOneForAnother, negatesAnotherVerb, PAIN_HINT, readCues, reportsFixed } from './pain.ts';
import type { Features } from './linear-model.ts';
import { commentPainGate, isPain, painFeatures, painModel, type SentenceEvidence, type SentencePlace } from './pain-model.ts';
import { wordVectors } from './vectors.ts';
import { productMatcher, trackedProducts, type ProductMatcher } from './products.ts';
import { RulesWorkerPool, workerCount } from './rules-pool.ts';
import { comparedOnly, excludedPhrases, mentionsAny, passages, productKey, readingPieces, sentences, shorten, textLength } from './text.ts';

const MAX_QUOTE = 300;
const MIN_QUESTION = 15;
/** Per thread: enough to see its main points, not so many that one thread floods a brief. */
const MAX_PER_KIND = { pain: 4, content: 2 } as const;

export { productKey };

/**
 * Batches with less text than this are read in the main thread even in a backfill: starting
 * workers (about a second each) would cost more than they save. Measured in characters, not
 * threads: one thread of a backfill can hold a thousand comments.
 */
const WORKER_MIN_CHARS = 200_000;
/**
 * A source that has read this many posts and comments is a backfill: the workers start loading
 * then, and only a backfill's batches go to them. A daily window is one batch (a few hundred
 * threads), and one worker on a 2-core machine reads it no faster than the main thread, after
 * loading for a second; `signals demo` (sixteen runs of 30–240 threads, each batch over
 * WORKER_MIN_CHARS) took 23.9 s with a worker per run and 12.7 s without (docs/performance.md,
 * "Workers for backfills only").
 */
const WORKER_WARM_ITEMS = 5_000;

/** The part of the worker pool a run drives (a test stands in for it). */
export type AnalysisPool = Pick<RulesWorkerPool, 'analyze' | 'start' | 'close'>;

export const rulesAnalyzer: Analyzer = {
  name: 'rules',
  start(memory) {
    const workers = workerCount();
    return rulesRun(memory, workers > 0 ? new RulesWorkerPool(workers, memory) : undefined);
  },
};

/**
 * One run of the `rules` analyzer: batches are read in the main thread unless the source has said
 * the run is a backfill (`expect`) and the batch has text enough for the workers.
 */
export function rulesRun(memory: AnalyzerMemory, pool: AnalysisPool | undefined): AnalyzerRun {
  const reader = threadReader(memory);
  let backfill = false;
  return {
    analyze: async (threads, signal) =>
      pool && backfill && textLength(threads, WORKER_MIN_CHARS) >= WORKER_MIN_CHARS ? pool.analyze(threads) : readInTurns(threads, reader, signal),
    expect: (itemsRead) => {
      if (itemsRead < WORKER_WARM_ITEMS) return;
      backfill = true;
      pool?.start();
    },
    report: () => ({ analyzer: 'rules', notes: [] }),
    close: async () => pool?.close(),
  };
}

/**
 * Text the main thread reads between two turns of the event loop: some 10 ms of work. `signals
 * serve` runs the daily digests in the process that answers the API, MCP and dashboard, and a
 * batch read in one go held every request for seconds (4.1 s for the 240 fixture threads).
 */
const TURN_CHARS = 20_000;

/** A batch read in the main thread, giving the event loop a turn every TURN_CHARS of text; a stopped run stops it at the next turn. */
async function readInTurns(threads: readonly SourceThread[], reader: (thread: SourceThread) => FoundSignal[], signal?: AbortSignal): Promise<FoundSignal[][]> {
  const out: FoundSignal[][] = [];
  let sinceTurn = 0;
  for (const thread of threads) {
    out.push(reader(thread));
    sinceTurn += textLength([thread], TURN_CHARS);
    if (sinceTurn >= TURN_CHARS) {
      sinceTurn = 0;
      await nextTurn();
      signal?.throwIfAborted();
    }
  }
  return out;
}

/** The signals of one thread: pure and deterministic. */
export function analyzeThread(thread: SourceThread, memory: AnalyzerMemory): FoundSignal[] {
  return threadReader(memory)(thread);
}

interface Candidate {
  order: number;
  signal: FoundSignal;
  score: number;
}

/** A reader for one memory: the tracked-product patterns and filter phrases are built once. */
export function threadReader(memory: AnalyzerMemory): (thread: SourceThread) => FoundSignal[] {
  const excluded = excludedPhrases(memory.filterRules);
  const products = productMatcher(trackedProducts(memory.competitors.map((c) => c.name)), memory.name);
  const dims = wordVectors().dims;
  const model = painModel(dims);
  const gate = commentPainGate(dims);
  return (thread) => {
    if (mentionsAny(thread.title, excluded)) return [];
    const competitors: Candidate[] = [];
    const pains: Candidate[] = [];
    const questions: Candidate[] = [];
    let order = 0;
    for (const { part, text, author, at } of passages(thread)) {
      if (author === 'AutoModerator' || text === '[deleted]' || text === '[removed]') continue;
      for (const read of readPassage(text, part === 'title', products, excluded)) {
        const quote = shorten(read.whole, MAX_QUOTE);
        const base = { quote, author, at };
        const probability = read.features ? model.probability(read.features) : 0;
        const pain =
          read.features !== undefined &&
          isPain(probability, read.evidence.reading, model.threshold) &&
          (part !== 'comment' || gate.probability(read.features) >= gate.threshold) &&
          !deniesProblem(read.sentence) &&
          !reportsFixed(read.sentence) &&
          !leakAsNews(read.evidence.tokens ?? [], read.sentence) &&
          !negatesAnotherVerb(read.evidence.tokens ?? [], read.sentence) &&
          !mistakesOneForAnother(read.evidence.tokens ?? [], read.sentence);
        for (const product of read.products) {
          // "Worse than GLM" is no complaint about GLM (text.ts comparedOnly).
          const complaint = pain && !comparedOnly(read.whole, product);
          competitors.push({ order: order++, score: 0, signal: { ...base, kind: 'competitor', competitor: product, moves: null, complaint } });
        }
        if (pain) {
          // A pain the model finds without a cue word gets the plainest kind: a difficulty.
          const reading = read.evidence.reading ?? { score: probability, kind: 'difficulty' as const, cue: 0, howTo: read.evidence.howTo };
          const moves = movesFor({ tokens: read.evidence.tokens ?? [], sentence: quote, reading, products: read.products, community: thread.community, project: memory.name, threadTitle: thread.title });
          addOnce(pains, { order: order++, score: probability, signal: { ...base, kind: 'pain', competitor: null, moves, complaint: false } });
        } else if (read.evidence.howTo && read.sentence.length >= MIN_QUESTION) {
          addOnce(questions, { order: order++, score: 0, signal: { ...base, kind: 'content', competitor: null, moves: null, complaint: false } });
        }
      }
    }
    const kept = [...competitors, ...strongest(pains, MAX_PER_KIND.pain), ...questions.slice(0, MAX_PER_KIND.content)];
    kept.sort((a, b) => a.order - b.order);
    return dedupe(kept.map((c) => c.signal));
  };
}

/** One sentence of a passage as the analyzer reads it, before the pain model decides. */
export interface SentenceRead {
  /** What the model reads: a piece of `whole` (text.ts `readingPieces`), most often all of it. */
  sentence: string;
  /** The whole sentence the piece is part of: what a signal quotes. */
  whole: string;
  evidence: SentenceEvidence;
  place: SentencePlace;
  /** The pain model's input; absent for sentences that cannot be a pain (no hint of one). */
  features: Features | undefined;
  products: string[];
}

/**
 * The sentences of one passage (the title, the post text or a comment) that may matter: those
 * that may voice a pain or ask how to do something, and those that may name a product. Shared with
 * scripts/train-models.ts, so the model learns from exactly what it is later given.
 */
export function readPassage(text: string, inTitle: boolean, products: ProductMatcher, excluded: readonly string[] = []): SentenceRead[] {
  const all = sentences(text).flatMap((whole) => readingPieces(whole).map((piece) => ({ piece, whole })));
  // A filter rule drops the whole sentence: its quote would show the excluded words.
  const tagged = all.map(({ piece, whole }) => (mentionsAny(whole, excluded) ? undefined : tagSentence(piece, products)));
  const readings = tagged.filter((t) => t?.evidence.reading).length;
  const out: SentenceRead[] = [];
  tagged.forEach((t, index) => {
    if (!t) return;
    const place: SentencePlace = { inTitle, index, passageSentences: all.length, passageReadings: readings };
    const features = t.mayPain ? painFeatures(t.evidence, place, wordVectors()) : undefined;
    out.push({ sentence: t.evidence.sentence, whole: all[index]!.whole, evidence: t.evidence, place, features, products: t.products });
  });
  return out;
}

interface TaggedSentence {
  evidence: SentenceEvidence;
  mayPain: boolean;
  products: string[];
}

function tagSentence(sentence: string, products: ProductMatcher): TaggedSentence | undefined {
  // Most sentences can be neither a pain, nor a how-to question, nor name a product: the cheap
  // tests on the raw text spare them the tagger (the slowest step of analysis).
  const mayPain = PAIN_HINT.test(sentence) || sentence.includes('?');
  if (!mayPain && !products.mightName(sentence)) return undefined;
  const tokens = tag(sentence);
  const reading = mayPain ? readCues(tokens, sentence) : undefined;
  const howTo = mayPain && (reading?.howTo ?? isHowTo(sentence));
  const named = products.find(tokens, sentence);
  return { evidence: { sentence, tokens, reading, howTo }, mayPain, products: named };
}

/**
 * Two pieces of one sentence (text.ts `readingPieces`) quote the same sentence: the sentence is
 * one signal, with the stronger piece's reading, and takes one of its thread's places.
 */
function addOnce(candidates: Candidate[], candidate: Candidate): void {
  const last = candidates[candidates.length - 1];
  if (last?.signal.quote !== candidate.signal.quote) candidates.push(candidate);
  else if (candidate.score > last.score) candidates[candidates.length - 1] = { ...candidate, order: last.order };
}

/** The n highest-scoring candidates (earlier first on ties). */
function strongest(candidates: Candidate[], n: number): Candidate[] {
  return [...candidates].sort((a, b) => b.score - a.score || a.order - b.order).slice(0, n);
}

function dedupe(signals: FoundSignal[]): FoundSignal[] {
  const seen = new Set<string>();
  return signals.filter((s) => {
    const key = `${s.kind}\u0000${s.quote}\u0000${s.competitor ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
