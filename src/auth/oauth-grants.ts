/**
 * OAuth grants: which OAuth client a user let in, and to which projects (DESIGN §7).
 *
 * better-auth stores the client, the consent and the tokens; the project choice is ours and lives
 * in `oauth_grants`. The MCP endpoint reads the grant on every OAuth request (`liveGrant`), so
 * revoking an app on the dashboard cuts the client off at once, even though its JWT access token
 * would verify for up to an hour.
 */
import { sql } from 'kysely';
import type { Db } from '../store/db.ts';

export interface OAuthClientInfo {
  clientId: string;
  name: string;
  redirectUris: string[];
}

export async function findOAuthClient(db: Db, clientId: string): Promise<OAuthClientInfo | undefined> {
  const row = await db.selectFrom('oauthClient').select(['clientId', 'name', 'redirectUris']).where('clientId', '=', clientId).executeTakeFirst();
  if (!row) return undefined;
  return { clientId: row.clientId, name: row.name?.trim() || 'Unnamed application', redirectUris: listOf(row.redirectUris) };
}

/** better-auth keeps `string[]` columns as JSON text on SQLite and (via its adapter) on PostgreSQL. */
function listOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return value.split(',').filter(Boolean);
  }
}

export async function recordGrant(db: Db, input: { userId: string; clientId: string; projectId: string | null }, now = new Date().toISOString()): Promise<void> {
  await db
    .insertInto('oauth_grants')
    .values({ user_id: input.userId, client_id: input.clientId, project_id: input.projectId, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'client_id']).doUpdateSet({ project_id: input.projectId, updated_at: now }))
    .execute();
}

export interface GrantSummary {
  clientId: string;
  name: string;
  redirectHost: string;
  projectId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The dashboard's "connected apps": one row per client the user let in, newest first. */
export async function listGrants(db: Db, userId: string): Promise<GrantSummary[]> {
  const rows = await db
    .selectFrom('oauth_grants as g')
    .leftJoin('oauthClient as c', 'c.clientId', 'g.client_id')
    .select(['g.client_id', 'g.project_id', 'g.created_at', 'g.updated_at', 'c.name', 'c.redirectUris'])
    .where('g.user_id', '=', userId)
    .orderBy('g.updated_at', 'desc')
    .orderBy('g.client_id')
    .execute();
  return rows.map((r) => ({
    clientId: r.client_id,
    name: r.name?.trim() || 'Unnamed application',
    redirectHost: redirectHostOf(listOf(r.redirectUris)[0]),
    projectId: r.project_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}

/** What the consent page and the apps list show of a redirect URI: its host, or its scheme for an app link. */
export function redirectHostOf(uri: string | undefined): string {
  if (!uri) return 'unknown';
  try {
    const url = new URL(uri);
    return url.host !== '' ? url.host : `${url.protocol}//`;
  } catch {
    return 'unknown';
  }
}

/**
 * Revokes everything a client holds for a user: our grant, better-auth's consent (so the next
 * authorization asks again) and every refresh and stored access token. One transaction, so a
 * revoked app never keeps half its tokens.
 */
export async function revokeGrant(db: Db, userId: string, clientId: string): Promise<boolean> {
  return db.transaction().execute((trx) => revokeGrantRows(trx, userId, clientId));
}

/** revokeGrant's deletions, inside a transaction the caller holds. */
export async function revokeGrantRows(trx: Db, userId: string, clientId: string): Promise<boolean> {
  const deleted = await trx.deleteFrom('oauth_grants').where('user_id', '=', userId).where('client_id', '=', clientId).executeTakeFirst();
  await trx.deleteFrom('oauthConsent').where('userId', '=', userId).where('clientId', '=', clientId).execute();
  await trx.deleteFrom('oauthAccessToken').where('userId', '=', userId).where('clientId', '=', clientId).execute();
  await trx.deleteFrom('oauthRefreshToken').where('userId', '=', userId).where('clientId', '=', clientId).execute();
  return Number(deleted.numDeletedRows) > 0;
}

export interface GrantCheck {
  userId: string;
  clientId: string;
  /** Whether the token came with a refresh token (`offline_access` granted). */
  offline: boolean;
}

/**
 * The grant behind a verified access token, or undefined when it no longer stands.
 *
 * A JWT cannot be recalled, so liveness is checked here, in one query:
 * - the grant row must exist (revoking the app deletes it);
 * - a token issued with a refresh token must still have a live refresh token of the same client
 *   and user. better-auth deletes all of them when a rotated refresh token is replayed, and the
 *   tokens of an authorization code presented twice; checking here extends both to the JWT
 *   access tokens already handed out (RFC 9700 §4.14, §4.4.1 "the authorization server SHOULD
 *   revoke all tokens previously issued based on that code"). A client revoking its refresh
 *   token (RFC 7009) likewise ends its access tokens.
 *
 * Why client and user, not the token's own authorization: the JWT's `sid` names the browser
 * session it was approved in, and better-auth clears that link (sets it null) when the user signs
 * out of the dashboard, which must not cut the client off. The cost: when the same user has
 * connected the same client twice and one of the two codes is replayed, the other connection's
 * refresh token keeps the replayed one's JWTs alive until they expire (at most an hour).
 */
export async function liveGrant(db: Db, check: GrantCheck): Promise<{ projectId: string | null } | undefined> {
  let query = db
    .selectFrom('oauth_grants as g')
    .select('g.project_id')
    .where('g.user_id', '=', check.userId)
    .where('g.client_id', '=', check.clientId);
  if (check.offline) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('oauthRefreshToken as r')
          .select(sql<number>`1`.as('one'))
          .whereRef('r.clientId', '=', 'g.client_id')
          .whereRef('r.userId', '=', 'g.user_id')
          .where('r.revoked', 'is', null),
      ),
    );
  }
  const row = await query.executeTakeFirst();
  return row ? { projectId: row.project_id } : undefined;
}
