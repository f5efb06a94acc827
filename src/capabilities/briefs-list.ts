import { z } from 'zod';
import { numberBriefs } from '../domain/briefs.ts';
import { LIMITS } from '../domain/limits.ts';
import { briefSchema } from '../domain/resources.ts';
import { numberedBriefs } from '../store/briefs.ts';
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
});
