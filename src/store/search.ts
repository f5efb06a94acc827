/**
 * Full-text search over a project (DESIGN §11 `search`; tables in migration 007): how the
 * documents (search-documents.ts) are kept current, and the ranked query on each engine.
 *
 * The index holds no copy of the text. Each document is a row of `search_docs` (ids, kind, time)
 * plus the engine's index of its title and body: an FTS5 table without content on SQLite, a
 * `tsvector` on PostgreSQL. What a result shows (title, link, snippet) is built from the stored
 * rows again, by the same functions that indexed them, for the few rows a search returns. Storing
 * the text twice tripled the database of the r/LocalLLaMA export (54 → 161 MB); this adds a third.
 *
 * Documents follow the rows they come from: writes.ts re-indexes posts, themes, signals and
 * briefs as it upserts them (import and the digest pipeline both write through it), the pipeline
 * re-indexes the themes it renames and drops the ones it merges away, and deleting a project
 * deletes its documents. A rewrite replaces every document of its source row, so a thread that
 * gains comments is indexed whole again, never twice.
 */
import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Db, Store } from './db.ts';
import { groupBy } from './group.ts';
import type { BriefsTable, PostsTable, Schema, SignalsTable, ThemesTable } from './schema.ts';
import { briefDocs, documents, postDocs, signalDoc, signalRows, sourceOf, themeDoc, themeRows, type AnyDb, type SearchDocument, type SearchKind } from './search-documents.ts';

// ---------------------------------------------------------------------------------------------
// Keeping the documents current
// ---------------------------------------------------------------------------------------------

const SLICE = 500;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Replaces every document of `sources` in one project by `docs`. */
async function replace(db: AnyDb, projectId: string, sources: string[], docs: SearchDocument[]): Promise<void> {
  const typed = db as Db;
  const postgres = isPostgres(db);
  for (let i = 0; i < sources.length; i += SLICE) {
    const slice = sources.slice(i, i + SLICE);
    if (!postgres) {
      // The FTS5 table keeps no content: its rows go by rowid, before the rows that name them. A
      // subquery, not a list of ids: 500 threads can hold more comments than SQLite takes as
      // parameters of one statement.
      await sql`delete from search_fts where rowid in (select id from search_docs where project_id = ${projectId} and source in (${sql.join(slice)}))`.execute(db);
    }
    await typed.deleteFrom('search_docs').where('project_id', '=', projectId).where('source', 'in', slice).execute();
  }
  for (let i = 0; i < docs.length; i += SLICE) {
    const slice = docs.slice(i, i + SLICE);
    const rows = slice.map(({ doc_id, kind, source, at }) => ({ project_id: projectId, doc_id, kind, source, at }));
    if (postgres) {
      const vectors = slice.map((d) => sql`setweight(to_tsvector('english', ${d.title}), 'A') || setweight(to_tsvector('english', left(${d.body}, 200000)), 'B')`);
      await sql`insert into search_docs (project_id, doc_id, kind, source, at, document) values ${sql.join(
        rows.map((r, k) => sql`(${r.project_id}, ${r.doc_id}, ${r.kind}, ${r.source}, ${r.at}, ${vectors[k]})`),
      )}`.execute(db);
    } else {
      // RETURNING gives rows in no set order: the ids are matched back by doc_id.
      const ids = new Map((await typed.insertInto('search_docs').values(rows).returning(['id', 'doc_id']).execute()).map((r) => [r.doc_id, r.id]));
      await sql`insert into search_fts (rowid, title, body) values ${sql.join(slice.map((d) => sql`(${ids.get(d.doc_id)}, ${d.title}, ${d.body})`))}`.execute(db);
    }
  }
}

const byProject = <T extends { project_id: string }>(rows: readonly T[]) => groupBy(rows, (r) => r.project_id);

export async function indexPosts(db: AnyDb, rows: readonly PostsTable[]): Promise<void> {
  for (const [projectId, group] of byProject(rows)) {
    await replace(db, projectId, group.map((r) => sourceOf('post', r.id)), group.flatMap((row) => postDocs(row)));
  }
}

export async function indexThemes(db: AnyDb, rows: readonly Pick<ThemesTable, 'id' | 'project_id' | 'title' | 'summary' | 'updated_at'>[]): Promise<void> {
  for (const [projectId, group] of byProject(rows)) {
    await replace(db, projectId, group.map((r) => sourceOf('theme', r.id)), group.map(themeDoc));
  }
}

/** Re-reads the themes (after a rename) and indexes them as stored. */
export async function indexThemeIds(db: AnyDb, projectId: string, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += SLICE) {
    const slice = ids.slice(i, i + SLICE);
    await replace(db, projectId, slice.map((id) => sourceOf('theme', id)), (await themeRows(db, projectId, slice)).map(themeDoc));
  }
}

export async function indexSignals(db: AnyDb, rows: readonly Pick<SignalsTable, 'id' | 'project_id'>[]): Promise<void> {
  for (const [projectId, group] of byProject(rows)) await indexSignalIds(db, projectId, group.map((r) => r.id));
}

/** Signals are indexed with their post's title and link, so they are read back with it. */
export async function indexSignalIds(db: AnyDb, projectId: string, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += SLICE) {
    const slice = ids.slice(i, i + SLICE);
    await replace(db, projectId, slice.map((id) => sourceOf('signal', id)), (await signalRows(db, projectId, slice)).map(signalDoc));
  }
}

export async function indexBriefs(db: AnyDb, rows: readonly Pick<BriefsTable, 'id' | 'project_id' | 'sections' | 'window_end'>[]): Promise<void> {
  for (const [projectId, group] of byProject(rows)) {
    await replace(db, projectId, group.map((r) => sourceOf('brief', r.id)), group.flatMap(briefDocs));
  }
}

/** A theme merged into another is gone: so are its documents. */
export async function dropThemeDocs(db: AnyDb, projectId: string, themeIds: string[]): Promise<void> {
  await replace(db, projectId, themeIds.map((id) => sourceOf('theme', id)), []);
}

/** Signals deleted (a name found to be a model family or hardware, not a product): so are their documents. */
export async function dropSignalDocs(db: AnyDb, projectId: string, signalIds: string[]): Promise<void> {
  await replace(db, projectId, signalIds.map((id) => sourceOf('signal', id)), []);
}

/** Every document of a project; call with the project's other rows, in one transaction. */
export async function dropProjectDocs(db: AnyDb, projectId: string): Promise<void> {
  if (!isPostgres(db)) await sql`delete from search_fts where rowid in (select id from search_docs where project_id = ${projectId})`.execute(db);
  await (db as Db).deleteFrom('search_docs').where('project_id', '=', projectId).execute();
}

/** Every project's documents built again from the stored rows (migration 007; a repair). */
export async function reindexAll(db: AnyDb): Promise<void> {
  const projects = await (db as Kysely<Schema>).selectFrom('projects').select('id').execute();
  for (const { id } of projects) await reindexProject(db, id);
}

export async function reindexProject(db: AnyDb, projectId: string): Promise<void> {
  const typed = db as Db;
  await dropProjectDocs(db, projectId);
  // Posts a page at a time: a big project's threads do not fit in memory at once.
  let after = '';
  for (;;) {
    const posts = await typed.selectFrom('posts').selectAll().where('project_id', '=', projectId).where('id', '>', after).orderBy('id').limit(SLICE).execute();
    if (posts.length === 0) break;
    await indexPosts(db, posts);
    after = posts.at(-1)!.id;
  }
  const themes = await typed.selectFrom('themes').select(['id', 'project_id', 'title', 'summary', 'updated_at']).where('project_id', '=', projectId).execute();
  await indexThemes(db, themes);
  const signals = await typed.selectFrom('signals').select('id').where('project_id', '=', projectId).execute();
  await indexSignalIds(db, projectId, signals.map((s) => s.id));
  const briefs = await typed.selectFrom('briefs').select(['id', 'project_id', 'sections', 'window_end']).where('project_id', '=', projectId).execute();
  await indexBriefs(db, briefs);
}

// ---------------------------------------------------------------------------------------------
// The ranked query
// ---------------------------------------------------------------------------------------------

export interface SearchHit {
  docId: string;
  kind: SearchKind;
  title: string;
  url: string;
  snippet: string;
  at: string;
}

/** Words of a query: letters and digits only, so nothing reaches either engine's query syntax. */
export function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_TERMS);
}

const MAX_TERMS = 32;

/**
 * The project's documents matching the query, best first: those holding every word, then — when
 * they are fewer than `limit` — those holding some, so that a question in plain words ("why do
 * exports time out") still finds the threads that say "export" and "timeout".
 */
export async function searchDocs(store: Store, projectId: string, terms: string[], limit: number): Promise<SearchHit[]> {
  if (terms.length === 0) return [];
  const ids = await ranked(store, projectId, terms, 'and', limit);
  if (ids.length < limit && terms.length > 1) {
    const seen = new Set(ids);
    for (const id of await ranked(store, projectId, terms, 'or', limit + ids.length)) {
      if (ids.length >= limit) break;
      if (!seen.has(id)) ids.push(id);
    }
  }
  const docs = await documents(store.db, projectId, ids);
  return ids.flatMap((id) => {
    const d = docs.get(id);
    return d ? [{ docId: id, kind: d.kind as SearchKind, title: d.title, url: d.url, at: d.at, snippet: snippet(d.body || d.title, terms) }] : [];
  });
}

async function ranked(store: Store, projectId: string, terms: string[], mode: 'and' | 'or', limit: number): Promise<string[]> {
  if (store.dialect === 'postgres') {
    const query = terms.join(mode === 'and' ? ' & ' : ' | ');
    const { rows } = await sql<{ doc_id: string }>`
      select doc_id from search_docs
      where project_id = ${projectId} and document @@ to_tsquery('english', ${query})
      order by ts_rank_cd(document, to_tsquery('english', ${query})) desc, at desc, doc_id
      limit ${limit}`.execute(store.db);
    return rows.map((r) => r.doc_id);
  }
  // Each term quoted: FTS5 then reads it as a string, never as an operator or a column name.
  const match = terms.map((t) => `"${t}"`).join(mode === 'and' ? ' ' : ' OR ');
  const { rows } = await sql<{ doc_id: string }>`
    select d.doc_id from search_fts join search_docs d on d.id = search_fts.rowid
    where search_fts match ${match} and d.project_id = ${projectId}
    order by bm25(search_fts, 4.0, 1.0), d.at desc, d.doc_id
    limit ${limit}`.execute(store.db);
  return rows.map((r) => r.doc_id);
}

const SNIPPET_WORDS = 36;

/**
 * The words of `text` around the most query words, with an ellipsis where it was cut. A word
 * counts as a query word when they share a beginning ("fails" finds "failing"), close to what
 * both engines' English stemming matched on.
 */
export function snippet(text: string, terms: readonly string[]): string {
  const words = [...text.matchAll(/\S+/g)];
  if (words.length <= SNIPPET_WORDS) return words.map((w) => w[0]).join(' ');
  const stems = terms.map((t) => t.slice(0, Math.max(3, t.length - 2)));
  const hit = words.map((w) => {
    const word = w[0].toLowerCase().replace(/^[^\p{L}\p{N}]+/u, '');
    return stems.findIndex((s) => word.startsWith(s));
  });
  let best = 0;
  let bestScore = -1;
  for (let start = 0; start + SNIPPET_WORDS <= words.length; start++) {
    const inWindow = hit.slice(start, start + SNIPPET_WORDS).filter((h) => h >= 0);
    const score = new Set(inWindow).size * 100 + inWindow.length;
    if (score > bestScore) {
      bestScore = score;
      best = start;
    }
  }
  // The window starts a few words before the first match in it, so the match has some context.
  const first = hit.slice(best, best + SNIPPET_WORDS).findIndex((h) => h >= 0);
  const start = Math.max(0, best + Math.max(0, first) - 6);
  const end = Math.min(words.length, start + SNIPPET_WORDS);
  const shown = words.slice(start, end).map((w) => w[0]).join(' ');
  return `${start > 0 ? '… ' : ''}${shown}${end < words.length ? ' …' : ''}`;
}
