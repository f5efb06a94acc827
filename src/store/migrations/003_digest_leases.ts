import type { Kysely } from 'kysely';

/**
 * One row per project whose digest has ever run: who holds the right to run it and until when
 * (DESIGN §8). A process takes the row with FOR UPDATE SKIP LOCKED, so of several processes on one
 * PostgreSQL exactly one runs a project's digest; it renews `expires_at` while it works, and a
 * lease left to expire means its holder died, so its run is marked failed by whoever comes next.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('digest_leases')
    .addColumn('project_id', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text')
    .addColumn('run_id', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  // A brief's window: the posts created in it, then their signals (signals_post).
  await db.schema.createIndex('posts_created').on('posts').columns(['project_id', 'post_created_at']).execute();
  // The scheduler's "has this slot run yet?" and the sweep of expired runs.
  await db.schema.createIndex('runs_status').on('runs').columns(['status', 'project_id']).execute();
}
