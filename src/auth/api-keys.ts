/**
 * API keys: `sgk_` + 26 base32 characters of randomness (130 bits) + a 6-character checksum.
 * The checksum lets a mistyped or truncated key be refused before any database lookup; only the
 * SHA-256 of the whole key is stored, so a database leak does not leak usable keys.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { base32, newId } from '../domain/ids.ts';
import type { Caller } from '../capabilities/types.ts';
import type { Db } from '../store/db.ts';
import { prepareQuery } from '../store/prepared.ts';

export const KEY_PREFIX = 'sgk_';
const BODY_LENGTH = 26;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[a-z2-7]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

function checksum(body: string): string {
  return base32(createHash('sha256').update(`${KEY_PREFIX}${body}`).digest()).slice(0, CHECKSUM_LENGTH);
}

export function generateKey(): string {
  const body = base32(randomBytes(17)).slice(0, BODY_LENGTH);
  return `${KEY_PREFIX}${body}${checksum(body)}`;
}

/** Shape and checksum only: true means "worth a lookup", not "valid". */
export function isWellFormedKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(KEY_PREFIX.length, KEY_PREFIX.length + BODY_LENGTH);
  const given = Buffer.from(key.slice(KEY_PREFIX.length + BODY_LENGTH));
  return timingSafeEqual(given, Buffer.from(checksum(body)));
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export interface CreatedKey {
  id: string;
  key: string;
  projectId: string | null;
}

export async function createApiKey(
  db: Db,
  input: { userId: string; projectId: string | null; name: string },
  now = new Date().toISOString(),
): Promise<CreatedKey> {
  const key = generateKey();
  const id = newId('key');
  await db
    .insertInto('api_keys')
    .values({
      id,
      user_id: input.userId,
      project_id: input.projectId,
      name: input.name,
      key_hash: hashKey(key),
      last4: key.slice(-4),
      created_at: now,
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
  return { id, key, projectId: input.projectId };
}

/** Revokes at once: the next request with the key is refused. Undefined when no such key. */
export async function revokeApiKey(db: Db, id: string, now = new Date().toISOString()): Promise<{ id: string; revokedAt: string } | undefined> {
  const row = await db.selectFrom('api_keys').select(['id', 'revoked_at']).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  if (row.revoked_at) return { id: row.id, revokedAt: row.revoked_at };
  await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
  return { id, revokedAt: now };
}

/** A live (not revoked) API key by the SHA-256 of the key: the lookup every request makes. */
const liveApiKeyByHash = prepareQuery({ keyHash: 'string' }, (db, a) =>
  db.selectFrom('api_keys').select(['id', 'user_id', 'project_id']).where('key_hash', '=', a.keyHash).where('revoked_at', 'is', null),
);

/** The caller a bearer key stands for, or undefined for anything not a live key. */
export async function authenticateKey(db: Db, key: string): Promise<Caller | undefined> {
  if (!isWellFormedKey(key)) return undefined;
  // Precompiled (src/store/prepared.ts): this lookup runs on every authenticated request.
  const row = await liveApiKeyByHash.executeTakeFirst(db, { keyHash: hashKey(key) });
  if (!row) return undefined;
  return { userId: row.user_id, tiedProjectId: row.project_id, keyId: row.id };
}

/**
 * Remembers when each key was last used and writes it in one batch now and then, so serving a
 * request never waits on (or contends for) a database write. At most `intervalMs` of last-use
 * times can be lost if the process dies, which is acceptable for an informational field.
 */
export class LastUsedRecorder {
  private pending = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly intervalMs = 30_000,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  touch(keyId: string, at = new Date().toISOString()): void {
    // Keep the newest time of the batch: an older touch (clock step back) must not replace it.
    const known = this.pending.get(keyId);
    if (known === undefined || known < at) this.pending.set(keyId, at);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush().catch(this.onError), this.intervalMs);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    for (const [id, at] of batch) {
      await this.db
        .updateTable('api_keys')
        .set({ last_used_at: at })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
        .execute();
    }
  }
}

export interface ApiKeySummary {
  id: string;
  name: string;
  projectId: string | null;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A user's live (unrevoked) keys, newest first; never the key or its hash. */
export async function listApiKeys(db: Db, userId: string): Promise<ApiKeySummary[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'name', 'project_id', 'last4', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, projectId: r.project_id, last4: r.last4, createdAt: r.created_at, lastUsedAt: r.last_used_at }));
}

/** `signals key list`: keys of one account, or of all, revoked ones included; never the key or its hash. */
export async function listKeysForCli(db: Db, userId?: string): Promise<{ id: string; name: string; projectId: string | null; last4: string; lastUsedAt: string | null; revokedAt: string | null }[]> {
  let query = db.selectFrom('api_keys').select(['id', 'name', 'project_id', 'last4', 'last_used_at', 'revoked_at']).orderBy('created_at', 'desc').orderBy('id', 'desc');
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const rows = await query.execute();
  return rows.map((r) => ({ id: r.id, name: r.name, projectId: r.project_id, last4: r.last4, lastUsedAt: r.last_used_at, revokedAt: r.revoked_at }));
}

/**
 * Revokes one of the user's own keys. Undefined when the user has no such key, so another
 * user's key id looks exactly like one that does not exist.
 */
export async function revokeOwnApiKey(db: Db, userId: string, id: string, now = new Date().toISOString()): Promise<{ id: string; revokedAt: string } | undefined> {
  const row = await db.selectFrom('api_keys').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) return undefined;
  return revokeApiKey(db, id, now);
}
