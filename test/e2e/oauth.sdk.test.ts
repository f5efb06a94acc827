/**
 * End to end, OAuth for MCP clients (DESIGN §7) as the official SDKs do it, against the real
 * `signals serve` process on a real socket: the v2 client (`@modelcontextprotocol/client`) and
 * the v1 SDK (`@modelcontextprotocol/sdk`) each connect to /api/mcp with no credentials, get our
 * 401 challenge, discover (RFC 9728, then RFC 8414), register dynamically as a public loopback
 * client and send the user to our authorization endpoint. The "user" is a scripted browser (HTTP
 * requests and a cookie jar, no real browser): it signs in on /login and allows access on
 * /consent, and the code it lands on the client's redirect URI with goes back to the SDK's
 * `finishAuth`.
 * The reconnected client lists and calls tools; then a stale access token makes the SDK refresh
 * (rotation: new access and refresh tokens), and so does its `auth()` called directly.
 *
 * Why: the in-process OAuth suites (test/oauth) drive the protocol by hand; this one proves the
 * SDKs that real agents use accept what we serve (challenge, metadata, registration answer, the
 * `iss` parameter, token responses) and that our pages work from a cookie-keeping user agent.
 * Every HTTP exchange of the SDKs is recorded and checked (discovery order, `resource`, `scope`,
 * PKCE, the refresh token sent); the list (no query strings or secrets) goes to the diagnostics.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cimdHostEnv, startCimdHost, type CimdHost } from '../helpers/cimd-host.ts';
import { freePort, waitForHealth } from '../helpers/process.ts';
import {
  auth as authV2,
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import {
  auth as authV1,
  UnauthorizedError as V1UnauthorizedError,
  type OAuthClientProvider as V1OAuthClientProvider,
  type OAuthDiscoveryState as V1OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed as V1ClientInformation, OAuthTokens as V1Tokens } from '@modelcontextprotocol/sdk/shared/auth.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const SCOPE = 'signals:read offline_access';
const SESSION_COOKIE = 'better-auth.session_token';

/** `signals <args> --json` against the test database; its one JSON object. */
function cli(env: NodeJS.ProcessEnv, args: string[]): Record<string, unknown> {
  const run = spawnSync(process.execPath, [join(ROOT, 'bin/signals.mjs'), ...args, '--json'], { env, encoding: 'utf8' });
  assert.equal(run.status, 0, `signals ${args.slice(0, 2).join(' ')}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

// --- what the SDKs send --------------------------------------------------------------------------

/** One HTTP exchange made by an SDK (through the `fetch` given to its transport). */
interface Hit {
  method: string;
  url: URL;
  status: number;
  /** `Bearer` if the request carried an Authorization header of that scheme. */
  bearer: boolean;
  /** A form body (token requests). */
  form?: URLSearchParams;
  /** A JSON body (registration). */
  json?: Record<string, unknown>;
  wwwAuthenticate: string | null;
  /** The JSON answer of a token or registration request. */
  answer?: Record<string, unknown>;
}

class Recorder {
  readonly hits: Hit[] = [];

  readonly fetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const res = await fetch(input, init);
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    const body = init?.body;
    const text = typeof body === 'string' ? body : body instanceof URLSearchParams ? body.toString() : undefined;
    const hit: Hit = {
      method: init?.method ?? 'GET',
      url,
      status: res.status,
      bearer: /^Bearer\s/i.test(headers.get('authorization') ?? ''),
      wwwAuthenticate: res.headers.get('www-authenticate'),
    };
    if (text !== undefined) {
      if ((headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded')) hit.form = new URLSearchParams(text);
      else if (url.pathname.endsWith('/oauth2/register')) hit.json = JSON.parse(text) as Record<string, unknown>;
    }
    if (url.pathname.startsWith('/api/auth/oauth2/')) hit.answer = (await res.clone().json().catch(() => undefined)) as Record<string, unknown> | undefined;
    this.hits.push(hit);
    return res;
  };

  to(pathname: string): Hit[] {
    return this.hits.filter((h) => h.url.pathname === pathname);
  }

  tokenRequests(grant: string): Hit[] {
    return this.to('/api/auth/oauth2/token').filter((h) => h.form?.get('grant_type') === grant);
  }

  /** "METHOD path status" per exchange: no query strings, no bodies, nothing secret. */
  summary(): string {
    return this.hits.map((h) => `${h.method} ${h.url.pathname} ${h.status}`).join('; ');
  }
}

// --- the user, in a scripted browser ------------------------------------------------------------

/** One answer to the scripted browser. */
interface PageAnswer {
  status: number;
  location: string | null;
  html: string;
}

/**
 * A cookie-keeping user agent: each request is a top-level navigation (GET of a page or a form
 * post), with the Fetch Metadata and Accept headers a browser sends for one, and redirects are
 * read, never followed. It is built on node:http, not fetch: Node's fetch (undici) always sends
 * `Sec-Fetch-Mode: cors`, which better-auth takes for a script's fetch and answers with JSON
 * (`{ redirect: true, url }`) instead of the 302 a navigating browser gets.
 */
class CookieJar {
  readonly cookies = new Map<string, string>();

  constructor(private readonly base: string) {}

  request(url: URL, init: { method?: 'GET' | 'POST'; form?: Record<string, string> } = {}): Promise<PageAnswer> {
    const method = init.method ?? 'GET';
    const headers: Record<string, string> = {
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'user-agent': 'signals-e2e scripted browser',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
      'sec-fetch-site': method === 'POST' ? 'same-origin' : 'none',
      'sec-fetch-user': '?1',
    };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (init.form) {
      body = new URLSearchParams(init.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = String(Buffer.byteLength(body));
      headers.origin = this.base;
    }
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, { method, headers }, (res) => {
        for (const line of res.headers['set-cookie'] ?? []) {
          const [pair = ''] = line.split(';');
          const eq = pair.indexOf('=');
          const name = pair.slice(0, eq).trim();
          const value = pair.slice(eq + 1).trim();
          if (value === '' || /;\s*max-age=0/i.test(line)) this.cookies.delete(name);
          else this.cookies.set(name, value);
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null, html: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }
}

/** HTML attribute text back to the string it encodes (Hono JSX escapes &, <, >, " and '). */
function decodeAttr(attr: string): string {
  return attr.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

function hiddenField(html: string, name: string): string {
  const value = new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
  assert.ok(value, `a hidden "${name}" field on the page`);
  return decodeAttr(value);
}

function locationOf(res: PageAnswer, base: string): URL {
  const location = res.location;
  assert.ok(location, `a Location header on the ${res.status}`);
  return new URL(location, base);
}

interface Login {
  email: string;
  password: string;
}

/**
 * What a person does in the browser the SDK opened: the authorization URL sends them to /login
 * (no session yet), signing in continues to /consent, allowing all projects ends on the client's
 * redirect URI. Returns that final URL (code, state, iss).
 */
async function approveInBrowser(authorizationUrl: URL, base: string, login: Login, clientName: string): Promise<URL> {
  const jar = new CookieJar(base);
  const start = await jar.request(authorizationUrl);
  assert.equal(start.status, 302, `the authorization endpoint answers ${start.status}: ${start.html.slice(0, 300)}`);
  const toLogin = locationOf(start, base);
  assert.equal(toLogin.origin + toLogin.pathname, `${base}/login`, 'no session yet: to the sign-in page');

  const loginPage = await jar.request(toLogin);
  const loginHtml = loginPage.html;
  assert.equal(loginPage.status, 200, loginHtml.slice(0, 300));
  const signedIn = await jar.request(new URL('/login', base), {
    method: 'POST',
    form: {
      email: login.email,
      password: login.password,
      csrf: hiddenField(loginHtml, 'csrf'),
      oauth_query: hiddenField(loginHtml, 'oauth_query'),
      next: '/dashboard',
    },
  });
  assert.equal(signedIn.status, 303, `sign-in answers ${signedIn.status}: ${signedIn.html.slice(0, 300)}`);
  assert.ok(jar.cookies.has(SESSION_COOKIE), 'signed in: a session cookie');
  const toConsent = locationOf(signedIn, base);
  assert.equal(toConsent.origin + toConsent.pathname, `${base}/consent`, 'signed in: on to the consent page');

  const consentPage = await jar.request(toConsent);
  const consentHtml = consentPage.html;
  assert.equal(consentPage.status, 200, consentHtml.slice(0, 300));
  assert.ok(consentHtml.includes(`<strong>${clientName}</strong> wants to read your Project Signals data`), 'the consent page names the client');
  const decided = await jar.request(new URL('/consent', base), {
    method: 'POST',
    form: { csrf: hiddenField(consentHtml, 'csrf'), oauth_query: hiddenField(consentHtml, 'oauth_query'), project: 'all', decision: 'allow' },
  });
  assert.equal(decided.status, 303, `consent answers ${decided.status}: ${decided.html.slice(0, 300)}`);
  return locationOf(decided, base);
}

// --- an OAuthClientProvider for either SDK -----------------------------------------------------

/**
 * In-memory storage of everything the SDK hands over, and the scripted browser as its "redirect".
 * Generic in the SDK's own types (v1 and v2 declare them separately); each test instantiates it
 * with its SDK's types and the compiler checks it against that SDK's `OAuthClientProvider`.
 */
class ScriptedProvider<Info extends { client_id: string }, Tokens extends { access_token: string; refresh_token?: string | undefined }, Discovery> {
  readonly clientName: string;
  readonly stateValue = randomBytes(16).toString('base64url');
  client: Info | undefined;
  stored: Tokens | undefined;
  /** Every token set saved, in order. */
  readonly saved: Tokens[] = [];
  discovery: Discovery | undefined;
  verifier: string | undefined;
  readonly authorizationUrls: URL[] = [];
  callback: URL | undefined;
  browserError: unknown;

  constructor(
    private readonly redirect: string,
    private readonly base: string,
    private readonly login: Login,
    sdk: string,
    /** A Client ID Metadata Document's URL: the SDK uses it as client_id when the server supports it. */
    readonly clientMetadataUrl?: string,
  ) {
    this.clientName = `Signals e2e (${sdk})`;
  }

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadata() {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    return this.stateValue;
  }

  clientInformation(): Info | undefined {
    return this.client;
  }

  saveClientInformation(info: Info): void {
    this.client = info;
  }

  tokens(): Tokens | undefined {
    return this.stored;
  }

  saveTokens(tokens: Tokens): void {
    this.stored = tokens;
    this.saved.push(tokens);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    assert.ok(this.verifier, 'a code verifier was saved before the redirect');
    return this.verifier;
  }

  saveDiscoveryState(state: Discovery): void {
    this.discovery = state;
  }

  discoveryState(): Discovery | undefined {
    return this.discovery;
  }

  /** The "browser": any failure is kept for the test to rethrow (the SDK would only see a throw). */
  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrls.push(url);
    try {
      this.callback = await approveInBrowser(url, this.base, this.login, this.clientName);
    } catch (err) {
      this.browserError = err;
    }
  }

  /** The code the browser landed on the redirect URI with, after checking the rest of that URL. */
  landedCode(issuer: string): URL {
    if (this.browserError !== undefined) throw this.browserError;
    const callback = this.callback;
    assert.ok(callback, 'the scripted browser reached the redirect URI');
    assert.equal(callback.origin + callback.pathname, this.redirect, 'back at the registered redirect URI');
    assert.equal(callback.searchParams.get('error'), null, `no error: ${callback.searchParams.get('error_description')}`);
    assert.ok(callback.searchParams.get('code'), 'a code');
    assert.equal(callback.searchParams.get('state'), this.stateValue, 'the state round-trips');
    assert.equal(callback.searchParams.get('iss'), issuer, 'RFC 9207 iss');
    return callback;
  }

  /** Makes the stored access token worthless (the refresh token is kept as it is). */
  spoilAccessToken(): void {
    assert.ok(this.stored, 'tokens to spoil');
    this.stored = { ...this.stored, access_token: `garbage-${randomBytes(8).toString('hex')}` };
  }
}

function claimsOf(jwt: string): Record<string, unknown> {
  const payload = jwt.split('.')[1];
  assert.ok(payload, 'the access token is a JWT');
  return JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
}

// --- checks shared by both SDKs -------------------------------------------------------------------

interface Env {
  base: string;
  mcpUrl: string;
  issuer: string;
}

/** From the unauthenticated request to the authorization URL: what the SDK did before the browser. */
function checkDiscoveryAndRegistration(rec: Recorder, env: Env, redirect: string, clientId: string, authorizationUrl: URL, state: string): void {
  const first = rec.hits[0];
  assert.ok(first, 'the SDK made requests');
  assert.equal(first.url.href, env.mcpUrl);
  assert.equal(first.method, 'POST');
  assert.equal(first.bearer, false, 'no credentials on the first request');
  assert.equal(first.status, 401);
  assert.equal(first.wwwAuthenticate, `Bearer resource_metadata="${env.base}/.well-known/oauth-protected-resource/api/mcp", scope="${SCOPE}"`);

  const order = rec.hits.map((h) => h.url.pathname);
  const prm = order.indexOf('/.well-known/oauth-protected-resource/api/mcp');
  const asm = order.indexOf('/.well-known/oauth-authorization-server/api/auth');
  const reg = order.indexOf('/api/auth/oauth2/register');
  assert.ok(prm > 0 && asm > prm && reg > asm, `RFC 9728, then RFC 8414, then registration:\n${rec.summary()}`);
  assert.equal(rec.hits[prm]!.status, 200);
  assert.equal(rec.hits[asm]!.status, 200);

  const registration = rec.hits[reg]!;
  assert.equal(registration.status, 201, JSON.stringify(registration.answer));
  assert.deepEqual(registration.json?.redirect_uris, [redirect]);
  assert.equal(registration.json?.token_endpoint_auth_method, 'none');
  assert.equal(registration.answer?.client_id, clientId);
  assert.equal(registration.answer?.token_endpoint_auth_method, 'none', 'a public client');
  assert.equal(registration.answer?.client_secret, undefined);
  assert.equal(rec.to('/api/auth/oauth2/register').length, 1, 'registered once');

  assert.equal(authorizationUrl.origin + authorizationUrl.pathname, `${env.issuer}/oauth2/authorize`);
  const q = authorizationUrl.searchParams;
  assert.equal(q.get('response_type'), 'code');
  assert.equal(q.get('client_id'), clientId);
  assert.equal(q.get('redirect_uri'), redirect);
  assert.equal(q.get('code_challenge_method'), 'S256');
  assert.match(q.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
  assert.equal(q.get('state'), state);
  assert.deepEqual((q.get('scope') ?? '').split(' ').sort(), SCOPE.split(' ').sort());
  assert.equal(q.get('resource'), env.mcpUrl, 'RFC 8707 resource = the PRM resource');
}

/** The code exchange the SDK made in finishAuth, and the tokens it saved. */
/** The token fields the checks read; both SDKs' token types have them. */
interface TokenSet {
  access_token: string;
  refresh_token?: string | undefined;
  scope?: string | undefined;
}

function checkCodeExchange(rec: Recorder, env: Env, redirect: string, clientId: string, tokens: TokenSet): void {
  const exchanges = rec.tokenRequests('authorization_code');
  assert.equal(exchanges.length, 1, 'one code exchange');
  const exchange = exchanges[0]!;
  assert.equal(exchange.status, 200, JSON.stringify(exchange.answer?.error ?? null));
  assert.equal(exchange.form?.get('client_id'), clientId);
  assert.equal(exchange.form?.get('redirect_uri'), redirect);
  assert.ok(exchange.form?.get('code_verifier'), 'PKCE verifier sent');
  assert.equal(exchange.form?.get('resource'), env.mcpUrl);
  assert.ok(tokens.refresh_token, 'a refresh token (offline_access)');
  assert.equal(tokens.scope, SCOPE);
  const claims = claimsOf(tokens.access_token);
  assert.equal(claims.aud, env.mcpUrl);
  assert.equal(claims.iss, env.issuer);
  assert.equal(claims.azp, clientId);
}

/** Tools listed and called by a connected client of either SDK (the caller owns one project). */
async function checkTools(
  client: { listTools(): Promise<{ tools: Array<{ name: string }> }>; callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown> },
  projectName: string,
): Promise<void> {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const name of ['project_list', 'project_memory', 'pains_list', 'briefs_list']) assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
  await checkProjectList(client, projectName);
  const memory = (await client.callTool({ name: 'project_memory', arguments: {} })) as { isError?: boolean; structuredContent?: { memory?: { name?: string } } };
  assert.notEqual(memory.isError, true, JSON.stringify(memory));
  assert.equal(memory.structuredContent?.memory?.name, projectName);
}

async function checkProjectList(client: { callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown> }, projectName: string): Promise<void> {
  const listed = (await client.callTool({ name: 'project_list', arguments: {} })) as { isError?: boolean; structuredContent?: { projects?: Array<{ name: string }> } };
  assert.notEqual(listed.isError, true, JSON.stringify(listed));
  assert.deepEqual(
    listed.structuredContent?.projects?.map((p) => p.name),
    [projectName],
  );
}

/** The one refresh since `before` token requests: sent the then-current refresh token, rotated. */
function checkRefresh(rec: Recorder, before: number, used: TokenSet, now: TokenSet, previousAccess: string, env: Env): void {
  const refreshes = rec.tokenRequests('refresh_token').slice(before);
  assert.equal(refreshes.length, 1, 'exactly one refresh request');
  const refresh = refreshes[0]!;
  assert.equal(refresh.status, 200, JSON.stringify(refresh.answer?.error ?? null));
  assert.ok(used.refresh_token !== undefined && refresh.form?.get('refresh_token') === used.refresh_token, 'the current refresh token was sent');
  assert.equal(refresh.form?.get('resource'), env.mcpUrl);
  assert.ok(now.refresh_token, 'a refresh token saved');
  assert.ok(now.refresh_token !== used.refresh_token, 'the refresh token rotated');
  assert.ok(now.access_token !== previousAccess, 'a new access token');
  assert.equal(claimsOf(now.access_token).aud, env.mcpUrl);
}

// --- the suite -------------------------------------------------------------------------------------

describe('official MCP SDK clients through OAuth, against `signals serve`', () => {
  let dir: string;
  let server: ChildProcess;
  let env: Env;
  let cimdHost: CimdHost;
  const users = {
    v2: { email: 'vera@example.com', password: 'v2-client-password', project: 'Vera Widgets' },
    v1: { email: 'otto@example.com', password: 'v1-client-password', project: 'Otto Gadgets' },
    cimd: { email: 'cid@example.com', password: 'cimd-client-password', project: 'Cid Metadata' },
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signals-e2e-oauth-'));
    const port = await freePort();
    const base = `http://localhost:${port}`;
    env = { base, mcpUrl: `${base}/api/mcp`, issuer: `${base}/api/auth` };
    cimdHost = await startCimdHost();
    const processEnv = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'e2e.db')}`, PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn', ...cimdHostEnv(cimdHost) };
    for (const [key, u] of Object.entries(users)) {
      assert.equal(cli(processEnv, ['user', 'create', '--email', u.email, '--password', u.password]).email, u.email);
      assert.equal(cli(processEnv, ['project', 'create', '--owner', u.email, '--name', u.project, '--url', `https://${key}.example.com`]).name, u.project);
    }
    server = spawn(process.execPath, [join(ROOT, 'bin/signals.mjs'), 'serve'], { env: processEnv, stdio: ['ignore', 'ignore', 'inherit'] });
    await waitForHealth(base, server);
  });

  after(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
    await cimdHost?.close();
  });

  test('v2 client (@modelcontextprotocol/client): 401 → discovery → registration → sign-in and consent → finishAuth → tools → refresh with rotation', async (t) => {
    const redirect = `http://127.0.0.1:${await freePort()}/callback`;
    const rec = new Recorder();
    const provider = new ScriptedProvider<StoredOAuthClientInformation, StoredOAuthTokens, OAuthDiscoveryState>(redirect, env.base, users.v2, 'v2');
    const oauth: OAuthClientProvider = provider;
    const mcpUrl = new URL(env.mcpUrl);

    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauth, fetch: rec.fetch });
    await assert.rejects(new Client({ name: 'signals-e2e-v2', version: '1.0.0' }).connect(first), (err) => err instanceof UnauthorizedError);
    assert.equal(provider.authorizationUrls.length, 1, 'one redirect to the authorization server');
    const callback = provider.landedCode(env.issuer);
    const clientId = provider.client?.client_id;
    assert.ok(clientId, 'the registered client was saved');
    checkDiscoveryAndRegistration(rec, env, redirect, clientId, provider.authorizationUrls[0]!, provider.stateValue);
    assert.equal(provider.tokens(), undefined, 'no tokens before the code exchange');

    // v2 wants the callback's `iss` too (our metadata says authorization_response_iss_parameter_supported).
    await first.finishAuth(callback.searchParams);
    const issued = provider.tokens();
    assert.ok(issued, 'tokens saved by finishAuth');
    checkCodeExchange(rec, env, redirect, clientId, issued);
    assert.equal(issued.issuer, env.issuer, 'v2 stamps the issuer on stored tokens');
    await first.close();

    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauth, fetch: rec.fetch });
    const client = new Client({ name: 'signals-e2e-v2', version: '1.0.0' });
    await client.connect(transport);
    await checkTools(client, users.v2.project);
    assert.ok(rec.hits.filter((h) => h.url.href === env.mcpUrl && h.status === 200).every((h) => h.bearer), 'every answered MCP request carried the token');

    // A stale access token: the 401 makes the transport refresh, once, and retry.
    let refreshesBefore = rec.tokenRequests('refresh_token').length;
    provider.spoilAccessToken();
    const beforeSpoil = issued;
    await checkProjectList(client, users.v2.project);
    const afterTransportRefresh = provider.tokens();
    assert.ok(afterTransportRefresh, 'tokens after the refresh');
    checkRefresh(rec, refreshesBefore, beforeSpoil, afterTransportRefresh, issued.access_token, env);
    const spoiled = rec.hits.filter((h) => h.url.href === env.mcpUrl && h.status === 401 && h.bearer);
    assert.equal(spoiled.length, 1, 'the spoiled token was refused once');
    assert.match(spoiled[0]!.wwwAuthenticate ?? '', /error="invalid_token"/);

    // auth() called directly refreshes too (a refresh token is stored, no code is given).
    refreshesBefore = rec.tokenRequests('refresh_token').length;
    assert.equal(await authV2(oauth, { serverUrl: mcpUrl, fetchFn: rec.fetch }), 'AUTHORIZED');
    const afterDirectRefresh = provider.tokens();
    assert.ok(afterDirectRefresh);
    checkRefresh(rec, refreshesBefore, afterTransportRefresh, afterDirectRefresh, afterTransportRefresh.access_token, env);
    await checkProjectList(client, users.v2.project);

    assert.equal(provider.authorizationUrls.length, 1, 'refreshing never sent the user back to the browser');
    assert.equal(provider.saved.length, 3, 'tokens saved three times: the code exchange and two refreshes');
    assert.equal(rec.to('/api/auth/oauth2/revoke').length, 0, 'the SDK revokes nothing');
    await client.close();
    t.diagnostic(`v2 exchanges: ${rec.summary()}`);
  });

  test('v1 SDK (@modelcontextprotocol/sdk): 401 → discovery → registration → sign-in and consent → finishAuth → tools → refresh with rotation', async (t) => {
    const redirect = `http://127.0.0.1:${await freePort()}/callback`;
    const rec = new Recorder();
    const provider = new ScriptedProvider<V1ClientInformation, V1Tokens, V1OAuthDiscoveryState>(redirect, env.base, users.v1, 'v1');
    const oauth: V1OAuthClientProvider = provider;
    const mcpUrl = new URL(env.mcpUrl);

    const first = new V1Transport(mcpUrl, { authProvider: oauth, fetch: rec.fetch });
    await assert.rejects(new V1Client({ name: 'signals-e2e-v1', version: '1.0.0' }).connect(first), (err) => err instanceof V1UnauthorizedError);
    assert.equal(provider.authorizationUrls.length, 1, 'one redirect to the authorization server');
    const callback = provider.landedCode(env.issuer);
    const clientId = provider.client?.client_id;
    assert.ok(clientId, 'the registered client was saved');
    checkDiscoveryAndRegistration(rec, env, redirect, clientId, provider.authorizationUrls[0]!, provider.stateValue);

    // v1's finishAuth takes the code alone (it does not check `iss`).
    await first.finishAuth(callback.searchParams.get('code')!);
    const issued = provider.tokens();
    assert.ok(issued, 'tokens saved by finishAuth');
    checkCodeExchange(rec, env, redirect, clientId, issued);
    await first.close();

    const transport = new V1Transport(mcpUrl, { authProvider: oauth, fetch: rec.fetch });
    const client = new V1Client({ name: 'signals-e2e-v1', version: '1.0.0' });
    await client.connect(transport);
    await checkTools(client, users.v1.project);

    let refreshesBefore = rec.tokenRequests('refresh_token').length;
    provider.spoilAccessToken();
    await checkProjectList(client, users.v1.project);
    const afterTransportRefresh = provider.tokens();
    assert.ok(afterTransportRefresh, 'tokens after the refresh');
    checkRefresh(rec, refreshesBefore, issued, afterTransportRefresh, issued.access_token, env);
    const spoiled = rec.hits.filter((h) => h.url.href === env.mcpUrl && h.status === 401 && h.bearer);
    assert.equal(spoiled.length, 1, 'the spoiled token was refused once');
    assert.match(spoiled[0]!.wwwAuthenticate ?? '', /error="invalid_token"/);

    refreshesBefore = rec.tokenRequests('refresh_token').length;
    assert.equal(await authV1(oauth, { serverUrl: mcpUrl, fetchFn: rec.fetch }), 'AUTHORIZED');
    const afterDirectRefresh = provider.tokens();
    assert.ok(afterDirectRefresh);
    checkRefresh(rec, refreshesBefore, afterTransportRefresh, afterDirectRefresh, afterTransportRefresh.access_token, env);
    await checkProjectList(client, users.v1.project);

    assert.equal(provider.authorizationUrls.length, 1, 'refreshing never sent the user back to the browser');
    assert.equal(provider.saved.length, 3, 'tokens saved three times: the code exchange and two refreshes');
    assert.equal(rec.to('/api/auth/oauth2/revoke').length, 0, 'the SDK revokes nothing');
    await client.close();
    t.diagnostic(`v1 exchanges: ${rec.summary()}`);
  });
  test('v2 client with a Client ID Metadata Document: no registration; the server reads the document, the user consents to its name, tools work', async (t) => {
    const redirect = `http://127.0.0.1:${await freePort()}/callback`;
    const documentUrl = cimdHost.url('/oauth/client-metadata.json');
    cimdHost.serve('/oauth/client-metadata.json', {
      client_id: documentUrl,
      client_name: 'Signals e2e (v2, CIMD)',
      client_uri: cimdHost.url('/'),
      redirect_uris: [redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    const rec = new Recorder();
    const provider = new ScriptedProvider<StoredOAuthClientInformation, StoredOAuthTokens, OAuthDiscoveryState>(redirect, env.base, users.cimd, 'v2, CIMD', documentUrl);
    const oauth: OAuthClientProvider = provider;
    const mcpUrl = new URL(env.mcpUrl);

    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauth, fetch: rec.fetch });
    await assert.rejects(new Client({ name: 'signals-e2e-cimd', version: '1.0.0' }).connect(first), (err) => err instanceof UnauthorizedError);
    const metadata = rec.hits.find((h) => h.url.pathname === '/.well-known/oauth-authorization-server/api/auth');
    assert.equal(metadata?.status, 200);
    assert.equal(rec.to('/api/auth/oauth2/register').length, 0, 'the SDK did not register: the server supports metadata documents');
    assert.equal(provider.client?.client_id, documentUrl, 'the document URL is the client id');
    assert.equal(provider.authorizationUrls[0]?.searchParams.get('client_id'), documentUrl);
    const callback = provider.landedCode(env.issuer);
    assert.ok(cimdHost.fetched.includes('/oauth/client-metadata.json'), 'the authorization server fetched the document');

    await first.finishAuth(callback.searchParams);
    const issued = provider.tokens();
    assert.ok(issued, 'tokens saved by finishAuth');
    checkCodeExchange(rec, env, redirect, documentUrl, issued);
    await first.close();

    const client = new Client({ name: 'signals-e2e-cimd', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauth, fetch: rec.fetch }));
    await checkTools(client, users.cimd.project);
    await client.close();
    t.diagnostic(`CIMD exchanges: ${rec.summary()}`);
  });
});
