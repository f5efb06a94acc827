/**
 * `signals import`: writes a validated bundle in one transaction (all or nothing). Upserts by id,
 * so importing the same bundle twice changes nothing; ids that belong to another project or owner
 * are refused rather than moved.
 */
import { sql } from 'kysely';
import type { Store } from '../store/db.ts';
import { refreshDerived } from '../store/derived.ts';
import { competitorKey } from '../store/competitors.ts';
import { toJson } from '../store/json.ts';
import { projectWithUrl, upsertProject } from '../store/projects.ts';
import { idsOwnedElsewhere, upsertBriefs, upsertPosts, upsertRuns, upsertSignals, upsertThemes } from '../store/writes.ts';
import { postRowOf } from './rows.ts';
import { BundleError, memoryOf, type Bundle, type BundleProject } from './bundle.ts';

export interface ImportCounts {
  projects: number;
  posts: number;
  signals: number;
  themes: number;
  briefs: number;
  runs: number;
}

export async function importBundle(store: Store, bundle: Bundle, now = new Date().toISOString()): Promise<ImportCounts> {
  const counts: ImportCounts = { projects: 0, posts: 0, signals: 0, themes: 0, briefs: 0, runs: 0 };
  await store.db.transaction().execute(async (trx) => {
    for (const [i, project] of bundle.projects.entries()) {
      const at = `projects[${i}]`;
      const owner = await trx
        .selectFrom('user')
        .select('id')
        .where(sql<boolean>`lower(email) = ${project.owner.toLowerCase()}`)
        .executeTakeFirst();
      if (!owner) throw new BundleError(`${at}.owner: no account with email "${project.owner}"`);
      const existing = await trx.selectFrom('projects').select('owner_id').where('id', '=', project.id).executeTakeFirst();
      if (existing && existing.owner_id !== owner.id) {
        throw new BundleError(`${at}.id: project "${project.id}" belongs to another account`);
      }
      const sameUrl = await projectWithUrl(trx, owner.id, project.url, project.id);
      if (sameUrl) throw new BundleError(`${at}.url: the account already has project "${sameUrl.id}" with the URL ${project.url} (one project per URL, so that neither hides the other)`);
      await refuseForeignIds(trx, project, at);
      await writeProject(trx, owner.id, project, now);
      await refreshDerived(trx, project.id);
      counts.projects += 1;
      counts.posts += project.posts.length;
      counts.signals += project.signals.length;
      counts.themes += project.themes.length;
      counts.briefs += project.briefs.length;
      counts.runs += project.runs.length;
    }
  });
  return counts;
}

async function refuseForeignIds(trx: Store['db'], project: BundleProject, at: string): Promise<void> {
  const checks = [
    ['themes', project.themes],
    ['signals', project.signals],
    ['briefs', project.briefs],
    ['runs', project.runs],
  ] as const;
  for (const [table, rows] of checks) {
    const foreign = await idsOwnedElsewhere(trx, table, project.id, rows.map((r) => r.id));
    if (foreign.length > 0) {
      const index = rows.findIndex((r) => r.id === foreign[0]);
      throw new BundleError(`${at}.${table}[${index}].id: "${foreign[0]}" belongs to another project`);
    }
  }
}

async function writeProject(trx: Store['db'], ownerId: string, p: BundleProject, now: string): Promise<void> {
  await upsertProject(trx, {
    id: p.id,
    ownerId,
    createdAt: p.createdAt,
    memory: memoryOf(p),
  });
  await upsertPosts(
    trx,
    p.posts.map((post) => postRowOf(p.id, post)),
  );
  await upsertThemes(
    trx,
    p.themes.map((t) => ({
      id: t.id,
      project_id: p.id,
      type: t.type,
      title: t.title,
      summary: t.summary,
      updated_at: t.updatedAt,
      recent_at: t.updatedAt,
      post_count: 0,
      signal_count: 0,
      first_seen_at: null,
      last_seen_at: null,
    })),
  );
  await upsertSignals(
    trx,
    p.signals.map((s) => ({
      id: s.id,
      project_id: p.id,
      post_id: s.postId,
      kind: s.kind,
      quote: s.quote,
      author: s.author,
      theme_id: s.themeId,
      competitor: s.competitor,
      competitor_key: s.competitor === null ? null : competitorKey(s.competitor),
      seen_at: s.seenAt,
      moves: toJson(s.moves),
    })),
  );
  await upsertBriefs(
    trx,
    p.briefs.map((b) => ({
      id: b.id,
      project_id: p.id,
      window: b.window,
      window_start: b.windowStart,
      window_end: b.windowEnd,
      created_at: b.createdAt,
      sections: toJson(b.sections),
    })),
  );
  await upsertRuns(
    trx,
    p.runs.map((r) => ({
      id: r.id,
      project_id: p.id,
      window_start: r.windowStart,
      window_end: r.windowEnd,
      status: r.status,
      signal_counts: toJson(r.signalCounts),
      posts_analyzed: r.postsAnalyzed,
      error: null,
      communities: toJson([]),
      created_at: r.windowEnd,
      updated_at: now,
    })),
  );
}
