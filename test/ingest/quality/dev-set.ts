/**
 * Pain precision and recall on the development set: the 300 labelled posts of
 * fixtures/training/candidates/ (docs/quality.md, "Pain figures on 300 more posts"), scored by
 * evaluate.ts exactly as the held-out half is (opening post only; a hit is a predicted quote
 * overlapping a labelled one). Never trained on, but read while changing rules, so a second
 * opinion next to the held-out figure, not a replacement for it.
 *
 *   node --import tsx test/ingest/quality/dev-set.ts
 */
import { readFileSync } from 'node:fs';
import type { BundlePost } from '../../../src/ingest/bundle.ts';
import { evaluate, EVALUATION_MEMORY, type Label } from './evaluate.ts';

interface Post {
  id: string;
  title: string;
  selftext: string;
}

function readJson<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../../../fixtures/training/candidates/${name}`, import.meta.url), 'utf8')) as T;
}

const posts: BundlePost[] = readJson<Post[]>('localllama-posts-501-800.json').map((post) => ({
  ...post,
  permalink: '',
  url: '',
  community: 'LocalLLaMA',
  author: 'poster',
  score: 1,
  postCreatedAt: '2025-07-01T00:00:00Z',
  comments: [],
}));
const s = evaluate(readJson<Label[]>('localllama-labels-501-800.json'), EVALUATION_MEMORY, posts);
console.log(
  `development set (${s.posts} posts, ${s.painPosts} pain): pain precision ${s.painPrecision.toFixed(3)} (${s.truePositives}/${s.predictedPainPosts}), recall ${s.painRecall.toFixed(3)} (${s.truePositives}/${s.painPosts})`,
);
