/**
 * The `github` source against a replay of GitHub's REST API (recordings in
 * test/fixtures/sources/github/, written from https://docs.github.com/rest/issues: the issue and
 * comment objects, `Link` paging, the `x-ratelimit-*` headers, the 403 secondary rate limit).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Store } from '../../../src/store/db.ts';
import { collectLive, cursorStore, flatten } from '../../helpers/live.ts';
import { startReplay, type Recorded, type ReplayServer, type Route } from '../../helpers/replay-server.ts';
import { failureCases } from '../../helpers/source-failures.ts';

const since = new Date('2026-11-19T06:00:00Z');
const until = new Date('2026-11-20T06:00:00Z');
const TOKEN = 'ghp_TESTtoken0123456789abcdefABCDEF012345';
/** The test clock starts at `until`; the server's own Date header says the same. */
const DATE = until.toUTCString();
const untilSeconds = until.getTime() / 1000;

const REPO = '/repos/quantforge/quantforge';
const LIST = `GET ${REPO}/issues?`;
const PAGE_2 = '{{BASE}}/repositories/123456/issues?state=all&sort=updated&direction=desc&since=2026-11-19T06%3A00%3A00Z&per_page=100&page=2';
const PAGE_1 = '{{BASE}}/repositories/123456/issues?state=all&sort=updated&direction=desc&since=2026-11-19T06%3A00%3A00Z&per_page=100&page=1';
const limit = (remaining: number, reset = untilSeconds + 3_600) => ({
  'x-ratelimit-limit': '60',
  'x-ratelimit-remaining': String(remaining),
  'x-ratelimit-reset': String(reset),
  'x-ratelimit-used': String(60 - remaining),
  'x-ratelimit-resource': 'core',
  date: DATE,
});
const page1: Recorded = { file: 'github/issues-page-1.json', headers: { ...limit(58), link: `<${PAGE_2}>; rel="next", <${PAGE_2}>; rel="last"` } };

const routes = (list: Recorded | Recorded[], extra: Route[] = [], prefix = ''): Route[] => [
  ...extra,
  { match: `GET ${prefix}/repositories/123456/issues?`, answers: { file: 'github/issues-page-2.json', headers: { ...limit(55), link: `<${PAGE_1}>; rel="prev", <${PAGE_1}>; rel="first"` } } },
  { match: `GET ${prefix}${REPO}/issues?`, answers: list },
  {
    match: `GET ${prefix}${REPO}/issues/412/comments?per_page=100`,
    answers: { file: 'github/comments-412-page-1.json', headers: { ...limit(57), link: `<{{BASE}}${prefix}/repositories/123456/issues/412/comments?per_page=100&page=2>; rel="next", <{{BASE}}${prefix}/repositories/123456/issues/412/comments?per_page=100&page=2>; rel="last"` } },
  },
  { match: `GET ${prefix}/repositories/123456/issues/412/comments?per_page=100&page=2`, answers: { file: 'github/comments-412-page-2.json', headers: limit(56) } },
  { match: `GET ${prefix}${REPO}/issues/377/comments?per_page=100`, answers: { file: 'github/comments-377.json', headers: limit(54) } },
];

/** Starts the replay with `{{BASE}}` in recorded headers (the `Link` targets) made the server's own URL. */
async function start(list: Route[]): Promise<ReplayServer> {
  const server = await startReplay(list);
  for (const route of list) {
    for (const answer of Array.isArray(route.answers) ? route.answers : [route.answers]) {
      if (!answer.headers) continue;
      answer.headers = Object.fromEntries(Object.entries(answer.headers).map(([k, v]) => [k, v.split('{{BASE}}').join(server.url)]));
    }
  }
  return server;
}

/** Fresh copies, so one test's `{{BASE}}` is not another's. */
const copy = (r: Recorded): Recorded => ({ ...r, ...(r.headers ? { headers: { ...r.headers } } : {}) });

describe('github source', () => {
  let cursors: { store: Store; close(): Promise<void> };
  before(async () => {
    cursors = await cursorStore();
  });
  after(() => cursors.close());

  test('pages through the issues (pull requests skipped), then each issue\'s comments: flat, own times and authors, [deleted] kept, Markdown verbatim', async () => {
    const server = await start(routes(copy(page1)));
    try {
      const { threads, outcomes } = await collectLive(cursors.store, {
        communities: ['github: quantforge/quantforge'],
        since,
        until,
        env: { GITHUB_API_URL: server.url, GITHUB_TOKEN: TOKEN },
      });
      assert.deepEqual(outcomes, [{ community: 'github: quantforge/quantforge', source: 'github', status: 'ok', threads: 3, requests: 5 }]);
      // #420 was active after the window (the next run's); #415 is a pull request.
      assert.deepEqual(threads.map((t) => t.id), ['gh:quantforge/quantforge#412', 'gh:quantforge/quantforge#398', 'gh:quantforge/quantforge#377']);

      const oom = threads[0]!;
      assert.equal(oom.url, 'https://github.com/quantforge/quantforge/issues/412');
      assert.equal(oom.permalink, '/quantforge/quantforge/issues/412');
      assert.equal(oom.community, 'github.com/quantforge/quantforge');
      assert.equal(oom.title, 'KV cache OOM when context > 32k on a 3090');
      // Markdown as written: its HTML and entities are what the user typed, kept verbatim.
      assert.equal(
        oom.selftext,
        'Running `qf serve --ctx 65536` crashes with CUDA OOM &amp; the process exits.\n\n<details><summary>Log</summary>\n\n```\nerror: out of memory\n```\n</details>\n\nExpected: it should fall back to <b>CPU offload</b> &lt;or at least warn&gt;.',
      );
      assert.equal(oom.author, 'ggml_fan');
      assert.equal(oom.score, 7);
      assert.equal(oom.postCreatedAt, '2026-11-19T09:15:00.000Z');
      assert.deepEqual(flatten(oom), [
        { id: '2400000001', author: 'rtx_owner', body: 'Same here on a 4090 &mdash; it <em>always</em> dies past 32k.', createdAt: '2026-11-19T10:00:00.000Z', depth: 0 },
        { id: '2400000002', author: '[deleted]', body: 'This is a duplicate of #377.', createdAt: '2026-11-19T11:30:00.000Z', depth: 0 },
        { id: '2400000003', author: 'qf_founder', body: 'Fixed in v0.9.2 &#8212; please retry with `--kv-offload`.\nSorry for the trouble!', createdAt: '2026-11-19T19:45:00.000Z', depth: 0 },
      ]);
      assert.deepEqual(oom.comments.map((c) => c.score), [3, 0, 5]);

      const docs = threads[1]!;
      assert.equal(docs.author, '[deleted]', 'the ghost user is a deleted account');
      assert.equal(docs.selftext, '', 'a null body');
      assert.equal(docs.score, 2);
      assert.deepEqual(docs.comments, [], 'no comments: none asked for');

      const ollama = threads[2]!;
      assert.equal(ollama.score, 0, 'no reactions rollup: score 0');
      assert.equal(ollama.postCreatedAt, '2026-11-01T08:00:00.000Z', 'an old issue with a comment in the window comes whole');
      assert.deepEqual(flatten(ollama).map((c) => [c.author, c.createdAt]), [['lmstudio_user', '2026-11-19T08:00:00.000Z']]);

      assert.deepEqual(
        server.requests.map((r) => r.url.replace(/\?.*/, '')),
        [`${REPO}/issues`, `${REPO}/issues/412/comments`, '/repositories/123456/issues/412/comments', '/repositories/123456/issues', `${REPO}/issues/377/comments`],
      );
      const list = new URL(server.requests[0]!.url, server.url);
      assert.deepEqual(Object.fromEntries(list.searchParams), { state: 'all', sort: 'updated', direction: 'desc', since: '2026-11-19T06:00:00Z', per_page: '100' });
      for (const r of server.requests) {
        assert.equal(r.headers.accept, 'application/vnd.github+json');
        assert.equal(r.headers['x-github-api-version'], '2022-11-28');
        assert.equal(r.headers.authorization, `Bearer ${TOKEN}`);
        assert.match(String(r.headers['user-agent']), /^project-signals-service\/\d+\.\d+\.\d+/);
        assert.ok(!r.url.includes(TOKEN), 'the token only in the Authorization header');
      }
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('without GITHUB_TOKEN no Authorization header is sent; an empty list collects nothing and is not a failure', async () => {
    const server = await start(routes({ body: '[]', headers: limit(59) }));
    try {
      const { threads, outcomes } = await collectLive(cursors.store, { communities: ['github: quantforge/quantforge'], since, until, env: { GITHUB_API_URL: server.url } });
      assert.equal(threads.length, 0);
      assert.deepEqual(outcomes, [{ community: 'github: quantforge/quantforge', source: 'github', status: 'ok', threads: 0, requests: 1 }]);
      assert.equal(server.requests[0]!.headers.authorization, undefined);
      assert.equal(server.requests[0]!.headers.accept, 'application/vnd.github+json');
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('GitHub Enterprise: the base URL\'s /api/v3 path is kept, and its Link pages are followed', async () => {
    const enterprise = copy(page1);
    enterprise.headers!.link = `<${PAGE_2.replace('{{BASE}}', '{{BASE}}/api/v3')}>; rel="next"`;
    const server = await start(routes(enterprise, [], '/api/v3'));
    try {
      const { threads, outcomes } = await collectLive(cursors.store, { communities: ['github: quantforge/quantforge'], since, until, env: { GITHUB_API_URL: `${server.url}/api/v3` } });
      assert.equal(outcomes[0]!.status, 'ok', outcomes[0]!.error);
      assert.equal(threads.length, 3);
      assert.ok(server.requests.every((r) => r.url.startsWith('/api/v3/')));
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('the cursor: a second run asks `since` the end of what the first collected (less a 10-minute overlap)', async () => {
    const server = await start(routes({ body: '[]', headers: limit(59) }));
    try {
      const project = { id: 'prj_cursor' };
      await collectLive(cursors.store, { communities: ['github: quantforge/quantforge'], since, until, env: { GITHUB_API_URL: server.url }, project, commit: true });
      const later = new Date(until.getTime() + 24 * 3_600_000);
      await collectLive(cursors.store, { communities: ['github: quantforge/quantforge'], since: until, until: later, env: { GITHUB_API_URL: server.url }, project });
      assert.deepEqual(server.requests.map((r) => new URL(r.url, server.url).searchParams.get('since')), ['2026-11-19T06:00:00Z', '2026-11-20T05:50:00Z']);
    } finally {
      await server.close();
    }
  });

  test('the hour\'s budget spent with more to read: held until the reset when that is soon', async () => {
    const soon = copy(page1);
    soon.headers = { ...soon.headers, ...limit(0, untilSeconds + 30) };
    const server = await start(routes(soon));
    try {
      const { threads, outcomes, waits } = await collectLive(cursors.store, { communities: ['github: quantforge/quantforge'], since, until, env: { GITHUB_API_URL: server.url } });
      assert.equal(outcomes[0]!.status, 'ok', outcomes[0]!.error);
      assert.deepEqual(waits, [30_000]);
      assert.equal(threads.length, 3);
    } finally {
      await server.close();
    }
  });

  test('the hour\'s budget spent until long after: fails at once, saying when it resets and that GITHUB_TOKEN raises the limit', async () => {
    const spent = copy(page1);
    spent.headers = { ...spent.headers, ...limit(0) };
    const server = await start(routes(spent));
    try {
      const { threads, outcomes } = await collectLive(cursors.store, { communities: ['github: quantforge/quantforge'], since, until, env: { GITHUB_API_URL: server.url } });
      assert.equal(outcomes[0]!.status, 'failed');
      assert.match(outcomes[0]!.error!, /rate limit spent \(it resets at 2026-11-20T07:00:00Z; set GITHUB_TOKEN to raise the limit from 60 to 5,000 requests\/hour\): asked to wait 3600 s/);
      assert.equal(outcomes[0]!.requests, 1, 'nothing more asked once the budget is spent');
      assert.equal(threads.length, 0, 'the first issue needed its comments, which could not be read');
    } finally {
      await server.close();
    }
  });

  test('the budget spent by the last request needed is not a failure', async () => {
    const server = await start(routes({ file: 'github/issues-page-2.json', headers: limit(1) }, [{ match: `GET ${REPO}/issues/377/comments`, answers: { file: 'github/comments-377.json', headers: limit(0) } }]));
    try {
      const { threads, outcomes, waits } = await collectLive(cursors.store, { communities: ['github: quantforge/quantforge'], since, until, env: { GITHUB_API_URL: server.url } });
      assert.equal(outcomes[0]!.status, 'ok', outcomes[0]!.error);
      assert.equal(threads.length, 1);
      assert.deepEqual(waits, []);
    } finally {
      await server.close();
    }
  });

  test('a 403 secondary rate limit with retry-after is waited out like a 429, then answered', async () => {
    const server = await start(routes([{ status: 403, headers: { 'retry-after': '60', ...limit(40) }, file: 'github/secondary-rate-limit.json' }, copy(page1)]));
    try {
      const { threads, outcomes, waits } = await collectLive(cursors.store, { communities: ['github: quantforge/quantforge'], since, until, env: { GITHUB_API_URL: server.url, GITHUB_TOKEN: TOKEN } });
      assert.equal(outcomes[0]!.status, 'ok', outcomes[0]!.error);
      assert.ok(waits.includes(60_000), `waited ${JSON.stringify(waits)}`);
      assert.equal(threads.length, 3);
      assert.equal(outcomes[0]!.requests, 6);
    } finally {
      await server.close();
    }
  });

  test('a 403 with the budget spent waits for x-ratelimit-reset; too long fails with the reset time, never the token', async () => {
    const server = await start(routes({ status: 403, headers: limit(0), file: 'github/rate-limit-exceeded.json' }));
    try {
      const { outcomes } = await collectLive(cursors.store, { communities: ['github: quantforge/quantforge'], since, until, env: { GITHUB_API_URL: server.url, GITHUB_TOKEN: TOKEN } });
      assert.equal(outcomes[0]!.status, 'failed');
      assert.match(outcomes[0]!.error!, /answered 403 \(rate limited\): asked to wait 3600 s, .*it resets at 2026-11-20T07:00:00Z; the token allows 5,000 requests an hour/);
      assert.ok(!outcomes[0]!.error!.includes(TOKEN));
      assert.equal(outcomes[0]!.requests, 1);
    } finally {
      await server.close();
    }
  });

  test('a refused token says so, without the token', async () => {
    const server = await start(routes({ status: 401, file: 'github/bad-credentials.json' }));
    try {
      const { outcomes } = await collectLive(cursors.store, { communities: ['github: quantforge/quantforge'], since, until, env: { GITHUB_API_URL: server.url, GITHUB_TOKEN: TOKEN } });
      assert.equal(outcomes[0]!.status, 'failed');
      assert.match(outcomes[0]!.error!, /refused GITHUB_TOKEN \(401 Bad credentials\)/);
      assert.ok(!outcomes[0]!.error!.includes(TOKEN));
    } finally {
      await server.close();
    }
  });

  test('a next-page link to another origin is not followed (it would carry the token there)', async () => {
    const elsewhere = copy(page1);
    elsewhere.headers!.link = '<https://api.github.com.evil.example/repositories/123456/issues?page=2>; rel="next"';
    const server = await start(routes(elsewhere));
    try {
      const { threads, outcomes } = await collectLive(cursors.store, { communities: ['github: quantforge/quantforge'], since, until, env: { GITHUB_API_URL: server.url, GITHUB_TOKEN: TOKEN } });
      assert.equal(outcomes[0]!.status, 'failed');
      assert.match(outcomes[0]!.error!, /next-page link to https:\/\/api\.github\.com\.evil\.example, not the configured API .*not followed/);
      assert.equal(threads.length, 0);
      assert.equal(outcomes[0]!.requests, 1);
    } finally {
      await server.close();
    }
  });

  test('paging is bounded: a listing of nothing but pull requests stops after five pages, with a note', async () => {
    const server = await start(routes({ file: 'github/issues-pull-requests-only.json', headers: { ...limit(50), link: `<{{BASE}}${REPO}/issues?state=all&page=2>; rel="next"` } }));
    try {
      const { threads, outcomes } = await collectLive(cursors.store, { communities: ['github: quantforge/quantforge'], since, until, env: { GITHUB_API_URL: server.url } });
      assert.equal(outcomes[0]!.status, 'ok', outcomes[0]!.error);
      assert.equal(outcomes[0]!.requests, 5);
      assert.equal(threads.length, 0, 'pull requests are not issues (and their comments are not asked for)');
      assert.match(outcomes[0]!.notes!.join('\n'), /more than 500 issues and pull requests were active in the window/);
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('a listing that is not a list (an error object with status 200) fails as malformed', async () => {
    const server = await start(routes({ body: '{"message":"Moved Permanently","url":"https://api.github.com/repositories/123456/issues"}', headers: limit(58) }));
    try {
      const { outcomes } = await collectLive(cursors.store, { communities: ['github: quantforge/quantforge'], since, until, env: { GITHUB_API_URL: server.url } });
      assert.equal(outcomes[0]!.status, 'failed');
      assert.match(outcomes[0]!.error!, /issue list of quantforge\/quantforge with something other than a list/);
    } finally {
      await server.close();
    }
  });

  test('a truncated comments page fails the community as malformed', async () => {
    const server = await start(routes(copy(page1), [{ match: `GET ${REPO}/issues/412/comments`, answers: { file: 'github/comments-412-page-1.json', truncateAt: 300 } }]));
    try {
      const { outcomes, threads } = await collectLive(cursors.store, { communities: ['github: quantforge/quantforge'], since, until, env: { GITHUB_API_URL: server.url } });
      assert.equal(outcomes[0]!.status, 'failed');
      assert.match(outcomes[0]!.error!, /does not parse/);
      assert.equal(threads.length, 0);
    } finally {
      await server.close();
    }
  });

  test('one missing repository (404) fails with its name; the other is collected', async () => {
    const server = await start(routes(copy(page1), [{ match: 'GET /repos/acme/secret-roadmap/issues?', answers: { status: 404, file: 'github/not-found.json', headers: limit(59) } }]));
    try {
      const { outcomes, threads } = await collectLive(cursors.store, {
        communities: ['github: acme/secret-roadmap', 'github: quantforge/quantforge'],
        since,
        until,
        env: { GITHUB_API_URL: server.url },
      });
      assert.deepEqual(
        outcomes.map((o) => [o.community, o.status, o.threads, o.requests]),
        [
          ['github: acme/secret-roadmap', 'failed', 0, 1],
          ['github: quantforge/quantforge', 'ok', 3, 5],
        ],
      );
      assert.match(outcomes[0]!.error!, /^github: acme\/secret-roadmap was not found: no such repository, a private one \(set GITHUB_TOKEN to read it\), or one with issues turned off$/);
      assert.equal(threads.length, 3);
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  failureCases('github', () => cursors.store, {
    normal: copy(page1),
    threads: 3,
    async start(first) {
      const server = await start(routes(first.map(copy)));
      return { live: { communities: ['github: quantforge/quantforge'], since, until, env: { GITHUB_API_URL: server.url } }, close: () => server.close() };
    },
  });
});
