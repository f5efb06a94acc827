/**
 * src/store/prepared.ts: a precompiled query returns what the same Kysely query built anew
 * returns, refuses what it cannot replay (value-dependent SQL, missing arguments, arrays), and
 * runs on the transaction it is given.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';
import { prepareQuery } from '../../src/store/prepared.ts';
import { DIALECTS, freshDatabase, type TestDatabase } from '../helpers/database.ts';

const settingByKey = prepareQuery({ key: 'string' }, (db, a) => db.selectFrom('settings').select(['key', 'value']).where('key', '=', a.key));

const settingsPage = prepareQuery({ prefix: 'string', limit: 'number', offset: 'number' }, (db, a) =>
  db
    .selectFrom('settings')
    .select('key')
    .where('key', 'like', a.prefix)
    .orderBy('key', 'asc')
    .limit(a.limit)
    .offset(a.offset),
);

/** The same argument twice, next to a constant parameter of the builder. */
const eitherKey = prepareQuery({ key: 'string' }, (db, a) =>
  db
    .selectFrom('settings')
    .select('value')
    .where((eb) => eb.or([eb('key', '=', a.key), eb('value', '=', a.key), eb('key', '=', 'never-a-key')])),
);

for (const dialect of DIALECTS) {
  describe(`prepared queries (${dialect})`, () => {
    let database: TestDatabase;
    let store: Store;

    before(async () => {
      database = await freshDatabase(dialect);
      store = openStore(database.url);
      await migrate(store);
      await store.db
        .insertInto('settings')
        .values(['a', 'b', 'c', 'd', 'e'].map((k) => ({ key: `t.${k}`, value: `value ${k}` })))
        .execute();
    });

    after(async () => {
      await store.close();
      await database.drop();
    });

    test('returns the rows the dynamic query returns, for each new set of values', async () => {
      for (const key of ['t.a', 't.c', 'missing']) {
        const dynamic = await store.db.selectFrom('settings').select(['key', 'value']).where('key', '=', key).executeTakeFirst();
        assert.deepEqual(await settingByKey.executeTakeFirst(store.db, { key }), dynamic);
      }
      assert.deepEqual(await settingByKey.execute(store.db, { key: 't.e' }), [{ key: 't.e', value: 'value e' }]);
      assert.equal(await settingByKey.executeTakeFirst(store.db, { key: 'missing' }), undefined);
    });

    test('numbers are parameters too: limit and offset page like the dynamic query', async () => {
      assert.deepEqual(await settingsPage.execute(store.db, { prefix: 't.%', limit: 2, offset: 0 }), [{ key: 't.a' }, { key: 't.b' }]);
      assert.deepEqual(await settingsPage.execute(store.db, { prefix: 't.%', limit: 2, offset: 3 }), [{ key: 't.d' }, { key: 't.e' }]);
      assert.deepEqual(await settingsPage.execute(store.db, { prefix: 't.%', limit: 10, offset: 5 }), []);
    });

    test('an argument used twice fills both places; constants of the builder stay', async () => {
      assert.deepEqual(await eitherKey.execute(store.db, { key: 't.b' }), [{ value: 'value b' }]);
      assert.deepEqual(await eitherKey.execute(store.db, { key: 'value c' }), [{ value: 'value c' }]);
      assert.deepEqual(await eitherKey.execute(store.db, { key: 'never-a-key' }), []);
    });

    test('runs on the transaction it is given: sees its uncommitted rows, which a rollback removes', async () => {
      const rolledBack = new Error('roll back');
      await assert.rejects(
        store.db.transaction().execute(async (trx) => {
          await trx.insertInto('settings').values({ key: 't.trx', value: 'inside' }).execute();
          assert.deepEqual(await settingByKey.executeTakeFirst(trx, { key: 't.trx' }), { key: 't.trx', value: 'inside' });
          throw rolledBack;
        }),
        rolledBack,
      );
      assert.equal(await settingByKey.executeTakeFirst(store.db, { key: 't.trx' }), undefined);
    });

    test('refuses, at the first compile, an argument that is not a parameter or is inlined in the SQL', async () => {
      const unused = prepareQuery({ key: 'string', other: 'string' }, (db, a) => db.selectFrom('settings').select('key').where('key', '=', a.key));
      await assert.rejects(unused.execute(store.db, { key: 't.a', other: 'x' }), /argument "other" is not a parameter/);
      const inlined = prepareQuery({ key: 'string' }, (db, a) => db.selectFrom('settings').select('key').where('key', '=', sql.lit(a.key)));
      await assert.rejects(inlined.execute(store.db, { key: 't.a' }), /the SQL depends on an argument's value/);
    });

    test('refuses an array, undefined or a wrong type in place of a scalar argument', async () => {
      await assert.rejects(
        settingByKey.execute(store.db, { key: ['t.a', 't.b'] as unknown as string }),
        /argument "key" must be a string, got an array/,
      );
      await assert.rejects(settingByKey.execute(store.db, { key: undefined as unknown as string }), /argument "key" must be a string, got undefined/);
      await assert.rejects(
        settingsPage.execute(store.db, { prefix: 't.%', limit: '2' as unknown as number, offset: 0 }),
        /argument "limit" must be a number, got string/,
      );
    });
  });
}
