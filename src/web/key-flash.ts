/**
 * A new API key survives the redirect after "Create API key" (POST-redirect-GET, so that a reload
 * never creates a second key) in a short-lived cookie, sealed with AES-256-GCM under a key derived
 * from the auth secret and bound to the session: nobody can read or forge it, another session
 * cannot open it, and the dashboard clears it as it shows the key, so the key is shown once.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

export interface NewKeyFlash {
  key: string;
  name: string;
}

const COOKIE = 'signals_new_key';
/** Long enough for a slow redirect, short enough that a forgotten cookie is soon gone. */
const MAX_AGE_SECONDS = 300;

function sealingKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('new-key-flash').digest();
}

export function seal(secret: string, sessionId: string, flash: NewKeyFlash, now = Date.now()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(secret), iv);
  cipher.setAAD(Buffer.from(sessionId));
  const body = Buffer.concat([cipher.update(JSON.stringify({ ...flash, exp: now + MAX_AGE_SECONDS * 1000 }), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function open(secret: string, sessionId: string, sealed: string, now = Date.now()): NewKeyFlash | undefined {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length < 29) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(secret), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(sessionId));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    const value = JSON.parse(text) as { key?: unknown; name?: unknown; exp?: unknown };
    if (typeof value.key !== 'string' || typeof value.name !== 'string' || typeof value.exp !== 'number' || value.exp < now) return undefined;
    return { key: value.key, name: value.name };
  } catch {
    return undefined;
  }
}

export function setNewKeyFlash(c: Context, publicUrl: string, secret: string, sessionId: string, flash: NewKeyFlash): void {
  setCookie(c, COOKIE, seal(secret, sessionId, flash), {
    httpOnly: true,
    sameSite: 'Strict',
    secure: publicUrl.startsWith('https://'),
    path: '/dashboard',
    maxAge: MAX_AGE_SECONDS,
  });
}

/** The new key for this session, if one waits; the cookie is cleared either way. */
export function takeNewKeyFlash(c: Context, publicUrl: string, secret: string, sessionId: string): NewKeyFlash | undefined {
  const sealed = getCookie(c, COOKIE);
  if (sealed === undefined) return undefined;
  deleteCookie(c, COOKIE, { path: '/dashboard', secure: publicUrl.startsWith('https://') });
  return open(secret, sessionId, sealed);
}
