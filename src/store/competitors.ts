import { LIMITS } from '../domain/limits.ts';
import type { Db } from './db.ts';
import { prepareQuery } from './prepared.ts';

export function competitorKey(name: string): string {
  return name.trim().toLowerCase();
}

const totalsOfProject = prepareQuery({ projectId: 'string' }, (db, a) =>
  db.selectFrom('competitor_totals').select(['competitor_key', 'name', 'mentions']).where('project_id', '=', a.projectId),
);

export async function competitorTotals(db: Db, projectId: string) {
  const rows = await totalsOfProject.execute(db, { projectId });
  return rows.map((r) => ({ key: r.competitor_key, name: r.name, mentions: Number(r.mentions) }));
}

const newestMentions = prepareQuery({ projectId: 'string', key: 'string' }, (db, a) =>
  db
    .selectFrom('signals as s')
    .innerJoin('posts as p', (j) => j.onRef('p.project_id', '=', 's.project_id').onRef('p.id', '=', 's.post_id'))
    .select(['p.title', 'p.url', 's.quote'])
    .where('s.project_id', '=', a.projectId)
    .where('s.competitor_key', '=', a.key)
    .orderBy('s.seen_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(LIMITS.competitorSources),
);

/** One product's newest mentions with the post they came from. */
export async function competitorSources(db: Db, projectId: string, key: string) {
  return newestMentions.execute(db, { projectId, key });
}
