/**
 * Source cursors (migration 006): per (project, community), the span of time a live source has
 * collected, so that a run asks only for what is new. A cursor moves only after the run that
 * collected its threads has stored them (DigestSource.commit), so a run that fails mid-way asks
 * again next time; the signals' derived ids make the second reading add nothing twice.
 */
import type { Db } from './db.ts';

export interface SourceCursor {
  community: string;
  source: string;
  collectedFrom: string;
  collectedThrough: string;
}

export async function cursorsOf(db: Db, projectId: string): Promise<Map<string, SourceCursor>> {
  const rows = await db
    .selectFrom('source_cursors')
    .select(['community', 'source', 'collected_from', 'collected_through'])
    .where('project_id', '=', projectId)
    .execute();
  return new Map(rows.map((r) => [r.community, { community: r.community, source: r.source, collectedFrom: r.collected_from, collectedThrough: r.collected_through }]));
}

export async function saveCursors(db: Db, projectId: string, cursors: readonly SourceCursor[], at: string): Promise<void> {
  if (cursors.length === 0) return;
  await db
    .insertInto('source_cursors')
    .values(
      cursors.map((c) => ({
        project_id: projectId,
        community: c.community,
        source: c.source,
        collected_from: c.collectedFrom,
        collected_through: c.collectedThrough,
        updated_at: at,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['project_id', 'community']).doUpdateSet((eb) => ({
        source: eb.ref('excluded.source'),
        collected_from: eb.ref('excluded.collected_from'),
        collected_through: eb.ref('excluded.collected_through'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}
