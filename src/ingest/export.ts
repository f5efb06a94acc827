/** `signals export`: the inverse of import; every list is ordered by id so output is stable. */
import type { RunStatus, SignalKind, ThemeType } from '../domain/resources.ts';
import type { Db } from '../store/db.ts';
import { parseJson } from '../store/json.ts';
import { toProjectRecord } from '../store/projects.ts';
import { BUNDLE_FORMAT, BUNDLE_VERSION, type Bundle, type BundleProject } from './bundle.ts';

export async function exportBundle(db: Db, projectIds?: string[]): Promise<Bundle> {
  let query = db
    .selectFrom('projects as p')
    .innerJoin('user as u', 'u.id', 'p.owner_id')
    .selectAll('p')
    .select('u.email');
  if (projectIds) query = query.where('p.id', 'in', projectIds.length > 0 ? projectIds : ['']);
  const rows = await query.orderBy('p.id').execute();
  const projects: BundleProject[] = [];
  for (const row of rows) projects.push(await exportProject(db, row.email, toProjectRecord(row)));
  return { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, projects };
}

async function exportProject(db: Db, owner: string, record: ReturnType<typeof toProjectRecord>): Promise<BundleProject> {
  const id = record.memory.id;
  const [posts, themes, signals, briefs, runs] = await Promise.all([
    db.selectFrom('posts').selectAll().where('project_id', '=', id).orderBy('id').execute(),
    db.selectFrom('themes').selectAll().where('project_id', '=', id).orderBy('id').execute(),
    db.selectFrom('signals').selectAll().where('project_id', '=', id).orderBy('id').execute(),
    db.selectFrom('briefs').selectAll().where('project_id', '=', id).orderBy('id').execute(),
    db.selectFrom('runs').selectAll().where('project_id', '=', id).orderBy('id').execute(),
  ]);
  const { memoryStatus, memoryRefreshRequestedAt, ...memory } = record.memory;
  return {
    owner,
    ...memory,
    memoryStatus,
    memoryRefreshRequestedAt,
    createdAt: record.createdAt,
    posts: posts.map((p) => ({
      id: p.id,
      url: p.url,
      permalink: p.permalink,
      community: p.community,
      title: p.title,
      selftext: p.selftext,
      author: p.author,
      score: Number(p.score),
      postCreatedAt: p.post_created_at,
      comments: parseJson(p.comments),
    })),
    themes: themes.map((t) => ({ id: t.id, type: t.type as ThemeType, title: t.title, summary: t.summary, updatedAt: t.updated_at })),
    signals: signals.map((s) => ({
      id: s.id,
      postId: s.post_id,
      kind: s.kind as SignalKind,
      quote: s.quote,
      author: s.author,
      themeId: s.theme_id,
      competitor: s.competitor,
      seenAt: s.seen_at,
      moves: parseJson(s.moves),
    })),
    briefs: briefs.map((b) => ({
      id: b.id,
      window: b.window,
      windowStart: b.window_start,
      windowEnd: b.window_end,
      createdAt: b.created_at,
      sections: parseJson(b.sections),
    })),
    runs: runs.map((r) => ({
      id: r.id,
      windowStart: r.window_start,
      windowEnd: r.window_end,
      status: r.status as RunStatus,
      signalCounts: parseJson(r.signal_counts),
      postsAnalyzed: Number(r.posts_analyzed),
    })),
  };
}
