/**
 * The `rules` analyzer (DESIGN §8.2): offline, deterministic, no model download. It reads a
 * thread sentence by sentence (title, post text, every comment), tags each sentence with wink-nlp
 * (nlp.ts) and keeps:
 *
 * - `pain`: a sentence in which the writer has a problem (pain.ts), with moves that fit its kind
 *   (moves.ts); a thread keeps its strongest pains, so one long thread cannot flood a brief;
 * - `content`: a question asking how to do something ("How do I…?", "Is there a way to…?");
 * - `competitor`: a product the sentence names (products.ts): the memory's competitors anywhere,
 *   other names only in a product context; `complaint` when the sentence is also a pain.
 *
 * Every quote is a verbatim slice of one post or comment. Sentences that hit a filter rule of the
 * memory ("ignore …", "exclude …") are dropped, and so is the whole thread when its title does.
 * The same thread and memory always give the same signals, in the same order.
 */
import type { SourceThread } from '../sources/source.ts';
import type { Analyzer, AnalyzerMemory, FoundSignal } from './analyzer.ts';
import { movesFor } from './moves.ts';
import { tag, type Token } from './nlp.ts';
import { isHowTo, PAIN_HINT, readPain, type PainReading } from './pain.ts';
import { productMatcher, trackedProducts, type ProductMatcher } from './products.ts';
import { RulesWorkerPool, workerCount } from './rules-pool.ts';
import { excludedPhrases, mentionsAny, passages, productKey, sentences, shorten } from './text.ts';

const MAX_QUOTE = 300;
const MIN_QUESTION = 15;
/** A passage of this many sentences or more needs more than one mild pain to be about a problem. */
const LONG_PASSAGE = 4;
/** A pain scoring this much is clear on its own (a strong cue said by the writer). */
const CLEAR_PAIN = 2.5;
/** Per thread: enough to see its main points, not so many that one thread floods a brief. */
const MAX_PER_KIND = { pain: 4, content: 2 } as const;

export { productKey };

/** Batches this small are read in the main thread: starting workers would cost more than they save. */
const WORKER_MIN_THREADS = 64;

export const rulesAnalyzer: Analyzer = {
  name: 'rules',
  start(memory) {
    const reader = threadReader(memory);
    const workers = workerCount();
    const pool = workers > 1 ? new RulesWorkerPool(workers, memory) : undefined;
    return {
      analyze: async (threads) => (pool && threads.length >= WORKER_MIN_THREADS ? pool.analyze(threads) : threads.map((thread) => reader(thread))),
      report: () => ({ analyzer: 'rules', notes: [] }),
      close: async () => pool?.close(),
    };
  },
};

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
  return (thread) => {
    if (mentionsAny(thread.title, excluded)) return [];
    const competitors: Candidate[] = [];
    const pains: Candidate[] = [];
    const questions: Candidate[] = [];
    let order = 0;
    for (const { text, author, at } of passages(thread)) {
      if (author === 'AutoModerator' || text === '[deleted]' || text === '[removed]') continue;
      const all = sentences(text);
      const passagePains: Candidate[] = [];
      for (const sentence of all) {
        if (mentionsAny(sentence, excluded)) continue;
        const read = readSentence(sentence, products);
        if (!read) continue;
        const quote = shorten(sentence, MAX_QUOTE);
        const base = { quote, author, at };
        for (const product of read.products) {
          competitors.push({ order: order++, score: 0, signal: { ...base, kind: 'competitor', competitor: product, moves: null, complaint: read.pain !== undefined } });
        }
        if (read.pain) {
          const moves = movesFor({ tokens: read.tokens, sentence: quote, reading: read.pain, products: read.products, community: thread.community, project: memory.name });
          passagePains.push({ order: order++, score: read.pain.score, signal: { ...base, kind: 'pain', competitor: null, moves, complaint: false } });
        } else if (read.question) {
          questions.push({ order: order++, score: 0, signal: { ...base, kind: 'content', competitor: null, moves: null, complaint: false } });
        }
      }
      if (!incidental(passagePains, all.length)) pains.push(...passagePains);
    }
    const kept = [...competitors, ...strongest(pains, MAX_PER_KIND.pain), ...questions.slice(0, MAX_PER_KIND.content)];
    kept.sort((a, b) => a.order - b.order);
    return dedupe(kept.map((c) => c.signal));
  };
}

interface SentenceReading {
  tokens: readonly Token[];
  pain: PainReading | undefined;
  question: boolean;
  products: string[];
}

function readSentence(sentence: string, products: ProductMatcher): SentenceReading | undefined {
  // Most sentences can be neither a pain, nor a how-to question, nor name a product: the cheap
  // tests on the raw text spare them the tagger (the slowest step of analysis).
  const mayPain = PAIN_HINT.test(sentence) || sentence.includes('?');
  if (!mayPain && !products.mightName(sentence)) return undefined;
  const tokens = tag(sentence);
  const pain = readPain(tokens, sentence);
  const question = !pain && sentence.length >= MIN_QUESTION && isHowTo(sentence);
  const named = products.find(tokens, sentence);
  if (!pain && !question && named.length === 0) return undefined;
  return { tokens, pain, question, products: named };
}

/**
 * One mild complaint in a long text is said in passing (a success story that mentions being
 * "frustrated" on the way, release notes that fixed "a bunch of bugs"): the text is not about a
 * problem. Several pains, or a strong one, make it one.
 */
function incidental(pains: readonly Candidate[], sentenceCount: number): boolean {
  return sentenceCount >= LONG_PASSAGE && pains.length === 1 && pains[0]!.score < CLEAR_PAIN;
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
