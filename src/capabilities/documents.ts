/**
 * What `fetch` gives for each kind of `search` result (DESIGN §11): the whole document as text a
 * model reads — the same text forms the other tools give (posts.get for a thread, pains.get for a
 * theme) — with its link and a few facts as metadata. Its title is the one `search` shows
 * (store/search.ts builds both from the same row).
 */
import { notFound } from '../domain/errors.ts';
import type { SignalItem } from '../domain/resources.ts';
import { briefById } from '../store/briefs.ts';
import { parseJson } from '../store/json.ts';
import { commentOfPost } from '../store/posts.ts';
import { docId, parseDocId, type SearchKind } from '../store/search-documents.ts';
import { fullTheme } from '../store/themes.ts';
import { itemLine } from './briefs-list.ts';
import { painsGet } from './pains-get.ts';
import { postsGet } from './posts-get.ts';
import { bullets, day } from './text.ts';
import type { ProjectContext } from './types.ts';

export interface Document {
  /** At most TEXT_MAX characters, like every text form; `fetch` may cut it further. */
  text: string;
  metadata: Record<string, string | number | null>;
}

/**
 * A result's link: its own (the thread on its community), else its page on the dashboard (a
 * theme's, or the briefs page for a brief item without a source).
 */
export function resultUrl(publicUrl: string, projectId: string, doc: { doc_id: string; url: string }): string {
  if (doc.url) return doc.url;
  const project = `${publicUrl}/projects/${encodeURIComponent(projectId)}`;
  const id = parseDocId(doc.doc_id);
  return id?.kind === 'theme' ? `${project}/themes/${encodeURIComponent(id.parts[0]!)}` : `${project}/briefs`;
}

/** The text and facts of a document whose row `search-documents.ts` found (`fetch` checks first). */
export async function loadDocument(ctx: ProjectContext, id: { kind: SearchKind; parts: string[] }, asked: string): Promise<Document> {
  const projectId = ctx.project.memory.id;
  const missing = () => notFound(`no document "${asked}" in this project`);
  switch (id.kind) {
    case 'post':
    case 'comment': {
      const [postId = '', commentId] = id.parts;
      const input = { id: postId };
      const thread = await postsGet.run(ctx, input);
      const { post } = thread;
      const meta = { community: post.community, author: post.author, score: post.score, postedAt: post.postCreatedAt };
      const threadText = postsGet.text!(thread, input);
      if (id.kind === 'post') return { text: threadText, metadata: { kind: 'post', ...meta } };
      const comment = await commentOfPost(ctx.store.db, projectId, postId, commentId ?? '');
      if (!comment) throw missing();
      return {
        // The comment first, then the thread it is part of.
        text: `${bullets([`Comment by ${comment.author} (${comment.score} points, ${day(comment.createdAt)}) on "${post.title}"`])}\n\n${comment.body}\n\nThe thread:\n\n${threadText}`,
        metadata: { kind: 'comment', ...meta, commentAuthor: comment.author, commentedAt: comment.createdAt },
      };
    }
    case 'theme': {
      const theme = await fullTheme(ctx.store.db, projectId, id.parts[0]!);
      if (!theme) throw missing();
      const { postIds: _postIds, ...full } = theme;
      return {
        text: painsGet.text!(full, { sovId: theme.id }),
        metadata: { kind: 'theme', postCount: theme.postCount, quotes: theme.pains.length, firstSeenAt: theme.firstSeenAt, lastSeenAt: theme.lastSeenAt },
      };
    }
    case 'signal': {
      const signal = await ctx.store.db
        .selectFrom('signals as s')
        .innerJoin('posts as p', (j) => j.onRef('p.project_id', '=', 's.project_id').onRef('p.id', '=', 's.post_id'))
        .leftJoin('themes as t', (j) => j.onRef('t.project_id', '=', 's.project_id').onRef('t.id', '=', 's.theme_id'))
        .select(['s.kind', 's.quote', 's.author', 's.seen_at', 's.competitor', 's.moves', 's.post_id', 'p.title as post_title', 'p.url as post_url', 'p.community', 't.id as theme_id', 't.title as theme_title'])
        .where('s.project_id', '=', projectId)
        .where('s.id', '=', id.parts[0]!)
        .executeTakeFirst();
      if (!signal) throw missing();
      const moves = Object.entries(parseJson<Record<string, { title: string; body: string }>>(signal.moves));
      return {
        text: bullets([
          `${signal.kind}${signal.competitor ? ` (${signal.competitor})` : ''}: "${signal.quote}"`,
          `By ${signal.author} in ${signal.community}, ${day(signal.seen_at)}, in "${signal.post_title}" (${signal.post_url}); the thread: fetch ${docId('post', signal.post_id)}`,
          ...(signal.theme_id ? [`Theme ${signal.theme_id}: ${signal.theme_title}`] : []),
          ...moves.map(([kind, m]) => `${kind} move: ${m.title}: ${m.body}`),
        ]),
        metadata: { kind: 'signal', signalKind: signal.kind, author: signal.author, seenAt: signal.seen_at, themeId: signal.theme_id ?? null },
      };
    }
    case 'brief': {
      const [briefId = '', position = ''] = id.parts;
      const brief = await briefById(ctx.store.db, projectId, briefId);
      const [s, i] = position.split('.').map(Number);
      const section = brief?.sections[s ?? -1];
      const item: SignalItem | undefined = section?.items[i ?? -1];
      if (!brief || !section || !item) throw missing();
      return {
        text: bullets([`Brief ${brief.window}`, itemLine(null, section.title, item)]),
        metadata: { kind: 'brief', window: brief.window, section: section.kind },
      };
    }
  }
}
