import type { Kysely } from 'kysely';

/**
 * What a user allowed an OAuth client (DESIGN §7): all their projects (`project_id` null) or one.
 * better-auth keeps the consent and the tokens; this row is ours because the project tie is ours,
 * and the MCP endpoint reads it on every OAuth request, so deleting it cuts the client off at once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_grants')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_grants_pk', ['user_id', 'client_id'])
    .execute();
}
