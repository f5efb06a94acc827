/**
 * DESIGN §7, OAuth for MCP clients, happy paths: discovery documents, open registration (a
 * loopback client registers as native), sign-in and consent through our pages, a JWT access
 * token for /api/mcp that the MCP endpoint accepts, refresh with rotation, the project tie, the
 * connected-apps list and its revoke.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../helpers/database.ts';
import {
  authorizeInBrowser,
  authorizePath,
  connectClient,
  exchangeCode,
  ISSUER,
  MCP_RESOURCE,
  mcpCall,
  newClientId,
  pkce,
  REDIRECT_URI,
  refreshTokens,
  registerClient,
  signedUpBrowser,
} from '../helpers/oauth.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { Browser, csrfOf, ORIGIN } from '../web/browser.ts';

const PASSWORD = 'correct horse';

function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString());
}

for (const dialect of DIALECTS) {
  describe(`OAuth for MCP clients, happy paths (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startService(dialect, { web: true });
    });
    after(() => svc.close());

    test('discovery: protected-resource metadata points at the issuer, whose RFC 8414 metadata is served at both addresses', async () => {
      const prm = await svc.request('/.well-known/oauth-protected-resource/api/mcp');
      assert.equal(prm.status, 200);
      assert.deepEqual(prm.body.authorization_servers, [ISSUER]);
      assert.equal(prm.body.resource, MCP_RESOURCE);
      for (const path of ['/.well-known/oauth-authorization-server/api/auth', '/api/auth/.well-known/oauth-authorization-server']) {
        const meta = await svc.request(path);
        assert.equal(meta.status, 200, path);
        assert.equal(meta.body.issuer, ISSUER);
        assert.equal(meta.body.authorization_endpoint, `${ISSUER}/oauth2/authorize`);
        assert.equal(meta.body.token_endpoint, `${ISSUER}/oauth2/token`);
        assert.equal(meta.body.registration_endpoint, `${ISSUER}/oauth2/register`);
        assert.equal(meta.body.revocation_endpoint, `${ISSUER}/oauth2/revoke`);
        assert.deepEqual(meta.body.code_challenge_methods_supported, ['S256']);
        assert.deepEqual(meta.body.scopes_supported, ['signals:read', 'offline_access']);
        assert.equal(meta.body.authorization_response_iss_parameter_supported, true);
        assert.ok(meta.body.token_endpoint_auth_methods_supported.includes('none'));
      }
    });

    test('browser-based clients may read discovery and call registration and token endpoints from their own origin (no credentials)', async () => {
      const origin = 'http://localhost:6274';
      for (const path of ['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-authorization-server/api/auth', '/api/auth/jwks']) {
        const res = await svc.request(path, { headers: { origin } });
        assert.equal(res.status, 200, path);
        assert.equal(res.headers.get('access-control-allow-origin'), '*', path);
        assert.equal(res.headers.get('access-control-allow-credentials'), null, path);
      }
      for (const path of ['/api/auth/oauth2/register', '/api/auth/oauth2/token', '/api/auth/oauth2/revoke']) {
        const preflight = await svc.request(path, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
        assert.equal(preflight.status, 204, path);
        assert.equal(preflight.headers.get('access-control-allow-origin'), '*', path);
      }
      const registered = await svc.request('/api/auth/oauth2/register', {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Inspector', redirect_uris: ['http://localhost:6274/oauth/callback'], token_endpoint_auth_method: 'none' }),
      });
      assert.equal(registered.status, 201, JSON.stringify(registered.body));
      // Not the pages, nor the MCP endpoint.
      assert.equal((await svc.request('/dashboard', { headers: { origin } })).headers.get('access-control-allow-origin'), null);
      assert.equal((await svc.request('/api/mcp', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } })).headers.get('access-control-allow-origin'), null);
    });

    test('open registration: a loopback or app-scheme client becomes a native public client; an https one stays web', async () => {
      const loopback = await registerClient(svc);
      assert.equal(loopback.status, 201, JSON.stringify(loopback.body));
      assert.equal(loopback.body.application_type, 'native');
      assert.equal(loopback.body.token_endpoint_auth_method, 'none');
      assert.equal(loopback.body.client_secret, undefined);
      const app = await registerClient(svc, { redirect_uris: ['com.example.agent:/oauth/callback'] });
      assert.equal(app.status, 201, JSON.stringify(app.body));
      assert.equal(app.body.application_type, 'native');
      const web = await registerClient(svc, { client_name: 'Claude', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'] });
      assert.equal(web.status, 201, JSON.stringify(web.body));
      assert.equal(web.body.application_type, 'web');
    });

    test('sign in from the client, allow all projects: a JWT for /api/mcp that lists every project, iss in the redirect', async () => {
      await signedUpBrowser(svc, 'olga@example.com', PASSWORD);
      const b = new Browser(svc); // a browser without a session: the flow goes through /login
      const clientId = await newClientId(svc);
      const { verifier, challenge } = pkce();
      const callback = await authorizeInBrowser(
        b,
        authorizePath({ client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256' }),
        { email: 'olga@example.com', password: PASSWORD },
      );
      assert.equal(`${callback.origin}${callback.pathname}`, REDIRECT_URI);
      assert.equal(callback.searchParams.get('state'), 'state-123');
      assert.equal(callback.searchParams.get('iss'), ISSUER);
      const tokens = await exchangeCode(svc, { clientId, code: callback.searchParams.get('code')!, verifier });
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      assert.equal(tokens.body.token_type, 'Bearer');
      assert.equal(tokens.body.expires_in, 3600);
      assert.equal(tokens.body.scope, 'signals:read offline_access');
      assert.ok(tokens.body.refresh_token);
      const claims = claimsOf(tokens.body.access_token);
      assert.equal(claims.aud, MCP_RESOURCE, 'no `resource` sent, still bound to the MCP endpoint');
      assert.equal(claims.iss, ISSUER);
      assert.equal(claims.azp, clientId);
      assert.equal((claims.exp as number) - (claims.iat as number), 3600);

      const listed = await mcpCall(svc, tokens.body.access_token);
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.equal(listed.body.result.isError, undefined, JSON.stringify(listed.body));
      assert.deepEqual(listed.body.result.structuredContent.projects, [], 'olga has no projects yet');
    });

    test('allow one project: the grant is tied like a tied key; the apps list shows it; revoke cuts the client off at once', async () => {
      const alice = await signedUpBrowser(svc, 'tess@example.com', PASSWORD);
      await alice.createProject('Gamma', 'https://gamma.example.net');
      await alice.createProject('Delta', 'https://delta.example.net');
      const gamma = await svc.store.db.selectFrom('projects').select('id').where('name', '=', 'Gamma').executeTakeFirstOrThrow();

      const { clientId, tokens } = await connectClient(svc, alice, { email: 'tess@example.com', password: PASSWORD }, { project: gamma.id });
      // As a tied key (spec §3): the tied project is always used and `project` is ignored.
      const other = await mcpCall(svc, tokens.access_token, 'project_memory', { project: 'delta' });
      assert.equal(other.status, 200, JSON.stringify(other.body));
      assert.equal(other.body.result.structuredContent.memory.id, gamma.id, 'asking for Delta still reads Gamma');
      const untied = await connectClient(svc, alice, { email: 'tess@example.com', password: PASSWORD });
      const delta = await mcpCall(svc, untied.tokens.access_token, 'project_memory', { project: 'delta' });
      assert.equal(delta.body.result.structuredContent.memory.name, 'Delta', 'an all-projects grant may switch');

      const dash = await alice.get('/dashboard');
      assert.match(dash.html, /<h2>Connected apps<\/h2>/);
      assert.match(dash.html, /<td>Test Agent<\/td><td class="mono" data-label="Returns to">127\.0\.0\.1:3999<\/td><td data-label="Projects">Gamma<\/td>/);
      assert.match(dash.html, /<td>Test Agent<\/td><td class="mono" data-label="Returns to">127\.0\.0\.1:3999<\/td><td data-label="Projects">all projects<\/td>/);

      const revokePage = await alice.get('/dashboard');
      const action = `/dashboard/apps/${encodeURIComponent(clientId)}/revoke`;
      assert.ok(revokePage.html.includes(`action="${action}"`));
      const revoked = await alice.post(action, { csrf: csrfOf(revokePage.html) });
      assert.equal(revoked.status, 303);
      assert.equal(revoked.location, '/dashboard');

      const after = await mcpCall(svc, tokens.access_token);
      assert.equal(after.status, 401, 'the still-unexpired JWT is refused once the app is revoked');
      assert.match(after.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
      const refreshed = await refreshTokens(svc, clientId, tokens.refresh_token);
      assert.equal(refreshed.status, 400, 'and so is its refresh token');
      assert.equal((await mcpCall(svc, untied.tokens.access_token)).status, 200, 'the other app stays connected');
    });

    test('refresh: rotated, new tokens work, the scope and audience carry over', async () => {
      const b = await signedUpBrowser(svc, 'rafa@example.com', PASSWORD);
      const { clientId, tokens } = await connectClient(svc, b, { email: 'rafa@example.com', password: PASSWORD });
      const next = await refreshTokens(svc, clientId, tokens.refresh_token);
      assert.equal(next.status, 200, JSON.stringify(next.body));
      assert.notEqual(next.body.refresh_token, tokens.refresh_token, 'rotated');
      assert.equal(claimsOf(next.body.access_token).aud, MCP_RESOURCE);
      assert.equal(next.body.scope, 'signals:read offline_access');
      assert.equal((await mcpCall(svc, next.body.access_token)).status, 200);
      assert.equal((await mcpCall(svc, tokens.access_token)).status, 200, 'the earlier access token lives on until it expires');
    });

    test('signing out of the dashboard leaves connected apps connected: the token, its refresh and the new token all work', async () => {
      const b = await signedUpBrowser(svc, 'lou@example.com', PASSWORD);
      const { clientId, tokens } = await connectClient(svc, b, { email: 'lou@example.com', password: PASSWORD });
      const page = await b.get('/logout');
      assert.equal((await b.post('/logout', { csrf: csrfOf(page.html) })).status, 303);
      assert.equal((await b.get('/dashboard')).status, 303, 'signed out');
      assert.equal((await mcpCall(svc, tokens.access_token)).status, 200);
      const next = await refreshTokens(svc, clientId, tokens.refresh_token);
      assert.equal(next.status, 200, JSON.stringify(next.body));
      assert.equal((await mcpCall(svc, next.body.access_token)).status, 200);
    });

    test('a second authorization by the same user skips the consent page, keeping the project choice', async () => {
      const b = await signedUpBrowser(svc, 'sami@example.com', PASSWORD);
      await b.createProject('Solo', 'https://solo.example.org');
      const solo = await svc.store.db.selectFrom('projects').select('id').where('name', '=', 'Solo').executeTakeFirstOrThrow();
      const first = await connectClient(svc, b, { email: 'sami@example.com', password: PASSWORD }, { project: solo.id });
      const { verifier, challenge } = pkce();
      const direct = await b.get(authorizePath({ client_id: first.clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256' }));
      assert.equal(direct.status, 302);
      const callback = new URL(direct.location!);
      assert.equal(`${callback.origin}${callback.pathname}`, REDIRECT_URI, 'straight back to the client');
      const tokens = await exchangeCode(svc, { clientId: first.clientId, code: callback.searchParams.get('code')!, verifier });
      assert.equal(tokens.status, 200);
      const memory = await mcpCall(svc, tokens.body.access_token, 'project_memory', {});
      assert.equal(memory.body.result.structuredContent.memory.id, solo.id);
    });

    test('deny: the client gets access_denied with its state and our issuer, and no grant is recorded', async () => {
      const b = await signedUpBrowser(svc, 'dina@example.com', PASSWORD);
      const clientId = await newClientId(svc);
      const { challenge } = pkce();
      const callback = await authorizeInBrowser(
        b,
        authorizePath({ client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256' }),
        { email: 'dina@example.com', password: PASSWORD },
        { decision: 'deny' },
      );
      assert.equal(callback.searchParams.get('error'), 'access_denied');
      assert.equal(callback.searchParams.get('state'), 'state-123');
      assert.equal(callback.searchParams.get('code'), null);
      const grants = await svc.store.db.selectFrom('oauth_grants').selectAll().where('client_id', '=', clientId).execute();
      assert.deepEqual(grants, []);
    });

    test('the consent page names the client, its redirect host and the access asked, and offers all projects or one', async () => {
      const b = await signedUpBrowser(svc, 'cora@example.com', PASSWORD);
      await b.createProject('Cora One', 'https://one.example.org');
      const clientId = await newClientId(svc, { client_name: 'Claude' });
      const { challenge } = pkce();
      const start = await b.get(authorizePath({ client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256' }));
      const consent = new URL(start.location!, ORIGIN);
      assert.equal(consent.pathname, '/consent');
      const page = await b.get(consent.pathname + consent.search);
      assert.equal(page.status, 200);
      assert.match(page.html, /<strong>Claude<\/strong> wants to read your Project Signals data/);
      assert.match(page.html, /<strong class="mono">127\.0\.0\.1:3999<\/strong>/);
      assert.match(page.html, /Read your projects: briefs, signals/);
      assert.match(page.html, /Stay connected for up to 30 days/);
      assert.match(page.html, /<option value="all">All my projects<\/option>/);
      assert.match(page.html, /<option value="prj_[a-z0-9]+">Only Cora One<\/option>/);
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
      assert.match(page.headers.get('content-security-policy') ?? '', /form-action 'self' http:\/\/127\.0\.0\.1:3999;/);
      assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    });
  });
}
