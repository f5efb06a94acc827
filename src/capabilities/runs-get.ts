import { z } from 'zod';
import { notFound } from '../domain/errors.ts';
import { LIMITS } from '../domain/limits.ts';
import { runSchema } from '../domain/resources.ts';
import { runOfOwner } from '../store/runs.ts';
import { bullets, count } from './text.ts';
import { userCapability } from './types.ts';

export const runsGet = userCapability({
  name: 'runs.get',
  title: 'Digest run',
  kind: 'read',
  scope: 'user',
  description:
    "One digest run of any of the caller's projects: its window, status (queued, running, complete, failed), posts analyzed and signals found per kind.",
  input: z.strictObject({
    runId: z.string().min(1).max(LIMITS.idLength).describe('The run id, e.g. run_…'),
  }),
  output: runSchema,
  async run({ store, caller }, input) {
    const run = await runOfOwner(store.db, caller.userId, input.runId);
    if (!run) throw notFound(`no run "${input.runId}"`);
    return run;
  },
  text: (run) => {
    const kinds = Object.entries(run.signalCounts)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ');
    return bullets([
      `Run ${run.id} of ${run.projectName} (${run.projectId}): ${run.status}`,
      `Window: ${run.windowStart} to ${run.windowEnd}`,
      `${count(run.postsAnalyzed, 'post')} analyzed; signals found: ${kinds || 'none'}`,
    ]);
  },
});
