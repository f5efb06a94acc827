/**
 * How far pair similarity alone can group the labelled pain posts (docs/quality.md, "Grouping: how
 * far pair similarity can go"): every pair of the tuning half's labelled pain posts in which the
 * analyzer finds a pain, ranked by one representation's similarity, with no clustering, threshold
 * or order. Prints the AUC (same-theme pairs above other pairs) and the precision where recall
 * reaches 0.1, 0.2 and 0.3: a grouper built on that similarity cannot do better.
 *
 *   node --import tsx test/ingest/quality/pair-ceiling.ts
 */
import { threadReader } from '../../../src/ingest/analyze/rules.ts';
import { cosine, wordVectors } from '../../../src/ingest/analyze/vectors.ts';
import { termCounts, words } from '../../../src/ingest/digest/terms.ts';
import { fixtureThreads } from '../../helpers/reddit-export.ts';
import { EVALUATION_MEMORY, loadLabels, loadThemeLabels } from './evaluate.ts';

interface Post {
  theme: string;
  title: string;
  text: string;
  pains: string[];
}

type Similarity = (a: Post, b: Post) => number;

function tuningPainPosts(): Post[] {
  const threads = new Map(fixtureThreads().map((t) => [t.id, t]));
  const read = threadReader(EVALUATION_MEMORY);
  const themes = loadThemeLabels().posts;
  return loadLabels()
    .filter((l) => l.set === 'tuning' && l.pain && themes[l.id] !== undefined)
    .map((l) => {
      const thread = threads.get(l.id)!;
      const pains = read({ ...thread, comments: [] }).filter((s) => s.kind === 'pain').map((s) => s.quote);
      return { theme: themes[l.id]!, title: thread.title, text: thread.selftext, pains };
    })
    .filter((p) => p.pains.length > 0);
}

function tfidfSimilarity(corpus: string[], text: (p: Post) => string): Similarity {
  const df = new Map<string, number>();
  for (const doc of corpus) for (const t of termCounts(doc).keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const weights = new Map<Post, Map<string, number>>();
  const weigh = (p: Post) => {
    let w = weights.get(p);
    if (!w) {
      w = new Map([...termCounts(text(p))].map(([t, n]) => [t, (1 + Math.log(n)) * (Math.log((1 + corpus.length) / (1 + (df.get(t) ?? 0))) + 1)]));
      weights.set(p, w);
    }
    return w;
  };
  return (a, b) => {
    const x = weigh(a);
    const y = weigh(b);
    let dot = 0;
    for (const [t, v] of x) dot += v * (y.get(t) ?? 0);
    const norm = (m: Map<string, number>) => Math.sqrt([...m.values()].reduce((s, v) => s + v * v, 0));
    return dot === 0 ? 0 : dot / (norm(x) * norm(y));
  };
}

function vectorSimilarity(text: (p: Post) => string): Similarity {
  const vectors = wordVectors();
  const cache = new Map<Post, Float32Array | undefined>();
  const vector = (p: Post) => {
    if (!cache.has(p)) cache.set(p, vectors.sentenceVector(words(text(p)).filter((w) => !w.stop).map((w) => w.word)));
    return cache.get(p);
  };
  return (a, b) => {
    const x = vector(a);
    const y = vector(b);
    return x && y ? cosine(x, y) : 0;
  };
}

export function pairCeiling(posts: Post[], similarity: Similarity): { auc: number; precisionAt: Record<string, number> } {
  const pairs: [number, boolean][] = [];
  for (let i = 0; i < posts.length; i++) for (let j = i + 1; j < posts.length; j++) pairs.push([similarity(posts[i]!, posts[j]!), posts[i]!.theme === posts[j]!.theme]);
  const positives = pairs.filter(([, same]) => same).map(([s]) => s);
  const negatives = pairs.filter(([, same]) => !same).map(([s]) => s);
  let wins = 0;
  for (const p of positives) for (const n of negatives) wins += p > n ? 1 : p === n ? 0.5 : 0;
  pairs.sort((a, b) => b[0] - a[0]);
  const precisionAt: Record<string, number> = {};
  let found = 0;
  pairs.forEach(([, same], rank) => {
    if (!same) return;
    found += 1;
    for (const recall of [0.1, 0.2, 0.3]) if (found === Math.ceil(recall * positives.length)) precisionAt[recall] = found / (rank + 1);
  });
  return { auc: wins / (positives.length * negatives.length), precisionAt };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const posts = tuningPainPosts();
  const corpus = fixtureThreads().map((t) => `${t.title} ${t.selftext}`);
  const representations: [string, Similarity][] = [
    ['TF-IDF, thread title', tfidfSimilarity(corpus, (p) => p.title)],
    ['TF-IDF, found pains', tfidfSimilarity(corpus, (p) => p.pains.join(' '))],
    ['TF-IDF, title ×2 + pains (what the grouper compares)', tfidfSimilarity(corpus, (p) => `${p.title} ${p.title} ${p.pains.join(' ')}`)],
    ['TF-IDF, title + post text', tfidfSimilarity(corpus, (p) => `${p.title} ${p.text}`)],
    ['word vectors, pains', vectorSimilarity((p) => p.pains.join(' '))],
    ['word vectors, title + post text', vectorSimilarity((p) => `${p.title} ${p.text}`)],
  ];
  console.log(`${posts.length} tuning-half pain posts with a pain found\n`);
  console.log('| representation | AUC | P at R 0.1 | P at R 0.2 | P at R 0.3 |\n|---|---|---|---|---|');
  for (const [name, similarity] of representations) {
    const { auc, precisionAt } = pairCeiling(posts, similarity);
    const at = (r: number) => precisionAt[r]?.toFixed(2) ?? '—';
    console.log(`| ${name} | ${auc.toFixed(3)} | ${at(0.1)} | ${at(0.2)} | ${at(0.3)} |`);
  }
}
