import type { Kysely } from 'kysely';

/**
 * How a project's threads write each name family (ingest/analyze/model-sizes.ts): how many
 * passages wrote it with a parameter count ("QwQ-32B") and how many sentences named it as a
 * product. Kept across runs, because a daily run's few threads rarely say on their own that a
 * name is an open model family and not a product.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('name_sizes')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('sized', 'integer', (c) => c.notNull())
    .addColumn('mentions', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('name_sizes_pk', ['project_id', 'family'])
    .execute();
}
