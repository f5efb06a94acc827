/**
 * Client ID Metadata Documents (DESIGN §11, src/auth/cimd.ts): a client whose client_id is an
 * https URL completes OAuth without registering, and the document decides where codes may go.
 *
 * The documents are served by a local HTTP server. The service reaches `https://client.test/…`
 * there through `fetchPublic` with that server allowed (as FETCH_ALLOW_HOSTS allows an intranet
 * host), so everything but TLS is the production path; any other URL goes through the
 * production fetcher unchanged, which is how the private-address refusal is tested.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { cacheLifetime, defaultMetadataFetch, isMetadataDocumentUrl, type MetadataFetch } from '../../src/auth/cimd.ts';
import { fetchPublic, parseAllowHosts } from '../../src/net/fetch.ts';
import { DIALECTS } from '../helpers/database.ts';
import { authorizeInBrowser, authorizePath, exchangeCode, ISSUER, locationOf, mcpCall, pkce, REDIRECT_URI, signedUpBrowser } from '../helpers/oauth.ts';
import { startService, type TestService } from '../helpers/service.ts';

const HOST = 'client.test';
const PASSWORD = 'correct horse';

/** What the local document server answers, per path; tests change it as they go. */
interface Served {
  status?: number;
  body: string;
  headers?: Record<string, string>;
}
const documents = new Map<string, Served>();
let fetches: string[] = [];

function documentFor(path: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    client_id: `https://${HOST}${path}`,
    client_name: 'CIMD Agent',
    client_uri: `https://${HOST}/`,
    redirect_uris: [REDIRECT_URI],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    ...overrides,
  };
}

function serve(path: string, doc: Record<string, unknown> | string, headers: Record<string, string> = { 'cache-control': 'no-cache' }, status = 200): string {
  documents.set(path, { status, body: typeof doc === 'string' ? doc : JSON.stringify(doc), headers: { 'content-type': 'application/json', ...headers } });
  return `https://${HOST}${path}`;
}

for (const dialect of DIALECTS) {
  describe(`Client ID Metadata Documents (${dialect})`, () => {
    let svc: TestService;
    let server: Server;
    let port = 0;

    before(async () => {
      server = createServer((req, res) => {
        const served = documents.get(req.url ?? '');
        if (!served) {
          res.writeHead(404).end('{}');
          return;
        }
        res.writeHead(served.status ?? 200, served.headers).end(served.body);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
      const allowHosts = parseAllowHosts(`127.0.0.1:${port}`);
      const production = defaultMetadataFetch();
      const metadataFetch: MetadataFetch = (url) => {
        fetches.push(url);
        const parsed = new URL(url);
        if (parsed.host !== HOST) return production(url);
        return fetchPublic(`http://127.0.0.1:${port}${parsed.pathname}${parsed.search}`, { allowHosts, maxRedirects: 0, maxBytes: 5_120, timeoutMs: 5_000 });
      };
      svc = await startService(dialect, { web: true, metadataFetch });
    });
    after(async () => {
      await svc.close();
      await new Promise((resolve) => server.close(resolve));
    });

    const authorize = async (email: string, clientId: string, redirectUri = REDIRECT_URI) => {
      const b = await signedUpBrowser(svc, email, PASSWORD);
      const { verifier, challenge } = pkce();
      const path = authorizePath({ client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256' });
      return { b, verifier, path };
    };
    /** The authorization request's first answer: where it sends the browser, if anywhere. */
    const firstAnswer = async (email: string, clientId: string, redirectUri = REDIRECT_URI) => {
      const { b, path } = await authorize(email, clientId, redirectUri);
      const res = await b.get(path);
      return { status: res.status, location: res.location ?? '', html: res.html };
    };

    test('the authorization server metadata advertises client_id_metadata_document_supported', async () => {
      for (const path of ['/.well-known/oauth-authorization-server/api/auth', '/api/auth/.well-known/oauth-authorization-server']) {
        const res = await svc.request(path);
        assert.equal(res.status, 200, path);
        assert.equal(res.body.client_id_metadata_document_supported, true, path);
        assert.equal(res.body.issuer, ISSUER);
      }
    });

    test('a client identified by its document signs in, is shown by its name, gets tokens and calls the MCP endpoint; the document is read, not registered', async () => {
      const clientId = serve('/happy/client.json', documentFor('/happy/client.json'));
      const { b, verifier, path } = await authorize('cimd-happy@example.com', clientId);
      const consentSeen: string[] = [];
      const original = b.get.bind(b);
      b.get = async (p: string) => {
        const page = await original(p);
        if (p.startsWith('/consent')) consentSeen.push(page.html);
        return page;
      };
      const callback = await authorizeInBrowser(b, path, { email: 'cimd-happy@example.com', password: PASSWORD });
      assert.equal(`${callback.origin}${callback.pathname}`, REDIRECT_URI);
      assert.match(consentSeen[0] ?? '', /CIMD Agent/, 'the consent page names the client from its document');
      const code = callback.searchParams.get('code')!;
      const tokens = await exchangeCode(svc, { clientId, code, verifier });
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      const call = await mcpCall(svc, tokens.body.access_token);
      assert.equal(call.status, 200);
      assert.equal(call.body.result.isError, undefined);
      const row = await svc.store.db.selectFrom('oauthClient').select(['clientId', 'name']).where('clientId', '=', clientId).executeTakeFirst();
      assert.deepEqual(row, { clientId, name: 'CIMD Agent' });
    });

    test('a redirect_uri the document does not list gets no code, and nothing is sent there', async () => {
      const clientId = serve('/strict/client.json', documentFor('/strict/client.json'));
      for (const evil of ['https://evil.example/callback', `${REDIRECT_URI}/`, REDIRECT_URI.replace(':3999', ':4000')]) {
        const res = await firstAnswer(`cimd-strict-${evil.length}@example.com`, clientId, evil);
        assert.ok(!res.location.startsWith(evil), `${evil} → ${res.status} ${res.location}`);
        assert.ok(!/[?&]code=/.test(res.location));
        assert.ok(!res.location.includes('evil.example'));
      }
    });

    test('a document that changes: its new redirect URIs apply once its cache lifetime is over, the old one is refused', async () => {
      const path = '/changing/client.json';
      const clientId = serve(path, documentFor(path));
      assert.equal((await firstAnswer('cimd-change-1@example.com', clientId)).status, 302);
      const moved = 'http://127.0.0.1:3999/new-callback';
      serve(path, documentFor(path, { redirect_uris: [moved], client_name: 'CIMD Agent v2' }));
      const old = await firstAnswer('cimd-change-2@example.com', clientId);
      assert.ok(!old.location.startsWith(REDIRECT_URI), `the removed redirect URI is refused: ${old.status} ${old.location}`);
      const { b, verifier, path: authorizeAt } = await authorize('cimd-change-3@example.com', clientId, moved);
      const callback = await authorizeInBrowser(b, authorizeAt, { email: 'cimd-change-3@example.com', password: PASSWORD });
      assert.equal(`${callback.origin}${callback.pathname}`, moved);
      const tokens = await exchangeCode(svc, { clientId, code: callback.searchParams.get('code')!, verifier, redirectUri: moved });
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      const row = await svc.store.db.selectFrom('oauthClient').select('name').where('clientId', '=', clientId).executeTakeFirstOrThrow();
      assert.equal(row.name, 'CIMD Agent v2');
    });

    test('within its cache lifetime a document is not fetched again', async () => {
      const path = '/cached/client.json';
      const clientId = serve(path, documentFor(path), { 'cache-control': 'max-age=3600' });
      fetches = [];
      assert.equal((await firstAnswer('cimd-cache-1@example.com', clientId)).status, 302);
      assert.equal((await firstAnswer('cimd-cache-2@example.com', clientId)).status, 302);
      assert.deepEqual(fetches, [clientId]);
    });

    test('refused: an http client_id, a private address, a document naming another client, a secret, a shared-secret method, no redirect URIs, too large, not JSON, 404, a redirect', async () => {
      const cases: [string, string, RegExp][] = [
        ['http client_id', 'http://client.test/plain/client.json', /invalid_client/],
        ['loopback', `https://127.0.0.1:${port}/x/client.json`, /127\.0\.0\.1 is not a public address/],
        ['private', 'https://10.0.0.7/client.json', /10\.0\.0\.7 is not a public address/],
        ['metadata address', 'https://169.254.169.254/latest/meta-data', /169\.254\.169\.254 is not a public address/],
        ['mapped IPv6 loopback', 'https://[::ffff:7f00:1]/client.json', /is not a public address/],
        ['decimal loopback (not in its URL form)', 'https://2130706433/client.json', /client_id URL must be https, with a path/],
        ['another client_id', serve('/other/client.json', documentFor('/other/client.json', { client_id: 'https://client.test/else.json' })), /names another client_id than its URL/],
        ['a secret', serve('/secret/client.json', documentFor('/secret/client.json', { client_secret: 'shh' })), /may not hold client_secret/],
        ['client_secret_basic', serve('/basic/client.json', documentFor('/basic/client.json', { token_endpoint_auth_method: 'client_secret_basic' })), /must use token_endpoint_auth_method \\?"none/],
        ['no redirect URIs', serve('/noredirect/client.json', documentFor('/noredirect/client.json', { redirect_uris: [] })), /lists no redirect_uris/],
        ['too large', serve('/large/client.json', documentFor('/large/client.json', { client_name: 'x'.repeat(6_000) })), /more than the 5120 bytes allowed/],
        ['not JSON', serve('/html/client.json', '<html>hello</html>'), /is not JSON/],
        ['404', 'https://client.test/missing/client.json', /answered HTTP 404/],
        ['a redirect', serve('/redirect/client.json', '', { location: 'https://client.test/happy/client.json' }, 302), /more than 0 redirects/],
        ['a fragment', 'https://client.test/happy/client.json#x', /client_id URL must be https, with a path/],
      ];
      for (const [index, [what, clientId, reason]] of cases.entries()) {
        const res = await firstAnswer(`cimd-refused-${index}@example.com`, clientId);
        assert.ok(!res.location.startsWith(REDIRECT_URI), `${what}: sent to the client: ${res.status} ${res.location}`);
        const text = res.location ? decodeURIComponent(locationOf({ location: res.location, html: '' }).search) : res.html;
        assert.match(text, /invalid_client/, `${what}: ${res.status} ${res.location} ${res.html.slice(0, 200)}`);
        assert.match(text, reason, `${what}: ${text.slice(0, 300)}`);
        const stored = await svc.store.db.selectFrom('oauthClient').select('clientId').where('clientId', '=', clientId).executeTakeFirst();
        assert.equal(stored, undefined, `${what}: no client stored`);
      }
    });
  });
}

test('a client_id URL is https, with a path, without a fragment or user information', () => {
  assert.equal(isMetadataDocumentUrl('https://client.test/client.json'), true);
  for (const bad of ['http://client.test/client.json', 'https://client.test/', 'https://client.test', 'https://u:p@client.test/c.json', 'https://client.test/c.json#f', 'not a url', 'https://client.test/a/../c.json']) {
    assert.equal(isMetadataDocumentUrl(bad), false, bad);
  }
});

test('cache lifetime from the HTTP caching headers', () => {
  assert.equal(cacheLifetime({}), 60);
  assert.equal(cacheLifetime({ 'cache-control': 'max-age=300' }), 300);
  assert.equal(cacheLifetime({ 'cache-control': 'public, max-age=999999' }), 86_400);
  assert.equal(cacheLifetime({ 'cache-control': 'no-store' }), 0);
  assert.equal(cacheLifetime({ 'cache-control': 'max-age=600, no-cache' }), 0);
  assert.equal(cacheLifetime({ date: 'Wed, 25 Nov 2026 10:00:00 GMT', expires: 'Wed, 25 Nov 2026 10:10:00 GMT' }), 600);
  assert.equal(cacheLifetime({ date: 'Wed, 25 Nov 2026 10:00:00 GMT', expires: 'Wed, 25 Nov 2026 09:00:00 GMT' }), 0);
});
