/**
 * A project that fills itself (issue 11): digest runs collecting live from replayed sources, on
 * SQLite and PostgreSQL, through to what callers read. A run with one failing community completes
 * and says which failed and why (in the summary and the runs row); a later run asks only for
 * what is new; a thread seen again with new comments adds only the new signals.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadSourceSettings } from '../../src/config.ts';
import { runDigest } from '../../src/ingest/digest/run.ts';
import { startScheduler } from '../../src/ingest/digest/scheduler.ts';
import { sourceFrom } from '../../src/ingest/digest/sources.ts';
import { createLogger } from '../../src/logger.ts';
import { liveSource } from '../../src/ingest/sources/live.ts';
import { resetPacing } from '../../src/net/polite.ts';
import { DIALECTS } from '../helpers/database.ts';
import { createDigestProject, rowCounts } from '../helpers/digest.ts';
import { recording, startReplay, type ReplayServer, type Route } from '../helpers/replay-server.ts';
import { spawnSignals } from '../helpers/process.ts';
import { startService, type TestService } from '../helpers/service.ts';

const FIRST = { start: new Date('2026-11-19T06:00:00Z'), end: new Date('2026-11-20T06:00:00Z') };
const SECOND = { start: FIRST.end, end: new Date('2026-11-21T06:00:00Z') };
const NEW_COMMENT = 'The installer fails every time on Windows 11 and I lost a whole day to it.';

/** The Show HN story a day later: the same thread with one new comment. */
function storyWithNewComment(): string {
  const item = JSON.parse(recording('hn/item-41000001.json')) as { children: object[] };
  item.children.push({
    id: 41000105,
    created_at: '2026-11-20T09:00:00.000Z',
    created_at_i: Date.parse('2026-11-20T09:00:00Z') / 1000,
    type: 'comment',
    author: 'win_user',
    text: NEW_COMMENT,
    points: null,
    parent_id: 41000001,
    story_id: 41000001,
    options: [],
    children: [],
  });
  return JSON.stringify(item);
}

function hnRoutes(later: boolean): Route[] {
  const hit = { created_at_i: Date.parse('2026-11-20T09:00:00Z') / 1000, author: 'win_user', story_id: 41000001, objectID: '41000105', _tags: ['comment', 'story_41000001'] };
  return [
    { match: /^GET \/api\/v1\/search_by_date\?query=Broken/, answers: { status: 503, body: 'upstream unavailable' } },
    { match: /^GET \/api\/v1\/search_by_date\?query=Missing/, answers: { status: 404, body: '{"message":"index not found"}' } },
    { match: /^GET \/api\/v1\/search_by_date\?.*page=1(&|$)/, answers: { file: 'hn/search-page-1.json' } },
    { match: /^GET \/api\/v1\/search_by_date\?/, answers: later ? { body: JSON.stringify({ hits: [hit], nbPages: 1, page: 0 }) } : { file: 'hn/search-page-0.json' } },
    { match: 'GET /api/v1/items/41000001', answers: later ? { body: storyWithNewComment() } : { file: 'hn/item-41000001.json' } },
    { match: 'GET /api/v1/items/41000002', answers: { file: 'hn/item-41000002.json' } },
    { match: 'GET /api/v1/items/41000003', answers: { file: 'hn/item-41000003.json' } },
  ];
}

for (const dialect of DIALECTS) {
  describe(`live digest runs (${dialect})`, () => {
    let svc: TestService;
    let hn: ReplayServer;
    const project = 'prj_live';
    const source = (server: ReplayServer) => {
      resetPacing();
      return liveSource({ db: svc.store.db, settings: loadSourceSettings({ HN_ALGOLIA_URL: server.url }), http: { retries: 1, retryBaseMs: 1 } });
    };

    before(async () => {
      svc = await startService(dialect);
      await createDigestProject(svc.store, svc.users.alice, project, {
        communities: [
          { name: 'hn: Quantforge', description: '' },
          { name: 'hn: Broken', description: 'a search that keeps failing' },
          { name: 'mastodon: #llm', description: 'no source reads this' },
        ],
      });
      hn = await startReplay(hnRoutes(false));
    });
    after(async () => {
      await hn?.close();
      await svc.close();
    });

    test('one failing community: the run completes with the others, and the summary and the runs row say which failed and why', async () => {
      const summary = await runDigest({ store: svc.store, projectId: project, source: source(hn), window: FIRST, now: () => FIRST.end });
      assert.equal(summary.status, 'complete', summary.error ?? '');
      assert.equal(summary.source, 'live');
      assert.equal(summary.postsAnalyzed, 3);
      assert.ok(summary.signalCounts.pain + summary.signalCounts.competitor > 0, JSON.stringify(summary.signalCounts));
      assert.deepEqual(
        summary.communities.map((c) => [c.community, c.source, c.status, c.threads]),
        [
          ['mastodon: #llm', null, 'skipped', 0],
          ['hn: Quantforge', 'hn', 'ok', 3],
          ['hn: Broken', 'hn', 'failed', 0],
        ],
      );
      assert.match(summary.communities[2]!.error!, /answered 503 2 times/);
      assert.match(summary.communities[0]!.error!, /unknown community address/);

      const row = await svc.store.db.selectFrom('runs').select(['status', 'communities', 'posts_analyzed']).where('id', '=', summary.runId).executeTakeFirstOrThrow();
      assert.equal(row.status, 'complete');
      assert.deepEqual(JSON.parse(row.communities), summary.communities);

      const run = await svc.invoke(svc.keys.alice, { capability: 'runs.get', project, input: { runId: summary.runId } });
      assert.equal(run.status, 200);
      assert.equal(run.body.data.status, 'complete');
      assert.equal(run.body.data.postsAnalyzed, 3);
      assert.deepEqual(run.body.data.signalCounts, summary.signalCounts);

      // The collected threads read back whole, nested comments and all.
      const post = await svc.invoke(svc.keys.alice, { capability: 'posts.get', project, input: { id: 'hn:41000001' } });
      assert.equal(post.status, 200);
      assert.equal(post.body.data.post.permalink, '/hn/item/41000001');
      assert.equal(post.body.data.post.community, 'Hacker News');
      assert.match(post.body.data.post.content, /\n  - \*\*ggml_fan\*\* \(0 points\): Quantforge keeps crashing/);
    });

    test('the next run asks only for what is new, and a thread seen again adds only its new comment’s signals', async () => {
      const before = await rowCounts(svc.store, project);
      const quotesBefore = await svc.store.db.selectFrom('signals').select(['quote']).where('project_id', '=', project).execute();
      const later = await startReplay(hnRoutes(true));
      try {
        const summary = await runDigest({ store: svc.store, projectId: project, source: source(later), window: SECOND, now: () => SECOND.end });
        assert.equal(summary.status, 'complete', summary.error ?? '');
        assert.equal(summary.postsAnalyzed, 1, 'only the story with new activity');
        const search = later.requests.find((r) => r.url.includes('query=Quantforge'))!;
        const filters = new URL(search.url, later.url).searchParams.get('numericFilters');
        assert.equal(filters, `created_at_i>${FIRST.end.getTime() / 1000 - 600},created_at_i<=${SECOND.end.getTime() / 1000}`, 'after the first run’s cursor, less the overlap');

        const after = await rowCounts(svc.store, project);
        const added = await svc.store.db.selectFrom('signals').select(['quote', 'author']).where('project_id', '=', project).where('quote', 'not in', quotesBefore.map((q) => q.quote)).execute();
        assert.ok(added.length > 0, 'the new comment gives signals');
        assert.ok(added.every((s) => s.author === 'win_user' && NEW_COMMENT.includes(s.quote)), JSON.stringify(added));
        assert.equal(after.signals, before.signals + added.length, 'nothing already known was added again');
        assert.equal(summary.signalsAdded, added.length);
        assert.equal(after.posts, before.posts, 'the post is updated, not duplicated');
        const post = await svc.invoke(svc.keys.alice, { capability: 'posts.get', project, input: { id: 'hn:41000001' } });
        assert.match(post.body.data.post.content, /win_user/);
      } finally {
        await later.close();
      }
    });

    test('a run in which no community can be read fails, naming each reason; cursors do not move', async () => {
      await createDigestProject(svc.store, svc.users.alice, 'prj_live_down', { communities: [{ name: 'hn: Broken', description: '' }] });
      const summary = await runDigest({ store: svc.store, projectId: 'prj_live_down', source: source(hn), window: FIRST, now: () => FIRST.end });
      assert.equal(summary.status, 'failed');
      assert.match(summary.error!, /^no watched community could be collected: hn: Broken: .*503/);
      const row = await svc.store.db.selectFrom('runs').select(['status', 'error', 'communities']).where('id', '=', summary.runId).executeTakeFirstOrThrow();
      assert.equal(row.status, 'failed');
      assert.equal(JSON.parse(row.communities)[0].status, 'failed');
      const cursors = await svc.store.db.selectFrom('source_cursors').selectAll().where('project_id', '=', 'prj_live_down').execute();
      assert.deepEqual(cursors, []);
    });

    test('signals digest run without --source collects live: progress on stderr, each community in the summary', async () => {
      await createDigestProject(svc.store, svc.users.alice, 'prj_live_cli', {
        communities: [
          { name: 'hn: Quantforge', description: '' },
          { name: 'hn: Missing', description: '' },
        ],
      });
      const env = { HN_ALGOLIA_URL: hn.url, DIGEST_SOURCE: '' };
      const window = ['--since', '2026-11-19T06:00:00Z', '--until', '2026-11-20T06:00:00Z'];
      const human = await spawnSignals(svc.database.url, ['digest', 'run', '--project', 'prj_live_cli', ...window], { env }).done;
      assert.equal(human.code, 0, human.stderr);
      assert.match(human.stderr, /^digest: reading: [\d,]+ items read/m);
      assert.match(human.stdout, /^Digest run_\S+ complete for Nov 19 – Nov 20 \(live, rules analyzer/m);
      assert.match(human.stdout, /^Community hn: Quantforge \(hn\): 3 threads, 5 requests\.$/m);
      assert.match(human.stdout, /^Community hn: Missing \(hn\): FAILED: 127\.0\.0\.1:\d+ answered 404: \/api\/v1\/search_by_date does not exist \(or is private\) — \{"message":"index not found"\}\.$/m);

      const json = await spawnSignals(svc.database.url, ['digest', 'run', '--project', 'prj_live_cli', ...window, '--json'], { env }).done;
      assert.equal(json.code, 0, json.stderr);
      const summary = JSON.parse(json.stdout);
      assert.deepEqual(
        summary.communities.map((c: { community: string; status: string }) => [c.community, c.status]),
        [
          ['hn: Quantforge', 'ok'],
          ['hn: Missing', 'failed'],
        ],
      );
      assert.equal(summary.signalsAdded, 0, 'the same window again adds nothing');
    });

    test('the scheduler in signals serve collects live when no DIGEST_SOURCE is set', async () => {
      await createDigestProject(svc.store, svc.users.alice, 'prj_live_sched', { communities: [{ name: 'hn: Quantforge', description: '' }] }, '2026-11-01T00:00:00.000Z');
      resetPacing();
      const scheduler = startScheduler({
        store: svc.store,
        logger: createLogger('silent'),
        hourUtc: 6,
        source: sourceFrom(undefined, 'DIGEST_SOURCE', { db: svc.store.db, settings: loadSourceSettings({ HN_ALGOLIA_URL: hn.url }), http: { retries: 0 } }),
        tickMs: 3_600_000,
        now: () => new Date('2026-11-20T07:00:00Z'),
      });
      await scheduler.tick();
      await scheduler.stop();
      const runs = await svc.store.db.selectFrom('runs').select(['status', 'window_end', 'posts_analyzed', 'communities']).where('project_id', '=', 'prj_live_sched').execute();
      assert.equal(runs.length, 1);
      assert.equal(runs[0]!.status, 'complete');
      assert.equal(runs[0]!.window_end, FIRST.end.toISOString());
      assert.equal(Number(runs[0]!.posts_analyzed), 3);
      assert.deepEqual(JSON.parse(runs[0]!.communities).map((c: { status: string }) => c.status), ['ok']);
    });

    test('a project watching r/NAME, hn, stackoverflow, github and a Discourse forum collects from all five, end to end', async () => {
      const ATOM = { 'content-type': 'application/atom+xml; charset=UTF-8' };
      const server = await startReplay([
        // Reddit feeds (reddit-rss: no app credentials)
        { match: 'GET /r/LocalLLaMA/new/.rss?limit=100', answers: { file: 'reddit-rss/new.xml', headers: ATOM } },
        { match: 'GET /r/LocalLLaMA/comments/1p2zq9x/.rss', answers: { file: 'reddit-rss/comments-1p2zq9x.xml', headers: ATOM } },
        { match: 'GET /r/selfhosted/comments/1p2xk3m/.rss', answers: { file: 'reddit-rss/comments-1p2xk3m.xml', headers: ATOM } },
        { match: 'GET /r/LocalLLaMA/comments/1p2w8aa/.rss', answers: { file: 'reddit-rss/comments-1p2w8aa.xml', headers: ATOM } },
        // Hacker News through Algolia
        ...hnRoutes(false),
        // Stack Exchange
        { match: /^GET \/2\.3\/questions\?site=stackoverflow&tagged=quantforge&.*&page=1(&|$)/, answers: { file: 'stackexchange/questions-quantforge-page-1.json' } },
        { match: /^GET \/2\.3\/questions\?site=stackoverflow&tagged=quantforge&.*&page=2(&|$)/, answers: { file: 'stackexchange/questions-quantforge-page-2.json' } },
        { match: /^GET \/2\.3\/questions\/[\d;]+\/answers\?/, answers: { file: 'stackexchange/answers.json' } },
        { match: /^GET \/2\.3\/questions\/[\d;]+\/comments\?/, answers: { file: 'stackexchange/question-comments.json' } },
        { match: /^GET \/2\.3\/answers\/[\d;]+\/comments\?/, answers: { file: 'stackexchange/answer-comments.json' } },
        // GitHub issues (one page, no Link header)
        { match: 'GET /repos/quantforge/quantforge/issues?', answers: { file: 'github/issues-page-1.json' } },
        { match: 'GET /repos/quantforge/quantforge/issues/412/comments', answers: { file: 'github/comments-412-page-1.json' } },
        { match: 'GET /repos/quantforge/quantforge/issues/377/comments', answers: { file: 'github/comments-377.json' } },
        // A Discourse forum
        { match: 'GET /latest.json?order=activity&page=1', answers: { file: 'discourse/latest-page-1.json' } },
        { match: 'GET /latest.json?order=activity', answers: { file: 'discourse/latest.json' } },
        { match: 'GET /t/101.json', answers: { file: 'discourse/topic-101.json' } },
        { match: 'GET /t/102.json', answers: { file: 'discourse/topic-102.json' } },
        { match: 'GET /t/102/posts.json?', answers: { file: 'discourse/topic-102-posts.json' } },
        { match: 'GET /t/105.json', answers: { file: 'discourse/topic-105.json' } },
      ]);
      try {
        const communities = ['r/LocalLLaMA', 'hn: Quantforge', 'stackoverflow: quantforge', 'github: quantforge/quantforge', `discourse: ${server.url}`];
        await createDigestProject(svc.store, svc.users.alice, 'prj_live_all', { communities: communities.map((name) => ({ name, description: '' })) });
        resetPacing();
        const env = {
          REDDIT_URL: server.url,
          HN_ALGOLIA_URL: server.url,
          STACKEXCHANGE_API_URL: server.url,
          GITHUB_API_URL: server.url,
          FETCH_ALLOW_HOSTS: server.host,
          REDDIT_FEED_INTERVAL_SECONDS: '0',
        };
        const live = liveSource({ db: svc.store.db, settings: loadSourceSettings(env), http: { retries: 0 } });
        const summary = await runDigest({ store: svc.store, projectId: 'prj_live_all', source: live, window: FIRST, now: () => FIRST.end });
        assert.equal(summary.status, 'complete', summary.error ?? '');
        assert.deepEqual(
          summary.communities.map((c) => [c.community, c.source, c.status]),
          [
            ['r/LocalLLaMA', 'reddit-rss', 'ok'],
            ['hn: Quantforge', 'hn', 'ok'],
            ['stackoverflow: quantforge', 'stackexchange', 'ok'],
            ['github: quantforge/quantforge', 'github', 'ok'],
            [`discourse: ${server.url}`, 'discourse', 'ok'],
          ],
          JSON.stringify(summary.communities, null, 1),
        );
        for (const c of summary.communities) assert.ok(c.threads > 0 && c.requests > 0, JSON.stringify(c));
        const posts = await svc.store.db.selectFrom('posts').select(['id', 'community']).where('project_id', '=', 'prj_live_all').execute();
        const kinds = new Set(posts.map((p) => (/^(hn|se|gh|dc):/.exec(p.id)?.[1] ?? 'reddit')));
        assert.deepEqual([...kinds].sort(), ['dc', 'gh', 'hn', 'reddit', 'se']);
        assert.equal(summary.postsAnalyzed, posts.length);
        assert.ok(summary.signalCounts.pain > 0, JSON.stringify(summary.signalCounts));
        assert.ok(summary.brief && summary.brief.items > 0, 'a brief from what was collected');
        const cursors = await svc.store.db.selectFrom('source_cursors').select(['community', 'source', 'collected_through']).where('project_id', '=', 'prj_live_all').orderBy('community').execute();
        assert.equal(cursors.length, 5);
        assert.ok(cursors.every((c) => c.collected_through === FIRST.end.toISOString()));
      } finally {
        await server.close();
      }
    });
  });
}
