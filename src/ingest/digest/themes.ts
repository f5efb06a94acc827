/**
 * Theme grouping (DESIGN §8.3): pains are grouped by meaning, not by shared words.
 *
 * - Each pain is a sentence vector (analyze/vectors.ts: frequency-weighted static word vectors of
 *   its quote's content words) and its terms (stemmed content words and noun chunks of the quote,
 *   its thread's title at double weight), TF-IDF weighted over the pains the grouper has seen.
 * - Similarity = VECTOR_SHARE × vector cosine + (1 − VECTOR_SHARE) × term cosine. Measured on the
 *   labelled r/LocalLLaMA pains (docs/quality.md, decision 0011): the vectors alone separate
 *   same-theme from other-theme pairs poorly there (AUC 0.59: the words that tell these themes
 *   apart, "vllm", "ollama", "qwen", are not in a general English vocabulary), terms alone reach
 *   0.69 and the blend 0.70; on everyday vocabulary the vectors carry more.
 * - A pain joins the most similar theme when the similarity reaches JOIN and it is also close
 *   (ANCHOR_MIN) to the pain that founded the theme.
 * - Otherwise it waits in the unthemed pool. A pain close enough (PAIR) to a pooled pain of
 *   ANOTHER post founds a theme with it: a theme needs evidence from two posts, so a backfill no
 *   longer makes one theme per sentence. The two must also name one thing (`sharesAName`): a
 *   chunk that says something in particular ("tool calling", "RAG", "Kimi K2") or that few pains
 *   name ("fan"); terms alone paired pains that shared ordinary words and their threads' topics,
 *   and such themes held no one problem. At the end of each run the pool is re-clustered
 *   (`recluster`): pooled pains join the themes that grew meanwhile, or pair up.
 * - Ids are stable: a theme's id derives from its founding pain, and a theme never changes id;
 *   titles and summaries are rewritten as members arrive.
 * - Titles are problem noun phrases of 2–7 words: what the members name most, and the kind of
 *   problem they voice when a third of them voice one ("Slow prompt processing", "LM Studio
 *   crashes", "Problems with Kimi K2"); never a sentiment word or a bare generic noun. What a
 *   member names: the noun chunks of its quote and of its thread's title (the thread title is
 *   half of what groups it: see painContext), and their runs of up to three words, counted once
 *   per post. Titled by the quotes' rarest chunks alone, the 40 biggest themes of the r/LocalLLaMA
 *   backfill were named for a word one post in twenty said ("Slow country" for complaints in
 *   threads about open-source releases); two annotators, blind to which was which, preferred
 *   these titles for 25 and 30 of the 40 and the old ones for 1 (docs/quality.md, "Theme titles").
 *
 * Deterministic: the same seed and the same pains in the same order give the same themes.
 * Bounded: the pool keeps the newest POOL_MAX pains; a theme keeps counts of at most MAX_CHUNKS
 * noun chunks and MAX_QUOTES quotes.
 */
import { nounChunks, tag, type Token } from '../analyze/nlp.ts';
import { CHAT_SHORTHAND, clip, isAcronym, titleCase, UNITS } from '../analyze/text.ts';
import { isVague, SENTIMENT_WORDS, VAGUE_WORDS } from '../analyze/vague.ts';
import { addInto, cosine, normalize, ordinaryWord, wordVectors } from '../analyze/vectors.ts';
import { termCounts, terms, words } from './terms.ts';
import { placeOf } from '../analyze/moves.ts';

/** Cosine with a theme's centroid at or above which a pain joins it (docs/quality.md). */
export const JOIN = 0.28;
/** Similarity of two pooled pains at or above which they found a theme. */
export const PAIR = 0.26;
/**
 * A pain joins a theme only if it is at least this close to the theme's founding pain too: a
 * centroid drifts as members join (each pulls it its way), and without an anchor the biggest
 * themes of a backfill end up about the community's most common words.
 */
export const ANCHOR_MIN = 0.1;
/** The vectors' share of the similarity; the rest is the TF-IDF cosine of terms. */
export const VECTOR_SHARE = 0.2;
/** A title term counts this much of a quote term: a title says in a few words what the thread is about. */
const CONTEXT_WEIGHT = 2;
/** Terms in more than this share of pains (and 30) do not nominate candidates: they say little. */
const COMMON_SHARE = 0.03;
/**
 * A chunk named by at most this share of the pains seen (and at least 5) is rare enough to found a
 * theme on, whatever its words: "fan" or "landlord" are ordinary English but rare in most
 * communities, and the words that say what a community is about ("model", "professor") are not.
 */
const RARE_NAME_SHARE = 0.01;
const MAX_TERMS = 60;
export const POOL_MAX = 3_000;
const MAX_CHUNKS = 80;
const MAX_QUOTES = 5;
const MAX_POSTS_TRACKED = 10_000;
const CONTEXT_CACHE_MAX = 1_000;

/**
 * Words that say what kind of problem it is, not what it is about: the title's problem word says
 * that already ("Problems with error" said nothing; "Server failures" does).
 */
const PROBLEM_NOUNS = new Set(
  'error errors bug bugs failure failures crash crashes exception exceptions glitch glitches slowdown slowness cost costs price prices trouble troubles hallucination hallucinations'.split(' '),
);

/**
 * A title names a kind of problem ("… crashes", "Slow …") only when at least this share of the
 * theme's pains name it. Among the 40 biggest themes of the r/LocalLLaMA backfill the most named
 * kind covered 4–31% of a theme's pains: "Slow Kimi K2" was said of a theme where 12% of the
 * pains spoke of speed; "Problems with Kimi K2" says what it holds.
 */
const PROBLEM_SHARE = 1 / 3;

/** How many of a theme's chunks may title it when the best ones already name other themes. */
const TITLE_CANDIDATES = 4;

/** Titles that differ only in case, word endings or small words ("LM Studio crash" / "crashes") are one. */
function titleKey(title: string): string {
  return terms(title).join(' ');
}

/** How a title opens when its pains name no one kind of problem. */
const NO_KIND = 'problems with';

/**
 * What a title says the theme is about: without the opening a title gets when its pains name no
 * one kind of problem ("Problems with Kimi K2" → "Kimi K2"). A quote saying "problem" is not
 * closer to that theme than any other (brief.ts, leadOf).
 */
export function titleSubject(title: string): string {
  return title.toLowerCase().startsWith(`${NO_KIND} `) ? title.slice(NO_KIND.length + 1) : title;
}

/**
 * What a title names, without the words that say the kind of problem: "Chat template failures" →
 * "Chat template", "Slow prompt processing" → "prompt processing", "Problems with Kimi K2" → "Kimi
 * K2". A title that is its chunk ("Endless hallucination loop") names all of itself. The frames
 * are titleOf's own (PROBLEM_WORDS, NO_KIND), so the two cannot drift apart.
 */
export function titleNames(title: string): string {
  const lower = title.toLowerCase();
  for (const frame of [{ before: NO_KIND }, ...PROBLEM_WORDS.map(([, f]) => f)]) {
    const before = frame.before ? `${frame.before} ` : '';
    const after = frame.after ? ` ${frame.after}` : '';
    if (lower.length > before.length + after.length && lower.startsWith(before) && lower.endsWith(after)) return title.slice(before.length, title.length - after.length);
  }
  return title;
}

/** A title from a chunk and the members' dominant kind of problem: a noun phrase of 2–7 words. */
function titleOf(chunk: string, problem: number | undefined): string {
  let title: string;
  if (problem !== undefined && PROBLEM_WORDS[problem]![0].test(chunk)) title = chunk;
  else if (problem !== undefined) title = framed(chunk, PROBLEM_WORDS[problem]![1]);
  // No one kind of problem: the chunk says it when it names one ("memory leaks"), else the title says only that there are problems.
  else title = PROBLEM_WORDS.some(([re]) => re.test(chunk)) ? chunk : framed(chunk, { before: NO_KIND });
  const words = title.split(/\s+/).slice(0, 7).join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A stored title stays while its chunk scores at least this share of the best chunk's: a small
 * shift in the ranking does not rename a theme, a theme that outgrew its first title does.
 */
const KEEP_TITLE_SHARE = 0.5;

/** A chunk in more than this share of the pains names nothing in particular ("model" in r/LocalLLaMA). */
const TITLE_MAX_SHARE = 0.05;

/** Words that complain of slowness, and of cost: a theme's title frames them, and an offer answers them only when it speaks of them (brief.ts). */
export const SLOW_WORDS = /\b(?:slow\w*|sluggish|laggy|forever|bottleneck\w*|latency)\b/i;
export const COST_WORDS = /\b(?:expensive|overpriced|pricey|costs?|costly|afford\w*|price\w*)\b/i;

/** What the members' problem words say the theme is about, for its title. */
const PROBLEM_WORDS: [RegExp, { before?: string; after?: string }][] = [
  [/\b(?:crash\w*|segfault\w*|freez\w*|hang(?:s|ing)?)\b/i, { after: 'crashes' }],
  [/\b(?:oom|out of memory|run(?:s|ning)? out of (?:v?ram|memory))\b/i, { after: 'running out of memory' }],
  [/\b(?:hallucinat\w*)\b/i, { after: 'hallucinations' }],
  [/\b(?:errors?|exceptions?|bugs?|buggy|broken|fail\w*)\b/i, { after: 'failures' }],
  [SLOW_WORDS, { before: 'slow' }],
  [COST_WORDS, { before: 'high cost of' }],
  [/\b(?:lack\w*|missing|unsupported|wish\w*|no way to|no support)\b/i, { before: 'missing' }],
  [/\b(?:confus\w*|overwhelm\w*|lost)\b/i, { before: 'confusing' }],
  [/\b(?:concern\w*|worr\w*|afraid|privacy|fear\w*)\b/i, { before: 'concerns about' }],
  [/\b(?:struggl\w*|stuck|trouble|hard|difficult|tricky|impossible|headache|nightmare)\b/i, { before: 'trouble with' }],
];

/** A chunk framed as a kind of problem ("Slow <chunk>", "<chunk> crashes"), or as none ("Problems with <chunk>"). */
function framed(chunk: string, frame: { before?: string; after?: string }): string {
  return [frame.before, chunk, frame.after].filter(Boolean).join(' ');
}

export interface PainDoc {
  signalId: string;
  postId: string;
  quote: string;
  /** What the pain was said about (painContext): its thread's title, and the post's text for a pain of the opening post. */
  context: string;
  /** When it was said (ISO): summaries say since when a theme is seen. */
  at: string;
  community: string;
}

/**
 * The context of a pain: its thread's title. A pain's quote alone says too little of what it is
 * about to group by ("it's unbearably slow"), and the title says it in a few words. The opening
 * post's text was context too until measured (docs/quality.md): its many words made unrelated
 * posts look alike (pairwise precision on the tuning half 0.06 with it, 0.43 without).
 */
export function painContext(thread: { title: string }): string {
  return thread.title;
}

interface Member {
  doc: PainDoc;
  vector: Float32Array | undefined;
  terms: Map<string, number>;
  chunks: { key: string; display: string }[];
  /** What it names, for titles: the noun chunks of its quote and of its context (its thread's title), each once, by key. */
  named: ReadonlyMap<string, { key: string; display: string }>;
  /** The keys of `named` that say something in particular (`particular`): see `sharesAName`. */
  particular: ReadonlySet<string>;
  /** Its TF-IDF norm under the weights of epoch `normEpoch`. */
  norm: number;
  normEpoch: number;
}

interface ThemeChunk {
  posts: Set<string>;
  displays: Map<string, number>;
}

export interface ThemeState {
  id: string;
  vectorSum: Float32Array;
  centroid: Float32Array | undefined;
  /** Summed term counts of its pains (the MAX_TERMS most frequent). */
  terms: Map<string, number>;
  /** Its TF-IDF norm under the weights of epoch `normEpoch` (-1: to compute). */
  norm: number;
  normEpoch: number;
  docs: number;
  posts: Set<string>;
  /** Noun chunks its pains name (quote or thread title), with the posts naming each and their spellings. */
  chunks: Map<string, ThemeChunk>;
  problems: Map<number, number>;
  quotes: { quote: string; similarity: number }[];
  communities: Map<string, number>;
  firstAt: string;
  lastAt: string;
  /** Its founding pain: a pain joins only if it is also close to it, so a theme cannot drift away from what founded it. */
  anchor: Member;
  /** It existed before this run (seeded from the store). */
  seeded: boolean;
  /** Set when this run changed it. */
  changed: boolean;
  /** The title this grouper last gave it, as titleKey spells it (see `title`). */
  title?: string;
  /** The noun chunk that title was made from. */
  titleChunk?: string;
}

export interface Placement {
  /** The theme, or null while the pain waits in the pool. */
  themeId: string | null;
  founded: boolean;
}

/** The grouping constants, overridable for the quality sweep (test/ingest/quality). */
export interface GrouperOptions {
  join?: number;
  pair?: number;
  vectorShare?: number;
  contextWeight?: number;
  anchorMin?: number;
}

export class ThemeGrouper {
  private readonly themes: ThemeState[] = [];
  private readonly byId = new Map<string, ThemeState>();
  /** Which theme holds each title (titleKey): titles stay unique where a better chunk is free. */
  private readonly titleOwners = new Map<string, string>();
  private pool: Member[] = [];
  /** Term → themes and pooled pains holding it: candidates share a term (see VECTOR_SHARE). */
  private readonly themePostings = new Map<string, Set<ThemeState>>();
  private readonly poolPostings = new Map<string, Set<Member>>();
  /** Stored pains whose theme this run set (pooled before, themed now): signal id → theme id. */
  private readonly assigned = new Map<string, string>();
  private readonly df = new Map<string, number>();
  /** Pains naming each noun chunk in their quote or context (title scores; see leadingChunks). */
  private readonly chunkDf = new Map<string, number>();
  /** Noun chunks of recent contexts: a thread's pains share its title, tagged once. */
  private contextCache = new Map<string, { key: string; display: string }[]>();
  private pains = 0;
  /*
   * IDF weights are recomputed when the corpus has grown by a twentieth since they were last
   * computed (a new epoch), not on every comparison: a weight barely moves between two pains, and
   * computing logarithms and norms afresh for every comparison made grouping the slowest step.
   */
  private readonly idfCache = new Map<string, number>();
  private epoch = 0;
  private epochAt = 0;
  private readonly vectors = wordVectors();
  private readonly join: number;
  private readonly pair: number;
  private readonly vectorShare: number;
  private readonly contextWeight: number;
  private readonly anchorMin: number;

  constructor(
    private readonly newThemeId: (founder: PainDoc) => string,
    options: GrouperOptions = {},
  ) {
    this.join = options.join ?? JOIN;
    this.pair = options.pair ?? PAIR;
    this.vectorShare = options.vectorShare ?? VECTOR_SHARE;
    this.contextWeight = options.contextWeight ?? CONTEXT_WEIGHT;
    this.anchorMin = options.anchorMin ?? ANCHOR_MIN;
  }

  /**
   * An existing theme, its pains and its stored title, before the run's pains arrive. The title
   * is registered as taken: without it, the first theme this run changes could take another
   * theme's title, and that theme, once changed too, would be renamed to its next-best chunk (a
   * run that only re-clustered the pool renamed "Required arguments failures", 61 posts, to
   * "Game failures").
   */
  seed(id: string, docs: PainDoc[], title?: string): void {
    const members = docs.map((d) => this.member(d));
    if (members.length === 0) return;
    const theme = this.found(id, members[0]!);
    for (const m of members.slice(1)) this.absorb(theme, m, 1);
    // The quotes ranked by closeness to the whole theme, as a run that grew it ranks them: with
    // one placeholder similarity they sorted alphabetically, and a summary rewritten by a later
    // run quoted whichever began with a quotation mark ("\"Sorry, we can't find the page…").
    const distinct = new Map(members.map((m) => [m.doc.quote, m]));
    theme.quotes = [...distinct.values()]
      .map((m) => ({ quote: m.doc.quote, similarity: this.similarity(m, theme.centroid, theme) }))
      .sort((a, b) => b.similarity - a.similarity || (a.quote < b.quote ? -1 : 1))
      .slice(0, MAX_QUOTES);
    theme.seeded = true;
    theme.changed = false;
    if (title !== undefined) {
      const key = titleKey(title);
      theme.title = key;
      if (!this.titleOwners.has(key)) this.titleOwners.set(key, id);
    }
  }

  /** A stored pain that had no theme yet (the pool of earlier runs), oldest first. */
  seedPool(doc: PainDoc): void {
    this.toPool(this.member(doc));
  }

  /** Places a new pain: a theme, a new theme with a pooled pain of another post, or the pool. */
  add(doc: PainDoc): Placement {
    return this.place(this.member(doc));
  }

  /**
   * End of a run: pooled pains join themes that grew since they arrived, or pair up among
   * themselves. Returns how many themes that founded.
   */
  recluster(): number {
    const waiting = this.pool;
    this.pool = [];
    this.poolPostings.clear();
    let founded = 0;
    for (const m of waiting) {
      const placement = this.place(m);
      if (placement.founded) founded += 1;
      if (placement.themeId !== null) this.assigned.set(m.doc.signalId, placement.themeId);
    }
    return founded;
  }

  /** Pooled pains moved into a theme since the last call (signal id → theme id); the record is then cleared. */
  takeReassigned(): Map<string, string> {
    const moved = new Map(this.assigned);
    this.assigned.clear();
    return moved;
  }

  get(id: string): ThemeState | undefined {
    return this.byId.get(id);
  }

  /**
   * After the store merged theme `from` into `into` (the `llm` analyzer judged them one problem):
   * `into` holds both themes' words and vectors, so how well its pains fit it (the brief's lead
   * and coherence) is measured against the merged theme, not against half of it.
   */
  mergeInto(fromId: string, intoId: string): void {
    const from = this.byId.get(fromId);
    const into = this.byId.get(intoId);
    if (!from || !into || from === into) return;
    addInto(into.vectorSum, from.vectorSum);
    into.centroid = normalize(Float32Array.from(into.vectorSum));
    this.addTerms(into, from.terms);
    into.docs += from.docs;
    for (const post of from.posts) if (into.posts.size < MAX_POSTS_TRACKED) into.posts.add(post);
  }

  changedThemes(): ThemeState[] {
    return this.themes.filter((t) => t.changed);
  }

  /** How well a text (an offering) fits a theme, on the same scale as JOIN. */
  fit(text: string, themeId: string): number {
    const theme = this.byId.get(themeId);
    if (!theme) return 0;
    return this.similarity(this.probe(text), theme.centroid, theme);
  }

  /** How well a text (an offering) fits one quote, on the same scale as `fit`. */
  quoteFit(text: string, quote: string): number {
    const b = this.probe(quote);
    return this.similarity(this.probe(text), b.vector, b);
  }

  private probe(text: string): Member {
    return { terms: termCounts(text), vector: this.vectors.sentenceVector(contentWords(text)), norm: 0, normEpoch: -1 } as Member;
  }

  /**
   * The theme's title, from its most characteristic noun chunk not already naming another theme:
   * two themes both titled "LM Studio failures" read as one problem listed twice. A title stays
   * with the theme that took it until that theme's title changes; when every candidate is taken,
   * the best one is shared. A theme from an earlier run keeps its stored title while that title
   * is still one of its candidates, scoring at least KEEP_TITLE_SHARE of the best: the chunks'
   * ranking shifts with every pain that joins (and with the corpus each run sees), and a theme
   * renamed on every run — "Trouble with Wikipedia", then "Trouble with dust", then "Trouble with
   * Gemini", one pain apart — reads as three problems. Within the run that founds it, a theme's title follows its best chunk: a backfill
   * that kept its first batch's title named an 81-post GPT-OSS theme "Knowledge cutoff failures".
   */
  title(theme: ThemeState): string {
    const problem = this.dominantProblem(theme);
    const leading = this.leadingChunks(theme, TITLE_CANDIDATES);
    const chunks = leading.map((c) => c.display);
    const candidates = chunks.map((chunk) => titleOf(chunk, problem));
    if (candidates.length === 0) candidates.push('Unclassified complaints');
    const keys = candidates.map(titleKey);
    const free = (i: number) => {
      const owner = this.titleOwners.get(keys[i]!);
      return owner === undefined || owner === theme.id;
    };
    // A theme without chunks has no scores: its one candidate ("Unclassified complaints") stays.
    const strongEnough = (i: number) => (leading[i]?.score ?? 0) >= KEEP_TITLE_SHARE * (leading[0]?.score ?? 0);
    const kept = theme.seeded && theme.title !== undefined ? keys.findIndex((k, i) => k === theme.title && free(i) && strongEnough(i)) : -1;
    const freeAt = kept !== -1 ? kept : keys.findIndex((_, i) => free(i));
    const title = candidates[Math.max(0, freeAt)]!;
    // The summary's example quote says the words the title says.
    theme.titleChunk = chunks[Math.max(0, freeAt)];
    const key = keys[Math.max(0, freeAt)]!;
    if (theme.title !== undefined && theme.title !== key && this.titleOwners.get(theme.title) === theme.id) this.titleOwners.delete(theme.title);
    theme.title = key;
    if (freeAt !== -1) this.titleOwners.set(key, theme.id);
    return title;
  }

  /** One sentence: what people run into, how often and where, with a quote standing for it. */
  summary(theme: ThemeState): string {
    const where = [...theme.communities].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 2).map(([c]) => placeOf(c)).join(' and ');
    const posts = theme.posts.size;
    // The quote that says the theme's own words, if one does; else the one closest to it.
    const chunk = (theme.titleChunk ?? this.leadingChunk(theme))?.toLowerCase();
    const quote = (chunk ? theme.quotes.find((q) => q.quote.toLowerCase().includes(chunk)) : undefined)?.quote ?? theme.quotes[0]?.quote ?? '';
    const since = theme.firstAt.slice(0, 10);
    return `${posts} post${posts === 1 ? '' : 's'} in ${where || 'the watched communities'} since ${since} ${posts === 1 ? 'describes' : 'describe'} this${exampleClause(quote)}`;
  }

  private place(m: Member): Placement {
    let best: ThemeState | undefined;
    let bestScore = -1;
    this.maybeNewEpoch();
    for (const theme of this.candidates(m.terms, this.themePostings)) {
      const s = this.similarity(m, theme.centroid, theme);
      // The anchor is asked only of a theme that would win: most candidates never reach JOIN.
      if (s < this.join) continue;
      if ((s > bestScore || (s === bestScore && best && theme.id < best.id)) && this.similarity(m, theme.anchor.vector, theme.anchor) >= this.anchorMin) {
        best = theme;
        bestScore = s;
      }
    }
    if (best && bestScore >= this.join) {
      this.absorb(best, m, bestScore);
      return { themeId: best.id, founded: false };
    }
    let partner: Member | undefined;
    let partnerScore = -1;
    for (const other of this.candidates(m.terms, this.poolPostings)) {
      // Two pains found a theme only when they name one thing: pairs that shared ordinary words
      // and their threads' topics made the small themes of a backfill, and two annotators, blind
      // to the rule, called 2 and 2 of 20 of them coherent, against 5 and 5 of 20 when the pair
      // had to share a name in particular, and as many again when a name few pains say counts
      // too (8 and 8 of 30 against 7 and 6; docs/quality.md, "Themes founded by a shared name").
      if (other.doc.postId === m.doc.postId || !this.sharesAName(m, other)) continue;
      const s = this.similarity(m, other.vector, other);
      if (s > partnerScore) {
        partner = other;
        partnerScore = s;
      }
    }
    if (partner && partnerScore >= this.pair) {
      this.fromPool(partner);
      // The older pain founds the theme: its id is the same whichever run pairs them.
      const theme = this.found(this.newThemeId(partner.doc), partner);
      this.absorb(theme, m, partnerScore);
      this.assigned.set(partner.doc.signalId, theme.id);
      return { themeId: theme.id, founded: true };
    }
    this.toPool(m);
    return { themeId: null, founded: false };
  }

  /**
   * Whether two pains name one thing: a chunk both name that says something in particular as
   * each writes it ("tool calling", "RAG", "Kimi K2"), or that few of the pains seen name
   * (RARE_NAME_SHARE). English frequency alone would keep a student's "landlord" or "refund"
   * from ever founding a theme; the community's own frequency alone would let "model" found one
   * in r/LocalLLaMA while its pains are few.
   */
  private sharesAName(a: Member, b: Member): boolean {
    const rare = Math.max(5, this.pains * RARE_NAME_SHARE);
    for (const key of a.named.keys()) {
      if (!b.named.has(key)) continue;
      if ((a.particular.has(key) && b.particular.has(key)) || (this.chunkDf.get(key) ?? 0) <= rare) return true;
    }
    return false;
  }

  private similarity(a: Member, bv: Float32Array | undefined, b: { terms: Map<string, number>; norm: number; normEpoch: number }): number {
    const vector = a.vector && bv ? cosine(a.vector, bv) : 0;
    return this.vectorShare * Math.max(0, vector) + (1 - this.vectorShare) * this.termCosine(a, b);
  }

  /** TF-IDF cosine; `a` is a pain (a dozen terms), `b` a pain or a theme (up to MAX_TERMS). */
  private termCosine(a: { terms: Map<string, number>; norm: number; normEpoch: number }, b: { terms: Map<string, number>; norm: number; normEpoch: number }): number {
    let dot = 0;
    for (const [t, n] of a.terms) {
      const m = b.terms.get(t);
      if (m !== undefined) {
        const w = this.idf(t);
        dot += n * m * w * w;
      }
    }
    if (dot === 0) return 0;
    return dot / (this.norm(a) * this.norm(b));
  }

  private norm(x: { terms: Map<string, number>; norm: number; normEpoch: number }): number {
    if (x.normEpoch !== this.epoch) {
      let sum = 0;
      for (const [t, n] of x.terms) sum += (n * this.idf(t)) ** 2;
      x.norm = Math.sqrt(sum) || 1;
      x.normEpoch = this.epoch;
    }
    return x.norm;
  }

  private idf(term: string): number {
    let w = this.idfCache.get(term);
    if (w === undefined) {
      w = smoothedIdf(this.pains, this.df.get(term) ?? 0);
      this.idfCache.set(term, w);
    }
    return w;
  }

  /** A new epoch of weights once the corpus grew by a twentieth (see idfCache). */
  private maybeNewEpoch(): void {
    if (this.pains < this.epochAt * 1.05 + 20) return;
    this.epochAt = this.pains;
    this.epoch += 1;
    this.idfCache.clear();
  }

  /**
   * Themes or pooled pains worth comparing: those sharing a term that is not common. A match
   * sharing none cannot reach JOIN: shared terms carry the similarity, the vectors alone weigh
   * VECTOR_SHARE.
   */
  private candidates<T>(terms: Map<string, number>, postings: Map<string, Set<T>>): Set<T> {
    const out = new Set<T>();
    const common = Math.max(30, this.pains * COMMON_SHARE);
    for (const term of terms.keys()) {
      if ((this.df.get(term) ?? 0) > common) continue;
      for (const item of postings.get(term) ?? []) out.add(item);
    }
    return out;
  }

  private toPool(m: Member): void {
    this.pool.push(m);
    for (const term of m.terms.keys()) {
      let posting = this.poolPostings.get(term);
      if (!posting) this.poolPostings.set(term, (posting = new Set()));
      posting.add(m);
    }
    // The oldest pooled pains give way: a pain nobody echoed for POOL_MAX pains stays unthemed.
    while (this.pool.length > POOL_MAX) this.fromPool(this.pool[0]!);
  }

  private fromPool(m: Member): void {
    const i = this.pool.indexOf(m);
    if (i !== -1) this.pool.splice(i, 1);
    for (const term of m.terms.keys()) this.poolPostings.get(term)?.delete(m);
  }

  private member(doc: PainDoc): Member {
    const tokens = tag(doc.quote);
    const vector = this.vectors.sentenceVector(contentWords(doc.quote));
    const terms = termCounts(doc.quote);
    for (const [t, n] of termCounts(doc.context)) terms.set(t, (terms.get(t) ?? 0) + n * this.contextWeight);
    const chunks = chunksOf(tokens);
    // A noun chunk is a term too: "tool calling" shared means more than "tool" and "calling".
    for (const c of chunks) if (c.key.includes(' ')) terms.set(c.key, (terms.get(c.key) ?? 0) + 1);
    this.pains += 1;
    for (const t of terms.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    const named = new Map(namesOf(tokens).map((c) => [c.key, c]));
    for (const c of this.contextChunks(doc.context)) if (!named.has(c.key)) named.set(c.key, c);
    for (const key of named.keys()) this.chunkDf.set(key, (this.chunkDf.get(key) ?? 0) + 1);
    const particularKeys = new Set([...named.values()].filter((c) => particular(c.key, c.display)).map((c) => c.key));
    return { doc, vector, terms, chunks, named, particular: particularKeys, norm: 0, normEpoch: -1 };
  }

  private contextChunks(context: string): { key: string; display: string }[] {
    let chunks = this.contextCache.get(context);
    if (chunks === undefined) {
      if (this.contextCache.size >= CONTEXT_CACHE_MAX) this.contextCache = new Map();
      chunks = namesOf(tag(context));
      this.contextCache.set(context, chunks);
    }
    return chunks;
  }

  private found(id: string, first: Member): ThemeState {
    const theme: ThemeState = {
      id,
      vectorSum: new Float32Array(this.vectors.dims),
      centroid: undefined,
      terms: new Map(),
      norm: 0,
      normEpoch: -1,
      docs: 0,
      posts: new Set(),
      chunks: new Map(),
      problems: new Map(),
      quotes: [],
      communities: new Map(),
      firstAt: first.doc.at,
      lastAt: first.doc.at,
      anchor: first,
      seeded: false,
      changed: true,
    };
    this.themes.push(theme);
    this.byId.set(id, theme);
    this.absorb(theme, first, 1);
    return theme;
  }

  /** Adds term counts to a theme, indexed for candidate lookup; its norm is recomputed on next use. */
  private addTerms(theme: ThemeState, terms: Map<string, number>): void {
    for (const [t, n] of terms) {
      theme.terms.set(t, (theme.terms.get(t) ?? 0) + n);
      let posting = this.themePostings.get(t);
      if (!posting) this.themePostings.set(t, (posting = new Set()));
      posting.add(theme);
    }
    if (theme.terms.size > MAX_TERMS) pruneTerms(theme, this.themePostings);
    theme.normEpoch = -1;
  }

  private absorb(theme: ThemeState, m: Member, similarity: number): void {
    if (m.vector) {
      addInto(theme.vectorSum, m.vector);
      theme.centroid = normalize(Float32Array.from(theme.vectorSum));
    }
    this.addTerms(theme, m.terms);
    theme.docs += 1;
    if (theme.posts.size < MAX_POSTS_TRACKED) theme.posts.add(m.doc.postId);
    for (const { key, display } of m.named.values()) {
      const c = theme.chunks.get(key) ?? { posts: new Set<string>(), displays: new Map<string, number>() };
      // Once per post, spelling too: a thread with twenty pains does not outvote the others.
      if (c.posts.has(m.doc.postId)) continue;
      if (c.posts.size < MAX_POSTS_TRACKED) c.posts.add(m.doc.postId);
      c.displays.set(display, (c.displays.get(display) ?? 0) + 1);
      theme.chunks.set(key, c);
    }
    if (theme.chunks.size > MAX_CHUNKS) pruneChunks(theme.chunks);
    const problem = PROBLEM_WORDS.findIndex(([re]) => re.test(m.doc.quote));
    if (problem !== -1) theme.problems.set(problem, (theme.problems.get(problem) ?? 0) + 1);
    theme.communities.set(m.doc.community, (theme.communities.get(m.doc.community) ?? 0) + 1);
    if (m.doc.at < theme.firstAt) theme.firstAt = m.doc.at;
    if (m.doc.at > theme.lastAt) theme.lastAt = m.doc.at;
    if (!theme.quotes.some((q) => q.quote === m.doc.quote)) {
      theme.quotes.push({ quote: m.doc.quote, similarity });
      theme.quotes.sort((a, b) => b.similarity - a.similarity || (a.quote < b.quote ? -1 : 1));
      theme.quotes.length = Math.min(theme.quotes.length, MAX_QUOTES);
    }
    theme.changed = true;
  }

  /**
   * The noun chunk most characteristic of the theme: named by most of its posts and rarely
   * elsewhere (posts × idf², idf over all pains; a chunk in more than TITLE_MAX_SHARE of all pains
   * is skipped), in its most frequent spelling. Posts, not pains: a thread with twenty pains in a
   * theme titled it after its own headline ("Slow airport people" for a theme about running
   * models locally). idf squared: with idf alone the broad word of a name won ("Problems with
   * calling", "Problems with Coder" where idf² gives "tool calling", "Qwen3-Coder"). A chunk two
   * of its posts name comes before any that only one names, when it says something in particular
   * (`particular`). By idf² alone one post's words titled half the themes ("Problems with blatant
   * attempt" over six posts); two posts sharing an ordinary word say little more ("Problems with
   * type", "Problems with words" in daily briefs).
   */
  private leadingChunk(theme: ThemeState): string | undefined {
    return this.leadingChunks(theme, 1)[0]?.display;
  }

  /** The `n` most characteristic chunks, best first (see leadingChunk). */
  private leadingChunks(theme: ThemeState, n: number): { display: string; score: number }[] {
    const scored: { score: number; key: string; chunk: ThemeChunk; shared: number }[] = [];
    const common = Math.max(5, this.pains * TITLE_MAX_SHARE);
    for (const [key, c] of theme.chunks) {
      const df = this.chunkDf.get(key) ?? 0;
      if (df > common && this.pains > 40) continue;
      const idf = smoothedIdf(this.pains, df);
      const shared = Number(c.posts.size >= 2 && particular(key, displayOf(c)));
      scored.push({ score: c.posts.size * idf * idf * (key.includes(' ') ? 1.4 : 1), key, chunk: c, shared });
    }
    scored.sort((a, b) => b.shared - a.shared || b.score - a.score || (a.key < b.key ? -1 : 1));
    const named: typeof scored = [];
    for (const x of scored) {
      if (named.length === n) break;
      if (!this.onlyAPiece(x.key, theme)) named.push(x);
    }
    return named.map(({ chunk, score }) => ({ display: displayOf(chunk), score }));
  }

  /**
   * Whether a chunk is never named apart from a longer one of the theme that holds it: every pain
   * naming "east Asian" named "east Asian languages". Scored alike, the shorter won on its
   * spelling, and a piece titled the theme ("Slow Asian languages", "Problems with 32-bit
   * Raspberry").
   */
  private onlyAPiece(key: string, theme: ThemeState): boolean {
    const df = this.chunkDf.get(key);
    for (const longer of theme.chunks.keys()) {
      if (longer.length > key.length && ` ${longer} `.includes(` ${key} `) && this.chunkDf.get(longer) === df) return true;
    }
    return false;
  }

  /** The kind of problem its pains name most, if at least PROBLEM_SHARE of them name it. */
  private dominantProblem(theme: ThemeState): number | undefined {
    let best: [number, number] | undefined;
    for (const [i, n] of theme.problems) if (!best || n > best[1] || (n === best[1] && i < best[0])) best = [i, n];
    return best && best[1] >= PROBLEM_SHARE * theme.docs ? best[0] : undefined;
  }
}

/** Inverse document frequency, smoothed: a word in none of `docs` documents still weighs finitely. */
function smoothedIdf(docs: number, df: number): number {
  return Math.log((1 + docs) / (1 + df)) + 1;
}

function pruneTerms(theme: ThemeState, postings: Map<string, Set<ThemeState>>): void {
  const ranked = [...theme.terms].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
  for (const [term] of ranked.slice(MAX_TERMS)) {
    theme.terms.delete(term);
    postings.get(term)?.delete(theme);
  }
}

/**
 * How a pain theme's summary ends: its example quote. The brief drops it when the item leads
 * with the same quote (brief.ts), so it is made in one place.
 */
export function exampleClause(quote: string): string {
  const example = clip(quote, 150);
  // A quote that ends its own sentence ends this one: no “….”.
  return `, for example “${example}”${/[.!?…]$/.test(example) ? '' : '.'}`;
}

/** Content words of a text for its vector: stopwords out (they blur every sentence alike). */
function contentWords(text: string): string[] {
  return words(text)
    .filter((w) => !w.stop)
    .map((w) => w.word);
}

/** Noun chunks worth naming a theme: no vague or emotional word alone, no pronoun-only chunk. */
function chunksOf(tokens: readonly Token[]): { key: string; display: string }[] {
  const out: { key: string; display: string }[] = [];
  for (const [from, to] of nounChunks(tokens)) {
    // Drop leading qualities ("huge", "terrible") so the chunk names the thing.
    let start = from;
    while (start < to - 1 && (tokens[start]!.pos === 'ADJ' && VAGUE_WORDS.has(tokens[start]!.lower))) start++;
    const chunk = chunkOf(tokens.slice(start, to));
    if (chunk) out.push(chunk);
  }
  return out;
}

/**
 * What a pain names, for its theme's title: the noun chunks of a text and their runs of up to
 * NAME_WORDS words ("Kimi K2" of "Kimi K2 Instruct", "tool calling" of "local tool calling
 * support"). Thread titles say one thing many ways ("Kimi K2 Instruct", "Kimi K2 is slow", "new
 * Kimi K2 quants"): the run they share is what the theme is about, and only runs can meet.
 */
function namesOf(tokens: readonly Token[]): { key: string; display: string }[] {
  const headline = titleCase(tokens);
  const out = new Map<string, { key: string; display: string }>();
  for (const [chunkFrom, to] of nounChunks(tokens)) {
    // The tagger reads the "Hugging" of "Hugging Face" as a verb: a capitalised word inside a
    // sentence, not a headline, belongs to the name that follows it.
    const before = tokens[chunkFrom - 1];
    const from = chunkFrom > 1 && !headline && before && /^[A-Z][a-z]+$/.test(before.text) && (before.pos === 'VERB' || before.pos === 'ADJ') ? chunkFrom - 1 : chunkFrom;
    for (let i = from; i < to; i++) {
      // A quantity is no name: "GB VRAM" of "96 GB VRAM" opens on the number's unit.
      if (i > 0 && tokens[i - 1]!.pos === 'NUM' && UNIT_WORDS.has(tokens[i]!.lower)) continue;
      for (let j = i + 1; j <= Math.min(to, i + NAME_WORDS); j++) {
        // A span opening with a quality ("big push", "actual expert") is the span without it.
        if (tokens[i]!.pos === 'ADJ' && (VAGUE_WORDS.has(tokens[i]!.lower) || QUALITIES.has(tokens[i]!.lower))) continue;
        const chunk = chunkOf(tokens.slice(i, j), true, i === 0);
        if (chunk && !out.has(chunk.key)) out.set(chunk.key, chunk);
      }
    }
  }
  return [...out.values()];
}

const NAME_WORDS = 3;
const UNIT_WORDS: ReadonlySet<string> = new Set(UNITS);
/** Adjectives of size or degree: they say how much, not what. */
const QUALITIES = new Set('big bigger biggest huge tiny actual full real whole entire simple basic main certain specific particular various several general'.split(' '));

/**
 * A noun chunk worth naming a theme, keyed by its lower-cased words and its head's lemma; undefined
 * if it names nothing. `asName`: judged as what a theme's title names (namesOf), by the stricter
 * rules below; otherwise as a term the grouper compares (chunksOf).
 */
function chunkOf(words: readonly Token[], asName = false, atStart?: boolean): { key: string; display: string } | undefined {
  if (words.length === 0 || words.length > 5) return undefined;
  if (words.every((t) => isVague(t) || PROBLEM_NOUNS.has(t.lower) || PROBLEM_NOUNS.has(t.lemma))) return undefined;
  // A word with digits is a size ("32GB") or a version ("Qwen3-235B"): as a name,
  // one that starts with two letters names a model or a part ("Qwen3", "DDR5").
  if (words.length === 1 && (words[0]!.text.length < 3 || (/\d/.test(words[0]!.text) && !(asName && /^[A-Za-z]{2}/.test(words[0]!.text))))) return undefined;
  // Versions alone ("A22B Q3KS") name nothing: a name has a word opening with two letters. A name ending in
  // the kind of problem ("tokenizer error") is the thing it names ("tokenizer"): the title says the kind.
  if (asName && (!words.some((t) => /^[A-Za-z]{2}/.test(t.text)) || PROBLEM_NOUNS.has(words[words.length - 1]!.lower))) return undefined;
  // "Failing", "slow crashes": the kind of problem with nothing it happens to.
  if (asName && words.every((t) => PROBLEM_WORDS.some(([re]) => re.test(t.text)))) return undefined;
  // A name is what its last word names, and a feeling names nothing ("academic bullshit").
  if (asName && SENTIMENT_WORDS.has(words[words.length - 1]!.lower)) return undefined;
  // Nor does a word that is no noun: a run of a noun chunk can end inside it ("absolute fastest"
  // of "the absolute fastest way", "Free online" of "Free online demo", "Claude Code seeing").
  if (asName && !namesAThing(words, atStart)) return undefined;
  // Numbers and single letters come from sizes and versions ("32 B"): they name no problem; nor
  // does forum shorthand ("Slow confused tbh").
  if (words.some((t) => t.type !== 'word' || t.pos === 'NUM' || t.pos === 'PRON' || t.text.length < 2 || /['’]/.test(t.text) || (asName && CHAT_SHORTHAND.has(t.lower)))) return undefined;
  const key = words.map((t, i) => (i === words.length - 1 ? t.lemma : t.lower)).join(' ');
  // A sentence's capital goes ("Memory leaks" → "memory leaks"). `atStart`, when known: whether
  // the words open their sentence (only then is a capital the sentence's: "on Hugging Face" keeps
  // it). A headline's capitals stay: they are as often a name's ("LM Studio", "Kimi K2") as not.
  const lower = (t: Token, i: number) => /^[A-Z][a-z]+$/.test(t.text) && i === 0 && t.pos !== 'PROPN' && (atStart ?? true);
  const display = words.map((t, i) => (lower(t, i) ? t.lower : t.text)).join(' ');
  return { key, display };
}

/**
 * Whether a run of words ends on a noun, so it can name a thing: a noun or a name, or the
 * "-ing" of a compound, which the tagger reads as a verb. After a noun it is one ("prompt
 * processing"); after a name only when capitalised as the name's part ("Qwen Embedding"), or
 * when the "name" is a sentence's first word, which the tagger reads as a name for its capital
 * ("Tool calling breaks"). "Claude Code seeing" is no name.
 */
function namesAThing(words: readonly Token[], atStart: boolean | undefined): boolean {
  const last = words[words.length - 1]!;
  if (last.pos === 'NOUN' || last.pos === 'PROPN') return true;
  const before = words[words.length - 2];
  if (last.pos !== 'VERB' || !last.lower.endsWith('ing') || before === undefined) return false;
  if (before.pos === 'NOUN') return true;
  return before.pos === 'PROPN' && (/^[A-Z]/.test(last.text) || (words.length === 2 && (atStart ?? true)));
}

/**
 * Whether a chunk says something in particular: several words, an acronym or an uncommon word.
 * Judged as written, not as keyed: the key's lemma of "data" is the uncommon "datum", and "RAG"
 * is an acronym, not the ordinary word "rag".
 */
function particular(key: string, display: string): boolean {
  if (key.includes(' ')) return true;
  return isAcronym(display) || !ordinaryWord(display.toLowerCase());
}

/** A chunk's most frequent spelling. */
function displayOf(chunk: ThemeChunk): string {
  return [...chunk.displays].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
}

function pruneChunks(chunks: Map<string, ThemeChunk>): void {
  const ranked = [...chunks].sort((x, y) => y[1].posts.size - x[1].posts.size || (x[0] < y[0] ? -1 : 1));
  for (const [key] of ranked.slice(MAX_CHUNKS / 2)) chunks.delete(key);
}
