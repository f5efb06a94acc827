/**
 * POST /api/mcp (spec §4.5, DESIGN §6). The order of the checks matters:
 *
 * 1. Host and Origin are checked before anything else, body included: a DNS-rebinding page in a
 *    browser must learn nothing, not even whether its credentials would work.
 * 2. Only POST is served. The service is stateless, so the 2025 revision's GET (server-initiated
 *    stream) and DELETE (session end) have nothing to act on: 405.
 * 3. Credentials: unlike the HTTP API's 403, a missing or bad credential is a 401 carrying the
 *    RFC 9728 `resource_metadata` pointer, because that 401 is what makes an MCP client start
 *    OAuth discovery. API keys and OAuth access tokens are both accepted (DESIGN §7).
 * 4. The body is parsed once here and handed to the SDK (`parsedBody`), so it is not read twice.
 *
 * The SDK's createMcpHandler serves the 2026-07-28 revision (per-request `_meta`, server/discover,
 * MCP-Protocol-Version / Mcp-Method / Mcp-Name headers). Its `auto` response mode answers with a
 * plain JSON body unless a handler emits a message before its result, which our tools never do
 * (`json` would say the same, but makes the SDK print a warning each time the app is built). Requests without the modern envelope (the
 * 2025-11-25 revision: initialize handshake, no session id) are routed with the SDK's own
 * `isLegacyRequest` to a stateless transport of ours with `enableJsonResponse`, because the SDK's
 * built-in legacy fallback always answers with an SSE stream, and DESIGN §6 wants plain JSON there too.
 */
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import { Hono } from 'hono';
import { authenticateKey, KEY_PREFIX } from '../../auth/api-keys.ts';
import { OAUTH, oauthUrls } from '../../auth/oauth-config.ts';
import { accessTokenVerifier } from '../../auth/oauth-tokens.ts';
import type { Caller } from '../../capabilities/types.ts';
import { LIMITS } from '../../domain/limits.ts';
import { createMcpServer } from '../../mcp/server.ts';
import type { AppDeps, AppEnv } from '../env.ts';
import { bearerToken } from '../middleware/api-key-auth/index.ts';

export const MCP_SCOPE = OAUTH.readScope;

type Credential =
  | { ok: true; caller: Caller; authInfo: Omit<AuthInfo, 'extra'> }
  | { ok: false; error: 'invalid_token' | 'insufficient_scope' | undefined; description: string };

export function mcpRoute(deps: AppDeps & { config: NonNullable<AppDeps['config']> }) {
  const { publicUrl, host } = deps.config;
  const publicHost = new URL(publicUrl).hostname;
  const loopback = isLoopback(host) ? localhostAllowedHostnames() : [];
  const allowedHosts = [...new Set([bracketed(publicHost), ...loopback])];
  const allowedOrigins = [...new Set([bracketed(publicHost), ...(isLoopback(host) ? localhostAllowedOrigins() : [])])];
  // `offline_access` is in the challenge because clients request exactly the scopes named here
  // (MCP authorization spec, "Scope Selection Strategy"): without it they get no refresh token.
  const challenge = `Bearer resource_metadata="${oauthUrls(publicUrl).resourceMetadata}", scope="${OAUTH.scopes.join(' ')}"`;
  const verifyAccessToken = deps.auth ? accessTokenVerifier(deps.auth, deps.store.db, publicUrl) : undefined;

  /**
   * An API key (`sgk_…`, DESIGN §4) or, when the OAuth server is mounted, an OAuth access token.
   * A missing or unknown credential is a 401 that starts OAuth discovery; a token without the
   * read scope is a 403 `insufficient_scope` (RFC 6750 §3.1) so the client can ask for more.
   */
  async function authenticate(header: string | undefined): Promise<Credential> {
    const token = bearerToken(header);
    if (token === undefined) return { ok: false, error: undefined, description: 'Send an API key or OAuth access token as a Bearer token.' };
    if (token.startsWith(KEY_PREFIX) || !verifyAccessToken) {
      const caller = await authenticateKey(deps.store.db, token);
      if (!caller) return { ok: false, error: 'invalid_token', description: 'The token is not recognized or has been revoked.' };
      return { ok: true, caller, authInfo: { token: caller.keyId ?? 'key', clientId: 'api-key', scopes: [MCP_SCOPE] } };
    }
    const checked = await verifyAccessToken(token);
    if (!checked.ok) return checked;
    return { ok: true, caller: checked.caller, authInfo: { token: 'oauth', clientId: checked.clientId, scopes: checked.scopes, expiresAt: checked.expiresAt } };
  }

  const serverFor = (authInfo: AuthInfo | undefined) =>
    createMcpServer(deps, authInfo!.extra!.caller as Caller, String(authInfo!.extra!.requestId));
  const handler = createMcpHandler(
    (ctx) => serverFor(ctx.authInfo),
    {
      legacy: 'reject',
      responseMode: 'auto',
      maxRequestBodySize: LIMITS.bodyBytes,
      onerror: (err) => deps.logger.debug({ err: err.message }, 'mcp request rejected'),
    },
  );

  return new Hono<AppEnv>().all('/', async (c) => {
    const rejected = hostHeaderValidationResponse(c.req.raw, allowedHosts) ?? originValidationResponse(c.req.raw, allowedOrigins);
    if (rejected) return rejected;
    if (c.req.method !== 'POST') {
      return c.json(rpcError(-32000, 'Method not allowed: this endpoint is stateless, POST JSON-RPC messages.'), 405, { Allow: 'POST' });
    }
    const credential = await authenticate(c.req.header('authorization'));
    if (!credential.ok) {
      const error = credential.error ? `, error="${credential.error}", error_description="${credential.description}"` : '';
      const status = credential.error === 'insufficient_scope' ? 403 : 401;
      return c.json({ error: credential.error ?? 'invalid_token', error_description: credential.description }, status, { 'WWW-Authenticate': `${challenge}${error}` });
    }
    const { caller, authInfo } = credential;
    if (caller.keyId) deps.lastUsed.touch(caller.keyId);
    c.set('capability', 'mcp');

    const parsedBody = await readJson(c.req.raw);
    if (parsedBody === PARSE_FAILED) return c.json(rpcError(-32700, 'Parse error: the body is not JSON of at most 1 MiB.'), 400);
    const options = {
      parsedBody,
      authInfo: { ...authInfo, extra: { caller, requestId: c.get('requestId') } },
    };
    if (await isLegacyRequest(c.req.raw, parsedBody, { maxRequestBodySize: LIMITS.bodyBytes })) {
      return serveLegacy(c.req.raw, options, serverFor, (err) => deps.logger.error({ requestId: c.get('requestId'), err }, 'mcp legacy request failed'));
    }
    return handler.fetch(c.req.raw, options);
  });
}

/**
 * One 2025-11-25 exchange, stateless (no session id) and answered as plain JSON: a fresh server
 * and transport per request, both closed once the response is built (JSON mode buffers it whole).
 */
async function serveLegacy(
  request: Request,
  options: { parsedBody: unknown; authInfo: AuthInfo },
  serverFor: (authInfo: AuthInfo) => ReturnType<typeof createMcpServer>,
  onerror: (err: unknown) => void,
): Promise<Response> {
  const server = serverFor(options.authInfo);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request, options);
  } catch (err) {
    onerror(err);
    const id = (options.parsedBody as { id?: unknown } | null)?.id;
    return Response.json(
      { jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error: { code: -32603, message: 'Internal server error' } },
      { status: 500 },
    );
  } finally {
    void transport.close().catch(() => {});
    void server.close().catch(() => {});
  }
}

/** RFC 9728 protected-resource metadata for the MCP endpoint. */
export function protectedResourceMetadata(publicUrl: string) {
  return {
    resource: oauthUrls(publicUrl).resource,
    authorization_servers: [oauthUrls(publicUrl).issuer],
    scopes_supported: [...OAUTH.scopes],
    bearer_methods_supported: ['header'],
    resource_name: 'Project Signals',
  };
}

const PARSE_FAILED = Symbol('parse failed');

async function readJson(request: Request): Promise<unknown> {
  const length = Number(request.headers.get('content-length') ?? NaN);
  if (length > LIMITS.bodyBytes) return PARSE_FAILED;
  try {
    const text = await request.text();
    if (text.length > LIMITS.bodyBytes) return PARSE_FAILED;
    return JSON.parse(text);
  } catch {
    return PARSE_FAILED;
  }
}

function rpcError(code: number, message: string) {
  return { jsonrpc: '2.0', id: null, error: { code, message } };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

function bracketed(hostname: string): string {
  return hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
}
