import type { Kysely } from 'kysely';

/**
 * How many passages write each name family right before a hardware noun ("Epyc CPU",
 * ingest/analyze/hardware-names.ts), beside the passages that write it with a size: hardware, like
 * an open model family, is no product. Families counted before this migration start at 0 and
 * count from the next run on.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('name_sizes')
    .addColumn('hardware', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
