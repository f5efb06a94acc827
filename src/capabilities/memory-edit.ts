import { z } from 'zod';
import { applyEdits, editSchema } from '../domain/edits.ts';
import { notFound } from '../domain/errors.ts';
import { LIMITS } from '../domain/limits.ts';
import { lockProject, saveMemory } from '../store/projects.ts';
import { bullets } from './text.ts';
import { projectCapability } from './types.ts';

export const memoryEdit = projectCapability({
  name: 'memory.edit',
  title: 'Edit project memory',
  kind: 'write',
  scope: 'project',
  description: `Change the project's memory with 1 to ${LIMITS.editsPerCall} edits, applied in order; either all apply or none do. Operations: set_product, set_icp (text); add_competitor (name, url, description), remove_competitor (name); add_offering (name, description), remove_offering (name); add_community (name, description; at most ${LIMITS.communities} watched), remove_community (name); add_filter_rule, remove_filter_rule (rule). An edit that changes nothing is refused.`,
  input: z.strictObject({
    edits: z.array(editSchema).min(1).max(LIMITS.editsPerCall).describe(`1 to ${LIMITS.editsPerCall} edit operations, applied in order.`),
  }),
  output: z.object({ applied: z.array(z.string()) }),
  async run({ store, project }, input) {
    const projectId = project.memory.id;
    return store.db.transaction().execute(async (trx) => {
      // Re-read under the project's lock: the memory loaded before may be stale by now.
      const current = await lockProject(trx, store.dialect, projectId);
      if (!current) throw notFound('the project no longer exists');
      const outcome = applyEdits(current.memory, input.edits);
      const edited = [...new Set([...current.editedFields, ...outcome.touched])];
      await saveMemory(trx, projectId, outcome.memory, edited, new Date().toISOString());
      return { applied: outcome.applied };
    });
  },
  text: ({ applied }) => bullets(applied),
});
