/**
 * DESIGN §4 "Project selection" and unique URLs (issue 12, item 2): an exact project id selects
 * the project; a URL is unique within an account (in the CLI, the dashboard and import alike), so
 * no project can hide another; the CLI and the API pick the same project for the same input.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ALICE, BOB } from '../fixtures/small-bundle.ts';
import { DIALECTS } from '../helpers/database.ts';
import { spawnSignals } from '../helpers/process.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { Browser } from '../web/browser.ts';

for (const dialect of DIALECTS) {
  describe(`project selection and unique URLs (${dialect})`, () => {
    let svc: TestService;
    let dir: string;
    before(async () => {
      svc = await startService(dialect, { web: true });
      dir = mkdtempSync(join(tmpdir(), 'signals-selection-'));
    });
    after(async () => {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const memoryOf = async (key: string, project?: string) => {
      const res = await svc.invoke(key, { capability: 'project.memory', ...(project === undefined ? {} : { project }) });
      return res.status === 200 ? (res.body.data.memory.id as string) : `${res.status} ${res.body.error.code}`;
    };

    test('an exact id selects that project; another account\'s id is forbidden like any miss', async () => {
      assert.equal(await memoryOf(svc.keys.alice), 'prj_alpha', 'no project: the newest');
      assert.equal(await memoryOf(svc.keys.alice, 'prj_beta'), 'prj_beta');
      assert.equal(await memoryOf(svc.keys.alice, 'prj_alpha'), 'prj_alpha');
      assert.equal(await memoryOf(svc.keys.alice, 'beta.example'), 'prj_beta', 'a part of the URL still selects');
      assert.equal(await memoryOf(svc.keys.alice, 'prj_bob'), '403 forbidden');
      assert.equal(await memoryOf(svc.keys.alice, 'PRJ_BETA'), '403 forbidden', 'ids are exact, not case-folded');
      assert.equal(await memoryOf(svc.keys.bob, 'prj_alpha'), '403 forbidden');
      // A tied key reads its own project whatever `project` says (spec §4.1).
      assert.equal(await memoryOf(svc.keys.aliceBeta, 'prj_alpha'), 'prj_beta');
    });

    test('a second project with the same URL is refused in the CLI, written differently or not', async () => {
      for (const url of ['https://alpha.example.com', 'HTTPS://WWW.alpha.example.com/', 'https://alpha.example.com/?utm=x#top']) {
        const run = await spawnSignals(svc.database.url, ['project', 'create', '--owner', ALICE, '--name', 'Again', '--url', url]).done;
        assert.equal(run.code, 1, run.stderr);
        assert.match(run.stderr, /^signals: You already have a project with the URL .+: "Alpha" \(prj_alpha\)\. Open it instead, or use another URL\.\n$/);
      }
      // Another account may have a project at the same URL: URLs are unique within an account.
      const bobs = await spawnSignals(svc.database.url, ['project', 'create', '--owner', BOB, '--name', 'Bob alpha', '--url', 'https://alpha.example.com', '--json']).done;
      assert.equal(bobs.code, 0, bobs.stderr);
      const paths = await svc.store.db.selectFrom('projects').select('id').where('url', 'like', '%alpha.example.com%').execute();
      assert.equal(paths.length, 2);
    });

    test('the dashboard refuses a duplicate URL next to the form, keeping what was typed', async () => {
      const b = new Browser(svc);
      await b.signUp('dup@example.com', 'dup-password');
      const first = await b.createProject('First', 'https://dup.example.com/app');
      const page = await b.get('/dashboard');
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.html)![1]!;
      const again = await b.post('/dashboard/projects', { name: 'Second', url: 'https://www.dup.example.com/app/', category: '', csrf });
      assert.equal(again.status, 400);
      assert.match(again.html, /You already have a project with the URL https:\/\/www\.dup\.example\.com\/app\/: &quot;First&quot;/);
      assert.match(again.html, /id="project-name" name="name" required="" maxlength="200" value="Second"/);
      const owned = await svc.store.db.selectFrom('projects as p').innerJoin('user as u', 'u.id', 'p.owner_id').select('p.id').where('u.email', '=', 'dup@example.com').execute();
      assert.deepEqual(owned.map((r) => r.id), [first]);
      // Another path on the same site is another project.
      await b.createProject('Docs', 'https://dup.example.com/docs');
    });

    test('import refuses a bundle whose project would share a URL with another of the account\'s projects', async () => {
      const bundle = {
        format: 'project-signals-bundle',
        version: 1,
        projects: [
          {
            owner: ALICE, id: 'prj_alpha_copy', name: 'Alpha copy', url: 'https://www.alpha.example.com/', category: '', description: '', idealCustomer: '',
            competitors: [], offerings: [], communities: [], filterRules: [], memoryStatus: 'ready', memoryRefreshRequestedAt: null, createdAt: '2026-11-20T00:00:00.000Z',
            posts: [], themes: [], signals: [], briefs: [], runs: [],
          },
        ],
      };
      const file = join(dir, 'dup.json');
      writeFileSync(file, JSON.stringify(bundle));
      const run = await spawnSignals(svc.database.url, ['import', file]).done;
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /projects\[0\]\.url: the account already has project "prj_alpha" with the URL https:\/\/www\.alpha\.example\.com\//);
      assert.equal(await svc.store.db.selectFrom('projects').select('id').where('id', '=', 'prj_alpha_copy').executeTakeFirst(), undefined);
    });

    test('the CLI picks the project the API picks for the same input', async () => {
      for (const ref of ['prj_beta', 'alpha.example', 'BETA.EXAMPLE.ORG', 'https://alpha.example.com']) {
        const run = await spawnSignals(svc.database.url, ['key', 'create', '--owner', ALICE, '--project', ref, '--json']).done;
        assert.equal(run.code, 0, run.stderr);
        assert.equal(JSON.parse(run.stdout).projectId, await memoryOf(svc.keys.alice, ref), ref);
      }
      // Both refuse what matches no project of the account.
      const cli = await spawnSignals(svc.database.url, ['key', 'create', '--owner', ALICE, '--project', 'https://alpha.example.com/', '--json']).done;
      assert.equal(cli.code, 1);
      assert.equal(await memoryOf(svc.keys.alice, 'https://alpha.example.com/'), '403 forbidden');
    });
  });
}
