/**
 * DESIGN §7, first increment: sign up, create projects and keys on the dashboard, use a key,
 * see it listed (last four, last use), revoke it, sign out and back in.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { findUserByEmail } from '../../src/auth/users.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { Browser, keyRows, revokeActions } from './browser.ts';

for (const dialect of DIALECTS) {
  describe(`web dashboard, happy paths (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startService(dialect, { web: true });
    });
    after(() => svc.close());

    test('sign up, projects, tied and untied keys that work, last use, revoke, sign out, sign in', async () => {
      const b = new Browser(svc);
      const signup = await b.signUp('Dana@Example.com', 'correct horse');
      assert.ok([...b.cookies.keys()].includes('better-auth.session_token'), 'a session cookie');
      assert.ok(signup.setCookies.some((c) => c.startsWith('better-auth.session_token=')));
      const user = await findUserByEmail(svc.store, 'dana@example.com');
      assert.ok(user);
      assert.equal(user.email, 'dana@example.com');

      let dash = await b.get('/dashboard');
      assert.equal(dash.status, 200);
      assert.equal(dash.headers.get('content-type'), 'text/html; charset=UTF-8');
      assert.match(dash.html, /^<!doctype html><html lang="en">/);
      assert.match(dash.html, /<span class="muted">dana@example.com <\/span>/);
      assert.match(dash.html, /value="http:\/\/localhost:8080\/api\/mcp"/);
      assert.match(dash.html, /No projects yet\./);
      assert.match(dash.html, /No API keys yet\./);

      await b.createProject('Gamma', 'https://gamma.example.net', 'Analytics');
      await b.createProject('Delta', 'http://delta.example.io');
      const rows = await svc.store.db.selectFrom('projects').select(['id', 'name', 'url', 'category', 'memory_status', 'owner_id']).where('owner_id', '=', user.id).orderBy('name').execute();
      assert.deepEqual(
        rows.map(({ id: _id, ...r }) => r),
        [
          { name: 'Delta', url: 'http://delta.example.io', category: '', memory_status: 'pending', owner_id: user.id },
          { name: 'Gamma', url: 'https://gamma.example.net', category: 'Analytics', memory_status: 'pending', owner_id: user.id },
        ],
      );
      const gamma = rows.find((r) => r.name === 'Gamma')!;
      const delta = rows.find((r) => r.name === 'Delta')!;
      dash = await b.get('/dashboard');
      assert.match(dash.html, new RegExp(`<td><a href="/projects/${gamma.id}">Gamma</a></td><td class="mono">https://gamma.example.net</td><td data-label="Memory"><span class="status pending" title="[^"]+">pending</span></td>`));
      assert.match(dash.html, new RegExp(`<option value="${gamma.id}">Gamma</option>`));

      // Untied key: any of the user's projects. Tied key: Gamma only.
      const untied = await b.createKey('laptop');
      const tied = await b.createKey('gamma only', gamma.id);
      assert.notEqual(untied, tied);

      const viaUntied = await svc.invoke(untied, { capability: 'project.memory', project: 'delta.example' });
      assert.equal(viaUntied.status, 200, JSON.stringify(viaUntied.body));
      assert.deepEqual(viaUntied.body.data.memory, {
        id: delta.id, name: 'Delta', url: 'http://delta.example.io', category: '', description: '', idealCustomer: '',
        competitors: [], offerings: [], communities: [], filterRules: [], memoryStatus: 'pending', memoryRefreshRequestedAt: null,
      });
      const untiedGamma = await svc.invoke(untied, { capability: 'project.memory', project: 'gamma', input: { field: 'product' } });
      assert.equal(untiedGamma.status, 200, JSON.stringify(untiedGamma.body));
      assert.equal(untiedGamma.body.data.memory.id, gamma.id);
      const viaTied = await svc.invoke(tied, { capability: 'project.memory', input: { field: 'product' } });
      assert.equal(viaTied.status, 200, JSON.stringify(viaTied.body));
      assert.deepEqual(viaTied.body.data, { memory: { id: gamma.id, name: 'Gamma', url: 'https://gamma.example.net', description: '', category: 'Analytics' }, field: 'product' });

      // Listed newest first with the last four characters; last use shows after the flush.
      dash = await b.get('/dashboard');
      assert.deepEqual(keyRows(dash.html), [
        ['gamma only', 'Gamma', `…${tied.slice(-4)}`, 'never'],
        ['laptop', 'all projects', `…${untied.slice(-4)}`, 'never'],
      ]);
      assert.ok(!dash.html.includes(untied) && !dash.html.includes(tied), 'a listed key is never shown in full');
      await svc.lastUsed.flush();
      dash = await b.get('/dashboard');
      assert.deepEqual(keyRows(dash.html), [
        ['gamma only', 'Gamma', `…${tied.slice(-4)}`, 'used'],
        ['laptop', 'all projects', `…${untied.slice(-4)}`, 'used'],
      ]);
      assert.match(dash.html, /<td data-label="Created">\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC<\/td><td data-label="Last used">\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC<\/td>/);

      // Revoke the untied key (second row): refused at once, the tied one still works.
      const [, revokeUntied] = revokeActions(dash.html);
      const revoked = await b.post(revokeUntied!, { csrf: /name="csrf" value="([^"]+)"/.exec(dash.html)![1]! });
      assert.equal(revoked.status, 303);
      assert.equal(revoked.location, '/dashboard');
      const refused = await svc.invoke(untied, { capability: 'project.memory', project: 'gamma' });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.code, 'forbidden');
      assert.equal((await svc.invoke(tied, { capability: 'project.memory' })).body.data.memory.id, gamma.id);
      dash = await b.get('/dashboard');
      assert.deepEqual(keyRows(dash.html), [['gamma only', 'Gamma', `…${tied.slice(-4)}`, 'used']]);

      // Sign out: the session ends, the dashboard asks for sign-in; signing in brings it back.
      const out = await b.submit('/logout', '/logout', {});
      assert.equal(out.status, 303);
      assert.equal(out.location, '/login');
      assert.ok(!b.cookies.has('better-auth.session_token'), 'session cookie cleared');
      const gone = await b.get('/dashboard');
      assert.equal(gone.status, 303);
      assert.equal(gone.location, '/login?next=/dashboard');
      const login = await b.logIn('dana@example.com', 'correct horse');
      assert.equal(login.status, 303);
      assert.equal(login.location, '/dashboard');
      assert.equal((await b.get('/dashboard')).status, 200);
    });

    test('sign-in goes to a local `next` path; pages for a signed-in user skip the forms', async () => {
      const b = new Browser(svc);
      await b.signUp('erin@example.com', 'erin-password');
      const signupAgain = await b.get('/signup');
      assert.equal(signupAgain.status, 303);
      assert.equal(signupAgain.location, '/dashboard');
      await b.submit('/logout', '/logout', {});
      const page = await b.get('/login?next=/dashboard%3Ftab%3Dkeys');
      assert.match(page.html, /name="next" value="\/dashboard\?tab=keys"/);
      const login = await b.post('/login', { email: 'erin@example.com', password: 'erin-password', next: '/dashboard?tab=keys', csrf: /name="csrf" value="([^"]+)"/.exec(page.html)![1]! });
      assert.equal(login.status, 303);
      assert.equal(login.location, '/dashboard?tab=keys');
      const root = await b.get('/');
      assert.equal(root.status, 200, 'the landing page, for visitors and the signed-in alike');
      assert.match(root.html, /<a class="button" href="\/dashboard">Go to your projects<\/a>/);
    });

    test('the stylesheet and copy script are served for the CSP to allow', async () => {
      const css = await svc.request('/assets/app.css');
      assert.equal(css.status, 200);
      assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
      const js = await svc.request('/assets/copy.js');
      assert.equal(js.status, 200);
      assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
      assert.match(String(js.body), /data-copy/);
    });
  });
}
