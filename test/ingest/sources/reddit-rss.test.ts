/**
 * The `reddit-rss` source against a replay of Reddit's Atom feeds (recordings in
 * test/fixtures/sources/reddit-rss/, written from the feeds Reddit serves at
 * `/r/a+b/new/.rss` and `/r/SUB/comments/ID/.rss`: one line per entry, `content` as escaped HTML
 * with Reddit's `div.md` and "submitted by … [link] [comments]" tail).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_COMMENT_FEEDS } from '../../../src/ingest/sources/reddit-rss.ts';
import type { Store } from '../../../src/store/db.ts';
import { collectLive, cursorStore, flatten } from '../../helpers/live.ts';
import { startReplay, type Recorded, type Route } from '../../helpers/replay-server.ts';
import { failureCases } from '../../helpers/source-failures.ts';

const since = new Date('2026-11-19T06:00:00Z');
const until = new Date('2026-11-20T06:00:00Z');
const communities = ['r/LocalLLaMA', 'selfhosted'];

const ATOM = { 'content-type': 'application/atom+xml; charset=UTF-8' };
const NEW = 'GET /r/LocalLLaMA+selfhosted/new/.rss?limit=100';
const routes = (listing: Recorded | Recorded[], extra: Route[] = []): Route[] => [
  ...extra,
  { match: NEW, answers: listing },
  { match: 'GET /r/LocalLLaMA/comments/1p2zq9x/.rss?limit=100', answers: { file: 'reddit-rss/comments-1p2zq9x.xml' } },
  { match: 'GET /r/selfhosted/comments/1p2xk3m/.rss?limit=100', answers: { file: 'reddit-rss/comments-1p2xk3m.xml' } },
  { match: 'GET /r/LocalLLaMA/comments/1p2w8aa/.rss?limit=100', answers: { file: 'reddit-rss/comments-1p2w8aa.xml' } },
];

/** A listing of `n` posts, all in the window (for the 100-post and comment-feed bounds). */
function fullListing(n: number): string {
  const entries = Array.from({ length: n }, (_, i) => {
    const id = `1q${i.toString(36).padStart(5, '0')}`;
    const at = new Date(until.getTime() - (i + 1) * 60_000).toISOString().replace('.000Z', '+00:00');
    return `<entry><author><name>/u/poster${i}</name><uri>https://www.reddit.com/user/poster${i}</uri></author><category term="LocalLLaMA" label="r/LocalLLaMA"/><content type="html">&lt;!-- SC_OFF --&gt;&lt;div class=&quot;md&quot;&gt;&lt;p&gt;post ${i}&lt;/p&gt; &lt;/div&gt;&lt;!-- SC_ON --&gt;</content><id>t3_${id}</id><link href="https://www.reddit.com/r/LocalLLaMA/comments/${id}/post_${i}/" /><updated>${at}</updated><published>${at}</published><title>Post ${i}</title></entry>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/"><category term="LocalLLaMA" label="r/LocalLLaMA"/><updated>2026-11-20T05:59:00+00:00</updated><id>/r/LocalLLaMA/new/.rss?limit=100</id><title>newest submissions : LocalLLaMA</title>\n${entries.join('\n')}\n</feed>\n`;
}

describe('reddit-rss source', () => {
  let cursors: { store: Store; close(): Promise<void> };
  before(async () => {
    cursors = await cursorStore();
  });
  after(() => cursors.close());

  test('one multireddit feed, then each window post\'s comment feed: oldest first, own times and authors, [deleted] kept, HTML and entities as text, no "submitted by" tail', async () => {
    const server = await startReplay(routes({ file: 'reddit-rss/new.xml' }));
    try {
      const { threads, outcomes } = await collectLive(cursors.store, { communities, since, until, env: { REDDIT_URL: server.url } });
      assert.deepEqual(outcomes, [
        { community: 'r/LocalLLaMA', source: 'reddit-rss', status: 'ok', threads: 2, requests: 4 },
        { community: 'selfhosted', source: 'reddit-rss', status: 'ok', threads: 1, requests: 4 },
      ]);
      // 1p2v001 was published exactly at the window's start (excluded), 1p2u777 before it.
      assert.deepEqual(threads.map((t) => t.id), ['1p2w8aa', '1p2xk3m', '1p2zq9x'], 'posts of the window, oldest first, ids as the file source has them');

      const crash = threads.find((t) => t.id === '1p2zq9x')!;
      assert.equal(crash.url, 'https://www.reddit.com/r/LocalLLaMA/comments/1p2zq9x/quantforge_vs_ollama_llamacpp_out_of_memory/');
      assert.equal(crash.permalink, '/r/LocalLLaMA/comments/1p2zq9x/quantforge_vs_ollama_llamacpp_out_of_memory/');
      assert.equal(crash.community, 'LocalLLaMA');
      assert.equal(crash.title, 'Quantforge vs Ollama & llama.cpp: "out of memory" at 32k context');
      assert.equal(crash.selftext, "Quantforge keeps crashing on my 3090 when the context goes past 32k & I can't tell why.\n\nRepro: qf serve --ctx 65536");
      assert.equal(crash.author, 'ggml_fan');
      assert.equal(crash.score, 0, 'feeds carry no scores');
      assert.equal(crash.postCreatedAt, '2026-11-20T04:30:00.000Z');
      // Feeds carry no parent links: every comment is a reply to the post, oldest first; the post's own entry is not a comment.
      assert.deepEqual(flatten(crash), [
        { id: 'nq4a1b2', author: 'skeptic42', body: 'keeps crashing\n\nSame here <3 — switched to Ollama & it just works.', createdAt: '2026-11-20T04:45:00.000Z', depth: 0 },
        { id: 'nq4b0e9', author: '[deleted]', body: '[deleted]', createdAt: '2026-11-20T04:50:00.000Z', depth: 0 },
        { id: 'nq4c3d4', author: 'qf_founder', body: "Thanks for the repro! That's the KV cache: try --kv-offload.", createdAt: '2026-11-20T05:10:00.000Z', depth: 0 },
      ]);
      assert.ok(crash.comments.every((c) => c.score === 0 && c.replies.length === 0));

      const link = threads.find((t) => t.id === '1p2xk3m')!;
      assert.equal(link.author, '[deleted]', 'no <author> element');
      assert.equal(link.selftext, '', 'a link post has no div.md: no body, never the "submitted by" tail');
      assert.equal(link.community, 'selfhosted');
      assert.deepEqual(link.comments, []);

      const ask = threads.find((t) => t.id === '1p2w8aa')!;
      assert.equal(ask.author, '[deleted]', '/u/[deleted]');
      assert.equal(ask.selftext, "I'm tired of my laptop fan screaming every time I run a 7B model.\n\n- tried LM Studio\n- tried Ollama");
      assert.deepEqual(flatten(ask), [{ id: 'nq1zz01', author: 'evals_person', body: 'Has anyone compared Quantforge to Ollama for batch jobs?', createdAt: '2026-11-19T09:30:00.000Z', depth: 0 }]);

      assert.deepEqual(
        server.requests.map((r) => r.url),
        [
          '/r/LocalLLaMA+selfhosted/new/.rss?limit=100',
          '/r/LocalLLaMA/comments/1p2w8aa/.rss?limit=100',
          '/r/selfhosted/comments/1p2xk3m/.rss?limit=100',
          '/r/LocalLLaMA/comments/1p2zq9x/.rss?limit=100',
        ],
        'one listing for all subreddits, then one comment feed per post of the window',
      );
      for (const request of server.requests) {
        assert.match(String(request.headers['user-agent']), /^project-signals-service\/\d+\.\d+\.\d+/);
        assert.match(String(request.headers.accept), /application\/atom\+xml/);
        assert.equal(request.headers.authorization, undefined);
      }
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('every feed request waits REDDIT_FEED_INTERVAL_SECONDS after the previous one', async () => {
    const server = await startReplay(routes({ file: 'reddit-rss/new.xml' }));
    try {
      const { waits, outcomes } = await collectLive(cursors.store, { communities, since, until, env: { REDDIT_URL: server.url, REDDIT_FEED_INTERVAL_SECONDS: '60' } });
      assert.equal(outcomes[0]!.status, 'ok', outcomes[0]!.error);
      assert.equal(server.requests.length, 4);
      assert.deepEqual(waits, [60_000, 60_000, 60_000], 'the first request goes at once, each later one a minute after the previous');
    } finally {
      await server.close();
    }
  });

  test('an empty feed collects nothing and is not a failure', async () => {
    const server = await startReplay(routes({ file: 'reddit-rss/new-empty.xml' }));
    try {
      const { threads, outcomes } = await collectLive(cursors.store, { communities, since, until, env: { REDDIT_URL: server.url } });
      assert.equal(threads.length, 0);
      assert.deepEqual(outcomes.map((o) => [o.status, o.threads, o.requests, o.notes]), [
        ['ok', 0, 1, undefined],
        ['ok', 0, 1, undefined],
      ]);
    } finally {
      await server.close();
    }
  });

  test('the cursor: a second run keeps only posts after what the first collected (less the overlap) and reads no old comment feeds', async () => {
    const server = await startReplay(routes({ file: 'reddit-rss/new.xml' }));
    try {
      const project = { id: 'prj_reddit_cursor' };
      const first = await collectLive(cursors.store, { communities, since, until, env: { REDDIT_URL: server.url }, project, commit: true });
      assert.equal(first.threads.length, 3);
      const later = new Date(until.getTime() + 24 * 3_600_000);
      const second = await collectLive(cursors.store, { communities, since: until, until: later, env: { REDDIT_URL: server.url }, project });
      assert.equal(second.threads.length, 0, 'the newest post (04:30) is before the cursor less 10 minutes (05:50)');
      assert.deepEqual(server.requests.slice(4).map((r) => r.url), ['/r/LocalLLaMA+selfhosted/new/.rss?limit=100']);
    } finally {
      await server.close();
    }
  });

  test('a full feed inside the window is noted (older posts missed), and comment feeds stop at the per-run budget', async () => {
    const emptyComments = '<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><category term="LocalLLaMA" label="r/LocalLLaMA"/><id>/r/LocalLLaMA/comments/x/.rss</id><title>comments</title></feed>';
    const server = await startReplay([
      { match: 'GET /r/LocalLLaMA/new/.rss?limit=100', answers: { body: fullListing(100), headers: ATOM } },
      { match: /^GET \/r\/LocalLLaMA\/comments\/1q[0-9a-z]{5}\/\.rss\?limit=100$/, answers: { body: emptyComments, headers: ATOM } },
    ]);
    try {
      const { threads, outcomes } = await collectLive(cursors.store, { communities: ['r/LocalLLaMA'], since, until, env: { REDDIT_URL: server.url } });
      assert.equal(threads.length, 100);
      const [outcome] = outcomes;
      assert.equal(outcome!.status, 'ok');
      assert.equal(outcome!.requests, 1 + MAX_COMMENT_FEEDS);
      assert.equal(outcome!.notes!.length, 2);
      assert.match(outcome!.notes![0]!, /all 100 posts of the feed are in the window; older posts of the window were missed/);
      assert.match(outcome!.notes![1]!, new RegExp(`comments of ${100 - MAX_COMMENT_FEEDS} posts not read: the feed budget`));
      // The budget goes to the oldest posts, read in the order they are handed out.
      assert.equal(server.requests[1]!.url, `/r/LocalLLaMA/comments/${threads[0]!.id}/.rss?limit=100`);
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('a 403 (what Reddit answers clients it blocks) fails every Reddit community with a clear reason; other communities go on', async () => {
    const forbidden = { status: 403, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!DOCTYPE html><html><body><h1>whoa there, pardner!</h1><p>Your request has been blocked due to a network policy.</p></body></html>' };
    const server = await startReplay(routes(forbidden));
    try {
      const { threads, outcomes } = await collectLive(cursors.store, { communities: [...communities, 'somewhere: else'], since, until, env: { REDDIT_URL: server.url } });
      assert.equal(threads.length, 0);
      assert.deepEqual(outcomes.map((o) => [o.community, o.status, o.requests]), [
        ['somewhere: else', 'skipped', 0],
        ['r/LocalLLaMA', 'failed', 1],
        ['selfhosted', 'failed', 1],
      ]);
      for (const o of outcomes.slice(1)) {
        assert.match(o.error!, /answered 403 Forbidden for r\/LocalLLaMA\+selfhosted: Reddit refuses this client/);
        assert.match(o.error!, /REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET/);
      }
      assert.equal(server.requests.length, 1, 'a 403 is not retried');
    } finally {
      await server.close();
    }
  });

  test('two subreddits: a removed post (comment feed 404) is kept without comments and noted, the rest is collected', async () => {
    const server = await startReplay(routes({ file: 'reddit-rss/new.xml' }, [{ match: 'GET /r/selfhosted/comments/1p2xk3m/', answers: { status: 404, body: '' } }]));
    try {
      const { threads, outcomes } = await collectLive(cursors.store, { communities, since, until, env: { REDDIT_URL: server.url } });
      assert.deepEqual(threads.map((t) => [t.id, t.comments.length]), [
        ['1p2w8aa', 1],
        ['1p2xk3m', 0],
        ['1p2zq9x', 3],
      ]);
      assert.deepEqual(outcomes.map((o) => [o.community, o.status, o.threads]), [
        ['r/LocalLLaMA', 'ok', 2],
        ['selfhosted', 'ok', 1],
      ]);
      assert.deepEqual(outcomes[1]!.notes, ['post 1p2xk3m: its comment feed answered 404 (removed?); kept without comments']);
    } finally {
      await server.close();
    }
  });

  test('a listing 404 (a subreddit that does not exist, is banned or private) fails the Reddit communities, saying which feed', async () => {
    const server = await startReplay(routes({ status: 404, body: '' }));
    try {
      const { outcomes } = await collectLive(cursors.store, { communities, since, until, env: { REDDIT_URL: server.url } });
      assert.deepEqual(outcomes.map((o) => o.status), ['failed', 'failed']);
      assert.match(outcomes[0]!.error!, /answered 404 for r\/LocalLLaMA\+selfhosted: a subreddit there does not exist, is banned or is private/);
    } finally {
      await server.close();
    }
  });

  test('malformed answers: XML that is not an Atom feed, a truncated comment feed, a post without a time', async () => {
    const cases: { listing: Recorded; extra?: Route[]; error: RegExp }[] = [
      { listing: { body: '<?xml version="1.0"?><rss version="2.0"><channel><title>x</title></channel></rss>', headers: ATOM }, error: /not an Atom feed \(<rss>\)/ },
      {
        listing: { file: 'reddit-rss/new.xml' },
        extra: [{ match: 'GET /r/LocalLLaMA/comments/1p2w8aa/', answers: { file: 'reddit-rss/comments-1p2w8aa.xml', truncateAt: 1_500 } }],
        error: /the comments of post 1p2w8aa\) sent a feed that ends early \(truncated\?\)/,
      },
      {
        listing: { body: '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><id>t3_1p2zz00</id><category term="LocalLLaMA"/><title>No time</title></entry></feed>', headers: ATOM },
        error: /post t3_1p2zz00 has no publication time/,
      },
    ];
    for (const c of cases) {
      const server = await startReplay(routes(c.listing, c.extra));
      try {
        const { outcomes } = await collectLive(cursors.store, { communities, since, until, env: { REDDIT_URL: server.url } });
        assert.equal(outcomes[0]!.status, 'failed');
        assert.match(outcomes[0]!.error!, c.error);
      } finally {
        await server.close();
      }
    }
  });

  failureCases('reddit-rss', () => cursors.store, {
    normal: { file: 'reddit-rss/new.xml' },
    threads: 3,
    async start(first) {
      const server = await startReplay([{ match: 'GET /r/LocalLLaMA/new/.rss?limit=100', answers: first }, ...routes({ file: 'reddit-rss/new.xml' })]);
      return { live: { communities: ['r/LocalLLaMA'], since, until, env: { REDDIT_URL: server.url } }, close: () => server.close() };
    },
  });
});
