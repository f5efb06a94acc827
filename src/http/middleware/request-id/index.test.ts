/**
 * request-id: every response carries a `Request-Id` header (DESIGN §4 "Errors"), the handler sees
 * the same id in `c.var.requestId`, and a caller's id is kept only when it is short and plain.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Hono } from 'hono';
import { INTERNAL_MESSAGE, invalid } from '../../../domain/errors.ts';
import { createLogger } from '../../../logger.ts';
import type { AppEnv } from '../../env.ts';
import { renderError } from '../../errors.ts';
import { requestId } from './index.ts';

const GENERATED = /^req_[0-9a-f]{24}$/;

function tinyApp() {
  const app = new Hono<AppEnv>();
  app.use(requestId());
  app.get('/ok', (c) => c.json({ seen: c.get('requestId') }));
  app.get('/invalid', () => {
    throw invalid('nope');
  });
  app.get('/boom', () => {
    throw new Error('kaput');
  });
  app.onError((err, c) => renderError(c, err, createLogger('silent')));
  return app;
}

async function get(path: string, requestIdHeader?: string) {
  const res = await tinyApp().request(path, requestIdHeader === undefined ? {} : { headers: { 'request-id': requestIdHeader } });
  return { status: res.status, id: res.headers.get('request-id'), body: await res.json().catch(() => null) };
}

/**
 * A request whose header value the Fetch Headers class would refuse to hold (a newline): what a
 * non-Node runtime or a careless proxy layer might hand the app. Only `get` is needed here.
 */
function requestWithRawRequestId(path: string, value: string): Request {
  const req = new Request(`http://localhost${path}`);
  const real = req.headers;
  Object.defineProperty(req, 'headers', {
    value: {
      get: (name: string) => (name.toLowerCase() === 'request-id' ? value : real.get(name)),
      has: (name: string) => name.toLowerCase() === 'request-id' || real.has(name),
      forEach: real.forEach.bind(real),
      entries: real.entries.bind(real),
      keys: real.keys.bind(real),
      values: real.values.bind(real),
      [Symbol.iterator]: real[Symbol.iterator].bind(real),
    },
  });
  return req;
}

describe('request-id middleware', () => {
  test('generates req_ + 24 hex characters and hands the same id to the handler', async () => {
    const res = await get('/ok');
    assert.equal(res.status, 200);
    assert.match(res.id ?? '', GENERATED);
    assert.deepEqual(res.body, { seen: res.id });
  });

  test('generates a different id for every request', async () => {
    const ids = new Set<string | null>();
    for (let i = 0; i < 50; i++) ids.add((await get('/ok')).id);
    assert.equal(ids.size, 50);
  });

  test("keeps a caller's sane Request-Id (8 to 64 characters of letters, digits and . _ : -)", async () => {
    for (const given of ['abcdefgh', 'A1b2C3d4-e5f6.7890_ab:cd', '0123456789abcdef0123456789abcdef', 'x'.repeat(64), 'trace-4bf92f3577b34da6a3ce929d0e0e4736']) {
      const res = await get('/ok', given);
      assert.equal(res.id, given);
      assert.deepEqual(res.body, { seen: given });
    }
  });

  test('replaces an unsafe or odd-sized Request-Id with a generated one', async () => {
    const unsafe = [
      'abc def ghi', // spaces
      'x'.repeat(200), // too long
      'x'.repeat(65), // one past the bound
      'abcdefg', // 7 characters: too short
      'abcdefgh\x01x', // control character
      'abcdefgh\tzz', // tab
      '<script>alert(1)</script>',
      'abcdefgh/../../etc',
      'ünïcödé-request',
      'abcdefgh"quoted"',
      'a;b=c,d=eeeeee',
    ];
    for (const given of unsafe) {
      const res = await get('/ok', given);
      assert.match(res.id ?? '', GENERATED, `kept ${JSON.stringify(given)}`);
      assert.deepEqual(res.body, { seen: res.id });
    }
  });

  test('replaces a Request-Id carrying a newline (header injection) with a generated one', async () => {
    for (const given of ['abcdefgh\nInjected: 1', 'abcdefgh\r\nSet-Cookie: a=b', 'abcdefgh\n']) {
      const res = await tinyApp().fetch(requestWithRawRequestId('/ok', given));
      const id = res.headers.get('request-id') ?? '';
      assert.match(id, GENERATED, `kept ${JSON.stringify(given)}`);
      assert.deepEqual(await res.json(), { seen: id });
      assert.equal(res.headers.get('injected'), null);
      assert.equal(res.headers.get('set-cookie'), null);
    }
  });

  test('an empty Request-Id is replaced', async () => {
    const res = await tinyApp().fetch(requestWithRawRequestId('/ok', ''));
    assert.match(res.headers.get('request-id') ?? '', GENERATED);
  });

  test('error responses carry the header too: a ServiceError, an unexpected throw and an unknown route', async () => {
    const invalidRes = await get('/invalid');
    assert.equal(invalidRes.status, 400);
    assert.match(invalidRes.id ?? '', GENERATED);
    assert.deepEqual(invalidRes.body, { error: { code: 'invalid', message: 'nope' } });

    const boom = await get('/boom');
    assert.equal(boom.status, 500);
    assert.match(boom.id ?? '', GENERATED);
    assert.deepEqual(boom.body, { error: { code: 'internal', message: INTERNAL_MESSAGE } });

    const missing = await get('/nowhere');
    assert.equal(missing.status, 404);
    assert.match(missing.id ?? '', GENERATED);
  });

  test("a caller's sane id is echoed on error responses as well", async () => {
    assert.equal((await get('/invalid', 'client-trace-0001')).id, 'client-trace-0001');
    assert.equal((await get('/boom', 'client-trace-0002')).id, 'client-trace-0002');
    assert.equal((await get('/nowhere', 'client-trace-0003')).id, 'client-trace-0003');
  });

  test('exactly one Request-Id header is sent', async () => {
    const res = await tinyApp().request('/invalid', { headers: { 'request-id': 'client-trace-0004' } });
    assert.equal(res.headers.get('request-id'), 'client-trace-0004'); // a duplicate would read "a, a"
    const boom = await tinyApp().request('/boom');
    assert.doesNotMatch(boom.headers.get('request-id') ?? '', /,/);
  });
});
