/**
 * Security of the MCP endpoint (DESIGN §6, §7; spec §4.1 rule 2, §5):
 *  - credentials: missing / bad / revoked → HTTP 401 with the RFC 9728 challenge, never a body read;
 *  - the protected-resource metadata the challenge points at;
 *  - tied keys always read their project; no tool lets one account reach another's data (a row per
 *    tool, generated from the registry);
 *  - Host and Origin are checked before anything else (DNS rebinding);
 *  - keys never reach a log line.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApiKey, generateKey, LastUsedRecorder, revokeApiKey } from '../../src/auth/api-keys.ts';
import { capabilities, findCapability, isAgentInvokable } from '../../src/capabilities/registry.ts';
import type { Capability } from '../../src/capabilities/types.ts';
import { createApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/logger.ts';
import { toolName, toolsFrom, ToolSet } from '../../src/mcp/tools.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { capturedLogger } from '../helpers/logs.ts';
import { serveApp } from '../helpers/serve.ts';

const PUBLIC_URL = 'http://localhost:8080';
const CHALLENGE = `Bearer resource_metadata="${PUBLIC_URL}/.well-known/oauth-protected-resource/api/mcp", scope="signals:read offline_access"`;
const BAD_TOKEN_CHALLENGE = `${CHALLENGE}, error="invalid_token", error_description="The token is not recognized or has been revoked."`;
const ACCEPT = 'application/json, text/event-stream';
const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** Strings only bob's data holds (test/fixtures/small-bundle.ts); none may reach alice. */
const BOB_DATA = ['prj_bob', 'Bob Co', 'Bob private thread', 'Body of Bob', 'Secret bob comment', 'bobfan', 'Bob pain', 'Bob only', 'sig_bob1', 'brf_bob1', 'bob content', 'bob offers', 'Post bob', 'bob.example.net'];
/** Strings only alice's data holds; none may reach bob. */
const ALICE_DATA = ['prj_alpha', 'prj_beta', 'Alpha helps teams ship', 'Billing is painful', 'Failing billing webhooks', 'Stripe webhooks', 'Beta thread', 'alpha.example.com', 'sig_a1'];

type ClientKind = 'v2 legacy' | 'v2 pin 2026-07-28' | 'v1';
const CLIENT_KINDS: ClientKind[] = ['v2 legacy', 'v2 pin 2026-07-28', 'v1'];

interface Session {
  callTool(name: string, args: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

async function connect(kind: ClientKind, url: string, key: string): Promise<Session> {
  const requestInit = { headers: { Authorization: `Bearer ${key}` } };
  if (kind === 'v1') {
    const v1 = new V1Client({ name: 'mcp-security-test', version: '1.0.0' });
    await v1.connect(new V1Transport(new URL(url), { requestInit }));
    await v1.listTools();
    return { callTool: (name, args) => v1.callTool({ name, arguments: args }), close: () => v1.close() };
  }
  const mode = kind === 'v2 legacy' ? 'legacy' : { pin: '2026-07-28' };
  const v2 = new Client({ name: 'mcp-security-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  await v2.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
  await v2.listTools();
  return { callTool: (name, args) => v2.callTool({ name, arguments: args }), close: () => v2.close() };
}

/** A request over node:http, which (unlike fetch) lets the test set Host and send a partial body. */
function rawRequest(
  port: number,
  options: { method?: string; headers: Record<string, string | number>; body?: string; partialBody?: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/api/mcp', method: options.method ?? 'POST', headers: options.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', (err) => {
      if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err);
    });
    if (options.partialBody !== undefined) {
      // The body never completes: an answer can only come from a check made before reading it.
      req.write(options.partialBody);
    } else {
      req.end(options.body);
    }
  });
}

interface MatrixRow {
  /** An input naming another account's (bob's) ids where the tool takes ids. */
  foreign: Record<string, unknown>;
  /** What alice gets for `foreign` in her own default project. */
  alice: { error?: { code: string; message: string }; check?: (data: any) => void };
  /** An input valid in prj_beta (for the tied-key row); project-scoped tools only. */
  beta?: Record<string, unknown>;
}

/** One row per read tool of the registry (checked below): the tenant matrix of the MCP endpoint. */
const MATRIX: Record<string, MatrixRow> = {
  'project.memory': { foreign: {}, alice: { check: (d) => assert.equal(d.memory.id, 'prj_alpha') }, beta: {} },
  'project.list': {
    foreign: {},
    alice: { check: (d) => assert.deepEqual(d.projects.map((p: { id: string }) => p.id), ['prj_alpha', 'prj_beta']) },
  },
  'briefs.list': { foreign: { limit: 5 }, alice: { check: (d) => assert.equal(d.briefs.length, 5) }, beta: { limit: 5 } },
  'briefs.get': { foreign: { n: 1 }, alice: { check: (d) => assert.equal(d.item.surfaced.summary, 'd16 content a') }, beta: { n: 3 } },
  'pains.list': { foreign: { type: 'pain' }, alice: { check: (d) => assert.equal(d.totalCount, 3) }, beta: { type: 'pain' } },
  'pains.get': { foreign: { sovId: 'sov_bob1' }, alice: { error: { code: 'not_found', message: 'no theme "sov_bob1" in this project' } }, beta: { sovId: 'sov_beta1' } },
  'pains.sources': {
    foreign: { sovIds: ['sov_bob1'] },
    alice: { error: { code: 'not_found', message: 'no theme "sov_bob1" in this project' } },
    beta: { sovIds: ['sov_beta1'] },
  },
  'posts.get': {
    // Bob's post has the same raw id as alice's p1: alice gets her own thread.
    foreign: { id: 'p1' },
    alice: { check: (d) => assert.deepEqual([d.post.id, d.post.title], ['p1', 'Billing is painful']) },
    beta: { id: 'q1' },
  },
  'runs.get': { foreign: { runId: 'run_bob1' }, alice: { error: { code: 'not_found', message: 'no run "run_bob1"' } } },
  'competitors.list': { foreign: {}, alice: { check: (d) => assert.equal(d.competitors[0].name, 'Ollama') }, beta: {} },
  // Words only bob's thread holds: alice's project finds none.
  search: { foreign: { query: 'secret bob' }, alice: { check: (d) => assert.deepEqual(d, { results: [] }) }, beta: { query: 'beta thread' } },
  fetch: {
    foreign: { id: 'comment:p1:bc1' },
    alice: { error: { code: 'not_found', message: 'no document "comment:p1:bc1" in this project' } },
    beta: { id: 'post:q1' },
  },
};

function assertNone(value: unknown, markers: string[], context: string) {
  const text = JSON.stringify(value);
  for (const marker of markers) assert.ok(!text.includes(marker), `${context}: the answer mentions "${marker}": ${text.slice(0, 300)}`);
}

for (const dialect of DIALECTS) {
  describe(`MCP endpoint, security (${dialect})`, () => {
    let svc: TestService;
    let base: string;
    let url: string;
    let port: number;
    const post = (body: string, headers: Record<string, string>) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, body });

    before(async () => {
      svc = await startService(dialect);
      base = await svc.listen();
      url = `${base}/api/mcp`;
      port = Number(new URL(base).port);
    });
    after(async () => {
      await svc.close();
    });

    describe('credentials', () => {
      test('no Authorization header → 401 with the exact challenge, no error code', async () => {
        const res = await post(INITIALIZE, {});
        assert.equal(res.status, 401);
        assert.equal(res.headers.get('www-authenticate'), CHALLENGE);
        assert.deepEqual(await res.json(), { error: 'invalid_token', error_description: 'Send an API key or OAuth access token as a Bearer token.' });
      });

      test('a non-Bearer scheme or an empty Bearer counts as no token', async () => {
        for (const authorization of [`Basic ${Buffer.from('alice:pw').toString('base64')}`, 'Bearer', 'Bearer    ', svc.keys.alice]) {
          const res = await post(PING, { authorization });
          assert.equal(res.status, 401, authorization);
          assert.equal(res.headers.get('www-authenticate'), CHALLENGE, authorization);
        }
      });

      test('a bad, random, altered or revoked key → 401 with error="invalid_token"', async () => {
        const revoked = await createApiKey(svc.store.db, { userId: svc.users.alice, projectId: null, name: 'to revoke' });
        // It works until revoked.
        assert.equal((await post(PING, { authorization: `Bearer ${revoked.key}` })).status, 200);
        await revokeApiKey(svc.store.db, revoked.id);
        const flipped = svc.keys.alice.slice(0, -1) + (svc.keys.alice.endsWith('a') ? 'b' : 'a');
        for (const token of ['sgk_bogus', generateKey(), flipped, revoked.key, 'x'.repeat(5000)]) {
          const res = await post(INITIALIZE, { authorization: `Bearer ${token}` });
          assert.equal(res.status, 401, token.slice(0, 20));
          assert.equal(res.headers.get('www-authenticate'), token.length > 4096 ? CHALLENGE : BAD_TOKEN_CHALLENGE, token.slice(0, 20));
          const body = await res.json();
          assert.equal(body.error, 'invalid_token');
          assert.ok(!JSON.stringify(body).includes(token), 'the answer does not echo the token');
        }
      });

      test('the 401 comes before the body is read (a malformed or partial body still gets 401)', async () => {
        assert.equal((await post('{not json', {})).status, 401);
        const partial = await rawRequest(port, {
          headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', accept: ACCEPT, 'content-length': 500 },
          partialBody: '{"jsonrpc":',
        });
        assert.equal(partial.status, 401);
        assert.equal(partial.headers['www-authenticate'], CHALLENGE);
      });

      test('the real clients are refused without a key (v2 and v1)', async () => {
        const v2 = new Client({ name: 'anon', version: '1' });
        await assert.rejects(v2.connect(new StreamableHTTPClientTransport(new URL(url))));
        const v1 = new V1Client({ name: 'anon', version: '1' });
        await assert.rejects(v1.connect(new V1Transport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer sgk_nope' } } })));
      });

      test('the protected-resource metadata, at the path form the challenge names and at the root form', async () => {
        const expected = {
          resource: `${PUBLIC_URL}/api/mcp`,
          authorization_servers: [`${PUBLIC_URL}/api/auth`],
          bearer_methods_supported: ['header'],
        };
        const pointer = /resource_metadata="([^"]+)"/.exec(CHALLENGE)![1]!;
        const paths = [new URL(pointer).pathname, '/.well-known/oauth-protected-resource'];
        assert.equal(paths[0], '/.well-known/oauth-protected-resource/api/mcp');
        const docs = [];
        for (const path of paths) {
          const res = await fetch(`${base}${path}`);
          assert.equal(res.status, 200, path);
          assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
          const doc = await res.json();
          for (const [k, v] of Object.entries(expected)) assert.deepEqual(doc[k], v, `${path}: ${k}`);
          assert.ok(doc.scopes_supported.includes('signals:read'), path);
          docs.push(doc);
        }
        assert.deepEqual(docs[0], docs[1]);
      });

      test('another PUBLIC_URL changes the challenge and the metadata alike', async () => {
        const app = createApp({
          store: svc.store,
          logger: createLogger('silent'),
          lastUsed: svc.lastUsed,
          config: { publicUrl: 'https://signals.example.com', host: '0.0.0.0' },
        });
        const served = await serveApp(app);
        try {
          const res = await rawRequest(served.port, { headers: { host: 'signals.example.com', 'content-type': 'application/json', accept: ACCEPT }, body: PING });
          assert.equal(res.status, 401);
          assert.equal(
            res.headers['www-authenticate'],
            'Bearer resource_metadata="https://signals.example.com/.well-known/oauth-protected-resource/api/mcp", scope="signals:read offline_access"',
          );
          const doc = await (await fetch(`${served.base}/.well-known/oauth-protected-resource/api/mcp`)).json();
          assert.equal(doc.resource, 'https://signals.example.com/api/mcp');
          assert.deepEqual(doc.authorization_servers, ['https://signals.example.com/api/auth']);
          // Not listening on loopback: loopback Host names are not allowed there.
          const loopback = await rawRequest(served.port, { headers: { host: `localhost:${served.port}`, 'content-type': 'application/json', accept: ACCEPT }, body: PING });
          assert.equal(loopback.status, 403);
          const ok = await rawRequest(served.port, {
            headers: { host: 'signals.example.com', 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${svc.keys.alice}` },
            body: PING,
          });
          assert.equal(ok.status, 200);
        } finally {
          await served.close();
        }
      });
    });

    describe('Host and Origin (DNS rebinding)', () => {
      const good = () => ({ 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${svc.keys.alice}` });

      test('a foreign Host → 403 before credentials and before the body (invalid body, partial body, no key, GET)', async () => {
        for (const host of ['evil.example', `evil.example:${port}`, 'localhost.evil.example', `127.0.0.1.evil.example:${port}`]) {
          const invalidBody = await rawRequest(port, { headers: { ...good(), host }, body: '{not json' });
          assert.equal(invalidBody.status, 403, host);
          assert.deepEqual(JSON.parse(invalidBody.body), { jsonrpc: '2.0', error: { code: -32000, message: `Invalid Host: ${host.replace(/:\d+$/, '')}` }, id: null });

          const partial = await rawRequest(port, { headers: { ...good(), host, 'content-length': 1000 }, partialBody: '{"jsonrpc":"2.0",' });
          assert.equal(partial.status, 403, `${host}: answered without the body`);

          const noKey = await rawRequest(port, { headers: { host, 'content-type': 'application/json', accept: ACCEPT }, body: PING });
          assert.equal(noKey.status, 403, `${host}: no 401 challenge to a foreign Host`);
          assert.equal(noKey.headers['www-authenticate'], undefined);

          const get = await rawRequest(port, { method: 'GET', headers: { host, accept: ACCEPT } });
          assert.equal(get.status, 403, `${host}: GET`);
        }
      });

      test('loopback Host names (the service listens on 127.0.0.1) and the PUBLIC_URL host are allowed', async () => {
        for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost:8080', 'localhost']) {
          const res = await rawRequest(port, { headers: { ...good(), host }, body: PING });
          assert.equal(res.status, 200, host);
          assert.deepEqual(JSON.parse(res.body), { jsonrpc: '2.0', id: 1, result: {} });
        }
      });

      test('a foreign Origin → 403 before credentials and body', async () => {
        for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'null']) {
          const res = await post('{not json', { ...good(), origin });
          assert.equal(res.status, 403, origin);
          const body = await res.json();
          assert.equal(body.error.code, -32000);
          assert.match(body.error.message, /^Invalid Origin/);
          const noKey = await post(PING, { origin });
          assert.equal(noKey.status, 403, `${origin} without a key`);
        }
      });

      test('Origin http://localhost:8080 (PUBLIC_URL) and loopback origins are allowed', async () => {
        for (const origin of ['http://localhost:8080', `http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
          const res = await post(PING, { ...good(), origin });
          assert.equal(res.status, 200, origin);
          assert.deepEqual(await res.json(), { jsonrpc: '2.0', id: 1, result: {} });
        }
      });
    });

    describe('tenancy', () => {
      test('the matrix has a row for every read tool of the registry', () => {
        assert.deepEqual(Object.keys(MATRIX).sort(), capabilities.filter(isAgentInvokable).map((c) => c.name).sort());
        for (const c of capabilities.filter(isAgentInvokable)) {
          if (c.scope === 'project') assert.ok(MATRIX[c.name]!.beta, `${c.name} needs a beta input`);
        }
      });

      for (const kind of CLIENT_KINDS) {
        describe(`${kind} client`, () => {
          let alice: Session;
          let aliceBeta: Session;
          let bob: Session;
          before(async () => {
            alice = await connect(kind, url, svc.keys.alice);
            aliceBeta = await connect(kind, url, svc.keys.aliceBeta);
            bob = await connect(kind, url, svc.keys.bob);
          });
          after(async () => {
            await Promise.all([alice.close(), aliceBeta.close(), bob.close()]);
          });

          test('a tied key always reads prj_beta, whatever project says', async () => {
            for (const project of [undefined, 'alpha', 'https://alpha.example.com', 'bob.example.net', 'no-such-project']) {
              const result = await aliceBeta.callTool('project_memory', project === undefined ? {} : { project });
              assert.equal(result.isError, undefined, String(project));
              assert.equal(result.structuredContent.memory.id, 'prj_beta', String(project));
              assert.equal(result.structuredContent.memory.name, 'Beta');
            }
          });

          test('every project tool with the tied key and project "alpha" answers exactly what alice gets in beta', async () => {
            for (const c of capabilities.filter((c) => isAgentInvokable(c) && c.scope === 'project')) {
              const name = toolName(c.name);
              const input = MATRIX[c.name]!.beta!;
              const tied = await aliceBeta.callTool(name, { ...input, project: 'alpha' });
              const chosen = await alice.callTool(name, { ...input, project: 'beta' });
              assert.equal(tied.isError, undefined, `${name}: ${JSON.stringify(tied).slice(0, 200)}`);
              assert.deepEqual(tied.structuredContent, chosen.structuredContent, name);
              assert.deepEqual(tied.content, chosen.content, name);
              assertNone(tied, ['prj_alpha', 'Alpha helps teams ship', 'Billing is painful', 'd16 content'], `tied ${name}`);
            }
          });

          test('alice reaches none of bob\'s data through any tool (bob\'s ids, his URL as project)', async () => {
            for (const c of capabilities.filter(isAgentInvokable)) {
              const name = toolName(c.name);
              const row = MATRIX[c.name]!;
              const result = await alice.callTool(name, row.foreign);
              assertNone(result, BOB_DATA, `alice ${name}`);
              if (row.alice.error) {
                assert.equal(result.isError, true, name);
                assert.deepEqual(result.structuredContent, { error: row.alice.error }, name);
              } else {
                assert.equal(result.isError, undefined, `${name}: ${JSON.stringify(result).slice(0, 200)}`);
                row.alice.check!(result.structuredContent);
              }
              // Naming bob's project: forbidden (project tools) or ignored (account-wide tools).
              const viaProject = await alice.callTool(name, { ...row.foreign, project: 'bob.example.net' });
              assertNone(viaProject, BOB_DATA.filter((m) => m !== 'bob.example.net'), `alice ${name} project bob`);
              if (c.scope === 'project') {
                assert.deepEqual(viaProject.structuredContent, { error: { code: 'forbidden', message: 'No project of yours has a URL containing "bob.example.net".' } }, name);
              }
            }
            // Bob's permalink does not reach bob's post either (nor alice's p1).
            const byPermalink = await alice.callTool('posts_get', { permalink: 'https://www.reddit.com/r/SaaS/comments/p1/bob_private_thread/' });
            assert.deepEqual(byPermalink.structuredContent.error.code, 'not_found');
          });

          test('bob reaches none of alice\'s data (her ids, her URLs)', async () => {
            for (const c of capabilities.filter(isAgentInvokable)) {
              const name = toolName(c.name);
              for (const args of [MATRIX[c.name]!.beta ?? {}, { ...(MATRIX[c.name]!.beta ?? {}), project: 'alpha' }]) {
                assertNone(await bob.callTool(name, args), ALICE_DATA, `bob ${name} ${JSON.stringify(args)}`);
              }
            }
            for (const [tool, args] of [
              ['pains_get', { sovId: 'sov_a1' }],
              ['runs_get', { runId: 'run_a1' }],
              ['runs_get', { runId: 'run_beta1' }],
              ['posts_get', { id: 'p2' }],
            ] as const) {
              const result = await bob.callTool(tool, args);
              assert.equal(result.structuredContent.error.code, 'not_found', `${tool} ${JSON.stringify(args)}`);
            }
            const own = await bob.callTool('posts_get', { id: 'p1' });
            assert.equal(own.structuredContent.post.title, 'Bob private thread');
          });
        });
      }
    });

    describe('secrets never logged', () => {
      test('no log line holds a key or an Authorization header, across both eras, both clients, failures included', async () => {
        const { logger, lines } = capturedLogger('trace');
        const exploding = { ...findCapability('competitors.list')!, run: async () => { throw new Error('boom'); } } as Capability;
        const app = createApp({
          store: svc.store,
          logger,
          lastUsed: new LastUsedRecorder(svc.store.db, 60_000),
          config: { publicUrl: PUBLIC_URL, host: '127.0.0.1' },
          mcpTools: new ToolSet(toolsFrom(capabilities.map((c) => (c.name === 'competitors.list' ? exploding : c)))),
        });
        const served = await serveApp(app);
        const revoked = await createApiKey(svc.store.db, { userId: svc.users.alice, projectId: null, name: 'logged?' });
        await revokeApiKey(svc.store.db, revoked.id);
        const random = generateKey();
        const flipped = svc.keys.carol.slice(0, -1) + (svc.keys.carol.endsWith('a') ? 'b' : 'a');
        const secrets = [svc.keys.alice, svc.keys.aliceBeta, svc.keys.bob, svc.keys.carol, revoked.key, random, flipped];
        const mcpUrl = `${served.base}/api/mcp`;
        try {
          for (const kind of CLIENT_KINDS) {
            for (const key of [svc.keys.alice, svc.keys.aliceBeta, svc.keys.carol]) {
              const session = await connect(kind, mcpUrl, key);
              await session.callTool('project_list', {});
              await session.callTool('pains_get', { sovId: 'sov_nope', project: 'alpha' });
              await session.callTool('competitors_list', {});
              await session.close();
            }
          }
          for (const token of [revoked.key, random, flipped, 'sgk_short']) {
            const res = await fetch(mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${token}` }, body: PING });
            assert.equal(res.status, 401);
          }
          const malformed = await fetch(mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${svc.keys.alice}` }, body: '{bad' });
          assert.equal(malformed.status, 400);
        } finally {
          await served.close();
        }

        assert.ok(lines.length > 20, `lines were captured (${lines.length})`);
        const parsed = lines.map((l) => JSON.parse(l));
        assert.ok(parsed.some((l) => l.msg === 'tool call failed'), 'the failing tool was logged');
        assert.ok(parsed.some((l) => l.msg === 'tool call'), 'tool calls were logged at debug level');
        for (const line of lines) {
          for (const secret of secrets) {
            assert.ok(!line.includes(secret), `a log line holds a key: ${line.slice(0, 300)}`);
            assert.ok(!line.includes(secret.slice(4)), `a log line holds a key body: ${line.slice(0, 300)}`);
          }
          assert.doesNotMatch(line, /bearer|basic /i, `a log line holds an Authorization header: ${line.slice(0, 300)}`);
          assert.doesNotMatch(line, /sgk_/, `a log line holds something key-shaped: ${line.slice(0, 300)}`);
        }
        const requests = parsed.filter((l) => l.msg === 'request');
        assert.ok(requests.length > 10);
        for (const l of requests) {
          assert.equal(l.path, '/api/mcp');
          assert.match(l.requestId, /^req_[0-9a-f]{24}$/);
        }
      });
    });
  });
}
