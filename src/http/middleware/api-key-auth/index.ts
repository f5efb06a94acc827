import type { MiddlewareHandler } from 'hono';
import { authenticateKey, type LastUsedRecorder } from '../../../auth/api-keys.ts';
import { forbidden } from '../../../domain/errors.ts';
import type { Store } from '../../../store/db.ts';
import { LIMITS } from '../../../domain/limits.ts';
import type { AppEnv } from '../../env.ts';

/** Bearer API key → `c.var.caller`; anything else is 403 `forbidden` (spec §5). */
export function apiKeyAuth(store: Store, lastUsed: LastUsedRecorder): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    if (token === undefined) throw forbidden('Send your API key as "Authorization: Bearer <key>".');
    const caller = await authenticateKey(store.db, token);
    if (!caller) throw forbidden('This API key is not recognized or has been revoked.');
    c.set('caller', caller);
    if (caller.keyId) lastUsed.touch(caller.keyId);
    await next();
  };
}

const BEARER = new RegExp(`^Bearer[ ]+([^\\s]{1,${LIMITS.bearerToken}})\\s*$`, 'i');

export function bearerToken(header: string | undefined): string | undefined {
  const match = header && BEARER.exec(header);
  return match ? match[1] : undefined;
}
