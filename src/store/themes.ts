import type { PainSignal, ThemeFull, ThemeRow, ThemeType } from '../domain/resources.ts';
import type { Db } from './db.ts';
import { parseJson } from './json.ts';
import { prepareQuery } from './prepared.ts';

export type ThemeSort = 'recent' | 'posts';

export interface ThemeTotals {
  themeCount: number;
  postCount: number;
}

const totalsOfType = prepareQuery({ projectId: 'string', type: 'string' }, (db, a) =>
  db.selectFrom('theme_totals').select(['theme_count', 'post_count']).where('project_id', '=', a.projectId).where('type', '=', a.type),
);

export async function themeTotals(db: Db, projectId: string, type: ThemeType): Promise<ThemeTotals> {
  const row = await totalsOfType.executeTakeFirst(db, { projectId, type });
  return { themeCount: Number(row?.theme_count ?? 0), postCount: Number(row?.post_count ?? 0) };
}

/** The ids of one page of themes, in a sort and direction: each pair is its own SQL text. */
function pageIdsQuery(sort: ThemeSort, direction: 'asc' | 'desc') {
  return prepareQuery({ projectId: 'string', type: 'string', limit: 'number', offset: 'number' }, (db, a) => {
    let ids = db.selectFrom('themes').select('id').where('project_id', '=', a.projectId).where('type', '=', a.type);
    if (sort === 'posts') ids = ids.orderBy('post_count', direction);
    return ids.orderBy('recent_at', direction).orderBy('id', direction).limit(a.limit).offset(a.offset);
  });
}

const pageIds = {
  recent: { asc: pageIdsQuery('recent', 'asc'), desc: pageIdsQuery('recent', 'desc') },
  posts: { asc: pageIdsQuery('posts', 'asc'), desc: pageIdsQuery('posts', 'desc') },
} as const;

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
  const slice = fromEnd ? { limit: Math.min(limit, total - offset), offset: Math.max(0, total - offset - limit) } : { limit, offset };
  const ids = (await pageIds[sort][direction].execute(db, { projectId, type, ...slice })).map((r) => r.id);
  if (fromEnd) ids.reverse();
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('themes')
    .select(['id', 'title', 'summary', 'post_count', 'recent_at'])
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const r = byId.get(id)!;
    return { id: r.id, title: r.title, summary: r.summary, postCount: Number(r.post_count), lastUpdatedAt: r.recent_at };
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
    .orderBy('recent_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, title: r.title, summary: r.summary, painCount: Number(r.signal_count) }));
}

/** A theme of this project with all its signals, newest first; undefined when not this project's. */
const themeOfProject = prepareQuery({ projectId: 'string', themeId: 'string' }, (db, a) =>
  db
    .selectFrom('themes')
    .select(['id', 'title', 'summary', 'post_count', 'first_seen_at', 'last_seen_at', 'updated_at'])
    .where('id', '=', a.themeId)
    .where('project_id', '=', a.projectId),
);

const signalsOfTheme = prepareQuery({ themeId: 'string' }, (db, a) =>
  db
    .selectFrom('signals as s')
    .innerJoin('posts as p', (j) => j.onRef('p.project_id', '=', 's.project_id').onRef('p.id', '=', 's.post_id'))
    .select(['s.id', 's.quote', 's.author', 's.seen_at', 's.moves', 's.post_id', 'p.url', 'p.title', 'p.community'])
    .where('s.theme_id', '=', a.themeId)
    .orderBy('s.seen_at', 'desc')
    .orderBy('s.id', 'desc'),
);

export async function fullTheme(db: Db, projectId: string, themeId: string): Promise<(ThemeFull & { postIds: string[] }) | undefined> {
  const theme = await themeOfProject.executeTakeFirst(db, { projectId, themeId });
  if (!theme) return undefined;
  const rows = await signalsOfTheme.execute(db, { themeId });
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
