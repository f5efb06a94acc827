import type { PainSignal, ThemeFull, ThemeRow, ThemeType } from '../domain/resources.ts';
import type { Db } from './db.ts';
import { parseJson } from './json.ts';

export type ThemeSort = 'recent' | 'posts';

export interface ThemeTotals {
  themeCount: number;
  postCount: number;
}

export async function themeTotals(db: Db, projectId: string, type: ThemeType): Promise<ThemeTotals> {
  const row = await db
    .selectFrom('theme_totals')
    .select(['theme_count', 'post_count'])
    .where('project_id', '=', projectId)
    .where('type', '=', type)
    .executeTakeFirst();
  return { themeCount: Number(row?.theme_count ?? 0), postCount: Number(row?.post_count ?? 0) };
}

/**
 * One page of themes. The ids are found on the sort index alone and only the page's rows are
 * then read, so a deep page walks index entries, not table rows.
 *
 * Walking costs per skipped entry, so when `total` (the theme count of `theme_totals`, kept exact
 * by refreshDerived in every writer's transaction) says the page is nearer the end, it is found
 * from the end: the same sort reversed (a total order, as `id` breaks every tie), a small offset,
 * and the ids turned back. The last page then costs what the first one does.
 */
export async function themePage(
  db: Db,
  projectId: string,
  type: ThemeType,
  sort: ThemeSort,
  offset: number,
  limit: number,
  total?: number,
): Promise<ThemeRow[]> {
  const fromEnd = total !== undefined && offset < total && total - offset - limit < offset;
  const direction = fromEnd ? 'asc' : 'desc';
  let ids = db
    .selectFrom('themes')
    .select('id')
    .where('project_id', '=', projectId)
    .where('type', '=', type);
  if (sort === 'posts') ids = ids.orderBy('post_count', direction);
  ids = ids.orderBy('updated_at', direction).orderBy('id', direction);
  ids = fromEnd ? ids.limit(Math.min(limit, total - offset)).offset(Math.max(0, total - offset - limit)) : ids.limit(limit).offset(offset);
  const pageIds = (await ids.execute()).map((r) => r.id);
  if (fromEnd) pageIds.reverse();
  if (pageIds.length === 0) return [];
  const rows = await db
    .selectFrom('themes')
    .select(['id', 'title', 'summary', 'post_count', 'updated_at'])
    .where('id', 'in', pageIds)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return pageIds.map((id) => {
    const r = byId.get(id)!;
    return { id: r.id, title: r.title, summary: r.summary, postCount: Number(r.post_count), lastUpdatedAt: r.updated_at };
  });
}

/** pains.sources list mode: every pain theme, ordered as sort=posts. */
export async function painThemesByPosts(db: Db, projectId: string) {
  const rows = await db
    .selectFrom('themes')
    .select(['id', 'title', 'summary', 'signal_count'])
    .where('project_id', '=', projectId)
    .where('type', '=', 'pain')
    .orderBy('post_count', 'desc')
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, title: r.title, summary: r.summary, painCount: Number(r.signal_count) }));
}

/** A theme of this project with all its signals, newest first; undefined when not this project's. */
export async function fullTheme(db: Db, projectId: string, themeId: string): Promise<(ThemeFull & { postIds: string[] }) | undefined> {
  const theme = await db
    .selectFrom('themes')
    .select(['id', 'title', 'summary', 'post_count', 'first_seen_at', 'last_seen_at', 'updated_at'])
    .where('id', '=', themeId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!theme) return undefined;
  const rows = await db
    .selectFrom('signals as s')
    .innerJoin('posts as p', (j) => j.onRef('p.project_id', '=', 's.project_id').onRef('p.id', '=', 's.post_id'))
    .select(['s.id', 's.quote', 's.author', 's.seen_at', 's.moves', 's.post_id', 'p.url', 'p.title', 'p.community'])
    .where('s.theme_id', '=', themeId)
    .orderBy('s.seen_at', 'desc')
    .orderBy('s.id', 'desc')
    .execute();
  const pains: PainSignal[] = rows.map((r) => ({
    signalId: r.id,
    quote: r.quote,
    author: r.author,
    postUrl: r.url,
    postTitle: r.title,
    community: r.community,
    seenAt: r.seen_at,
    moves: parseJson(r.moves),
  }));
  return {
    id: theme.id,
    title: theme.title,
    summary: theme.summary,
    postCount: Number(theme.post_count),
    // A theme without signals has seen nothing yet; its own update time is the honest answer.
    firstSeenAt: theme.first_seen_at ?? theme.updated_at,
    lastSeenAt: theme.last_seen_at ?? theme.updated_at,
    pains,
    postIds: rows.map((r) => r.post_id),
  };
}
