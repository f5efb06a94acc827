/**
 * DESIGN §7: CSRF tokens and same-origin checks on every form post, headers on every page,
 * cookie attributes, one user's keys out of another's reach, no secret in any log line.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { openAuth } from '../../src/auth/better-auth.ts';
import { createApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/logger.ts';
import { authSecret } from '../../src/store/settings.ts';
import { CSP } from '../../src/web/security.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { capturedLogger } from '../helpers/logs.ts';
import { Browser, csrfOf, keyRows, ORIGIN, revokeActions } from './browser.ts';

const EXPECTED_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

for (const dialect of DIALECTS) {
  describe(`web dashboard, security (${dialect})`, () => {
    let svc: TestService;
    const { logger, lines: logLines } = capturedLogger('debug');
    const count = async (table: 'api_keys' | 'projects') =>
      Number((await svc.store.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    before(async () => {
      svc = await startService(dialect, { web: true, logger });
    });
    after(() => svc.close());

    test('every page, redirect and refusal carries XFO DENY, the strict CSP, no-store, nosniff', async () => {
      assert.equal(CSP, EXPECTED_CSP);
      const b = new Browser(svc);
      const seen = [await b.get('/login'), await b.get('/signup'), await b.get('/dashboard'), await b.post('/login', {}, { origin: 'http://evil.example' })];
      await b.signUp('hana@example.com', 'hana-password');
      seen.push(await b.get('/dashboard'), await b.get('/logout'));
      assert.deepEqual(seen.map((p) => p.status), [200, 200, 303, 403, 200, 200]);
      for (const page of seen) {
        assert.equal(page.headers.get('x-frame-options'), 'DENY');
        assert.equal(page.headers.get('content-security-policy'), EXPECTED_CSP);
        assert.equal(page.headers.get('cache-control'), 'no-store');
        assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
        assert.equal(page.headers.get('referrer-policy'), 'same-origin');
      }
      // No inline script or style for the CSP to trip on.
      const dash = seen[4]!.html;
      assert.doesNotMatch(dash, /<script>|<style|style="|onclick=/);
    });

    test('cookies: session and pre-session CSRF cookies are HttpOnly, SameSite=Lax, not Secure on http', async () => {
      const b = new Browser(svc);
      const login = await b.get('/login');
      const csrfCookie = login.setCookies.find((c) => c.startsWith('signals_csrf='));
      assert.ok(csrfCookie);
      assert.match(csrfCookie, /; HttpOnly/);
      assert.match(csrfCookie, /; SameSite=Lax/);
      assert.doesNotMatch(csrfCookie, /Secure/);
      const signup = await b.signUp('ivan@example.com', 'ivan-password');
      const session = signup.setCookies.find((c) => c.startsWith('better-auth.session_token='));
      assert.ok(session);
      assert.match(session, /; HttpOnly/);
      assert.match(session, /; SameSite=Lax/);
      assert.doesNotMatch(session, /Secure/);
    });

    test('with an https PUBLIC_URL the cookies are Secure (__Secure- and __Host- names)', async () => {
      const publicUrl = 'https://signals.example.com';
      const auth = await openAuth(svc.store, { secret: await authSecret(svc.store), publicUrl });
      const app = createApp({ store: svc.store, logger: createLogger('silent'), lastUsed: svc.lastUsed, auth, config: { publicUrl, host: '127.0.0.1' } });
      const page = await app.request('/signup');
      const csrfCookie = page.headers.getSetCookie().find((c) => c.startsWith('__Host-signals_csrf='));
      assert.ok(csrfCookie);
      assert.match(csrfCookie, /; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
      const token = csrfOf(await page.text());
      const res = await app.request('/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: publicUrl, cookie: csrfCookie.split(';')[0]! },
        body: new URLSearchParams({ email: 'jon@example.com', password: 'jon-password', confirm: 'jon-password', csrf: token }).toString(),
      });
      assert.equal(res.status, 303);
      const session = res.headers.getSetCookie().find((c) => c.startsWith('__Secure-better-auth.session_token='));
      assert.ok(session, res.headers.getSetCookie().join(' | '));
      assert.match(session, /; HttpOnly/);
      assert.match(session, /; Secure/);
      assert.match(session, /; SameSite=Lax/);
      // The same post from the http origin is cross-origin here.
      const cross = await app.request('/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://signals.example.com', cookie: csrfCookie.split(';')[0]! },
        body: new URLSearchParams({ email: 'kim@example.com', password: 'kim-password', confirm: 'kim-password', csrf: token }).toString(),
      });
      assert.equal(cross.status, 403);
    });

    test('dashboard posts without, with a wrong or with another session\'s CSRF token: 403, nothing created', async () => {
      const a = new Browser(svc);
      await a.signUp('lena@example.com', 'lena-password');
      const other = new Browser(svc);
      await other.signUp('milo@example.com', 'milo-password');
      const otherToken = csrfOf((await other.get('/dashboard')).html);
      const mine = csrfOf((await a.get('/dashboard')).html);
      assert.notEqual(mine, otherToken);
      // A live key and a connected app of lena's, for the two revoke forms.
      const lena = (await svc.store.db.selectFrom('user').select('id').where('email', '=', 'lena@example.com').executeTakeFirstOrThrow()).id;
      const key = await createApiKey(svc.store.db, { userId: lena, projectId: null, name: 'kept' });
      await svc.store.db.insertInto('oauth_grants').values({ user_id: lena, client_id: 'client_kept', project_id: null, created_at: '2026-11-20T00:00:00.000Z', updated_at: '2026-11-20T00:00:00.000Z' }).execute();
      const keys = await count('api_keys');
      const projects = await count('projects');
      for (const csrf of [undefined, '', 'x'.repeat(mine.length), otherToken]) {
        for (const [path, fields] of [
          ['/dashboard/keys', { name: 'k', project: '' }],
          ['/dashboard/projects', { name: 'P', url: 'https://p.example', category: '' }],
          [`/dashboard/keys/${key.id}/revoke`, {}],
          ['/dashboard/apps/client_kept/revoke', {}],
          ['/logout', {}],
        ] as const) {
          const res = await a.post(path, csrf === undefined ? fields : { ...fields, csrf });
          assert.equal(res.status, 403, `${path} with ${csrf}`);
          assert.match(res.html, /This form was sent from another site or has expired/);
        }
      }
      assert.equal(await count('api_keys'), keys);
      assert.equal(await count('projects'), projects);
      assert.equal((await svc.invoke(key.key, { capability: 'project.list' })).status, 200, 'the key survived the refused revokes');
      assert.ok(await svc.store.db.selectFrom('oauth_grants').select('client_id').where('client_id', '=', 'client_kept').executeTakeFirst(), 'so did the app');
      assert.equal((await a.get('/dashboard')).status, 200, 'still signed in: the refused logout did nothing');
    });

    test('cross-origin posts (Origin evil, Origin null, Referer evil) are refused even with the right token', async () => {
      const b = new Browser(svc);
      await b.signUp('nora@example.com', 'nora-password');
      const token = csrfOf((await b.get('/dashboard')).html);
      const keys = await count('api_keys');
      for (const options of [{ origin: 'http://evil.example' }, { origin: 'null' }, { origin: 'http://localhost:8081' }, { origin: null, referer: 'http://evil.example/page' }]) {
        const res = await b.post('/dashboard/keys', { name: 'k', project: '', csrf: token }, options);
        assert.equal(res.status, 403, JSON.stringify(options));
      }
      assert.equal(await count('api_keys'), keys);
      // A same-origin Referer without Origin passes.
      const ok = await b.post('/dashboard/keys', { name: 'k', project: '', csrf: token }, { origin: null, referer: `${ORIGIN}/dashboard` });
      assert.equal(ok.status, 303);
    });

    test('sign-in and sign-up need the double-submit cookie and its matching field', async () => {
      const fresh = new Browser(svc);
      const noCookie = await fresh.post('/login', { email: 'nora@example.com', password: 'nora-password', csrf: 'a'.repeat(32) });
      assert.equal(noCookie.status, 403);
      const b = new Browser(svc);
      const token = csrfOf((await b.get('/login')).html);
      // Flip the last character to a different one (a fixed 'x' would equal it one time in 64).
      const altered = `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`;
      const mismatch = await b.post('/login', { email: 'nora@example.com', password: 'nora-password', csrf: altered });
      assert.equal(mismatch.status, 403);
      const crossSignup = await b.post('/signup', { email: 'otto@example.com', password: 'otto-password', confirm: 'otto-password', csrf: token }, { origin: 'http://evil.example' });
      assert.equal(crossSignup.status, 403);
      assert.ok(!b.cookies.has('better-auth.session_token'));
      const ok = await b.post('/login', { email: 'nora@example.com', password: 'nora-password', csrf: token });
      assert.equal(ok.status, 303);
    });

    test('ten failed sign-ins lock that account out for a while (429, Retry-After), even with the right password; others are unaffected', async () => {
      const victim = new Browser(svc);
      await victim.signUp('locked@example.com', 'the-right-password');
      const attacker = new Browser(svc);
      for (let i = 0; i < 10; i++) {
        const res = await attacker.logIn('Locked@Example.com', `guess-${i}`);
        assert.equal(res.status, 401, `attempt ${i + 1}`);
      }
      const blocked = await attacker.logIn('locked@example.com', 'the-right-password');
      assert.equal(blocked.status, 429);
      assert.ok(Number(blocked.headers.get('retry-after')) > 800);
      assert.match(blocked.html, /Too many failed sign-ins for this account\. Try again in 15 minutes\./);
      assert.ok(!blocked.setCookies.some((c) => c.startsWith('better-auth.session_token=')), 'no session');
      const other = new Browser(svc);
      await other.signUp('fine@example.com', 'another-password');
      const fresh = new Browser(svc);
      assert.equal((await fresh.logIn('fine@example.com', 'another-password')).status, 303);
    });

    test('sign-in never redirects off-site, whatever `next` says', async () => {
      for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', '/ok path']) {
        const b = new Browser(svc);
        const page = await b.get(`/login?next=${encodeURIComponent(next)}`);
        assert.match(page.html, /name="next" value="\/dashboard"/, next);
        const res = await b.post('/login', { email: 'nora@example.com', password: 'nora-password', next, csrf: csrfOf(page.html) });
        assert.equal(res.status, 303);
        assert.equal(res.location, '/dashboard', next);
      }
    });

    test('a user cannot revoke (or see) another user\'s key; the key keeps working', async () => {
      const a = new Browser(svc);
      await a.signUp('pia@example.com', 'pia-password');
      await a.createProject('Pia', 'https://pia.example');
      const key = await a.createKey('pia key');
      const [action] = revokeActions((await a.get('/dashboard')).html);
      const b = new Browser(svc);
      await b.signUp('quinn@example.com', 'quinn-password');
      const bDash = await b.get('/dashboard');
      assert.deepEqual(keyRows(bDash.html), []);
      const res = await b.post(action!, { csrf: csrfOf(bDash.html) });
      assert.equal(res.status, 404);
      assert.ok(res.html.includes('No such key.'));
      const still = await svc.invoke(key, { capability: 'project.memory' });
      assert.equal(still.status, 200);
      assert.equal(still.body.data.memory.name, 'Pia');
      assert.deepEqual(keyRows((await a.get('/dashboard')).html), [['pia key', 'all projects', `…${key.slice(-4)}`, 'never']]);
    });

    test('user text is escaped on the page', async () => {
      const b = new Browser(svc);
      await b.signUp('rita@example.com', 'rita-password');
      await b.createProject('<script>alert(1)</script>', 'https://x.example/"><img/src=x>');
      const html = (await b.get('/dashboard')).html;
      assert.ok(html.includes('>&lt;script&gt;alert(1)&lt;/script&gt;</a></td>'));
      assert.ok(!html.includes('<script>alert(1)'));
      assert.ok(!html.includes('"><img'));
    });

    test('better-auth\'s own endpoints are mounted and refuse other origins', async () => {
      const b = new Browser(svc);
      await b.signUp('sam@example.com', 'sam-password');
      const session = await svc.request('/api/auth/get-session', { headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
      assert.equal(session.status, 200);
      assert.equal(session.body.user.email, 'sam@example.com');
      const cross = await svc.request('/api/auth/sign-in/email', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://evil.example', cookie: 'x=1' },
        body: JSON.stringify({ email: 'sam@example.com', password: 'sam-password' }),
      });
      assert.equal(cross.status, 403);
    });

    test('no password, key, session token or CSRF token in any log line', async () => {
      const b = new Browser(svc);
      await b.signUp('tess@example.com', 'tess-secret-password');
      const failed = await new Browser(svc).logIn('tess@example.com', 'wrong-secret-password');
      assert.equal(failed.status, 401);
      await b.createProject('Tess', 'https://tess.example');
      const key = await b.createKey('tess key');
      await svc.invoke(key, { capability: 'project.memory' });
      const token = csrfOf((await b.get('/dashboard')).html);
      const session = b.cookies.get('better-auth.session_token')!;
      const text = logLines.join('\n');
      assert.ok(logLines.length > 5, 'requests were logged');
      assert.match(text, /"path":"\/dashboard\/keys"/);
      for (const secret of ['tess-secret-password', 'wrong-secret-password', key, token, session, decodeURIComponent(session).split('.')[0]!]) {
        assert.ok(!text.includes(secret), `log holds ${secret.slice(0, 6)}…`);
      }
    });
  });
}
