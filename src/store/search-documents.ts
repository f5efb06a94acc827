/**
 * The searchable documents of a project (DESIGN §11; store/search.ts indexes and queries them):
 * their ids, and how each stored row becomes documents — the same functions build what is indexed
 * and, for the rows a search returns, what it shows (title, link, the text a snippet comes from).
 */
import type { Kysely } from 'kysely';
import type { StoredBrief } from '../domain/briefs.ts';
import { eachComment, type ThreadComment } from '../domain/thread.ts';
import type { Db } from './db.ts';
import { groupBy } from './group.ts';
import { parseJson } from './json.ts';
import type { BriefsTable, PostsTable, SearchDocsTable, SignalsTable, ThemesTable } from './schema.ts';

export const SEARCH_KINDS = ['post', 'comment', 'signal', 'theme', 'brief'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** A document as indexed and as shown: `source` is the stored row it comes from. */
export interface SearchDocument extends Omit<SearchDocsTable, 'project_id' | 'id'> {
  title: string;
  body: string;
  url: string;
}
/** Migrations index with an untyped Kysely; the app with the typed one. */
export type AnyDb = Db | Kysely<any>;

// ---------------------------------------------------------------------------------------------
// Document ids: `kind:part[:part]`, each part URI-encoded so that ids holding ':' stay readable.
// ---------------------------------------------------------------------------------------------

export function docId(kind: SearchKind, ...parts: string[]): string {
  return [kind, ...parts.map(encodeURIComponent)].join(':');
}

export function parseDocId(id: string): { kind: SearchKind; parts: string[] } | undefined {
  const [kind, ...encoded] = id.split(':');
  if (!(SEARCH_KINDS as readonly string[]).includes(kind ?? '') || encoded.length === 0) return undefined;
  try {
    const parts = encoded.map(decodeURIComponent);
    return parts.every((p) => p.length > 0) ? { kind: kind as SearchKind, parts } : undefined;
  } catch {
    return undefined;
  }
}

/** The stored row a document comes from; a post's comments share the post's source. */
export const sourceOf = (kind: 'post' | 'signal' | 'theme' | 'brief', id: string) => `${kind}:${id}`;

// ---------------------------------------------------------------------------------------------
// Rows → documents
// ---------------------------------------------------------------------------------------------

/** `comments`: the row's, when the caller has parsed them already. */
export function postDocs(row: PostsTable, comments: ThreadComment[] = parseJson<ThreadComment[]>(row.comments)): SearchDocument[] {
  const source = sourceOf('post', row.id);
  const docs: SearchDocument[] = [{ doc_id: docId('post', row.id), kind: 'post', source, title: row.title, body: row.selftext, url: row.url, at: row.post_created_at }];
  for (const c of eachComment(comments)) {
    docs.push({ doc_id: docId('comment', row.id, c.id), kind: 'comment', source, title: `Comment by ${c.author} on "${row.title}"`, body: c.body, url: row.url, at: c.createdAt });
  }
  return docs;
}

export function themeDoc(row: Pick<ThemesTable, 'id' | 'title' | 'summary' | 'updated_at'>): SearchDocument {
  // The url is the theme's dashboard page, which depends on PUBLIC_URL: the search capability fills it.
  return { doc_id: docId('theme', row.id), kind: 'theme', source: sourceOf('theme', row.id), title: row.title, body: row.summary, url: '', at: row.updated_at };
}

const SIGNAL_TITLES: Record<string, string> = { pain: 'Pain', competitor: 'Competitor mention', content: 'Question' };

export function signalDoc(row: Pick<SignalsTable, 'id' | 'kind' | 'quote' | 'author' | 'competitor' | 'seen_at'> & { post_title: string; post_url: string }): SearchDocument {
  const what = `${SIGNAL_TITLES[row.kind] ?? row.kind}${row.competitor ? ` (${row.competitor})` : ''}`;
  return { doc_id: docId('signal', row.id), kind: 'signal', source: sourceOf('signal', row.id), title: `${what} by ${row.author} in "${row.post_title}"`, body: row.quote, url: row.post_url, at: row.seen_at };
}

export function briefDocs(row: Pick<BriefsTable, 'id' | 'sections' | 'window_end'>): SearchDocument[] {
  const sections = parseJson<StoredBrief['sections']>(row.sections);
  return sections.flatMap((section, s) =>
    section.items.map((item, i) => ({
      doc_id: docId('brief', row.id, `${s}.${i}`),
      kind: 'brief',
      source: sourceOf('brief', row.id),
      title: item.surfaced.summary,
      body: [item.surfaced.quote?.text, `${item.move.title}: ${item.move.body}`].filter(Boolean).join('\n'),
      url: item.sources[0]?.url ?? '',
      at: row.window_end,
    })),
  );
}

// ---------------------------------------------------------------------------------------------
// Reading rows back as documents (indexing, and showing a result)
// ---------------------------------------------------------------------------------------------

export function themeRows(db: AnyDb, projectId: string, ids: string[]) {
  return (db as Db).selectFrom('themes').select(['id', 'project_id', 'title', 'summary', 'updated_at']).where('project_id', '=', projectId).where('id', 'in', ids).execute();
}

export function signalRows(db: AnyDb, projectId: string, ids: string[]) {
  return (db as Db)
    .selectFrom('signals as s')
    .innerJoin('posts as p', (j) => j.onRef('p.project_id', '=', 's.project_id').onRef('p.id', '=', 's.post_id'))
    .select(['s.id', 's.kind', 's.quote', 's.author', 's.competitor', 's.seen_at', 'p.title as post_title', 'p.url as post_url'])
    .where('s.project_id', '=', projectId)
    .where('s.id', 'in', ids)
    .execute();
}

/** The documents of the given ids, rebuilt from their rows (missing ones are left out). */
export async function documents(db: Db, projectId: string, ids: readonly string[]): Promise<Map<string, SearchDocument>> {
  const wanted = new Set(ids);
  // The rows to read, by table: a comment's row is its post.
  const parsed = ids.map(parseDocId).filter((p) => p !== undefined);
  const bySource = groupBy(parsed, (p) => (p.kind === 'comment' ? 'post' : p.kind));
  const docs: SearchDocument[] = [];
  const unique = (kind: Exclude<SearchKind, 'comment'>) => [...new Set((bySource.get(kind) ?? []).map((p) => p.parts[0]!))];
  if (bySource.has('post')) docs.push(...(await db.selectFrom('posts').selectAll().where('project_id', '=', projectId).where('id', 'in', unique('post')).execute()).flatMap((row) => postDocs(row)));
  if (bySource.has('theme')) docs.push(...(await themeRows(db, projectId, unique('theme'))).map(themeDoc));
  if (bySource.has('signal')) docs.push(...(await signalRows(db, projectId, unique('signal'))).map(signalDoc));
  if (bySource.has('brief')) docs.push(...(await db.selectFrom('briefs').select(['id', 'project_id', 'sections', 'window_end']).where('project_id', '=', projectId).where('id', 'in', unique('brief')).execute()).flatMap(briefDocs));
  return new Map(docs.filter((d) => wanted.has(d.doc_id)).map((d) => [d.doc_id, d]));
}
