import { z } from 'zod';
import { LIMITS } from '../domain/limits.ts';
import { competitorEntrySchema, type CompetitorEntry } from '../domain/resources.ts';
import { competitorKey, competitorSources, competitorTotals } from '../store/competitors.ts';
import { bullet, clip, count, fitBlocks } from './text.ts';
import { projectCapability } from './types.ts';

export const competitorsList = projectCapability({
  name: 'competitors.list',
  title: 'Competitors',
  kind: 'read',
  scope: 'project',
  description: `Competing products by how often the communities mention them, most-mentioned first, each with up to ${LIMITS.competitorSources} newest mentions (post and quote). Competitors tracked in project memory carry their URL and are listed even with no mention. \`limit\` caps the list (default ${LIMITS.competitorsListDefault}).`,
  input: z.strictObject({
    limit: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.competitorsListMax)
      .default(LIMITS.competitorsListDefault)
      .describe(`How many competitors, 1 to ${LIMITS.competitorsListMax}; default ${LIMITS.competitorsListDefault}.`),
  }),
  output: z.object({ competitors: z.array(competitorEntrySchema) }),
  async run({ store, project }, input) {
    const projectId = project.memory.id;
    const tracked = new Map(project.memory.competitors.map((c) => [competitorKey(c.name), c]));
    const totals = await competitorTotals(store.db, projectId);
    const byMentions = (a: { name: string; mentions: number }, b: { name: string; mentions: number }) => b.mentions - a.mentions || compareNames(a.name, b.name);
    const ranked = totals
      .map((t) => ({ key: t.key, name: tracked.get(t.key)?.name ?? t.name, mentions: t.mentions }))
      .sort(byMentions)
      .slice(0, input.limit);
    // Only the entries shown read their mentions: a big project names thousands of products.
    const mentioned: CompetitorEntry[] = await Promise.all(
      ranked.map(async (t) => ({ name: t.name, url: tracked.get(t.key)?.url ?? null, mentions: t.mentions, sources: await competitorSources(store.db, projectId, t.key) })),
    );
    const seen = new Set(totals.map((t) => t.key));
    const silent = [...tracked]
      .filter(([key]) => !seen.has(key))
      .map(([, c]): CompetitorEntry => ({ name: c.name, url: c.url, mentions: 0, sources: [] }))
      .sort(byMentions);
    return { competitors: [...mentioned, ...silent].slice(0, input.limit) };
  },
  text: ({ competitors }, input) => {
    if (competitors.length === 0) return '- No competitors tracked or mentioned yet.';
    const lines = competitors.map((c) => {
      const newest = c.sources[0];
      const quote = newest ? ` Newest: "${clip(newest.quote)}" (${newest.title}, ${newest.url})` : '';
      return bullet(`${c.name}${c.url ? ` (${c.url})` : ''}: ${count(c.mentions, 'mention')}.${quote}`);
    });
    if (competitors.length === input.limit && input.limit < LIMITS.competitorsListMax) {
      lines.push(bullet(`The list stops at \`limit\` (${input.limit}); pass a larger one, up to ${LIMITS.competitorsListMax}, in case there are more.`));
    }
    return fitBlocks(lines, (cut) => `${cut.shown} of ${competitors.length} competitors shown, most-mentioned first; pass \`limit: ${Math.max(1, cut.shown)}\` to get exactly those.`);
  },
});

function compareNames(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}
