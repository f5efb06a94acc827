import type { DigestRun, RunStatus } from '../domain/resources.ts';
import type { Db } from './db.ts';
import { parseJson } from './json.ts';
import { prepareQuery } from './prepared.ts';

const runWithOwner = prepareQuery({ ownerId: 'string', runId: 'string' }, (db, a) =>
  db
    .selectFrom('runs as r')
    .innerJoin('projects as p', 'p.id', 'r.project_id')
    .select(['r.id', 'r.project_id', 'p.name', 'r.window_start', 'r.window_end', 'r.status', 'r.signal_counts', 'r.posts_analyzed'])
    .where('r.id', '=', a.runId)
    .where('p.owner_id', '=', a.ownerId),
);

/** A run of any of the owner's projects; undefined for anyone else's, so nothing leaks. */
export async function runOfOwner(db: Db, ownerId: string, runId: string): Promise<DigestRun | undefined> {
  const row = await runWithOwner.executeTakeFirst(db, { ownerId, runId });
  if (!row) return undefined;
  return {
    id: row.id,
    projectId: row.project_id,
    projectName: row.name,
    windowStart: row.window_start,
    windowEnd: row.window_end,
    status: row.status as RunStatus,
    signalCounts: parseJson(row.signal_counts),
    postsAnalyzed: Number(row.posts_analyzed),
  };
}
