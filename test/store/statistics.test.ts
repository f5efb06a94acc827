/**
 * Store.refreshStatistics (src/store/db.ts): a digest run leaves the query planner statistics of
 * what it wrote, so the brief's reads are planned from the tables' real shape. Without them SQLite
 * walked every post of the window and, for each, every pooled pain of the project (0.9 s of a
 * 3,747-thread backfill; docs/performance.md). On PostgreSQL the method does nothing (autovacuum
 * analyzes; the same query took 21 ms right after a backfill there), so only SQLite is tested.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { runDigest } from '../../src/ingest/digest/run.ts';
import type { Source } from '../../src/ingest/sources/source.ts';
import { openStore } from '../../src/store/db.ts';
import { createDigestProject, memorySource } from '../helpers/digest.ts';
import { fixtureThreads } from '../helpers/reddit-export.ts';
import { startService, type TestService } from '../helpers/service.ts';

const threads = fixtureThreads().slice(0, 80);
const times = threads.map((t) => Date.parse(t.postCreatedAt)).sort((a, b) => a - b);
const WINDOW = { start: new Date(times[0]! - 1), end: new Date(times[times.length - 1]!) };

describe('planner statistics (sqlite)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService('sqlite');
  });
  after(() => svc.close());

  const analyzed = async () => {
    const exists = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_stat1'`.execute(svc.store.db);
    if (Number(exists.rows[0]!.n) === 0) return [];
    return (await sql<{ tbl: string }>`select distinct tbl from sqlite_stat1`.execute(svc.store.db)).rows.map((r) => r.tbl);
  };
  const poolPlan = async (projectId: string) =>
    (
      await sql<{ detail: string }>`explain query plan select s.id from signals as s inner join posts as p on p.project_id = s.project_id and p.id = s.post_id
        where p.post_created_at > ${WINDOW.start.toISOString()} and p.post_created_at <= ${WINDOW.end.toISOString()}
        and s.project_id = ${projectId} and s.kind = 'pain' and s.theme_id is null order by p.score desc, s.seen_at, s.id limit 40`.execute(svc.store.db)
    ).rows.map((r) => r.detail);

  test('a digest run leaves statistics of the tables it wrote, and the pool query starts from the pool', async () => {
    assert.ok(!(await analyzed()).includes('signals'), 'a fresh database has no statistics of signals');
    await createDigestProject(svc.store, svc.users.alice, 'prj_stats');
    const summary = await runDigest({ store: svc.store, projectId: 'prj_stats', source: memorySource(threads), window: WINDOW });
    assert.equal(summary.status, 'complete', summary.error ?? '');
    const tables = await analyzed();
    for (const table of ['signals', 'posts']) assert.ok(tables.includes(table), `statistics of ${table} (have ${tables.join(', ')})`);
    const plan = await poolPlan('prj_stats');
    assert.match(plan[0] ?? '', /^SEARCH s USING INDEX signals_pool/, plan.join(' | '));
  });

  test('statistics follow the tables while a run writes them, so a backfill into a nearly empty store never plans from its empty shape', async () => {
    // A store opened on a migrated but nearly empty database records statistics of its few
    // non-empty tables; FTS5's data table then holds 2 rows (its structure and averages records).
    // At that estimate SQLite plans FTS5's own range reads (`WHERE id>=? AND id<=?`, used as
    // segments merge) as a scan of the whole table: one scan per merge, which made a 37,000-thread
    // backfill take 463 s instead of 218 s (docs/performance.md). Each batch's write refreshes
    // the statistics.
    const dataPlan = async (store: typeof svc.store) =>
      (await sql<{ detail: string }>`explain query plan select block from search_fts_data where id >= 1 and id <= 2`.execute(store.db)).rows.map((r) => r.detail).join(' | ');
    const fresh = await startService('sqlite', { bundle: false });
    const store = openStore(fresh.database.url);
    try {
      assert.match(await dataPlan(store), /^SCAN/, 'the trap this guards against: a near-empty FTS index planned as a scan');
      await createDigestProject(store, fresh.users.alice, 'prj_stats_growing');
      let planMidRun = '';
      const inner = memorySource(threads);
      const watching: Source = {
        name: 'memory',
        async *threads(request) {
          let handed = 0;
          for await (const thread of inner.threads(request)) {
            // Two batches of ten are written by the time the fourth is collected.
            if (handed === 35) planMidRun = await dataPlan(store);
            handed += 1;
            yield thread;
          }
        },
      };
      const summary = await runDigest({ store, projectId: 'prj_stats_growing', source: watching, window: WINDOW, batchThreads: 10 });
      assert.equal(summary.status, 'complete', summary.error ?? '');
      assert.match(planMidRun, /^SEARCH search_fts_data USING INTEGER PRIMARY KEY/, planMidRun);
    } finally {
      await store.close();
      await fresh.close();
    }
  });
});
