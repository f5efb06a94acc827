/**
 * Theme grouping for the `rules` analyzer (DESIGN §8, "Group"): each new pain joins the most
 * similar theme of the project when the TF-IDF cosine of its text (quote + post title) with the
 * theme passes a threshold, else it founds a new theme.
 *
 * Incremental: a run seeds the grouper with the project's existing pain themes (their signals'
 * texts), so a pain seen today joins last week's theme. Document frequencies grow as documents
 * arrive, so weights are computed at comparison time from the current counts. Deterministic: the
 * same seed and the same pains in the same order give the same themes.
 *
 * Bounded: a theme keeps at most MAX_TERMS term counts and MAX_PHRASES title phrases (the most
 * frequent), so memory grows with the number of themes, never with the number of pains.
 */
import { shorten } from '../analyze/text.ts';
import { stem, termCounts, TOKEN, words } from './terms.ts';

/** Cosine at or above which a pain joins a theme; tuned on r/LocalLLaMA (docs/quality.md). */
export const JOIN_THRESHOLD = 0.3;
const MAX_TERMS = 60;
const MAX_PHRASES = 80;
const MAX_QUOTES = 5;
/** Terms in more than this share of documents do not nominate candidate themes (they say little). */
const COMMON_SHARE = 0.03;
/** Words too vague to title a theme on their own. */
const VAGUE = new Set(
  'issue problem problems issues question help model models error thing work works working run running good bad best better great way ok fine anyone someone'
    .split(' ')
    .map(stem),
);

/** Adjectives and adverbs that describe a complaint without naming its subject. */
const QUALITIES = new Set(
  'slow slower fast faster cool popular bad worse worst terrible awful horrible useless broken stupid annoying frustrating weird strange huge tiny small big large high low cheap expensive hard easy impossible really very super pretty quite'.split(' '),
);

export interface ThemeState {
  id: string;
  /** Summed term counts of its documents (capped at MAX_TERMS). */
  counts: Map<string, number>;
  /** Phrase → documents containing it and the display spelling seen first. */
  phrases: Map<string, { docs: number; display: string }>;
  docs: number;
  /** The quotes closest to the theme when they joined (at most MAX_QUOTES, closest first). */
  quotes: { quote: string; similarity: number }[];
  /** Set when this run added a document. */
  changed: boolean;
}

export interface Placement {
  themeId: string;
  founded: boolean;
}

export class ThemeGrouper {
  private readonly themes: ThemeState[] = [];
  private readonly byId = new Map<string, ThemeState>();
  private readonly postings = new Map<string, Set<ThemeState>>();
  private readonly df = new Map<string, number>();
  private documents = 0;
  /*
   * Weights are recomputed when the corpus has grown by a twentieth since they were last
   * computed, not on every document: a pain's weight barely moves between two neighbours, and
   * recomputing logs and norms for every comparison made grouping the slowest step of a run.
   */
  private weightsAt = 0;
  private readonly idfCache = new Map<string, number>();
  private readonly norms = new Map<ThemeState, number>();

  constructor(private readonly newThemeId: (firstQuote: string) => string) {}

  /** An existing theme and its documents, before the run's pains arrive. */
  seed(id: string, docs: { quote: string; title: string }[]): void {
    const theme = this.found(id, docs[0]?.quote ?? '');
    for (const doc of docs) this.join(theme, doc, termCounts(`${doc.quote} ${doc.title}`), 1);
    theme.changed = false;
  }

  /** Places a new pain: the most similar theme above the threshold, else a new one. */
  add(doc: { quote: string; title: string }): Placement {
    const counts = termCounts(`${doc.quote} ${doc.title}`);
    if (this.documents >= this.weightsAt * 1.05 + 20) this.refreshWeights();
    const docNorm = this.norm(counts);
    let best: ThemeState | undefined;
    let bestSimilarity = 0;
    for (const theme of this.candidates(counts)) {
      const similarity = this.dot(counts, theme.counts) / (docNorm * this.themeNorm(theme) || 1);
      if (similarity > bestSimilarity || (similarity === bestSimilarity && best && theme.id < best.id)) {
        best = theme;
        bestSimilarity = similarity;
      }
    }
    if (best && bestSimilarity >= JOIN_THRESHOLD) {
      this.join(best, doc, counts, bestSimilarity);
      return { themeId: best.id, founded: false };
    }
    const theme = this.found(this.newThemeId(doc.quote), doc.quote);
    this.join(theme, doc, counts, 1);
    return { themeId: theme.id, founded: true };
  }

  /** TF-IDF cosine of two texts under the project's current weights (offer fit, tests). */
  similarity(a: string, b: string): number {
    const x = termCounts(a);
    const y = termCounts(b);
    return this.dot(x, y) / (this.norm(x) * this.norm(y) || 1);
  }

  get(id: string): ThemeState | undefined {
    return this.byId.get(id);
  }

  changedThemes(): ThemeState[] {
    return this.themes.filter((t) => t.changed);
  }

  /** A short noun phrase: the theme's most telling 1–3 word phrase, by documents × rarity × length. */
  title(theme: ThemeState): string {
    const display = this.phrase(theme) ?? 'Other complaints';
    return display.charAt(0).toUpperCase() + display.slice(1);
  }

  /** One sentence: what the theme is about and the quote that stands for it (one naming it if any). */
  summary(theme: ThemeState): string {
    const phrase = this.phrase(theme);
    const naming = phrase ? theme.quotes.find((q) => q.quote.toLowerCase().includes(phrase.toLowerCase())) : undefined;
    const quote = (naming ?? theme.quotes[0])?.quote ?? '';
    return `Complaints about ${phrase ?? 'this'}, such as “${clip(quote, 160)}”.`;
  }

  private phrase(theme: ThemeState): string | undefined {
    let best: { score: number; display: string; key: string } | undefined;
    for (const [key, phrase] of theme.phrases) {
      const parts = key.split(' ');
      if (parts.every((w) => VAGUE.has(stem(w)))) continue;
      // A lone word names a theme only if it is a thing ("VRAM", "quantization"), not a quality.
      if (parts.length === 1 && (parts[0]!.length < 4 || QUALITIES.has(parts[0]!) || /\d/.test(parts[0]!))) continue;
      const rarity = Math.sqrt(parts.reduce((sum, w) => sum + this.idf(stem(w)), 0) / parts.length);
      // Shared phrases first (what the theme's posts have in common), then two-word phrases.
      const score = phrase.docs ** 1.5 * rarity * (parts.length === 1 ? 1 : parts.length === 2 ? 1.8 : 1.9);
      if (!best || score > best.score || (score === best.score && key < best.key)) best = { score, display: phrase.display, key };
    }
    return best?.display;
  }

  private found(id: string, quote: string): ThemeState {
    const theme: ThemeState = { id, counts: new Map(), phrases: new Map(), docs: 0, quotes: quote ? [{ quote, similarity: 1 }] : [], changed: true };
    this.themes.push(theme);
    this.byId.set(id, theme);
    return theme;
  }

  private join(theme: ThemeState, doc: { quote: string; title: string }, counts: Map<string, number>, similarity: number): void {
    this.documents += 1;
    for (const term of counts.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
    for (const [term, n] of counts) {
      theme.counts.set(term, (theme.counts.get(term) ?? 0) + n);
      let posting = this.postings.get(term);
      if (!posting) this.postings.set(term, (posting = new Set()));
      posting.add(theme);
    }
    if (theme.counts.size > MAX_TERMS) prune(theme.counts, MAX_TERMS, (term) => this.postings.get(term)?.delete(theme));
    for (const [key, display] of phrasesOf(doc.quote)) {
      const phrase = theme.phrases.get(key);
      if (phrase) phrase.docs += 1;
      else theme.phrases.set(key, { docs: 1, display });
    }
    if (theme.phrases.size > MAX_PHRASES) prunePhrases(theme.phrases);
    theme.docs += 1;
    this.norms.delete(theme);
    if (!theme.quotes.some((q) => q.quote === doc.quote)) {
      theme.quotes.push({ quote: doc.quote, similarity });
      theme.quotes.sort((a, b) => b.similarity - a.similarity || (a.quote < b.quote ? -1 : 1));
      theme.quotes.length = Math.min(theme.quotes.length, MAX_QUOTES);
    }
    theme.changed = true;
  }

  private candidates(counts: Map<string, number>): Set<ThemeState> {
    const out = new Set<ThemeState>();
    const common = Math.max(30, this.documents * COMMON_SHARE);
    for (const term of counts.keys()) {
      if ((this.df.get(term) ?? 0) > common) continue;
      for (const theme of this.postings.get(term) ?? []) out.add(theme);
    }
    return out;
  }

  private refreshWeights(): void {
    this.weightsAt = this.documents;
    this.idfCache.clear();
    this.norms.clear();
  }

  private idf(term: string): number {
    let value = this.idfCache.get(term);
    if (value === undefined) {
      value = Math.log((1 + this.documents) / (1 + (this.df.get(term) ?? 0))) + 1;
      this.idfCache.set(term, value);
    }
    return value;
  }

  private dot(a: Map<string, number>, b: Map<string, number>): number {
    let dot = 0;
    for (const [term, n] of a) {
      const m = b.get(term);
      if (m !== undefined) {
        const w = this.idf(term);
        dot += n * m * w * w;
      }
    }
    return dot;
  }

  private norm(counts: Map<string, number>): number {
    let sum = 0;
    for (const [term, n] of counts) {
      const w = n * this.idf(term);
      sum += w * w;
    }
    return Math.sqrt(sum);
  }

  private themeNorm(theme: ThemeState): number {
    let value = this.norms.get(theme);
    if (value === undefined) {
      value = this.norm(theme.counts);
      this.norms.set(theme, value);
    }
    return value;
  }
}

/** Content-word runs of a quote as 1–3 word phrases, keyed lower-case, shown as first written. */
function phrasesOf(quote: string): Map<string, string> {
  const out = new Map<string, string>();
  const tokens = [...quote.matchAll(TOKEN)].map((m) => m[0].replace(/[.'’-]+$/, ''));
  const flags = words(quote);
  // words() and the token scan split alike; if they ever disagree, phrases are skipped, not wrong.
  if (flags.length !== tokens.length) return out;
  let run: string[] = [];
  const flush = () => {
    for (let n = 1; n <= 3; n++) {
      for (let i = 0; i + n <= run.length; i++) {
        const display = run.slice(i, i + n).join(' ');
        const key = display.toLowerCase();
        if (!out.has(key)) out.set(key, display);
      }
    }
    run = [];
  };
  tokens.forEach((token, i) => {
    if (flags[i]!.stop) flush();
    else run.push(token);
  });
  flush();
  return out;
}

function prune(counts: Map<string, number>, keep: number, dropped: (term: string) => void): void {
  const ranked = [...counts].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
  for (const [term] of ranked.slice(keep)) {
    counts.delete(term);
    dropped(term);
  }
}

function prunePhrases(phrases: Map<string, { docs: number; display: string }>): void {
  const ranked = [...phrases].sort((x, y) => y[1].docs - x[1].docs || (x[0] < y[0] ? -1 : 1));
  for (const [key] of ranked.slice(MAX_PHRASES / 2)) phrases.delete(key);
}

/** The analyzer's word-boundary cut, marked as cut. */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${shorten(text, max)}…`;
}
