/**
 * Draws the training posts for the pain model (docs/quality.md, "Training set"): opening posts of
 * the shared r/LocalLLaMA export that are NOT in the shipped fixture (whose 240 posts hold the
 * tuning and held-out labels), so no evaluated post is ever trained on. Seeded, so the draw is the
 * same on every machine. Text is cut at MAX_TEXT characters: the labeller sees exactly what the
 * trainer reads.
 *
 *   node --import tsx scripts/sample-training-posts.ts [../shared/data/reddit-localllama] [count]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fixtureThreads } from '../test/helpers/reddit-export.ts';

const MAX_TEXT = 4000;
const dir = process.argv[2] ?? new URL('../../shared/data/reddit-localllama', import.meta.url).pathname;
const count = Number(process.argv[3] ?? 500);

interface ExportPost { id: string; title: string; selftext: string; is_self: boolean }

const fixtureIds = new Set(fixtureThreads().map((t) => t.id));
const posts = gunzipSync(readFileSync(`${dir}/posts.jsonl.gz`))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as ExportPost)
  .filter((p) => !fixtureIds.has(p.id) && p.is_self && p.selftext.trim().length > 0 && p.selftext !== '[removed]' && p.selftext !== '[deleted]')
  .sort((a, b) => (a.id < b.id ? -1 : 1));

// mulberry32: a small seeded generator, so the draw does not depend on Math.random.
let seed = 20261125;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
for (let i = posts.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [posts[i], posts[j]] = [posts[j]!, posts[i]!];
}
const drawn = posts.slice(0, count).map((p) => ({ id: p.id, title: p.title, selftext: p.selftext.slice(0, MAX_TEXT) }));
writeFileSync(new URL('../fixtures/training/localllama-posts.json', import.meta.url), `${JSON.stringify(drawn, null, 1)}\n`);
console.log(`${drawn.length} posts of ${posts.length} eligible`);
