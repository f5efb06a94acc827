/**
 * json-body (DESIGN §4 "Input strictness"): a JSON object sent as application/json, at most
 * `maxBytes` — enforced while the body streams in, so a lying or missing Content-Length cannot
 * get more in. Anything else is 400 `invalid` in the error envelope.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Hono } from 'hono';
import { createLogger } from '../../../logger.ts';
import type { AppEnv } from '../../env.ts';
import { renderError } from '../../errors.ts';
import { jsonBody } from './index.ts';

const MAX = 1000;

function tinyApp() {
  const app = new Hono<AppEnv>();
  let handled = 0;
  app.post('/echo', jsonBody(MAX), (c) => {
    handled++;
    return c.json({ got: c.get('body') });
  });
  app.onError((err, c) => renderError(c, err, createLogger('silent')));
  return { app, handled: () => handled };
}

async function post(body: BodyInit | null, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const { app, handled } = tinyApp();
  const res = await app.request('/echo', { method: 'POST', headers, body });
  return { status: res.status, body: await res.json(), handled: handled() };
}

const refused = (message: string) => ({ error: { code: 'invalid', message } });
const WRONG_TYPE = refused('Send the body as JSON with "Content-Type: application/json".');
const TOO_LARGE = refused(`The body is larger than ${MAX} bytes.`);

/**
 * A body that streams `chunk`-sized pieces forever (or up to `limit` bytes), counting what was
 * pulled and noting a cancel: the cap must stop reading, not wait for the end.
 */
function endlessBody(chunk: number, limit = Infinity) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled >= limit) return controller.close();
        const size = Math.min(chunk, limit - state.pulled);
        state.pulled += size;
        controller.enqueue(new TextEncoder().encode(' '.repeat(size)));
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

function streamRequest(stream: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  return new Request('http://localhost/echo', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: stream,
    duplex: 'half',
  } as RequestInit);
}

describe('json-body middleware: content type', () => {
  test('accepts application/json with or without parameters, in any case', async () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset=utf-8',
      'application/json ; charset=UTF-8',
      'APPLICATION/JSON',
      'Application/Json; Charset=UTF-8',
    ]) {
      const res = await post('{"a":1}', { 'content-type': type });
      assert.equal(res.status, 200, type);
      assert.deepEqual(res.body, { got: { a: 1 } }, type);
    }
  });

  test('refuses every other content type, and a missing one, before the handler runs', async () => {
    for (const type of [
      'application/jsonx',
      'application/json-patch+json',
      'application/ld+json',
      'application/vnd.api+json',
      'application/x-json',
      'text/json',
      'text/plain',
      'text/plain; charset=application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'json',
      ' ',
    ]) {
      const res = await post('{"a":1}', { 'content-type': type });
      assert.equal(res.status, 400, type);
      assert.deepEqual(res.body, WRONG_TYPE, type);
      assert.equal(res.handled, 0);
    }
    // No Content-Type at all (a byte body gets none by default).
    const res = await post(new TextEncoder().encode('{"a":1}'), {});
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, WRONG_TYPE);
  });
});

describe('json-body middleware: JSON object only', () => {
  test('hands the parsed object to the handler', async () => {
    const res = await post('{"capability":"x","input":{"n":[1,2,{"deep":true}]},"s":"é ✓ 😀"}');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { got: { capability: 'x', input: { n: [1, 2, { deep: true }] }, s: 'é ✓ 😀' } });
  });

  test('refuses a body that is not JSON, or empty', async () => {
    for (const body of ['', ' ', '{', '{"a":1', "{'a':1}", '{"a":1}}', 'nul', '{"a":undefined}', '{a:1}', '{"a":1,}']) {
      const res = await post(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.deepEqual(res.body, refused('The body is not valid JSON.'), JSON.stringify(body));
      assert.equal(res.handled, 0);
    }
    const none = await post(null);
    assert.equal(none.status, 400);
    assert.deepEqual(none.body, refused('The body is not valid JSON.'));
  });

  test('refuses JSON that is not an object', async () => {
    for (const body of ['[]', '[{"a":1}]', '"text"', '42', '-1.5e3', 'null', 'true', 'false']) {
      const res = await post(body);
      assert.equal(res.status, 400, body);
      assert.deepEqual(res.body, refused('The body must be a JSON object.'), body);
      assert.equal(res.handled, 0);
    }
  });

  test('refuses bytes that are not UTF-8, even inside a string', async () => {
    const bad = (bytes: number[]) => new Uint8Array([...Buffer.from('{"a":"x'), ...bytes, ...Buffer.from('"}')]);
    for (const bytes of [[0xff], [0xfe, 0xff], [0xc3], [0xc0, 0xaf] /* overlong "/" */, [0xed, 0xa0, 0x80] /* a surrogate */, [0xf8, 0x88, 0x80, 0x80, 0x80]]) {
      const res = await post(bad(bytes));
      assert.equal(res.status, 400, bytes.join(','));
      assert.deepEqual(res.body, refused('The body is not valid UTF-8.'), bytes.join(','));
      assert.equal(res.handled, 0);
    }
  });

  test('a multi-byte character split across chunks decodes whole', async () => {
    const bytes = new TextEncoder().encode('{"s":"é😀"}');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        // one byte per chunk: every multi-byte sequence is split
        for (const b of bytes) controller.enqueue(new Uint8Array([b]));
        controller.close();
      },
    });
    const res = await tinyApp().app.fetch(streamRequest(stream));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { got: { s: 'é😀' } });
  });
});

describe('json-body middleware: size cap', () => {
  const objectOfSize = (n: number) => {
    const body = `{"s":"${'x'.repeat(n - 8)}"}`;
    assert.equal(Buffer.byteLength(body), n);
    return body;
  };

  test('accepts exactly maxBytes and refuses one byte more', async () => {
    const atMax = await post(objectOfSize(MAX));
    assert.equal(atMax.status, 200);
    assert.equal(atMax.body.got.s.length, MAX - 8);
    const over = await post(objectOfSize(MAX + 1));
    assert.equal(over.status, 400);
    assert.deepEqual(over.body, TOO_LARGE);
    assert.equal(over.handled, 0);
  });

  test('counts bytes, not characters', async () => {
    // 500 two-byte characters + 8 bytes of JSON = 1008 bytes but only 508 characters.
    const body = `{"s":"${'é'.repeat(500)}"}`;
    const res = await post(body);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, TOO_LARGE);
  });

  test('an honest Content-Length over the cap is refused without reading the body', async () => {
    const { stream, state } = endlessBody(100, 5000);
    const res = await tinyApp().app.fetch(streamRequest(stream, { 'content-length': '5000' }));
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), TOO_LARGE);
    assert.equal(state.pulled, 0);
  });

  test('a streamed body with no Content-Length stops being read once past the cap', async () => {
    const { stream, state } = endlessBody(64);
    const res = await tinyApp().app.fetch(streamRequest(stream));
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), TOO_LARGE);
    assert.equal(state.cancelled, true);
    // It read just past the cap: the first chunk that crossed it, not the endless rest.
    assert.ok(state.pulled > MAX && state.pulled <= MAX + 64, `pulled ${state.pulled} bytes`);
  });

  test('with an honest Content-Length under the cap the body is read whole, and still checked', async () => {
    // The declared-length path (Node's parser stops at Content-Length on a real socket; see the
    // HTTP error suite for the socket-level proof) must apply the same UTF-8 and object rules.
    const body = objectOfSize(MAX);
    const ok = await post(body, { 'content-type': 'application/json', 'content-length': String(MAX) });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.got.s, 'x'.repeat(MAX - 8));
    const badBytes = new Uint8Array([...Buffer.from('{"a":"'), 0xff, ...Buffer.from('"}')]);
    const bad = await post(badBytes, { 'content-type': 'application/json', 'content-length': String(badBytes.length) });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, refused('The body is not valid UTF-8.'));
    const array = await post('[1]', { 'content-type': 'application/json', 'content-length': '3' });
    assert.deepEqual(array.body, refused('The body must be a JSON object.'));
    const notJson = await post('{', { 'content-type': 'application/json', 'content-length': '1' });
    assert.deepEqual(notJson.body, refused('The body is not valid JSON.'));
  });

  test('a Content-Length that is not a number is ignored and the cap still applies while reading', async () => {
    for (const length of ['abc', '1.5']) {
      const { stream, state } = endlessBody(64);
      const res = await tinyApp().app.fetch(streamRequest(stream, { 'content-length': length }));
      assert.equal(res.status, 400, length);
      assert.deepEqual(await res.json(), TOO_LARGE, length);
      assert.equal(state.cancelled, true, length);
    }
  });

  test('a streamed body under the cap is read whole', async () => {
    const bytes = new TextEncoder().encode(objectOfSize(MAX));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 100) controller.enqueue(bytes.slice(i, i + 100));
        controller.close();
      },
    });
    const res = await tinyApp().app.fetch(streamRequest(stream));
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { got: { s: string } }).got.s, 'x'.repeat(MAX - 8));
  });
});
