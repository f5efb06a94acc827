import { z } from 'zod';
import { LIMITS } from '../domain/limits.ts';
import { pageWindow } from '../domain/pagination.ts';
import { THEME_TYPES, themeRowSchema } from '../domain/resources.ts';
import { themePage, themeTotals } from '../store/themes.ts';
import { bullet, count, fitBlocks } from './text.ts';
import { projectCapability } from './types.ts';

const SORTS = ['recent', 'posts'] as const;

export const painsList = projectCapability({
  name: 'pains.list',
  title: 'Pain themes',
  kind: 'read',
  scope: 'project',
  description:
    "A page of the project's themes of one type: pains customers voice, or competitor weaknesses. Each row has a title, a one-sentence summary, how many posts are behind it and when it last changed. Pass a row's id as `sovId` to pains.get for its quotes.",
  input: z.strictObject({
    type: z.enum(THEME_TYPES).describe('Theme type: pain (customer pains) or competitor (competitor weaknesses).'),
    page: z.number().int().min(1).max(LIMITS.pageMax).default(1).describe('1-based page number; default 1. A page past the end is empty.'),
    pageSize: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.pageSizeMax)
      .default(LIMITS.pageSizeDefault)
      .describe(`Rows per page, 1 to ${LIMITS.pageSizeMax}; default ${LIMITS.pageSizeDefault}.`),
    sort: z.enum(SORTS).default('recent').describe('recent: last updated first (default); posts: most posts first.'),
  }),
  output: z.object({
    rows: z.array(themeRowSchema),
    totalCount: z.number().int(),
    totalPostCount: z.number().int(),
    page: z.number().int(),
    pageCount: z.number().int(),
    rangeStart: z.number().int(),
    rangeEnd: z.number().int(),
    pageSize: z.number().int(),
    sort: z.enum(SORTS),
  }),
  async run({ store, project }, input) {
    const projectId = project.memory.id;
    const offset = (input.page - 1) * input.pageSize;
    // Past page 1, the count comes first: themePage finds a page in the back half from the end.
    const [totals, rows] =
      offset === 0
        ? await Promise.all([
            themeTotals(store.db, projectId, input.type),
            themePage(store.db, projectId, input.type, input.sort, offset, input.pageSize),
          ])
        : await themeTotals(store.db, projectId, input.type).then(
            async (t) => [t, await themePage(store.db, projectId, input.type, input.sort, offset, input.pageSize, t.themeCount)] as const,
          );
    const window = pageWindow(totals.themeCount, input.page, input.pageSize, rows.length);
    return {
      rows,
      totalCount: totals.themeCount,
      totalPostCount: totals.postCount,
      page: window.page,
      pageCount: window.pageCount,
      rangeStart: window.rangeStart,
      rangeEnd: window.rangeEnd,
      pageSize: window.pageSize,
      sort: input.sort,
    };
  },
  text: (d) =>
    fitBlocks(
      [
      d.rows.length === 0
        ? `No themes on page ${d.page} (${d.totalCount} themes in all).`
        : `Themes ${d.rangeStart}-${d.rangeEnd} of ${d.totalCount} (page ${d.page} of ${d.pageCount}, ${d.totalPostCount} posts in all).`,
        ...d.rows.map((r) => `${r.title} (${count(r.postCount, 'post')}, updated ${r.lastUpdatedAt}, id ${r.id}): ${r.summary}`),
      ].map(bullet),
      (cut) => `${Math.max(0, cut.shown - 1)} of the page's ${d.rows.length} rows are shown; pass a smaller \`pageSize\`.`,
    ),
});
