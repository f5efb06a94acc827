import type { SourcePost } from '../domain/resources.ts';
import { eachComment, newestComments, renderThreadMarkdown, type ThreadComment } from '../domain/thread.ts';
import type { Db } from './db.ts';
import { parseJson } from './json.ts';
import { prepareQuery } from './prepared.ts';
import type { PostsTable } from './schema.ts';

export interface StoredPost extends SourcePost {
  url: string;
}

/**
 * `commentLimit`: keep the newest this many comments, and say how many were left out. `parsed`:
 * the row's comments when the caller has parsed them already (a big thread's JSON is parsed once).
 */
export function toSourcePost(row: PostsTable, commentLimit = Infinity, parsed?: ThreadComment[]): StoredPost {
  const { comments, left } = newestComments(parsed ?? parseJson<ThreadComment[]>(row.comments), commentLimit);
  const content = renderThreadMarkdown({ title: row.title, selftext: row.selftext, comments });
  return {
    id: row.id,
    permalink: row.permalink,
    title: row.title,
    selftext: row.selftext,
    author: row.author,
    score: Number(row.score),
    postCreatedAt: row.post_created_at,
    content: left === 0 ? content : `${content}\n\n_${leftOutLine(left, row.id)}_`,
    community: row.community,
    url: row.url,
  };
}

const postWithId = prepareQuery({ projectId: 'string', id: 'string' }, (db, a) =>
  db.selectFrom('posts').selectAll().where('project_id', '=', a.projectId).where('id', '=', a.id),
);

export async function postById(db: Db, projectId: string, id: string): Promise<StoredPost | undefined> {
  const row = await postRowById(db, projectId, id);
  return row && toSourcePost(row);
}

/** The stored row of a post, for callers that need more of it than posts.get shows (fetch). */
export function postRowById(db: Db, projectId: string, id: string): Promise<PostsTable | undefined> {
  return postWithId.executeTakeFirst(db, { projectId, id });
}

const postWithPermalinkKey = prepareQuery({ projectId: 'string', key: 'string' }, (db, a) =>
  db.selectFrom('posts').selectAll().where('project_id', '=', a.projectId).where('permalink_key', '=', a.key),
);

export async function postByPermalinkKey(db: Db, projectId: string, key: string): Promise<StoredPost | undefined> {
  const row = await postWithPermalinkKey.executeTakeFirst(db, { projectId, key });
  return row && toSourcePost(row);
}

const ID_SLICE = 500;

/** The posts of `ids`, each thread cut to its newest `commentLimit` comments when given. */
export async function postsByIds(db: Db, projectId: string, ids: string[], commentLimit?: number): Promise<Map<string, StoredPost>> {
  const posts = new Map<string, StoredPost>();
  // In slices: a big theme names more posts than SQLite (32,766) or PostgreSQL (65,535) take as
  // parameters of one statement.
  for (let at = 0; at < ids.length; at += ID_SLICE) {
    const slice = ids.slice(at, at + ID_SLICE);
    const rows = await db.selectFrom('posts').selectAll().where('project_id', '=', projectId).where('id', 'in', slice).execute();
    for (const r of rows) posts.set(r.id, toSourcePost(r, commentLimit));
  }
  return posts;
}

/**
 * Of the posts `ids`, those the project already holds, each with the ids of its stored comments:
 * what a run has read before, so that it counts only what is new of a thread collected again.
 */
export async function storedCommentIds(db: Db, projectId: string, ids: string[]): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (let at = 0; at < ids.length; at += ID_SLICE) {
    const rows = await db.selectFrom('posts').select(['id', 'comments']).where('project_id', '=', projectId).where('id', 'in', ids.slice(at, at + ID_SLICE)).execute();
    for (const r of rows) out.set(r.id, new Set(Array.from(eachComment(parseJson<ThreadComment[]>(r.comments)), (c) => c.id)));
  }
  return out;
}

function leftOutLine(left: number, postId: string): string {
  return `${left} older comment${left === 1 ? ' was' : 's were'} left out; posts.get with id "${postId}" gives the whole thread.`;
}

const signalsWithPost = prepareQuery({ projectId: 'string', postId: 'string' }, (db, a) =>
  db
    .selectFrom('signals')
    .select(['kind', 'quote', 'author', 'theme_id', 'seen_at'])
    .where('project_id', '=', a.projectId)
    .where('post_id', '=', a.postId)
    .orderBy('seen_at', 'asc')
    .orderBy('id', 'asc'),
);

export async function signalsOfPost(db: Db, projectId: string, postId: string) {
  const rows = await signalsWithPost.execute(db, { projectId, postId });
  // DESIGN §4: only pains belong to a theme as far as posts.get tells.
  return rows.map((r) => ({ kind: r.kind, quote: r.quote, author: r.author, sovId: r.kind === 'pain' ? r.theme_id : null }));
}
