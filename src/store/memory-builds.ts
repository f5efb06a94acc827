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
import type { MemoryField, MemoryStatus } from '../domain/resources.ts';
import type { Db, Store } from './db.ts';
import { toJson } from './json.ts';
import { lockProject } from './projects.ts';

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
  /** Products the `llm` summary suggested; tracked only while the memory tracks none. */
  competitors?: { name: string; url: string; description: string }[];
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
    const requested = current.memory.memoryRefreshRequestedAt;
    const result = await trx
      .updateTable('projects')
      .set({
        ...(outcome.status === 'ready' ? unedited(outcome.facts, current.editedFields, current.memory.competitors.length) : {}),
        memory_status: outcome.status,
        memory_error: outcome.status === 'failed' ? outcome.error : null,
        memory_refresh_requested_at: requested !== null && requested > startedAt ? requested : null,
        updated_at: at,
      })
      .where('id', '=', projectId)
      .where('memory_build_started_at', '=', startedAt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  });
}

/**
 * The facts' columns, without those a user edited. Suggested competitors fill an empty list only:
 * a list someone keeps (or emptied on purpose, which counts as an edit) is theirs.
 */
function unedited(facts: MemoryFacts, edited: readonly MemoryField[], trackedCompetitors: number): { description?: string; category?: string; competitors?: string } {
  const out: { description?: string; category?: string; competitors?: string } = {};
  if (facts.description !== undefined && !edited.includes('description')) out.description = facts.description;
  if (facts.category !== undefined && !edited.includes('category')) out.category = facts.category;
  if (facts.competitors !== undefined && facts.competitors.length > 0 && !edited.includes('competitors') && trackedCompetitors === 0) out.competitors = toJson(facts.competitors);
  return out;
}

/** What a build needs to know of a project: its name, URL, memory status and last failure. */
export async function memoryBuildState(db: Db, projectId: string): Promise<{ name: string; url: string; memoryStatus: MemoryStatus; error: string | null } | undefined> {
  const row = await db.selectFrom('projects').select(['name', 'url', 'memory_status', 'memory_error']).where('id', '=', projectId).executeTakeFirst();
  return row && { name: row.name, url: row.url, memoryStatus: row.memory_status as MemoryStatus, error: row.memory_error };
}
