/**
 * The `file` source (DESIGN §8): Reddit-shaped JSONL on disk, for backfills, offline use and
 * tests. It reads every `*.jsonl`, `*.ndjson` (optionally `.gz`) file of a directory, or one such
 * file; each line is a post (has `title`) or a comment (has `link_id`), so the layout of
 * `../shared/data/reddit-localllama` (`posts.jsonl.gz` + `comments.jsonl.gz`) and Pushshift /
 * Arctic Shift dump lines (submissions and comments, one file or two) both work.
 *
 * Streaming: a 100,000-thread export is never held in memory. Lines are parsed one at a time and
 * spilled into a temporary SQLite file indexed by post (the comments of one thread can be spread
 * anywhere in the input, so some index is needed); threads are then rebuilt one at a time from
 * `link_id` / `parent_id` and handed out. Memory stays at one thread plus SQLite's page cache
 * whatever the input size; the temporary file is deleted when the iteration ends, however it ends.
 */
import Database from 'better-sqlite3';
import { createReadStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { BundleComment } from '../bundle.ts';
import { LIMITS } from '../../domain/limits.ts';
import { communityKey, type CollectRequest, type Source, type SourceThread } from './source.ts';
import { authorName, clipText, nestComments } from './thread.ts';

const INPUT = /\.(jsonl|ndjson)(\.gz)?$/i;
const PROGRESS_EVERY = 10_000;

export class FileSourceError extends Error {}

export function fileSource(path: string): Source {
  return {
    name: `file:${path}`,
    threads: (request) => readThreads(inputFiles(path), request),
  };
}

/** The input files of a `--source file:PATH`, in name order (deterministic). */
export function inputFiles(path: string): string[] {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new FileSourceError(`no such file or directory: ${path}`);
  }
  if (stat.isFile()) return [path];
  const files = readdirSync(path)
    .filter((name) => INPUT.test(name))
    .sort()
    .map((name) => join(path, name));
  if (files.length === 0) throw new FileSourceError(`no .jsonl or .ndjson files (optionally .gz) in ${path}`);
  return files;
}

interface PostRow {
  id: string;
  json: string;
}

async function* readThreads(files: string[], request: CollectRequest): AsyncGenerator<SourceThread> {
  const dir = mkdtempSync(join(tmpdir(), 'signals-file-source-'));
  const db = new Database(join(dir, 'spill.db'));
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec(`create table posts (id text primary key, community text not null, created integer not null, json text not null);
             create table comments (id text primary key, link_id text not null, json text not null);`);
    const wanted = new Set(request.communities.map(communityKey));
    const since = Math.floor(request.since.getTime() / 1000);
    const until = Math.floor(request.until.getTime() / 1000);
    let itemsRead = 0;
    await spill(db, files, {
      keepPost: (community, created) => wanted.has(community) && created > since && created <= until,
      onItem: () => {
        itemsRead += 1;
        if (itemsRead % PROGRESS_EVERY === 0) request.onProgress?.({ stage: 'reading', itemsRead, threads: 0 });
        request.signal?.throwIfAborted();
      },
    });
    db.exec('create index comments_link on comments (link_id)');
    request.onProgress?.({ stage: 'reading', itemsRead, threads: 0 });

    const commentsOf = db.prepare<[string], { json: string }>('select json from comments where link_id = ?');
    const posts = db.prepare<[], PostRow>('select id, json from posts order by created, id').iterate();
    let threads = 0;
    for (const row of posts) {
      request.signal?.throwIfAborted();
      const post = JSON.parse(row.json) as SourceThread;
      post.comments = buildTree(commentsOf.all(`t3_${row.id}`).map((c) => JSON.parse(c.json) as RawCommentRow));
      threads += 1;
      if (threads % 500 === 0) request.onProgress?.({ stage: 'threads', itemsRead, threads });
      yield post;
    }
    request.onProgress?.({ stage: 'threads', itemsRead, threads });
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface SpillHooks {
  /** Whether a post belongs to the request (community and window); comments are all kept. */
  keepPost(community: string, created: number): boolean;
  /** Called once per record read (progress, cancellation). */
  onItem(): void;
}

/** Parses every line into the spill tables. */
async function spill(db: Database.Database, files: string[], hooks: SpillHooks): Promise<void> {
  const insertPost = db.prepare('insert or replace into posts (id, community, created, json) values (?, ?, ?, ?)');
  const insertComment = db.prepare('insert or replace into comments (id, link_id, json) values (?, ?, ?)');
  const begin = db.prepare('begin');
  const commit = db.prepare('commit');
  begin.run();
  let pending = 0;
  for (const file of files) {
    const input = createReadStream(file);
    const lines = createInterface({ input: /\.gz$/i.test(file) ? input.pipe(createGunzip()) : input, crlfDelay: Infinity });
    let lineNo = 0;
    for await (const line of lines) {
      lineNo += 1;
      if (line.trim() === '') continue;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        throw new FileSourceError(`${basename(file)}:${lineNo}: not a JSON line`);
      }
      const parsed = parseLine(raw, `${basename(file)}:${lineNo}`);
      if (parsed === undefined) continue;
      hooks.onItem();
      if (parsed.kind === 'post') {
        const community = communityKey(parsed.post.community);
        if (!hooks.keepPost(community, parsed.created)) continue;
        insertPost.run(parsed.post.id, community, parsed.created, JSON.stringify(parsed.post));
      } else {
        insertComment.run(parsed.comment.id, parsed.linkId, JSON.stringify(parsed.comment));
      }
      // Commit in batches: one huge transaction would hold its whole journal.
      if (++pending >= 20_000) {
        commit.run();
        begin.run();
        pending = 0;
      }
    }
  }
  commit.run();
}

export interface RawCommentRow {
  id: string;
  parentId: string;
  author: string;
  body: string;
  score: number;
  createdAt: string;
}

type Parsed =
  | { kind: 'post'; post: SourceThread; created: number }
  | { kind: 'comment'; linkId: string; comment: RawCommentRow };

/**
 * One line as a post or a comment, or undefined for lines that are neither (a dump's other
 * record types). Reddit's API and the dumps escape `&`, `<` and `>` in text as HTML entities.
 */
export function parseLine(raw: unknown, where: string): Parsed | undefined {
  if (typeof raw !== 'object' || raw === null) throw new FileSourceError(`${where}: not a JSON object`);
  const r = raw as Record<string, unknown>;
  const id = text(r.id);
  const created = seconds(r.created_utc);
  if (typeof r.link_id === 'string' && ('body' in r)) {
    if (!id || created === undefined) throw new FileSourceError(`${where}: a comment needs id and created_utc`);
    const parent = text(r.parent_id) || r.link_id;
    return {
      kind: 'comment',
      linkId: r.link_id.startsWith('t3_') ? r.link_id : `t3_${r.link_id}`,
      comment: { id, parentId: parent, author: authorName(r.author), body: clipText(unescape(text(r.body)), LIMITS.postText), score: int(r.score), createdAt: iso(created) },
    };
  }
  if (typeof r.title === 'string') {
    const community = text(r.subreddit);
    if (!id || created === undefined || !community) throw new FileSourceError(`${where}: a post needs id, subreddit and created_utc`);
    const permalink = text(r.permalink) || `/r/${community}/comments/${id}/`;
    return {
      kind: 'post',
      created,
      post: {
        id,
        url: `https://www.reddit.com${permalink}`,
        permalink,
        community,
        title: clipText(unescape(r.title), LIMITS.text),
        selftext: clipText(unescape(text(r.selftext)), LIMITS.postText),
        author: authorName(r.author),
        score: int(r.score),
        postCreatedAt: iso(created),
        comments: [],
      },
    };
  }
  return undefined;
}

/**
 * The comment tree of one post from its flat comments, parents named as `t1_…` (a parent that is
 * the post, or `t3_…`, puts the comment at the top). Dumps are kept whole: no comment bound.
 */
export function buildTree(flat: RawCommentRow[]): BundleComment[] {
  return nestComments(
    flat.map((c) => ({ ...c, parentId: c.parentId.startsWith('t1_') ? c.parentId.slice(3) : null })),
    Infinity,
  ).comments;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function seconds(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.floor(n) : undefined;
}

function int(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? Math.trunc(n) : 0;
}

function iso(s: number): string {
  return new Date(s * 1000).toISOString();
}

function unescape(value: string): string {
  return value.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
