import type { Kysely } from 'kysely';

/**
 * A project's memory build (DESIGN §8 "Project memory"): when the build now holding the project
 * started (a process that dies mid-build leaves `building`; a build older than the stale bound is
 * taken over) and why the last one failed, for the dashboard and `signals project refresh`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('memory_build_started_at', 'text').execute();
  await db.schema.alterTable('projects').addColumn('memory_error', 'text').execute();
  // The builder's "what needs building?" scan.
  await db.schema.createIndex('projects_memory_status').on('projects').columns(['memory_status']).execute();
}
