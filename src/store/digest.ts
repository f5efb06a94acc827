/**
 * What the digest pipeline reads and writes besides runs and leases: the project's existing pain
 * themes (to seed incremental grouping), which signals it already has (so a re-run adds nothing
 * twice), the batch writes, and the in-window rankings the brief is built from.
 */
import { sql } from 'kysely';
import type { Db } from './db.ts';
import { refreshDerived } from './derived.ts';
import type { NameSizesTable, PostsTable, SignalsTable, ThemesTable } from './schema.ts';
import { groupBy } from './group.ts';
import { dropSignalDocs, dropThemeDocs, indexSignalIds, indexThemeIds } from './search.ts';
import { upsertNameSizes, upsertPosts, upsertThemes } from './writes.ts';

/** A stored pain as the theme grouper reads it (ingest/digest/themes.ts PainDoc, before its context). */
export interface StoredPain {
  signalId: string;
  postId: string;
  quote: string;
  at: string;
  community: string;
  title: string;
  selftext: string;
}

export interface ThemeDocs {
  id: string;
  /** Its stored title: the grouper keeps other themes from taking it. */
  title: string;
  docs: StoredPain[];
}

function storedPains(db: Db, projectId: string) {
  return db
    .selectFrom('signals as s')
    .innerJoin('posts as p', (j) => j.onRef('p.project_id', '=', 's.project_id').onRef('p.id', '=', 's.post_id'))
    .select(['s.id as signalId', 's.post_id as postId', 's.quote', 's.seen_at as at', 'p.community', 'p.title', 'p.selftext', 's.theme_id as themeId'])
    .where('s.project_id', '=', projectId)
    .where('s.kind', '=', 'pain');
}

/** Every pain theme with its pains, oldest theme and pain first. */
export async function painThemeDocs(db: Db, projectId: string): Promise<ThemeDocs[]> {
  const rows = await storedPains(db, projectId)
    .innerJoin('themes as t', 't.id', 's.theme_id')
    .select('t.title as themeTitle')
    .where('t.type', '=', 'pain')
    .orderBy('t.first_seen_at')
    .orderBy('t.id')
    .orderBy('s.seen_at')
    .orderBy('s.id')
    .execute();
  const themes: ThemeDocs[] = [];
  for (const { themeId, themeTitle, ...pain } of rows) {
    const last = themes[themes.length - 1];
    if (last?.id === themeId) last.docs.push(pain);
    else themes.push({ id: themeId!, title: themeTitle, docs: [pain] });
  }
  return themes;
}

/** The project's unthemed pains (the pool each run re-clusters): the newest `limit`, oldest first. */
export async function pooledPains(db: Db, projectId: string, limit: number): Promise<StoredPain[]> {
  const rows = await storedPains(db, projectId).where('s.theme_id', 'is', null).orderBy('s.seen_at', 'desc').orderBy('s.id', 'desc').limit(limit).execute();
  return rows.reverse().map(({ themeId: _, ...pain }) => pain);
}

/** The project's competitor themes (one per product), so a run knows which it founds. */
export async function competitorThemeIds(db: Db, projectId: string): Promise<string[]> {
  const rows = await db.selectFrom('themes').select('id').where('project_id', '=', projectId).where('type', '=', 'competitor').execute();
  return rows.map((r) => r.id);
}

/** The ids among `ids` the store already holds. */
export async function existingSignalIds(db: Db, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 5_000) {
    const rows = await db.selectFrom('signals').select('id').where('id', 'in', ids.slice(i, i + 5_000)).execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** The names competitors.list shows today, so a new spelling of a known product joins it. */
export async function productNames(db: Db, projectId: string): Promise<string[]> {
  const rows = await db.selectFrom('competitor_totals').select('name').where('project_id', '=', projectId).orderBy('name').execute();
  return rows.map((r) => r.name);
}

/** How the project's threads have written each name family so far (ingest/analyze/model-sizes.ts). */
export async function nameSizes(db: Db, projectId: string): Promise<NameSizesTable[]> {
  return db.selectFrom('name_sizes').selectAll().where('project_id', '=', projectId).execute();
}

export interface DigestBatch {
  posts: PostsTable[];
  signals: SignalsTable[];
  themes: ThemesTable[];
  /** Stored pains that left the unthemed pool: signal id → theme id. */
  assigned?: Map<string, string>;
  /** Name families whose counts this batch changed, with their new totals. */
  nameSizes?: NameSizesTable[];
  /** Products found to be model families or hardware: their mentions, and their themes left empty, go. */
  notProducts?: string[];
}

/**
 * One batch in one transaction: posts upserted (a re-collected thread brings its new comments),
 * signals inserted unless present, touched themes upserted, then the derived counters. A batch is
 * all or nothing; a run that fails between batches leaves whole batches, which a re-run keeps.
 */
export async function writeDigestBatch(db: Db, projectId: string, batch: DigestBatch): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await upsertPosts(trx, batch.posts);
    await upsertThemes(trx, batch.themes);
    for (let i = 0; i < batch.signals.length; i += 2_000) {
      await trx
        .insertInto('signals')
        .values(batch.signals.slice(i, i + 2_000))
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    }
    await indexSignalIds(trx, projectId, batch.signals.map((s) => s.id));
    await assignThemes(trx, projectId, batch.assigned ?? new Map());
    await upsertNameSizes(trx, batch.nameSizes ?? []);
    await dropMentions(trx, projectId, batch.notProducts ?? []);
    await refreshDerived(trx, projectId);
  });
}

/**
 * Every mention of these products (competitor keys), with their search documents, and the
 * competitor themes that held only them. A signal is what the analyzer read in one sentence; a
 * name the project's threads later show to be a model family or hardware was never a product, and leaving its
 * early mentions would keep it in competitors.list for good.
 */
async function dropMentions(db: Db, projectId: string, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const mentions = await db.selectFrom('signals').select(['id', 'theme_id']).where('project_id', '=', projectId).where('kind', '=', 'competitor').where('competitor_key', 'in', keys).execute();
  if (mentions.length === 0) return;
  await dropSignalDocs(db, projectId, mentions.map((m) => m.id));
  await db.deleteFrom('signals').where('project_id', '=', projectId).where('kind', '=', 'competitor').where('competitor_key', 'in', keys).execute();
  // Only the themes these mentions were in can have been left empty.
  const held = [...new Set(mentions.flatMap((m) => (m.theme_id === null ? [] : [m.theme_id])))];
  if (held.length === 0) return;
  const empty = await db
    .selectFrom('themes as t')
    .select('t.id')
    .where('t.project_id', '=', projectId)
    .where('t.id', 'in', held)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('signals as s').select('s.id').whereRef('s.theme_id', '=', 't.id'))))
    .execute();
  const themes = empty.map((r) => r.id);
  if (themes.length === 0) return;
  await dropThemeDocs(db, projectId, themes);
  await db.deleteFrom('themes').where('project_id', '=', projectId).where('id', 'in', themes).execute();
}

/** Pains of this project move into themes (one statement per theme). */
async function assignThemes(db: Db, projectId: string, assigned: Map<string, string>): Promise<void> {
  for (const [theme, pairs] of groupBy(assigned, ([, theme]) => theme)) {
    const signals = pairs.map(([signal]) => signal);
    for (let i = 0; i < signals.length; i += 5_000) {
      await db.updateTable('signals').set({ theme_id: theme }).where('project_id', '=', projectId).where('id', 'in', signals.slice(i, i + 5_000)).execute();
    }
  }
}

/** Titles and summaries an analyzer wrote for this project's themes (others' ids are untouched). */
export async function renameThemes(db: Db, projectId: string, names: readonly { id: string; title: string; summary: string }[]): Promise<void> {
  for (const n of names) {
    await db.updateTable('themes').set({ title: n.title, summary: n.summary }).where('project_id', '=', projectId).where('id', '=', n.id).execute();
  }
  await indexThemeIds(db, projectId, names.map((n) => n.id));
}

/**
 * Themes an analyzer judged to be one problem (the `llm` analyzer's merges): `from`'s signals
 * join `into` and `from` is deleted, in one transaction; ids of other projects are untouched.
 */
export async function mergeThemes(db: Db, projectId: string, merges: readonly { from: string; into: string }[]): Promise<void> {
  if (merges.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const { from, into } of merges) {
      await trx.updateTable('signals').set({ theme_id: into }).where('project_id', '=', projectId).where('theme_id', '=', from).execute();
      await trx.deleteFrom('themes').where('project_id', '=', projectId).where('id', '=', from).execute();
    }
    await dropThemeDocs(trx, projectId, merges.map((m) => m.from));
    await refreshDerived(trx, projectId);
  });
}

export interface WindowTheme {
  themeId: string;
  type: string;
  title: string;
  summary: string;
  posts: number;
  topScore: number;
}

/**
 * Themes with signals from the window's posts, by distinct posts there, then by the theme's posts so
 * far, then the best post's score. In a daily window most themes have one post there; of those, a
 * problem many have voiced before is the stronger signal than a two-post theme from a popular
 * thread, and rated blind its items were worth forwarding more often (docs/quality.md, "Which
 * themes a daily brief weighs first").
 */
export async function themesInWindow(db: Db, projectId: string, type: string, start: string, end: string, limit: number): Promise<WindowTheme[]> {
  const rows = await db
    .selectFrom('signals as s')
    .innerJoin('themes as t', 't.id', 's.theme_id')
    .innerJoin('posts as p', (j) => j.onRef('p.project_id', '=', 's.project_id').onRef('p.id', '=', 's.post_id'))
    .select((eb) => [
      't.id as themeId',
      't.type',
      't.title',
      't.summary',
      eb.fn.count<string | number>(sql`distinct ${sql.ref('s.post_id')}`).as('posts'),
      eb.fn.max('p.score').as('topScore'),
    ])
    .where('s.project_id', '=', projectId)
    .where('t.type', '=', type)
    .where('p.post_created_at', '>', start)
    .where('p.post_created_at', '<=', end)
    .groupBy(['t.id', 't.type', 't.title', 't.summary', 't.post_count'])
    .orderBy('posts', 'desc')
    .orderBy('t.post_count', 'desc')
    .orderBy('topScore', 'desc')
    .orderBy('t.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, posts: Number(r.posts), topScore: Number(r.topScore) }));
}

export interface WindowSignal {
  id: string;
  kind: string;
  quote: string;
  author: string;
  competitor: string | null;
  moves: string;
  postTitle: string;
  postUrl: string;
  community: string;
  score: number;
}

/** Which signals of a window: one theme's, or a project's pains still in the unthemed pool. */
type WindowFilter = { themeId: string } | { unthemedPainsOf: string };

/** Signals of posts created in the window, best-received post first: what a brief quotes. */
async function windowSignals(db: Db, filter: WindowFilter, start: string, end: string, limit: number): Promise<WindowSignal[]> {
  let query = db
    .selectFrom('signals as s')
    .innerJoin('posts as p', (j) => j.onRef('p.project_id', '=', 's.project_id').onRef('p.id', '=', 's.post_id'))
    .select(['s.id', 's.kind', 's.quote', 's.author', 's.competitor', 's.moves', 'p.title as postTitle', 'p.url as postUrl', 'p.community', 'p.score'])
    .where('p.post_created_at', '>', start)
    .where('p.post_created_at', '<=', end);
  query =
    'themeId' in filter
      ? query.where('s.theme_id', '=', filter.themeId)
      : query.where('s.project_id', '=', filter.unthemedPainsOf).where('s.kind', '=', 'pain').where('s.theme_id', 'is', null);
  const rows = await query.orderBy('p.score', 'desc').orderBy('s.seen_at').orderBy('s.id').limit(limit).execute();
  return rows.map((r) => ({ ...r, score: Number(r.score) }));
}

/** The window's pains still in the unthemed pool (a brief's fallback for a thin window). */
export function unthemedPainsInWindow(db: Db, projectId: string, start: string, end: string, limit: number): Promise<WindowSignal[]> {
  return windowSignals(db, { unthemedPainsOf: projectId }, start, end, limit);
}

/** A theme's signals from the window's posts. */
export function themeSignalsInWindow(db: Db, themeId: string, start: string, end: string, limit: number): Promise<WindowSignal[]> {
  return windowSignals(db, { themeId }, start, end, limit);
}
