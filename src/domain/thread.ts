/** A comment of a stored thread, as the bundle format nests them. */
export interface ThreadComment {
  id: string;
  author: string;
  body: string;
  score: number;
  createdAt: string;
  replies: ThreadComment[];
}

export interface ThreadPost {
  title: string;
  selftext: string;
  comments: ThreadComment[];
}

/**
 * DESIGN §4 "posts.get": `# title`, blank line, body, blank line, `## Comments`, one bullet per
 * comment, replies indented two spaces per level, in thread order. A multi-line comment body keeps
 * its continuation lines under its bullet (indented past the `- `) so the nesting stays readable.
 */
export function renderThreadMarkdown(post: ThreadPost): string {
  const lines: string[] = [`# ${post.title}`, '', post.selftext, '', '## Comments'];
  const walk = (comments: ThreadComment[], depth: number): void => {
    for (const c of comments) {
      const indent = '  '.repeat(depth);
      const [first = '', ...rest] = c.body.split('\n');
      lines.push(`${indent}- **${c.author}** (${c.score} points): ${first}`);
      for (const line of rest) lines.push(line === '' ? '' : `${indent}  ${line}`);
      walk(c.replies, depth + 1);
    }
  };
  walk(post.comments, 0);
  return lines.join('\n');
}

/** Every comment of a thread, replies included, in reading order (each before its replies). */
export function* eachComment<C extends { replies: C[] }>(comments: readonly C[]): Generator<C> {
  for (const c of comments) {
    yield c;
    yield* eachComment(c.replies);
  }
}

/** How many comments a thread holds, replies included. */
export function commentCount<C extends { replies: C[] }>(comments: readonly C[]): number {
  let n = 0;
  for (const _ of eachComment(comments)) n += 1;
  return n;
}

/**
 * The thread's `limit` newest comments (by time, then id), in thread order. A kept reply whose
 * parent is left out takes the parent's place, so each kept comment still follows the nearest
 * kept comment it answers. DESIGN §11 bounds pains.sources' threads this way: on a busy thread the
 * newest comments are the ones a founder has not seen yet.
 */
export function newestComments(comments: ThreadComment[], limit: number): { comments: ThreadComment[]; left: number } {
  const all = [...eachComment(comments)];
  if (all.length <= limit) return { comments, left: 0 };
  const newestFirst = [...all].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const kept = new Set(newestFirst.slice(0, limit));
  const prune = (list: ThreadComment[]): ThreadComment[] =>
    list.flatMap((c) => (kept.has(c) ? [{ ...c, replies: prune(c.replies) }] : prune(c.replies)));
  return { comments: prune(comments), left: all.length - kept.size };
}
