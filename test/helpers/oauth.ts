/**
 * An OAuth client by hand, for the in-process tests: registration, PKCE, the browser steps
 * (sign-in and consent through our pages, with the tiny Browser), the code exchange and refresh.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { Browser, csrfOf, ORIGIN } from '../web/browser.ts';
import type { Answer, TestService } from './service.ts';

export const REDIRECT_URI = 'http://127.0.0.1:3999/callback';
export const MCP_RESOURCE = `${ORIGIN}/api/mcp`;
export const ISSUER = `${ORIGIN}/api/auth`;

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function registerClient(svc: TestService, metadata: Record<string, unknown> = {}): Promise<Answer> {
  return svc.request('/api/auth/oauth2/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Test Agent',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...metadata,
    }),
  });
}

export async function newClientId(svc: TestService, metadata: Record<string, unknown> = {}): Promise<string> {
  const res = await registerClient(svc, metadata);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.client_id as string;
}

export function authorizePath(params: Record<string, string>): string {
  return `/api/auth/oauth2/authorize?${new URLSearchParams({ response_type: 'code', scope: 'signals:read offline_access', state: 'state-123', ...params })}`;
}

/** An absolute or relative Location (or better-auth's JSON `{ url }`) as a URL. */
export function locationOf(page: { location: string | null; html: string }): URL {
  if (page.location) return new URL(page.location, ORIGIN);
  const url = (JSON.parse(page.html) as { url?: string }).url;
  assert.ok(url, `a redirect: ${page.html.slice(0, 300)}`);
  return new URL(url, ORIGIN);
}

export interface Approval {
  /** Which projects to allow: 'all' or a project id. */
  project?: string;
  decision?: 'allow' | 'deny';
}

/**
 * From the authorization request to the redirect back to the client: the browser signs in (if it
 * has no session), sees /consent (unless consent was given before) and decides.
 */
export async function authorizeInBrowser(b: Browser, path: string, login: { email: string; password: string }, approval: Approval = {}): Promise<URL> {
  let res = await b.get(path);
  assert.equal(res.status, 302, res.html.slice(0, 300));
  let next = locationOf(res);
  if (next.pathname === '/login') {
    const page = await b.get(next.pathname + next.search);
    assert.equal(page.status, 200, page.html.slice(0, 500));
    const oauthQuery = /name="oauth_query" value="([^"]+)"/.exec(page.html)?.[1];
    assert.ok(oauthQuery, 'the login page carries the OAuth request');
    res = await b.post('/login', { email: login.email, password: login.password, csrf: csrfOf(page.html), oauth_query: decode(oauthQuery), next: '/dashboard' });
    assert.equal(res.status, 303, res.html.slice(0, 500));
    next = locationOf(res);
  }
  if (next.pathname === '/consent') {
    const page = await b.get(next.pathname + next.search);
    assert.equal(page.status, 200, page.html.slice(0, 500));
    const oauthQuery = /name="oauth_query" value="([^"]+)"/.exec(page.html)?.[1];
    assert.ok(oauthQuery, 'the consent page carries the OAuth request');
    res = await b.post('/consent', {
      csrf: csrfOf(page.html),
      oauth_query: decode(oauthQuery),
      project: approval.project ?? 'all',
      decision: approval.decision ?? 'allow',
    });
    assert.equal(res.status, 303, res.html.slice(0, 500));
    next = locationOf(res);
  }
  return next;
}

/** HTML attribute text back to the string it encodes (Hono JSX escapes &, <, >, " and '). */
export function decode(attr: string): string {
  return attr.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>');
}

export async function tokenRequest(svc: TestService, fields: Record<string, string>): Promise<Answer> {
  return svc.request('/api/auth/oauth2/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

export async function exchangeCode(svc: TestService, input: { clientId: string; code: string; verifier: string; redirectUri?: string; extra?: Record<string, string> }): Promise<Answer> {
  return tokenRequest(svc, {
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: input.redirectUri ?? REDIRECT_URI,
    client_id: input.clientId,
    code_verifier: input.verifier,
    ...input.extra,
  });
}

export async function refreshTokens(svc: TestService, clientId: string, refreshToken: string): Promise<Answer> {
  return tokenRequest(svc, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });
}

/** One MCP request (tools/call of project_list through the 2025-11-25 JSON transport). */
export async function mcpCall(svc: TestService, token: string, tool = 'project_list', args: Record<string, unknown> = {}): Promise<Answer> {
  return svc.request('/api/mcp', {
    method: 'POST',
    headers: { host: 'localhost:8080', 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}`, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }),
  });
}

/** A signed-up user with a browser session, ready to authorize clients. */
export async function signedUpBrowser(svc: TestService, email: string, password = 'correct horse'): Promise<Browser> {
  const b = new Browser(svc);
  await b.signUp(email, password);
  return b;
}

/** The whole happy flow: register, authorize (sign-in + consent), exchange. */
export async function connectClient(svc: TestService, b: Browser, login: { email: string; password: string }, approval: Approval = {}) {
  const clientId = await newClientId(svc);
  const { verifier, challenge } = pkce();
  const callback = await authorizeInBrowser(b, authorizePath({ client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256' }), login, approval);
  const code = callback.searchParams.get('code');
  assert.ok(code, `a code in ${callback}`);
  const tokens = await exchangeCode(svc, { clientId, code, verifier });
  assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
  return { clientId, verifier, callback, code, tokens: tokens.body as { access_token: string; refresh_token: string; scope: string; expires_in: number } };
}
