import { z } from 'zod';
import { notFound } from '../domain/errors.ts';
import { LIMITS } from '../domain/limits.ts';
import { themeFullSchema } from '../domain/resources.ts';
import { fullTheme } from '../store/themes.ts';
import { themeHeading, painLine } from './theme-text.ts';
import { fitBlocks } from './text.ts';
import { projectCapability } from './types.ts';

export const painsGet = projectCapability({
  name: 'pains.get',
  title: 'One pain theme',
  kind: 'read',
  scope: 'project',
  description:
    'A theme with every signal behind it, newest first: the verbatim quote, its author, the post it came from and suggested moves.',
  input: z.strictObject({
    sovId: z.string().min(1).max(LIMITS.idLength).describe('A theme id from pains.list or pains.sources.'),
  }),
  output: themeFullSchema,
  async run({ store, project }, input) {
    const theme = await fullTheme(store.db, project.memory.id, input.sovId);
    if (!theme) throw notFound(`no theme "${input.sovId}" in this project`);
    const { postIds: _postIds, ...full } = theme;
    return full;
  },
  text: (theme) =>
    fitBlocks([themeHeading(theme), ...theme.pains.map(painLine)], (cut) =>
      `The newest ${Math.max(0, cut.shown - 1)} of the theme's ${theme.pains.length} quotes are shown; the structured result (\`data\`, MCP \`structuredContent\`) holds them all, and pains.sources with this id gives the threads.`,
    ),
});
