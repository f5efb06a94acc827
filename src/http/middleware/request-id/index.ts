import { randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../env.ts';

/** A caller's own id is kept when it is short and plain, so its logs and ours can be matched. */
const ACCEPTED = /^[A-Za-z0-9._:-]{8,64}$/;

export function requestId(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const given = c.req.header('request-id');
    const id = given && ACCEPTED.test(given) ? given : `req_${randomBytes(12).toString('hex')}`;
    c.set('requestId', id);
    c.header('Request-Id', id);
    await next();
    // onError builds a fresh response, so set the header again on whatever goes out.
    c.res.headers.set('Request-Id', id);
  };
}
