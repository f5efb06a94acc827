/**
 * The `hn` source against a replay of Algolia's HN search API (recordings in
 * test/fixtures/sources/hn/, written from https://hn.algolia.com/api).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Store } from '../../../src/store/db.ts';
import { collectLive, cursorStore, flatten } from '../../helpers/live.ts';
import { startReplay, type Recorded, type Route } from '../../helpers/replay-server.ts';
import { failureCases } from '../../helpers/source-failures.ts';

const since = new Date('2026-11-19T06:00:00Z');
const until = new Date('2026-11-20T06:00:00Z');

const SEARCH = /^GET \/api\/v1\/search_by_date\?/;
const routes = (search: Recorded | Recorded[], extra: Route[] = []): Route[] => [
  ...extra,
  { match: /^GET \/api\/v1\/search_by_date\?.*page=1(&|$)/, answers: { file: 'hn/search-page-1.json' } },
  { match: SEARCH, answers: search },
  { match: 'GET /api/v1/items/41000001', answers: { file: 'hn/item-41000001.json' } },
  { match: 'GET /api/v1/items/41000002', answers: { file: 'hn/item-41000002.json' } },
  { match: 'GET /api/v1/items/41000003', answers: { file: 'hn/item-41000003.json' } },
];

describe('hn source', () => {
  let cursors: { store: Store; close(): Promise<void> };
  before(async () => {
    cursors = await cursorStore();
  });
  after(() => cursors.close());

  test('pages through the search, then reads each story whole: nested comments, own times and authors, [deleted] kept, HTML and entities as text', async () => {
    const server = await startReplay(routes({ file: 'hn/search-page-0.json' }));
    try {
      const { threads, outcomes } = await collectLive(cursors.store, { communities: ['hn: Quantforge'], since, until, env: { HN_ALGOLIA_URL: server.url } });
      assert.deepEqual(outcomes, [{ community: 'hn: Quantforge', source: 'hn', status: 'ok', threads: 3, requests: 5 }]);
      assert.deepEqual(threads.map((t) => t.id), ['hn:41000002', 'hn:41000001', 'hn:41000003'], 'stories in the order their newest mention was found, each once');

      const show = threads.find((t) => t.id === 'hn:41000001')!;
      assert.equal(show.url, 'https://news.ycombinator.com/item?id=41000001');
      assert.equal(show.permalink, '/hn/item/41000001');
      assert.equal(show.community, 'Hacker News');
      assert.equal(show.title, 'Show HN: Quantforge – serve any GGUF quant with one command');
      assert.equal(show.selftext, 'We built this because serving quants by hand was painful & slow.\n\nFeedback welcome: docs');
      assert.equal(show.score, 112);
      assert.equal(show.postCreatedAt, '2026-11-19T10:00:00.000Z');
      assert.deepEqual(flatten(show), [
        { id: '41000101', author: '[deleted]', body: '[deleted]', createdAt: '2026-11-19T11:00:00.000Z', depth: 0 },
        {
          id: '41000102',
          author: 'ggml_fan',
          body: "Quantforge keeps crashing on my 3090 when the context goes past 32k / it's the KV cache, I think.\n\nRepro: qf serve --ctx 65536",
          createdAt: '2026-11-19T12:30:00.000Z',
          depth: 1,
        },
        { id: '41000103', author: 'skeptic42', body: 'How is this different from Ollama? I "just" run ollama run and it works.', createdAt: '2026-11-19T11:30:00.000Z', depth: 0 },
        { id: '41000104', author: 'qf_founder', body: "Ollama is great for one box; we handle quants that don't fit in your VRAM.", createdAt: '2026-11-19T13:00:00.000Z', depth: 1 },
      ]);
      // A story from before the window comes whole because a comment in the window mentioned the term.
      assert.equal(threads.find((t) => t.id === 'hn:41000002')!.postCreatedAt, '2026-11-18T09:00:00.000Z');

      const search = new URL(server.requests[0]!.url, server.url);
      assert.equal(search.searchParams.get('query'), 'Quantforge');
      assert.equal(search.searchParams.get('tags'), '(story,comment)');
      assert.equal(search.searchParams.get('numericFilters'), `created_at_i>${since.getTime() / 1000},created_at_i<=${until.getTime() / 1000}`);
      assert.match(String(server.requests[0]!.headers['user-agent']), /^project-signals-service\/\d+\.\d+\.\d+/);
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('an empty search collects nothing and is not a failure', async () => {
    const server = await startReplay(routes({ file: 'hn/search-empty.json' }));
    try {
      const { threads, outcomes } = await collectLive(cursors.store, { communities: ['hn: Nothingmatches'], since, until, env: { HN_ALGOLIA_URL: server.url } });
      assert.equal(threads.length, 0);
      assert.deepEqual(outcomes, [{ community: 'hn: Nothingmatches', source: 'hn', status: 'ok', threads: 0, requests: 1 }]);
    } finally {
      await server.close();
    }
  });

  test('bare `hn` searches for the project name and each tracked competitor, one search per term', async () => {
    const server = await startReplay(routes({ file: 'hn/search-empty.json' }));
    try {
      await collectLive(cursors.store, { communities: ['hn'], since, until, env: { HN_ALGOLIA_URL: server.url }, project: { name: 'Quantforge', competitors: ['Ollama', 'LM Studio'] } });
      assert.deepEqual(server.requests.map((r) => new URL(r.url, server.url).searchParams.get('query')), ['Quantforge', 'Ollama', 'LM Studio']);
    } finally {
      await server.close();
    }
  });

  test('the cursor: a second run asks only after what the first collected (less a 10-minute overlap)', async () => {
    const server = await startReplay(routes({ file: 'hn/search-empty.json' }));
    try {
      const project = { id: 'prj_cursor' };
      await collectLive(cursors.store, { communities: ['hn: Quantforge'], since, until, env: { HN_ALGOLIA_URL: server.url }, project, commit: true });
      const later = new Date(until.getTime() + 24 * 3_600_000);
      await collectLive(cursors.store, { communities: ['hn: Quantforge'], since: until, until: later, env: { HN_ALGOLIA_URL: server.url }, project });
      const filters = server.requests.map((r) => new URL(r.url, server.url).searchParams.get('numericFilters'));
      assert.deepEqual(filters, [
        `created_at_i>${since.getTime() / 1000},created_at_i<=${until.getTime() / 1000}`,
        `created_at_i>${until.getTime() / 1000 - 600},created_at_i<=${later.getTime() / 1000}`,
      ]);
    } finally {
      await server.close();
    }
  });

  test('a malformed item (not the story asked for) fails the community with the reason', async () => {
    const server = await startReplay(routes({ file: 'hn/search-page-0.json' }, [{ match: 'GET /api/v1/items/41000002', answers: { body: '{"id": 99, "children": []}' } }]));
    try {
      const { outcomes, threads } = await collectLive(cursors.store, { communities: ['hn: Quantforge'], since, until, env: { HN_ALGOLIA_URL: server.url } });
      assert.equal(outcomes[0]!.status, 'failed');
      assert.match(outcomes[0]!.error!, /story 41000002/);
      assert.equal(threads.length, 0);
    } finally {
      await server.close();
    }
  });

  test('one failing community does not stop the others; each outcome says what happened', async () => {
    const server = await startReplay(routes({ file: 'hn/search-page-0.json' }, [{ match: /^GET \/api\/v1\/search_by_date\?query=Broken/, answers: { status: 500, body: 'oops' } }]));
    try {
      const { outcomes, threads } = await collectLive(cursors.store, {
        communities: ['hn: Broken', 'hn: Quantforge', 'somewhere: else'],
        since,
        until,
        env: { HN_ALGOLIA_URL: server.url },
        http: { retries: 1 },
      });
      assert.equal(threads.length, 3);
      assert.deepEqual(
        outcomes.map((o) => [o.community, o.status, o.threads]),
        [
          ['somewhere: else', 'skipped', 0],
          ['hn: Broken', 'failed', 0],
          ['hn: Quantforge', 'ok', 3],
        ],
      );
      assert.match(outcomes[1]!.error!, /answered 500 2 times/);
      assert.match(outcomes[0]!.error!, /unknown community address/);
    } finally {
      await server.close();
    }
  });

  failureCases('hn', () => cursors.store, {
    normal: { file: 'hn/search-page-0.json' },
    threads: 3,
    async start(first) {
      const server = await startReplay(routes(first));
      return { live: { communities: ['hn: Quantforge'], since, until, env: { HN_ALGOLIA_URL: server.url } }, close: () => server.close() };
    },
  });
});
