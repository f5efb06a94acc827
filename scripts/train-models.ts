/**
 * Trains what the `rules` analyzer learns from labelled posts and writes it to
 * src/ingest/analyze/data/: the pain model (pain-model.json, a logistic regression:
 * linear-model.ts) and the names the labels agree on (product-names.json: products.ts).
 * Deterministic: the same labels give the same files.
 *
 *   node --import tsx scripts/train-models.ts [--check]
 *
 * Trained on opening posts labelled by test/fixtures/quality/GUIDE.md:
 * - the training posts (fixtures/training/localllama-posts.json, drawn by
 *   scripts/sample-training-posts.ts from posts that are not in the shipped fixture, labelled in
 *   fixtures/training/localllama-labels.json);
 * - the tuning half of the quality labels (test/fixtures/quality/localllama-labels.json).
 * Never on the held-out half: its score is the figure docs/quality.md reports.
 *
 * - Pain model: one example per sentence the analyzer weighs (rules.ts readPassage), positive
 *   when it overlaps a labelled quote. Scored as `npm run quality` scores a post: a pain post
 *   counts as found when one of its predicted pains overlaps a labelled quote.
 *   The regularisation and the decision threshold are chosen by 5-fold cross-validation over
 *   posts: those that maximise F0.5 (precision weighs more than recall: a brief full of
 *   non-pains is not read).
 * - Product names: every candidate name (products.ts `names`) counted per post, and whether the
 *   post's label calls it a product (see knownNamesOf).
 * - Comment gate (comment-pain-model.json): comment sentences the pain model accepts, each
 *   labelled pain or not by the same GUIDE (fixtures/training/comment-pains.json; no comment of
 *   the 240 evaluated threads). Same features; lambda and threshold by 5-fold cross-validation
 *   over threads, maximising F0.5 over those sentences (a sentence is kept when the gate's
 *   probability reaches the threshold).
 *
 * `--check` retrains with the shipped settings and fails if a shipped file differs (the test
 * suite runs it: the files stay in step with the code and the labels).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { readPassage } from '../src/ingest/analyze/rules.ts';
import { familyKey, KNOWN_NAMES_PATH, linkSites, NO_KNOWN_NAMES, productMatcher, trackedProducts, type KnownNames, type ProductMatcher } from '../src/ingest/analyze/products.ts';
import { commentPainSpec, isPain, painSpec } from '../src/ingest/analyze/pain-model.ts';
import type { PainReading } from '../src/ingest/analyze/pain.ts';
import { linear, modelPath, sigmoid, type Features, type FeatureSpec, type LinearModelFile } from '../src/ingest/analyze/linear-model.ts';
import { wordVectors } from '../src/ingest/analyze/vectors.ts';
import { foldOfKey, train, type Weights } from './logistic-regression.ts';
import { overlaps, type Label } from '../test/ingest/quality/evaluate.ts';
import { fixtureThreads } from '../test/helpers/reddit-export.ts';

interface Post {
  id: string;
  title: string;
  selftext: string;
}

interface LabelledPost {
  post: Post;
  label: Label;
}

/** One training example: a sentence of post `post` that may be a pain. */
interface Example {
  post: number;
  features: Features;
  positive: boolean;
  /** pain.ts's reading of the sentence. */
  reading: PainReading | undefined;
}

const FOLDS = 5;
const LAMBDAS = [10, 30, 100, 300];
/** The analyzer keeps a thread's 4 strongest pains (rules.ts). */
const MAX_PAINS_PER_POST = 4;
const THRESHOLDS = Array.from({ length: 19 }, (_, i) => Math.round(5 * (i + 1)) / 100);

function readJson<T>(url: URL): T {
  return JSON.parse(readFileSync(url, 'utf8')) as T;
}

function labelledPosts(): LabelledPost[] {
  const out: LabelledPost[] = [];
  const trainingPosts = readJson<Post[]>(new URL('../fixtures/training/localllama-posts.json', import.meta.url));
  const trainingLabels = readJson<Label[]>(new URL('../fixtures/training/localllama-labels.json', import.meta.url));
  const byId = new Map<string, Post>(trainingPosts.map((p) => [p.id, p]));
  for (const label of trainingLabels) {
    const post = byId.get(label.id);
    if (!post) throw new Error(`training label ${label.id}: no such training post`);
    out.push({ post, label });
  }
  const fixture = new Map<string, Post>(fixtureThreads().map((t) => [t.id, t]));
  for (const label of readJson<Label[]>(new URL('../test/fixtures/quality/localllama-labels.json', import.meta.url))) {
    const post = fixture.get(label.id);
    if (!post) throw new Error(`tuning label ${label.id}: no such fixture thread`);
    out.push({ post, label });
  }
  return out;
}

/**
 * The names the GUIDE tells labellers to write under another product's name ("text-generation-webui
 * for oobabooga/ooba", "ExLlama also for exl2/exl3/TabbyAPI"): a candidate spelled so is that product.
 */
const GUIDE_ALIASES = new Map([
  ['oobabooga', 'textgenerationwebui'],
  ['ooba', 'textgenerationwebui'],
  ['exl', 'exllama'],
  ['exl2', 'exllama'],
  ['exl3', 'exllama'],
  ['tabbyapi', 'exllama'],
]);

/** How often a name family (or a site) was a candidate, in how many of those posts the label calls it a product, and in which spellings. */
interface NameCount {
  posts: number;
  products: number;
  spellings: Map<string, number>;
}

/** The same for the sites a post links to. */
type SiteCount = NameCount;

function countProduct(count: NameCount, spelling: string): void {
  count.products += 1;
  count.spellings.set(spelling, (count.spellings.get(spelling) ?? 0) + 1);
}

function examplesOf(posts: LabelledPost[]): { pain: Example[]; names: Map<string, NameCount>; sites: Map<string, SiteCount> } {
  const matcher = productMatcher(trackedProducts([]), '', NO_KNOWN_NAMES);
  // Every candidate name is counted, in a product context or not: the lists say what readers call the names.
  const products: ProductMatcher = { ...matcher, mightName: matcher.holdsCandidate };
  const pain: Example[] = [];
  const names = new Map<string, NameCount>();
  const sites = new Map<string, SiteCount>();
  posts.forEach(({ post, label }, index) => {
    const seen = new Set<string>();
    const passages: [string, boolean][] = [[post.title, true]];
    if (post.selftext) passages.push([post.selftext, false]);
    for (const [text, inTitle] of passages) {
      for (const read of readPassage(text, inTitle, products)) {
        if (read.features) {
          const positive = label.pain && label.quotes.some((q) => overlaps(post, read.sentence, q));
          pain.push({ post: index, features: read.features, positive, reading: read.evidence.reading });
        }
        if (read.evidence.tokens) for (const family of products.names(read.evidence.tokens)) seen.add(family);
      }
    }
    for (const family of seen) {
      const count = names.get(family) ?? { posts: 0, products: 0, spellings: new Map<string, number>() };
      count.posts += 1;
      const spelling = label.products.find((p) => familyKey(p) === family || GUIDE_ALIASES.get(family) === familyKey(p));
      if (spelling) countProduct(count, spelling);
      names.set(family, count);
    }
    for (const site of new Set(linkSites(`${post.title}\n${post.selftext}`))) {
      const count = sites.get(site) ?? { posts: 0, products: 0, spellings: new Map<string, number>() };
      count.posts += 1;
      const spelling = label.products.find((p) => familyKey(p) === site || GUIDE_ALIASES.get(site) === familyKey(p));
      if (spelling) countProduct(count, spelling);
      sites.set(site, count);
    }
  });
  return { pain, names, sites };
}

/** A name needs this many labelled posts before the labels' verdict on it is trusted (never one post's). */
const MIN_NAME_POSTS = 3;
/** Called a product in at least this share of its posts: a product. */
const PRODUCT_SHARE = 0.75;
/**
 * Called a product in at most this share: never one. Not zero: one annotator of five counting
 * "OpenAI" once in its 32 posts (a company to every other reading) kept it in the rules' hands,
 * and the rules took it for a product in three tuning posts.
 */
const NOT_PRODUCT_SHARE = 0.1;

/**
 * The names the labels agree on: a family seen as a candidate name in MIN_NAME_POSTS posts or
 * more, called a product in PRODUCT_SHARE of them or more (a product), or in NOT_PRODUCT_SHARE or less (never one).
 * Names in between (sometimes a product, sometimes not) stay with the rules.
 */
function knownNamesOf(names: Map<string, NameCount>, sites: Map<string, SiteCount>, posts: number): KnownNames {
  const trusted = [...names].filter(([, c]) => c.posts >= MIN_NAME_POSTS).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  // A site's links name a product when the labels name it in PRODUCT_SHARE of the posts linking
  // there (the same bar as names), in the spelling the labels use most (ties: alphabetical).
  const linked = [...sites].filter(([, c]) => c.posts >= MIN_NAME_POSTS && c.products / c.posts >= PRODUCT_SHARE).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const spellingOf = (c: NameCount) => [...c.spellings].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
  const products = trusted.filter(([, c]) => c.products / c.posts >= PRODUCT_SHARE);
  return {
    products: products.map(([k]) => k),
    spellings: Object.fromEntries(products.map(([k, c]) => [k, spellingOf(c)])),
    notProducts: trusted.filter(([, c]) => c.products / c.posts <= NOT_PRODUCT_SHARE).map(([k]) => k),
    links: Object.fromEntries(linked.map(([site, c]) => [site, spellingOf(c)])),
    trained: { posts, minPosts: MIN_NAME_POSTS, productShare: PRODUCT_SHARE, notProductShare: NOT_PRODUCT_SHARE, namesSeen: names.size, sitesSeen: sites.size },
  };
}

interface Score {
  threshold: number;
  precision: number;
  recall: number;
  f05: number;
}

function scoreOf(threshold: number, hits: number, predicted: number, relevant: number): Score {
  const precision = hits / Math.max(1, predicted);
  const recall = hits / Math.max(1, relevant);
  const f05 = precision + recall === 0 ? 0 : (1.25 * precision * recall) / (0.25 * precision + recall);
  return { threshold, precision, recall, f05 };
}

/** The examples of each post (what the analyzer weighs per thread). */
function byPost(examples: Example[]): Example[][] {
  const out = new Map<number, Example[]>();
  for (const e of examples) {
    const list = out.get(e.post);
    if (list) list.push(e);
    else out.set(e.post, [e]);
  }
  return [...out.values()];
}

/** Post-level pain scores, as `npm run quality` counts them. */
function painScore(painPosts: number, posts: Example[][], probability: Map<Example, number>, threshold: number): Score {
  let predicted = 0;
  let hits = 0;
  for (const list of posts) {
    const found = list
      .filter((e) => isPain(probability.get(e)!, e.reading, threshold))
      .sort((a, b) => probability.get(b)! - probability.get(a)!)
      .slice(0, MAX_PAINS_PER_POST);
    if (found.length === 0) continue;
    predicted += 1;
    if (found.some((e) => e.positive)) hits += 1;
  }
  return scoreOf(threshold, hits, predicted, painPosts);
}

function foldOf(post: LabelledPost): number {
  return threadFold(post.post.id);
}

function crossValidate(posts: LabelledPost[], examples: Example[], lambda: number): Score[] {
  const probability = new Map<Example, number>();
  for (let fold = 0; fold < FOLDS; fold++) {
    const inFold = (e: Example) => foldOf(posts[e.post]!) === fold;
    const w = train(examples.filter((e) => !inFold(e)), lambda);
    for (const e of examples.filter(inFold)) probability.set(e, sigmoid(linear(e.features, w.dense, w.hashed, w.bias)));
  }
  const painPosts = posts.filter((p) => p.label.pain).length;
  const groups = byPost(examples);
  return THRESHOLDS.map((t) => painScore(painPosts, groups, probability, t));
}

function round(x: number, digits = 5): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Cross-validation picks lambda and threshold; the final weights are trained on every post. */
function fit(spec: FeatureSpec, posts: LabelledPost[], examples: Example[]): LinearModelFile {
  console.error(`${spec.model}: ${examples.length} examples (${examples.filter((e) => e.positive).length} positive)`);
  let best: { lambda: number; score: Score } | undefined;
  for (const lambda of LAMBDAS) {
    const scores = crossValidate(posts, examples, lambda);
    const top = scores.reduce((a, b) => (b.f05 > a.f05 ? b : a));
    console.error(`  lambda ${lambda}: best F0.5 ${top.f05.toFixed(3)} at threshold ${top.threshold.toFixed(2)} (P ${top.precision.toFixed(3)} R ${top.recall.toFixed(3)})`);
    if (process.argv.includes('--verbose')) for (const s of scores) console.error(`    t ${s.threshold.toFixed(2)}  P ${s.precision.toFixed(3)}  R ${s.recall.toFixed(3)}  F0.5 ${s.f05.toFixed(3)}`);
    if (!best || top.f05 > best.score.f05) best = { lambda, score: top };
  }
  const crossValidation = { folds: FOLDS, precision: round(best!.score.precision, 3), recall: round(best!.score.recall, 3), f05: round(best!.score.f05, 3) };
  return final(spec, posts, examples, best!.lambda, best!.score.threshold, crossValidation);
}

function final(spec: FeatureSpec, posts: LabelledPost[], examples: Example[], lambda: number, threshold: number, crossValidation: unknown): LinearModelFile {
  const trained = { posts: posts.length, examples: examples.length, positives: examples.filter((e) => e.positive).length, lambda, crossValidation };
  return modelFile(spec, train(examples, lambda), threshold, trained);
}

/** A model file of trained weights (rounded: the files stay small and diff-able). */
function modelFile(spec: FeatureSpec, w: Weights, threshold: number, trained: Record<string, unknown>): LinearModelFile {
  return {
    featureSet: spec.featureSet,
    dense: [...spec.dense],
    denseWeights: [...w.dense].map((x) => round(x)),
    hashedWeights: [...w.hashed].map((x) => round(x)),
    bias: round(w.bias),
    threshold,
    trained,
  };
}

function shipped(spec: FeatureSpec): LinearModelFile | undefined {
  try {
    return JSON.parse(readFileSync(modelPath(spec.model), 'utf8')) as LinearModelFile;
  } catch {
    return undefined;
  }
}

/** A comment sentence the pain model accepted, labelled by the GUIDE (fixtures/training/README.md). */
interface CommentLabel {
  post: string;
  thread: string;
  comment: string;
  sentence: string;
  pain: boolean;
}

interface CommentExample {
  post: string;
  features: Features;
  positive: boolean;
}

function commentExamples(): CommentExample[] {
  const products = productMatcher(trackedProducts([]), '', NO_KNOWN_NAMES);
  return readJson<CommentLabel[]>(new URL('../fixtures/training/comment-pains.json', import.meta.url)).map((label) => {
    // The label's sentence is the signal's quote, cut at 300 characters for a long sentence.
    const read = readPassage(label.comment, false, products).find((r) => r.sentence.startsWith(label.sentence.replace(/…$/, '')));
    if (!read?.features) throw new Error(`comment label of post ${label.post}: "${label.sentence}" is not a sentence the analyzer weighs in its comment`);
    return { post: label.post, features: read.features, positive: label.pain };
  });
}

/** The cross-validation fold of a thread, by its post id (the same for the pain model and the gate). */
function threadFold(post: string): number {
  return foldOfKey(post, FOLDS);
}

function gateScores(examples: CommentExample[], probability: (e: CommentExample) => number): Score[] {
  const relevant = examples.filter((e) => e.positive).length;
  return THRESHOLDS.map((t) => {
    const kept = examples.filter((e) => probability(e) >= t);
    return scoreOf(t, kept.filter((e) => e.positive).length, kept.length, relevant);
  });
}

/** Cross-validation over threads picks the gate's lambda and threshold; the final weights see every example. */
function fitGate(spec: FeatureSpec, examples: CommentExample[]): LinearModelFile {
  console.error(`${spec.model}: ${examples.length} comment sentences (${examples.filter((e) => e.positive).length} pain)`);
  let best: { lambda: number; score: Score } | undefined;
  for (const lambda of LAMBDAS) {
    const probability = new Map<CommentExample, number>();
    for (let fold = 0; fold < FOLDS; fold++) {
      const w = train(examples.filter((e) => threadFold(e.post) !== fold), lambda);
      for (const e of examples.filter((x) => threadFold(x.post) === fold)) probability.set(e, sigmoid(linear(e.features, w.dense, w.hashed, w.bias)));
    }
    const top = gateScores(examples, (e) => probability.get(e)!).reduce((a, b) => (b.f05 > a.f05 ? b : a));
    console.error(`  lambda ${lambda}: best F0.5 ${top.f05.toFixed(3)} at threshold ${top.threshold.toFixed(2)} (P ${top.precision.toFixed(3)} R ${top.recall.toFixed(3)})`);
    if (!best || top.f05 > best.score.f05) best = { lambda, score: top };
  }
  const keepAll = gateScores(examples, () => 1)[0]!;
  const crossValidation = { folds: FOLDS, precision: round(best!.score.precision, 3), recall: round(best!.score.recall, 3), f05: round(best!.score.f05, 3), withoutGate: { precision: round(keepAll.precision, 3), f05: round(keepAll.f05, 3) } };
  return finalGate(spec, examples, best!.lambda, best!.score.threshold, crossValidation);
}

function finalGate(spec: FeatureSpec, examples: CommentExample[], lambda: number, threshold: number, crossValidation: unknown): LinearModelFile {
  const trained = { sentences: examples.length, positives: examples.filter((e) => e.positive).length, lambda, crossValidation };
  return modelFile(spec, train(examples, lambda), threshold, trained);
}

const posts = labelledPosts();
console.error(`${posts.length} labelled posts (${posts.filter((p) => p.label.pain).length} pain)`);
const examples = examplesOf(posts);
const spec = painSpec(wordVectors().dims);
const gateSpec = commentPainSpec(wordVectors().dims);
const comments = commentExamples();
const names = knownNamesOf(examples.names, examples.sites, posts.length);
const namesText = `${JSON.stringify(names, null, 1)}\n`;
let stale = false;
const path = modelPath(spec.model);
if (process.argv.includes('--check')) {
  // The check retrains with the shipped lambda and threshold (cross-validation is what takes
  // time) and compares: the files must be what this code and these labels give.
  const file = shipped(spec);
  const again = file && file.featureSet === spec.featureSet ? final(spec, posts, examples.pain, file.trained.lambda as number, file.threshold, file.trained.crossValidation) : undefined;
  if (!file || !again || JSON.stringify(again) !== JSON.stringify(file)) {
    console.error(`${path} is not what the labels and the code train; run node --import tsx scripts/train-models.ts`);
    stale = true;
  } else console.error(`${path} is up to date`);
  const gateFile = shipped(gateSpec);
  const gateAgain = gateFile && gateFile.featureSet === gateSpec.featureSet ? finalGate(gateSpec, comments, gateFile.trained.lambda as number, gateFile.threshold, gateFile.trained.crossValidation) : undefined;
  if (!gateFile || !gateAgain || JSON.stringify(gateAgain) !== JSON.stringify(gateFile)) {
    console.error(`${modelPath(gateSpec.model)} is not what the labels and the code train; run node --import tsx scripts/train-models.ts`);
    stale = true;
  } else console.error(`${modelPath(gateSpec.model)} is up to date`);
  if (readFileSync(KNOWN_NAMES_PATH, 'utf8') !== namesText) {
    console.error(`${KNOWN_NAMES_PATH} is not what the labels give; run node --import tsx scripts/train-models.ts`);
    stale = true;
  } else console.error(`${KNOWN_NAMES_PATH} is up to date`);
} else {
  const file = fit(spec, posts, examples.pain);
  writeFileSync(path, `${JSON.stringify(file)}\n`);
  console.error(`wrote ${path}: lambda ${file.trained.lambda}, threshold ${file.threshold}`);
  const gate = fitGate(gateSpec, comments);
  writeFileSync(modelPath(gateSpec.model), `${JSON.stringify(gate)}\n`);
  console.error(`wrote ${modelPath(gateSpec.model)}: lambda ${gate.trained.lambda}, threshold ${gate.threshold}`);
  writeFileSync(KNOWN_NAMES_PATH, namesText);
  console.error(`wrote ${KNOWN_NAMES_PATH}: ${names.products.length} products, ${names.notProducts.length} never products, ${Object.keys(names.links).length} sites whose links name a product`);
}
if (stale) process.exit(1);
