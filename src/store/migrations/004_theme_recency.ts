import { sql, type Kysely } from 'kysely';

/**
 * DESIGN §4: a theme's `lastUpdatedAt` is its newest signal's `seenAt` — when the community last
 * spoke of it, not when a run processed it — so that `sort: recent` still means something after a
 * backfill. `recent_at` holds exactly that (the theme's own `updated_at` while it has no signal),
 * kept by refreshDerived() like the other counters, so pains.list pages keep sorting on an index.
 * `updated_at` stays what was written (export must read back what import took).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('themes').addColumn('recent_at', 'text').execute();
  await sql`update themes set recent_at = coalesce(last_seen_at, updated_at)`.execute(db);
  await db.schema.dropIndex('themes_recent').execute();
  await db.schema.dropIndex('themes_posts').execute();
  await db.schema.createIndex('themes_recent').on('themes').columns(['project_id', 'type', 'recent_at', 'id']).execute();
  await db.schema.createIndex('themes_posts').on('themes').columns(['project_id', 'type', 'post_count', 'recent_at', 'id']).execute();
  // The unthemed pool of a project's pains, which each digest run re-clusters (DESIGN §8.3).
  await db.schema.createIndex('signals_pool').on('signals').columns(['project_id', 'kind', 'theme_id', 'seen_at']).execute();
}
