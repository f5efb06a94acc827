/**
 * The failure cases every live source must survive (issue 11, DESIGN §8 "Every network source"),
 * written once and run against each source: its first request is answered badly and the rest as
 * recorded. For each case the collection must end (never hang, never throw out of the run) with
 * the community's outcome saying what happened, and the retries must honour what the server said.
 *
 * - a truncated body (the connection closed mid-answer)
 * - 429 with `Retry-After` (waited, then collected), without it (jittered backoff), and with one
 *   longer than a run waits (failed at once, saying how long)
 * - 5xx on every try (failed after the retries)
 * - no answer at all (timeout)
 * - an HTML "blocked" page with status 200
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Store } from '../../src/store/db.ts';
import { collectLive, type LiveCase } from './live.ts';
import type { Recorded } from './replay-server.ts';

export interface FailureSetup {
  /**
   * Starts the source's replay servers with its first request answered by `first` (then as
   * recorded) and gives the case collecting one community from them.
   */
  start(first: Recorded[]): Promise<{ live: LiveCase; close(): Promise<void> }>;
  /** The normal answer to the source's first request (truncated for the malformed case). */
  normal: Recorded;
  /** Threads the normal collection gives (the retried cases must give them all). */
  threads: number;
}

export function failureCases(name: string, store: () => Store, setup: FailureSetup): void {
  const run = async (first: Recorded[], http: LiveCase['http'] = {}) => {
    const server = await setup.start(first);
    try {
      const result = await collectLive(store(), { ...server.live, http: { ...server.live.http, ...http } });
      assert.equal(result.outcomes.length, 1, 'one community, one outcome');
      return { ...result, outcome: result.outcomes[0]! };
    } finally {
      await server.close();
    }
  };

  test(`${name}: a truncated body fails the community, saying the answer is malformed`, async () => {
    const { outcome, threads } = await run([{ ...setup.normal, truncateAt: 40 }]);
    assert.equal(outcome.status, 'failed');
    assert.match(outcome.error!, /does not parse|not a feed|malformed|truncated/i);
    assert.equal(threads.length, 0);
  });

  test(`${name}: 429 with Retry-After is waited out, then everything is collected`, async () => {
    const { outcome, threads, waits } = await run([{ status: 429, headers: { 'retry-after': '30' }, body: '{"error":"rate limited"}' }, setup.normal]);
    assert.equal(outcome.status, 'ok', outcome.error);
    assert.ok(waits.includes(30_000), `waited ${JSON.stringify(waits)}`);
    assert.equal(threads.length, setup.threads);
  });

  test(`${name}: 429 without Retry-After backs off with jitter, then collects`, async () => {
    const { outcome, threads, waits } = await run([{ status: 429, body: '' }, { status: 429, body: '' }, setup.normal]);
    assert.equal(outcome.status, 'ok', outcome.error);
    // Full jitter at random() = 0.5 over a 1 s base doubling: 500 ms, then 1,000 ms.
    assert.deepEqual(waits.filter((w) => w === 500 || w === 1_000).slice(0, 2), [500, 1_000]);
    assert.equal(threads.length, setup.threads);
  });

  test(`${name}: a Retry-After longer than a run waits fails at once and says how long`, async () => {
    const { outcome, threads } = await run([{ status: 429, headers: { 'retry-after': '7200' }, body: '' }]);
    assert.equal(outcome.status, 'failed');
    assert.match(outcome.error!, /7200 s/);
    assert.equal(outcome.requests, 1);
    assert.equal(threads.length, 0);
  });

  test(`${name}: 5xx on every try fails after the retries`, async () => {
    const { outcome } = await run([{ status: 503, body: 'upstream unavailable' }], { retries: 2 });
    assert.equal(outcome.status, 'failed');
    assert.match(outcome.error!, /503 3 times/);
    assert.equal(outcome.requests, 3);
  });

  test(`${name}: no answer at all is a timeout`, async () => {
    const { outcome } = await run([{ hang: true }], { retries: 0, timeoutMs: 200 });
    assert.equal(outcome.status, 'failed');
    assert.match(outcome.error!, /no complete answer .* within 0.2 s/);
  });

  test(`${name}: an HTML "blocked" page with status 200 is a block, not data`, async () => {
    const { outcome, threads } = await run([{ file: 'blocked.html' }]);
    assert.equal(outcome.status, 'failed');
    assert.match(outcome.error!, /HTML page instead of/);
    assert.equal(threads.length, 0);
  });
}
