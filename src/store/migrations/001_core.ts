import type { Kysely } from 'kysely';

/**
 * Every index here serves a named query: no capability reads more rows than it returns, apart
 * from the bounded walks the comments name.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('ideal_customer', 'text', (c) => c.notNull())
    .addColumn('competitors', 'text', (c) => c.notNull())
    .addColumn('offerings', 'text', (c) => c.notNull())
    .addColumn('communities', 'text', (c) => c.notNull())
    .addColumn('filter_rules', 'text', (c) => c.notNull())
    .addColumn('edited_fields', 'text', (c) => c.notNull())
    .addColumn('memory_status', 'text', (c) => c.notNull())
    .addColumn('memory_refresh_requested_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // project.list, default-project and `project` substring selection: one owner's projects, newest first.
  await db.schema.createIndex('projects_owner_created').on('projects').columns(['owner_id', 'created_at']).execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute();

  await db.schema
    .createTable('posts')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('permalink', 'text', (c) => c.notNull())
    .addColumn('permalink_key', 'text', (c) => c.notNull())
    .addColumn('community', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('selftext', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('score', 'integer', (c) => c.notNull())
    .addColumn('post_created_at', 'text', (c) => c.notNull())
    .addColumn('comments', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('posts_pk', ['project_id', 'id'])
    .execute();
  // posts.get by permalink.
  await db.schema.createIndex('posts_permalink').on('posts').columns(['project_id', 'permalink_key']).unique().execute();

  await db.schema
    .createTable('themes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('post_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('signal_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_seen_at', 'text')
    .addColumn('last_seen_at', 'text')
    .execute();
  // pains.list sort=recent and sort=posts; the page walk stays inside these indexes.
  await db.schema
    .createIndex('themes_recent')
    .on('themes')
    .columns(['project_id', 'type', 'updated_at', 'id'])
    .execute();
  await db.schema
    .createIndex('themes_posts')
    .on('themes')
    .columns(['project_id', 'type', 'post_count', 'updated_at', 'id'])
    .execute();

  await db.schema
    .createTable('signals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('post_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('quote', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('theme_id', 'text')
    .addColumn('competitor', 'text')
    .addColumn('competitor_key', 'text')
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .addColumn('moves', 'text', (c) => c.notNull())
    .execute();
  // pains.get / pains.sources: a theme's signals newest first.
  await db.schema.createIndex('signals_theme_seen').on('signals').columns(['theme_id', 'seen_at']).execute();
  // posts.get: the signals of one post.
  await db.schema.createIndex('signals_post').on('signals').columns(['project_id', 'post_id']).execute();
  // competitors.list: one product's newest mentions.
  await db.schema
    .createIndex('signals_competitor_seen')
    .on('signals')
    .columns(['project_id', 'competitor_key', 'seen_at'])
    .execute();

  await db.schema
    .createTable('briefs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('window', 'text', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('window_end', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sections', 'text', (c) => c.notNull())
    .execute();
  // briefs.*: the five newest briefs.
  await db.schema.createIndex('briefs_recent').on('briefs').columns(['project_id', 'window_end', 'created_at']).execute();

  await db.schema
    .createTable('runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('window_end', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('signal_counts', 'text', (c) => c.notNull())
    .addColumn('posts_analyzed', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('runs_project').on('runs').columns(['project_id', 'window_end']).execute();

  await db.schema
    .createTable('theme_totals')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('theme_count', 'integer', (c) => c.notNull())
    .addColumn('post_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('theme_totals_pk', ['project_id', 'type'])
    .execute();

  await db.schema
    .createTable('competitor_totals')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('competitor_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mentions', 'integer', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('competitor_totals_pk', ['project_id', 'competitor_key'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('001_core cannot be reverted: restore from a backup or an exported bundle');
}
