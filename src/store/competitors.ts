import { LIMITS } from '../domain/limits.ts';
import type { Db } from './db.ts';

export function competitorKey(name: string): string {
  return name.trim().toLowerCase();
}

export async function competitorTotals(db: Db, projectId: string) {
  const rows = await db
    .selectFrom('competitor_totals')
    .select(['competitor_key', 'name', 'mentions'])
    .where('project_id', '=', projectId)
    .execute();
  return rows.map((r) => ({ key: r.competitor_key, name: r.name, mentions: Number(r.mentions) }));
}

/** One product's newest mentions with the post they came from. */
export async function competitorSources(db: Db, projectId: string, key: string) {
  return db
    .selectFrom('signals as s')
    .innerJoin('posts as p', (j) => j.onRef('p.project_id', '=', 's.project_id').onRef('p.id', '=', 's.post_id'))
    .select(['p.title', 'p.url', 's.quote'])
    .where('s.project_id', '=', projectId)
    .where('s.competitor_key', '=', key)
    .orderBy('s.seen_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(LIMITS.competitorSources)
    .execute();
}
