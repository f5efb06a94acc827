/**
 * One running service per suite: a fresh database, migrated, with the small bundle imported and
 * an API key per tenant, served in-process (Hono's app.request) or on a real socket (listen()).
 */
import { createApiKey, LastUsedRecorder } from '../../src/auth/api-keys.ts';
import { openAuth, type Auth } from '../../src/auth/better-auth.ts';
import type { MetadataFetch } from '../../src/auth/cimd.ts';
import { createUser, findUserByEmail } from '../../src/auth/users.ts';
import { createApp } from '../../src/http/app.ts';
import type { DigestLauncher } from '../../src/ingest/digest/launcher.ts';
import { parseBundle } from '../../src/ingest/bundle.ts';
import { importBundle } from '../../src/ingest/import.ts';
import { createLogger, type Logger } from '../../src/logger.ts';
import { openStore, type Dialect, type Store } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';
import { authSecret } from '../../src/store/settings.ts';
import { ALICE, BOB, CAROL, smallBundle } from '../fixtures/small-bundle.ts';
import { copyDatabase, freshDatabase, type TestDatabase } from './database.ts';
import { serveApp, type Served } from './serve.ts';

export interface Keys {
  /** alice, no project tie: defaults to prj_alpha, may switch to prj_beta. */
  alice: string;
  /** alice, tied to prj_beta. */
  aliceBeta: string;
  bob: string;
  /** carol has an account and no project. */
  carol: string;
}

export interface Users {
  alice: string;
  bob: string;
  carol: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export interface TestService {
  dialect: Dialect;
  database: TestDatabase;
  store: Store;
  app: ReturnType<typeof createApp>;
  keys: Keys;
  users: Users;
  lastUsed: LastUsedRecorder;
  /** The better-auth instance (mounted in the app only with `web: true`). */
  auth: Auth;
  /** POST /api/v1/invoke with a JSON body and a key. */
  invoke(key: string | null, body: unknown): Promise<Answer>;
  /** Any request, in-process. */
  request(path: string, init?: RequestInit): Promise<Answer>;
  /** Starts a real HTTP server on a free loopback port; returns its base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** Import the small bundle (default true). */
  bundle?: boolean;
  /** Mount better-auth and the web pages (DESIGN §7) in the app (default false). */
  web?: boolean;
  /** The app's logger; silent unless given (e.g. one writing to a captured stream). */
  logger?: Logger;
  /** The dashboard's "Run now" launcher, made over the suite's store (none by default); stopped by close(). */
  launcher?: (store: Store) => DigestLauncher;
  /** DIGEST_HOUR_UTC as `signals serve` passes it to the pages (their default: 6). */
  digestHourUtc?: number;
  /** How Client ID Metadata Documents are fetched (the service's default: public https only). */
  metadataFetch?: MetadataFetch;
  /** Start from a copy of this database (closed; see copyDatabase) instead of an empty one. */
  template?: TestDatabase;
}

export async function startService(dialect: Dialect, options: ServiceOptions = {}): Promise<TestService> {
  const database = options.template ? await copyDatabase(options.template) : await freshDatabase(dialect);
  const store = openStore(database.url);
  await migrate(store);
  const auth = await openAuth(store, {
    secret: await authSecret(store),
    publicUrl: 'http://localhost:8080',
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.metadataFetch ? { metadataFetch: options.metadataFetch } : {}),
  });
  // A template may hold the accounts already.
  const user = async (email: string) => (await findUserByEmail(store, email))?.id ?? (await createUser(auth, email)).id;
  const users = { alice: await user(ALICE), bob: await user(BOB), carol: await user(CAROL) };
  if (options.bundle !== false) await importBundle(store, parseBundle(smallBundle()));
  const key = async (userId: string, projectId: string | null = null) => (await createApiKey(store.db, { userId, projectId, name: 'test' })).key;
  const keys: Keys = {
    alice: await key(users.alice),
    aliceBeta: options.bundle !== false ? await key(users.alice, 'prj_beta') : '',
    bob: await key(users.bob),
    carol: await key(users.carol),
  };
  const lastUsed = new LastUsedRecorder(store.db, 60_000);
  const launcher = options.launcher?.(store);
  const app = createApp({
    store,
    logger: options.logger ?? createLogger('silent'),
    lastUsed,
    config: { publicUrl: 'http://localhost:8080', host: '127.0.0.1', ...(options.digestHourUtc !== undefined ? { digestHourUtc: options.digestHourUtc } : {}) },
    ...(options.web ? { auth } : {}),
    ...(launcher ? { launcher } : {}),
  });
  let served: Served | undefined;

  const answer = async (res: Response): Promise<Answer> => {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, headers: res.headers, body };
  };

  return {
    dialect,
    database,
    store,
    app,
    keys,
    users,
    lastUsed,
    auth,
    async invoke(k, body) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (k !== null) headers.authorization = `Bearer ${k}`;
      return answer(await app.request('/api/v1/invoke', { method: 'POST', headers, body: JSON.stringify(body) }));
    },
    async request(path, init) {
      return answer(await app.request(path, init));
    },
    async listen() {
      served = await serveApp(app);
      return served.base;
    },
    async close() {
      await served?.close();
      await launcher?.stop();
      await store.close();
      await database.drop();
    },
  };
}
