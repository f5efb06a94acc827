import { sql } from 'kysely';
import type { Store } from '../store/db.ts';
import type { Auth } from './better-auth.ts';

export interface UserRef {
  id: string;
  email: string;
}

export async function findUserByEmail(store: Store, email: string): Promise<UserRef | undefined> {
  return store.db
    .selectFrom('user')
    .select(['id', 'email'])
    .where(sql<boolean>`lower(email) = ${email.trim().toLowerCase()}`)
    .executeTakeFirst();
}

/**
 * Creates a better-auth user. With a password it is a normal email+password account (argon2id);
 * without one, an account that signs in nowhere until a password is set, for API-key-only use.
 */
export async function createUser(auth: Auth, email: string, password?: string): Promise<UserRef> {
  const name = email.split('@')[0] ?? email;
  if (password !== undefined) {
    const result = await auth.api.signUpEmail({ body: { email, password, name } });
    return { id: result.user.id, email: result.user.email };
  }
  const ctx = await auth.$context;
  const user = await ctx.internalAdapter.createUser({ email: email.toLowerCase(), name, emailVerified: false }, { method: 'admin' });
  return { id: user.id, email: user.email };
}

/**
 * Sets an account's password (argon2id, better-auth's own hashing), creating the email+password
 * credential when the account had none (made for API keys only), and signs the account out
 * everywhere: whoever held a session under the old password does not keep it.
 */
export async function setPassword(auth: Auth, userId: string, password: string): Promise<void> {
  const ctx = await auth.$context;
  const hash = await ctx.password.hash(password);
  if (await ctx.internalAdapter.findCredentialAccount(userId)) await ctx.internalAdapter.updatePassword(userId, hash);
  else await ctx.internalAdapter.linkAccount({ userId, providerId: 'credential', accountId: userId, password: hash });
  await ctx.internalAdapter.deleteUserSessions(userId);
}
