import { z } from 'zod';
import { findNumberedItem } from '../domain/briefs.ts';
import { notFound } from '../domain/errors.ts';
import { signalItemSchema } from '../domain/resources.ts';
import { numberedBriefs } from '../store/briefs.ts';
import { bullets } from './text.ts';
import { projectCapability } from './types.ts';

export const briefsGet = projectCapability({
  name: 'briefs.get',
  title: 'One brief item',
  kind: 'read',
  scope: 'project',
  description:
    'One signal item of the recent briefs by its number (as shown by briefs.list): what surfaced, the quote, the suggested move and the source threads.',
  input: z.strictObject({
    n: z.number().int().min(1).describe('The 1-based signal number from briefs.list.'),
  }),
  output: z.object({ n: z.number().int(), when: z.string(), kind: z.string(), item: signalItemSchema }),
  async run({ store, project }, input) {
    const found = findNumberedItem(await numberedBriefs(store.db, project.memory.id), input.n);
    if (!found) throw notFound(`no signal number ${input.n} in the recent briefs`);
    return found;
  },
  text: ({ n, when, kind, item }) =>
    bullets([
      `#${n} (${when}, ${kind}): ${item.surfaced.summary}`,
      ...(item.surfaced.quote ? [`Quote: "${item.surfaced.quote.text}" (${item.surfaced.quote.who} in ${item.surfaced.quote.sub})`] : []),
      `Move: ${item.move.title}: ${item.move.body}`,
      ...item.sources.map((s) => `Source: ${s.title} (${s.url}, ${s.sub})`),
    ]),
});
