import { z } from 'zod';
import { notFound } from '../domain/errors.ts';
import { LIMITS } from '../domain/limits.ts';
import { sourcePostSchema, themeFullSchema } from '../domain/resources.ts';
import { postsByIds } from '../store/posts.ts';
import { fullTheme, painThemesByPosts } from '../store/themes.ts';
import { projectCapability } from './types.ts';

const listMode = z.object({
  mode: z.literal('list'),
  pains: z.array(z.object({ id: z.string(), title: z.string(), summary: z.string(), painCount: z.number().int() })),
});
const sourcesMode = z.object({
  mode: z.literal('sources'),
  sovs: z.array(themeFullSchema),
  threads: z.array(sourcePostSchema),
});

export const painsSources = projectCapability({
  name: 'pains.sources',
  title: 'Pain sources',
  kind: 'read',
  scope: 'project',
  description:
    "Without `sovIds`: every pain theme ranked by post count, with its number of pains. With `sovIds`: those themes in full plus the complete source threads behind them (each thread once), to read what customers actually wrote.",
  input: z.strictObject({
    sovIds: z
      .array(z.string().min(1).max(LIMITS.idLength))
      .min(1)
      .max(LIMITS.sovIdsMax)
      .optional()
      .describe(`1 to ${LIMITS.sovIdsMax} theme ids; omit to list the pain themes.`),
  }),
  output: z.discriminatedUnion('mode', [listMode, sourcesMode]),
  async run({ store, project }, input): Promise<z.infer<typeof listMode> | z.infer<typeof sourcesMode>> {
    const projectId = project.memory.id;
    if (!input.sovIds) return { mode: 'list', pains: await painThemesByPosts(store.db, projectId) };
    const themes = [];
    for (const id of input.sovIds) {
      const theme = await fullTheme(store.db, projectId, id);
      if (!theme) throw notFound(`no theme "${id}" in this project`);
      themes.push(theme);
    }
    const postIds = [...new Set(themes.flatMap((t) => t.postIds))];
    const posts = await postsByIds(store.db, projectId, postIds);
    // Threads in order of first appearance, once per URL.
    const seenUrls = new Set<string>();
    const threads = [];
    for (const id of postIds) {
      const post = posts.get(id);
      if (!post || seenUrls.has(post.url)) continue;
      seenUrls.add(post.url);
      const { url: _url, ...thread } = post;
      threads.push(thread);
    }
    return { mode: 'sources', sovs: themes.map(({ postIds: _ids, ...full }) => full), threads };
  },
});
