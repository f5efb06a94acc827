/**
 * migrate() loads better-auth only when a database's record of better-auth's tables is not this
 * code's (src/auth/auth-schema.ts). Two things must hold for that to be safe: the recorded
 * constant is what better-auth derives from our options today, and a database whose record
 * differs (new, or migrated by code with other auth tables) gets better-auth's migrations.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { AUTH_SCHEMA, AUTH_SCHEMA_SETTING, authSchemaOf } from '../../src/auth/auth-schema.ts';
import { authSchemaOptions } from '../../src/auth/better-auth.ts';
import { openStore, type Store } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';
import { findSetting, writeSetting } from '../../src/store/settings.ts';
import { DIALECTS, freshDatabase, type TestDatabase } from '../helpers/database.ts';

test('AUTH_SCHEMA is the fingerprint better-auth derives from our options', async () => {
  const derived = await authSchemaOf(authSchemaOptions({ db: null, dialect: 'sqlite' } as unknown as Store));
  assert.equal(AUTH_SCHEMA, derived, `better-auth's tables changed: set AUTH_SCHEMA in src/auth/auth-schema.ts to '${derived}'`);
});

for (const dialect of DIALECTS) {
  describe(`migrate and better-auth's tables (${dialect})`, () => {
    let database: TestDatabase;
    let store: Store;
    before(async () => {
      database = await freshDatabase(dialect);
      store = openStore(database.url);
    });
    after(async () => {
      await store.close();
      await database.drop();
    });

    const hasTable = async (name: string) => (await store.db.introspection.getTables()).some((t) => t.name === name);

    test('a new database gets the tables and records AUTH_SCHEMA; a second migrate applies nothing', async () => {
      const applied = await migrate(store);
      assert.ok(applied.includes('auth:create:user'), applied.join(', '));
      assert.equal(await findSetting(store, AUTH_SCHEMA_SETTING), AUTH_SCHEMA);
      assert.deepEqual(await migrate(store), []);
    });

    test('a database recorded with other auth tables is migrated again; one recorded as current is left alone', async () => {
      await sql`drop table ${sql.table('jwks')}`.execute(store.db);
      assert.deepEqual(await migrate(store), [], 'recorded as current: better-auth is not asked');
      assert.equal(await hasTable('jwks'), false);

      await writeSetting(store, AUTH_SCHEMA_SETTING, 'tables of an older version');
      assert.deepEqual(await migrate(store), ['auth:create:jwks']);
      assert.equal(await hasTable('jwks'), true);
      assert.equal(await findSetting(store, AUTH_SCHEMA_SETTING), AUTH_SCHEMA);
    });
  });
}
