/**
 * Which shape of better-auth's tables a database holds, without loading better-auth.
 *
 * Why: checking better-auth's tables means loading better-auth with its OAuth plugins (about
 * 0.8 s of a command's 1.7 s start on a 2-core machine) and introspecting every table of the
 * database, and migrate() did that on every `signals` command — `key list` included. A database
 * migrated by this code records AUTH_SCHEMA in its settings; migrate() loads better-auth only when
 * the record differs (a new database, or code whose auth tables changed).
 *
 * AUTH_SCHEMA is a constant, not computed, because computing it needs better-auth loaded. The test
 * beside this file fails when it no longer matches what better-auth derives from our options (an
 * upgrade or a plugin option that changes a table): update the constant to the value it prints.
 */
import { createHash } from 'node:crypto';
import type { BetterAuthOptions } from 'better-auth';

export const AUTH_SCHEMA = '5657d6e7f83b0d10f6b60dc2986f9c4e';

/** The settings key under which a database records the AUTH_SCHEMA it was migrated to. */
export const AUTH_SCHEMA_SETTING = 'auth_schema';

/** The fingerprint of better-auth's tables under `options`: a hash of its logical schema (fields, types, references, indexes). */
export async function authSchemaOf(options: BetterAuthOptions): Promise<string> {
  const { getSchema } = await import('better-auth/db');
  // JSON drops the functions (default values computed at insert), which shape no column.
  return createHash('sha256').update(JSON.stringify(getSchema(options))).digest('hex').slice(0, 32);
}
