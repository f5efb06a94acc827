/** DESIGN §7: refused sign-ups and sign-ins, bad dashboard forms: errors inline, nothing written. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { findUserByEmail } from '../../src/auth/users.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { Browser, csrfOf } from './browser.ts';

const GENERIC = '<p class="error" role="alert">Email or password is incorrect.</p>';

for (const dialect of DIALECTS) {
  describe(`web dashboard, errors (${dialect})`, () => {
    let svc: TestService;
    const count = async (table: 'api_keys' | 'projects' | 'user') =>
      Number((await svc.store.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    before(async () => {
      svc = await startService(dialect, { web: true });
      await new Browser(svc).signUp('frank@example.com', 'frank-password');
    });
    after(() => svc.close());

    test('sign-in with a wrong password, an unknown email or a malformed one: the same generic 401', async () => {
      for (const [email, password] of [
        ['frank@example.com', 'wrong-password'],
        ['nobody@example.com', 'frank-password'],
        ['not-an-email', 'frank-password'],
        ['frank@example.com', ''],
      ] as const) {
        const b = new Browser(svc);
        const res = await b.logIn(email, password);
        assert.equal(res.status, 401, `${email}/${password}`);
        assert.ok(res.html.includes(GENERIC), `${email}/${password}`);
        assert.ok(!b.cookies.has('better-auth.session_token'));
        assert.ok(res.html.includes(`value="${email}"`), 'the email is kept in the form');
        assert.ok(!res.html.includes('frank-password'), 'the password is never echoed');
      }
    });

    test('sign-up refusals are shown inline and create no account', async () => {
      const users = await count('user');
      const cases = [
        [{ email: 'gina@example.com', password: 'short', confirm: 'short' }, 'The password must be 8 to 256 characters long.'],
        [{ email: 'gina@example.com', password: 'x'.repeat(257), confirm: 'x'.repeat(257) }, 'The password must be 8 to 256 characters long.'],
        [{ email: 'gina@example.com', password: 'long-enough', confirm: 'long-enough!' }, 'The two passwords do not match.'],
        [{ email: 'gina.example.com', password: 'long-enough', confirm: 'long-enough' }, 'Enter a valid email address.'],
        [{ email: `${'g'.repeat(250)}@example.com`, password: 'long-enough', confirm: 'long-enough' }, 'Enter a valid email address.'],
        [{ email: 'FRANK@example.com', password: 'long-enough', confirm: 'long-enough' }, 'An account with this email cannot be created. If it is yours, sign in instead.'],
      ] as const;
      for (const [fields, message] of cases) {
        const b = new Browser(svc);
        const res = await b.submit('/signup', '/signup', fields);
        assert.equal(res.status, 400, fields.email);
        assert.ok(res.html.includes(`<p class="error" role="alert">${message}</p>`), `${fields.email}: ${message}`);
        assert.ok(!b.cookies.has('better-auth.session_token'));
      }
      assert.equal(await count('user'), users);
      assert.equal(await findUserByEmail(svc.store, 'gina@example.com'), undefined);
    });

    test('the dashboard and its forms without a session go to sign-in and change nothing', async () => {
      const b = new Browser(svc);
      const page = await b.get('/dashboard');
      assert.equal(page.status, 303);
      assert.equal(page.location, '/login?next=/dashboard');
      const logout = await b.get('/logout');
      assert.equal(logout.location, '/login');
      const keys = await count('api_keys');
      const projects = await count('projects');
      for (const [path, fields] of [
        ['/dashboard/keys', { name: 'k', project: '' }],
        ['/dashboard/projects', { name: 'P', url: 'https://p.example', category: '' }],
        ['/dashboard/keys/key_x/revoke', {}],
      ] as const) {
        const res = await b.post(path, { ...fields, csrf: 'anything' });
        assert.equal(res.status, 303, path);
        assert.equal(res.location, '/login?next=/dashboard', path);
      }
      assert.equal(await count('api_keys'), keys);
      assert.equal(await count('projects'), projects);
    });

    test('bad project and key forms: 400 with the reason inline, nothing created', async () => {
      const b = new Browser(svc);
      await b.logIn('frank@example.com', 'frank-password');
      const keys = await count('api_keys');
      const projects = await count('projects');
      const cases = [
        ['/dashboard/projects', { name: 'P', url: 'ftp://p.example', category: '' }, 'The URL must start with http:// or https://.'],
        ['/dashboard/projects', { name: '   ', url: 'https://p.example', category: '' }, 'Give the project a name.'],
        ['/dashboard/projects', { name: 'n'.repeat(201), url: 'https://p.example', category: '' }, 'The name must be at most 200 characters.'],
        ['/dashboard/projects', { name: 'P', url: `https://p.example/${'a'.repeat(2048)}`, category: '' }, 'The URL must be at most 2048 characters.'],
        ['/dashboard/keys', { name: '', project: '' }, 'Give the key a name.'],
        // prj_alpha exists but is alice's: as if it did not exist.
        ['/dashboard/keys', { name: 'k', project: 'prj_alpha' }, 'Choose one of your projects, or all projects.'],
        ['/dashboard/keys', { name: 'k', project: 'prj_none' }, 'Choose one of your projects, or all projects.'],
      ] as const;
      for (const [path, fields, message] of cases) {
        const res = await b.submit('/dashboard', path, fields);
        assert.equal(res.status, 400, `${path} ${message}`);
        assert.ok(res.html.includes(`<p class="error" role="alert">${message}</p>`), message);
      }
      // The project form keeps what was typed.
      const kept = await b.submit('/dashboard', '/dashboard/projects', { name: 'Kept', url: 'nope', category: 'Cat' });
      assert.match(kept.html, /id="project-name" name="name" required="" maxlength="200" value="Kept"/);
      assert.equal(await count('api_keys'), keys);
      assert.equal(await count('projects'), projects);
    });

    test('revoking an unknown key id: 404 page, nothing revoked', async () => {
      const b = new Browser(svc);
      await b.logIn('frank@example.com', 'frank-password');
      const dash = await b.get('/dashboard');
      const res = await b.post('/dashboard/keys/key_doesnotexist/revoke', { csrf: csrfOf(dash.html) });
      assert.equal(res.status, 404);
      assert.ok(res.html.includes('<p class="error" role="alert">No such key.</p>'));
    });

    test('a form body over 64 KiB is refused with 413 before it is read', async () => {
      const b = new Browser(svc);
      const page = await b.get('/login');
      const res = await b.post('/login', { email: 'frank@example.com', password: 'p'.repeat(70_000), csrf: csrfOf(page.html) });
      assert.equal(res.status, 413);
    });
  });
}
