/**
 * Project memory from the site (DESIGN §8 "Project memory"): what a page's head gives (site.ts),
 * and the build's states, fields and failures (build.ts, store/memory-builds.ts) against a local
 * test site reached through FETCH_ALLOW_HOSTS — on SQLite and PostgreSQL — plus
 * `signals project refresh` as a real process.
 */
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { givenFields, newProjectMemory, type MemoryField } from '../../src/domain/resources.ts';
import { buildMemory, readProjectSite, startMemoryBuilder, SUGGESTED_COMPETITOR } from '../../src/ingest/memory/build.ts';
import { llmSummarizer } from '../../src/ingest/memory/summary.ts';
import { completion, startFakeLlm } from '../helpers/fake-llm.ts';
import { readSite } from '../../src/ingest/memory/site.ts';
import { createLogger } from '../../src/logger.ts';
import { parseAllowHosts } from '../../src/net/fetch.ts';
import { openStore, type Store } from '../../src/store/db.ts';
import { claimMemoryBuild, finishMemoryBuild, projectsNeedingMemory, requestMemoryRefresh, STALE_BUILD_MS } from '../../src/store/memory-builds.ts';
import { migrate } from '../../src/store/migrate.ts';
import { getProject, upsertProject } from '../../src/store/projects.ts';
import { DIALECTS, freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { spawnSignals } from '../helpers/process.ts';

const PRODUCT_PAGE = `<!doctype html><html><head>
  <title>Quantforge — quantize and serve local LLMs</title>
  <meta name="description" content="SEO copy about quantization &amp; serving.">
  <meta property="og:site_name" content="Quantforge">
  <meta property="og:description" content="Quantforge turns any open-weights model into a fast local server.">
  <script type="application/ld+json">{ "@context": "https://schema.org", "@graph": [
    { "@type": "WebSite", "name": "Quantforge site", "description": "The site." },
    { "@type": "SoftwareApplication", "name": "Quantforge", "applicationCategory": "DeveloperApplication",
      "description": "Quantforge quantizes open-weights LLMs &amp; serves them on your own GPU, with an OpenAI-compatible API." } ] }</script>
  <script type="application/ld+json">{ broken json</script>
</head><body><h1>Ignored</h1><meta name="description" content="body meta is ignored too"></body></html>`;

describe('readSite: what a page head says of the product', () => {
  test('JSON-LD of a product type first (inside @graph), its category made readable', () => {
    assert.deepEqual(readSite(PRODUCT_PAGE), {
      name: 'Quantforge',
      description: 'Quantforge quantizes open-weights LLMs & serves them on your own GPU, with an OpenAI-compatible API.',
      category: 'Developer application',
    });
  });

  test('then og:description, the meta description, twitter:description; entities decoded, spaces collapsed', () => {
    assert.equal(readSite('<meta property="og:description" content="One\n  line &quot;preview&quot;"><meta name="description" content="seo">').description, 'One line "preview"');
    assert.equal(readSite('<head><meta name="Description" content="Plain meta.">').description, 'Plain meta.');
    assert.equal(readSite('<meta name="twitter:description" content="Tweet card.">').description, 'Tweet card.');
    assert.deepEqual(readSite('<title> Just a title </title>'), { name: 'Just a title', description: undefined, category: undefined });
  });

  test('malformed JSON-LD and non-product types are skipped; nothing at all gives nothing', () => {
    assert.equal(readSite('<script type="application/ld+json">[{"@type":"BreadcrumbList","description":"crumbs"}]</script><meta name="description" content="Meta wins.">').description, 'Meta wins.');
    assert.deepEqual(readSite('<p>no head</p>'), { name: undefined, description: undefined, category: undefined });
    assert.deepEqual(readSite(''), { name: undefined, description: undefined, category: undefined });
  });

  test('a description is bounded', () => {
    const long = readSite(`<meta name="description" content="${'word '.repeat(2_000)}">`).description!;
    assert.ok(long.length <= 4_000 && long.endsWith('…'));
  });
});

let site: Server;
let siteBase: string;
let allowHosts: Set<string>;
let pageDelay: Promise<void> | undefined;

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

before(async () => {
  site = createServer(async (req, res) => {
    if (req.url === '/product') {
      await pageDelay;
      return send(res, 200, 'text/html; charset=utf-8', PRODUCT_PAGE);
    }
    if (req.url === '/latin1') return send(res, 200, 'text/html; charset=iso-8859-1', Buffer.from('<meta name="description" content="Caf\xe9 software">', 'latin1'));
    if (req.url === '/gone') return send(res, 404, 'text/html', '<title>Not found</title>');
    if (req.url === '/pdf') return send(res, 200, 'application/pdf', '%PDF-1.7');
    if (req.url === '/empty') return send(res, 200, 'text/html', '<html><body>Hi</body></html>');
    if (req.url === '/to-private') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return res.end();
    }
    send(res, 500, 'text/plain', 'oops');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const { port } = site.address() as AddressInfo;
  siteBase = `http://127.0.0.1:${port}`;
  allowHosts = parseAllowHosts(`127.0.0.1:${port}`);
});
after(() => {
  site.closeAllConnections();
  site.close();
});

describe('readProjectSite: failures a person can act on', () => {
  const read = (path: string) => readProjectSite(`${siteBase}${path}`, { allowHosts });
  test('HTTP errors, pages that are not HTML, pages that say nothing, private redirects', async () => {
    assert.deepEqual(await read('/gone'), { status: 'failed', error: `${siteBase}/gone answered HTTP 404` });
    assert.deepEqual(await read('/pdf'), { status: 'failed', error: `${siteBase}/pdf is not a web page (application/pdf)` });
    assert.deepEqual(await read('/empty'), { status: 'failed', error: `${siteBase}/empty has no title, description or structured data to read` });
    const redirected = await read('/to-private');
    assert.equal(redirected.status, 'failed');
    assert.match((redirected as { error: string }).error, /169\.254\.169\.254 is not a public address/);
  });

  test('a site on a private address without FETCH_ALLOW_HOSTS', async () => {
    const outcome = await readProjectSite(`${siteBase}/product`);
    assert.equal(outcome.status, 'failed');
    assert.match((outcome as { error: string }).error, /127\.0\.0\.1 is not a public address/);
  });

  test('the charset the server names', async () => {
    assert.deepEqual(await read('/latin1'), { status: 'ready', facts: { description: 'Café software' } });
  });
});

for (const dialect of DIALECTS) {
  describe(`memory builds (${dialect})`, () => {
    let database: TestDatabase;
    let store: Store;
    let n = 0;

    before(async () => {
      database = await freshDatabase(dialect);
      store = openStore(database.url);
      await migrate(store);
    });
    after(async () => {
      await store.close();
      await database.drop();
    });

    async function project(path: string, options: { category?: string; edited?: MemoryField[] } = {}): Promise<string> {
      const id = `prj_memory_${dialect}_${++n}`;
      const category = options.category ?? '';
      await upsertProject(store.db, {
        id,
        ownerId: 'usr_memory',
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
        memory: newProjectMemory({ id, name: 'Quantforge', url: `${siteBase}${path}`, category }),
        editedFields: options.edited ?? givenFields({ category }),
      });
      return id;
    }
    const build = (id: string) => buildMemory(store, id, { fetch: { allowHosts } });

    test('pending → ready: description and category from the site', async () => {
      const id = await project('/product');
      assert.equal((await getProject(store.db, id))!.memory.memoryStatus, 'pending');
      assert.deepEqual(await build(id), { id, memoryStatus: 'ready', error: null });
      const { memory } = (await getProject(store.db, id))!;
      assert.equal(memory.description, 'Quantforge quantizes open-weights LLMs & serves them on your own GPU, with an OpenAI-compatible API.');
      assert.equal(memory.category, 'Developer application');
      assert.equal(memory.memoryRefreshRequestedAt, null);
      // A ready memory is not built again until a refresh is asked for.
      assert.deepEqual(await projectsNeedingMemory(store.db, new Date().toISOString(), 100).then((ids) => ids.includes(id)), false);
    });

    test('a category given at creation and fields edited through memory.edit are kept', async () => {
      const id = await project('/product', { category: 'Inference servers' });
      await build(id);
      assert.equal((await getProject(store.db, id))!.memory.category, 'Inference servers');
      const edited = await project('/product', { edited: ['description'] });
      await store.db.updateTable('projects').set({ description: 'Written by the user.' }).where('id', '=', edited).execute();
      await build(edited);
      const { memory } = (await getProject(store.db, edited))!;
      assert.equal(memory.description, 'Written by the user.');
      assert.equal(memory.category, 'Developer application');
    });

    test('with an LLM: its description, category and suggested competitors (with a home page) win; an edited list is kept; a failing LLM leaves the metadata', async () => {
      const answer = {
        description: 'Quantforge serves quantized open-weights models on your own GPU behind an OpenAI-compatible API.',
        category: 'Inference servers',
        competitors: [
          { name: 'Ollama', url: 'https://ollama.com' },
          { name: 'Quantforge', url: 'https://quantforge.example.com' },
          { name: 'Some tool without a site', url: null },
          { name: 'LM Studio', url: 'https://lmstudio.ai' },
        ],
      };
      const llm = await startFakeLlm([{ body: completion(JSON.stringify(answer)) }, { body: completion(JSON.stringify(answer)) }, { status: 500, body: 'down' }]);
      try {
        const summarize = llmSummarizer({ baseUrl: llm.baseUrl, model: 'fake-model', retries: 0 });
        const id = await project('/product');
        assert.equal((await buildMemory(store, id, { fetch: { allowHosts }, summarize }))!.memoryStatus, 'ready');
        const { memory } = (await getProject(store.db, id))!;
        assert.equal(memory.description, answer.description);
        assert.equal(memory.category, 'Inference servers');
        assert.deepEqual(memory.competitors, [
          { name: 'Ollama', url: 'https://ollama.com', description: SUGGESTED_COMPETITOR },
          { name: 'LM Studio', url: 'https://lmstudio.ai', description: SUGGESTED_COMPETITOR },
        ]);
        const sent = llm.requests[0]!.body;
        assert.equal(sent.response_format.json_schema.name, 'project_memory');
        assert.match(sent.messages[1]!.content, /The product is called \*\*Quantforge\*\*/);
        assert.match(sent.messages[1]!.content, /Description: Quantforge quantizes open-weights LLMs/);

        // Competitors someone edited (here: emptied on purpose) are theirs.
        const kept = await project('/product', { edited: ['competitors'] });
        await buildMemory(store, kept, { fetch: { allowHosts }, summarize });
        assert.deepEqual((await getProject(store.db, kept))!.memory.competitors, []);

        const fallback = await project('/product');
        assert.equal((await buildMemory(store, fallback, { fetch: { allowHosts }, summarize }))!.memoryStatus, 'ready');
        const plain = (await getProject(store.db, fallback))!.memory;
        assert.equal(plain.description, 'Quantforge quantizes open-weights LLMs & serves them on your own GPU, with an OpenAI-compatible API.');
        assert.deepEqual(plain.competitors, []);
      } finally {
        await llm.close();
      }
    });

    test('failed with its reason; a refresh after the site is fixed makes it ready', async () => {
      const id = await project('/gone');
      assert.deepEqual(await build(id), { id, memoryStatus: 'failed', error: `${siteBase}/gone answered HTTP 404` });
      // Failed stays failed (no retry loop) until someone asks again.
      assert.deepEqual(await build(id), { id, memoryStatus: 'failed', error: `${siteBase}/gone answered HTTP 404` });
      await store.db.updateTable('projects').set({ url: `${siteBase}/product` }).where('id', '=', id).execute();
      await requestMemoryRefresh(store.db, id, new Date().toISOString());
      assert.deepEqual(await build(id), { id, memoryStatus: 'ready', error: null });
    });

    test('one build at a time; a refresh asked during a build is kept for the next one', async () => {
      const id = await project('/product');
      let release!: () => void;
      pageDelay = new Promise((resolve) => (release = resolve));
      const first = build(id);
      // Wait until the first build holds the project.
      while ((await getProject(store.db, id))!.memory.memoryStatus !== 'building') await new Promise((r) => setTimeout(r, 5));
      assert.deepEqual(await build(id), { id, memoryStatus: 'building', error: 'another process is building this memory now' });
      const asked = new Date(Date.now() + 1).toISOString();
      await requestMemoryRefresh(store.db, id, asked);
      release();
      pageDelay = undefined;
      assert.equal((await first)!.memoryStatus, 'ready');
      assert.equal((await getProject(store.db, id))!.memory.memoryRefreshRequestedAt, asked);
      assert.ok((await projectsNeedingMemory(store.db, new Date().toISOString(), 100)).includes(id));
    });

    test('a build abandoned by a dead process is taken over once stale; the late finish is discarded', async () => {
      const id = await project('/product');
      const deadStart = new Date(Date.now() - STALE_BUILD_MS - 1_000).toISOString();
      assert.equal(await claimMemoryBuild(store.db, id, deadStart), true);
      assert.equal(await claimMemoryBuild(store.db, id, new Date(Date.now() - STALE_BUILD_MS + 60_000).toISOString()), false, 'not stale yet');
      assert.deepEqual(await build(id), { id, memoryStatus: 'ready', error: null });
      assert.equal(await finishMemoryBuild(store, id, deadStart, { status: 'failed', error: 'late' }, new Date().toISOString()), false);
      assert.equal((await getProject(store.db, id))!.memory.memoryStatus, 'ready');
    });

    test('the builder of signals serve builds what is pending', async () => {
      const id = await project('/product');
      const builder = startMemoryBuilder({ store, logger: createLogger('silent'), tickMs: 60_000, fetch: { allowHosts } });
      try {
        await builder.tick();
        assert.equal((await getProject(store.db, id))!.memory.memoryStatus, 'ready');
      } finally {
        await builder.stop();
      }
    });
  });
}

describe('signals project refresh (a real process)', () => {
  let database: TestDatabase;
  before(async () => {
    database = await freshDatabase('sqlite');
  });
  after(() => database.drop());

  test('rebuilds from the site and prints the status; a failure says why; unknown projects are user errors', async () => {
    const env = { FETCH_ALLOW_HOSTS: [...allowHosts][0]! };
    const run = (args: string[]) => spawnSignals(database.url, args, { env }).done;
    assert.equal((await run(['user', 'create', '--email', 'owner@example.com', '--json'])).code, 0);
    const created = await run(['project', 'create', '--owner', 'owner@example.com', '--name', 'Quantforge', '--url', `${siteBase}/product`]);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /Its memory is built from .* by signals serve, or now by: signals project refresh prj_/);
    const id = /\((prj_[a-z2-7]+)\)/.exec(created.stdout)![1]!;

    const refreshed = await run(['project', 'refresh', id, '--json']);
    assert.equal(refreshed.code, 0, refreshed.stderr);
    assert.deepEqual(JSON.parse(refreshed.stdout), { id, memoryStatus: 'ready' });

    const byUrl = await spawnSignals(database.url, ['project', 'refresh', `${siteBase}/product`]).done;
    assert.equal(byUrl.code, 0, byUrl.stderr);
    assert.match(byUrl.stdout, new RegExp(`Memory of ${id} could not be built: 127\\.0\\.0\\.1 is not a public address`));

    const unknown = await run(['project', 'refresh', 'prj_nope']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no project "prj_nope"/);
    assert.equal((await run(['project', 'refresh'])).code, 2);
  });
});
