/**
 * How digest runs fail and recover (DESIGN §4 run status machine, §8 leases and scheduler): a
 * source that breaks mid-run ends `failed` with its reason and keeps whole batches; an abort
 * fails the run; a live lease refuses a second run; an expired lease's run is failed by the next
 * claim or sweep; statuses only move forward; the scheduler runs each daily slot once and retries
 * a failed one a bounded number of times.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DigestBusyError, DigestError, runDigest } from '../../src/ingest/digest/run.ts';
import { latestSlot, MAX_ATTEMPTS, startScheduler } from '../../src/ingest/digest/scheduler.ts';
import { createLogger } from '../../src/logger.ts';
import { claimLease, sweepExpiredLeases } from '../../src/store/leases.ts';
import { advanceRun } from '../../src/store/runs.ts';
import { DIALECTS } from '../helpers/database.ts';
import { createDigestProject, memorySource } from '../helpers/digest.ts';
import { fixtureThreads } from '../helpers/reddit-export.ts';
import { startService, type TestService } from '../helpers/service.ts';

const DAY = 86_400_000;
const all = fixtureThreads();
const threads = all.slice(0, 60);
const times = threads.map((t) => Date.parse(t.postCreatedAt)).sort((a, b) => a - b);
const WINDOW = { start: new Date(times[0]! - 1), end: new Date(times[times.length - 1]!) };
const silent = createLogger('silent');

for (const dialect of DIALECTS) {
  describe(`digest failures (${dialect})`, () => {
    let svc: TestService;
    let n = 0;
    const project = async () => {
      const id = `prj_fail_${++n}`;
      await createDigestProject(svc.store, svc.users.alice, id);
      return id;
    };
    const runRow = (id: string) => svc.store.db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    before(async () => {
      svc = await startService(dialect);
    });
    after(() => svc.close());

    test('a source that breaks mid-run: failed with its reason, finished batches kept, runs.get says failed', async () => {
      const id = await project();
      const source = memorySource(threads, { fail: { after: 25, message: 'comments.jsonl:812: not a JSON line' } });
      const summary = await runDigest({ store: svc.store, projectId: id, source, window: WINDOW, batchThreads: 10 });
      assert.equal(summary.status, 'failed');
      assert.equal(summary.error, 'comments.jsonl:812: not a JSON line');
      assert.equal(summary.brief, null);
      const row = await runRow(summary.runId);
      assert.equal(row.status, 'failed');
      assert.equal(row.error, 'comments.jsonl:812: not a JSON line');
      const api = await svc.invoke(svc.keys.alice, { capability: 'runs.get', input: { runId: summary.runId } });
      assert.equal(api.body.data.status, 'failed');
      // Threads are analysed a batch at a time: the 5 collected after the second batch never were.
      assert.equal(api.body.data.postsAnalyzed, 20);
      const posts = await svc.store.db.selectFrom('posts').select('id').where('project_id', '=', id).execute();
      assert.equal(posts.length, 20, 'the two finished batches of 10 are kept; the half batch is not written');
      // The lease was released: the next run of the project starts at once and completes the window.
      const retry = await runDigest({ store: svc.store, projectId: id, source: memorySource(threads), window: WINDOW });
      assert.equal(retry.status, 'complete');
      assert.equal(retry.postsAnalyzed, threads.length);
    });

    test('a run in which no community could be read changes no theme (the pool is not re-clustered by a failed run)', async () => {
      const id = await project();
      const first = await runDigest({ store: svc.store, projectId: id, source: memorySource(threads), window: WINDOW });
      assert.equal(first.status, 'complete');
      const snapshot = async () => ({
        themes: await svc.store.db.selectFrom('themes').select(['id', 'title', 'summary', 'post_count', 'updated_at']).where('project_id', '=', id).orderBy('id').execute(),
        signals: await svc.store.db.selectFrom('signals').select(['id', 'theme_id']).where('project_id', '=', id).orderBy('id').execute(),
      });
      const before = await snapshot();
      assert.ok(before.signals.some((s) => s.theme_id === null), 'the first run leaves pains in the pool (else this test shows nothing)');
      const unreachable = {
        name: 'live',
        async *threads() {},
        outcomes: () => [{ community: 'r/LocalLLaMA', source: 'reddit-rss', status: 'failed' as const, threads: 0, requests: 3, error: 'www.reddit.com answered 429' }],
      };
      const later = { start: WINDOW.start, end: new Date(WINDOW.end.getTime() + DAY) };
      const summary = await runDigest({ store: svc.store, projectId: id, source: unreachable, window: later, now: () => new Date(later.end.getTime() + 1000) });
      assert.equal(summary.status, 'failed');
      assert.match(summary.error!, /^no watched community could be collected: r\/LocalLLaMA: www\.reddit\.com answered 429/);
      assert.deepEqual(await snapshot(), before);
    });

    test('an abort (SIGTERM in the CLI) fails the run with the reason', async () => {
      const id = await project();
      const abort = new AbortController();
      abort.abort(new Error('interrupted by SIGTERM'));
      const summary = await runDigest({ store: svc.store, projectId: id, source: memorySource(threads), window: WINDOW, signal: abort.signal });
      assert.equal(summary.status, 'failed');
      assert.equal((await runRow(summary.runId)).error, 'interrupted by SIGTERM');
    });

    test('a live lease refuses a second run and records nothing', async () => {
      const id = await project();
      const claim = await claimLease(svc.store, 'other-host:1:abcd', { id: 'run_held', projectId: id, windowStart: WINDOW.start.toISOString(), windowEnd: WINDOW.end.toISOString(), at: new Date().toISOString() }, 60_000);
      assert.equal(claim.claimed, true);
      await assert.rejects(runDigest({ store: svc.store, projectId: id, source: memorySource(threads), window: WINDOW }), (err: unknown) => {
        assert.ok(err instanceof DigestBusyError);
        assert.match(err.message, /already running \(run_held, held by other-host:1:abcd\)/);
        return true;
      });
      const runs = await svc.store.db.selectFrom('runs').select('id').where('project_id', '=', id).execute();
      assert.deepEqual(runs.map((r) => r.id), ['run_held']);
    });

    test('an expired lease: the next run fails the dead one and proceeds', async () => {
      const id = await project();
      const old = new Date(Date.now() - 120_000).toISOString();
      await claimLease(svc.store, 'dead-host:9:dead', { id: 'run_dead', projectId: id, windowStart: WINDOW.start.toISOString(), windowEnd: WINDOW.end.toISOString(), at: old }, 1_000, { now: new Date(old) });
      await advanceRun(svc.store.db, 'run_dead', 'running');
      const summary = await runDigest({ store: svc.store, projectId: id, source: memorySource(threads), window: WINDOW });
      assert.equal(summary.status, 'complete');
      const dead = await runRow('run_dead');
      assert.equal(dead.status, 'failed');
      assert.match(dead.error ?? '', /process running this digest stopped \(its lease expired at/);
    });

    test('a long run keeps its lease: it is renewed while the run works, so nobody takes over', async () => {
      const id = await project();
      let attempts = 0;
      // Runs whose expired lease a rival's claim took over. A claim can also succeed in the moment
      // between the run releasing its lease and `done` turning true; that claim found the lease
      // free and took over nothing, so only a claim that names our run as expired is a takeover.
      const tookOver: string[] = [];
      let done = false;
      // The lease is long enough that a busy CI machine's stalls (a batch's analysis, a GC, a slow
      // write) cannot outlast it, and the source is paced so that the run lasts three lease lengths
      // however fast the machine analyses: only renewal can keep the rival out that long.
      const leaseMs = 2_000;
      const pauseMs = Math.ceil((3 * leaseMs) / all.length);
      const inner = memorySource(all);
      const slow = {
        name: inner.name,
        async *threads(request: Parameters<typeof inner.threads>[0]) {
          for await (const thread of inner.threads(request)) {
            await new Promise((r) => setTimeout(r, pauseMs));
            yield thread;
          }
        },
      };
      const started = Date.now();
      const run = runDigest({ store: svc.store, projectId: id, source: slow, window: { start: new Date(0), end: new Date() }, leaseMs, batchThreads: 5 }).finally(() => {
        done = true;
      });
      while (!done) {
        await new Promise((r) => setTimeout(r, 100));
        if (done) break;
        const claim = await claimLease(svc.store, 'rival:1:beef', { id: `run_rival_${attempts}`, projectId: id, windowStart: WINDOW.start.toISOString(), windowEnd: WINDOW.end.toISOString(), at: new Date().toISOString() }, 60_000);
        attempts += 1;
        if (claim.claimed) {
          tookOver.push(...claim.expiredRuns);
          break;
        }
      }
      const summary = await run;
      const lasted = Date.now() - started;
      assert.ok(lasted >= 3 * leaseMs, `the run lasted several lease lengths (${lasted} ms, ${attempts} attempts)`);
      assert.ok(attempts >= 10, `the rival kept trying while the run worked (${attempts} attempts)`);
      assert.deepEqual(tookOver.filter((runId) => runId === summary.runId), [], 'no rival took the project over while the run worked');
      assert.equal(summary.status, 'complete', summary.error ?? '');
    });

    test('the sweep fails runs whose lease expired even when nobody claims the project', async () => {
      const id = await project();
      const old = new Date(Date.now() - 120_000).toISOString();
      await claimLease(svc.store, 'dead-host:9:dead', { id: 'run_swept', projectId: id, windowStart: WINDOW.start.toISOString(), windowEnd: WINDOW.end.toISOString(), at: old }, 1_000, { now: new Date(old) });
      await advanceRun(svc.store.db, 'run_swept', 'running');
      const failed = await sweepExpiredLeases(svc.store);
      assert.ok(failed.some((f) => f.runId === 'run_swept'));
      assert.equal((await runRow('run_swept')).status, 'failed');
      assert.deepEqual(await sweepExpiredLeases(svc.store), [], 'a second sweep finds nothing');
    });

    test('statuses only move forward', async () => {
      const id = await project();
      const summary = await runDigest({ store: svc.store, projectId: id, source: memorySource(threads), window: WINDOW });
      assert.equal(await advanceRun(svc.store.db, summary.runId, 'running'), false);
      assert.equal(await advanceRun(svc.store.db, summary.runId, 'failed', { error: 'late' }), false);
      assert.equal((await runRow(summary.runId)).status, 'complete');
    });

    test('bad requests are refused before anything is recorded', async () => {
      const id = await project();
      const none = 'prj_fail_none';
      await createDigestProject(svc.store, svc.users.alice, none, { communities: [] });
      await assert.rejects(runDigest({ store: svc.store, projectId: none, source: memorySource(threads), window: WINDOW }), /watches no community yet/);
      await assert.rejects(runDigest({ store: svc.store, projectId: 'prj_missing', source: memorySource(threads), window: WINDOW }), DigestError);
      await assert.rejects(runDigest({ store: svc.store, projectId: id, source: memorySource(threads), window: { start: WINDOW.end, end: WINDOW.start } }), /window is empty/);
      const runs = await svc.store.db.selectFrom('runs').select('id').where('project_id', 'in', [id, none]).execute();
      assert.equal(runs.length, 0);
    });
  });

  describe(`digest scheduler (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startService(dialect);
    });
    after(() => svc.close());

    test('latestSlot is today at the hour, or yesterday before it', () => {
      assert.equal(latestSlot(new Date('2026-11-21T06:00:00.000Z'), 6).toISOString(), '2026-11-21T06:00:00.000Z');
      assert.equal(latestSlot(new Date('2026-11-21T05:59:59.999Z'), 6).toISOString(), '2026-11-20T06:00:00.000Z');
      assert.equal(latestSlot(new Date('2026-11-21T23:00:00.000Z'), 0).toISOString(), '2026-11-21T00:00:00.000Z');
    });

    test('each watched project gets one run per slot; a failed slot is retried at most MAX_ATTEMPTS times', async () => {
      // The fixture's newest thread lies inside the day before the slot.
      const slot = new Date(Math.ceil((times[times.length - 1]! + 1) / 3_600_000) * 3_600_000);
      const clock = () => new Date(slot.getTime() + 60_000);
      const before = new Date(slot.getTime() - 2 * DAY).toISOString();
      await createDigestProject(svc.store, svc.users.alice, 'prj_sched', {}, before);
      // Created after the slot closed: its first daily run is the next slot, not this one.
      await createDigestProject(svc.store, svc.users.alice, 'prj_sched_new', {}, new Date(slot.getTime() + 30_000).toISOString());
      const scheduler = startScheduler({ store: svc.store, logger: silent, hourUtc: slot.getUTCHours(), source: () => memorySource(all), tickMs: 3_600_000, now: clock });
      await scheduler.tick();
      await scheduler.tick();
      await scheduler.stop();
      const runs = await svc.store.db.selectFrom('runs').selectAll().where('project_id', '=', 'prj_sched').execute();
      assert.equal(runs.length, 1, 'the second tick found the slot done');
      assert.equal(runs[0]!.status, 'complete');
      assert.equal(runs[0]!.window_end, slot.toISOString());
      assert.equal(runs[0]!.window_start, new Date(slot.getTime() - DAY).toISOString());
      assert.ok(Number(runs[0]!.posts_analyzed) > 0);
      assert.deepEqual(await svc.store.db.selectFrom('runs').select('id').where('project_id', '=', 'prj_sched_new').execute(), []);
      const nextDay = startScheduler({ store: svc.store, logger: silent, hourUtc: slot.getUTCHours(), source: () => memorySource(all), tickMs: 3_600_000, now: () => new Date(slot.getTime() + DAY + 60_000) });
      await nextDay.tick();
      await nextDay.stop();
      const firstOwn = await svc.store.db.selectFrom('runs').select('window_end').where('project_id', '=', 'prj_sched_new').execute();
      assert.deepEqual(firstOwn.map((r) => r.window_end), [new Date(slot.getTime() + DAY).toISOString()]);
      await svc.store.db.deleteFrom('projects').where('id', '=', 'prj_sched_new').execute();

      await createDigestProject(svc.store, svc.users.alice, 'prj_sched_bad', {}, before);
      await svc.store.db.deleteFrom('projects').where('id', '=', 'prj_sched').execute();
      const broken = startScheduler({
        store: svc.store,
        logger: silent,
        hourUtc: slot.getUTCHours(),
        source: () => memorySource(all, { fail: { after: 0, message: 'feed unreachable' } }),
        tickMs: 3_600_000,
        now: clock,
      });
      for (let i = 0; i < MAX_ATTEMPTS + 2; i++) await broken.tick();
      await broken.stop();
      const failed = await svc.store.db.selectFrom('runs').select(['status', 'error']).where('project_id', '=', 'prj_sched_bad').execute();
      assert.equal(failed.length, MAX_ATTEMPTS);
      assert.ok(failed.every((r) => r.status === 'failed' && r.error === 'feed unreachable'));
    });
  });
}
