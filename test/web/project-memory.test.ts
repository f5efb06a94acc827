/**
 * `/projects/:id` (DESIGN §9): the memory editor for every field through memory.edit (errors next
 * to the field), "Rebuild from site", rename, and delete with a typed confirmation that removes
 * all of the project's data and the credentials tied to it in one transaction.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { findUserByEmail } from '../../src/auth/users.ts';
import { parseBundle } from '../../src/ingest/bundle.ts';
import { exportBundle } from '../../src/ingest/export.ts';
import { importBundle } from '../../src/ingest/import.ts';
import { smallBundle } from '../fixtures/small-bundle.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { Browser, csrfOf, ORIGIN } from './browser.ts';

const XSS = '<script>alert(1)</script>';

for (const dialect of DIALECTS) {
  describe(`project page: memory editor, rename, delete (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startService(dialect, { web: true });
    });
    after(() => svc.close());

    /** Posts one form of the project page, with the page's CSRF token. */
    const edit = async (b: Browser, id: string, path: string, fields: Record<string, string>) => b.submit(`/projects/${id}`, `/projects/${id}${path}`, fields);
    const memoryOf = async (id: string) => (await svc.store.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirstOrThrow());

    test('a new project: its page says what happens next; every memory field is edited through memory.edit', async () => {
      const b = new Browser(svc);
      await b.signUp('pia@example.com', 'pia-password');
      const id = await b.createProject('Quantforge', 'https://quantforge.example', 'Dev tools');
      let page = await b.get(`/projects/${id}`);
      assert.equal(page.status, 200);
      assert.match(page.html, /<meta http-equiv="refresh" content="5"\/>/, 'reloads itself while the memory builds');
      assert.match(page.html, /<span class="status pending">pending<\/span>/);
      assert.match(page.html, /Your memory is being built from https:\/\/quantforge\.example/);
      assert.match(page.html, /<a href="#communities">Add the communities to watch<\/a>/);
      assert.match(page.html, new RegExp(`or <a href="/projects/${id}/runs">run it now</a>`));
      assert.match(page.html, /<strong>Category:<\/strong> Dev tools/);

      const steps: [Record<string, string>, string][] = [
        [{ op: 'set_product', text: 'Quantises models for laptops.' }, 'product'],
        [{ op: 'set_icp', text: 'Indie developers running local LLMs.' }, 'icp'],
        [{ op: 'add_competitor', name: 'Ollama', url: 'https://ollama.com', description: 'Local model runner.' }, 'competitors'],
        [{ op: 'add_competitor', name: 'LM Studio', url: 'https://lmstudio.ai', description: 'Desktop app.' }, 'competitors'],
        [{ op: 'remove_competitor', name: 'lm studio' }, 'competitors'],
        [{ op: 'add_offering', name: 'Pro', description: 'Hosted quantisation.' }, 'offerings'],
        [{ op: 'add_community', name: 'r/LocalLLaMA', description: 'local model users' }, 'communities'],
        [{ op: 'add_community', name: 'hn: quantization', description: 'HN threads' }, 'communities'],
        [{ op: 'remove_community', name: 'hn: quantization' }, 'communities'],
        [{ op: 'add_filter_rule', rule: 'ignore job posts' }, 'filterRules'],
        [{ op: 'add_filter_rule', rule: 'ignore memes' }, 'filterRules'],
        [{ op: 'remove_filter_rule', rule: 'ignore memes' }, 'filterRules'],
        [{ op: 'add_offering', name: 'Free', description: 'CLI.' }, 'offerings'],
        [{ op: 'remove_offering', name: 'free' }, 'offerings'],
      ];
      for (const [fields, section] of steps) {
        const res = await edit(b, id, '/memory', fields);
        assert.equal(res.status, 303, `${fields.op}: ${res.html}`);
        assert.equal(res.location, `/projects/${id}?saved=${section}#${section}`);
      }
      const viaApi = await svc.store.db.selectFrom('projects').select(['description', 'ideal_customer', 'competitors', 'offerings', 'communities', 'filter_rules', 'edited_fields']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(viaApi.description, 'Quantises models for laptops.');
      assert.equal(viaApi.ideal_customer, 'Indie developers running local LLMs.');
      assert.deepEqual(JSON.parse(viaApi.competitors), [{ name: 'Ollama', url: 'https://ollama.com', description: 'Local model runner.' }]);
      assert.deepEqual(JSON.parse(viaApi.offerings), [{ name: 'Pro', description: 'Hosted quantisation.' }]);
      assert.deepEqual(JSON.parse(viaApi.communities), [{ name: 'r/LocalLLaMA', description: 'local model users' }]);
      assert.deepEqual(JSON.parse(viaApi.filter_rules), ['ignore job posts']);
      // Edited here, so a rebuild from the site keeps them (DESIGN §8 "Project memory").
      assert.deepEqual(new Set(JSON.parse(viaApi.edited_fields)), new Set(['category', 'description', 'idealCustomer', 'competitors', 'offerings', 'communities', 'filterRules']));

      page = await b.get(`/projects/${id}?saved=communities`);
      assert.match(page.html, /<p class="notice" role="status">Saved\.<\/p>/);
      assert.match(page.html, /<textarea id="product-text" name="text" maxlength="4000" required="">Quantises models for laptops\.<\/textarea>/);
      assert.match(page.html, /<strong class="mono">r\/LocalLLaMA<\/strong>/);
      assert.match(page.html, /Watching 1 community\./);
      assert.match(page.html, /\(1 of 5\)/);
      assert.match(page.html, /<a href="https:\/\/ollama\.com" rel="noopener noreferrer nofollow" target="_blank">https:\/\/ollama\.com<\/a>/);
      assert.match(page.html, /aria-label="Stop watching r\/LocalLLaMA"/);
    });

    test('errors show next to their field, with what was typed kept; nothing changes', async () => {
      const b = new Browser(svc);
      await b.signUp('quinn@example.com', 'quinn-password');
      const id = await b.createProject('Q', 'https://q.example');
      for (let i = 1; i <= 5; i++) assert.equal((await edit(b, id, '/memory', { op: 'add_community', name: `r/sub${i}`, description: 'x' })).status, 303);
      const before = await memoryOf(id);

      const sixth = await edit(b, id, '/memory', { op: 'add_community', name: 'r/sixth', description: 'one too many' });
      assert.equal(sixth.status, 409);
      assert.match(sixth.html, /<input id="community-name" name="name" required="" maxlength="200" placeholder="r\/SaaS" value="r\/sixth" aria-invalid="true" aria-describedby="communities-error"\/>/);
      assert.match(sixth.html, /<p class="field-error" id="communities-error" role="alert">[^<]*at most 5[^<]*<\/p>/);

      const cases: [Record<string, string>, number, string, RegExp][] = [
        [{ op: 'set_product', text: '   ' }, 400, 'product-error', /Text must not be empty\./],
        [{ op: 'add_competitor', name: 'X', url: 'ftp://x.example', description: 'd' }, 400, 'competitors-error', /Url must be an http or https URL\./],
        [{ op: 'remove_offering', name: 'Nope' }, 400, 'offerings-error', /Offering &quot;Nope&quot; does not exist\./],
        [{ op: 'remove_filter_rule', rule: 'never added' }, 400, 'filterRules-error', /never added/],
        [{ op: 'set_icp', text: 'x'.repeat(4001) }, 400, 'icp-error', /longer than 4000 characters/],
        [{ op: 'drop_table' }, 400, 'product-error', /This form is out of date/],
      ];
      for (const [fields, status, errorId, message] of cases) {
        const res = await edit(b, id, '/memory', fields);
        assert.equal(res.status, status, `${fields.op}: ${res.status}`);
        const error = new RegExp(`<p class="field-error" id="${errorId}" role="alert">([^<]*)</p>`).exec(res.html);
        assert.ok(error, `${fields.op}: the error is next to its field`);
        assert.match(error[1]!, message);
        assert.equal((res.html.match(/class="field-error"/g) ?? []).length, 1, 'one error, at one field');
      }
      const rename = await edit(b, id, '/rename', { name: ' ' });
      assert.equal(rename.status, 400);
      assert.match(rename.html, /id="rename-error" role="alert">Give the project a name\.</);
      const wrong = await edit(b, id, '/delete', { confirm: 'q' });
      assert.equal(wrong.status, 400);
      assert.match(wrong.html, /id="delete-error" role="alert">Type the project&#39;s name, Q, to delete it\.</);
      assert.deepEqual(await memoryOf(id), before, 'no failed form changed anything');
    });

    test('rename and rebuild from site', async () => {
      const b = new Browser(svc);
      await b.signUp('ravi@example.com', 'ravi-password');
      const id = await b.createProject('Old name', 'https://ravi.example');
      // A built memory: the page offers a rebuild.
      await svc.store.db.updateTable('projects').set({ memory_status: 'ready' }).where('id', '=', id).execute();
      let page = await b.get(`/projects/${id}`);
      assert.doesNotMatch(page.html, /http-equiv="refresh"/, 'nothing is working: no reload');
      assert.match(page.html, /Built from https:\/\/ravi\.example\./);
      const rebuilt = await b.post(`/projects/${id}/refresh`, { csrf: csrfOf(page.html) });
      assert.equal(rebuilt.status, 303);
      assert.equal(rebuilt.location, `/projects/${id}`);
      assert.notEqual((await memoryOf(id)).memory_refresh_requested_at, null);

      const renamed = await edit(b, id, '/rename', { name: '  New name  ' });
      assert.equal(renamed.status, 303);
      assert.equal((await memoryOf(id)).name, 'New name');
      page = await b.get('/dashboard');
      assert.match(page.html, new RegExp(`<a href="/projects/${id}">New name</a>`));

      // A failed build says why.
      await svc.store.db.updateTable('projects').set({ memory_status: 'failed', memory_error: 'the site answered 503' }).where('id', '=', id).execute();
      page = await b.get(`/projects/${id}`);
      assert.match(page.html, /Could not read https:\/\/ravi\.example: the site answered 503\./);
    });

    test('delete removes every row of the project and revokes what was tied to it, nothing else', async () => {
      const b = new Browser(svc);
      await b.signUp('sol@example.com', 'sol-password');
      const user = (await findUserByEmail(svc.store, 'sol@example.com'))!;
      // Two projects full of data: the small bundle's alpha and beta, given to sol.
      const bundle = smallBundle();
      bundle.projects = bundle.projects.filter((p) => p.owner === 'alice@example.com').map((p) => ({
        ...p,
        owner: 'sol@example.com',
        id: `${p.id}_sol`,
        url: p.url.replace('example', 'sol'),
        posts: p.posts.map((post) => ({ ...post, id: `${post.id}_sol` })),
        themes: p.themes.map((t) => ({ ...t, id: `${t.id}_sol` })),
        signals: p.signals.map((s) => ({ ...s, id: `${s.id}_sol`, postId: `${s.postId}_sol`, themeId: s.themeId === null ? null : `${s.themeId}_sol` })),
        briefs: p.briefs.map((br) => ({ ...br, id: `${br.id}_sol` })),
        runs: p.runs.map((r) => ({ ...r, id: `${r.id}_sol` })),
      }));
      await importBundle(svc.store, parseBundle(bundle));
      const [doomed, kept] = ['prj_alpha_sol', 'prj_beta_sol'];
      const keptBefore = await exportBundle(svc.store.db, [kept!]);
      const tiedKey = await createApiKey(svc.store.db, { userId: user.id, projectId: doomed!, name: 'tied' });
      const untiedKey = await createApiKey(svc.store.db, { userId: user.id, projectId: null, name: 'untied' });
      await svc.store.db.insertInto('oauth_grants').values({ user_id: user.id, client_id: 'client_tied', project_id: doomed!, created_at: '2026-11-20T00:00:00.000Z', updated_at: '2026-11-20T00:00:00.000Z' }).execute();
      await svc.store.db.insertInto('oauth_grants').values({ user_id: user.id, client_id: 'client_all', project_id: null, created_at: '2026-11-20T00:00:00.000Z', updated_at: '2026-11-20T00:00:00.000Z' }).execute();
      assert.equal((await svc.invoke(tiedKey.key, { capability: 'project.memory' })).status, 200);

      const searchable = async (projectId: string) => (await svc.store.db.selectFrom('search_docs').select('doc_id').where('project_id', '=', projectId).execute()).length;
      assert.ok((await searchable(doomed!)) > 0, 'the import indexed the project for search');
      const keptDocs = await searchable(kept!);
      const res = await edit(b, doomed!, '/delete', { confirm: 'Alpha' });
      assert.equal(res.status, 303, res.html);
      assert.equal(res.location, '/dashboard?deleted=1');
      assert.match((await b.get('/dashboard?deleted=1')).html, /The project was deleted\./);

      for (const table of ['posts', 'signals', 'themes', 'theme_totals', 'competitor_totals', 'briefs', 'runs', 'source_cursors', 'digest_leases', 'search_docs'] as const) {
        const left = await svc.store.db.selectFrom(table).select('project_id').where('project_id', '=', doomed!).execute();
        assert.equal(left.length, 0, `${table} rows left`);
      }
      assert.equal(await svc.store.db.selectFrom('projects').select('id').where('id', '=', doomed!).executeTakeFirst(), undefined);
      assert.equal((await svc.invoke(tiedKey.key, { capability: 'project.memory' })).status, 403, 'the tied key is revoked, not widened to every project');
      assert.equal((await svc.invoke(untiedKey.key, { capability: 'project.memory' })).body.data.memory.id, kept);
      const grants = await svc.store.db.selectFrom('oauth_grants').select('client_id').where('user_id', '=', user.id).execute();
      assert.deepEqual(grants.map((g) => g.client_id), ['client_all']);
      assert.deepEqual(await exportBundle(svc.store.db, [kept!]), keptBefore, 'the other project is untouched');
      assert.equal(await searchable(kept!), keptDocs, "the other project's search documents are untouched");
      assert.equal((await b.get(`/projects/${doomed}`)).status, 404);
    });

    test('delete waits for a run in progress', async () => {
      const b = new Browser(svc);
      await b.signUp('tara@example.com', 'tara-password');
      const id = await b.createProject('Busy', 'https://busy.example');
      await svc.store.db.insertInto('digest_leases').values({ project_id: id, holder: 'host:1:ab', run_id: 'run_busy', expires_at: '2999-01-01T00:00:00.000Z' }).execute();
      const res = await edit(b, id, '/delete', { confirm: 'Busy' });
      assert.equal(res.status, 409);
      assert.match(res.html, /A digest run of this project is in progress/);
      assert.ok(await svc.store.db.selectFrom('projects').select('id').where('id', '=', id).executeTakeFirst());
    });

    test('security: CSRF and Origin on every form; another account\'s project is a 404 on every page and form; text is escaped', async () => {
      const owner = new Browser(svc);
      await owner.signUp('uma@example.com', 'uma-password');
      const id = await owner.createProject(XSS, 'https://uma.example/"><img/src=x/onerror=alert(1)>');
      for (const [fields, path] of [
        [{ op: 'set_product', text: XSS }, '/memory'],
        [{ op: 'set_icp', text: XSS }, '/memory'],
        [{ op: 'add_competitor', name: XSS, url: 'https://evil.example/"><script>alert(1)</script>', description: XSS }, '/memory'],
        [{ op: 'add_offering', name: XSS, description: XSS }, '/memory'],
        [{ op: 'add_community', name: XSS, description: XSS }, '/memory'],
        [{ op: 'add_filter_rule', rule: XSS }, '/memory'],
      ] as const) {
        assert.equal((await edit(owner, id, path, fields)).status, 303);
      }
      const page = await owner.get(`/projects/${id}`);
      assert.ok(!page.html.includes('<script>alert(1)'), 'no live script');
      assert.ok(!page.html.includes('"><img'), 'no attribute break-out');
      assert.ok(page.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));

      const forms: [string, Record<string, string>][] = [
        ['/memory', { op: 'add_filter_rule', rule: 'csrf' }],
        ['/rename', { name: 'csrf' }],
        ['/refresh', {}],
        ['/delete', { confirm: XSS }],
      ];
      const before = await memoryOf(id);
      const token = csrfOf(page.html);
      for (const [path, fields] of forms) {
        const noToken = await owner.post(`/projects/${id}${path}`, fields);
        assert.equal(noToken.status, 403, `${path} without a token`);
        const wrongToken = await owner.post(`/projects/${id}${path}`, { ...fields, csrf: `${token.slice(0, -2)}xx` });
        assert.equal(wrongToken.status, 403, `${path} with a wrong token`);
        const foreign = await owner.post(`/projects/${id}${path}`, { ...fields, csrf: token }, { origin: 'http://evil.example' });
        assert.equal(foreign.status, 403, `${path} from another origin`);
      }
      assert.deepEqual(await memoryOf(id), before, 'no refused post changed anything');

      const other = new Browser(svc);
      await other.signUp('vic@example.com', 'vic-password');
      const notFound = await other.get(`/projects/${id}`);
      assert.equal(notFound.status, 404);
      assert.ok(!notFound.html.includes('uma.example') && !notFound.html.includes('alert(1)'), 'nothing of the project leaks');
      const vicPage = await other.get('/dashboard');
      for (const [path, fields] of [...forms, ['/memory', { op: 'set_product', text: 'vic was here' }] as [string, Record<string, string>]]) {
        const res = await other.post(`/projects/${id}${path}`, { ...fields, ...(path === '/delete' ? { confirm: XSS } : {}), csrf: csrfOf(vicPage.html) });
        assert.equal(res.status, 404, `${path} of another account's project`);
      }
      assert.deepEqual(await memoryOf(id), before, 'another account changed nothing');
      for (const path of ['/projects/prj_nope', '/projects/%3Cscript%3E', `/projects/${'x'.repeat(300)}`]) assert.equal((await other.get(path)).status, 404, path);

      const anonymous = new Browser(svc);
      const signIn = await anonymous.get(`/projects/${id}`);
      assert.equal(signIn.status, 303);
      assert.equal(signIn.location, `/login?next=${encodeURIComponent(`/projects/${id}`)}`);
      assert.equal(ORIGIN, 'http://localhost:8080');
    });
  });

  describe(`project pages say when the daily digest runs (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startService(dialect, { web: true, digestHourUtc: 9 });
    });
    after(() => svc.close());

    test('DIGEST_HOUR_UTC, not a fixed 06:00, on the memory and runs pages of a new project', async () => {
      const b = new Browser(svc);
      await b.signUp('wes@example.com', 'wes-password');
      const id = await b.createProject('Hourly', 'https://hourly.example');
      const memory = await b.get(`/projects/${id}`);
      assert.match(memory.html, /The daily digest runs at 09:00 UTC — or <a href/);
      const runs = await b.get(`/projects/${id}/runs`);
      assert.match(runs.html, /The first runs daily at 09:00 UTC/);
      assert.doesNotMatch(memory.html + runs.html, /06:00/);
    });
  });
}
