/**
 * Accounts and the OAuth authorization server (DESIGN §7), both better-auth, on our Kysely
 * instance and database.
 *
 * The OAuth server is better-auth's OAuth provider plugin with its JWT plugin (access tokens are
 * JWTs signed with the JWT plugin's key, verified locally by the MCP endpoint). Workarounds for
 * its rough edges live in `oauth-requests.ts` (request rewriting) and `oauth-tokens.ts`
 * (verification); the reason for each is written next to it.
 */
import { hash, verify, Algorithm } from '@node-rs/argon2';
import { oauthProvider } from '@better-auth/oauth-provider';
import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { jwt } from 'better-auth/plugins';
import type { Logger } from '../logger.ts';
import type { Store } from '../store/db.ts';
import { cimdClientDiscovery, defaultMetadataFetch, type MetadataFetch } from './cimd.ts';
import { OAUTH, oauthUrls } from './oauth-config.ts';

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
const ARGON2 = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

export function verifyPassword(input: { hash: string; password: string }): Promise<boolean> {
  return verify(input.hash, input.password).catch(() => false);
}

function plugins(publicUrl: string, metadataFetch: MetadataFetch = defaultMetadataFetch()) {
  const urls = oauthUrls(publicUrl);
  return [
    jwt({
      // The session-to-JWT endpoints are not ours to offer: only the OAuth server issues JWTs.
      disableSettingJwtHeader: true,
      jwt: { issuer: urls.issuer, audience: urls.resource },
    }),
    oauthProvider({
      loginPage: '/login',
      consentPage: '/consent',
      signup: { page: '/signup' },
      scopes: [...OAUTH.scopes],
      grantTypes: ['authorization_code', 'refresh_token'],
      // The MCP endpoint is the one protected resource; every registered client may ask for it.
      resources: [{ identifier: urls.resource, name: 'Project Signals MCP', allowedScopes: [...OAUTH.scopes] }],
      resourceSeedMode: 'overwrite',
      enforcePerClientResources: false,
      // Open registration (RFC 7591): MCP clients register themselves before the first sign-in.
      allowDynamicClientRegistration: true,
      allowUnauthenticatedClientRegistration: true,
      clientRegistrationDefaultScopes: [...OAUTH.scopes],
      accessTokenExpiresIn: OAUTH.accessTokenSeconds,
      refreshTokenExpiresIn: OAUTH.refreshTokenSeconds,
      // A rotated refresh token presented again is a replay, never a retry (RFC 9700 §4.14.2).
      refreshTokenReuseInterval: 0,
      codeExpiresIn: OAUTH.codeSeconds,
      advertisedMetadata: { scopes_supported: [...OAUTH.scopes] },
      // Client ID Metadata Documents beside registration (DESIGN §11, cimd.ts).
      extensions: [{ clientDiscovery: cimdClientDiscovery({ fetch: metadataFetch }) }],
    }),
  ];
}

/** What better-auth needs to know to create or check its tables (no secret involved). */
export function authSchemaOptions(store: Store): BetterAuthOptions {
  return {
    database: { db: store.db, type: store.dialect },
    emailAndPassword: { enabled: true },
    telemetry: { enabled: false },
    // The tables do not depend on the address; any absolute URL builds the same schema.
    plugins: plugins('http://localhost'),
    // Its schema check warns on every run that SQLite keeps `string[]` columns as TEXT, which is
    // how its own SQLite adapter stores them (JSON text); only errors are worth printing.
    logger: { level: 'error' },
  };
}

export interface AuthConfig {
  secret: string;
  publicUrl: string;
  /** How Client ID Metadata Documents are fetched (cimd.ts); tests reach their local servers. */
  metadataFetch?: MetadataFetch;
  /** Where better-auth's own messages go (as `auth` lines); without it they are dropped in tests. */
  logger?: Logger;
}

/**
 * better-auth's log calls, as pino lines. Only the message and the messages of Error arguments
 * are kept: its other arguments can be request bodies, which may hold passwords or codes.
 */
function authLogger(logger: Logger): NonNullable<BetterAuthOptions['logger']> {
  return {
    level: 'warn',
    log(level, message, ...args) {
      const errors = args.filter((a): a is Error => a instanceof Error).map((e) => e.message);
      logger[level === 'debug' ? 'debug' : level]({ component: 'auth', ...(errors.length ? { errors } : {}) }, message);
    },
  };
}

export function createAuth(store: Store, config: AuthConfig) {
  const secure = config.publicUrl.startsWith('https://');
  return betterAuth({
    database: { db: store.db, type: store.dialect },
    telemetry: { enabled: false },
    secret: config.secret,
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 256,
      password: { hash: hashPassword, verify: verifyPassword },
    },
    // The JWT plugin's session-to-JWT endpoint would hand a browser session a bearer token for
    // the MCP resource without any consent; only the OAuth token endpoint may mint them.
    disabledPaths: ['/token'],
    // Only our own origin may drive the auth endpoints from a browser (its CSRF/origin check).
    trustedOrigins: [new URL(config.publicUrl).origin],
    advanced: {
      // Spelled out rather than left to better-auth's guess from the request or NODE_ENV
      // (DESIGN §7): Secure exactly when PUBLIC_URL is https; HttpOnly and SameSite=Lax always.
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure },
      // better-auth turns its origin/CSRF check off by itself when NODE_ENV is "test" (our test
      // runner sets it); keep it on so the tests exercise what production runs.
      disableOriginCheck: false,
    },
    logger: config.logger ? authLogger(config.logger) : { disabled: process.env.NODE_ENV === 'test' },
    plugins: plugins(config.publicUrl, config.metadataFetch),
  });
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * createAuth, once its plugins have initialised. The OAuth provider seeds its resource row in
 * the background when the instance is built; a short-lived command that closed the database
 * before that finished would crash on the late write.
 */
export async function openAuth(store: Store, config: AuthConfig): Promise<Auth> {
  const auth = createAuth(store, config);
  await auth.$context;
  return auth;
}
