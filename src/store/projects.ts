import { sql } from 'kysely';
import { invalid } from '../domain/errors.ts';
import { projectUrlKey } from '../domain/project-url.ts';
import type { MemoryField, MemoryStatus, ProjectMemory, ProjectSummary } from '../domain/resources.ts';
import type { Db, Dialect } from './db.ts';
import { parseJson, toJson } from './json.ts';
import { prepareQuery } from './prepared.ts';
import type { ProjectsTable } from './schema.ts';


export interface ProjectRecord {
  ownerId: string;
  createdAt: string;
  memory: ProjectMemory;
  editedFields: MemoryField[];
}

export function toProjectRecord(row: ProjectsTable): ProjectRecord {
  return {
    ownerId: row.owner_id,
    createdAt: row.created_at,
    editedFields: parseJson(row.edited_fields),
    memory: {
      id: row.id,
      name: row.name,
      url: row.url,
      category: row.category,
      description: row.description,
      idealCustomer: row.ideal_customer,
      competitors: parseJson(row.competitors),
      offerings: parseJson(row.offerings),
      communities: parseJson(row.communities),
      filterRules: parseJson(row.filter_rules),
      memoryStatus: row.memory_status as MemoryStatus,
      memoryRefreshRequestedAt: row.memory_refresh_requested_at,
    },
  };
}

export function memoryColumns(memory: ProjectMemory) {
  return {
    name: memory.name,
    url: memory.url,
    category: memory.category,
    description: memory.description,
    ideal_customer: memory.idealCustomer,
    competitors: toJson(memory.competitors),
    offerings: toJson(memory.offerings),
    communities: toJson(memory.communities),
    filter_rules: toJson(memory.filterRules),
    memory_status: memory.memoryStatus,
    memory_refresh_requested_at: memory.memoryRefreshRequestedAt,
  };
}

const projectById = prepareQuery({ id: 'string' }, (db, a) => db.selectFrom('projects').selectAll().where('id', '=', a.id));

export async function getProject(db: Db, id: string): Promise<ProjectRecord | undefined> {
  const row = await projectById.executeTakeFirst(db, { id });
  return row && toProjectRecord(row);
}

const projectSummariesOfOwner = prepareQuery({ ownerId: 'string' }, (db, a) =>
  db
    .selectFrom('projects')
    .select(['id', 'name', 'url', 'memory_status'])
    .where('owner_id', '=', a.ownerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc'),
);

export async function listProjectSummaries(db: Db, ownerId: string): Promise<ProjectSummary[]> {
  const rows = await projectSummariesOfOwner.execute(db, { ownerId });
  return rows.map((r) => ({ id: r.id, name: r.name, url: r.url, memoryStatus: r.memory_status as MemoryStatus }));
}

const newestProjectOfOwner = prepareQuery({ ownerId: 'string' }, (db, a) =>
  db.selectFrom('projects').selectAll().where('owner_id', '=', a.ownerId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1),
);

const newestProjectOfOwnerLike = prepareQuery({ ownerId: 'string', pattern: 'string' }, (db, a) =>
  db
    .selectFrom('projects')
    .selectAll()
    .where('owner_id', '=', a.ownerId)
    .where(sql<boolean>`lower(url) like ${a.pattern} escape '\\'`)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1),
);

const projectOfOwnerById = prepareQuery({ ownerId: 'string', id: 'string' }, (db, a) =>
  db.selectFrom('projects').selectAll().where('owner_id', '=', a.ownerId).where('id', '=', a.id),
);

/**
 * DESIGN §4 "Project selection": the owner's project whose id is exactly `ref`; else the newest of
 * the owner's projects whose URL contains `ref` (case-insensitive); the newest of all when `ref`
 * is undefined. The API, the MCP tools, the CLI and the dashboard all select through this, so one
 * input picks one project everywhere.
 */
export async function selectProject(db: Db, ownerId: string, ref?: string): Promise<ProjectRecord | undefined> {
  if (ref === undefined) {
    const newest = await newestProjectOfOwner.executeTakeFirst(db, { ownerId });
    return newest && toProjectRecord(newest);
  }
  const exact = await projectOfOwnerById.executeTakeFirst(db, { ownerId, id: ref });
  if (exact) return toProjectRecord(exact);
  const row = await newestProjectOfOwnerLike.executeTakeFirst(db, { ownerId, pattern: `%${escapeLike(ref.toLowerCase())}%` });
  return row && toProjectRecord(row);
}

/** The accounts with a project whose URL contains `ref` (case-insensitive). */
export async function ownersOfProjectsLike(db: Db, ref: string): Promise<string[]> {
  const rows = await db
    .selectFrom('projects')
    .select('owner_id')
    .distinct()
    .where(sql<boolean>`lower(url) like ${`%${escapeLike(ref.toLowerCase())}%`} escape '\\'`)
    .execute();
  return rows.map((r) => r.owner_id);
}

/** The owner's project with this URL (DESIGN §4's comparison), other than `exceptId`. */
export async function projectWithUrl(db: Db, ownerId: string, url: string, exceptId?: string): Promise<{ id: string; name: string } | undefined> {
  const key = projectUrlKey(url);
  const rows = await db.selectFrom('projects').select(['id', 'name', 'url']).where('owner_id', '=', ownerId).execute();
  return rows.find((r) => r.id !== exceptId && projectUrlKey(r.url) === key);
}

/**
 * A new project for its owner, refused (`invalid`) when the owner already has a project with this
 * URL: the newer one would hide the older from URL selection.
 */
export async function createProject(db: Db, p: NewProject): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const taken = await projectWithUrl(trx, p.ownerId, p.memory.url);
    if (taken) throw invalid(`You already have a project with the URL ${p.memory.url}: "${taken.name}" (${taken.id}). Open it instead, or use another URL.`);
    await upsertProject(trx, p);
  });
}

export async function renameProject(db: Db, id: string, name: string, at = new Date().toISOString()): Promise<void> {
  await db.updateTable('projects').set({ name, updated_at: at }).where('id', '=', id).execute();
}

/** Tables holding a project's data, by `project_id`; the project row goes last. */
const PROJECT_TABLES = ['signals', 'posts', 'themes', 'theme_totals', 'competitor_totals', 'name_sizes', 'briefs', 'runs', 'source_cursors', 'digest_leases', 'search_docs'] as const;

/** Every row of the project's data and the project itself; call inside a transaction. */
export async function deleteProjectRows(trx: Db, id: string): Promise<void> {
  for (const table of PROJECT_TABLES) await trx.deleteFrom(table).where('project_id', '=', id).execute();
  await trx.deleteFrom('projects').where('id', '=', id).execute();
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export interface NewProject {
  id: string;
  ownerId: string;
  memory: ProjectMemory;
  createdAt: string;
  editedFields?: MemoryField[];
}

export async function upsertProject(db: Db, p: NewProject): Promise<void> {
  const columns = {
    ...memoryColumns(p.memory),
    owner_id: p.ownerId,
    created_at: p.createdAt,
    updated_at: p.createdAt,
  };
  // Re-importing a project keeps its record of user-edited fields (bundles do not carry it), so
  // a restore does not let a later memory rebuild overwrite what a user wrote.
  await db
    .insertInto('projects')
    .values({ id: p.id, ...columns, edited_fields: toJson(p.editedFields ?? []) })
    .onConflict((oc) => oc.column('id').doUpdateSet(columns))
    .execute();
}

/**
 * Takes the project's write lock inside a transaction, so read-modify-write sequences on one
 * project are serialised. PostgreSQL: a row lock. SQLite: a first write makes the transaction
 * take the database's RESERVED lock now, so a second writer waits before it reads stale memory,
 * instead of failing later when it tries to upgrade its read lock. Must be the transaction's
 * first statement on SQLite (see takeSqliteWriteLock).
 */
export async function lockProject(trx: Db, dialect: Dialect, id: string): Promise<ProjectRecord | undefined> {
  if (dialect === 'postgres') {
    const row = await trx.selectFrom('projects').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    return row && toProjectRecord(row);
  }
  await takeSqliteWriteLock(() => trx.updateTable('projects').set({ updated_at: sql`updated_at` }).where('id', '=', id).execute(), trx);
  return getProject(trx, id);
}

const SQLITE_LOCK_WAIT_MS = 5_000;

/**
 * better-sqlite3 waits for a busy lock synchronously (busy_timeout), blocking the event loop. When
 * the holder is another connection of this same process (a second Store on the same file), the
 * holder can never finish its transaction while we block: a self-deadlock that ends in
 * SQLITE_BUSY. So the write is tried without waiting and retried after yielding to the event
 * loop. As the transaction's first statement, a failed try leaves it holding no read snapshot, so
 * the retry reads current data.
 */
async function takeSqliteWriteLock(write: () => Promise<unknown>, trx: Db): Promise<void> {
  const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(trx);
  const timeout = rows[0]?.timeout ?? SQLITE_LOCK_WAIT_MS;
  await sql`pragma busy_timeout = 0`.execute(trx);
  try {
    const deadline = Date.now() + Math.max(timeout, SQLITE_LOCK_WAIT_MS);
    for (;;) {
      try {
        await write();
        return;
      } catch (err) {
        if ((err as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 9));
      }
    }
  } finally {
    await sql.raw(`pragma busy_timeout = ${Number(timeout)}`).execute(trx);
  }
}

export async function saveMemory(
  trx: Db,
  id: string,
  memory: ProjectMemory,
  editedFields: MemoryField[],
  at: string,
): Promise<void> {
  await trx
    .updateTable('projects')
    .set({ ...memoryColumns(memory), edited_fields: toJson(editedFields), updated_at: at })
    .where('id', '=', id)
    .execute();
}
