/**
 * Digest leases (DESIGN §8): with several processes on one database, exactly one runs a given
 * project's digest at a time, and a run whose process died does not stay `running` forever.
 *
 * Why a lease row and not only a row lock held for the whole run: a run lasts minutes and writes
 * in many short transactions (so API writers are never blocked behind it), and a lock cannot
 * outlive the transaction that took it. The row lock (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite:
 * the database write lock its first write takes) only makes the *claim* atomic; the lease itself
 * is the `holder` + `expires_at` the claim writes, renewed by the holder while it works. A process
 * that is killed stops renewing; once `expires_at` passes, the next claimer or sweep marks its run
 * `failed` and takes over.
 */
import type { Store } from './db.ts';
import { advanceRun, insertQueuedRun, type NewRun } from './runs.ts';

export type Claim =
  | { claimed: true; runId: string; expiredRuns: string[] }
  | { claimed: false; heldBy: string | null; runId: string | null };

const EPOCH = '1970-01-01T00:00:00.000Z';

/** Why a run whose holder vanished is failed; runs.get shows `failed`, the log shows this. */
export function lostLeaseReason(expiresAt: string): string {
  return `the process running this digest stopped (its lease expired at ${expiresAt})`;
}

/**
 * Takes the project's lease for `holder` and records `run` as `queued`, in one transaction: either
 * both happen or neither. A live lease of another holder, or another process claiming at this very
 * moment (its row lock is skipped, not waited for), gives `{ claimed: false }`; so does, with
 * `oncePerWindow` (the scheduler), a run of the same window that is not `failed`.
 */
export async function claimLease(
  store: Store,
  holder: string,
  run: NewRun,
  ttlMs: number,
  options: { oncePerWindow?: boolean; now?: Date } = {},
): Promise<Claim> {
  // The lease runs on the real clock even when the run's own timestamps do not (the demo's history).
  const now = options.now ?? new Date();
  const at = now.toISOString();
  return store.db.transaction().execute(async (trx) => {
    // First statement a write: on SQLite it takes the database write lock before anything is read.
    await trx
      .insertInto('digest_leases')
      .values({ project_id: run.projectId, holder: null, run_id: null, expires_at: EPOCH })
      .onConflict((oc) => oc.column('project_id').doNothing())
      .execute();
    let query = trx.selectFrom('digest_leases').selectAll().where('project_id', '=', run.projectId);
    if (store.dialect === 'postgres') query = query.forUpdate().skipLocked();
    const lease = await query.executeTakeFirst();
    if (!lease) return { claimed: false, heldBy: null, runId: null };
    const live = lease.holder !== null && lease.expires_at > at;
    if (live && lease.holder !== holder) return { claimed: false, heldBy: lease.holder, runId: lease.run_id };
    if (options.oncePerWindow) {
      const done = await trx
        .selectFrom('runs')
        .select('id')
        .where('project_id', '=', run.projectId)
        .where('window_end', '=', run.windowEnd)
        .where('status', '!=', 'failed')
        .executeTakeFirst();
      if (done) return { claimed: false, heldBy: null, runId: done.id };
    }
    const expiredRuns: string[] = [];
    if (lease.holder !== null && !live && lease.run_id !== null) {
      if (await advanceRun(trx, lease.run_id, 'failed', { error: lostLeaseReason(lease.expires_at) }, at)) expiredRuns.push(lease.run_id);
    }
    await insertQueuedRun(trx, run);
    await trx
      .updateTable('digest_leases')
      .set({ holder, run_id: run.id, expires_at: new Date(now.getTime() + ttlMs).toISOString() })
      .where('project_id', '=', run.projectId)
      .execute();
    return { claimed: true, runId: run.id, expiredRuns };
  });
}

/** Extends the lease; false when it is no longer ours (it expired and someone took it over). */
export async function renewLease(store: Store, projectId: string, holder: string, runId: string, ttlMs: number): Promise<boolean> {
  const result = await store.db
    .updateTable('digest_leases')
    .set({ expires_at: new Date(Date.now() + ttlMs).toISOString() })
    .where('project_id', '=', projectId)
    .where('holder', '=', holder)
    .where('run_id', '=', runId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function releaseLease(store: Store, projectId: string, holder: string, runId: string): Promise<void> {
  await store.db
    .updateTable('digest_leases')
    .set({ holder: null, run_id: null, expires_at: EPOCH })
    .where('project_id', '=', projectId)
    .where('holder', '=', holder)
    .where('run_id', '=', runId)
    .execute();
}

/**
 * Fails the runs of every expired lease and frees the lease (the scheduler calls it every tick),
 * so a run whose process was killed reads `failed` even when nobody claims its project again.
 * Returns the runs it failed.
 */
export async function sweepExpiredLeases(store: Store, at = new Date().toISOString()): Promise<{ runId: string; projectId: string; reason: string }[]> {
  const expired = await store.db
    .selectFrom('digest_leases')
    .select(['project_id', 'holder', 'run_id', 'expires_at'])
    .where('holder', 'is not', null)
    .where('expires_at', '<=', at)
    .execute();
  const failed: { runId: string; projectId: string; reason: string }[] = [];
  for (const candidate of expired) {
    await store.db.transaction().execute(async (trx) => {
      let query = trx.selectFrom('digest_leases').selectAll().where('project_id', '=', candidate.project_id);
      if (store.dialect === 'postgres') query = query.forUpdate().skipLocked();
      const lease = await query.executeTakeFirst();
      // Renewed, released or being claimed since we looked: not ours to sweep.
      if (!lease || lease.holder === null || lease.expires_at > at) return;
      const reason = lostLeaseReason(lease.expires_at);
      if (lease.run_id !== null && (await advanceRun(trx, lease.run_id, 'failed', { error: reason }, at))) {
        failed.push({ runId: lease.run_id, projectId: lease.project_id, reason });
      }
      await trx
        .updateTable('digest_leases')
        .set({ holder: null, run_id: null, expires_at: EPOCH })
        .where('project_id', '=', lease.project_id)
        .execute();
    });
  }
  return failed;
}
