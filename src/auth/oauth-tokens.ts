/**
 * Checks an OAuth access token presented to the MCP endpoint (DESIGN §7, RFC 9068 profile as
 * better-auth issues it): signature with the JWT plugin's public keys, issuer, audience (this
 * service's `/api/mcp`, so a token minted for another resource is refused: RFC 8707), expiry,
 * then the scope, then the grant behind it (`liveGrant`).
 *
 * Verification is local: the public keys are read from better-auth in-process and kept until a
 * token names a key id we do not have (key rotation), re-read at most every 30 seconds so a
 * stream of forged key ids cannot turn into a stream of database reads.
 */
import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { Caller } from '../capabilities/types.ts';
import type { Db } from '../store/db.ts';
import type { Auth } from './better-auth.ts';
import { OAUTH, oauthUrls } from './oauth-config.ts';
import { liveGrant } from './oauth-grants.ts';

export type TokenCheck =
  | { ok: true; caller: Caller; clientId: string; scopes: string[]; expiresAt: number }
  | { ok: false; error: 'invalid_token' | 'insufficient_scope'; description: string };

const KEY_REFRESH_MS = 30_000;

export function accessTokenVerifier(auth: Auth, db: Db, publicUrl: string): (token: string) => Promise<TokenCheck> {
  const { issuer, resource } = oauthUrls(publicUrl);
  let keys: ReturnType<typeof createLocalJWKSet> | undefined;
  let loadedAt = 0;

  async function loadKeys() {
    const jwks = (await auth.api.getJwks()) as JSONWebKeySet;
    keys = createLocalJWKSet(jwks);
    loadedAt = Date.now();
    return keys;
  }

  async function verify(token: string): Promise<JWTPayload> {
    const options = { issuer, audience: resource, typ: 'at+jwt', algorithms: ['EdDSA'], clockTolerance: 5 };
    try {
      return (await jwtVerify(token, keys ?? (await loadKeys()), options)).payload;
    } catch (err) {
      const unknownKey = err instanceof errors.JWKSNoMatchingKey;
      if (!unknownKey || Date.now() - loadedAt < KEY_REFRESH_MS) throw err;
      return (await jwtVerify(token, await loadKeys(), options)).payload;
    }
  }

  return async (token) => {
    let payload: JWTPayload;
    try {
      payload = await verify(token);
    } catch {
      return { ok: false, error: 'invalid_token', description: 'The access token is invalid, expired or not meant for this endpoint.' };
    }
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
    const clientId = typeof payload.azp === 'string' ? payload.azp : undefined;
    if (typeof payload.sub !== 'string' || clientId === undefined) {
      return { ok: false, error: 'invalid_token', description: 'The access token names no user or client.' };
    }
    if (!scopes.includes(OAUTH.readScope)) {
      return { ok: false, error: 'insufficient_scope', description: `The access token lacks the ${OAUTH.readScope} scope.` };
    }
    const grant = await liveGrant(db, {
      userId: payload.sub,
      clientId,
      offline: scopes.includes('offline_access'),
    });
    if (!grant) return { ok: false, error: 'invalid_token', description: 'Access for this application has been revoked.' };
    return { ok: true, caller: { userId: payload.sub, tiedProjectId: grant.projectId, keyId: null }, clientId, scopes, expiresAt: payload.exp ?? 0 };
  };
}
