/**
 * The polite client's own rules, beside it (the per-source failure cases run against every
 * adapter in test/ingest/sources/): what is retried and what is not, pacing shared by every
 * client of one process, the per-run budget, `Retry-After` as a date, an API's own error body,
 * and credentials that never follow a redirect to another origin.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startReplay, type ReplayServer } from '../../test/helpers/replay-server.ts';
import { PoliteClient, resetPacing, retryAfterMs, SourceError, type PoliteOptions } from './polite.ts';

describe('PoliteClient', () => {
  let server: ReplayServer;
  let other: ReplayServer;
  let clock = 0;
  let waits: number[] = [];
  const client = (options: PoliteOptions = {}) =>
    new PoliteClient({
      retryBaseMs: 1_000,
      now: () => clock,
      random: () => 0.5,
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
      ...options,
    });

  before(async () => {
    other = await startReplay([{ match: 'GET /whoami', answers: { body: '{}' } }]);
    server = await startReplay([
      { match: 'GET /ok', answers: { body: '{"ok":true}' } },
      { match: 'GET /dated', answers: [{ status: 503, headers: { 'retry-after': new Date(Date.parse('2026-11-20T06:00:45Z')).toUTCString() } }, { body: '{"ok":true}' }] },
      { match: 'GET /wrapped', answers: { status: 502, body: '{"error_id":502,"error_name":"throttle_violation"}' } },
    ]);
  });
  after(async () => {
    await server.close();
    await other.close();
  });
  beforeEach(() => {
    resetPacing();
    clock = Date.parse('2026-11-20T06:00:00Z');
    waits = [];
  });

  test('a host name that does not resolve fails at once, unretried', async () => {
    let lookups = 0;
    const http = client({
      lookup: ((_host: string, _options: unknown, callback: (err: NodeJS.ErrnoException) => void) => {
        lookups += 1;
        callback(Object.assign(new Error('getaddrinfo ENOTFOUND forum.invalid'), { code: 'ENOTFOUND' }));
      }) as unknown as PoliteOptions['lookup'],
    });
    await assert.rejects(http.json('http://forum.invalid/latest.json', { operatorHost: true }), (err: SourceError) => err.reason === 'unresolved' && /does not resolve \(ENOTFOUND\)/.test(err.message));
    assert.equal(lookups, 1);
    assert.deepEqual(waits, []);
  });

  test('pacing is per host and per process: a second client waits for the first one’s turn', async () => {
    await client().json(`${server.url}/ok`, { operatorHost: true, minIntervalMs: 60_000 });
    await client().json(`${server.url}/ok`, { operatorHost: true, minIntervalMs: 60_000 });
    assert.deepEqual(waits, [60_000]);
    await client().json(`${other.url}/whoami`, { operatorHost: true, minIntervalMs: 60_000 });
    assert.deepEqual(waits, [60_000], 'another host is not held back');
  });

  test('the per-run budget stops a client at its bound, saying so', async () => {
    const http = client({ budgetPerHost: 2 });
    await http.json(`${server.url}/ok`, { operatorHost: true });
    await http.json(`${server.url}/ok`, { operatorHost: true });
    await assert.rejects(http.json(`${server.url}/ok`, { operatorHost: true }), (err: SourceError) => err.reason === 'budget' && /stopped after 2 requests/.test(err.message));
    assert.equal(http.requestsTo(server.host), 2);
  });

  test('Retry-After as an HTTP date is waited until that time', async () => {
    const { data } = await client().json(`${server.url}/dated`, { operatorHost: true });
    assert.deepEqual(data, { ok: true });
    assert.deepEqual(waits, [45_000]);
    assert.equal(retryAfterMs('nonsense', 0), undefined);
    assert.equal(retryAfterMs('1.5', 0), 1_500);
  });

  test('an API error body the source recognises is thrown as is, not retried', async () => {
    const http = client();
    const failure = new SourceError('rate-limited', 'throttled by the API');
    await assert.rejects(http.json(`${server.url}/wrapped`, { operatorHost: true, apiError: (status, text) => (status === 502 && text.includes('throttle_violation') ? failure : undefined) }), (err) => err === failure);
    assert.equal(http.requestsTo(server.host), 1);
    assert.deepEqual(waits, []);
  });

  test('credentials do not follow a redirect to another origin', async () => {
    const http = client();
    const away = await startReplay([{ match: 'GET /away', answers: { status: 302, headers: { location: `${other.url}/whoami` } } }]);
    try {
      await http.json(`${away.url}/away`, { operatorHost: true, headers: { authorization: 'Bearer secret-token', 'x-kept': 'yes' } });
      assert.equal(away.requests[0]!.headers.authorization, 'Bearer secret-token');
      const followed = other.requests.at(-1)!;
      assert.equal(followed.url, '/whoami');
      assert.equal(followed.headers.authorization, undefined);
      assert.equal(followed.headers['x-kept'], 'yes');
    } finally {
      await away.close();
    }
  });
});
