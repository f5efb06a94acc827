import { z } from 'zod';
import { invalid, notFound } from '../domain/errors.ts';
import { LIMITS } from '../domain/limits.ts';
import { normalizePermalinkKey } from '../domain/permalink.ts';
import { extractedSignalSchema, sourcePostSchema } from '../domain/resources.ts';
import { postById, postByPermalinkKey, signalsOfPost } from '../store/posts.ts';
import { bullets } from './text.ts';
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
    const signals = await signalsOfPost(store.db, projectId, post.id);
    const { url: _url, ...thread } = post;
    return { post: thread, signals };
  },
  text: ({ post, signals }) =>
    bullets([
      `${post.title} by ${post.author} in ${post.community} (${post.score} points, ${post.postCreatedAt}, ${post.permalink})`,
      ...signals.map((s) => `Signal (${s.kind}): "${s.quote}" (${s.author})`),
    ]),
});
