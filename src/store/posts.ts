import type { SourcePost } from '../domain/resources.ts';
import { renderThreadMarkdown, type ThreadComment } from '../domain/thread.ts';
import type { Db } from './db.ts';
import { parseJson } from './json.ts';
import { prepareQuery } from './prepared.ts';
import type { PostsTable } from './schema.ts';

export interface StoredPost extends SourcePost {
  url: string;
}

function toSourcePost(row: PostsTable): StoredPost {
  const comments = parseJson<ThreadComment[]>(row.comments);
  return {
    id: row.id,
    permalink: row.permalink,
    title: row.title,
    selftext: row.selftext,
    author: row.author,
    score: Number(row.score),
    postCreatedAt: row.post_created_at,
    content: renderThreadMarkdown({ title: row.title, selftext: row.selftext, comments }),
    community: row.community,
    url: row.url,
  };
}

const postWithId = prepareQuery({ projectId: 'string', id: 'string' }, (db, a) =>
  db.selectFrom('posts').selectAll().where('project_id', '=', a.projectId).where('id', '=', a.id),
);

export async function postById(db: Db, projectId: string, id: string): Promise<StoredPost | undefined> {
  const row = await postWithId.executeTakeFirst(db, { projectId, id });
  return row && toSourcePost(row);
}

const postWithPermalinkKey = prepareQuery({ projectId: 'string', key: 'string' }, (db, a) =>
  db.selectFrom('posts').selectAll().where('project_id', '=', a.projectId).where('permalink_key', '=', a.key),
);

export async function postByPermalinkKey(db: Db, projectId: string, key: string): Promise<StoredPost | undefined> {
  const row = await postWithPermalinkKey.executeTakeFirst(db, { projectId, key });
  return row && toSourcePost(row);
}

export async function postsByIds(db: Db, projectId: string, ids: string[]): Promise<Map<string, StoredPost>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('posts').selectAll().where('project_id', '=', projectId).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, toSourcePost(r)]));
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
