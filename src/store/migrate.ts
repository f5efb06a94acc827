/**
 * Brings a database to the current schema: our migrations (Kysely's migrator) and then
 * better-auth's tables. Two processes starting at once against one PostgreSQL must not both
 * migrate, so the whole step runs under a session-level advisory lock held on its own connection.
 */
import { randomBytes } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { getMigrations } from 'better-auth/db/migration';
import { authSchemaOptions } from '../auth/better-auth.ts';
import type { Store } from './db.ts';
import { migrations } from './migrations/index.ts';
import { ensureSetting } from './settings.ts';

/** Arbitrary constant shared by every process of this service: "signals" in ASCII. */
const MIGRATION_LOCK_KEY = 0x7369676e616c73;

export async function migrate(store: Store): Promise<string[]> {
  return withMigrationLock(store, async () => {
    const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => migrations } });
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);

    const auth = await getMigrations(authSchemaOptions(store));
    for (const table of auth.toBeCreated) applied.push(`auth:create:${table.table}`);
    for (const table of auth.toBeAdded) applied.push(`auth:alter:${table.table}`);
    await auth.runMigrations();

    await ensureSetting(store, 'auth_secret', () => randomBytes(32).toString('base64url'));
    return applied;
  });
}

async function withMigrationLock<T>(store: Store, work: () => Promise<T>): Promise<T> {
  if (store.dialect !== 'postgres') return work();
  return store.db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(conn);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(conn);
    }
  });
}
