/**
 * The rules analyzer against hand labels (docs/quality.md): 120 opening posts of the shipped
 * r/LocalLLaMA fixture (every second thread), each labelled by reading it — pain yes/no with the
 * sentences that voice it, and every software product it names. Labels were made before this
 * evaluation existed and without looking at the analyzer; they live in
 * test/fixtures/quality/localllama-labels.json.
 *
 * The unit is the opening post (title + text): the analyzer runs on the thread without its
 * comments, so prediction and label cover the same words.
 *
 * - Pain: a post is predicted pain when the analyzer finds at least one pain in it. A true
 *   positive is a labelled pain post where one predicted quote overlaps one labelled quote (same
 *   characters of the post), so a right guess for the wrong reason does not count.
 * - Products: recall of labelled (post, product) mentions among the analyzer's competitor
 *   signals, keyed like competitors.list (productKey). Reported for the products the evaluation
 *   project tracks in its memory (what the rules analyzer finds anywhere) and for all products
 *   (untracked ones it finds only in comparison contexts).
 */
import { readFileSync } from 'node:fs';
import { familyKey } from '../../../src/ingest/analyze/products.ts';
import { threadReader } from '../../../src/ingest/analyze/rules.ts';
import { NameSizes } from '../../../src/ingest/digest/name-sizes.ts';
import type { Analyzer, AnalyzerMemory, AnalyzerReport, FoundSignal } from '../../../src/ingest/analyze/analyzer.ts';
import type { BundlePost } from '../../../src/ingest/bundle.ts';
import { fixtureThreads } from '../../helpers/reddit-export.ts';

export interface Label {
  id: string;
  pain: boolean;
  quotes: string[];
  products: string[];
  note: string;
}

/**
 * What a local-inference startup would track: the product list the demo used before the labels
 * were made (src/ingest/demo-bundle.ts at the time), not tuned to them.
 */
export const EVALUATION_TRACKED = [
  'Ollama',
  'llama.cpp',
  'LM Studio',
  'vLLM',
  'OpenRouter',
  'Claude',
  'ChatGPT',
  'koboldcpp',
  'text-generation-webui',
  'ExLlama',
  'MLX',
  'Jan',
  'GPT4All',
];

export const EVALUATION_MEMORY: AnalyzerMemory = {
  name: 'Quantforge',
  description: '',
  competitors: EVALUATION_TRACKED.map((name) => ({ name, url: 'https://example.com', description: '' })),
  offerings: [],
  filterRules: [],
};

/** Which half of the labels: `tuning` (the first 120, which rules were developed against) or `heldout`. */
export type LabelSet = 'tuning' | 'heldout';

export interface SetLabel extends Label {
  set: LabelSet;
}

/**
 * All 240 labelled posts. The first 120 (`localllama-labels.json`) are the tuning half: rules were
 * developed while reading them. The other 120 (`localllama-labels-heldout.json`) were labelled
 * blind, before the current analyzer's output existed, and are never read post by post while
 * changing rules: their scores are the figures docs/quality.md reports.
 */
export function loadLabels(): SetLabel[] {
  const read = (file: string, set: LabelSet) =>
    (JSON.parse(readFileSync(new URL(`../../fixtures/quality/${file}`, import.meta.url), 'utf8')) as Label[]).map((l) => ({ ...l, set }));
  return [...read('localllama-labels.json', 'tuning'), ...read('localllama-labels-heldout.json', 'heldout')];
}

export interface ThemeLabels {
  themes: { id: string; title: string; description: string }[];
  /** Pain post id → theme id. */
  posts: Record<string, string>;
}

export function loadThemeLabels(): ThemeLabels {
  return JSON.parse(readFileSync(new URL('../../fixtures/quality/localllama-themes.json', import.meta.url), 'utf8')) as ThemeLabels;
}

export interface PostResult {
  /** Its half, for the 240 fixture posts; other label sets (dev-set.ts) have none. */
  label: Label & { set?: LabelSet };
  post: BundlePost;
  predictedQuotes: string[];
  /** Family keys of the products the analyzer found. */
  predictedProducts: string[];
  /** Product names as the analyzer spelled them (for the top-20 list). */
  predictedNames: string[];
  painHit: boolean;
}

export interface Scores {
  posts: number;
  painPosts: number;
  predictedPainPosts: number;
  truePositives: number;
  painPrecision: number;
  painRecall: number;
  trackedMentions: number;
  trackedFound: number;
  trackedRecall: number;
  allMentions: number;
  allFound: number;
  /** Product recall: labelled (post, product) pairs found, every product. */
  allRecall: number;
  /** The 20 products found most often (by posts), each with whether the labels know it as a product. */
  topProducts: { name: string; posts: number; product: boolean }[];
  /** Share of `topProducts` that are products. */
  productPrecision: number;
  results: PostResult[];
}

/** Character spans of `quote` in the post's title or text (each occurrence). */
function spans(post: Pick<BundlePost, 'title' | 'selftext'>, quote: string): [string, number, number][] {
  const out: [string, number, number][] = [];
  for (const [field, text] of [['title', post.title], ['selftext', post.selftext]] as const) {
    for (let i = text.indexOf(quote); i !== -1; i = text.indexOf(quote, i + 1)) out.push([field, i, i + quote.length]);
  }
  return out;
}

/** Do quotes a and b share characters of the post (title or text)? */
export function overlaps(post: Pick<BundlePost, 'title' | 'selftext'>, a: string, b: string): boolean {
  return spans(post, a).some(([fa, sa, ea]) => spans(post, b).some(([fb, sb, eb]) => fa === fb && sa < eb && sb < ea));
}

/** Every product any label names, by family (what "is a product" means for the top-20 list). */
function labelledProducts(labels: readonly Label[]): Set<string> {
  return new Set(labels.flatMap((l) => l.products.map(familyKey)));
}

/** The labelled posts as the analyzer reads them for scoring: opening posts, without their comments. */
function openingPosts(labels: readonly Label[], posts: readonly BundlePost[]): BundlePost[] {
  const threads = new Map(posts.map((t) => [t.id, t]));
  return labels.map((label) => {
    const post = threads.get(label.id);
    if (!post) throw new Error(`label ${label.id}: no such thread among the labelled posts`);
    return { ...post, comments: [] };
  });
}

/** The scores of what an analyzer found in each opening post (`found[i]` of `opening[i]`, labelled `labels[i]`). */
function scoreFound(labels: PostResult['label'][], opening: readonly BundlePost[], found: readonly FoundSignal[][], memory: AnalyzerMemory): Scores {
  const results = labels.map((label, i): PostResult => {
    const post = opening[i]!;
    const signals = found[i] ?? [];
    const predictedQuotes = signals.filter((s) => s.kind === 'pain').map((s) => s.quote);
    const names = [...new Set(signals.filter((s) => s.kind === 'competitor').map((s) => s.competitor!))];
    const predictedProducts = [...new Set(names.map(familyKey))];
    const painHit = label.pain && predictedQuotes.some((p) => label.quotes.some((q) => overlaps(post, p, q)));
    return { label, post, predictedQuotes, predictedProducts, predictedNames: names, painHit };
  });
  return score(withoutNonProducts(results, memory), memory, labelledProducts(loadLabels()));
}

/** The `rules` analyzer's scores. `posts`: the labelled posts (the shipped fixture unless another label set is scored). */
export function evaluate(labels: PostResult['label'][] = loadLabels(), memory = EVALUATION_MEMORY, posts: readonly BundlePost[] = fixtureThreads()): Scores {
  const opening = openingPosts(labels, posts);
  return scoreFound(labels, opening, opening.map(threadReader(memory)), memory);
}

/**
 * Any analyzer's scores on the 240 labelled posts, per half (`npm run quality -- --analyzer llm`):
 * one run over their opening posts, as a digest run would read them, and what the run reported
 * (which analyzer read each post in the end, and what it dropped).
 */
export async function evaluateAnalyzer(analyzer: Analyzer, memory = EVALUATION_MEMORY): Promise<{ scores: Record<LabelSet | 'all', Scores>; report: AnalyzerReport }> {
  const labels = loadLabels();
  const opening = openingPosts(labels, fixtureThreads());
  const run = analyzer.start(memory);
  try {
    const found = await run.analyze(opening);
    return { scores: bySet(scoreFound(labels, opening, found, memory), memory), report: run.report() };
  } finally {
    await run.close();
  }
}

/**
 * What competitors.list would show: names the scored posts write as model families ("QwQ-32B")
 * or as hardware ("Epyc CPU") leave, as a run over those posts would drop them
 * (ingest/digest/name-sizes.ts). The posts are
 * read without their comments, so the counts are too.
 */
function withoutNonProducts(results: PostResult[], memory: AnalyzerMemory): PostResult[] {
  const sizes = new NameSizes('evaluation', memory.competitors.map((c) => c.name));
  sizes.weighPassages(results.map((r) => ({ ...r.post, comments: [] })), new Map());
  sizes.weighMentions(results.flatMap((r) => r.predictedNames));
  return results.map((r) => {
    const predictedNames = r.predictedNames.filter((name) => !sizes.notAProduct(name));
    return { ...r, predictedNames, predictedProducts: [...new Set(predictedNames.map(familyKey))] };
  });
}

/** The scores of some of the results (one half, or all). */
export function score(results: PostResult[], memory: AnalyzerMemory, products: Set<string>): Scores {
  const tracked = new Set(memory.competitors.map((c) => familyKey(c.name)));
  let truePositives = 0;
  let predictedPainPosts = 0;
  let trackedMentions = 0;
  let trackedFound = 0;
  let allFound = 0;
  let allMentions = 0;
  const byProduct = new Map<string, { name: string; posts: number }>();
  for (const r of results) {
    if (r.predictedQuotes.length > 0) predictedPainPosts += 1;
    if (r.painHit) truePositives += 1;
    for (const product of new Set(r.label.products.map(familyKey))) {
      const hit = r.predictedProducts.includes(product);
      allMentions += 1;
      if (hit) allFound += 1;
      if (tracked.has(product)) {
        trackedMentions += 1;
        if (hit) trackedFound += 1;
      }
    }
    for (const name of r.predictedNames) {
      const key = familyKey(name);
      const entry = byProduct.get(key) ?? { name, posts: 0 };
      entry.posts += 1;
      byProduct.set(key, entry);
    }
  }
  const topProducts = [...byProduct]
    .sort((a, b) => b[1].posts - a[1].posts || (a[0] < b[0] ? -1 : 1))
    .slice(0, 20)
    .map(([key, p]) => ({ name: p.name, posts: p.posts, product: products.has(key) }));
  const painPosts = results.filter((r) => r.label.pain).length;
  return {
    posts: results.length,
    painPosts,
    predictedPainPosts,
    truePositives,
    painPrecision: truePositives / Math.max(1, predictedPainPosts),
    painRecall: truePositives / Math.max(1, painPosts),
    trackedMentions,
    trackedFound,
    trackedRecall: trackedFound / Math.max(1, trackedMentions),
    allMentions,
    allFound,
    allRecall: allFound / Math.max(1, allMentions),
    topProducts,
    productPrecision: topProducts.filter((p) => p.product).length / Math.max(1, topProducts.length),
    results,
  };
}

/** Scores per half: `heldout` is the figure to report. */
export function evaluateBySet(memory = EVALUATION_MEMORY): Record<LabelSet | 'all', Scores> {
  return bySet(evaluate(loadLabels(), memory), memory);
}

/** The scores of every labelled post, and of each half apart. */
function bySet(all: Scores, memory: AnalyzerMemory): Record<LabelSet | 'all', Scores> {
  const products = labelledProducts(loadLabels());
  const half = (set: LabelSet) => score(all.results.filter((r) => r.label.set === set), memory, products);
  return { all, tuning: half('tuning'), heldout: half('heldout') };
}
