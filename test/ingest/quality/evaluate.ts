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
import { analyzeThread } from '../../../src/ingest/analyze/rules.ts';
import { productKey } from '../../../src/ingest/analyze/text.ts';
import type { AnalyzerMemory } from '../../../src/ingest/analyze/analyzer.ts';
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

export function loadLabels(): Label[] {
  return JSON.parse(readFileSync(new URL('../../fixtures/quality/localllama-labels.json', import.meta.url), 'utf8')) as Label[];
}

export interface PostResult {
  label: Label;
  post: BundlePost;
  predictedQuotes: string[];
  predictedProducts: string[];
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
  allRecall: number;
  results: PostResult[];
}

/** Character spans of `quote` in the post's title or text (each occurrence). */
function spans(post: BundlePost, quote: string): [string, number, number][] {
  const out: [string, number, number][] = [];
  for (const [field, text] of [['title', post.title], ['selftext', post.selftext]] as const) {
    for (let i = text.indexOf(quote); i !== -1; i = text.indexOf(quote, i + 1)) out.push([field, i, i + quote.length]);
  }
  return out;
}

function overlaps(post: BundlePost, a: string, b: string): boolean {
  return spans(post, a).some(([fa, sa, ea]) => spans(post, b).some(([fb, sb, eb]) => fa === fb && sa < eb && sb < ea));
}

export function evaluate(labels = loadLabels(), memory = EVALUATION_MEMORY): Scores {
  const threads = new Map(fixtureThreads().map((t) => [t.id, t]));
  const tracked = new Set(memory.competitors.map((c) => productKey(c.name)));
  const results: PostResult[] = [];
  let truePositives = 0;
  let predictedPainPosts = 0;
  let trackedMentions = 0;
  let trackedFound = 0;
  let allFound = 0;
  let allMentions = 0;
  for (const label of labels) {
    const post = threads.get(label.id);
    if (!post) throw new Error(`label ${label.id}: no such thread in the fixture`);
    const found = analyzeThread({ ...post, comments: [] }, memory);
    const predictedQuotes = found.filter((s) => s.kind === 'pain').map((s) => s.quote);
    const predictedProducts = [...new Set(found.filter((s) => s.kind === 'competitor').map((s) => productKey(s.competitor!)))];
    const painHit = label.pain && predictedQuotes.some((p) => label.quotes.some((q) => overlaps(post, p, q)));
    if (predictedQuotes.length > 0) predictedPainPosts += 1;
    if (painHit) truePositives += 1;
    for (const product of new Set(label.products.map(productKey))) {
      const hit = predictedProducts.includes(product);
      allMentions += 1;
      if (hit) allFound += 1;
      if (tracked.has(product)) {
        trackedMentions += 1;
        if (hit) trackedFound += 1;
      }
    }
    results.push({ label, post, predictedQuotes, predictedProducts, painHit });
  }
  const painPosts = labels.filter((l) => l.pain).length;
  return {
    posts: labels.length,
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
    results,
  };
}
