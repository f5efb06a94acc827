/**
 * The `discourse` source against a replay of a Discourse forum's public JSON (recordings in
 * test/fixtures/sources/discourse/, written from https://docs.discourse.org: `/latest.json`,
 * `/c/…/l/latest.json`, `/t/ID.json`, `/t/ID/posts.json`).
 *
 * A forum address is a user's, so the client refuses the replay server's 127.0.0.1 unless
 * FETCH_ALLOW_HOSTS names it: every case passes it, except the one showing the refusal.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { collectDiscourse } from '../../../src/ingest/sources/discourse.ts';
import { PoliteClient, SourceError } from '../../../src/net/polite.ts';
import type { Store } from '../../../src/store/db.ts';
import { collectLive, cursorStore, flatten, settingsFrom } from '../../helpers/live.ts';
import { startReplay, type Recorded, type ReplayServer, type Route } from '../../helpers/replay-server.ts';
import { failureCases } from '../../helpers/source-failures.ts';

const since = new Date('2026-11-19T06:00:00Z');
const until = new Date('2026-11-20T06:00:00Z');

const LATEST = /^GET \/latest\.json\?order=activity$/;
const routes = (latest: Recorded | Recorded[], extra: Route[] = []): Route[] => [
  ...extra,
  { match: 'GET /latest.json?order=activity&page=1', answers: { file: 'discourse/latest-page-1.json' } },
  { match: LATEST, answers: latest },
  { match: 'GET /t/101.json', answers: { file: 'discourse/topic-101.json' } },
  { match: 'GET /t/102.json', answers: { file: 'discourse/topic-102.json' } },
  { match: 'GET /t/102/posts.json?', answers: { file: 'discourse/topic-102-posts.json' } },
  { match: 'GET /t/105.json', answers: { file: 'discourse/topic-105.json' } },
];

const env = (server: ReplayServer) => ({ FETCH_ALLOW_HOSTS: server.host });
const paths = (server: ReplayServer) => server.requests.map((r) => r.url);

describe('discourse source', () => {
  let cursors: { store: Store; close(): Promise<void> };
  before(async () => {
    cursors = await cursorStore();
  });
  after(() => cursors.close());

  test('pages the activity-sorted list, reads each active topic whole: nested comments, own times and authors, [deleted] kept, HTML and entities as text', async () => {
    const server = await startReplay(routes({ file: 'discourse/latest.json' }));
    try {
      const community = `discourse: ${server.url}`;
      const { threads, outcomes } = await collectLive(cursors.store, { communities: [community], since, until, env: env(server) });
      assert.deepEqual(outcomes, [{ community, source: 'discourse', status: 'ok', threads: 3, requests: 6 }]);
      // Topic 7 (pinned globally, quiet since 2025) and 103 (last post after the window) are not read;
      // page 1 ends with a topic quiet before the window, so page 2 is not asked for.
      assert.deepEqual(paths(server), [
        '/latest.json?order=activity',
        '/latest.json?order=activity&page=1',
        '/t/101.json',
        '/t/102.json',
        '/t/102/posts.json?post_ids[]=2021&post_ids[]=2022',
        '/t/105.json',
      ]);
      assert.deepEqual(threads.map((t) => t.id), [`dc:${server.host}:101`, `dc:${server.host}:102`, `dc:${server.host}:105`], 'newest activity first');

      const crash = threads[0]!;
      assert.equal(crash.url, `${server.url}/t/quantforge-crashes-with-cuda-out-of-memory-on-24-gb-cards/101`);
      assert.equal(crash.permalink, `/${server.host}/t/101`);
      assert.equal(crash.community, server.host);
      assert.equal(crash.title, 'Quantforge crashes with “CUDA out of memory” on 24 GB cards');
      assert.equal(crash.selftext, 'Every time I load a 70B Q4 model, Quantforge dies with CUDA out of memory & the server exits.\n\n- RTX 4090, 24 GB\n- Quantforge 0.9.2', 'list items on their own lines, the newlines between Discourse\'s tags being layout');
      assert.equal(crash.author, 'gpu_poor');
      assert.equal(crash.score, 7, 'likes of the first post');
      assert.equal(crash.postCreatedAt, '2026-11-19T08:00:00.000Z');
      assert.deepEqual(
        crash.comments.map((c) => c.score),
        [2, 0],
      );
      assert.deepEqual(flatten(crash), [
        { id: 'p1002', author: 'qf_dev', body: 'Can you share the full log? Which <ctx> size did you set?', createdAt: '2026-11-19T09:00:00.000Z', depth: 0 },
        { id: 'p1003', author: 'gpu_poor', body: "qf_dev:\n\nCan you share the full log?\n\nHere it is: ctx 32768. I think it's the KV cache.", createdAt: '2026-11-19T10:00:00.000Z', depth: 1 },
        { id: 'p1006', author: 'ollama_user', body: 'Same here. Switched to Ollama > it just works', createdAt: '2026-11-19T15:00:00.000Z', depth: 2 },
        // Withdrawn by its author; the "reopened" small action (post 5) is not a comment.
        { id: 'p1004', author: '[deleted]', body: '[deleted]', createdAt: '2026-11-19T11:00:00.000Z', depth: 0 },
      ]);

      // An older topic with 22 posts: the last two came from posts.json, one replying to the other.
      const split = threads[1]!;
      assert.equal(split.postCreatedAt, '2026-11-10T10:00:00.000Z');
      assert.equal(split.score, 12);
      const splitComments = flatten(split);
      assert.equal(splitComments.length, 21);
      assert.deepEqual(splitComments.slice(-2), [
        { id: 'p2021', author: 'newbie', body: "Any update? Still can't use the second card.", createdAt: '2026-11-19T08:00:00.000Z', depth: 0 },
        { id: 'p2022', author: 'qf_dev', body: 'Tensor splitting landed in 0.10 nightly, try --split 2.', createdAt: '2026-11-19T09:00:00.000Z', depth: 1 },
      ]);
      assert.equal(splitComments.find((c) => c.id === 'p2003')!.depth, 1, 'post 3 replies to post 2');

      const pin = threads[2]!;
      assert.equal(pin.selftext, "Docs say CUDA 12.4 & up. I'm on 12.2 – is there a flag?");
      assert.deepEqual(pin.comments, []);

      for (const request of server.requests) {
        assert.match(String(request.headers['user-agent']), /^project-signals-service\/\d+\.\d+\.\d+/);
        assert.equal(request.headers.accept, 'application/json');
        assert.equal(request.headers.cookie, undefined, 'an anonymous visitor: no cookies');
        assert.equal(request.headers.authorization, undefined);
        assert.equal(request.headers['api-key'], undefined);
      }
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('requests to one forum are spaced out (400 ms apart)', async () => {
    const server = await startReplay(routes({ file: 'discourse/latest.json' }));
    try {
      const { waits } = await collectLive(cursors.store, { communities: [`discourse: ${server.url}`], since, until, env: env(server) });
      assert.deepEqual(waits, [400, 400, 400, 400, 400]);
    } finally {
      await server.close();
    }
  });

  test('an empty list collects nothing and is not a failure', async () => {
    const server = await startReplay(routes({ file: 'discourse/latest-empty.json' }));
    try {
      const community = `discourse: ${server.url}/`;
      const { threads, outcomes } = await collectLive(cursors.store, { communities: [community], since, until, env: env(server) });
      assert.equal(threads.length, 0);
      assert.deepEqual(outcomes, [{ community, source: 'discourse', status: 'ok', threads: 0, requests: 1 }]);
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('a category: its own list; a pinned "About" topic quiet in the window is skipped, a pinned topic with a new reply is read', async () => {
    const server = await startReplay(
      routes({ file: 'discourse/latest-empty.json' }, [
        { match: 'GET /c/support/5/l/latest.json?order=activity', answers: { file: 'discourse/category-support.json' } },
        { match: 'GET /t/51.json', answers: { file: 'discourse/topic-51.json' } },
      ]),
    );
    try {
      const community = `discourse: ${server.url}/c/support/5`;
      const { threads, outcomes } = await collectLive(cursors.store, { communities: [community], since, until, env: env(server) });
      assert.deepEqual(outcomes, [{ community, source: 'discourse', status: 'ok', threads: 2, requests: 3 }]);
      assert.deepEqual(paths(server), ['/c/support/5/l/latest.json?order=activity', '/t/51.json', '/t/105.json']);
      assert.equal(threads[0]!.community, `${server.host} / support`);
      assert.equal(threads[0]!.title, 'Read this before posting');
      assert.equal(threads[0]!.author, 'moderator_mia');
      assert.deepEqual(flatten(threads[0]!).map((c) => [c.author, c.createdAt]), [['gpu_poor', '2026-11-19T20:00:00.000Z']]);
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('the window: a topic whose last post is before it is not read, even on the first page', async () => {
    const server = await startReplay(routes({ file: 'discourse/latest.json' }));
    try {
      // From 12:00: topic 102 (last post 09:00) and everything older are out; page 1 is not asked for.
      const { threads } = await collectLive(cursors.store, { communities: [`discourse: ${server.url}`], since: new Date('2026-11-19T12:00:00Z'), until, env: env(server) });
      assert.deepEqual(threads.map((t) => t.id), [`dc:${server.host}:101`]);
      assert.deepEqual(paths(server), ['/latest.json?order=activity', '/t/101.json']);
    } finally {
      await server.close();
    }
  });

  test('the list is read at most 5 pages deep, saying so', async () => {
    const busy = JSON.stringify({
      topic_list: {
        more_topics_url: '/latest?order=activity&page=9',
        per_page: 30,
        topics: [{ id: 105, slug: 'x', title: 'x', created_at: '2026-11-19T06:30:00.000Z', last_posted_at: '2026-11-19T06:30:00.000Z', bumped_at: '2026-11-19T06:30:00.000Z', pinned: false }],
      },
    });
    const server = await startReplay([{ match: /^GET \/latest\.json\?order=activity/, answers: { body: busy } }, ...routes({ body: busy })]);
    try {
      const { outcomes, threads } = await collectLive(cursors.store, { communities: [`discourse: ${server.url}`], since, until, env: env(server) });
      assert.equal(threads.length, 1);
      assert.deepEqual(paths(server).slice(0, 5), ['', '&page=1', '&page=2', '&page=3', '&page=4'].map((p) => `/latest.json?order=activity${p}`));
      assert.equal(outcomes[0]!.requests, 6);
      assert.match(outcomes[0]!.notes!.join('\n'), /after 5 pages/);
    } finally {
      await server.close();
    }
  });

  test('a long topic: only its newest 140 replies beyond the first 20 are read, 20 per request, saying how many were left out', async () => {
    const stream = Array.from({ length: 300 }, (_, i) => 3001 + i);
    const post = (id: number, n: number) => ({ id, username: `u${n}`, created_at: `2026-11-19T10:${String(n % 60).padStart(2, '0')}:00.000Z`, cooked: `<p>post ${n}</p>`, post_number: n, post_type: 1, reply_to_post_number: null, actions_summary: [] });
    const topic = { id: 101, title: 'Long', slug: 'long', created_at: '2026-11-19T10:00:00.000Z', post_stream: { posts: stream.slice(0, 20).map((id, i) => post(id, i + 1)), stream }, chunk_size: 20 };
    const server = await startReplay(
      routes({ file: 'discourse/latest.json' }, [
        { match: 'GET /t/101.json', answers: { body: JSON.stringify(topic) } },
        { match: 'GET /t/101/posts.json?', answers: { body: JSON.stringify({ post_stream: { posts: [post(3299, 299), post(3300, 300)] }, id: 101 }) } },
      ]),
    );
    try {
      const { outcomes } = await collectLive(cursors.store, { communities: [`discourse: ${server.url}`], since, until, env: env(server) });
      const asked = server.requests.filter((r) => r.url.startsWith('/t/101/posts.json')).map((r) => new URL(r.url, server.url).searchParams.getAll('post_ids[]'));
      assert.equal(asked.length, 7);
      assert.ok(asked.every((ids) => ids.length === 20));
      assert.equal(asked[0]![0], '3161', 'the newest 140: ids 3161…3300');
      assert.equal(asked[6]![19], '3300');
      assert.ok(outcomes[0]!.notes!.some((n) => /topic 101: 140 older replies past the per-topic bound of 160 posts were left out/.test(n)), JSON.stringify(outcomes[0]!.notes));
    } finally {
      await server.close();
    }
  });

  test('a topic gone between the list and its reading (404) is skipped with a note, the rest collected', async () => {
    const server = await startReplay(routes({ file: 'discourse/latest.json' }, [{ match: 'GET /t/102.json', answers: { status: 404, body: '{"errors":["The requested URL or resource could not be found."],"error_type":"not_found"}' } }]));
    try {
      const { outcomes, threads } = await collectLive(cursors.store, { communities: [`discourse: ${server.url}`], since, until, env: env(server) });
      assert.equal(outcomes[0]!.status, 'ok');
      assert.deepEqual(threads.map((t) => t.id.split(':').pop()), ['101', '105']);
      assert.deepEqual(outcomes[0]!.notes, ['topic 102 could not be read (deleted or made private since it was listed); skipped']);
    } finally {
      await server.close();
    }
  });

  test("Discourse's own 429 (Retry-After and a rate_limit body) is waited out", async () => {
    const limited: Recorded = {
      status: 429,
      headers: { 'retry-after': '7', 'discourse-rate-limit-error-code': 'ip_10_secs_limit' },
      body: '{"errors":["You’ve performed this action too many times. Please wait 7 seconds before trying again."],"error_type":"rate_limit","extras":{"wait_seconds":7,"time_left":"7 seconds"}}',
    };
    const server = await startReplay(routes({ file: 'discourse/latest.json' }, [{ match: 'GET /t/101.json', answers: [limited, { file: 'discourse/topic-101.json' }] }]));
    try {
      const { outcomes, threads, waits } = await collectLive(cursors.store, { communities: [`discourse: ${server.url}`], since, until, env: env(server) });
      assert.equal(outcomes[0]!.status, 'ok', outcomes[0]!.error);
      assert.equal(threads.length, 3);
      assert.ok(waits.includes(7_000), JSON.stringify(waits));
    } finally {
      await server.close();
    }
  });

  test('malformed answers fail the community with the reason', async () => {
    for (const [answer, reason] of [
      [{ body: '{"posts":[]}' }, /without "topic_list.topics" \(is it a Discourse forum\?\)/],
      [{ body: '[1,2,3]' }, /without "topic_list.topics"/],
    ] as const) {
      const server = await startReplay(routes(answer));
      try {
        const { outcomes } = await collectLive(cursors.store, { communities: [`discourse: ${server.url}`], since, until, env: env(server) });
        assert.equal(outcomes[0]!.status, 'failed');
        assert.match(outcomes[0]!.error!, reason);
      } finally {
        await server.close();
      }
    }
    const server = await startReplay(routes({ file: 'discourse/latest.json' }, [{ match: 'GET /t/101.json', answers: { body: '{"id": 99, "post_stream": {"posts": []}}' } }]));
    try {
      const { outcomes, threads } = await collectLive(cursors.store, { communities: [`discourse: ${server.url}`], since, until, env: env(server) });
      assert.equal(outcomes[0]!.status, 'failed');
      assert.match(outcomes[0]!.error!, /topic 101 of 127\.0\.0\.1:\d+ is not that topic/);
      assert.equal(threads.length, 0);
    } finally {
      await server.close();
    }
  });

  test('a forum that needs a login fails with a clear message: 403 JSON, or a redirect to its HTML login page', async () => {
    const server = await startReplay([
      { match: 'GET /latest.json', answers: { status: 403, body: '{"errors":["You need to be logged in to do that."],"error_type":"not_logged_in"}' } },
      { match: 'GET /c/staff/l/latest.json', answers: { status: 302, headers: { location: '/login' }, body: '' } },
      { match: 'GET /login', answers: { file: 'discourse/login.html' } },
    ]);
    try {
      const { outcomes } = await collectLive(cursors.store, { communities: [`discourse: ${server.url}`, `discourse: ${server.url}/c/staff`], since, until, env: env(server) });
      assert.deepEqual(outcomes.map((o) => o.status), ['failed', 'failed']);
      assert.equal(outcomes[0]!.error, `${server.host}: the forum needs a login (403: You need to be logged in to do that.); only public Discourse forums can be watched`);
      assert.match(outcomes[1]!.error!, /HTML page instead of JSON .*needs a login sends its login page: only public Discourse forums can be watched/);
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('a forum on a loopback address is refused unless FETCH_ALLOW_HOSTS names it', async () => {
    const server = await startReplay(routes({ file: 'discourse/latest.json' }));
    try {
      const { outcomes, threads } = await collectLive(cursors.store, { communities: [`discourse: ${server.url}`], since, until });
      assert.equal(outcomes[0]!.status, 'failed');
      assert.match(outcomes[0]!.error!, /^127\.0\.0\.1 is not a public address .*FETCH_ALLOW_HOSTS/);
      assert.equal(threads.length, 0);
      assert.equal(server.requests.length, 0, 'nothing reached the address');

      // The adapter's own failure, as the run records it: reason `address`.
      const collect = {
        http: new PoliteClient({ retries: 0 }),
        settings: settingsFrom({}),
        after: since,
        until,
        project: { name: 'Quantforge', competitors: [] },
        read: () => {},
        note: () => {},
      };
      await assert.rejects(
        async () => {
          for await (const _ of collectDiscourse(collect, server.url, null)) void _;
        },
        (err: unknown) => err instanceof SourceError && err.reason === 'address' && /is not a public address/.test(err.message),
      );
    } finally {
      await server.close();
    }
  });

  test('one failing community does not stop the others; each outcome says what happened', async () => {
    const server = await startReplay(
      routes({ file: 'discourse/latest.json' }, [
        { match: 'GET /c/private/l/latest.json', answers: { status: 404, body: '{"errors":["The requested URL or resource could not be found."],"error_type":"not_found"}' } },
      ]),
    );
    try {
      const { outcomes, threads } = await collectLive(cursors.store, { communities: [`discourse: ${server.url}/c/private`, `discourse: ${server.url}`], since, until, env: env(server) });
      assert.equal(threads.length, 3);
      assert.deepEqual(
        outcomes.map((o) => [o.community, o.status, o.threads, o.requests]),
        [
          [`discourse: ${server.url}/c/private`, 'failed', 0, 1],
          [`discourse: ${server.url}`, 'ok', 3, 6],
        ],
      );
      assert.equal(outcomes[0]!.error, `${server.host} has no public category "private" at /c/private/l/latest.json (404): it does not exist, is not a Discourse forum, or needs a login`);
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  failureCases('discourse', () => cursors.store, {
    normal: { file: 'discourse/latest.json' },
    threads: 3,
    async start(first) {
      const server = await startReplay(routes(first));
      return { live: { communities: [`discourse: ${server.url}`], since, until, env: env(server) }, close: () => server.close() };
    },
  });
});
