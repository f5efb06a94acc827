/**
 * Counters the read paths sort and page on (theme post counts, seen-at range, per-type totals,
 * per-product mention counts). They are recomputed from the signals after every write batch, in
 * the writer's transaction, so reads never aggregate over a whole project.
 */
import { sql } from 'kysely';
import type { Db } from './db.ts';

export async function refreshDerived(db: Db, projectId: string): Promise<void> {
  await sql`
    update themes set
      post_count = (select count(distinct s.post_id) from signals s where s.theme_id = themes.id),
      signal_count = (select count(*) from signals s where s.theme_id = themes.id),
      first_seen_at = (select min(s.seen_at) from signals s where s.theme_id = themes.id),
      last_seen_at = (select max(s.seen_at) from signals s where s.theme_id = themes.id),
      recent_at = coalesce((select max(s.seen_at) from signals s where s.theme_id = themes.id), updated_at)
    where project_id = ${projectId}`.execute(db);

  await db.deleteFrom('theme_totals').where('project_id', '=', projectId).execute();
  await sql`
    insert into theme_totals (project_id, type, theme_count, post_count)
    select t.project_id, t.type, count(*),
      (select count(distinct s.post_id) from signals s inner join themes t2 on t2.id = s.theme_id
        where t2.project_id = t.project_id and t2.type = t.type)
    from themes t where t.project_id = ${projectId}
    group by t.project_id, t.type`.execute(db);

  await db.deleteFrom('competitor_totals').where('project_id', '=', projectId).execute();
  const spellings = await db
    .selectFrom('signals')
    .select((eb) => ['competitor_key', 'competitor', eb.fn.countAll<string | number>().as('n'), eb.fn.max('seen_at').as('last')])
    .where('project_id', '=', projectId)
    .where('kind', '=', 'competitor')
    .where('competitor_key', 'is not', null)
    .groupBy(['competitor_key', 'competitor'])
    .execute();
  const products = new Map<string, { name: string; best: number; mentions: number; last: string }>();
  for (const row of spellings) {
    const key = row.competitor_key!;
    const n = Number(row.n);
    const entry = products.get(key) ?? { name: row.competitor!, best: 0, mentions: 0, last: row.last };
    // The most used spelling names the product; ties go to the alphabetically first for stability.
    if (n > entry.best || (n === entry.best && row.competitor! < entry.name)) {
      entry.name = row.competitor!;
      entry.best = n;
    }
    entry.mentions += n;
    if (row.last > entry.last) entry.last = row.last;
    products.set(key, entry);
  }
  const rows = [...products].map(([key, p]) => ({
    project_id: projectId,
    competitor_key: key,
    name: p.name,
    mentions: p.mentions,
    last_seen_at: p.last,
  }));
  for (let i = 0; i < rows.length; i += 500) {
    await db.insertInto('competitor_totals').values(rows.slice(i, i + 500)).execute();
  }
}
