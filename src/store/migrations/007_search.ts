import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { reindexAll } from '../search.ts';

/**
 * Full-text search (DESIGN §11 `search`): one row per searchable document of a project — a post,
 * a comment, a signal, a theme, a brief item — in `search_docs`, and each database's own engine
 * over its words: a contentless FTS5 table on SQLite (rowid = `search_docs.id`), a `tsvector`
 * column with a GIN index on PostgreSQL. Neither keeps a copy of the text (store/search.ts says
 * why). The rows are written by store/search.ts wherever posts, themes, signals and briefs are
 * (import and the digest pipeline); this migration builds them for the data already there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('search_docs')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('doc_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .$call((t) => (postgres ? t.addColumn('document', sql`tsvector`, (c) => c.notNull()) : t))
    .execute();
  await db.schema.createIndex('search_docs_doc').on('search_docs').columns(['project_id', 'doc_id']).unique().execute();
  await db.schema.createIndex('search_docs_source').on('search_docs').columns(['project_id', 'source']).execute();
  if (postgres) {
    await sql`create index search_docs_document on search_docs using gin (document)`.execute(db);
  } else {
    // Porter stemming so that "exports" finds "export"; diacritics folded. `contentless_delete`
    // lets a rewritten document's words be removed by rowid.
    await sql`create virtual table search_fts using fts5(title, body, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`.execute(db);
  }
  await reindexAll(db);
}
