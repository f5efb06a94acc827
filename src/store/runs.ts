import type { DigestRun, RunStatus } from '../domain/resources.ts';
import type { Db } from './db.ts';
import { parseJson, toJson } from './json.ts';
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

export interface NewRun {
  id: string;
  projectId: string;
  windowStart: string;
  windowEnd: string;
  at: string;
}

/** A run starts `queued` (DESIGN §4: queued → running → complete | failed). */
export async function insertQueuedRun(db: Db, run: NewRun): Promise<void> {
  await db
    .insertInto('runs')
    .values({
      id: run.id,
      project_id: run.projectId,
      window_start: run.windowStart,
      window_end: run.windowEnd,
      status: 'queued',
      signal_counts: toJson({}),
      posts_analyzed: 0,
      error: null,
      communities: toJson([]),
      created_at: run.at,
      updated_at: run.at,
    })
    .execute();
}

/** The arrows of DESIGN §4's run status machine; a status only ever moves along one of them. */
const NEXT: Record<RunStatus, readonly RunStatus[]> = {
  queued: ['running', 'failed'],
  running: ['complete', 'failed'],
  complete: [],
  failed: [],
};

export interface RunUpdate {
  signalCounts?: Record<string, number>;
  postsAnalyzed?: number;
  error?: string;
  /** Per-community collection outcomes (live sources), stored as given. */
  communities?: readonly unknown[];
}

/**
 * Moves a run to `to` if its current status has an arrow there; false when it does not (it was
 * already finished, e.g. failed by a sweep after its lease expired), so a late writer never moves
 * a status backwards.
 */
export async function advanceRun(db: Db, runId: string, to: RunStatus, update: RunUpdate = {}, at = new Date().toISOString()): Promise<boolean> {
  const from = (Object.keys(NEXT) as RunStatus[]).filter((s) => NEXT[s].includes(to));
  const result = await db
    .updateTable('runs')
    .set({
      status: to,
      updated_at: at,
      ...(update.signalCounts ? { signal_counts: toJson(update.signalCounts) } : {}),
      ...(update.postsAnalyzed !== undefined ? { posts_analyzed: update.postsAnalyzed } : {}),
      ...(update.error !== undefined ? { error: update.error } : {}),
      ...(update.communities !== undefined ? { communities: toJson(update.communities) } : {}),
    })
    .where('id', '=', runId)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Counts kept as a run goes, so a run read mid-way (or after a failure) shows its progress. */
export async function recordRunProgress(db: Db, runId: string, update: Required<Pick<RunUpdate, 'signalCounts' | 'postsAnalyzed'>>): Promise<void> {
  await db
    .updateTable('runs')
    .set({ signal_counts: toJson(update.signalCounts), posts_analyzed: update.postsAnalyzed, updated_at: new Date().toISOString() })
    .where('id', '=', runId)
    .where('status', '=', 'running')
    .execute();
}

/** The project's runs for the window ending at `windowEnd` (the scheduler's "did this slot run?"). */
export async function runsEndingAt(db: Db, projectId: string, windowEnd: string) {
  return db
    .selectFrom('runs')
    .select(['id', 'status', 'error'])
    .where('project_id', '=', projectId)
    .where('window_end', '=', windowEnd)
    .execute();
}

/** Where the next scheduled window starts: the end of the project's newest complete run. */
export async function lastCompleteWindowEnd(db: Db, projectId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('runs')
    .select('window_end')
    .where('project_id', '=', projectId)
    .where('status', '=', 'complete')
    .orderBy('window_end', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.window_end;
}
