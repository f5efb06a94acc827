/**
 * What `fetch` gives for each kind of `search` result (DESIGN §11): the whole document as text a
 * model reads — the same text forms the other tools give (posts.get for a thread, pains.get for a
 * theme) — with its link and a few facts as metadata. Its title is the one `search` shows
 * (store/search.ts builds both from the same row).
 */
import { notFound } from '../domain/errors.ts';
import type { SignalItem } from '../domain/resources.ts';
import { eachComment, type ThreadComment } from '../domain/thread.ts';
import { briefById } from '../store/briefs.ts';
import { parseJson } from '../store/json.ts';
import { postRowById, toSourcePost } from '../store/posts.ts';
import { docId, documents, parseDocId, postDocs, type SearchDocument, type SearchKind } from '../store/search-documents.ts';
import { fullTheme } from '../store/themes.ts';
import { itemLine } from './briefs-list.ts';
import { painsGet } from './pains-get.ts';
import { postsGet, threadAnswer } from './posts-get.ts';
import { bullets, day } from './text.ts';
import type { ProjectContext } from './types.ts';

export interface Document {
  /** What `search` shows for it: its title and link (store/search-documents.ts). */
  indexed: SearchDocument;
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

/**
 * A document by its `search` id, with the title and link search shows for it; `asked` is the id
 * as given, which must be the one search gave (an id no row holds is not found).
 */
export async function loadDocument(ctx: ProjectContext, id: { kind: SearchKind; parts: string[] }, asked: string): Promise<Document> {
  const projectId = ctx.project.memory.id;
  const missing = () => notFound(`no document "${asked}" in this project`);
  if (id.kind === 'post' || id.kind === 'comment') {
    // A thread's row is read and its comments parsed once, for its title, its text and the
    // comment asked for: a 1,000-comment thread is the case that matters.
    const [postId = '', commentId] = id.parts;
    const row = await postRowById(ctx.store.db, projectId, postId);
    if (!row) throw missing();
    const comments = parseJson<ThreadComment[]>(row.comments);
    const indexed = postDocs(row, comments).find((d) => d.doc_id === asked);
    if (!indexed) throw missing();
    const thread = await threadAnswer(ctx.store.db, projectId, toSourcePost(row, Infinity, comments));
    const { post } = thread;
    const meta = { community: post.community, author: post.author, score: post.score, postedAt: post.postCreatedAt };
    const threadText = postsGet.text!(thread, { id: postId });
    if (id.kind === 'post') return { indexed, text: threadText, metadata: { kind: 'post', ...meta } };
    const comment = commentWithId(comments, commentId);
    if (!comment) throw missing();
    return {
      indexed,
      // The comment first, then the thread it is part of.
      text: `${bullets([`Comment by ${comment.author} (${comment.score} points, ${day(comment.createdAt)}) on "${post.title}"`])}\n\n${comment.body}\n\nThe thread:\n\n${threadText}`,
      metadata: { kind: 'comment', ...meta, commentAuthor: comment.author, commentedAt: comment.createdAt },
    };
  }
  // The other kinds' rows are small: the title search showed comes from its own read.
  const indexed = (await documents(ctx.store.db, projectId, [asked])).get(asked);
  if (!indexed) throw missing();
  switch (id.kind) {
    case 'theme': {
      const theme = await fullTheme(ctx.store.db, projectId, id.parts[0]!);
      if (!theme) throw missing();
      const { postIds: _postIds, ...full } = theme;
      return {
        indexed,
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
        indexed,
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
        indexed,
        text: bullets([`Brief ${brief.window}`, itemLine(null, section.title, item)]),
        metadata: { kind: 'brief', window: brief.window, section: section.kind },
      };
    }
  }
}

/** One comment of a thread by its id, wherever it sits in the tree. */
function commentWithId(comments: ThreadComment[], id: string | undefined): ThreadComment | undefined {
  for (const c of eachComment(comments)) if (c.id === id) return c;
  return undefined;
}
