import type { StoredBrief } from '../domain/briefs.ts';
import { LIMITS } from '../domain/limits.ts';
import type { Db } from './db.ts';
import { parseJson } from './json.ts';
import { prepareQuery } from './prepared.ts';

const newestBriefs = prepareQuery({ projectId: 'string' }, (db, a) =>
  db
    .selectFrom('briefs')
    .select(['window', 'sections'])
    .where('project_id', '=', a.projectId)
    .orderBy('window_end', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(LIMITS.numberedBriefs),
);

/** The briefs that share one numbering, newest first (by window end, then creation, then id). */
export async function numberedBriefs(db: Db, projectId: string): Promise<StoredBrief[]> {
  const rows = await newestBriefs.execute(db, { projectId });
  return rows.map((r) => ({ window: r.window, sections: parseJson(r.sections) }));
}

/** One brief of the project by id, with its window (for `fetch` of a brief item). */
export async function briefById(db: Db, projectId: string, id: string): Promise<(StoredBrief & { id: string }) | undefined> {
  const row = await db.selectFrom('briefs').select(['id', 'window', 'sections']).where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  return row && { id: row.id, window: row.window, sections: parseJson(row.sections) };
}
