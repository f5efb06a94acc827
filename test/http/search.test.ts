/**
 * search and fetch (DESIGN §11) beyond the per-capability tables: the index follows every write
 * (import, the digest pipeline, theme renames and merges, project deletion) and a rebuild gives
 * the same documents; any query text is safe; another account's documents are never found or
 * fetched; a fetched document stays within the text bound; and ChatGPT's calls work as it makes
 * them — raw JSON-RPC, one text content holding the JSON.
 */
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, test } from 'node:test';
import { TEXT_MAX } from '../../src/capabilities/text.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { runDigest } from '../../src/ingest/digest/run.ts';
import { parseBundle, type BundlePost } from '../../src/ingest/bundle.ts';
import { importBundle } from '../../src/ingest/import.ts';
import { mergeThemes, renameThemes } from '../../src/store/digest.ts';
import { reindexProject } from '../../src/store/search.ts';
import { blankProject, smallBundle } from '../fixtures/small-bundle.ts';
import { DIALECTS } from '../helpers/database.ts';
import { createDigestProject, memorySource } from '../helpers/digest.ts';
import { fixtureThreads } from '../helpers/reddit-export.ts';
import { startService, type TestService } from '../helpers/service.ts';

const ACCEPT = 'application/json, text/event-stream';

for (const dialect of DIALECTS) {
  describe(`search and fetch (${dialect})`, () => {
    let svc: TestService;
    let mcpUrl: string;
    before(async () => {
      svc = await startService(dialect);
      mcpUrl = `${await svc.listen()}/api/mcp`;
    });
    after(() => svc.close());

    /** A key of carol's tied to one of the projects these tests make for her. */
    const keyFor = async (projectId: string) => (await createApiKey(svc.store.db, { userId: svc.users.carol, projectId, name: 'search test' })).key;
    const search = async (key: string, query: string, extra: Record<string, unknown> = {}) => {
      const res = await svc.invoke(key, { capability: 'search', input: { query, limit: 50 }, ...extra });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data.results as { id: string; title: string; url: string; snippet: string; kind: string }[];
    };
    const docRows = async (projectId: string) =>
      (await svc.store.db.selectFrom('search_docs').select(['doc_id', 'kind', 'source', 'at']).where('project_id', '=', projectId).orderBy('doc_id').execute()).map((r) => ({ ...r }));

    describe('the index follows every write', () => {
      test('the digest pipeline indexes what it collects; a re-collected thread with a new comment is indexed once, with the comment', async () => {
        await createDigestProject(svc.store, svc.users.carol, 'prj_search_run');
        const threads = fixtureThreads().slice(0, 20);
        const window = { start: new Date(0), end: new Date() };
        await runDigest({ store: svc.store, projectId: 'prj_search_run', source: memorySource(threads), window });
        const key = await keyFor('prj_search_run');
        const first = threads[0]!;
        const titleWords = first.title.match(/[\p{L}\p{N}]{4,}/gu)!.slice(0, 3).join(' ');
        assert.ok((await search(key, titleWords)).some((r) => r.id === `post:${first.id}`), `"${titleWords}" finds ${first.id}`);

        const before = (await docRows('prj_search_run')).filter((d) => d.source === `post:${first.id}`).length;
        const newComment = { id: 'zz_new', author: 'latecomer', body: 'Quixotically, the zeppelin exporter stalls on every Thursday upload.', score: 1, createdAt: new Date().toISOString(), replies: [] };
        const again: BundlePost = { ...first, comments: [...first.comments, newComment] };
        await runDigest({ store: svc.store, projectId: 'prj_search_run', source: memorySource([again]), window });
        const hits = await search(key, 'zeppelin exporter');
        assert.deepEqual(hits.map((h) => h.id).slice(0, 1), [`comment:${first.id}:zz_new`]);
        assert.equal((await docRows('prj_search_run')).filter((d) => d.source === `post:${first.id}`).length, before + 1, 'the thread is indexed once, with one more comment');
      });

      test('importing the same bundle again adds no document; a rebuild from the tables gives exactly the same documents', async () => {
        const documents = await docRows('prj_alpha');
        const found = await search(svc.keys.alice, 'webhooks churn billing');
        assert.ok(documents.length > 10);
        await importBundle(svc.store, parseBundle(smallBundle()));
        assert.deepEqual(await docRows('prj_alpha'), documents);
        await reindexProject(svc.store.db, 'prj_alpha');
        assert.deepEqual(await docRows('prj_alpha'), documents, 'what migration 007 builds for existing data is what the writes keep');
        assert.deepEqual(await search(svc.keys.alice, 'webhooks churn billing'), found);
        if (dialect === 'sqlite') {
          // The FTS5 table holds exactly one entry per document: rewrites left nothing behind.
          const { rows } = await sql<{ n: number }>`select count(*) as n from search_fts`.execute(svc.store.db);
          const docs = await svc.store.db.selectFrom('search_docs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
          assert.equal(Number(rows[0]!.n), Number(docs.n));
        }
        assert.ok((await docRows('prj_search_run')).length > 0, 'other projects are untouched');
      });

      test('threads holding more comments than one statement takes parameters are indexed and indexed again', async () => {
        const big = (id: string) => ({
          id,
          url: `https://www.reddit.com/r/big/comments/${id}/t/`,
          permalink: `/r/big/comments/${id}/t/`,
          community: 'big',
          title: `Busy thread ${id}`,
          selftext: 'Body.',
          author: 'op',
          score: 1,
          postCreatedAt: '2026-01-01T00:00:00.000Z',
          comments: Array.from({ length: 17_000 }, (_, i) => ({ id: `${id}c${i}`, author: 'u', body: `reply ${i}`, score: 1, createdAt: '2026-01-01T00:00:00.000Z', replies: [] })),
        });
        const bundle = { format: 'project-signals-bundle' as const, version: 1 as const, projects: [{ ...blankProject, owner: 'carol@example.com', id: 'prj_busy', name: 'Busy', url: 'https://busy.example.com', createdAt: '2026-01-01T00:00:00.000Z', posts: [big('b1'), big('b2')], themes: [], signals: [] }] };
        await importBundle(svc.store, parseBundle(bundle));
        await importBundle(svc.store, parseBundle(bundle));
        assert.equal((await docRows('prj_busy')).length, 34_002);
      });

      test('a renamed theme is found by its new title, not its old one; a merged-away theme is gone', async () => {
        const themes = [
          { id: 'sov_r1', type: 'pain' as const, title: 'Flaky onboarding', summary: 'Sign-up breaks.', updatedAt: '2026-11-01T00:00:00.000Z' },
          { id: 'sov_r2', type: 'pain' as const, title: 'Slow onboarding', summary: 'Sign-up takes ages.', updatedAt: '2026-11-01T00:00:00.000Z' },
        ];
        const project = { ...blankProject, owner: 'carol@example.com', id: 'prj_rename', name: 'Rename', url: 'https://rename.example.com', createdAt: '2026-11-01T00:00:00.000Z', posts: [], signals: [], themes };
        await importBundle(svc.store, parseBundle({ format: 'project-signals-bundle', version: 1, projects: [project] }));
        const key = await keyFor('prj_rename');
        await renameThemes(svc.store.db, 'prj_rename', [{ id: 'sov_r1', title: 'Broken registration emails', summary: 'Verification emails never arrive.' }]);
        assert.deepEqual((await search(key, 'registration')).map((r) => r.id), ['theme:sov_r1']);
        assert.deepEqual((await search(key, 'flaky')).map((r) => r.id), []);
        await mergeThemes(svc.store.db, 'prj_rename', [{ from: 'sov_r2', into: 'sov_r1' }]);
        assert.deepEqual((await search(key, 'onboarding')).map((r) => r.id), []);
        assert.deepEqual((await docRows('prj_rename')).map((d) => d.doc_id), ['theme:sov_r1']);
      });
    });

    describe('security', () => {
      test('query text is words only: operators, quotes and SQL reach neither engine', async () => {
        for (const query of ['"', 'title:webhooks', 'NEAR(webhooks stripe)', 'webh*', '-webhooks', "') or 1=1 --", 'webhooks AND OR NOT', '%_\\', 'ウェブフック', 'a'.repeat(500)]) {
          const res = await svc.invoke(svc.keys.alice, { capability: 'search', input: { query } });
          assert.ok(res.status === 200 || (res.status === 400 && /give at least one word/.test(res.body.error.message)), `${query}: ${JSON.stringify(res.body)}`);
        }
        assert.ok((await search(svc.keys.alice, 'title:webhooks')).some((r) => r.id === 'theme:sov_a1'), '"title:" is a word, not a column filter');
      });

      test("no document of bob's is found or fetched by alice, whatever its kind", async () => {
        const bobWords = ['secret', 'private', 'bobfan'];
        for (const word of bobWords) assert.deepEqual(await search(svc.keys.alice, word), [], word);
        for (const id of ['comment:p1:bc1', 'signal:sig_bob1', 'theme:sov_bob1', 'brief:brf_bob1:0.0']) {
          const res = await svc.invoke(svc.keys.alice, { capability: 'fetch', input: { id } });
          assert.equal(res.status, 404, id);
          assert.equal(res.body.error.message, `no document "${id}" in this project`);
        }
        // The same raw post id in both projects: alice gets her own thread, nothing of bob's.
        const own = await svc.invoke(svc.keys.alice, { capability: 'fetch', input: { id: 'post:p1' } });
        assert.equal(own.body.data.title, 'Billing is painful');
        assert.ok(!JSON.stringify(own.body).includes('Secret bob'));
        // bob finds his own words.
        assert.deepEqual((await search(svc.keys.bob, 'secret')).map((r) => r.id).sort(), ['comment:p1:bc1', 'signal:sig_bob1']);
      });
    });

    test('a fetched thread of 1,000 long comments stays within 100,000 characters as JSON, cut between lines', async () => {
      const comments = Array.from({ length: 1_000 }, (_, i) => ({ id: `k${i}`, author: `u${i}`, body: `"Quoted" line ${i}\nand a second "line" with \\ backslashes ${'x'.repeat(120)}`, score: 1, createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), replies: [] }));
      const post = { id: 'huge1', url: 'https://www.reddit.com/r/big/comments/huge1/t/', permalink: '/r/big/comments/huge1/t/', community: 'big', title: 'Huge', selftext: 'Body.', author: 'op', score: 1, postCreatedAt: '2026-01-01T00:00:00.000Z', comments };
      await importBundle(svc.store, parseBundle({ format: 'project-signals-bundle', version: 1, projects: [{ ...blankProject, owner: 'carol@example.com', id: 'prj_huge', name: 'Huge', url: 'https://huge.example.com', createdAt: '2026-01-01T00:00:00.000Z', posts: [post], themes: [], signals: [] }] }));
      const key = await keyFor('prj_huge');
      const res = await svc.invoke(key, { capability: 'fetch', input: { id: 'post:huge1' }, render: 'text' });
      assert.equal(res.status, 200);
      assert.ok(res.body.text.length <= TEXT_MAX, `${res.body.text.length}`);
      assert.deepEqual(JSON.parse(res.body.text), res.body.data);
      assert.match(res.body.data.text, /\n- \[Cut here: .* The rest is at the document's url\.\]$/);
    });

    test('50 results with very long titles and links: the JSON text drops its last results to stay within 100,000 characters, and stays JSON', async () => {
      const long = (i: number) => ({
        id: `long${i}`,
        url: `https://www.reddit.com/r/long/comments/long${i}/${'x'.repeat(1_900)}/`,
        permalink: `/r/long/comments/long${i}/t/`,
        community: 'long',
        title: `Zeppelin ${i} ${'word '.repeat(700)}`,
        selftext: 'zeppelin body',
        author: 'op',
        score: 1,
        postCreatedAt: '2026-01-01T00:00:00.000Z',
        comments: [],
      });
      const bundle = { format: 'project-signals-bundle' as const, version: 1 as const, projects: [{ ...blankProject, owner: 'carol@example.com', id: 'prj_long', name: 'Long', url: 'https://long.example.com', createdAt: '2026-01-01T00:00:00.000Z', posts: Array.from({ length: 50 }, (_, i) => long(i)), themes: [], signals: [] }] };
      await importBundle(svc.store, parseBundle(bundle));
      const key = await keyFor('prj_long');
      const res = await svc.invoke(key, { capability: 'search', input: { query: 'zeppelin', limit: 50 }, render: 'text' });
      assert.equal(res.body.data.results.length, 50);
      assert.ok(JSON.stringify(res.body.data).length > TEXT_MAX);
      assert.ok(res.body.text.length <= TEXT_MAX, `${res.body.text.length}`);
      const shown = JSON.parse(res.body.text).results;
      assert.ok(shown.length > 10 && shown.length < 50, `${shown.length}`);
      assert.deepEqual(shown, res.body.data.results.slice(0, shown.length));
    });

    describe("ChatGPT's calls, as raw JSON-RPC", () => {
      const rpc = async (body: unknown, headers: Record<string, string> = {}) => {
        const res = await fetch(mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${svc.keys.alice}`, ...headers }, body: JSON.stringify(body) });
        return { status: res.status, body: res.status === 202 ? null : ((await res.json()) as any) };
      };

      test('initialize, tools/list, then search {query} and fetch {id}: one text content holding the documented JSON', async () => {
        const init = await rpc({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openai-mcp', version: '1.0.0' } } });
        assert.equal(init.status, 200);
        const version = init.body.result.protocolVersion as string;
        const h = { 'mcp-protocol-version': version };
        assert.equal((await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, h)).status, 202);
        const list = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, h);
        const tools = new Map((list.body.result.tools as any[]).map((t) => [t.name, t]));
        assert.deepEqual(tools.get('search').inputSchema.required, ['query']);
        assert.deepEqual(tools.get('fetch').inputSchema.required, ['id']);
        assert.equal(tools.get('search').annotations.readOnlyHint, true);

        const found = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { query: 'webhooks' } } }, h);
        const content = found.body.result.content;
        assert.equal(content.length, 1);
        assert.equal(content[0].type, 'text');
        const results = JSON.parse(content[0].text).results as any[];
        assert.ok(results.length >= 3);
        for (const r of results) {
          for (const field of ['id', 'title', 'url']) assert.equal(typeof r[field], 'string', `${field} of ${JSON.stringify(r)}`);
          assert.match(r.url, /^https?:\/\//);
        }
        assert.deepEqual(found.body.result.structuredContent, JSON.parse(content[0].text));

        const doc = await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'fetch', arguments: { id: results[0].id } } }, h);
        const fetched = JSON.parse(doc.body.result.content[0].text);
        assert.deepEqual(Object.keys(fetched).sort(), ['id', 'metadata', 'text', 'title', 'url']);
        assert.equal(fetched.id, results[0].id);
        assert.equal(fetched.title, results[0].title);
        assert.equal(fetched.url, results[0].url);
        assert.ok(fetched.text.length > 0);
      });
    });
  });
}
