import type { StoredBrief } from '../domain/briefs.ts';
import { LIMITS } from '../domain/limits.ts';
import type { Db } from './db.ts';
import { parseJson } from './json.ts';

/** The briefs that share one numbering, newest first (by window end, then creation, then id). */
export async function numberedBriefs(db: Db, projectId: string): Promise<StoredBrief[]> {
  const rows = await db
    .selectFrom('briefs')
    .select(['window', 'sections'])
    .where('project_id', '=', projectId)
    .orderBy('window_end', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(LIMITS.numberedBriefs)
    .execute();
  return rows.map((r) => ({ window: r.window, sections: parseJson(r.sections) }));
}
