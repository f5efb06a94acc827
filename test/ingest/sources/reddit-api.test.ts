/**
 * The `reddit-api` source against a replay of Reddit's Data API (recordings in
 * test/fixtures/sources/reddit-api/, written from https://www.reddit.com/dev/api and
 * https://github.com/reddit-archive/reddit/wiki/OAuth2): the app-only token, the multireddit's
 * `new` listing, `/comments/ID` trees with `more` stubs and `/api/morechildren`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Store } from '../../../src/store/db.ts';
import { collectLive, cursorStore, flatten } from '../../helpers/live.ts';
import { startReplay, type Recorded, type Route } from '../../helpers/replay-server.ts';
import { failureCases } from '../../helpers/source-failures.ts';

const since = new Date('2026-11-19T06:00:00Z');
const until = new Date('2026-11-20T06:00:00Z');
const SECRET = 'qf-s3cret-value';
const communities = ['r/LocalLLaMA', 'r/SaaS'];

/** What Reddit sends with every API answer: plenty of the 600-per-10-minutes budget left. */
const RATE = { 'x-ratelimit-remaining': '597.0', 'x-ratelimit-used': '3', 'x-ratelimit-reset': '412' };
const api = (file: string, headers: Record<string, string> = RATE): Recorded => ({ file: `reddit-api/${file}`, headers });

const TOKEN = 'POST /api/v1/access_token';
const PAGE_2 = 'GET /r/LocalLLaMA+SaaS/new?limit=100&raw_json=1&after=t3_1gx4def';
const PAGE_1 = 'GET /r/LocalLLaMA+SaaS/new?limit=100&raw_json=1';
const COMMENTS_5 = 'GET /comments/1gx5abc?limit=500&depth=10&sort=old&raw_json=1';
const COMMENTS_4 = 'GET /comments/1gx4def?limit=500&depth=10&sort=old&raw_json=1';
const MORE_A = 'GET /api/morechildren?api_type=json&link_id=t3_1gx5abc&children=kqa0005,kqa0006&raw_json=1';
const MORE_B = 'GET /api/morechildren?api_type=json&link_id=t3_1gx5abc&children=kqa0007&raw_json=1';

/** The recorded answers; `multi` is the multireddit asked for (one or two of the subreddits). */
/** A route for exactly this request line (a string route matches any line it starts). */
const exact = (line: string) => new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
const LISTING_ONE = 'GET /r/LocalLLaMA/new?limit=100&raw_json=1';

const routes = (token: Recorded | Recorded[], extra: Route[] = [], multi = 'LocalLLaMA+SaaS'): Route[] => [
  ...extra,
  { match: TOKEN, answers: token },
  { match: exact(`GET /r/${multi}/new?limit=100&raw_json=1&after=t3_1gx4def`), answers: api('new-page-2.json') },
  { match: exact(`GET /r/${multi}/new?limit=100&raw_json=1`), answers: api('new-page-1.json') },
  { match: COMMENTS_5, answers: api('comments-1gx5abc.json') },
  { match: COMMENTS_4, answers: api('comments-1gx4def.json') },
  { match: MORE_A, answers: api('morechildren-1gx5abc-a.json') },
  { match: MORE_B, answers: api('morechildren-1gx5abc-b.json') },
];

const envOf = (url: string, more: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  REDDIT_CLIENT_ID: 'qf-app-id',
  REDDIT_CLIENT_SECRET: SECRET,
  REDDIT_URL: url,
  REDDIT_API_URL: url,
  ...more,
});

const lines = (server: { requests: { method: string; url: string }[] }) => server.requests.map((r) => `${r.method} ${r.url}`);

describe('reddit-api source', () => {
  let cursors: { store: Store; close(): Promise<void> };
  before(async () => {
    cursors = await cursorStore();
  });
  after(() => cursors.close());

  test('signs in app-only, pages the multireddit to the window start, reads each post whole with its "more" comments', async () => {
    const server = await startReplay(routes({ file: 'reddit-api/token.json' }));
    try {
      const { threads, outcomes } = await collectLive(cursors.store, { communities, since, until, env: envOf(server.url) });
      const note = '1 reply chains deeper than 10 levels ("continue this thread") were not read';
      assert.deepEqual(outcomes, [
        { community: 'r/LocalLLaMA', source: 'reddit-api', status: 'ok', threads: 2, requests: 7, notes: [note] },
        { community: 'r/SaaS', source: 'reddit-api', status: 'ok', threads: 1, requests: 7, notes: [note] },
      ]);
      // The post after `until` and the one before `after` are skipped; paging stops at the latter;
      // a post without comments costs no comments request.
      assert.deepEqual(lines(server), [TOKEN, PAGE_1, PAGE_2, COMMENTS_5, MORE_A, MORE_B, COMMENTS_4]);
      assert.deepEqual(threads.map((t) => [t.id, t.community, t.postCreatedAt]), [
        ['1gx5abc', 'LocalLLaMA', '2026-11-19T14:40:00.000Z'],
        ['1gx4def', 'SaaS', '2026-11-19T09:15:00.000Z'],
        ['1gx3ghi', 'LocalLLaMA', '2026-11-19T07:05:00.000Z'],
      ]);

      const oom = threads[0]!;
      assert.equal(oom.url, 'https://www.reddit.com/r/LocalLLaMA/comments/1gx5abc/quantforge_ooms_past_32k_context_im_out_of_ideas/');
      assert.equal(oom.permalink, '/r/LocalLLaMA/comments/1gx5abc/quantforge_ooms_past_32k_context_im_out_of_ideas/');
      assert.equal(oom.title, "Quantforge OOMs past 32k context & I'm out of ideas");
      // Markdown as written, entities rendered (the rich-text editor's zero-width space and
      // non-breaking space), typed HTML kept as Reddit shows it.
      assert.equal(oom.selftext, 'Setup: 3090 + 64GB RAM, Q4\\_K\\_M.\n\n\u200b\n\nIt dies with `CUDA error: out of memory` once the context passes 32k. Tried\u00a0`--ctx 65536`, <b>no luck</b>.');
      assert.equal(oom.author, 'vram_starved');
      assert.equal(oom.score, 57);
      assert.deepEqual(flatten(oom), [
        { id: 'kqa0001', author: 'ggml_fan', body: "Same here on a 4090 & 128GB.\n\nQuantforge keeps crashing when I go past 32k. <br> tags don't render here, fyi.", createdAt: '2026-11-19T15:00:00.000Z', depth: 0 },
        { id: 'kqa0002', author: 'qf_founder', body: "Known issue: the KV cache isn't quantized yet. Fix lands in 0.9 — sorry!", createdAt: '2026-11-19T16:10:00.000Z', depth: 1 },
        { id: 'kqa0003', author: '[deleted]', body: '[deleted]', createdAt: '2026-11-19T16:30:00.000Z', depth: 2 },
        { id: 'kqa0004', author: '[deleted]', body: '[removed]', createdAt: '2026-11-19T15:20:00.000Z', depth: 0 },
        // From /api/morechildren: flat things nested by parent_id, a further `more` expanded too.
        { id: 'kqa0005', author: 'lm_tinkerer', body: 'Switched to Ollama for long context, no OOMs so far.', createdAt: '2026-11-19T17:00:00.000Z', depth: 0 },
        { id: 'kqa0006', author: 'qf_founder', body: 'Fair. Ollama offloads the cache to RAM; we will too.', createdAt: '2026-11-19T17:45:00.000Z', depth: 1 },
        { id: 'kqa0007', author: 'lm_tinkerer', body: 'Ping me when it ships.', createdAt: '2026-11-19T18:00:00.000Z', depth: 2 },
      ]);
      assert.equal(oom.comments[0]!.score, 21);

      const removed = threads[1]!;
      assert.equal(removed.author, '[deleted]');
      assert.equal(removed.selftext, '[removed]');
      assert.deepEqual(flatten(removed).map((c) => [c.id, c.author, c.body]), [['kqb0001', 'churned_founder', 'Mods removed it, but the gist: pricing jumped 3× overnight.']]);
      assert.equal(threads[2]!.selftext, 'Asking before I buy <3');
      assert.deepEqual(threads[2]!.comments, []);

      // The token request: Basic auth of id:secret, a form body, the User-Agent Reddit requires.
      const token = server.requests[0]!;
      assert.equal(token.headers.authorization, `Basic ${Buffer.from(`qf-app-id:${SECRET}`).toString('base64')}`);
      assert.equal(token.headers['content-type'], 'application/x-www-form-urlencoded');
      assert.equal(token.body, 'grant_type=client_credentials');
      for (const request of server.requests) {
        assert.match(String(request.headers['user-agent']), /^server:project-signals-service:\d+\.\d+\.\d+ \(by \/u\/unknown\)$/);
      }
      for (const request of server.requests.slice(1)) assert.equal(request.headers.authorization, 'bearer eyJhbGciOiJSUzI1NiJ9.app-only-token-1');
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('an empty listing collects nothing and is not a failure; REDDIT_USER_AGENT is sent as given', async () => {
    const ua = 'server:quantforge-signals:1.2.0 (by /u/qf_founder)';
    const server = await startReplay(routes({ file: 'reddit-api/token.json' }, [{ match: exact(LISTING_ONE), answers: api('new-empty.json') }]));
    try {
      const { threads, outcomes } = await collectLive(cursors.store, { communities: ['r/LocalLLaMA'], since, until, env: envOf(server.url, { REDDIT_USER_AGENT: ua }) });
      assert.equal(threads.length, 0);
      assert.deepEqual(outcomes, [{ community: 'r/LocalLLaMA', source: 'reddit-api', status: 'ok', threads: 0, requests: 2 }]);
      assert.deepEqual(lines(server), [TOKEN, LISTING_ONE]);
      for (const request of server.requests) assert.equal(request.headers['user-agent'], ua);
    } finally {
      await server.close();
    }
  });

  test('refused credentials (401, or invalid_grant with 200) fail with a clear message that never shows the secret', async () => {
    for (const refusal of [{ status: 401, body: '{"message": "Unauthorized", "error": 401}' }, { body: '{"error": "invalid_grant"}' }] as Recorded[]) {
      const server = await startReplay(routes(refusal));
      try {
        const { threads, outcomes } = await collectLive(cursors.store, { communities, since, until, env: envOf(server.url) });
        assert.equal(threads.length, 0);
        for (const outcome of outcomes) {
          assert.equal(outcome.status, 'failed');
          assert.match(outcome.error!, /^Reddit refused the app credentials \(REDDIT_CLIENT_ID\/SECRET\)/);
          assert.doesNotMatch(outcome.error!, new RegExp(SECRET));
          assert.doesNotMatch(outcome.error!, new RegExp(Buffer.from(`qf-app-id:${SECRET}`).toString('base64')));
        }
        assert.deepEqual(lines(server), [TOKEN], 'nothing else is asked without a token');
      } finally {
        await server.close();
      }
    }
  });

  test('a 401 on an API call (an expired token) gets one new token and a repeat', async () => {
    const server = await startReplay(
      routes([{ file: 'reddit-api/token.json' }, { body: '{"access_token": "second-token", "token_type": "bearer", "expires_in": 86400, "scope": "*"}' }], [
        { match: exact(LISTING_ONE), answers: [{ status: 401, body: '{"message": "Unauthorized", "error": 401}' }, api('new-empty.json')] },
      ]),
    );
    try {
      const { outcomes } = await collectLive(cursors.store, { communities: ['r/LocalLLaMA'], since, until, env: envOf(server.url) });
      assert.equal(outcomes[0]!.status, 'ok', outcomes[0]!.error);
      assert.deepEqual(lines(server), [TOKEN, LISTING_ONE, TOKEN, LISTING_ONE]);
      assert.equal(server.requests[3]!.headers.authorization, 'bearer second-token');
    } finally {
      await server.close();
    }
  });

  test('a spent rate budget (X-Ratelimit-Remaining 0) holds the API host until the reset; a reset longer than a run waits stops the run there', async () => {
    const spent = (reset: string) => ({ match: exact(PAGE_1), answers: api('new-page-1.json', { 'x-ratelimit-remaining': '0.0', 'x-ratelimit-used': '600', 'x-ratelimit-reset': reset }) });
    const server = await startReplay(routes({ file: 'reddit-api/token.json' }, [spent('42')]));
    try {
      const { outcomes, threads, waits } = await collectLive(cursors.store, { communities, since, until, env: envOf(server.url) });
      assert.equal(outcomes[0]!.status, 'ok', outcomes[0]!.error);
      assert.equal(threads.length, 3);
      assert.deepEqual(waits, [42_000], 'the request after the spent budget waited for the reset');
    } finally {
      await server.close();
    }
    const late = await startReplay(routes({ file: 'reddit-api/token.json' }, [spent('540')]));
    try {
      const { outcomes, threads } = await collectLive(cursors.store, { communities, since, until, env: envOf(late.url) });
      assert.equal(outcomes[0]!.status, 'failed');
      assert.match(outcomes[0]!.error!, /rate budget spent \(600 requests used\): asked to wait 540 s, more than the 120 s a run waits/);
      assert.equal(threads.length, 0);
      assert.deepEqual(lines(late), [TOKEN, PAGE_1], 'nothing is sent once the budget is known to be spent');
    } finally {
      await late.close();
    }
  });

  test('429 on the API without Retry-After waits for X-Ratelimit-Reset', async () => {
    const server = await startReplay(
      routes({ file: 'reddit-api/token.json' }, [{ match: exact(LISTING_ONE), answers: [{ status: 429, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-used': '600', 'x-ratelimit-reset': '17' }, body: '{"message": "Too Many Requests", "error": 429}' }, api('new-empty.json')] }]),
    );
    try {
      const { outcomes, waits } = await collectLive(cursors.store, { communities: ['r/LocalLLaMA'], since, until, env: envOf(server.url) });
      assert.equal(outcomes[0]!.status, 'ok', outcomes[0]!.error);
      assert.deepEqual(waits, [17_000]);
    } finally {
      await server.close();
    }
  });

  test('a private subreddit (403 on the listing) fails every community of the multireddit, saying why', async () => {
    const server = await startReplay(routes({ file: 'reddit-api/token.json' }, [{ match: exact(PAGE_1), answers: { status: 403, body: '{"reason": "private", "message": "Forbidden", "error": 403}' } }]));
    try {
      const { outcomes, threads } = await collectLive(cursors.store, { communities, since, until, env: envOf(server.url) });
      assert.equal(threads.length, 0);
      assert.deepEqual(outcomes.map((o) => [o.community, o.status, o.requests]), [
        ['r/LocalLLaMA', 'failed', 2],
        ['r/SaaS', 'failed', 2],
      ]);
      assert.equal(outcomes[0]!.error, 'Reddit refused to list r/LocalLLaMA+SaaS (403 private): a private or quarantined subreddit is among them; remove it from the watched communities');
    } finally {
      await server.close();
    }
  });

  test('a banned or missing subreddit (404) fails, saying so', async () => {
    const server = await startReplay(routes({ file: 'reddit-api/token.json' }, [{ match: exact(PAGE_1), answers: { status: 404, body: '{"reason": "banned", "message": "Not Found", "error": 404}' } }]));
    try {
      const { outcomes } = await collectLive(cursors.store, { communities, since, until, env: envOf(server.url) });
      assert.equal(outcomes[1]!.status, 'failed');
      assert.match(outcomes[1]!.error!, /^Reddit has no listing for r\/LocalLLaMA\+SaaS \(404 banned\): a subreddit among them does not exist or was banned$/);
    } finally {
      await server.close();
    }
  });

  test('a malformed listing fails the collection with the reason', async () => {
    const server = await startReplay(routes({ file: 'reddit-api/token.json' }, [{ match: exact(LISTING_ONE), answers: { body: '{"kind": "Listing", "data": {"after": null}}' } }]));
    try {
      const { outcomes } = await collectLive(cursors.store, { communities: ['r/LocalLLaMA'], since, until, env: envOf(server.url) });
      assert.equal(outcomes[0]!.status, 'failed');
      assert.match(outcomes[0]!.error!, /the listing of r\/LocalLLaMA is not a Reddit Listing/);
    } finally {
      await server.close();
    }
  });

  test('a post whose comments cannot be read (5xx after retries, a truncated answer) is kept with what was read, and noted; the rest is collected', async () => {
    const server = await startReplay(
      routes({ file: 'reddit-api/token.json' }, [
        { match: COMMENTS_5, answers: { status: 502, body: '<html><body>Bad Gateway</body></html>' } },
        { match: COMMENTS_4, answers: { ...api('comments-1gx4def.json'), truncateAt: 300 } },
      ]),
    );
    try {
      const { outcomes, threads } = await collectLive(cursors.store, { communities, since, until, env: envOf(server.url), http: { retries: 1 } });
      assert.deepEqual(outcomes.map((o) => [o.community, o.status, o.threads]), [
        ['r/LocalLLaMA', 'ok', 2],
        ['r/SaaS', 'ok', 1],
      ]);
      assert.deepEqual(threads.map((t) => [t.id, t.comments.length]), [
        ['1gx5abc', 0],
        ['1gx4def', 0],
        ['1gx3ghi', 0],
      ]);
      const notes = outcomes[0]!.notes!;
      assert.equal(notes.length, 2);
      assert.match(notes[0]!, /^post 1gx5abc: its comments could not all be read \(.*answered 502 2 times\); kept with the 0 that were$/);
      assert.match(notes[1]!, /^post 1gx4def: its comments could not all be read \(.*does not parse.*\); kept with the 0 that were$/);
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('a thread whose "more" stubs never end stops at the per-thread bound, keeping what it read, and says so', async () => {
    // Every expansion answers one new comment and one more stub (the replay repeats its last answer).
    const endless = (n: number): Recorded => ({
      body: JSON.stringify({
        json: {
          errors: [],
          data: {
            things: [
              { kind: 't1', data: { id: `kqz000${n}`, name: `t1_kqz000${n}`, parent_id: 't3_1gx5abc', link_id: 't3_1gx5abc', author: 'chatty', body: `reply ${n}`, score: 1, created_utc: 1795112000 + n, replies: '' } },
              { kind: 'more', data: { count: 900, name: `t1_kqz100${n}`, id: `kqz100${n}`, parent_id: 't3_1gx5abc', depth: 0, children: [`kqz100${n}`] } },
            ],
          },
        },
      }),
      headers: RATE,
    });
    const server = await startReplay(
      routes({ file: 'reddit-api/token.json' }, [
        { match: /^GET \/api\/morechildren\?.*children=kqa0005,kqa0006&/, answers: endless(0) },
        ...[1, 2, 3, 4, 5].map((n) => ({ match: new RegExp(`^GET /api/morechildren\\?.*children=kqz100${n - 1}&`), answers: endless(n) })),
      ], 'LocalLLaMA'),
    );
    try {
      const { outcomes, threads } = await collectLive(cursors.store, { communities: ['r/LocalLLaMA'], since, until, env: envOf(server.url) });
      assert.equal(outcomes[0]!.status, 'ok', outcomes[0]!.error);
      assert.equal(server.requests.filter((r) => r.url.startsWith('/api/morechildren')).length, 5);
      assert.equal(flatten(threads[0]!).filter((c) => c.author === 'chatty').length, 5);
      assert.ok(outcomes[0]!.notes!.includes('post 1gx5abc: 1 comments behind "load more comments" were not read (at most 5 expansions per thread)'), JSON.stringify(outcomes[0]!.notes));
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('more than 100 posts in the window: the 100 newest are read, and the run says so', async () => {
    const base = until.getTime() / 1000 - 60;
    const children = Array.from({ length: 100 }, (_, i) => ({
      kind: 't3',
      data: { id: `1gy${String(i).padStart(4, '0')}`, name: `t3_1gy${String(i).padStart(4, '0')}`, subreddit: 'LocalLLaMA', title: `post ${i}`, selftext: '', author: 'poster', score: 1, num_comments: 0, created_utc: base - i * 60, permalink: `/r/LocalLLaMA/comments/1gy${String(i).padStart(4, '0')}/post/` },
    }));
    const page = (list: unknown[], next: string) => ({ body: JSON.stringify({ kind: 'Listing', data: { after: next, dist: list.length, modhash: '', children: list, before: null } }), headers: RATE });
    const server = await startReplay(
      routes({ file: 'reddit-api/token.json' }, [
        { match: 'GET /r/LocalLLaMA/new?limit=100&raw_json=1&after=t3_1gy0099', answers: page([{ ...children[0]!, data: { ...children[0]!.data, id: '1gz0000', name: 't3_1gz0000', created_utc: base - 100 * 60 } }], 't3_1gz0000') },
        { match: 'GET /r/LocalLLaMA/new?limit=100&raw_json=1', answers: page(children, 't3_1gy0099') },
      ], 'LocalLLaMA'),
    );
    try {
      const { outcomes, threads } = await collectLive(cursors.store, { communities: ['r/LocalLLaMA'], since, until, env: envOf(server.url) });
      assert.equal(threads.length, 100);
      assert.equal(threads[0]!.id, '1gy0000');
      assert.deepEqual(outcomes[0]!.notes, ['r/LocalLLaMA: more than 100 posts in the window; the 100 newest were read']);
      assert.equal(outcomes[0]!.requests, 3);
    } finally {
      await server.close();
    }
  });

  failureCases('reddit-api', () => cursors.store, {
    normal: { file: 'reddit-api/token.json' },
    threads: 3,
    async start(first) {
      // One community (the helper wants one outcome); the recorded pages still hold an r/SaaS post.
      const server = await startReplay(routes(first, [], 'LocalLLaMA'));
      return { live: { communities: ['r/LocalLLaMA'], since, until, env: envOf(server.url) }, close: () => server.close() };
    },
  });
});
