/**
 * Brings a database to the current schema: our migrations (Kysely's migrator) and then
 * better-auth's tables. Two processes starting at once against one PostgreSQL must not both
 * migrate, so the whole step runs under a session-level advisory lock held on its own connection.
 * better-auth is loaded only when the database's record of its tables is not this code's
 * (auth/auth-schema.ts): most `signals` commands start on a database already migrated.
 */
import { randomBytes } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { AUTH_SCHEMA, AUTH_SCHEMA_SETTING } from '../auth/auth-schema.ts';
import type { Store } from './db.ts';
import { migrations } from './migrations/index.ts';
import { ensureSetting, findSetting, writeSetting } from './settings.ts';

/** Arbitrary constant shared by every process of this service: "signals" in ASCII. */
const MIGRATION_LOCK_KEY = 0x7369676e616c73;

export async function migrate(store: Store): Promise<string[]> {
  return withMigrationLock(store, async () => {
    const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => migrations } });
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);

    if ((await findSetting(store, AUTH_SCHEMA_SETTING)) !== AUTH_SCHEMA) {
      const [{ getMigrations }, { authSchemaOptions }] = await Promise.all([import('better-auth/db/migration'), import('../auth/better-auth.ts')]);
      const auth = await getMigrations(authSchemaOptions(store));
      for (const table of auth.toBeCreated) applied.push(`auth:create:${table.table}`);
      for (const table of auth.toBeAdded) applied.push(`auth:alter:${table.table}`);
      await auth.runMigrations();
      await writeSetting(store, AUTH_SCHEMA_SETTING, AUTH_SCHEMA);
    }

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
