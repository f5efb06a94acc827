/**
 * The `stackexchange` source (`stackoverflow: tag`, `stackexchange:SITE: tag`) against a replay of
 * the Stack Exchange API 2.3 (recordings in test/fixtures/sources/stackexchange/, written from
 * https://api.stackexchange.com/docs: the common wrapper, questions/answers/comments with
 * `filter=withbody`, error wrappers answered with HTTP 400).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Store } from '../../../src/store/db.ts';
import { collectLive, cursorStore, flatten } from '../../helpers/live.ts';
import { recording, startReplay, type Recorded, type Route } from '../../helpers/replay-server.ts';
import { failureCases } from '../../helpers/source-failures.ts';

const since = new Date('2026-11-19T06:00:00Z');
const until = new Date('2026-11-20T06:00:00Z');
const MIN = String(since.getTime() / 1000);
const MAX = String(until.getTime() / 1000);

const FIRST = /^GET \/2\.3\/questions\?site=stackoverflow&tagged=quantforge&.*&page=1(&|$)/;
const routes = (first: Recorded | Recorded[], extra: Route[] = []): Route[] => [
  ...extra,
  { match: FIRST, answers: first },
  { match: /^GET \/2\.3\/questions\?site=stackoverflow&tagged=quantforge&.*&page=2(&|$)/, answers: { file: 'stackexchange/questions-quantforge-page-2.json' } },
  { match: /^GET \/2\.3\/questions\?site=stackoverflow&tagged=llama\.cpp&.*&page=1(&|$)/, answers: { file: 'stackexchange/questions-llama-cpp.json' } },
  { match: /^GET \/2\.3\/questions\?site=superuser&tagged=windows-11&.*&page=1(&|$)/, answers: { file: 'stackexchange/questions-superuser.json' } },
  { match: 'GET /2.3/questions/70000002;70000001/answers?site=stackoverflow&', answers: { file: 'stackexchange/answers.json' } },
  { match: 'GET /2.3/questions/70000002;70000001;70000003/comments?site=stackoverflow&', answers: { file: 'stackexchange/question-comments.json' } },
  { match: 'GET /2.3/answers/70100003;70100001;70100002/comments?site=stackoverflow&', answers: { file: 'stackexchange/answer-comments.json' } },
  { match: 'GET /2.3/questions/1900001/comments?site=superuser&', answers: { file: 'stackexchange/empty.json' } },
];
const PAGE_1: Recorded = { file: 'stackexchange/questions-quantforge-page-1.json' };

/** A recording with some wrapper fields changed (backoff, quota). */
function withFields(file: string, fields: Record<string, unknown>): Recorded {
  return { body: JSON.stringify({ ...(JSON.parse(recording(file)) as object), ...fields }) };
}

const params = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

describe('stackexchange source', () => {
  let cursors: { store: Store; close(): Promise<void> };
  before(async () => {
    cursors = await cursorStore();
  });
  after(() => cursors.close());

  test('one query per tag with the window, paged; questions deduplicated; answers and comments nested with own times, authors and scores; [deleted] kept; HTML and entities as text', async () => {
    const server = await startReplay(routes(PAGE_1));
    try {
      const { threads, outcomes } = await collectLive(cursors.store, { communities: ['stackoverflow: quantforge, llama.cpp'], since, until, env: { STACKEXCHANGE_API_URL: server.url } });
      assert.deepEqual(outcomes, [{ community: 'stackoverflow: quantforge, llama.cpp', source: 'stackexchange', status: 'ok', threads: 3, requests: 6 }]);
      assert.deepEqual(threads.map((t) => t.id), ['se:stackoverflow:70000002', 'se:stackoverflow:70000001', 'se:stackoverflow:70000003'], 'most recently active first, each once');

      const oom = threads.find((t) => t.id === 'se:stackoverflow:70000001')!;
      assert.equal(oom.url, 'https://stackoverflow.com/questions/70000001/quantforge-serve-crashes-with-cuda-oom-on-a-24-gb-card');
      assert.equal(oom.permalink, '/stackoverflow/questions/70000001');
      assert.equal(oom.community, 'Stack Overflow');
      assert.equal(oom.title, 'Quantforge "serve" crashes with CUDA OOM on a 24 GB card & 32k context');
      assert.equal(oom.selftext, "Quantforge keeps crashing when the context goes past 32k & I can't tell why.\n\nqf serve --ctx 65536\nCUDA error: out of memory\n\nI tried the docs:\n\n- lowering the batch size\n- a smaller quant");
      assert.equal(oom.author, 'Jörg Müller');
      assert.equal(oom.score, 5);
      assert.equal(oom.postCreatedAt, '2026-11-19T08:00:00.000Z');
      assert.deepEqual(flatten(oom), [
        { id: 'c70200001', author: 'skeptic42', body: 'Which driver version? nvidia-smi output would help.', createdAt: '2026-11-19T09:00:00.000Z', depth: 0 },
        { id: 'a70100001', author: 'gpu_whisperer', body: 'Lower the context: --ctx 16384 & enable paged KV.\n\nqf serve --ctx 16384 --kv paged', createdAt: '2026-11-19T11:00:00.000Z', depth: 0 },
        { id: 'c70200003', author: 'Jörg Müller', body: "Thanks, --ctx 16384 fixed it & it's stable now.", createdAt: '2026-11-19T12:00:00.000Z', depth: 1 },
        { id: 'c70200004', author: '[deleted]', body: "This didn't work for me on a 4090.", createdAt: '2026-11-19T12:30:00.000Z', depth: 1 },
        { id: 'a70100002', author: '[deleted]', body: 'Just use Ollama.', createdAt: '2026-11-19T13:00:00.000Z', depth: 0 },
        { id: 'c70200006', author: 'gpu_whisperer', body: "Ollama doesn't do paged KV, so it OOMs too.", createdAt: '2026-11-19T14:00:00.000Z', depth: 1 },
      ]);
      const scores = new Map(oom.comments.flatMap((c) => [[c.id, c.score] as const, ...c.replies.map((r) => [r.id, r.score] as const)]));
      assert.deepEqual(Object.fromEntries(scores), { c70200001: 1, a70100001: 7, c70200003: 0, c70200004: 0, a70100002: -1, c70200006: 2 });

      // Asked before the window, active in it (a new answer): read whole.
      const batch = threads.find((t) => t.id === 'se:stackoverflow:70000002')!;
      assert.equal(batch.postCreatedAt, '2026-11-18T20:00:00.000Z');
      assert.equal(batch.author, 'user2918', "a removed account's placeholder name is what the site shows");
      assert.deepEqual(flatten(batch), [{ id: 'a70100003', author: 'batch_runner', body: 'For batch jobs Quantforge was 2× faster in my tests, but the bill kept growing.', createdAt: '2026-11-19T15:00:00.000Z', depth: 0 }]);

      const hangs = threads.find((t) => t.id === 'se:stackoverflow:70000003')!;
      assert.equal(hangs.author, '[deleted]', 'no owner at all');
      assert.equal(hangs.selftext, 'It just hangs after loading model... — no error at all.');
      assert.deepEqual(flatten(hangs), [{ id: 'c70200005', author: 'curious_dev', body: 'Same here — "it just hangs" on v0.9.', createdAt: '2026-11-19T10:30:00.000Z', depth: 0 }]);

      // The requests: one per tag and page, with the window on the activity sort; then answers
      // only for questions that have some; then comments on questions and on answers.
      const paths = server.requests.map((r) => new URL(r.url, server.url).pathname);
      assert.deepEqual(paths, [
        '/2.3/questions',
        '/2.3/questions',
        '/2.3/questions',
        '/2.3/questions/70000002;70000001/answers',
        '/2.3/questions/70000002;70000001;70000003/comments',
        '/2.3/answers/70100003;70100001;70100002/comments',
      ]);
      assert.deepEqual(params(server.requests[0]!.url), { site: 'stackoverflow', tagged: 'quantforge', sort: 'activity', order: 'desc', min: MIN, max: MAX, filter: 'withbody', pagesize: '100', page: '1' });
      assert.deepEqual(params(server.requests[1]!.url), { site: 'stackoverflow', tagged: 'quantforge', sort: 'activity', order: 'desc', min: MIN, max: MAX, filter: 'withbody', pagesize: '100', page: '2' });
      assert.equal(params(server.requests[2]!.url).tagged, 'llama.cpp', 'one query per tag: tagged=a;b would mean both');
      for (const r of server.requests.slice(3)) assert.deepEqual(params(r.url), { site: 'stackoverflow', filter: 'withbody', pagesize: '100', page: '1' });
      for (const r of server.requests) {
        assert.match(String(r.headers['user-agent']), /^project-signals-service\/\d+\.\d+\.\d+/);
        assert.match(String(r.headers.accept), /application\/json/);
        assert.equal(params(r.url).key, undefined, 'no key unless STACKEXCHANGE_KEY is set');
      }
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('STACKEXCHANGE_KEY is sent as key= on every request', async () => {
    const server = await startReplay(routes(PAGE_1));
    try {
      const { outcomes } = await collectLive(cursors.store, { communities: ['stackoverflow: quantforge'], since, until, env: { STACKEXCHANGE_API_URL: server.url, STACKEXCHANGE_KEY: 'U4DMV*8nvpm3EOpvf69Rxw((' } });
      assert.equal(outcomes[0]!.status, 'ok', outcomes[0]!.error);
      assert.equal(server.requests.length, 5);
      for (const r of server.requests) assert.equal(params(r.url).key, 'U4DMV*8nvpm3EOpvf69Rxw((');
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('answers (and comments) page on has_more for the same ids', async () => {
    const server = await startReplay(
      routes(PAGE_1, [
        { match: /^GET \/2\.3\/questions\/70000002;70000001\/answers\?.*&page=1(&|$)/, answers: withFields('stackexchange/answers.json', { has_more: true }) },
        { match: /^GET \/2\.3\/questions\/70000002;70000001\/answers\?.*&page=2(&|$)/, answers: { file: 'stackexchange/empty.json' } },
      ]),
    );
    try {
      const { outcomes, threads } = await collectLive(cursors.store, { communities: ['stackoverflow: quantforge'], since, until, env: { STACKEXCHANGE_API_URL: server.url } });
      assert.deepEqual(outcomes, [{ community: 'stackoverflow: quantforge', source: 'stackexchange', status: 'ok', threads: 3, requests: 6 }]);
      assert.equal(flatten(threads.find((t) => t.id === 'se:stackoverflow:70000001')!).length, 6);
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  test('an empty page collects nothing, asks nothing more and is not a failure', async () => {
    const server = await startReplay(routes({ file: 'stackexchange/empty.json' }));
    try {
      const { threads, outcomes } = await collectLive(cursors.store, { communities: ['stackoverflow: quantforge'], since, until, env: { STACKEXCHANGE_API_URL: server.url } });
      assert.equal(threads.length, 0);
      assert.deepEqual(outcomes, [{ community: 'stackoverflow: quantforge', source: 'stackexchange', status: 'ok', threads: 0, requests: 1 }]);
    } finally {
      await server.close();
    }
  });

  test('the cursor: a second run asks only after what the first collected (less a 10-minute overlap)', async () => {
    const server = await startReplay(routes({ file: 'stackexchange/empty.json' }));
    try {
      const project = { id: 'prj_se_cursor' };
      await collectLive(cursors.store, { communities: ['stackoverflow: quantforge'], since, until, env: { STACKEXCHANGE_API_URL: server.url }, project, commit: true });
      const later = new Date(until.getTime() + 24 * 3_600_000);
      await collectLive(cursors.store, { communities: ['stackoverflow: quantforge'], since: until, until: later, env: { STACKEXCHANGE_API_URL: server.url }, project });
      assert.deepEqual(
        server.requests.map((r) => [params(r.url).min, params(r.url).max]),
        [
          [MIN, MAX],
          [String(until.getTime() / 1000 - 600), String(later.getTime() / 1000)],
        ],
      );
    } finally {
      await server.close();
    }
  });

  test('a `backoff` in the wrapper is obeyed before the next request', async () => {
    const server = await startReplay(routes(withFields('stackexchange/questions-quantforge-page-1.json', { backoff: 10 })));
    try {
      const { outcomes, threads, waits } = await collectLive(cursors.store, { communities: ['stackoverflow: quantforge'], since, until, env: { STACKEXCHANGE_API_URL: server.url } });
      assert.equal(outcomes[0]!.status, 'ok', outcomes[0]!.error);
      assert.equal(threads.length, 3);
      assert.ok(waits.includes(10_000), `waited ${JSON.stringify(waits)}`);
    } finally {
      await server.close();
    }
  });

  test('a `backoff` longer than a run waits fails the community and says how long', async () => {
    const server = await startReplay(routes(withFields('stackexchange/questions-quantforge-page-1.json', { backoff: 600 })));
    try {
      const { outcomes } = await collectLive(cursors.store, { communities: ['stackoverflow: quantforge'], since, until, env: { STACKEXCHANGE_API_URL: server.url } });
      assert.equal(outcomes[0]!.status, 'failed');
      assert.match(outcomes[0]!.error!, /sent backoff: asked to wait 600 s/);
      assert.equal(outcomes[0]!.requests, 1);
    } finally {
      await server.close();
    }
  });

  test('a spent daily quota stops the community, saying when it resets and that a key raises it', async () => {
    const server = await startReplay(routes(withFields('stackexchange/questions-quantforge-page-1.json', { quota_remaining: 0 })));
    try {
      const { outcomes, threads } = await collectLive(cursors.store, { communities: ['stackoverflow: quantforge'], since, until, env: { STACKEXCHANGE_API_URL: server.url } });
      assert.equal(outcomes[0]!.status, 'failed');
      assert.match(outcomes[0]!.error!, /daily request quota \(300\) for this IP is spent; it resets at midnight UTC.*STACKEXCHANGE_KEY/);
      assert.equal(outcomes[0]!.requests, 1, 'no request past the quota');
      assert.equal(threads.length, 0);
    } finally {
      await server.close();
    }
  });

  test('a throttle_violation error wrapper (HTTP 400) is a rate limit, not retried, with the wait it gave', async () => {
    const server = await startReplay(routes({ status: 400, file: 'stackexchange/error-throttle.json' }));
    try {
      const { outcomes } = await collectLive(cursors.store, { communities: ['stackoverflow: quantforge'], since, until, env: { STACKEXCHANGE_API_URL: server.url } });
      assert.equal(outcomes[0]!.status, 'failed');
      assert.match(outcomes[0]!.error!, /throttle_violation \(error 502\): too many requests from this IP, more requests available in 80834 seconds \(about 22 h\); setting STACKEXCHANGE_KEY/);
      assert.equal(outcomes[0]!.requests, 1);
    } finally {
      await server.close();
    }
  });

  test('an error wrapper answered with status 200 (a caching proxy) is still the error', async () => {
    const server = await startReplay(routes({ file: 'stackexchange/error-throttle.json' }));
    try {
      const { outcomes } = await collectLive(cursors.store, { communities: ['stackoverflow: quantforge'], since, until, env: { STACKEXCHANGE_API_URL: server.url, STACKEXCHANGE_KEY: 'k((' } });
      assert.equal(outcomes[0]!.status, 'failed');
      assert.match(outcomes[0]!.error!, /throttle_violation/);
      assert.doesNotMatch(outcomes[0]!.error!, /setting STACKEXCHANGE_KEY/, 'a key is already set');
    } finally {
      await server.close();
    }
  });

  test('a wrapper without "items" is malformed', async () => {
    const server = await startReplay(routes({ body: '{"has_more":false,"quota_max":300,"quota_remaining":299}' }));
    try {
      const { outcomes, threads } = await collectLive(cursors.store, { communities: ['stackoverflow: quantforge'], since, until, env: { STACKEXCHANGE_API_URL: server.url } });
      assert.equal(outcomes[0]!.status, 'failed');
      assert.match(outcomes[0]!.error!, /without "items"/);
      assert.equal(threads.length, 0);
    } finally {
      await server.close();
    }
  });

  test('one failing community (an unknown site) does not stop the others; each outcome says what happened', async () => {
    const server = await startReplay(routes(PAGE_1, [{ match: /^GET \/2\.3\/questions\?site=nosuchsite&/, answers: { status: 400, file: 'stackexchange/error-no-site.json' } }]));
    try {
      const { outcomes, threads } = await collectLive(cursors.store, {
        communities: ['stackexchange:nosuchsite: foo', 'stackoverflow: quantforge', 'stackexchange:superuser.stackexchange.com: windows-11'],
        since,
        until,
        env: { STACKEXCHANGE_API_URL: server.url },
      });
      assert.deepEqual(
        outcomes.map((o) => [o.community, o.status, o.threads, o.requests]),
        [
          ['stackexchange:nosuchsite: foo', 'failed', 0, 1],
          ['stackoverflow: quantforge', 'ok', 3, 5],
          ['stackexchange:superuser.stackexchange.com: windows-11', 'ok', 1, 2],
        ],
      );
      assert.match(outcomes[0]!.error!, /has no Stack Exchange site "nosuchsite" \(bad_parameter \(error 400\)\)/);
      const su = threads.find((t) => t.id === 'se:superuser:1900001')!;
      assert.equal(su.community, 'superuser.com');
      assert.equal(su.permalink, '/superuser/questions/1900001');
      assert.equal(su.title, 'GPU driver resets when running local models on Windows 11');
      assert.equal(su.selftext, 'The screen goes black for a second & the model run fails.');
      assert.deepEqual(su.comments, []);
      assert.deepEqual(server.unmatched, []);
    } finally {
      await server.close();
    }
  });

  failureCases('stackexchange', () => cursors.store, {
    normal: PAGE_1,
    threads: 3,
    async start(first) {
      const server = await startReplay(routes(first));
      return { live: { communities: ['stackoverflow: quantforge'], since, until, env: { STACKEXCHANGE_API_URL: server.url } }, close: () => server.close() };
    },
  });
});
