/**
 * Accounts are better-auth users from the start (DESIGN §7), so the dashboard and the OAuth
 * server build on the same rows later. better-auth shares our Kysely instance and database.
 */
import { hash, verify, Algorithm } from '@node-rs/argon2';
import { betterAuth, type BetterAuthOptions } from 'better-auth';
import type { Store } from '../store/db.ts';

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
const ARGON2 = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

export function verifyPassword(input: { hash: string; password: string }): Promise<boolean> {
  return verify(input.hash, input.password).catch(() => false);
}

/** What better-auth needs to know to create or check its tables (no secret involved). */
export function authSchemaOptions(store: Store): BetterAuthOptions {
  return {
    database: { db: store.db, type: store.dialect },
    emailAndPassword: { enabled: true },
    telemetry: { enabled: false },
  };
}

export interface AuthConfig {
  secret: string;
  publicUrl: string;
}

export function createAuth(store: Store, config: AuthConfig) {
  return betterAuth({
    ...authSchemaOptions(store),
    secret: config.secret,
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 256,
      password: { hash: hashPassword, verify: verifyPassword },
    },
    // Only our own origin may drive the auth endpoints from a browser (its CSRF/origin check).
    trustedOrigins: [new URL(config.publicUrl).origin],
    advanced: {
      // Spelled out rather than left to better-auth's guess from the request or NODE_ENV
      // (DESIGN §7): Secure exactly when PUBLIC_URL is https; HttpOnly and SameSite=Lax always.
      useSecureCookies: config.publicUrl.startsWith('https://'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: config.publicUrl.startsWith('https://') },
      // better-auth turns its origin/CSRF check off by itself when NODE_ENV is "test" (our test
      // runner sets it); keep it on so the tests exercise what production runs.
      disableOriginCheck: false,
    },
    logger: { disabled: process.env.NODE_ENV === 'test' },
  });
}

export type Auth = ReturnType<typeof createAuth>;
