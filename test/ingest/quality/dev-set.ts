/**
 * Pain precision and recall on the development set: the 300 labelled posts of
 * fixtures/training/candidates/ (docs/quality.md, "Pain figures on 300 more posts"), scored as
 * evaluate.ts scores the held-out half (opening post only; a hit is a predicted quote overlapping a
 * labelled one). Never trained on, but read while changing rules, so a second opinion next to the
 * held-out figure, not a replacement for it.
 *
 *   node --import tsx test/ingest/quality/dev-set.ts
 */
import { readFileSync } from 'node:fs';
import { threadReader } from '../../../src/ingest/analyze/rules.ts';
import type { SourceThread } from '../../../src/ingest/sources/source.ts';
import { EVALUATION_MEMORY, overlaps, type Label } from './evaluate.ts';

interface Post {
  id: string;
  title: string;
  selftext: string;
}

function readJson<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../../../fixtures/training/candidates/${name}`, import.meta.url), 'utf8')) as T;
}

const posts = new Map(readJson<Post[]>('localllama-posts-501-800.json').map((p) => [p.id, p]));
const read = threadReader(EVALUATION_MEMORY);
let hits = 0;
let predicted = 0;
let painPosts = 0;
for (const label of readJson<Label[]>('localllama-labels-501-800.json')) {
  const post = posts.get(label.id);
  if (!post) throw new Error(`label ${label.id}: no such post`);
  const thread: SourceThread = { ...post, permalink: '', url: '', community: 'LocalLLaMA', author: 'poster', score: 1, postCreatedAt: '2025-07-01T00:00:00Z', comments: [] };
  const quotes = read(thread).filter((s) => s.kind === 'pain').map((s) => s.quote);
  if (quotes.length > 0) predicted += 1;
  if (label.pain) painPosts += 1;
  if (label.pain && quotes.some((q) => label.quotes.some((l) => overlaps(post, q, l)))) hits += 1;
}
console.log(`development set (${posts.size} posts, ${painPosts} pain): pain precision ${(hits / predicted).toFixed(3)} (${hits}/${predicted}), recall ${(hits / painPosts).toFixed(3)} (${hits}/${painPosts})`);
