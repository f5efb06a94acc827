import { z } from 'zod';
import { numberBriefs } from '../domain/briefs.ts';
import { LIMITS } from '../domain/limits.ts';
import { briefSchema, type SignalItem } from '../domain/resources.ts';
import { numberedBriefs } from '../store/briefs.ts';
import { bullet, count, fitBlocks } from './text.ts';
import { projectCapability } from './types.ts';

export const briefsList = projectCapability({
  name: 'briefs.list',
  title: 'Recent briefs',
  kind: 'read',
  scope: 'project',
  description:
    'The most recent daily briefs, newest first. Each brief has sections (content, offers) of numbered signal items, each with what surfaced, a suggested move and its sources. Item numbers run across the 5 newest briefs and stay the same whatever `limit` is; pass one to briefs.get.',
  input: z.strictObject({
    limit: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.briefsListMax)
      .default(LIMITS.briefsListDefault)
      .describe(`How many briefs, 1 to ${LIMITS.briefsListMax}; default ${LIMITS.briefsListDefault}.`),
  }),
  output: z.object({ briefs: z.array(briefSchema) }),
  async run({ store, project }, input) {
    const briefs = numberBriefs(await numberedBriefs(store.db, project.memory.id));
    return { briefs: briefs.slice(0, input.limit) };
  },
  text: ({ briefs }, input) => {
    if (briefs.length === 0) return '- No brief yet: the first one comes with the first digest run that finds something.';
    const lines: string[] = [];
    for (const { window, brief } of briefs) {
      const items = brief.sections.flatMap((s) => s.items.map((item) => ({ section: s.title, item })));
      lines.push(bullet(`Brief ${window}: ${count(items.length, 'item')}`));
      for (const { section, item } of items) lines.push(bullet(itemLine(item.n, section, item)));
    }
    return fitBlocks(lines, () => `Pass a smaller \`limit\` (now ${input.limit}) for fewer briefs, or read one item with briefs.get and its number.`);
  },
});

/** One brief item on one line: number (when it has one), section, what surfaced, the quote, the move and its sources. */
export function itemLine(n: number | null, section: string, item: SignalItem): string {
  const quote = item.surfaced.quote ? ` Quote: "${item.surfaced.quote.text}" (${item.surfaced.quote.who} in ${item.surfaced.quote.sub}).` : '';
  const sources = item.sources.map((s) => `${s.title} (${s.url})`).join('; ');
  return `${n === null ? '' : `#${n} `}${section}: ${stop(item.surfaced.summary)}${quote} Move: ${item.move.title}: ${stop(item.move.body)}${sources ? ` Sources: ${sources}` : ''}`;
}

/** A sentence ends with a stop before the next one starts. */
function stop(text: string): string {
  const t = text.trim();
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}
