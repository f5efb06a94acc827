/**
 * What every page and every form post of ours goes through (DESIGN §7): strict response
 * headers, a same-origin check on posts, and CSRF tokens.
 *
 * - With a session, the token is an HMAC of the session id under the auth secret: nothing to
 *   store, and it changes with every sign-in.
 * - Before a session exists (/login, /signup), a double-submit cookie: a random value in an
 *   HttpOnly cookie and the same value in a hidden field; a cross-site page can read neither.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

/** The pages' context: a handler may widen `form-action` for one response (see cspFor). */
export interface WebEnv {
  Variables: { formTargets?: string[] };
}

/**
 * The pages' Content-Security-Policy. `form-action` is 'self' plus, on the OAuth sign-in and
 * consent pages only, the one client the flow ends at (browsers apply form-action to the
 * redirects that follow a post, so the final hop to the client's redirect URI needs it).
 */
export function cspFor(formTargets: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self'",
    // Only the copy button's script, from /assets; every page works without it.
    "script-src 'self'",
    `form-action ${["'self'", ...formTargets].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export const CSP = cspFor();

/** Headers for every page we render (and its redirects). */
export function pageHeaders(): MiddlewareHandler<WebEnv> {
  return async (c, next) => {
    await next();
    c.res.headers.set('X-Frame-Options', 'DENY');
    c.res.headers.set('Content-Security-Policy', cspFor(c.get('formTargets')));
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    // Not `no-referrer`: under that policy browsers send `Origin: null` on our own form posts
    // (Fetch spec, "serializing a request origin"), which would defeat the same-origin check.
    // `same-origin` still sends nothing to other sites.
    c.res.headers.set('Referrer-Policy', 'same-origin');
    // Pages show account data and, once, a new key: never keep them in a cache.
    c.res.headers.set('Cache-Control', 'no-store');
  };
}

/**
 * A post must come from our own origin: Origin when the browser sends it (all current ones do on
 * POST), else Referer. A request with neither is left to the CSRF token alone.
 */
export function sameOrigin(c: Context, publicUrl: string): boolean {
  const allowed = new URL(publicUrl).origin;
  const origin = c.req.header('origin');
  if (origin !== undefined) return origin === allowed;
  const referer = c.req.header('referer');
  if (referer !== undefined) {
    try {
      return new URL(referer).origin === allowed;
    } catch {
      return false;
    }
  }
  return true;
}

export function sessionCsrfToken(secret: string, sessionId: string): string {
  return createHmac('sha256', secret).update(`csrf:${sessionId}`).digest('base64url');
}

export function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** The pre-session cookie's name: `__Host-` (no Domain, Path=/, Secure) when served over https. */
export function preSessionCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https://') ? '__Host-signals_csrf' : 'signals_csrf';
}

/** The pre-session token, set as a cookie when the browser has none yet. */
export function preSessionToken(c: Context, publicUrl: string): string {
  const name = preSessionCookieName(publicUrl);
  const known = getCookie(c, name);
  if (known && /^[A-Za-z0-9_-]{32,64}$/.test(known)) return known;
  const token = randomBytes(24).toString('base64url');
  setCookie(c, name, token, { httpOnly: true, sameSite: 'Lax', secure: publicUrl.startsWith('https://'), path: '/' });
  return token;
}

export function checkPreSessionToken(c: Context, publicUrl: string, given: unknown): boolean {
  const cookie = getCookie(c, preSessionCookieName(publicUrl));
  return cookie !== undefined && cookie.length >= 32 && sameToken(given, cookie);
}

/** Only a local path may follow sign-in: no scheme, no `//host`, no backslash tricks. */
export function safeNext(next: string | undefined, fallback = '/dashboard'): string {
  if (next === undefined || next.length > 2048) return fallback;
  return /^\/(?![/\\])[^\s\\]*$/.test(next) ? next : fallback;
}
