/**
 * The shipped real-thread fixture (fixtures/localllama-threads.json.gz, bundle shape) written back
 * as a Reddit-shaped export (`posts.jsonl` + `comments.jsonl`, the layout of
 * ../shared/data/reddit-localllama), so digest tests run the `file` source on real text without
 * the shared data. `shiftTo` moves every timestamp so the newest post lands at that instant (the
 * scheduler's window is "the last day").
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { BundleComment, BundlePost } from '../../src/ingest/bundle.ts';

const FIXTURE = new URL('../../fixtures/localllama-threads.json.gz', import.meta.url);

export function fixtureThreads(): BundlePost[] {
  return JSON.parse(gunzipSync(readFileSync(FIXTURE)).toString('utf8')) as BundlePost[];
}

export interface RedditExport {
  dir: string;
  threads: BundlePost[];
  /** Oldest and newest post creation instants (after any shift). */
  oldest: Date;
  newest: Date;
  remove(): void;
}

export function writeRedditExport(options: { threads?: BundlePost[]; shiftTo?: Date } = {}): RedditExport {
  const source = options.threads ?? fixtureThreads();
  const newestMs = Math.max(...source.map((t) => Date.parse(t.postCreatedAt)));
  // Whole seconds: the export's created_utc is in seconds.
  const shift = options.shiftTo ? Math.floor((options.shiftTo.getTime() - newestMs) / 1000) * 1000 : 0;
  const at = (iso: string) => Date.parse(iso) + shift;
  const seconds = (iso: string) => Math.floor(at(iso) / 1000);
  const posts: string[] = [];
  const comments: string[] = [];
  const threads: BundlePost[] = [];
  for (const t of source) {
    posts.push(
      JSON.stringify({ id: t.id, subreddit: t.community, title: t.title, selftext: t.selftext, author: t.author, score: t.score, created_utc: seconds(t.postCreatedAt), permalink: t.permalink }),
    );
    const walk = (list: BundleComment[], parent: string) => {
      for (const c of list) {
        comments.push(JSON.stringify({ id: c.id, link_id: `t3_${t.id}`, parent_id: parent, author: c.author, body: c.body, score: c.score, created_utc: seconds(c.createdAt) }));
        walk(c.replies, `t1_${c.id}`);
      }
    };
    walk(t.comments, `t3_${t.id}`);
    threads.push({ ...t, postCreatedAt: new Date(seconds(t.postCreatedAt) * 1000).toISOString() });
  }
  const dir = mkdtempSync(join(tmpdir(), 'signals-export-'));
  writeFileSync(join(dir, 'posts.jsonl'), `${posts.join('\n')}\n`);
  writeFileSync(join(dir, 'comments.jsonl'), `${comments.join('\n')}\n`);
  const times = threads.map((t) => Date.parse(t.postCreatedAt));
  return {
    dir,
    threads,
    oldest: new Date(Math.min(...times)),
    newest: new Date(Math.max(...times)),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
