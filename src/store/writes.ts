/**
 * Batched upserts by id for the resources that imports and the digest pipeline write. Rows go in
 * chunks small enough for SQLite's and PostgreSQL's bound-parameter limits. Posts, themes,
 * signals and briefs are searchable: their documents (store/search.ts) are rewritten with them.
 */
import type { Db } from './db.ts';
import { indexBriefs, indexPosts, indexSignals, indexThemes } from './search.ts';
import type { BriefsTable, NameSizesTable, PostsTable, RunsTable, Schema, SignalsTable, ThemesTable } from './schema.ts';

const PARAMS_PER_STATEMENT = 30_000;

async function upsertChunks<T extends keyof Schema & string>(
  db: Db,
  table: T,
  rows: Schema[T][],
  conflict: string[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!) as (keyof Schema[T] & string)[];
  const updates = columns.filter((c) => !conflict.includes(c));
  const chunk = Math.max(1, Math.floor(PARAMS_PER_STATEMENT / columns.length));
  for (let i = 0; i < rows.length; i += chunk) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + chunk) as never)
      .onConflict((oc) =>
        oc.columns(conflict as never).doUpdateSet((eb) => Object.fromEntries(updates.map((c) => [c, eb.ref(`excluded.${c}` as never)])) as never),
      )
      .execute();
  }
}

export async function upsertPosts(db: Db, rows: PostsTable[]): Promise<void> {
  await upsertChunks(db, 'posts', rows, ['project_id', 'id']);
  await indexPosts(db, rows);
}

export async function upsertThemes(db: Db, rows: ThemesTable[]): Promise<void> {
  await upsertChunks(db, 'themes', rows, ['id']);
  await indexThemes(db, rows);
}

export async function upsertSignals(db: Db, rows: SignalsTable[]): Promise<void> {
  await upsertChunks(db, 'signals', rows, ['id']);
  await indexSignals(db, rows);
}

export async function upsertBriefs(db: Db, rows: BriefsTable[]): Promise<void> {
  await upsertChunks(db, 'briefs', rows, ['id']);
  await indexBriefs(db, rows);
}
export const upsertRuns = (db: Db, rows: RunsTable[]) => upsertChunks(db, 'runs', rows, ['id']);
export const upsertNameSizes = (db: Db, rows: NameSizesTable[]) => upsertChunks(db, 'name_sizes', rows, ['project_id', 'family']);

type OwnedTable = 'themes' | 'signals' | 'briefs' | 'runs';

/** Ids among `ids` that already belong to a project other than `projectId`. */
export async function idsOwnedElsewhere(db: Db, table: OwnedTable, projectId: string, ids: string[]): Promise<string[]> {
  const found: string[] = [];
  for (let i = 0; i < ids.length; i += 5_000) {
    const rows = await db
      .selectFrom(table)
      .select('id')
      .where('id', 'in', ids.slice(i, i + 5_000))
      .where('project_id', '!=', projectId)
      .execute();
    found.push(...rows.map((r) => r.id));
  }
  return found;
}
