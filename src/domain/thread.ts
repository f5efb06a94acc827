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

/** How many comments a thread holds, replies included. */
export function commentCount(comments: readonly ThreadComment[]): number {
  let n = 0;
  for (const c of comments) n += 1 + commentCount(c.replies);
  return n;
}

/**
 * The thread's `limit` newest comments (by time, then id), in thread order. A kept reply whose
 * parent is left out takes the parent's place, so each kept comment still follows the nearest
 * kept comment it answers. DESIGN §11 bounds pains.sources' threads this way: on a busy thread the
 * newest comments are the ones a founder has not seen yet.
 */
export function newestComments(comments: ThreadComment[], limit: number): { comments: ThreadComment[]; left: number } {
  const all: ThreadComment[] = [];
  const collect = (list: ThreadComment[]): void => {
    for (const c of list) {
      all.push(c);
      collect(c.replies);
    }
  };
  collect(comments);
  if (all.length <= limit) return { comments, left: 0 };
  const newestFirst = [...all].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const kept = new Set(newestFirst.slice(0, limit));
  const prune = (list: ThreadComment[]): ThreadComment[] =>
    list.flatMap((c) => (kept.has(c) ? [{ ...c, replies: prune(c.replies) }] : prune(c.replies)));
  return { comments: prune(comments), left: all.length - kept.size };
}

/** Every text of a thread, for checks that a quote occurs in it verbatim. */
export function* threadTexts(post: ThreadPost): Generator<string> {
  yield post.title;
  yield post.selftext;
  const stack = [...post.comments];
  while (stack.length > 0) {
    const c = stack.pop()!;
    yield c.body;
    stack.push(...c.replies);
  }
}
