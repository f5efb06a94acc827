import type { Store } from './db.ts';

/** Stores a generated value once; concurrent first starts agree on the first one written. */
export async function ensureSetting(store: Store, key: string, make: () => string): Promise<string> {
  await store.db
    .insertInto('settings')
    .values({ key, value: make() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return readSetting(store, key);
}

/** A setting's value, or undefined when it was never written. */
export async function findSetting(store: Store, key: string): Promise<string | undefined> {
  const row = await store.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

export async function writeSetting(store: Store, key: string, value: string): Promise<void> {
  await store.db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

export async function readSetting(store: Store, key: string): Promise<string> {
  const value = await findSetting(store, key);
  if (value === undefined) throw new Error(`setting "${key}" is missing: run \`signals migrate\``);
  return value;
}

/** The better-auth secret: BETTER_AUTH_SECRET when set, else the one generated at first migration. */
export async function authSecret(store: Store): Promise<string> {
  return process.env.BETTER_AUTH_SECRET ?? readSetting(store, 'auth_secret');
}
