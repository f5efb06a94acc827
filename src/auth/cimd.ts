/**
 * OAuth clients identified by a Client ID Metadata Document (CIMD; DESIGN §11, MCP 2025-11-25
 * "Client ID Metadata Documents", draft-ietf-oauth-client-id-metadata-document): the client's
 * `client_id` is an https URL, and the document at that URL says who the client is and where it
 * may be sent back to. Accepted beside dynamic registration.
 *
 * Why a layer of our own: better-auth's `@better-auth/cimd` plugin exists only as a 1.7.0
 * release candidate whose exact peer `better-call` pin conflicts with the pinned better-auth
 * 1.7.5 (decision 0017). The OAuth provider itself has the seams such a plugin uses — a
 * `ClientDiscovery` that resolves a client id it does not know, and `registerClientMetadataDocument`,
 * which stores a validated document as a public client (never with a secret) and replaces it when
 * the document changes — so this file only fetches, caches and validates the document.
 *
 * How it is safe:
 * - The document is fetched with the SSRF rules of DESIGN §8 (`fetchPublic`: public addresses only,
 *   checked at connect time), https only, no redirect followed, at most 5 KB, within 5 s.
 * - It must name itself (`client_id` equal to the URL it was fetched from), list its redirect URIs,
 *   and ask for no shared secret. The provider then checks every authorization request's
 *   `redirect_uri` against that list exactly, as for a registered client: a document cannot be
 *   used to send codes to an address it does not list.
 * - The document is read again when its HTTP cache lifetime is over (Cache-Control `max-age`,
 *   `no-cache`/`no-store`, `Expires`; at least 1 minute when it says nothing, at most a day), so a
 *   client that removes a redirect URI is refused there within that lifetime. A document that can
 *   no longer be fetched or validated fails the request (closed), it does not fall back to the
 *   stored copy.
 */
import { oauthClientMetadataSchema, type ClientDiscovery, type OAuthClientMetadata, type OAuthOptions, type Scope, type SchemaClient } from '@better-auth/oauth-provider';
import { isForbiddenCimdClientMetadataField, registerClientMetadataDocument } from '@better-auth/oauth-provider/internal';
import type { GenericEndpointContext } from '@better-auth/core';
import { APIError } from 'better-auth/api';
import { FetchError, fetchPublic, type FetchedResponse } from '../net/fetch.ts';

export const CIMD_DISCOVERY_ID = 'cimd';

/** Fetches a metadata document; tests give one that reaches their local servers. */
export type MetadataFetch = (url: string) => Promise<FetchedResponse>;

export const CIMD_LIMITS = { maxBytes: 5_120, timeoutMs: 5_000, minCacheSeconds: 60, maxCacheSeconds: 86_400 } as const;

export function defaultMetadataFetch(allowHosts?: ReadonlySet<string>): MetadataFetch {
  return (url) => fetchPublic(url, { maxRedirects: 0, maxBytes: CIMD_LIMITS.maxBytes, timeoutMs: CIMD_LIMITS.timeoutMs, accept: 'application/json', ...(allowHosts ? { allowHosts } : {}) });
}

/** An https URL with a path, no user information and no fragment: the only client ids fetched. */
export function isMetadataDocumentUrl(clientId: string): boolean {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && url.pathname !== '/' && url.username === '' && url.password === '' && url.hash === '' && url.href === clientId;
}

/** The `ClientDiscovery` to give the OAuth provider (`extensions: [{ clientDiscovery }]`). */
export function cimdClientDiscovery(options: { fetch: MetadataFetch; now?: () => number }): ClientDiscovery {
  const now = options.now ?? Date.now;
  /** client id → until when the stored copy may be used without fetching again. */
  const freshUntil = new Map<string, number>();
  return {
    id: CIMD_DISCOVERY_ID,
    // Any https URL client id is ours: one that names a missing or invalid document must fail,
    // not fall through to "unknown client" with a vaguer message.
    matches: (clientId) => clientId.startsWith('https://'),
    discoveryMetadata: { client_id_metadata_document_supported: true },
    async resolve(ctx: GenericEndpointContext, clientId: string, existing: SchemaClient<Scope[]> | null) {
      if (!isMetadataDocumentUrl(clientId)) throw invalidClient('a client_id URL must be https, with a path and without a fragment or user information');
      if (existing && (freshUntil.get(clientId) ?? 0) > now()) return existing;
      const { metadata, cacheSeconds } = await fetchDocument(options.fetch, clientId);
      // The provider's own options, defaults applied: the stored client takes its scopes and
      // resources from them, as a dynamically registered one does.
      const provider = ctx.context.getPlugin('oauth-provider') as { options: OAuthOptions<Scope[]> } | null;
      if (!provider) throw new Error('the OAuth provider plugin is not installed');
      const result = await registerClientMetadataDocument(ctx, provider.options, {
        clientId,
        clientDiscoveryId: CIMD_DISCOVERY_ID,
        metadata: { ...metadata, redirect_uris: metadata.redirect_uris ?? [] },
        ...(existing ? { existingClient: existing } : {}),
      });
      freshUntil.set(clientId, now() + cacheSeconds * 1000);
      return result.client;
    },
  };
}

async function fetchDocument(fetch: MetadataFetch, clientId: string): Promise<{ metadata: OAuthClientMetadata; cacheSeconds: number }> {
  let answer: FetchedResponse;
  try {
    answer = await fetch(clientId);
  } catch (err) {
    const why = err instanceof FetchError ? err.message : 'it could not be reached';
    throw invalidClient(`the client metadata document could not be fetched: ${why}`);
  }
  if (answer.status !== 200) throw invalidClient(`the client metadata document answered HTTP ${answer.status}`);
  let metadata: unknown;
  try {
    metadata = JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw invalidClient('the client metadata document is not JSON');
  }
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) throw invalidClient('the client metadata document is not a JSON object');
  const doc = metadata as Record<string, unknown>;
  if (doc.client_id !== clientId) throw invalidClient('the client metadata document names another client_id than its URL');
  const redirects = doc.redirect_uris;
  if (!Array.isArray(redirects) || redirects.length === 0 || !redirects.every((u) => typeof u === 'string' && u.length > 0)) {
    throw invalidClient('the client metadata document lists no redirect_uris');
  }
  const forbidden = Object.keys(doc).filter(isForbiddenCimdClientMetadataField);
  if (forbidden.length > 0) throw invalidClient(`the client metadata document may not hold ${forbidden.join(', ')}`);
  // Public clients only: a shared secret cannot exist without registration, and private_key_jwt
  // (a key set the client publishes) is more than MCP clients need today.
  if ((doc.token_endpoint_auth_method ?? 'none') !== 'none') throw invalidClient('the client metadata document must use token_endpoint_auth_method "none"');
  // The provider's own schema of client metadata (RFC 7591 fields and their types).
  const parsed = oauthClientMetadataSchema.safeParse(doc);
  if (!parsed.success) throw invalidClient(`the client metadata document is not valid client metadata: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'document'}: ${i.message}`).join('; ')}`);
  return { metadata: parsed.data, cacheSeconds: cacheLifetime(answer.headers) };
}

/** Seconds the document may be used again, from its HTTP caching headers (RFC 9111 §4.2.1). */
export function cacheLifetime(headers: FetchedResponse['headers']): number {
  const control = String(headers['cache-control'] ?? '').toLowerCase();
  if (/(?:^|,)\s*(?:no-store|no-cache)\b/.test(control)) return 0;
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)/.exec(control)?.[1];
  if (maxAge !== undefined) return Math.min(Number(maxAge), CIMD_LIMITS.maxCacheSeconds);
  const expires = headers.expires ? Date.parse(String(headers.expires)) : Number.NaN;
  const date = headers.date ? Date.parse(String(headers.date)) : Number.NaN;
  if (!Number.isNaN(expires)) return clamp(Math.floor((expires - (Number.isNaN(date) ? Date.now() : date)) / 1000));
  return CIMD_LIMITS.minCacheSeconds;
}

function clamp(seconds: number): number {
  return Math.max(0, Math.min(seconds, CIMD_LIMITS.maxCacheSeconds));
}

function invalidClient(description: string): APIError {
  return new APIError('BAD_REQUEST', { error: 'invalid_client', error_description: description });
}
