/**
 * Requests to better-auth's OAuth endpoints, adjusted before it sees them. Each adjustment works
 * around a behaviour of @better-auth/oauth-provider 1.7.5 that MCP clients trip over; the reason
 * is next to each.
 */
import { oauthUrls } from './oauth-config.ts';

/** The largest registration or token request we pass on (both are a few hundred bytes in practice). */
export const AUTH_BODY_BYTES = 32 * 1024;

export type Adjusted = Request | Response;

export async function adjustOAuthRequest(request: Request, publicUrl: string): Promise<Adjusted> {
  const path = new URL(request.url).pathname;
  if (request.method === 'GET' && path === '/api/auth/oauth2/authorize') return withDefaultResourceQuery(request, publicUrl);
  if (request.method === 'POST' && path === '/api/auth/oauth2/token') return withDefaultResourceForm(request, publicUrl);
  if (request.method === 'POST' && path === '/api/auth/oauth2/register') return registration(request);
  return request;
}

/*
 * RFC 8707 `resource`. better-auth issues a JWT bound to an audience only when the client names a
 * resource; without one it hands out an opaque token that no resource server here accepts. MCP
 * clients are supposed to send `resource` (MCP authorization spec, "Resource Parameter"), but
 * not all do, and DESIGN §7 says a request without it gets the MCP resource. The one resource
 * this server protects is the default, added to the authorization request and to the token
 * requests (code exchange and refresh) alike, so the code's binding and the token agree.
 */
function withDefaultResourceQuery(request: Request, publicUrl: string): Request {
  const url = new URL(request.url);
  if (url.searchParams.has('resource')) return request;
  url.searchParams.set('resource', oauthUrls(publicUrl).resource);
  return new Request(url, request);
}

async function withDefaultResourceForm(request: Request, publicUrl: string): Promise<Adjusted> {
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) return request;
  const text = await boundedText(request);
  if (text === undefined) return tooLarge();
  const form = new URLSearchParams(text);
  const grant = form.get('grant_type');
  if ((grant === 'authorization_code' || grant === 'refresh_token') && !form.has('resource')) {
    form.set('resource', oauthUrls(publicUrl).resource);
  }
  return rebuilt(request, form.toString());
}

/*
 * Dynamic client registration (RFC 7591). better-auth treats a client without `application_type`
 * as a web client and then refuses http://127.0.0.1 and custom-scheme redirect URIs, which is
 * exactly what desktop MCP clients (Claude Desktop, IDE agents, the SDK's examples) register:
 * RFC 8252 §7.3 says loopback redirects are the native-app pattern. A registration that leaves
 * `application_type` out and whose redirect URIs are all loopback-http or private-scheme is
 * marked native; everything else is left to better-auth's own checks.
 *
 * Refused here outright, before better-auth: redirect URIs with a fragment (RFC 6749 §3.1.2) and
 * with a scheme that runs code in the browser (`javascript:`, `data:`, `vbscript:`, `file:`).
 */
async function registration(request: Request): Promise<Adjusted> {
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) return request;
  const text = await boundedText(request);
  if (text === undefined) return tooLarge();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return rebuilt(request, text);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return rebuilt(request, text);
  const metadata = body as Record<string, unknown>;
  const uris = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris : [];
  for (const uri of uris) {
    const problem = typeof uri === 'string' ? redirectUriProblem(uri) : 'redirect URIs must be strings';
    if (problem) return Response.json({ error: 'invalid_redirect_uri', error_description: problem }, { status: 400, headers: { 'cache-control': 'no-store' } });
  }
  if (metadata.application_type === undefined && uris.length > 0 && uris.every((u) => isNativeRedirect(String(u)))) {
    metadata.application_type = 'native';
  }
  return rebuilt(request, JSON.stringify(metadata));
}

const DANGEROUS_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:']);

export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `not an absolute URI: ${uri.slice(0, 200)}`;
  }
  if (DANGEROUS_SCHEMES.has(url.protocol)) return `redirect URIs may not use the ${url.protocol} scheme`;
  if (uri.includes('#')) return 'redirect URIs may not contain a fragment';
  if (url.username !== '' || url.password !== '') return 'redirect URIs may not contain user information';
  return undefined;
}

function isNativeRedirect(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol === 'http:') return url.hostname === '127.0.0.1' || url.hostname === '[::1]' || url.hostname === 'localhost';
  return url.protocol !== 'https:';
}

async function boundedText(request: Request): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > AUTH_BODY_BYTES) return undefined;
  const text = await request.text();
  return text.length > AUTH_BODY_BYTES ? undefined : text;
}

function rebuilt(request: Request, body: string): Request {
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  return new Request(request.url, { method: request.method, headers, body });
}

function tooLarge(): Response {
  return Response.json({ error: 'invalid_request', error_description: `The request body is larger than ${AUTH_BODY_BYTES} bytes.` }, { status: 413 });
}
