import { sql } from 'kysely';
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

/**
 * DESIGN §4 "Project selection": the newest of the owner's projects whose URL contains `urlPart`
 * (case-insensitive), or simply the newest when `urlPart` is undefined.
 */
export async function selectProject(db: Db, ownerId: string, urlPart?: string): Promise<ProjectRecord | undefined> {
  const row =
    urlPart === undefined
      ? await newestProjectOfOwner.executeTakeFirst(db, { ownerId })
      : await newestProjectOfOwnerLike.executeTakeFirst(db, { ownerId, pattern: `%${escapeLike(urlPart.toLowerCase())}%` });
  return row && toProjectRecord(row);
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
