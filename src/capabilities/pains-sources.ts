import { z } from 'zod';
import { notFound } from '../domain/errors.ts';
import { LIMITS } from '../domain/limits.ts';
import { sourcePostSchema, themeFullSchema } from '../domain/resources.ts';
import { postsByIds } from '../store/posts.ts';
import { fullTheme, painThemesByPosts } from '../store/themes.ts';
import { painLine, themeHeading } from './theme-text.ts';
import { bullet, count, day, fitBlocks } from './text.ts';
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
  description: `Without \`sovIds\`: every pain theme ranked by post count, with its number of pains. With \`sovIds\`: those themes in full plus the source threads behind them (each thread once, with its newest ${LIMITS.threadCommentsDefault} comments unless \`commentsPerThread\` says otherwise), to read what customers actually wrote.`,
  input: z.strictObject({
    sovIds: z
      .array(z.string().min(1).max(LIMITS.idLength))
      .min(1)
      .max(LIMITS.sovIdsMax)
      .optional()
      .describe(`1 to ${LIMITS.sovIdsMax} theme ids; omit to list the pain themes.`),
    commentsPerThread: z
      .number()
      .int()
      .min(0)
      .max(LIMITS.threadCommentsMax)
      .default(LIMITS.threadCommentsDefault)
      .describe(`With \`sovIds\`: the newest comments kept per thread, 0 to ${LIMITS.threadCommentsMax}; default ${LIMITS.threadCommentsDefault}. posts.get gives a whole thread.`),
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
    const posts = await postsByIds(store.db, projectId, postIds, input.commentsPerThread);
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
  text: (data, input) => (data.mode === 'list' ? listText(data) : sourcesText(data, input.sovIds ?? [])),
});

function listText({ pains }: z.infer<typeof listMode>): string {
  if (pains.length === 0) return '- No pain themes yet.';
  const lines = pains.map((p) => bullet(`${p.title} (${count(p.painCount, 'pain')}, id ${p.id}): ${p.summary}`));
  return fitBlocks(lines, (cut) =>
    `${cut.shown.toLocaleString('en-US')} of ${pains.length.toLocaleString('en-US')} themes are shown, the most-posted first; pass up to ${LIMITS.sovIdsMax} of their ids as \`sovIds\` to read them, or page through all with pains.list.`,
  );
}

/**
 * The themes first (heading and newest quotes), then each thread as posts.get shows it: a model
 * reads the problem, then what the people around it wrote.
 */
function sourcesText({ sovs, threads }: z.infer<typeof sourcesMode>, asked: string[]): string {
  const blocks = sovs.flatMap((theme) => [themeHeading(theme), ...theme.pains.slice(0, QUOTES_PER_THEME).map(painLine)]);
  const quoteBlocks = blocks.length;
  threads.forEach((t, i) => blocks.push(`\nThread ${i + 1} of ${threads.length} (id ${t.id}): ${t.community}, ${t.author}, ${day(t.postCreatedAt)}, ${t.permalink}\n\n${t.content}`));
  return fitBlocks(blocks, (cut) => {
    const threadsShown = Math.max(0, cut.shown - quoteBlocks);
    const fewer = asked.length > 1 ? ` or fewer \`sovIds\` (asked: ${asked.length})` : '';
    return `${threadsShown} of ${threads.length} threads are shown whole. Pass a smaller \`commentsPerThread\`${fewer}, or read a thread with posts.get and its id.`;
  });
}

/** A theme's newest quotes in the text form; pains.get has them all. */
const QUOTES_PER_THEME = 5;
