/**
 * `node --import tsx bench/vectors.ts`: what the shipped word vectors (decision 0011) cost and
 * whether their sentence vectors are worth it, on the real r/LocalLLaMA comments
 * (SIGNALS_SHARED_DATA, default /work/shared/data/reddit-localllama; no data, no figures).
 *
 *  1. Load: loadWordVectors() in 5 fresh child processes (--expose-gc, so heap figures are live
 *     objects): median time of the call itself (tsx start-up excluded), heap and RSS it adds.
 *  2. Throughput: sentenceVector over 20,000 comment bodies split naïvely into words (splitting
 *     not timed); median of 3 passes after a warm-up pass.
 *  3. Separation, a proxy for "groups pains by meaning, not shared words" (DESIGN §8 "Group"):
 *     comment sentences (text.ts `sentences`, 4+ content terms, ≤ 40 words, duplicates dropped),
 *     pairs from the same thread ("same topic") against pairs from two different threads ("other
 *     topic"). Same thread ≠ same topic (threads drift, replies joke, thank, digress), so absolute
 *     figures are low for every method; only the comparison between methods means something.
 *     Three conditions, 20,000 pairs a side, seeded sampling (thread first, then sentence, so
 *     big threads do not dominate; the two sentences of a same pair come from comments by
 *     different authors):
 *       A. same pairs share no content term (the TF-IDF terms of digest/terms.ts: stemmed,
 *          stopwords out) — TF-IDF cannot see them — other pairs unconstrained;
 *       B. neither side shares a content term (only meaning beyond words is left);
 *       C. no constraint on either side (how the methods compare on ordinary pairs).
 *     Scores: the shipped SIF sentence vector (common direction c removed); ablations: SIF
 *     without the removal, a plain mean of unit word vectors, SIF minus the vocabulary's mean
 *     with SIF weights only (no frequency factor), SIF minus the first principal component of
 *     the benchmark's own sentences (SIF's recipe, fitted in-domain: a reference for what a
 *     domain-fitted direction would give); a plain TF-IDF cosine
 *     (raw tf × ln(N/df) over the benchmark's sentences, the digest's terms), and the mean of the
 *     shipped vector and TF-IDF scores. Figures: mean same, mean other, gap = same − other,
 *     separation = gap / pooled std (√((var_same + var_other)/2)), and AUC (chance that a random
 *     same pair scores above a random other pair; 0.5 = no separation).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { terms } from '../src/ingest/digest/terms.ts';
import { sentences } from '../src/ingest/analyze/text.ts';
import {
  addInto,
  cosine,
  DEFAULT_VECTORS_PATH,
  layout,
  loadWordVectors,
  normalize,
  wordVectors,
  type WordVectors,
} from '../src/ingest/analyze/vectors.ts';

const DATA = process.env.SIGNALS_SHARED_DATA ?? '/work/shared/data/reddit-localllama';
const PAIRS = 20_000;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'+.-]*/gu;

interface Comment {
  link_id: string;
  id: string;
  author: string;
  body: string;
}

function readComments(): Comment[] {
  const text = gunzipSync(readFileSync(join(DATA, 'comments.jsonl.gz'))).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Comment)
    .filter((c) => c.author !== 'AutoModerator' && c.body !== '[deleted]' && c.body !== '[removed]');
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

// ---- 1. load, in a fresh process each time -------------------------------------------------

function childLoad(): void {
  const gc = (globalThis as { gc?: () => void }).gc!;
  gc();
  const before = process.memoryUsage();
  const t0 = performance.now();
  const wv = loadWordVectors();
  const ms = performance.now() - t0;
  gc();
  const after = process.memoryUsage();
  const t1 = performance.now();
  wv.sentenceVector(['my', 'gpu', 'runs', 'out', 'of', 'memory']);
  const firstCallMs = performance.now() - t1;
  const mb = (k: 'heapUsed' | 'rss' | 'external') => (after[k] - before[k]) / 1e6;
  console.log(JSON.stringify({ ms, firstCallMs, heapMB: mb('heapUsed'), rssMB: mb('rss'), externalMB: mb('external'), words: wv.size }));
}

function measureLoad(): void {
  const runs = Array.from({ length: 5 }, () => {
    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--child-load'], {
      encoding: 'utf8',
    });
    if (child.status !== 0) throw new Error(`load child failed: ${child.stderr}`);
    return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
  });
  const m = (k: string) => median(runs.map((r) => r[k]!));
  const bytes = readFileSync(DEFAULT_VECTORS_PATH).length;
  console.log('1. Load (5 fresh processes, medians)');
  console.log(`   file ${(bytes / 1e6).toFixed(1)} MB, ${m('words')} words`);
  console.log(`   loadWordVectors ${m('ms').toFixed(0)} ms (runs: ${runs.map((r) => r.ms!.toFixed(0)).join(', ')})`);
  console.log(`   adds heap ${m('heapMB').toFixed(1)} MB, external ${m('externalMB').toFixed(1)} MB, RSS ${m('rssMB').toFixed(1)} MB`);
  console.log(`   first sentenceVector call ${m('firstCallMs').toFixed(2)} ms`);
}

// ---- 2. throughput -----------------------------------------------------------------------

function measureThroughput(comments: Comment[]): void {
  const wv = wordVectors();
  const bodies = comments.slice(0, 20_000).map((c) => c.body.match(WORD) ?? []);
  const tokens = bodies.reduce((n, b) => n + b.length, 0);
  const known = bodies.reduce((n, b) => n + b.filter((w) => wv.has(w)).length, 0);
  let sink = 0;
  const pass = () => {
    const t0 = performance.now();
    for (const words of bodies) sink += wv.sentenceVector(words)?.[0] ?? 0;
    return performance.now() - t0;
  };
  pass();
  const ms = median([pass(), pass(), pass()]);
  console.log('2. sentenceVector throughput (median of 3 passes after a warm-up)');
  console.log(
    `   ${bodies.length} comment bodies, ${tokens} words (${((100 * known) / tokens).toFixed(1)}% known): ${ms.toFixed(0)} ms = ` +
      `${Math.round((bodies.length / ms) * 1000).toLocaleString('en-US')} bodies/s, ${Math.round((tokens / ms) * 1000).toLocaleString('en-US')} words/s`,
  );
  if (Number.isNaN(sink)) throw new Error('a sentence vector holds NaN');
}

// ---- 3. separation -----------------------------------------------------------------------

interface Sentence {
  thread: number;
  comment: string;
  author: string;
  /** Content terms as the digest's TF-IDF sees them (digest/terms.ts), in order, and as a set. */
  termList: string[];
  terms: Set<string>;
  tfidf: Map<string, number>;
  /** One unit vector per entry of VECTOR_METHODS. */
  emb: Float32Array[];
}

const VECTOR_METHODS = [
  'vectors, shipped (SIF − c)',
  '  SIF, nothing removed',
  '  plain mean, nothing removed',
  '  SIF − mean with SIF weights only',
  '  SIF − PC1 of these sentences *',
] as const;

/** mulberry32: a small seeded generator, so every run samples the same pairs. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Σ w·u over the known words, w = the SIF weight or 1 (not normalised). */
function weightedSum(wv: WordVectors, words: string[], sif: boolean): Float32Array {
  const out = new Float32Array(wv.dims);
  for (const word of words) {
    const v = wv.vector(word);
    if (v !== undefined) addInto(out, v, sif ? wv.weight(word) : 1);
  }
  return out;
}

/** v minus its projection on the unit vector d, unit length (a new array). */
function without(v: Float32Array, d: Float32Array): Float32Array {
  const out = Float32Array.from(v);
  addInto(out, d, -cosine(out, d));
  return normalize(out)!;
}

/** The vocabulary in rank order, read from the file (the loader keeps only a map). */
function vocabulary(): string[] {
  const bytes = readFileSync(DEFAULT_VECTORS_PATH);
  const at = layout(bytes.readUInt32LE(8), bytes.readUInt32LE(12), bytes.readUInt32LE(16));
  return bytes.subarray(at.vocab, at.total).toString('utf8').split('\n');
}

/** The brief's first reading of the common direction: Σ weight(w)·u(w), no frequency factor. */
function sifOnlyMean(wv: WordVectors): Float32Array {
  const m = new Float32Array(wv.dims);
  for (const word of vocabulary()) addInto(m, wv.vector(word)!, wv.weight(word));
  return normalize(m)!;
}

/** First principal component (uncentred, as SIF does) of unit vectors, by power iteration. */
function firstComponent(xs: Float32Array[], dims: number): Float32Array {
  let v = normalize(new Float32Array(dims).fill(1))!;
  for (let iteration = 0; iteration < 30; iteration += 1) {
    const next = new Float32Array(dims);
    for (const x of xs) addInto(next, x, cosine(x, v));
    v = normalize(next)!;
  }
  return v;
}

function buildSentences(comments: Comment[]): Sentence[][] {
  const wv = wordVectors();
  const threadIds = new Map<string, number>();
  const seen = new Set<string>();
  const raw: (Omit<Sentence, 'tfidf' | 'emb'> & { shipped: Float32Array; sif: Float32Array; mean: Float32Array })[] = [];
  for (const c of comments) {
    for (const s of sentences(c.body)) {
      const key = s.toLowerCase();
      const words = key.match(WORD) ?? [];
      const ts = terms(s);
      if (seen.has(key) || words.length > 40 || new Set(ts).size < 4) continue;
      seen.add(key);
      const shipped = wv.sentenceVector(words);
      if (shipped === undefined) continue;
      if (!threadIds.has(c.link_id)) threadIds.set(c.link_id, threadIds.size);
      const sif = normalize(weightedSum(wv, words, true))!;
      const mean = normalize(weightedSum(wv, words, false))!;
      raw.push({ thread: threadIds.get(c.link_id)!, comment: c.id, author: c.author, termList: ts, terms: new Set(ts), shipped, sif, mean });
    }
  }
  const vocabMean = sifOnlyMean(wv);
  const pc1 = firstComponent(
    raw.map((s) => s.sif),
    wv.dims,
  );
  const df = new Map<string, number>();
  for (const s of raw) for (const t of s.terms) df.set(t, (df.get(t) ?? 0) + 1);
  const n = raw.length;
  const byThread: Sentence[][] = [];
  for (const { shipped, sif, mean, ...s } of raw) {
    const tf = new Map<string, number>();
    for (const t of s.termList) tf.set(t, (tf.get(t) ?? 0) + 1);
    let norm = 0;
    for (const [t, f] of tf) {
      const w = f * Math.log(n / df.get(t)!);
      tf.set(t, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm);
    for (const [t, w] of tf) tf.set(t, norm > 0 ? w / norm : 0);
    const emb = [shipped, sif, mean, without(sif, vocabMean), without(sif, pc1)];
    (byThread[s.thread] ??= []).push({ ...s, tfidf: tf, emb });
  }
  return byThread;
}

function tfidfCosine(a: Sentence, b: Sentence): number {
  const [small, big] = a.tfidf.size <= b.tfidf.size ? [a.tfidf, b.tfidf] : [b.tfidf, a.tfidf];
  let sum = 0;
  for (const [t, w] of small) sum += w * (big.get(t) ?? 0);
  return sum;
}

function disjoint(a: Sentence, b: Sentence): boolean {
  for (const t of a.terms) if (b.terms.has(t)) return false;
  return true;
}

type Pair = [Sentence, Sentence];

function samplePairs(threads: Sentence[][], same: boolean, noSharedTerm: boolean, next: () => number): Pair[] {
  // Threads with sentences by at least two authors can give a same pair.
  const eligible = threads.filter((t) => new Set(t.map((s) => s.author)).size >= 2);
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
  const pairs: Pair[] = [];
  let attempts = 0;
  while (pairs.length < PAIRS) {
    if ((attempts += 1) > PAIRS * 1000) throw new Error('could not sample enough pairs');
    const t1 = pick(eligible);
    const t2 = same ? t1 : pick(eligible);
    if (!same && t1 === t2) continue;
    const a = pick(t1);
    const b = pick(t2);
    if (same && (a.author === b.author || a.comment === b.comment)) continue;
    if (noSharedTerm && !disjoint(a, b)) continue;
    pairs.push([a, b]);
  }
  return pairs;
}

interface Figures {
  same: number;
  other: number;
  gap: number;
  separation: number;
  auc: number;
}

function figures(sameScores: number[], otherScores: number[]): Figures {
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const variance = (xs: number[], m: number) => xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
  const ms = mean(sameScores);
  const mo = mean(otherScores);
  const pooled = Math.sqrt((variance(sameScores, ms) + variance(otherScores, mo)) / 2);
  // AUC by rank sums (Mann–Whitney U), ties sharing their mean rank.
  const all = [...sameScores.map((x) => [x, 1] as const), ...otherScores.map((x) => [x, 0] as const)].sort((p, q) => p[0] - q[0]);
  let rankSumSame = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]![0] === all[i]![0]) j += 1;
    const rank = (i + 1 + j) / 2;
    for (let k = i; k < j; k += 1) if (all[k]![1] === 1) rankSumSame += rank;
    i = j;
  }
  const nS = sameScores.length;
  const auc = (rankSumSame - (nS * (nS + 1)) / 2) / (nS * otherScores.length);
  return { same: ms, other: mo, gap: ms - mo, separation: pooled > 0 ? (ms - mo) / pooled : 0, auc };
}

const METHODS: [string, (a: Sentence, b: Sentence) => number][] = [
  ...VECTOR_METHODS.map((name, k) => [name, (a: Sentence, b: Sentence) => cosine(a.emb[k]!, b.emb[k]!)] as [string, (a: Sentence, b: Sentence) => number]),
  ['TF-IDF cosine', tfidfCosine],
  ['(shipped + TF-IDF) / 2', (a, b) => (cosine(a.emb[0]!, b.emb[0]!) + tfidfCosine(a, b)) / 2],
];

function measureSeparation(comments: Comment[]): void {
  const threads = buildSentences(comments);
  const count = threads.reduce((n, t) => n + t.length, 0);
  console.log('3. Separation: same-thread vs different-thread sentence pairs (a proxy for same vs other topic)');
  console.log(`   ${count} sentences in ${threads.filter(Boolean).length} threads; ${PAIRS} pairs a side per condition, seed 11`);
  const conditions: [string, boolean, boolean][] = [
    ['A. same pairs share no content term; other pairs any', true, false],
    ['B. no pair shares a content term', true, true],
    ['C. no constraint', false, false],
  ];
  for (const [title, sameDisjoint, otherDisjoint] of conditions) {
    const next = random(11);
    const same = samplePairs(threads, true, sameDisjoint, next);
    const other = samplePairs(threads, false, otherDisjoint, next);
    console.log(`   ${title}`);
    console.log(`     ${'method'.padEnd(34)} ${'same'.padStart(7)} ${'other'.padStart(7)} ${'gap'.padStart(7)} ${'gap/sd'.padStart(7)} ${'AUC'.padStart(6)}`);
    for (const [name, score] of METHODS) {
      const f = figures(
        same.map(([a, b]) => score(a, b)),
        other.map(([a, b]) => score(a, b)),
      );
      const n = (x: number, w = 7) => x.toFixed(3).padStart(w);
      console.log(`     ${name.padEnd(34)} ${n(f.same)} ${n(f.other)} ${n(f.gap)} ${n(f.separation)} ${n(f.auc, 6)}`);
    }
  }
  console.log('   * fitted on these very sentences (SIF\'s own recipe): the headroom of an in-domain direction, not shippable as is');
}

if (process.argv.includes('--child-load')) {
  childLoad();
} else if (!existsSync(join(DATA, 'comments.jsonl.gz'))) {
  console.log(`no ${join(DATA, 'comments.jsonl.gz')}: set SIGNALS_SHARED_DATA; no figures`);
} else {
  measureLoad();
  const comments = readComments();
  measureThroughput(comments);
  measureSeparation(comments);
}
