/**
 * The attacks of RFC 9700 (OAuth 2.0 Security BCP) and the MCP security guidance, each refused:
 * redirect-URI tampering, code replay (its tokens revoked), PKCE missing / plain / wrong,
 * refresh-token replay (the family revoked), tokens for another audience or without the scope,
 * forged or framed consent, dangerous redirect URIs at registration, secrets in logs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateKeyPair, SignJWT } from 'jose';
import { signJWT } from 'better-auth/plugins';
import { capturedLogger } from '../helpers/logs.ts';
import {
  authorizeInBrowser,
  authorizePath,
  connectClient,
  decode,
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
  tokenRequest,
} from '../helpers/oauth.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { Browser, csrfOf, ORIGIN } from '../web/browser.ts';

const PASSWORD = 'correct horse';

/** A JWT signed with the service's own signing key, with whatever claims a test needs. */
async function mint(svc: TestService, claims: Record<string, unknown>, header: Record<string, unknown> = { typ: 'at+jwt' }): Promise<string> {
  const context = await svc.auth.$context;
  const now = Math.floor(Date.now() / 1000);
  return signJWT({ context } as never, {
    options: { jwt: { issuer: ISSUER, audience: MCP_RESOURCE } },
    payload: { iat: now, exp: now + 600, ...claims },
    header,
  } as never);
}

for (const dialect of DIALECTS) {
  describe(`OAuth for MCP clients, security (${dialect})`, () => {
    let svc: TestService;
    let log: ReturnType<typeof capturedLogger>;
    let b: Browser;
    const email = 'ivy@example.com';
    before(async () => {
      log = capturedLogger('trace');
      svc = await startService(dialect, { web: true, logger: log.logger });
      b = await signedUpBrowser(svc, email, PASSWORD);
    });
    after(() => svc.close());

    test('redirect-URI tampering (trailing slash, case, extra query, userinfo, other port, other host) is never redirected to', async () => {
      const clientId = await newClientId(svc);
      const { challenge } = pkce();
      for (const tampered of [
        `${REDIRECT_URI}/`,
        REDIRECT_URI.replace('callback', 'Callback'),
        `${REDIRECT_URI}?next=https://evil.example`,
        REDIRECT_URI.replace('http://', 'http://evil@'),
        REDIRECT_URI.replace(':3999', ':4000'),
        REDIRECT_URI.replace('127.0.0.1', 'evil.example'),
        'https://evil.example/callback',
      ]) {
        const res = await b.get(authorizePath({ client_id: clientId, redirect_uri: tampered, code_challenge: challenge, code_challenge_method: 'S256' }));
        const location = res.location ?? '';
        assert.ok(!location.startsWith(tampered.split('?')[0]!), `${tampered} → ${res.status} ${location}`);
        assert.ok(!/[?&]code=/.test(location), `no code for ${tampered}`);
        assert.ok(!location.includes('evil.example'), `nothing sent to evil.example for ${tampered}`);
      }
    });

    test('the code exchange needs the exact redirect URI the code was issued for', async () => {
      const clientId = await newClientId(svc);
      const { verifier, challenge } = pkce();
      const callback = await authorizeInBrowser(b, authorizePath({ client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256' }), { email, password: PASSWORD });
      const code = callback.searchParams.get('code')!;
      const wrong = await exchangeCode(svc, { clientId, code, verifier, redirectUri: `${REDIRECT_URI}/` });
      assert.equal(wrong.status, 400, JSON.stringify(wrong.body));
      assert.equal(wrong.body.error, 'invalid_grant');
    });

    test('code replay: the second exchange fails and the tokens of the first are revoked, JWT included', async () => {
      const first = await connectClient(svc, b, { email, password: PASSWORD });
      assert.equal((await mcpCall(svc, first.tokens.access_token)).status, 200);
      const replay = await exchangeCode(svc, { clientId: first.clientId, code: first.code, verifier: first.verifier });
      assert.equal(replay.status, 400);
      assert.equal(replay.body.error, 'invalid_grant');
      const mcp = await mcpCall(svc, first.tokens.access_token);
      assert.equal(mcp.status, 401, 'the access token from the replayed code no longer works');
      assert.match(mcp.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
      assert.equal((await refreshTokens(svc, first.clientId, first.tokens.refresh_token)).status, 400, 'nor its refresh token');
    });

    test('PKCE: missing, `plain` or without a method is refused at authorize; a wrong or missing verifier at the token endpoint', async () => {
      const clientId = await newClientId(svc);
      const { verifier, challenge } = pkce();
      const cases: Record<string, string>[] = [{}, { code_challenge: verifier, code_challenge_method: 'plain' }, { code_challenge: challenge }];
      for (const params of cases) {
        const res = await b.get(authorizePath({ client_id: clientId, redirect_uri: REDIRECT_URI, ...params }));
        const location = new URL(res.location ?? '', ORIGIN);
        assert.equal(`${location.origin}${location.pathname}`, REDIRECT_URI, JSON.stringify(params));
        assert.equal(location.searchParams.get('error'), 'invalid_request', JSON.stringify(params));
        assert.equal(location.searchParams.get('code'), null);
        assert.equal(location.searchParams.get('iss'), ISSUER);
      }
      for (const badVerifier of [pkce().verifier, undefined]) {
        const callback = await authorizeInBrowser(b, authorizePath({ client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256' }), { email, password: PASSWORD });
        const code = callback.searchParams.get('code')!;
        const res = await tokenRequest(svc, {
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT_URI,
          client_id: clientId,
          ...(badVerifier ? { code_verifier: badVerifier } : {}),
        });
        // better-auth answers a failed PKCE check 401 `invalid_request` (RFC 6749 §5.2 would say
        // 400 `invalid_grant`); either way no token is issued.
        assert.ok([400, 401].includes(res.status), `${res.status} ${JSON.stringify(res.body)}`);
        assert.ok(['invalid_grant', 'invalid_request'].includes(res.body.error), res.body.error);
        assert.equal(res.body.access_token, undefined);
      }
    });

    test('refresh-token replay after rotation revokes the whole family, access tokens included', async () => {
      const { clientId, tokens } = await connectClient(svc, b, { email, password: PASSWORD });
      const rotated = await refreshTokens(svc, clientId, tokens.refresh_token);
      assert.equal(rotated.status, 200);
      assert.equal((await mcpCall(svc, rotated.body.access_token)).status, 200);
      const replay = await refreshTokens(svc, clientId, tokens.refresh_token);
      assert.equal(replay.status, 400);
      assert.equal(replay.body.error, 'invalid_grant');
      assert.equal((await refreshTokens(svc, clientId, rotated.body.refresh_token)).status, 400, 'the rotated-to token is revoked too');
      assert.equal((await mcpCall(svc, rotated.body.access_token)).status, 401, 'and the access tokens of the family');
      assert.equal((await mcpCall(svc, tokens.access_token)).status, 401);
    });

    test('a refresh token works only for the client it was issued to', async () => {
      const mine = await connectClient(svc, b, { email, password: PASSWORD });
      const otherClient = await newClientId(svc);
      const stolen = await refreshTokens(svc, otherClient, mine.tokens.refresh_token);
      assert.equal(stolen.status, 400);
      assert.equal(stolen.body.access_token, undefined);
    });

    test('another audience: asking for another resource is refused; a token for one is refused by /api/mcp', async () => {
      const clientId = await newClientId(svc);
      const { challenge } = pkce();
      const res = await b.get(authorizePath({ client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256', resource: 'https://api.other.example/mcp' }));
      const location = new URL(res.location ?? '', ORIGIN);
      assert.equal(location.searchParams.get('code'), null);
      assert.equal(location.searchParams.get('error'), 'invalid_target');

      const { clientId: live, tokens } = await connectClient(svc, b, { email, password: PASSWORD });
      const exchange = await tokenRequest(svc, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: live, resource: 'https://api.other.example/mcp' });
      assert.equal(exchange.status, 400, JSON.stringify(exchange.body));

      const sub = (await svc.store.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
      const good = { sub, azp: live, client_id: live, scope: 'signals:read offline_access' };
      const sid = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()).sid;
      assert.equal((await mcpCall(svc, await mint(svc, { ...good, sid }))).status, 200, 'the minting helper makes tokens the endpoint accepts');
      for (const [why, token] of [
        ['another audience', await mint(svc, { ...good, sid, aud: 'https://api.other.example/mcp' })],
        ['the HTTP API as audience', await mint(svc, { ...good, sid, aud: `${ORIGIN}/api/v1/invoke` })],
        ['another issuer', await mint(svc, { ...good, sid, iss: 'https://evil.example/api/auth' })],
        ['expired', await mint(svc, { ...good, sid, iat: 1_000_000, exp: 1_000_600 })],
        ['not an access token (typ JWT)', await mint(svc, { ...good, sid }, { typ: 'JWT' })],
        ['no grant behind it', await mint(svc, { ...good, sid, azp: 'unknown-client', client_id: 'unknown-client' })],
        ['signed by another key', await foreignToken({ ...good, sid })],
      ] as const) {
        const res = await mcpCall(svc, token);
        assert.equal(res.status, 401, why);
        assert.match(res.headers.get('www-authenticate') ?? '', /error="invalid_token"/, why);
      }
      const noScope = await mcpCall(svc, await mint(svc, { ...good, sid, scope: 'offline_access' }));
      assert.equal(noScope.status, 403);
      assert.match(noScope.headers.get('www-authenticate') ?? '', /error="insufficient_scope"/);

      // The HTTP API takes API keys only, never OAuth access tokens.
      const viaApi = await svc.invoke(tokens.access_token, { capability: 'project.list' });
      assert.equal(viaApi.status, 403);
      assert.equal(viaApi.body.error.code, 'forbidden');
    });

    test('consent forged without the CSRF token, with another token, or from another origin is refused and grants nothing', async () => {
      const clientId = await newClientId(svc, { client_name: 'Forged' });
      const { challenge } = pkce();
      const start = await b.get(authorizePath({ client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256' }));
      const consentUrl = new URL(start.location!, ORIGIN);
      assert.equal(consentUrl.pathname, '/consent');
      const page = await b.get(consentUrl.pathname + consentUrl.search);
      const oauthQuery = decode(/name="oauth_query" value="([^"]+)"/.exec(page.html)![1]!);
      const fields = { oauth_query: oauthQuery, project: 'all', decision: 'allow' };
      for (const [why, res] of [
        ['no CSRF token', await b.post('/consent', fields)],
        ['a wrong CSRF token', await b.post('/consent', { ...fields, csrf: 'x'.repeat(43) })],
        ['another origin', await b.post('/consent', { ...fields, csrf: csrfOf(page.html) }, { origin: 'https://evil.example' })],
        ['another site as referer, no origin', await b.post('/consent', { ...fields, csrf: csrfOf(page.html) }, { origin: null, referer: 'https://evil.example/page' })],
        ['another user (no session)', await new Browser(svc).post('/consent', { ...fields, csrf: csrfOf(page.html) })],
      ] as const) {
        assert.ok(res.status === 403 || (res.status === 303 && res.location?.startsWith('/login')), `${why}: ${res.status}`);
        assert.ok(!(res.location ?? '').includes('code='), why);
      }
      const grants = await svc.store.db.selectFrom('oauth_grants').selectAll().where('client_id', '=', clientId).execute();
      assert.deepEqual(grants, []);
      // A tampered authorization request is refused even with a valid CSRF token.
      const tampered = oauthQuery.replace(encodeURIComponent(REDIRECT_URI), encodeURIComponent('http://127.0.0.1:4000/callback'));
      const res = await b.post('/consent', { ...fields, oauth_query: tampered, csrf: csrfOf(page.html) });
      assert.equal(res.status, 403);
      assert.ok(!(res.location ?? '').includes('code='));
    });

    test('the consent and sign-in pages cannot be framed; a crafted consent link names no unregistered host', async () => {
      const clientId = await newClientId(svc, { client_name: 'Framed' });
      const { challenge } = pkce();
      const start = await b.get(authorizePath({ client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256' }));
      const consent = await b.get(start.location!);
      const login = await new Browser(svc).get(`/login${new URL(start.location!, ORIGIN).search}`);
      for (const page of [consent, login]) {
        assert.equal(page.status, 200);
        assert.equal(page.headers.get('x-frame-options'), 'DENY');
        assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
        assert.match(page.headers.get('content-security-policy') ?? '', /form-action 'self' http:\/\/127\.0\.0\.1:3999;/);
      }
      const search = new URL(start.location!, ORIGIN).searchParams;
      search.set('redirect_uri', 'https://evil.example/callback');
      const crafted = await b.get(`/consent?${search}`);
      assert.equal(crafted.status, 403);
      assert.ok(!crafted.html.includes('evil.example'));
      assert.doesNotMatch(crafted.headers.get('content-security-policy') ?? '', /evil/);
    });

    test('open registration refuses javascript:, data:, fragment and userinfo redirect URIs', async () => {
      for (const uri of [
        'javascript:alert(1)',
        'JavaScript://127.0.0.1/%0aalert(1)',
        'data:text/html,<script>alert(1)</script>',
        `${REDIRECT_URI}#fragment`,
        `${REDIRECT_URI}#`,
        'https://user:secret@client.example/callback',
        'not a uri',
      ]) {
        const res = await registerClient(svc, { redirect_uris: [uri] });
        assert.equal(res.status, 400, `${uri}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error, 'invalid_redirect_uri', uri);
        assert.equal(res.body.client_id, undefined);
      }
      const mixed = await registerClient(svc, { redirect_uris: [REDIRECT_URI, 'javascript:alert(1)'] });
      assert.equal(mixed.status, 400, 'one bad URI refuses the registration');
    });

    test('no password, key, code, verifier or token appears in any log line', async () => {
      const secretsEmail = 'quinn@example.com';
      const secretPassword = 'log-canary-password-42';
      const q = await signedUpBrowser(svc, secretsEmail, secretPassword);
      const apiKey = await q.createKey('log canary');
      await q.get('/logout');
      const fresh = new Browser(svc);
      const flow = await connectClient(svc, fresh, { email: secretsEmail, password: secretPassword });
      const rotated = await refreshTokens(svc, flow.clientId, flow.tokens.refresh_token);
      await refreshTokens(svc, flow.clientId, flow.tokens.refresh_token); // a replay, which is logged as a failure
      await exchangeCode(svc, { clientId: flow.clientId, code: flow.code, verifier: flow.verifier });
      await mcpCall(svc, rotated.body.access_token);
      await mcpCall(svc, apiKey);
      await svc.invoke(apiKey, { capability: 'project.list' });
      await fresh.post('/login', { email: secretsEmail, password: 'wrong-canary-password', csrf: 'x' });
      const text = log.lines.join('\n');
      assert.ok(log.lines.length > 10, 'the flow was logged');
      for (const [what, secret] of [
        ['password', secretPassword],
        ['wrong password', 'wrong-canary-password'],
        ['API key', apiKey],
        ['code', flow.code],
        ['code verifier', flow.verifier],
        ['access token', flow.tokens.access_token],
        ['access token signature', flow.tokens.access_token.split('.')[2]!],
        ['refresh token', flow.tokens.refresh_token],
        ['rotated refresh token', rotated.body.refresh_token],
      ] as const) {
        assert.ok(!text.includes(secret), `a ${what} was logged`);
      }
    });
  });
}

/** A well-formed access token signed by a key that is not the service's. */
async function foreignToken(claims: Record<string, unknown>): Promise<string> {
  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  return new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: 'foreign' }).setIssuer(ISSUER).setAudience(MCP_RESOURCE).setIssuedAt().setExpirationTime('10m').sign(privateKey);
}
