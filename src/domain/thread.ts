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
