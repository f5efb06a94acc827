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
});
