/**
 * The `rules` analyzer (DESIGN §8): offline, deterministic, fast. It reads a thread sentence by
 * sentence (title, post text, every comment) and keeps:
 *
 * - `pain`: a sentence voicing frustration, a failure or an unmet wish ("keeps crashing", "I wish
 *   it could…"), with a content move;
 * - `content`: a question people ask ("How do I…?", "Is there a…?"), something to write about;
 * - `competitor`: a product named in the memory's competitors, or found where people compare
 *   tools ("switched from X", "alternative to X", "X vs Y", "instead of X").
 *
 * Every quote is a verbatim slice of its post or comment. Sentences that hit a filter rule of the
 * memory ("ignore …", "exclude …") are dropped, and so is the whole thread when its title does.
 * The same thread and memory always give the same signals, in the same order.
 */
import type { BundleComment } from '../bundle.ts';
import type { SourceThread } from '../sources/source.ts';
import type { Analyzer, AnalyzerMemory, FoundSignal } from './analyzer.ts';
import { escapeRegExp, excludedPhrases, mentionsAny, productKey, sentences, shorten } from './text.ts';

const MAX_QUOTE = 300;
const MIN_PAIN = 20;
const MIN_QUESTION = 15;
/** Per thread: enough to see its main points, not so many that one thread floods a brief. */
const MAX_PER_KIND = { pain: 4, content: 2 } as const;

const FRUSTRATION =
  /\b(?:frustrat\w*|annoy\w*|hate|hated|sucks?|painful|nightmare|headache|struggl\w*|stuck|broken|unusable|useless|terrible|awful|horribl[ey]|disappoint\w*|underwhelm\w*|lacklust\w*|garbage|trash|worst|confus\w*|impossible to|waste of time|pain in the|plagu\w*|tanked|hallucinat\w*|(?:hard|difficult|tough) time|(?:having|had|have|has) (?:trouble|issues?|problems?|a problem)|trouble (?:with|getting|running)|issues? with|problems? with|the (?:only |main |biggest )?problem is|concerns? (?:about|with|over)|not ready|unable to|can'?t (?:handle|perform|seem to)|doesn'?t seem to (?:work|be)|(?:way|far|so) behind|one thing I miss|too (?:expensive|costly|pricey)|can'?t afford|buggy|bugs? (?:in|with)|(?:not|isn'?t|aren'?t) (?:yet )?supported|no support for|lack of|limitations?)\b/i;
const FAILURE =
  /\b(?:doesn'?t work|does not work|don'?t work|not working|stopped working|can'?t get|cannot get|couldn'?t get|won'?t (?:load|run|work|start)|keeps? (?:crashing|failing|freezing)|crash(?:es|ed|ing)?|OOM|out of memory|fails?|failed|failing|errors? out|(?:lots? of|many|a lot of) errors|\d+(?:\.\d+)?x slower|segfault\w*|hangs?|freez\w*|too slow|so slow|painfully slow|really slow|very slow|unbearably slow)\b/i;
const WISH = /\b(?:I wish|wish (?:there was|it (?:had|could|would))|if only|would love (?:a|an|to have|if|it if)|there'?s no (?:way|option) to|no way to|lacks?|lacking|missing (?:a |the )?(?:feature|option|support))\b/i;
/** "No problem", "no issues so far", "not terrible": the vocabulary of pain without the pain. */
const RELIEF =
  /\b(?:no|not a|not an|without|zero|never had (?:any|a)) (?:problem|issue|issues|problems|crash(?:es)?|errors?)\b|\bworks? (?:great|fine|perfectly|well)\b|\bnot (?:that |too |so )?(?:terrible|bad|awful)\b|\bstuck in (?:my|your|his|her|their) head\b|\bwish I (?:was|were)\b|\bfixed\b/i;
const QUESTION_START =
  /^(?:how(?: do| can| to| would| should| does| did)?|what(?:'s| is| are| do| would| should)|which|why(?: does| do| is| are| would)?|is there|are there|does anyone|has anyone|did anyone|can (?:i|you|someone|anyone)|should i|any (?:recommendations|tips|advice|suggestions|ideas)|where (?:can|do|should) i)\b/i;

/** Where people compare tools; the captured name is the other product. */
const COMPARISON_CONTEXTS: RegExp[] = [
  /\b(?:switched|moved|migrated|came over|went back|switching|moving) (?:over )?(?:from|to) ([\w][\w.+-]*(?: [A-Z][\w.+-]*){0,2})/g,
  /\balternatives? (?:to|for) ([\w][\w.+-]*(?: [A-Z][\w.+-]*){0,2})/g,
  /\binstead of ([\w][\w.+-]*(?: [A-Z][\w.+-]*){0,2})/g,
  /\b([A-Za-z][\w.+-]*(?: [A-Z][\w.+-]*){0,2}) (?:vs\.?|versus) ([\w][\w.+-]*(?: [A-Z][\w.+-]*){0,2})/g,
  /\b(?:better|faster|worse|slower|cheaper) than ([\w][\w.+-]*(?: [A-Z][\w.+-]*){0,2})/g,
];

/** A word every comparison context contains (kept in step with COMPARISON_CONTEXTS). */
const COMPARISON_HINT = /\b(?:switch\w*|moved|moving|migrated|came over|went back|alternatives?|instead|vs\.?|versus|than)(?!\w)/i;

/** Words that follow "switched from" or "vs" without being products. */
const NOT_PRODUCTS = new Set(
  (
    'a an the it its this that these those my your our their his her one ones something anything everything nothing ' +
    'using use local cloud api apis gpu gpus cpu cpus ram vram windows linux mac macos ubuntu python code model models ' +
    'version versions before now then there here what which others other another some any all both each me you them us ' +
    'him people work home scratch source hand time day week month year years months weeks days hours minutes i ' +
    'quality speed price cost performance memory size context accuracy open closed paid free ' +
    'for with in on at by to of from just only single multiple two three new old same different better worse'
  ).split(' '),
);

export { productKey };

export const rulesAnalyzer: Analyzer = {
  name: 'rules',
  start(memory) {
    return {
      analyze: async (threads) => threads.map((thread) => analyzeThread(thread, memory)),
      report: () => ({ analyzer: 'rules', notes: [] }),
      close: async () => {},
    };
  },
};

/** The signals of one thread: pure and deterministic. */
export function analyzeThread(thread: SourceThread, memory: AnalyzerMemory): FoundSignal[] {
  {
    const excluded = excludedPhrases(memory.filterRules);
    if (mentionsAny(thread.title, excluded)) return [];
    const known = knownProducts(memory);
    const found: FoundSignal[] = [];
    const seen = new Set<string>();
    const counts = { pain: 0, content: 0 };
    const add = (signal: FoundSignal) => {
      const key = `${signal.kind}\u0000${signal.quote}\u0000${signal.competitor ?? ''}`;
      if (seen.has(key)) return;
      seen.add(key);
      found.push(signal);
    };

    for (const { text, author, at } of passages(thread)) {
      if (author === 'AutoModerator' || text === '[deleted]' || text === '[removed]') continue;
      for (const sentence of sentences(text)) {
        if (mentionsAny(sentence, excluded)) continue;
        const quote = shorten(sentence, MAX_QUOTE);
        const pain = isPain(sentence);
        for (const product of productsIn(sentence, known)) {
          if (productKey(product) === productKey(memory.name)) continue;
          add({ kind: 'competitor', quote, author, at, competitor: product, moves: null, complaint: pain });
        }
        if (counts.pain < MAX_PER_KIND.pain && pain) {
          counts.pain += 1;
          const moves = { content: contentMove(quote, thread.community, memory.name) };
          add({ kind: 'pain', quote, author, at, competitor: null, moves, complaint: false });
        } else if (counts.content < MAX_PER_KIND.content && isQuestion(sentence)) {
          counts.content += 1;
          add({ kind: 'content', quote, author, at, competitor: null, moves: null, complaint: false });
        }
      }
    }
    return found;
  }
}

/** The thread's texts in reading order: title, post text, then comments depth-first. */
interface Passage {
  text: string;
  author: string;
  at: string;
}

function* passages(thread: SourceThread): Generator<Passage> {
  yield { text: thread.title, author: thread.author, at: thread.postCreatedAt };
  if (thread.selftext) yield { text: thread.selftext, author: thread.author, at: thread.postCreatedAt };
  const walk = function* (comments: BundleComment[]): Generator<Passage> {
    for (const c of comments) {
      yield { text: c.body, author: c.author, at: c.createdAt };
      yield* walk(c.replies);
    }
  };
  yield* walk(thread.comments);
}

export function isPain(sentence: string): boolean {
  if (sentence.length < MIN_PAIN || RELIEF.test(sentence)) return false;
  return FRUSTRATION.test(sentence) || FAILURE.test(sentence) || WISH.test(sentence);
}

export function isQuestion(sentence: string): boolean {
  return sentence.length >= MIN_QUESTION && sentence.endsWith('?') && QUESTION_START.test(sentence);
}

interface KnownProduct {
  name: string;
  pattern: RegExp;
}

/** The memory's competitors, each matched as a whole word, however it is capitalised. */
function knownProducts(memory: AnalyzerMemory): KnownProduct[] {
  return memory.competitors
    .map((c) => c.name.trim())
    .filter((name) => name.length >= 2)
    .map((name) => ({ name, pattern: new RegExp(`(?:^|[^\\w.])${flexible(name)}(?![\\w])`, 'i') }));
}

/**
 * A product name with its separators optional: "llama.cpp" also matches "llamacpp", "llama cpp"
 * and "llama-cpp"; "LM Studio" also "lmstudio" and "LM-Studio" — the spellings people type.
 */
function flexible(name: string): string {
  return name
    .split(/[\s.\-_]+/)
    .map(escapeRegExp)
    .join('[\\s.\\-_]?');
}

/** Products a sentence names: known competitors anywhere, others only in a comparison. */
export function productsIn(sentence: string, known: readonly KnownProduct[]): string[] {
  const out = new Map<string, string>();
  for (const k of known) if (k.pattern.test(sentence)) out.set(productKey(k.name), k.name);
  // Most sentences compare nothing: one cheap test spares them the five context patterns.
  if (!COMPARISON_HINT.test(sentence)) return [...out.values()];
  for (const context of COMPARISON_CONTEXTS) {
    for (const match of sentence.matchAll(context)) {
      for (const raw of match.slice(1)) {
        const name = trimProduct(raw);
        if (!name) continue;
        const key = productKey(name);
        const knownName = known.find((k) => productKey(k.name) === key)?.name;
        // "moved to LM studio" captures "LM": a fragment of a product already found is not another one.
        if (!knownName && [...out.keys()].some((found) => found !== key && found.startsWith(key))) continue;
        if (!out.has(key)) out.set(key, knownName ?? name);
      }
    }
  }
  return [...out.values()];
}

/** "Ollama." → "Ollama"; "it" → undefined; a product name looks like one (capital, digit or dot). */
function trimProduct(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const name = raw.replace(/[.,;:!?)'"]+$/, '').trim();
  const words = name.split(' ');
  // "alternative to it" is no product, but "alternative to Open WebUI" is: a capitalised
  // multi-word name keeps a first word that alone would be a common one.
  const common = NOT_PRODUCTS.has(words[0]!.toLowerCase()) && (words.length === 1 || /^[a-z]/.test(name));
  if (name.length < 2 || name.length > 40 || common) return undefined;
  // Hardware and quantities ("3090", "16", "3k") are not products; a product has a letter run.
  if (!/[A-Za-z]{2}/.test(name)) return undefined;
  return /[A-Z0-9.]/.test(name) ? name : undefined;
}

/** What to do about a pain: write the piece that answers it, where its readers are. */
function contentMove(quote: string, community: string, product: string): { title: string; body: string } {
  const short = shorten(quote, 90);
  return {
    title: `Answer it: “${short}”`,
    body: `People in r/${community} run into this. Write a short, concrete guide that solves it step by step${product ? `, and show where ${product} makes it easier` : ''}; link it in the thread.`,
  };
}
