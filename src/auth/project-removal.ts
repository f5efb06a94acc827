/**
 * Deleting a project (DESIGN §9): its posts, signals, themes, briefs, runs and cursors, and every
 * credential tied to it, in one transaction, so a failure leaves the project whole.
 *
 * A key or an app tied to the project is revoked, not untied: untied, it would read all of the
 * owner's projects, more than the person granted when they tied it.
 */
import type { Store } from '../store/db.ts';
import { deleteProjectRows, lockProject } from '../store/projects.ts';
import { revokeGrantRows } from './oauth-grants.ts';

/** A digest run holds the project's lease: deleting now would leave the run writing orphan rows. */
export class ProjectBusyError extends Error {
  constructor(readonly runId: string | null) {
    super(`a digest run${runId ? ` (${runId})` : ''} is in progress`);
  }
}

export interface RemovedProject {
  id: string;
  name: string;
  revokedKeys: number;
  revokedApps: number;
}

/** Removes the owner's project; undefined when the owner has no project with this id. */
export async function removeProject(store: Store, ownerId: string, projectId: string, at = new Date().toISOString()): Promise<RemovedProject | undefined> {
  return store.db.transaction().execute(async (trx) => {
    // The project's lock first: a memory edit or a run's write waits, then finds it gone.
    const project = await lockProject(trx, store.dialect, projectId);
    if (!project || project.ownerId !== ownerId) return undefined;
    const lease = await trx.selectFrom('digest_leases').select(['run_id', 'holder', 'expires_at']).where('project_id', '=', projectId).executeTakeFirst();
    if (lease && lease.holder !== null && lease.expires_at > at) throw new ProjectBusyError(lease.run_id);
    const keys = await trx
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('project_id', '=', projectId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const grants = await trx.selectFrom('oauth_grants').select(['user_id', 'client_id']).where('project_id', '=', projectId).execute();
    for (const g of grants) await revokeGrantRows(trx, g.user_id, g.client_id);
    await deleteProjectRows(trx, projectId);
    return { id: projectId, name: project.memory.name, revokedKeys: Number(keys.numUpdatedRows), revokedApps: grants.length };
  });
}
