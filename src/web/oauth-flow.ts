/**
 * The OAuth authorization request as it travels through our pages (DESIGN §7).
 *
 * better-auth's authorize endpoint sends the browser to /login or /consent with the whole
 * authorization request in the query, signed (`sig`) and time-limited (`exp`). The pages pass
 * that query back verbatim as `oauth_query` when the user signs in or decides; better-auth checks
 * the signature then, so nothing here is trusted for more than display. What is displayed is
 * still checked (the client exists, the redirect URI is one it registered) so a crafted link
 * cannot put a misleading name or host on the page.
 */
import type { Context } from 'hono';
import type { WebEnv } from './security.ts';
import { findOAuthClient, redirectHostOf, type OAuthClientInfo } from '../auth/oauth-grants.ts';
import type { Db } from '../store/db.ts';

/** Longer than any real signed query (a few hundred bytes), short enough to bound the work. */
const MAX_OAUTH_QUERY = 4096;

export interface OAuthRequestView {
  /** The signed query, exactly as received, to hand back to better-auth. */
  query: string;
  client: OAuthClientInfo;
  redirectUri: string;
  redirectHost: string;
  scopes: string[];
}

/** The signed OAuth query a page was opened with, if any. */
export function oauthQueryOf(c: Context): string | undefined {
  const search = new URL(c.req.url).search.slice(1);
  if (search.length === 0 || search.length > MAX_OAUTH_QUERY) return undefined;
  const params = new URLSearchParams(search);
  return params.has('sig') && params.has('client_id') ? search : undefined;
}

/** The form field carrying the query back, bounded and shaped like one. */
export function oauthQueryField(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_OAUTH_QUERY) return undefined;
  const params = new URLSearchParams(value);
  return params.has('sig') && params.has('client_id') ? value : undefined;
}

/** What the login and consent pages show of a pending authorization, or undefined if it does not hold up. */
export async function viewOAuthRequest(db: Db, query: string, now = Date.now()): Promise<OAuthRequestView | undefined> {
  const params = new URLSearchParams(query);
  const clientId = params.get('client_id') ?? '';
  const redirectUri = params.get('redirect_uri') ?? '';
  const exp = Number(params.get('exp') ?? NaN);
  if (!(exp * 1000 > now)) return undefined;
  const client = clientId ? await findOAuthClient(db, clientId) : undefined;
  if (!client || !client.redirectUris.includes(redirectUri)) return undefined;
  const scopes = (params.get('scope') ?? '').split(' ').filter(Boolean);
  return { query, client, redirectUri, redirectHost: redirectHostOf(redirectUri), scopes };
}

/**
 * Where better-auth wants the browser next, from one of its responses: a redirect (browser-style
 * request) or `{ redirect: true, url }` (JSON-style). Relative URLs are ours (/consent).
 */
export async function nextLocation(res: Response, publicUrl: string): Promise<string | undefined> {
  const location = res.headers.get('location');
  if (location) return new URL(location, publicUrl).toString();
  const body = (await res.json().catch(() => undefined)) as { url?: unknown } | undefined;
  return typeof body?.url === 'string' ? new URL(body.url, publicUrl).toString() : undefined;
}

/**
 * The CSP `form-action` source that lets a form on an OAuth page end in a redirect to the client:
 * browsers apply form-action to the redirects that follow a form post, not only to its action.
 * An http(s) redirect URI allows its origin; an app link (`cursor://…`) its scheme.
 */
export function formTargetOf(redirectUri: string): string | undefined {
  try {
    const url = new URL(redirectUri);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
    return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) ? url.protocol : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The pending authorization a sign-in, sign-up or consent page belongs to (undefined when there
 * is none or it does not hold up), and the CSP widening its final redirect to the client needs.
 */
export async function pendingAuthorization(c: Context<WebEnv>, db: Db, query: string | undefined): Promise<OAuthRequestView | undefined> {
  const view = query === undefined ? undefined : await viewOAuthRequest(db, query);
  const target = view ? formTargetOf(view.redirectUri) : undefined;
  if (target) c.set('formTargets', [target]);
  return view;
}
