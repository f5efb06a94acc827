/**
 * POST /api/mcp (spec §4.5, DESIGN §6). The order of the checks matters:
 *
 * 1. Host and Origin are checked before anything else, body included: a DNS-rebinding page in a
 *    browser must learn nothing, not even whether its credentials would work.
 * 2. Only POST is served. The service is stateless, so the 2025 revision's GET (server-initiated
 *    stream) and DELETE (session end) have nothing to act on: 405.
 * 3. Credentials: unlike the HTTP API's 403, a missing or bad credential is a 401 carrying the
 *    RFC 9728 `resource_metadata` pointer, because that 401 is what makes an MCP client start
 *    OAuth discovery. (The OAuth server itself is issue #4; API keys work today.)
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
import { authenticateKey } from '../../auth/api-keys.ts';
import type { Caller } from '../../capabilities/types.ts';
import { LIMITS } from '../../domain/limits.ts';
import { createMcpServer } from '../../mcp/server.ts';
import type { AppDeps, AppEnv } from '../env.ts';
import { bearerToken } from '../middleware/api-key-auth/index.ts';

export const MCP_SCOPE = 'signals:read';

export function mcpRoute(deps: AppDeps & { config: NonNullable<AppDeps['config']> }) {
  const { publicUrl, host } = deps.config;
  const publicHost = new URL(publicUrl).hostname;
  const loopback = isLoopback(host) ? localhostAllowedHostnames() : [];
  const allowedHosts = [...new Set([bracketed(publicHost), ...loopback])];
  const allowedOrigins = [...new Set([bracketed(publicHost), ...(isLoopback(host) ? localhostAllowedOrigins() : [])])];
  const resourceMetadata = `${publicUrl}/.well-known/oauth-protected-resource/api/mcp`;
  const challenge = `Bearer resource_metadata="${resourceMetadata}", scope="${MCP_SCOPE}"`;

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
    const token = bearerToken(c.req.header('authorization'));
    const caller = token === undefined ? undefined : await authenticateKey(deps.store.db, token);
    if (!caller) {
      const description = token === undefined ? 'Send an API key or OAuth access token as a Bearer token.' : 'The token is not recognized or has been revoked.';
      return c.json({ error: 'invalid_token', error_description: description }, 401, {
        'WWW-Authenticate': token === undefined ? challenge : `${challenge}, error="invalid_token"`,
      });
    }
    if (caller.keyId) deps.lastUsed.touch(caller.keyId);
    c.set('capability', 'mcp');

    const parsedBody = await readJson(c.req.raw);
    if (parsedBody === PARSE_FAILED) return c.json(rpcError(-32700, 'Parse error: the body is not JSON of at most 1 MiB.'), 400);
    const options = {
      parsedBody,
      authInfo: { token: caller.keyId ?? 'key', clientId: 'api-key', scopes: [MCP_SCOPE], extra: { caller, requestId: c.get('requestId') } },
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
    resource: `${publicUrl}/api/mcp`,
    authorization_servers: [`${publicUrl}/api/auth`],
    scopes_supported: [MCP_SCOPE, 'offline_access'],
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
