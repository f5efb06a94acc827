import { z } from 'zod';
import { invalid, notFound } from '../domain/errors.ts';
import { LIMITS } from '../domain/limits.ts';
import { normalizePermalinkKey } from '../domain/permalink.ts';
import { extractedSignalSchema, sourcePostSchema } from '../domain/resources.ts';
import type { Db } from '../store/db.ts';
import { postById, postByPermalinkKey, signalsOfPost, type StoredPost } from '../store/posts.ts';
import { bullet, count, day, fitBlocks } from './text.ts';
import { projectCapability } from './types.ts';

export const postsGet = projectCapability({
  name: 'posts.get',
  title: 'Source thread',
  kind: 'read',
  scope: 'project',
  description:
    'One source post with its full thread rendered as Markdown, and the signals extracted from it. Find it by `permalink` (absolute URL or bare path) or by raw post `id`; give one of the two.',
  input: z.strictObject({
    permalink: z
      .string()
      .trim()
      .min(1)
      .max(LIMITS.permalinkLength)
      .optional()
      .describe('The post URL or its path, e.g. /r/SaaS/comments/1abcde/x/; query, fragment and trailing slash are ignored.'),
    id: z.string().trim().min(1).max(LIMITS.idLength).optional().describe('The raw post id, e.g. 1abcde (a t3_ prefix is accepted).'),
  }),
  output: z.object({ post: sourcePostSchema, signals: z.array(extractedSignalSchema) }),
  async run({ store, project }, input) {
    const projectId = project.memory.id;
    let post;
    if (input.id !== undefined) {
      post = await postById(store.db, projectId, input.id.replace(/^t3_/, ''));
    } else if (input.permalink !== undefined) {
      post = await postByPermalinkKey(store.db, projectId, normalizePermalinkKey(input.permalink));
    } else {
      throw invalid('input: give `permalink` or `id`');
    }
    if (!post) throw notFound(`no post ${input.id !== undefined ? `"${input.id}"` : `at "${input.permalink}"`} in this project`);
    return threadAnswer(store.db, projectId, post);
  },
  // DESIGN §11: the text is the thread itself, as a person reads it, then what was found in it.
  text: ({ post, signals }) => {
    const about = bullet(`Posted by ${post.author} in ${post.community}, ${day(post.postCreatedAt)}, ${count(post.score, 'point')}: ${post.permalink} (id ${post.id})`);
    const found = signals.length === 0 ? [bullet('No signal was found in this thread.')] : signals.map((s) => bullet(`${s.kind}: "${s.quote}" (${s.author}${s.sovId ? `, theme ${s.sovId}` : ''})`));
    // Signals first: they are short, and a cut should fall inside the long thread.
    const blocks = [about, ...found, '', ...commentBlocks(post.content)];
    return fitBlocks(blocks, () => `The thread goes on; read the rest at ${post.permalink} or in the structured result (\`data.post.content\`, MCP \`structuredContent\`).`);
  },
});

/** posts.get's answer for a stored post: the thread as the spec shows it, and its signals. */
export async function threadAnswer(db: Db, projectId: string, post: StoredPost) {
  const signals = await signalsOfPost(db, projectId, post.id);
  const { url: _url, ...thread } = post;
  return { post: thread, signals };
}

/**
 * The thread's Markdown in blocks that a cut may fall between: the opening post (title and body)
 * as lines, then one block per comment with its continuation lines (DESIGN §4's layout).
 */
function commentBlocks(content: string): string[] {
  const blocks: string[] = [];
  let inComments = false;
  for (const line of content.split('\n')) {
    const startsComment = inComments && /^\s*- \*\*/.test(line);
    if (line === '## Comments') inComments = true;
    if (!inComments || startsComment || line === '## Comments' || blocks.length === 0) blocks.push(line);
    else blocks[blocks.length - 1] += `\n${line}`;
  }
  return blocks;
}
