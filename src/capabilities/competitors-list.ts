import { z } from 'zod';
import { competitorEntrySchema, type CompetitorEntry } from '../domain/resources.ts';
import { competitorKey, competitorSources, competitorTotals } from '../store/competitors.ts';
import { bullets } from './text.ts';
import { projectCapability } from './types.ts';

export const competitorsList = projectCapability({
  name: 'competitors.list',
  title: 'Competitors',
  kind: 'read',
  scope: 'project',
  description:
    'Competing products by how often the communities mention them, most-mentioned first, each with up to 25 newest mentions (post and quote). Competitors tracked in project memory carry their URL and are listed even with no mention.',
  input: z.strictObject({}),
  output: z.object({ competitors: z.array(competitorEntrySchema) }),
  async run({ store, project }) {
    const projectId = project.memory.id;
    const tracked = new Map(project.memory.competitors.map((c) => [competitorKey(c.name), c]));
    const totals = await competitorTotals(store.db, projectId);
    const mentioned: CompetitorEntry[] = await Promise.all(
      totals.map(async (t) => {
        const memo = tracked.get(t.key);
        const sources = await competitorSources(store.db, projectId, t.key);
        return { name: memo?.name ?? t.name, url: memo?.url ?? null, mentions: t.mentions, sources };
      }),
    );
    const byMentions = (a: CompetitorEntry, b: CompetitorEntry) => b.mentions - a.mentions || compareNames(a.name, b.name);
    const seen = new Set(totals.map((t) => t.key));
    const silent = [...tracked]
      .filter(([key]) => !seen.has(key))
      .map(([, c]): CompetitorEntry => ({ name: c.name, url: c.url, mentions: 0, sources: [] }));
    return { competitors: [...mentioned.sort(byMentions), ...silent.sort(byMentions)] };
  },
  text: ({ competitors }) =>
    competitors.length === 0
      ? '- No competitors tracked or mentioned yet.'
      : bullets(competitors.map((c) => `${c.name}${c.url ? ` (${c.url})` : ''}: ${c.mentions} mention${c.mentions === 1 ? '' : 's'}`)),
});

function compareNames(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}
