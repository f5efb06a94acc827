/**
 * The Hono application. Middleware order matters: the request id comes first so every later
 * step (auth failures included) can be traced; errors of every route render in `onError`.
 */
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { sql } from 'kysely';
import { notFound } from '../domain/errors.ts';
import type { AppDeps, AppEnv } from './env.ts';
import { renderError } from './errors.ts';
import { apiKeyAuth } from './middleware/api-key-auth/index.ts';
import { requestId } from './middleware/request-id/index.ts';
import { capabilitiesRoute } from './routes/capabilities.ts';
import { invokeRoute } from './routes/invoke.ts';
import { mcpRoute, protectedResourceMetadata } from './routes/mcp.ts';
import { webRoutes } from '../web/routes.tsx';
import { oauthProviderAuthServerMetadata } from '@better-auth/oauth-provider';
import { adjustOAuthRequest } from '../auth/oauth-requests.ts';

export function createApp(given: AppDeps): Hono<AppEnv> {
  const deps = { ...given, config: given.config ?? { publicUrl: 'http://localhost:8080', host: '127.0.0.1' } };
  const app = new Hono<AppEnv>();
  app.use(requestId());
  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    deps.logger.info(
      {
        requestId: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 100) / 100,
        capability: c.get('capability'),
      },
      'request',
    );
  });
  // Hono hands only Error instances to onError; anything else thrown (a string, a plain object
  // from a driver) would escape as a bare 500 without envelope or Request-Id. Wrap it.
  app.use(async (_c, next) => {
    try {
      await next();
    } catch (err) {
      throw err instanceof Error ? err : new Error('non-Error value thrown', { cause: err });
    }
  });

  app.get('/healthz', async (c) => {
    await sql`select 1`.execute(deps.store.db);
    return c.json({ ok: true });
  });

  // Browser-based MCP clients (the MCP Inspector, web IDEs) run discovery, registration and the
  // token exchange from their own origin. These answers never depend on cookies, so any origin
  // may read them, without credentials; pages, better-auth's session endpoints and /api/mcp
  // (which checks Origin against DNS rebinding) stay same-origin.
  const publicCors = cors({ origin: '*', allowMethods: ['GET', 'POST', 'OPTIONS'], allowHeaders: ['content-type', 'authorization', 'mcp-protocol-version'], maxAge: 600 });
  for (const path of ['/.well-known/*', '/api/auth/oauth2/register', '/api/auth/oauth2/token', '/api/auth/oauth2/revoke', '/api/auth/jwks']) app.use(path, publicCors);

  const resourceMetadata = protectedResourceMetadata(deps.config.publicUrl);
  // RFC 9728 §3: the path-suffixed form for /api/mcp, and the root form for clients that try it.
  app.get('/.well-known/oauth-protected-resource/api/mcp', (c) => c.json(resourceMetadata));
  app.get('/.well-known/oauth-protected-resource', (c) => c.json(resourceMetadata));
  app.route('/api/mcp', mcpRoute(deps));

  app.use('/api/v1/*', apiKeyAuth(deps.store, deps.lastUsed));
  app.route('/api/v1/invoke', invokeRoute(deps));
  app.route('/api/v1/capabilities', capabilitiesRoute());

  if (deps.auth) {
    const auth = deps.auth;
    // RFC 8414 §3: the issuer has a path (/api/auth), so its metadata also lives at the root
    // with the path appended; the bare root form is for clients of the 2025-03-26 MCP revision.
    const serverMetadata = oauthProviderAuthServerMetadata(auth);
    app.get('/.well-known/oauth-authorization-server/api/auth', (c) => serverMetadata(c.req.raw));
    app.get('/.well-known/oauth-authorization-server', (c) => serverMetadata(c.req.raw));
    // better-auth's own endpoints: session and sign-in API, and the OAuth server.
    app.on(['GET', 'POST'], '/api/auth/*', async (c) => {
      const adjusted = await adjustOAuthRequest(c.req.raw, deps.config.publicUrl);
      return adjusted instanceof Response ? adjusted : auth.handler(adjusted);
    });
    app.route('/', webRoutes({ store: deps.store, logger: deps.logger, auth, publicUrl: deps.config.publicUrl, ...(deps.launcher ? { launcher: deps.launcher } : {}), ...(deps.config.digestHourUtc !== undefined ? { digestHourUtc: deps.config.digestHourUtc } : {}) }));
  }

  app.notFound((c) => {
    if (c.req.path.startsWith('/api/')) return renderError(c, notFound(`No route ${c.req.method} ${c.req.path}.`), deps.logger);
    return c.text('Not found', 404);
  });
  app.onError((err, c) => renderError(c, err, deps.logger));
  return app;
}
