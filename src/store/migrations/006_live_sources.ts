import { sql, type Kysely } from 'kysely';

/**
 * Live sources (DESIGN §8 "Collect"): a cursor per (project, community), so that each run fetches
 * only what is new, and each run's per-community outcomes (which communities were collected, how
 * many threads and requests, which failed and why).
 *
 * A cursor is the span of time already collected, `collected_from` to `collected_through`: a run
 * whose window starts inside that span asks only for what came after it; a backfill that reaches
 * further back asks for its whole window. `community` is the address as the memory holds it
 * (renaming it starts a new cursor, which is what a changed address should do).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('source_cursors')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('community', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('collected_from', 'text', (c) => c.notNull())
    .addColumn('collected_through', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('source_cursors_pk', ['project_id', 'community'])
    .execute();
  await db.schema.alterTable('runs').addColumn('communities', 'text', (c) => c.notNull().defaultTo(sql`'[]'`)).execute();
}
