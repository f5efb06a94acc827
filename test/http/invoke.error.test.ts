/**
 * POST /api/v1/invoke error paths (spec §7, DESIGN §4 "Input strictness" and "Errors"): every code
 * with its HTTP status, the exact `{ error: { code, message } }` envelope and a Request-Id header;
 * malformed bodies of every kind are 400 `invalid`, never 500; an internal failure is a 500 with a
 * generic message whose cause stays in the log.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { LastUsedRecorder } from '../../src/auth/api-keys.ts';
import { capabilities, findCapability } from '../../src/capabilities/registry.ts';
import { INTERNAL_MESSAGE } from '../../src/domain/errors.ts';
import { createApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/logger.ts';
import { getProject } from '../../src/store/projects.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type Answer, type TestService } from '../helpers/service.ts';

const REQUEST_ID = /^req_[0-9a-f]{24}$/;
const MiB = 1024 * 1024;

/** The envelope, exactly: only `error`, only `code` and `message`, the status of the code, a Request-Id. */
function assertError(res: Pick<Answer, 'status' | 'body'> & { headers: Headers | http.IncomingHttpHeaders }, status: number, code: string, message: string) {
  assert.equal(res.status, status, `status of ${JSON.stringify(res.body).slice(0, 300)}`);
  assert.deepEqual(res.body, { error: { code, message } });
  const id = res.headers instanceof Headers ? res.headers.get('request-id') : res.headers['request-id'];
  assert.match(String(id ?? ''), REQUEST_ID);
  const type = res.headers instanceof Headers ? res.headers.get('content-type') : res.headers['content-type'];
  assert.match(String(type ?? ''), /^application\/json/);
}

const INVALID_JSON = 'The body is not valid JSON.';
const NOT_OBJECT = 'The body must be a JSON object.';
const WRONG_TYPE = 'Send the body as JSON with "Content-Type: application/json".';
const TOO_LARGE = `The body is larger than ${MiB} bytes.`;
const NOT_UTF8 = 'The body is not valid UTF-8.';
const NO_PROJECT = 'No project yet: create one first (dashboard or `signals project create`).';

/** `depth` nested arrays: [[[…]]]. */
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** `depth` nested objects: {"a":{"a":…{}}}. */
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + '{}' + '}'.repeat(depth);

interface SocketAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/**
 * POSTs over a real socket with node:http: `contentLength` sets an honest Content-Length,
 * otherwise the body goes out with chunked transfer encoding. The body is written in pieces with
 * back-pressure; a server that answers early may stop reading, which is not an error here.
 */
function socketPost(base: string, key: string, pieces: Iterable<Uint8Array | string>, contentLength?: number): Promise<SocketAnswer> {
  const url = new URL(`${base}/api/v1/invoke`);
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    if (contentLength !== undefined) headers['content-length'] = contentLength;
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers, agent: false });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* keep text */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        req.destroy();
      });
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const iterator = pieces[Symbol.iterator]();
    const pump = () => {
      for (;;) {
        if (answered || req.destroyed) return;
        const next = iterator.next();
        if (next.done) return void req.end();
        if (!req.write(next.value)) return void req.once('drain', pump);
      }
    };
    pump();
  });
}

/** `total` bytes of a JSON string value wrapped so the whole is valid JSON, in 64 KiB pieces. */
function* bigJsonBody(total: number): Generator<string> {
  const head = '{"capability":"project.list","project":"';
  const tail = '"}';
  yield head;
  let left = total - head.length - tail.length;
  while (left > 0) {
    const n = Math.min(64 * 1024, left);
    left -= n;
    yield 'a'.repeat(n);
  }
  yield tail;
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** A raw HTTP/1.1 exchange on a TCP socket: every response the connection carried, in order. */
function rawExchange(base: string, request: Buffer): Promise<RawResponse[]> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      let rest = Buffer.concat(chunks).toString('utf8');
      const responses: RawResponse[] = [];
      while (rest.startsWith('HTTP/1.1 ')) {
        const end = rest.indexOf('\r\n\r\n');
        const lines = rest.slice(0, end).split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of lines.slice(1)) {
          const i = line.indexOf(':');
          headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
        }
        const length = Number(headers['content-length'] ?? 0);
        const bodyText = rest.slice(end + 4, end + 4 + length);
        rest = rest.slice(end + 4 + length);
        let body: unknown = bodyText;
        try {
          body = JSON.parse(bodyText);
        } catch {
          /* keep text */
        }
        responses.push({ status: Number(lines[0]!.split(' ')[1]), headers, body });
      }
      resolve(responses);
    });
    // Not end(): Node's server drops pending responses when the client half-closes. The last
    // request asks for `Connection: close`, so the server closes once it has answered.
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer within 20 s')));
    socket.write(request);
  });
}

for (const dialect of DIALECTS) {
  describe(`invoke errors (${dialect})`, () => {
    let svc: TestService;
    let base: string;
    before(async () => {
      svc = await startService(dialect);
      base = await svc.listen();
    });
    after(() => svc.close());

    /** POST /api/v1/invoke in-process with any body and headers (alice's key unless replaced). */
    const post = (body: BodyInit | null, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
      svc.request('/api/v1/invoke', { method: 'POST', headers: { authorization: `Bearer ${svc.keys.alice}`, ...headers }, body });
    const alice = (body: unknown) => svc.invoke(svc.keys.alice, body);

    describe('invalid (400): the request envelope', () => {
      test('a missing capability', async () => {
        assertError(await alice({}), 400, 'invalid', 'body.capability: Invalid input: expected string, received undefined');
        assertError(await alice({ input: {} }), 400, 'invalid', 'body.capability: Invalid input: expected string, received undefined');
        assertError(await alice({ capability: '' }), 400, 'invalid', 'body.capability: Too small: expected string to have >=1 characters');
      });

      test('a capability that is not a string', async () => {
        for (const [value, kind] of [
          [5, 'number'],
          [null, 'null'],
          [true, 'boolean'],
          [['project.list'], 'array'],
          [{ name: 'project.list' }, 'object'],
        ] as const) {
          assertError(await alice({ capability: value }), 400, 'invalid', `body.capability: Invalid input: expected string, received ${kind}`);
        }
      });

      test('an unknown top-level property, named', async () => {
        assertError(await alice({ capability: 'project.list', inputs: {} }), 400, 'invalid', 'body: unknown property "inputs"');
        assertError(await alice({ capability: 'project.list', a: 1, b: 2 }), 400, 'invalid', 'body: unknown properties "a", "b"');
        assertError(await alice({ capability: 'project.list', Project: 'alpha' }), 400, 'invalid', 'body: unknown property "Project"');
      });

      test('render other than "text"', async () => {
        for (const render of ['html', 'TEXT', 'markdown', '', true, 1, null]) {
          assertError(await alice({ capability: 'project.memory', render }), 400, 'invalid', 'body.render: Invalid input: expected "text"');
        }
      });

      test('input that is not an object', async () => {
        for (const input of [[], [{}], null, 'x', 3, true]) {
          assertError(await alice({ capability: 'project.list', input }), 400, 'invalid', 'body.input: Invalid input: expected object');
        }
      });

      test('a project that is not a non-empty string', async () => {
        assertError(await alice({ capability: 'project.memory', project: '' }), 400, 'invalid', 'body.project: Too small: expected string to have >=1 characters');
        assertError(await alice({ capability: 'project.memory', project: '   ' }), 400, 'invalid', 'body.project: Too small: expected string to have >=1 characters');
        assertError(await alice({ capability: 'project.memory', project: 7 }), 400, 'invalid', 'body.project: Invalid input: expected string, received number');
      });
    });

    describe('invalid (400): input failing the capability schema', () => {
      test('briefs.list limit 0, 6, 2.5 and "3"', async () => {
        const cases: [unknown, string][] = [
          [0, 'input.limit: Too small: expected number to be >=1'],
          [6, 'input.limit: Too big: expected number to be <=5'],
          [2.5, 'input.limit: Invalid input: expected int, received number'],
          ['3', 'input.limit: Invalid input: expected number, received string'],
          [-1, 'input.limit: Too small: expected number to be >=1'],
          [null, 'input.limit: Invalid input: expected number, received null'],
        ];
        for (const [limit, message] of cases) assertError(await alice({ capability: 'briefs.list', input: { limit } }), 400, 'invalid', message);
      });

      test('pains.list without type, a bad type or sort, pageSize 0 or 101, page 0 or 1.5', async () => {
        const cases: [unknown, string][] = [
          [{}, 'input.type: Invalid option: expected one of "pain"|"competitor"'],
          [{ pageSize: 10 }, 'input.type: Invalid option: expected one of "pain"|"competitor"'],
          [{ type: 'pains' }, 'input.type: Invalid option: expected one of "pain"|"competitor"'],
          [{ type: 'pain', sort: 'old' }, 'input.sort: Invalid option: expected one of "recent"|"posts"'],
          [{ type: 'pain', pageSize: 101 }, 'input.pageSize: Too big: expected number to be <=100'],
          [{ type: 'pain', pageSize: 0 }, 'input.pageSize: Too small: expected number to be >=1'],
          [{ type: 'pain', page: 0 }, 'input.page: Too small: expected number to be >=1'],
          [{ type: 'pain', page: 1.5 }, 'input.page: Invalid input: expected int, received number'],
        ];
        for (const [input, message] of cases) assertError(await alice({ capability: 'pains.list', input }), 400, 'invalid', message);
      });

      test('posts.get with neither id nor permalink, or blank ones', async () => {
        assertError(await alice({ capability: 'posts.get', input: {} }), 400, 'invalid', 'input: give `permalink` or `id`');
        assertError(await alice({ capability: 'posts.get' }), 400, 'invalid', 'input: give `permalink` or `id`');
        assertError(await alice({ capability: 'posts.get', input: { id: '  ' } }), 400, 'invalid', 'input.id: Too small: expected string to have >=1 characters');
        assertError(await alice({ capability: 'posts.get', input: { permalink: '' } }), 400, 'invalid', 'input.permalink: Too small: expected string to have >=1 characters');
      });

      test('pains.sources with [] or 26 ids, or not an array', async () => {
        assertError(await alice({ capability: 'pains.sources', input: { sovIds: [] } }), 400, 'invalid', 'input.sovIds: Too small: expected array to have >=1 items');
        const ids = Array.from({ length: 26 }, (_, i) => `sov_${i}`);
        assertError(await alice({ capability: 'pains.sources', input: { sovIds: ids } }), 400, 'invalid', 'input.sovIds: Too big: expected array to have <=25 items');
        assertError(await alice({ capability: 'pains.sources', input: { sovIds: 'sov_a1' } }), 400, 'invalid', 'input.sovIds: Invalid input: expected array, received string');
        assertError(await alice({ capability: 'pains.sources', input: { sovIds: [''] } }), 400, 'invalid', 'input.sovIds[0]: Too small: expected string to have >=1 characters');
      });

      test('briefs.get, pains.get and runs.get without their required id', async () => {
        assertError(await alice({ capability: 'briefs.get', input: {} }), 400, 'invalid', 'input.n: Invalid input: expected number, received undefined');
        assertError(await alice({ capability: 'briefs.get', input: { n: 0 } }), 400, 'invalid', 'input.n: Too small: expected number to be >=1');
        assertError(await alice({ capability: 'pains.get', input: {} }), 400, 'invalid', 'input.sovId: Invalid input: expected string, received undefined');
        assertError(await alice({ capability: 'runs.get', input: {} }), 400, 'invalid', 'input.runId: Invalid input: expected string, received undefined');
      });

      test('an unknown property in input is refused, naming it, for every capability', async () => {
        // Required properties are given so that the unknown one is the only fault.
        const required: Record<string, Record<string, unknown>> = {
          'briefs.get': { n: 1 },
          'pains.list': { type: 'pain' },
          'pains.get': { sovId: 'sov_a1' },
          'runs.get': { runId: 'run_a1' },
          search: { query: 'webhooks' },
          fetch: { id: 'post:p1' },
          'memory.edit': { edits: [{ op: 'add_filter_rule', rule: 'x' }] },
        };
        for (const capability of capabilities) {
          const input = { ...required[capability.name], bogusProperty: 1 };
          assertError(await alice({ capability: capability.name, input }), 400, 'invalid', 'input: unknown property "bogusProperty"');
        }
        assertError(await alice({ capability: 'briefs.list', input: { limit: 2, a: 1, b: 2 } }), 400, 'invalid', 'input: unknown properties "a", "b"');
      });

      test('search: no query, an empty or wordless query, a query too long, limit out of 1..50', async () => {
        assertError(await alice({ capability: 'search', input: {} }), 400, 'invalid', 'input.query: Invalid input: expected string, received undefined');
        assertError(await alice({ capability: 'search', input: { query: '   ' } }), 400, 'invalid', 'input.query: Too small: expected string to have >=1 characters');
        assertError(await alice({ capability: 'search', input: { query: '?! -- "*"' } }), 400, 'invalid', 'input.query: give at least one word (letters or digits) to search for');
        assertError(await alice({ capability: 'search', input: { query: 'x'.repeat(501) } }), 400, 'invalid', 'input.query: Too big: expected string to have <=500 characters');
        for (const limit of [0, 51]) assert.equal((await alice({ capability: 'search', input: { query: 'webhooks', limit } })).status, 400);
      });

      test('fetch: no id, an id that is no search id, an unknown document of each kind', async () => {
        assertError(await alice({ capability: 'fetch', input: {} }), 400, 'invalid', 'input.id: Invalid input: expected string, received undefined');
        const notFound = (id: string) => `no document "${id}" in this project`;
        for (const id of ['p1', 'post:', 'nope:p1', 'post:%E0%A4%A']) {
          const res = await alice({ capability: 'fetch', input: { id } });
          assert.equal(res.status, 404, id);
          assert.ok(res.body.error.message.startsWith(notFound(id)), res.body.error.message);
        }
        for (const id of ['post:p9', 'comment:p1:c99', 'comment:p9:c1', 'theme:sov_nope', 'signal:sig_nope', 'brief:brf_a1:9.0', 'brief:brf_nope:0.0', 'brief:brf_a1:x']) {
          assertError(await alice({ capability: 'fetch', input: { id } }), 404, 'not_found', notFound(id));
        }
      });

      test('memory.edit: no edits, 65 edits, an unknown op, an extra field, or an edit that changes nothing', async () => {
        assertError(await alice({ capability: 'memory.edit', input: {} }), 400, 'invalid', 'input.edits: Invalid input: expected array, received undefined');
        assertError(await alice({ capability: 'memory.edit', input: { edits: [] } }), 400, 'invalid', 'input.edits: Too small: expected array to have >=1 items');
        const many = Array.from({ length: 65 }, (_, i) => ({ op: 'add_filter_rule', rule: `rule ${i}` }));
        assertError(await alice({ capability: 'memory.edit', input: { edits: many } }), 400, 'invalid', 'input.edits: Too big: expected array to have <=64 items');
        assertError(
          await alice({ capability: 'memory.edit', input: { edits: [{ op: 'rename' }] } }),
          400,
          'invalid',
          'input.edits[0].op: must be one of set_product, set_icp, add_competitor, remove_competitor, add_offering, remove_offering, add_community, remove_community, add_filter_rule, remove_filter_rule',
        );
        assertError(await alice({ capability: 'memory.edit', input: { edits: [{ op: 'add_filter_rule', rule: 'r', x: 1 }] } }), 400, 'invalid', 'input.edits[0]: unknown property "x"');
        assertError(await alice({ capability: 'memory.edit', input: { edits: [{ op: 'remove_competitor', name: 'Foo' }] } }), 400, 'invalid', 'edits[0]: competitor "Foo" is not tracked');
        assertError(await alice({ capability: 'memory.edit', input: { edits: [{ op: 'add_filter_rule', rule: 'ignore memes' }] } }), 400, 'invalid', 'edits[0]: filter rule "ignore memes" already exists');
        // Nothing of a refused call is kept.
        assert.deepEqual((await getProject(svc.store.db, 'prj_alpha'))!.memory.filterRules, ['ignore memes']);
      });
    });

    describe('invalid (400): malformed bodies, never 500', () => {
      test('not JSON, and an empty body', async () => {
        for (const body of ['{', 'capability=project.list', '{"capability":"project.list"', "{'capability':'project.list'}", '{"capability":"project.list"}}', '']) {
          assertError(await post(body), 400, 'invalid', INVALID_JSON);
        }
        assertError(await post(null), 400, 'invalid', INVALID_JSON);
      });

      test('JSON that is not an object: array, string, number, null, boolean', async () => {
        for (const body of ['[]', '[{"capability":"project.list"}]', '"project.list"', '42', 'null', 'true']) {
          assertError(await post(body), 400, 'invalid', NOT_OBJECT);
        }
      });

      test('a wrong content type: text/plain, missing, multipart, form, application/jsonx', async () => {
        const json = JSON.stringify({ capability: 'project.list' });
        assertError(await post(json, { 'content-type': 'text/plain' }), 400, 'invalid', WRONG_TYPE);
        assertError(await post(new TextEncoder().encode(json), {}), 400, 'invalid', WRONG_TYPE);
        const form = new FormData();
        form.set('capability', 'project.list');
        assertError(await post(form, {}), 400, 'invalid', WRONG_TYPE);
        assertError(await post('capability=project.list', { 'content-type': 'application/x-www-form-urlencoded' }), 400, 'invalid', WRONG_TYPE);
        assertError(await post(json, { 'content-type': 'application/jsonx' }), 400, 'invalid', WRONG_TYPE);
        // …while a charset parameter is fine.
        assert.equal((await post(json, { 'content-type': 'application/json; charset=utf-8' })).status, 200);
      });

      test('a body over 1 MiB with an honest Content-Length (in-process)', async () => {
        const body = [...bigJsonBody(MiB + 1)].join('');
        assert.equal(body.length, MiB + 1);
        assertError(await post(body, { 'content-type': 'application/json', 'content-length': String(MiB + 1) }), 400, 'invalid', TOO_LARGE);
        // Exactly 1 MiB is read (and then refused for what it says, not for its size).
        const atCap = [...bigJsonBody(MiB)].join('');
        assertError(await post(atCap, { 'content-type': 'application/json', 'content-length': String(MiB) }), 400, 'invalid', 'body.project: Too big: expected string to have <=2048 characters');
      });

      test('a body over 1 MiB with an honest Content-Length, over a real socket', async () => {
        const res = await socketPost(base, svc.keys.alice, bigJsonBody(2 * MiB), 2 * MiB);
        assertError(res, 400, 'invalid', TOO_LARGE);
      });

      test('a body over 1 MiB sent chunked with no Content-Length, over a real socket', async () => {
        const res = await socketPost(base, svc.keys.alice, bigJsonBody(3 * MiB));
        assertError(res, 400, 'invalid', TOO_LARGE);
      });

      test('a chunked body under the cap is read and answered normally', async () => {
        const pieces = ['{"capability":', '"project.list"', '}'];
        const res = await socketPost(base, svc.keys.alice, pieces);
        assert.equal(res.status, 200);
        assert.deepEqual(
          res.body.data.projects.map((p: { id: string }) => p.id),
          ['prj_alpha', 'prj_beta'],
        );
      });

      test('a Content-Length shorter than the body lets only the declared bytes in (real socket)', async () => {
        // 10 declared bytes, `{"capabili`, then what follows is read as the next request on the
        // connection (here a GET of an unknown route), never as more of this body.
        const request = Buffer.from(
          `POST /api/v1/invoke HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${svc.keys.alice}\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n` +
            '{"capability":"project.list"}'.slice(0, 10) +
            'GET /api/v2/after HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
        );
        const [first, second] = await rawExchange(base, request);
        assertError(first!, 400, 'invalid', INVALID_JSON);
        assertError(second!, 404, 'not_found', 'No route GET /api/v2/after.');
      });

      test('deeply nested JSON: 100,000 arrays inside input, inside an unknown property, as a known field', async () => {
        const deep = nestedArrays(100_000);
        assertError(await post(`{"capability":"project.list","input":{"x":${deep}}}`), 400, 'invalid', 'input: unknown property "x"');
        assertError(await post(`{"capability":"project.list","zzz":${deep}}`), 400, 'invalid', 'body: unknown property "zzz"');
        assertError(await post(`{"capability":"project.list","input":${deep}}`), 400, 'invalid', 'body.input: Invalid input: expected object');
        assertError(await post(`{"capability":"pains.sources","input":{"sovIds":${deep}}}`), 400, 'invalid', 'input.sovIds[0]: Invalid input: expected string, received array');
        assertError(await post(`{"capability":${deep}}`), 400, 'invalid', 'body.capability: Invalid input: expected string, received array');
        assertError(await post(deep), 400, 'invalid', NOT_OBJECT);
        // And still answering normally afterwards.
        assert.equal((await alice({ capability: 'project.list' })).status, 200);
      });

      test('deeply nested JSON: 100,000 objects inside input and inside an unknown property', async () => {
        const deep = nestedObjects(100_000);
        assertError(await post(`{"capability":"project.memory","input":${deep}}`), 400, 'invalid', 'input: unknown property "a"');
        assertError(await post(`{"capability":"project.memory","deep":${deep}}`), 400, 'invalid', 'body: unknown property "deep"');
        assertError(
          await post(`{"capability":"memory.edit","input":{"edits":[${deep}]}}`),
          400,
          'invalid',
          'input.edits[0].op: must be one of set_product, set_icp, add_competitor, remove_competitor, add_offering, remove_offering, add_community, remove_community, add_filter_rule, remove_filter_rule',
        );
      });

      test('a huge string value is refused without being echoed', async () => {
        const huge = 'x'.repeat(1_000_000);
        const cases: [unknown, string][] = [
          [{ capability: 'posts.get', input: { permalink: huge } }, 'input.permalink: Too big: expected string to have <=2048 characters'],
          [{ capability: huge }, 'body.capability: Too big: expected string to have <=100 characters'],
          [{ capability: 'project.memory', project: huge }, 'body.project: Too big: expected string to have <=2048 characters'],
          [{ capability: 'memory.edit', input: { edits: [{ op: 'set_product', text: huge }] } }, 'input.edits[0].text: text is longer than 4000 characters'],
          [{ capability: 'pains.get', input: { sovId: huge } }, 'input.sovId: Too big: expected string to have <=200 characters'],
        ];
        for (const [body, message] of cases) {
          const res = await alice(body);
          assertError(res, 400, 'invalid', message);
          assert.ok(JSON.stringify(res.body).length < 300);
        }
        // A huge unknown key is an unknown property like any other; the message quotes only its
        // first 100 characters back, not the whole key.
        const res = await alice({ capability: 'project.list', [huge]: 1 });
        assert.equal(res.status, 400);
        assert.equal(res.body.error.code, 'invalid');
        assert.equal(res.body.error.message, `body: unknown property "${huge.slice(0, 100)}…"`);
        assert.ok(JSON.stringify(res.body).length < 300);
        // Nothing was saved by the refused edit.
        assert.equal((await getProject(svc.store.db, 'prj_alpha'))!.memory.description, 'Alpha helps teams ship.');
      });

      test('invalid UTF-8 bytes, in-process and over a real socket with and without Content-Length', async () => {
        const withBytes = (before: string, bytes: number[], afterText: string) => Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(afterText)]);
        const bodies = [
          // Inside a value that project.list ignores: decoding with U+FFFD would answer 200.
          withBytes('{"capability":"project.list","project":"', [0xff, 0xfe], '"}'),
          // Inside the capability name: decoding with U+FFFD would answer 404.
          withBytes('{"capability":"project.list', [0xc3], '"}'),
          withBytes('{"capability":"project.list","input":{},"project":"', [0xc0, 0xaf], '"}'), // overlong
          withBytes('{"capability":"project.list","project":"', [0xed, 0xa0, 0x80], '"}'), // a surrogate
          withBytes('{"capability":"project.list"}', [0x80], ''),
        ];
        for (const body of bodies) {
          assertError(await post(new Uint8Array(body)), 400, 'invalid', NOT_UTF8);
          assertError(await socketPost(base, svc.keys.alice, [body], body.length), 400, 'invalid', NOT_UTF8);
          assertError(await socketPost(base, svc.keys.alice, [body]), 400, 'invalid', NOT_UTF8);
        }
        // Valid multi-byte UTF-8 passes.
        const ok = Buffer.from(JSON.stringify({ capability: 'project.list', project: 'ünïcödé ✓ 😀' }));
        assert.equal((await socketPost(base, svc.keys.alice, [ok], ok.length)).status, 200);
      });

      test('__proto__ and constructor keys are unknown properties, and pollute nothing', async () => {
        const cases: [string, string][] = [
          ['{"capability":"project.list","input":{"__proto__":{"polluted":true}}}', 'input: unknown property "__proto__"'],
          ['{"capability":"project.memory","input":{"__proto__":{"field":"icp"}}}', 'input: unknown property "__proto__"'],
          ['{"capability":"project.list","input":{"constructor":{"prototype":{"polluted":true}}}}', 'input: unknown property "constructor"'],
          ['{"capability":"project.list","__proto__":{"polluted":true}}', 'body: unknown property "__proto__"'],
          ['{"capability":"project.list","constructor":{"polluted":true}}', 'body: unknown property "constructor"'],
          ['{"capability":"memory.edit","input":{"edits":[{"op":"add_filter_rule","rule":"r","__proto__":{"polluted":true}}]}}', 'input.edits[0]: unknown property "__proto__"'],
          ['{"capability":"briefs.list","input":{"limit":1,"__proto__":{"limit":9}}}', 'input: unknown property "__proto__"'],
        ];
        for (const [body, message] of cases) assertError(await post(body), 400, 'invalid', message);
        assert.equal(({} as Record<string, unknown>).polluted, undefined);
        assert.equal((Object.prototype as unknown as Record<string, unknown>).polluted, undefined);
        assert.deepEqual((await getProject(svc.store.db, 'prj_alpha'))!.memory.filterRules, ['ignore memes']);
      });
    });

    describe('forbidden (403)', () => {
      test('no key, or an unrecognized key', async () => {
        assertError(await svc.invoke(null, { capability: 'project.list' }), 403, 'forbidden', 'Send your API key as "Authorization: Bearer <key>".');
        assertError(await svc.invoke('sgk_nope', { capability: 'project.list' }), 403, 'forbidden', 'This API key is not recognized or has been revoked.');
      });

      test("a project that is not the caller's, or matches none of hers", async () => {
        assertError(
          await alice({ capability: 'project.memory', project: 'bob.example.net' }),
          403,
          'forbidden',
          'No project of yours has a URL containing "bob.example.net".',
        );
        assertError(await alice({ capability: 'briefs.list', project: 'gamma' }), 403, 'forbidden', 'No project of yours has a URL containing "gamma".');
      });

      test('authentication comes before body parsing: a bad key with a malformed body is 403', async () => {
        const res = await svc.request('/api/v1/invoke', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{' });
        assertError(res, 403, 'forbidden', 'Send your API key as "Authorization: Bearer <key>".');
      });
    });

    describe('not_found (404)', () => {
      test('an unknown capability', async () => {
        for (const name of ['nope', 'Project.List', 'project_list', 'briefs.list ', 'briefs']) {
          assertError(await alice({ capability: name }), 404, 'not_found', `Unknown capability "${name}". GET /api/v1/capabilities lists them.`);
        }
      });

      test('briefs.get beyond the last numbered item', async () => {
        // alpha's 5 most recent briefs hold 3 items each: 1..15.
        assert.equal((await alice({ capability: 'briefs.get', input: { n: 15 } })).status, 200);
        assertError(await alice({ capability: 'briefs.get', input: { n: 16 } }), 404, 'not_found', 'no signal number 16 in the recent briefs');
        assertError(await alice({ capability: 'briefs.get', input: { n: 1_000_000 } }), 404, 'not_found', 'no signal number 1000000 in the recent briefs');
      });

      test('pains.get, pains.sources, posts.get and runs.get with unknown ids', async () => {
        assertError(await alice({ capability: 'pains.get', input: { sovId: 'sov_nope' } }), 404, 'not_found', 'no theme "sov_nope" in this project');
        assertError(await alice({ capability: 'pains.sources', input: { sovIds: ['sov_a1', 'sov_nope'] } }), 404, 'not_found', 'no theme "sov_nope" in this project');
        assertError(await alice({ capability: 'posts.get', input: { id: 'zzz' } }), 404, 'not_found', 'no post "zzz" in this project');
        assertError(await alice({ capability: 'posts.get', input: { permalink: '/r/SaaS/comments/zzz/x/' } }), 404, 'not_found', 'no post at "/r/SaaS/comments/zzz/x/" in this project');
        assertError(await alice({ capability: 'runs.get', input: { runId: 'run_nope' } }), 404, 'not_found', 'no run "run_nope"');
      });

      test('carol (no project) gets not_found on project-scoped capabilities while project.list works', async () => {
        const carol = (body: unknown) => svc.invoke(svc.keys.carol, body);
        assertError(await carol({ capability: 'briefs.list' }), 404, 'not_found', NO_PROJECT);
        assertError(await carol({ capability: 'project.memory', input: { field: 'icp' } }), 404, 'not_found', NO_PROJECT);
        assertError(await carol({ capability: 'memory.edit', input: { edits: [{ op: 'set_product', text: 'x' }] } }), 404, 'not_found', NO_PROJECT);
        const list = await carol({ capability: 'project.list' });
        assert.equal(list.status, 200);
        assert.deepEqual(list.body, { data: { projects: [] } });
        // With a `project`, carol has nothing to match: forbidden, like any project not hers.
        assertError(await carol({ capability: 'briefs.list', project: 'alpha' }), 403, 'forbidden', 'No project of yours has a URL containing "alpha".');
      });

      test('an unknown route under /api/ answers the envelope', async () => {
        const auth = { authorization: `Bearer ${svc.keys.alice}` };
        assertError(await svc.request('/api/v2/x', { headers: auth }), 404, 'not_found', 'No route GET /api/v2/x.');
        assertError(await svc.request('/api/v2/x'), 404, 'not_found', 'No route GET /api/v2/x.');
        assertError(await svc.request('/api/v1/invoke', { headers: auth }), 404, 'not_found', 'No route GET /api/v1/invoke.');
        assertError(await svc.request('/api/v1/nope', { method: 'POST', headers: auth }), 404, 'not_found', 'No route POST /api/v1/nope.');
        assertError(await svc.request('/api/v1/capabilities', { method: 'DELETE', headers: auth }), 404, 'not_found', 'No route DELETE /api/v1/capabilities.');
        assertError(await svc.request('/api/', { headers: auth }), 404, 'not_found', 'No route GET /api/.');
        // Outside /api/ a plain 404, still with a Request-Id.
        const page = await svc.request('/nowhere');
        assert.equal(page.status, 404);
        assert.equal(page.body, 'Not found');
        assert.match(page.headers.get('request-id') ?? '', REQUEST_ID);
      });

      test('an unknown route under /api/v1/ still needs a key', async () => {
        assertError(await svc.request('/api/v1/invoke'), 403, 'forbidden', 'Send your API key as "Authorization: Bearer <key>".');
      });
    });

    describe('limit (409)', () => {
      test('memory.edit add_community beyond 5: refused whole, nothing kept', async () => {
        // alpha watches 1 community; 5 more in one call would make 6: the 5th edit (edits[4]) hits the limit.
        const five = ['a', 'b', 'c', 'd', 'e'].map((n) => ({ op: 'add_community', name: `r/new_${n}`, description: `Community ${n}.` }));
        assertError(
          await alice({ capability: 'memory.edit', input: { edits: [{ op: 'add_filter_rule', rule: 'kept?' }, ...five] } }),
          409,
          'limit',
          'edits[5]: a project watches at most 5 communities; remove one first',
        );
        const alpha = (await getProject(svc.store.db, 'prj_alpha'))!.memory;
        assert.deepEqual(alpha.communities, [{ name: 'r/SaaS', description: 'Founders.' }]);
        assert.deepEqual(alpha.filterRules, ['ignore memes']);
      });

      test('memory.edit: up to 5 communities is fine, the 6th is a limit', async () => {
        // beta (through alice's untied key) watches none.
        const five = ['a', 'b', 'c', 'd', 'e'].map((n) => ({ op: 'add_community', name: `r/beta_${n}`, description: `Community ${n}.` }));
        const ok = await alice({ capability: 'memory.edit', project: 'beta', input: { edits: five } });
        assert.equal(ok.status, 200);
        assert.equal(ok.body.data.applied.length, 5);
        assertError(
          await alice({ capability: 'memory.edit', project: 'beta', input: { edits: [{ op: 'add_community', name: 'r/sixth', description: 'One too many.' }] } }),
          409,
          'limit',
          'edits[0]: a project watches at most 5 communities; remove one first',
        );
        // Swapping one out within one call stays within the limit.
        const swap = await alice({
          capability: 'memory.edit',
          project: 'beta',
          input: { edits: [{ op: 'remove_community', name: 'beta_a' }, { op: 'add_community', name: 'r/sixth', description: 'Swapped in.' }] },
        });
        assert.equal(swap.status, 200);
        const beta = (await getProject(svc.store.db, 'prj_beta'))!.memory;
        assert.deepEqual(
          beta.communities.map((c) => c.name),
          ['r/beta_b', 'r/beta_c', 'r/beta_d', 'r/beta_e', 'r/sixth'],
        );
      });
    });

    describe('internal (500)', () => {
      /** An app on the suite's store whose log lines land in `lines`. */
      function loggedApp() {
        const lines: Record<string, any>[] = [];
        const sink = new Writable({
          write(chunk, _encoding, done) {
            for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
            done();
          },
        });
        const app = createApp({ store: svc.store, logger: createLogger('trace', sink), lastUsed: new LastUsedRecorder(svc.store.db, 60_000) });
        return { app, lines };
      }

      test('a capability that throws: 500 internal, generic message, the cause only in the log', async () => {
        const capability = findCapability('project.list')!;
        const original = capability.run;
        const cause = 'connection to db-7.internal:5432 failed, password=hunter2';
        Object.assign(capability, {
          run: async () => {
            throw new Error(cause);
          },
        });
        const { app, lines } = loggedApp();
        try {
          const res = await app.request('/api/v1/invoke', {
            method: 'POST',
            headers: { authorization: `Bearer ${svc.keys.alice}`, 'content-type': 'application/json' },
            body: JSON.stringify({ capability: 'project.list' }),
          });
          const text = await res.text();
          assertError({ status: res.status, headers: res.headers, body: JSON.parse(text) }, 500, 'internal', INTERNAL_MESSAGE);
          for (const secret of ['hunter2', 'db-7.internal', 'password', 'Error']) assert.ok(!text.includes(secret), `response mentions ${secret}`);
          const id = res.headers.get('request-id');
          const failure = lines.find((l) => l.msg === 'request failed');
          assert.ok(failure, 'no "request failed" log line');
          assert.equal(failure.requestId, id);
          assert.match(JSON.stringify(failure.err), /hunter2/);
          const request = lines.find((l) => l.msg === 'request');
          assert.equal(request?.requestId, id);
          assert.equal(request?.status, 500);
          assert.equal(request?.capability, 'project.list');
        } finally {
          Object.assign(capability, { run: original });
        }
        // Restored: the real capability answers again.
        assert.equal((await alice({ capability: 'project.list' })).status, 200);
      });

      test('a thrown non-Error value is internal too', async () => {
        const capability = findCapability('competitors.list')!;
        const original = capability.run;
        Object.assign(capability, {
          run: async () => {
            throw 'secret string cause';
          },
        });
        try {
          const res = await alice({ capability: 'competitors.list' });
          assertError(res, 500, 'internal', INTERNAL_MESSAGE);
        } finally {
          Object.assign(capability, { run: original });
        }
      });

      test('a closed store (separate service): 500 internal with the generic message', async () => {
        const broken = await startService(dialect);
        try {
          const lines: Record<string, any>[] = [];
          const sink = new Writable({
            write(chunk, _encoding, done) {
              for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
              done();
            },
          });
          const app = createApp({ store: broken.store, logger: createLogger('info', sink), lastUsed: new LastUsedRecorder(broken.store.db, 60_000) });
          await broken.store.close();
          for (const body of [{ capability: 'project.list' }, { capability: 'briefs.list' }, { capability: 'memory.edit', input: { edits: [{ op: 'set_product', text: 'x' }] } }]) {
            const res = await app.request('/api/v1/invoke', {
              method: 'POST',
              headers: { authorization: `Bearer ${broken.keys.alice}`, 'content-type': 'application/json' },
              body: JSON.stringify(body),
            });
            const text = await res.text();
            assertError({ status: res.status, headers: res.headers, body: JSON.parse(text) }, 500, 'internal', INTERNAL_MESSAGE);
            const failure = lines.filter((l) => l.msg === 'request failed').at(-1);
            assert.ok(failure);
            assert.equal(failure.requestId, res.headers.get('request-id'));
            const causeMessage = String(failure.err?.message ?? '');
            assert.ok(causeMessage.length > 0, 'the cause is logged');
            assert.ok(!text.includes(causeMessage), 'the cause leaked into the response');
          }
        } finally {
          await broken.close();
        }
      });
    });
  });
}
