/**
 * The state machine of a project's memory build (DESIGN §4 "memoryStatus", §8 "Project memory"):
 * pending → building → ready | failed, and a refresh request moves ready/failed → building.
 *
 * A build is claimed with one conditional UPDATE, so of several processes (or a CLI refresh and
 * `signals serve`) exactly one builds a project at a time. The claim records when it started;
 * a build still `building` after STALE_BUILD_MS is taken to belong to a process that died and may
 * be claimed again, and the finish of a build that was taken over is discarded (it compares the
 * start time it claimed with the row's).
 */
import { sql } from 'kysely';
import type { MemoryField, ProjectMemory } from '../domain/resources.ts';
import type { Db, Store } from './db.ts';
import { lockProject, saveMemory } from './projects.ts';

/** Longer than any build can take (fetch bound 10 s, a few writes). */
export const STALE_BUILD_MS = 5 * 60_000;

/** A build claimable now: never built, refresh requested, or abandoned by a dead process. */
function claimable(at: string) {
  const staleBefore = new Date(Date.parse(at) - STALE_BUILD_MS).toISOString();
  return sql<boolean>`(memory_status = 'pending'
    or (memory_status in ('ready', 'failed') and memory_refresh_requested_at is not null)
    or (memory_status = 'building' and (memory_build_started_at is null or memory_build_started_at < ${staleBefore})))`;
}

/** Projects whose memory should be built now, oldest request first. */
export async function projectsNeedingMemory(db: Db, at: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('projects').select('id').where(claimable(at)).orderBy('created_at').orderBy('id').limit(limit).execute();
  return rows.map((r) => r.id);
}

/** Marks a refresh as wanted; the build itself is claimed separately. False: no such project. */
export async function requestMemoryRefresh(db: Db, projectId: string, at: string): Promise<boolean> {
  const result = await db.updateTable('projects').set({ memory_refresh_requested_at: at, updated_at: at }).where('id', '=', projectId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Takes the project's build if it is claimable; true when this caller now builds it. */
export async function claimMemoryBuild(db: Db, projectId: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('projects')
    .set({ memory_status: 'building', memory_build_started_at: at, memory_error: null, updated_at: at })
    .where('id', '=', projectId)
    .where(claimable(at))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** What a build learned; fields left undefined are not changed. */
export interface MemoryFacts {
  description?: string;
  category?: string;
}

export type BuildOutcome = { status: 'ready'; facts: MemoryFacts } | { status: 'failed'; error: string };

/**
 * Ends a build claimed at `startedAt`. Fields a user edited through memory.edit — read again under
 * the project's lock, since a user may edit while the site is fetched — are left alone. The
 * refresh request is cleared unless a newer one came during the build. False when the build was
 * taken over (or the project deleted): nothing is written then.
 */
export async function finishMemoryBuild(store: Store, projectId: string, startedAt: string, outcome: BuildOutcome, at: string): Promise<boolean> {
  return store.db.transaction().execute(async (trx) => {
    const current = await lockProject(trx, store.dialect, projectId);
    if (!current || current.memory.memoryStatus !== 'building') return false;
    const row = await trx.selectFrom('projects').select(['memory_build_started_at']).where('id', '=', projectId).executeTakeFirstOrThrow();
    if (row.memory_build_started_at !== startedAt) return false;
    const requested = current.memory.memoryRefreshRequestedAt;
    const memory: ProjectMemory = {
      ...current.memory,
      ...(outcome.status === 'ready' ? unedited(outcome.facts, current.editedFields) : {}),
      memoryStatus: outcome.status,
      memoryRefreshRequestedAt: requested !== null && requested > startedAt ? requested : null,
    };
    await saveMemory(trx, projectId, memory, current.editedFields, at);
    await trx
      .updateTable('projects')
      .set({ memory_error: outcome.status === 'failed' ? outcome.error : null })
      .where('id', '=', projectId)
      .execute();
    return true;
  });
}

function unedited(facts: MemoryFacts, edited: readonly MemoryField[]): MemoryFacts {
  const out: MemoryFacts = {};
  if (facts.description !== undefined && !edited.includes('description')) out.description = facts.description;
  if (facts.category !== undefined && !edited.includes('category')) out.category = facts.category;
  return out;
}

/** Why the project's last memory build failed, if it did. */
export async function memoryError(db: Db, projectId: string): Promise<string | null> {
  const row = await db.selectFrom('projects').select('memory_error').where('id', '=', projectId).executeTakeFirst();
  return row?.memory_error ?? null;
}
