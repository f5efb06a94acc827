import type { CommunityOutcome, DigestRun, RunStatus } from '../domain/resources.ts';
import type { Db } from './db.ts';
import { parseJson, toJson } from './json.ts';
import { prepareQuery } from './prepared.ts';
import type { RunsTable } from './schema.ts';

/** The columns of a `runs.get` answer (DESIGN §4), the project's name joined as `name`. */
const RUN_COLUMNS = ['r.id', 'r.project_id', 'p.name', 'r.window_start', 'r.window_end', 'r.status', 'r.signal_counts', 'r.posts_analyzed'] as const;
type RunRow = Pick<RunsTable, 'id' | 'project_id' | 'window_start' | 'window_end' | 'status' | 'signal_counts' | 'posts_analyzed'> & { name: string };

/** A `runs` row as `runs.get` answers it. */
function runOf(row: RunRow): DigestRun {
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

const runWithOwner = prepareQuery({ ownerId: 'string', runId: 'string' }, (db, a) =>
  db
    .selectFrom('runs as r')
    .innerJoin('projects as p', 'p.id', 'r.project_id')
    .select(RUN_COLUMNS)
    .where('r.id', '=', a.runId)
    .where('p.owner_id', '=', a.ownerId),
);

/** A run of any of the owner's projects; undefined for anyone else's, so nothing leaks. */
export async function runOfOwner(db: Db, ownerId: string, runId: string): Promise<DigestRun | undefined> {
  const row = await runWithOwner.executeTakeFirst(db, { ownerId, runId });
  return row ? runOf(row) : undefined;
}

/** A run as the dashboard's runs page shows it: the `runs.get` fields and what the run recorded. */
export interface ProjectRun extends DigestRun {
  /** Why the run failed (null unless it did). */
  error: string | null;
  /** Per watched community, what the collection got (empty for a file source, or until the run ends). */
  communities: CommunityOutcome[];
  /** When the run was recorded (`queued`). */
  createdAt: string;
  /** Its last change: progress while it runs, its end once complete or failed. */
  updatedAt: string;
}

const projectRuns = prepareQuery({ projectId: 'string', limit: 'number' }, (db, a) =>
  db
    .selectFrom('runs as r')
    .innerJoin('projects as p', 'p.id', 'r.project_id')
    .select([...RUN_COLUMNS, 'r.error', 'r.communities', 'r.created_at', 'r.updated_at'])
    .where('r.project_id', '=', a.projectId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(a.limit),
);

/**
 * The project's `limit` newest runs, newest first (by when they were recorded). No ownership check:
 * the caller has already selected the project as its owner's (the dashboard's project pages).
 */
export async function listProjectRuns(db: Db, projectId: string, limit: number): Promise<ProjectRun[]> {
  const rows = await projectRuns.execute(db, { projectId, limit });
  return rows.map((row) => {
    const communities = parseJson<unknown>(row.communities);
    return {
      ...runOf(row),
      error: row.error,
      communities: Array.isArray(communities) ? (communities as CommunityOutcome[]) : [],
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  });
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
