/**
 * The MCP endpoint's error paths (DESIGN §6): a capability error is a tool result the model can
 * read (`isError: true`, text "<code>: <message>", structuredContent { error: { code, message } }),
 * the same code and message /api/v1/invoke gives, through the v2 client (both eras) and the v1
 * client (which validates structuredContent against the outputSchema even on errors, and must not
 * throw); protocol-level faults are JSON-RPC errors; an internal error never shows its cause.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { capabilities, findCapability, isAgentInvokable } from '../../src/capabilities/registry.ts';
import type { Capability } from '../../src/capabilities/types.ts';
import { INTERNAL_MESSAGE } from '../../src/domain/errors.ts';
import { createApp } from '../../src/http/app.ts';
import { toolName, toolsFrom, ToolSet } from '../../src/mcp/tools.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { capturedLogger } from '../helpers/logs.ts';
import { serveApp } from '../helpers/serve.ts';

const ACCEPT = 'application/json, text/event-stream';
const NO_PROJECT = 'No project yet: create one first (dashboard or `signals project create`).';
const PARSE_ERROR = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not JSON of at most 1 MiB.' } };
const METHOD_NOT_ALLOWED = { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed: this endpoint is stateless, POST JSON-RPC messages.' } };

type ClientKind = 'v2 legacy' | 'v2 pin 2026-07-28' | 'v1';
const CLIENT_KINDS: ClientKind[] = ['v2 legacy', 'v2 pin 2026-07-28', 'v1'];

interface Session {
  listTools(): Promise<unknown>;
  callTool(name: string, args: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

async function connect(kind: ClientKind, url: string, key: string): Promise<Session> {
  const requestInit = { headers: { Authorization: `Bearer ${key}` } };
  if (kind === 'v1') {
    const v1 = new V1Client({ name: 'mcp-error-test', version: '1.0.0' });
    await v1.connect(new V1Transport(new URL(url), { requestInit }));
    return { listTools: () => v1.listTools(), callTool: (name, args) => v1.callTool({ name, arguments: args }), close: () => v1.close() };
  }
  const mode = kind === 'v2 legacy' ? 'legacy' : { pin: '2026-07-28' };
  const v2 = new Client({ name: 'mcp-error-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  await v2.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
  return { listTools: () => v2.listTools(), callTool: (name, args) => v2.callTool({ name, arguments: args }), close: () => v2.close() };
}

/** The three parts of an error result, exactly. */
function assertToolError(result: any, code: string, message: string, context: string) {
  assert.deepEqual(
    { isError: result.isError, content: result.content, structuredContent: result.structuredContent },
    { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }], structuredContent: { error: { code, message } } },
    context,
  );
}

interface ErrorCase {
  what: string;
  tool: string;
  args: Record<string, unknown>;
  code: string;
  message: string;
}

/** Capability errors with their exact texts; each is also checked against /api/v1/invoke. */
const CAPABILITY_ERRORS: ErrorCase[] = [
  { what: 'pains_get with an unknown sovId', tool: 'pains_get', args: { sovId: 'sov_nope' }, code: 'not_found', message: 'no theme "sov_nope" in this project' },
  { what: 'pains_sources naming an unknown theme', tool: 'pains_sources', args: { sovIds: ['sov_a1', 'sov_zz'] }, code: 'not_found', message: 'no theme "sov_zz" in this project' },
  { what: 'briefs_get with n beyond the numbered items', tool: 'briefs_get', args: { n: 99 }, code: 'not_found', message: 'no signal number 99 in the recent briefs' },
  { what: 'briefs_get without n', tool: 'briefs_get', args: {}, code: 'invalid', message: 'input.n: Invalid input: expected number, received undefined' },
  { what: 'posts_get with neither id nor permalink', tool: 'posts_get', args: {}, code: 'invalid', message: 'input: give `permalink` or `id`' },
  { what: 'search with no word in the query', tool: 'search', args: { query: '?!' }, code: 'invalid', message: 'input.query: give at least one word (letters or digits) to search for' },
  { what: 'fetch with an unknown theme id', tool: 'fetch', args: { id: 'theme:sov_nope' }, code: 'not_found', message: 'no document "theme:sov_nope" in this project' },
  { what: 'posts_get with an unknown id', tool: 'posts_get', args: { id: 'zzz999' }, code: 'not_found', message: 'no post "zzz999" in this project' },
  { what: 'briefs_list with limit 99 (1 to 5)', tool: 'briefs_list', args: { limit: 99 }, code: 'invalid', message: 'input.limit: Too big: expected number to be <=5' },
  { what: 'pains_list with a string page', tool: 'pains_list', args: { type: 'pain', page: '2' }, code: 'invalid', message: 'input.page: Invalid input: expected number, received string' },
  { what: 'pains_list without its required type', tool: 'pains_list', args: {}, code: 'invalid', message: 'input.type: Invalid option: expected one of "pain"|"competitor"' },
  {
    what: 'project_memory with a field outside the enum',
    tool: 'project_memory',
    args: { field: 'everything' },
    code: 'invalid',
    message: 'input.field: Invalid option: expected one of "product"|"icp"|"communities"|"competitors"|"offerings"|"filter_rules"',
  },
  { what: 'an unknown argument', tool: 'competitors_list', args: { bogus: 1 }, code: 'invalid', message: 'input: unknown property "bogus"' },
  { what: 'runs_get with an unknown run', tool: 'runs_get', args: { runId: 'run_nope' }, code: 'not_found', message: 'no run "run_nope"' },
  { what: 'a project matching none of the caller\'s projects', tool: 'briefs_list', args: { project: 'nomatch.example' }, code: 'forbidden', message: 'No project of yours has a URL containing "nomatch.example".' },
];

/** A valid input per project-scoped read capability (generated coverage below needs one each). */
const VALID: Record<string, Record<string, unknown>> = {
  'project.memory': { field: 'icp' },
  'briefs.list': {},
  'briefs.get': { n: 1 },
  'pains.list': { type: 'competitor' },
  'pains.get': { sovId: 'sov_a1' },
  'pains.sources': {},
  'posts.get': { id: 'p1' },
  'competitors.list': {},
  'project.list': {},
  'runs.get': { runId: 'run_a1' },
  search: { query: 'webhooks' },
  fetch: { id: 'post:p1' },
};

for (const dialect of DIALECTS) {
  describe(`MCP endpoint, errors (${dialect})`, () => {
    let svc: TestService;
    let url: string;
    const rawPost = (body: string, key: string | null = svc.keys.alice, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT, ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
        body,
      });

    before(async () => {
      svc = await startService(dialect);
      url = `${await svc.listen()}/api/mcp`;
    });
    after(async () => {
      await svc.close();
    });

    test('the tables cover every read capability', () => {
      assert.deepEqual(Object.keys(VALID).sort(), capabilities.filter(isAgentInvokable).map((c) => c.name).sort());
    });

    test('each capability error has the code and message /api/v1/invoke gives for the same call', async () => {
      for (const c of CAPABILITY_ERRORS) {
        const { project, ...input } = c.args;
        const res = await svc.invoke(svc.keys.alice, { capability: c.tool.replace('_', '.'), input, ...(project === undefined ? {} : { project }) });
        assert.deepEqual(res.body, { error: { code: c.code, message: c.message } }, c.what);
      }
    });

    for (const kind of CLIENT_KINDS) {
      describe(`${kind} client`, () => {
        let alice: Session;
        let carol: Session;
        before(async () => {
          alice = await connect(kind, url, svc.keys.alice);
          carol = await connect(kind, url, svc.keys.carol);
          // The v1 client caches output schemas from tools/list and validates results against them.
          await alice.listTools();
          await carol.listTools();
        });
        after(async () => {
          await alice.close();
          await carol.close();
        });

        for (const c of CAPABILITY_ERRORS) {
          test(`${c.what} → isError result "${c.code}: …" (the client does not throw)`, async () => {
            assertToolError(await alice.callTool(c.tool, c.args), c.code, c.message, c.what);
          });
        }

        test('a non-string project → isError invalid', async () => {
          assertToolError(await alice.callTool('project_memory', { project: 42 }), 'invalid', 'project: expected a string (part of a project URL)', 'project 42');
        });

        test('an unknown tool, and the write capability memory.edit, are JSON-RPC InvalidParams errors, not results', async () => {
          for (const name of ['nope', 'memory_edit', 'pains.list']) {
            await assert.rejects(alice.callTool(name, {}), (err: any) => {
              assert.equal(err.code, -32602, name);
              assert.match(err.message, new RegExp(`Unknown tool: ${name.replace('.', '\\.')}`));
              return true;
            });
          }
        });

        test('carol (no project) calling any project tool → isError not_found "No project yet"', async () => {
          for (const capability of capabilities.filter((c) => isAgentInvokable(c) && c.scope === 'project')) {
            const name = toolName(capability.name);
            assertToolError(await carol.callTool(name, VALID[capability.name]!), 'not_found', NO_PROJECT, name);
            // With project too: she owns nothing that could match.
            assertToolError(await carol.callTool(name, { ...VALID[capability.name]!, project: 'alpha' }), 'forbidden', 'No project of yours has a URL containing "alpha".', name);
          }
          // Account-wide tools still work for her.
          const list = await carol.callTool('project_list', {});
          assert.equal(list.isError, undefined);
          assert.deepEqual(list.structuredContent, { projects: [] });
          assert.deepEqual(list.content, [{ type: 'text', text: '- No projects yet.' }]);
          assertToolError(await carol.callTool('runs_get', { runId: 'run_a1' }), 'not_found', 'no run "run_a1"', 'carol runs_get');
        });

        test('a project matching nothing → isError forbidden on every project tool; account-wide tools ignore it', async () => {
          for (const capability of capabilities.filter(isAgentInvokable)) {
            const name = toolName(capability.name);
            const result = await alice.callTool(name, { ...VALID[capability.name]!, project: 'no-such-project' });
            if (capability.scope === 'project') {
              assertToolError(result, 'forbidden', 'No project of yours has a URL containing "no-such-project".', name);
            } else {
              assert.equal(result.isError, undefined, `${name} ignores project`);
              assert.equal(typeof result.structuredContent, 'object');
            }
          }
        });
      });
    }

    describe('raw HTTP', () => {
      test('the spec §4.5 tools/call shape with a failing capability answers a result with isError (HTTP 200)', async () => {
        const res = await rawPost(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'briefs_get', arguments: { n: 0 } } }));
        assert.equal(res.status, 200);
        assert.deepEqual(await res.json(), {
          jsonrpc: '2.0',
          id: 3,
          result: {
            isError: true,
            content: [{ type: 'text', text: 'invalid: input.n: Too small: expected number to be >=1' }],
            structuredContent: { error: { code: 'invalid', message: 'input.n: Too small: expected number to be >=1' } },
          },
        });
      });

      test('an unknown tool over raw JSON-RPC is error -32602 for that id', async () => {
        const res = await rawPost(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'nope', arguments: {} } }));
        assert.equal(res.status, 200);
        assert.deepEqual(await res.json(), { jsonrpc: '2.0', id: 9, error: { code: -32602, message: 'Unknown tool: nope' } });
      });

      test('2026-07-28: a Mcp-Method header disagreeing with the body → HTTP 400, JSON-RPC -32020', async () => {
        const meta = {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        };
        const body = JSON.stringify({ jsonrpc: '2.0', id: 'm1', method: 'tools/call', params: { name: 'project_list', arguments: {}, _meta: meta } });
        const res = await rawPost(body, svc.keys.alice, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list', 'mcp-name': 'project_list' });
        assert.equal(res.status, 400);
        const answer = await res.json();
        assert.equal(answer.jsonrpc, '2.0');
        assert.equal(answer.error.code, -32020);
        assert.equal(answer.result, undefined);
      });

      test('an unknown method is error -32601', async () => {
        const res = await rawPost(JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'resources/list' }));
        assert.equal(res.status, 200);
        const body = await res.json();
        assert.equal(body.id, 10);
        assert.equal(body.error.code, -32601);
      });

      test('a malformed JSON body → HTTP 400 JSON-RPC parse error', async () => {
        for (const body of ['{not json', '', '{"jsonrpc": "2.0", "id": 1,']) {
          const res = await rawPost(body);
          assert.equal(res.status, 400, JSON.stringify(body));
          assert.equal(res.headers.get('content-type'), 'application/json');
          assert.deepEqual(await res.json(), PARSE_ERROR);
        }
      });

      test('a body over 1 MiB → HTTP 400 JSON-RPC parse error', async () => {
        const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024) } });
        const res = await rawPost(big);
        assert.equal(res.status, 400);
        assert.deepEqual(await res.json(), PARSE_ERROR);
      });

      test('JSON that is not a JSON-RPC message → HTTP 400 invalid request', async () => {
        const res = await rawPost('{"hello": "world"}');
        assert.equal(res.status, 400);
        const body = await res.json();
        assert.equal(body.jsonrpc, '2.0');
        assert.equal(body.id, null);
        assert.equal(body.error.code, -32600);
      });

      test('credentials are checked before the body is parsed: a malformed body without a key is 401', async () => {
        const res = await rawPost('{not json', null);
        assert.equal(res.status, 401);
      });

      for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) {
        test(`${method} → 405 with Allow: POST (with or without a key)`, async () => {
          for (const key of [svc.keys.alice, null]) {
            const res = await fetch(url, { method, headers: { accept: ACCEPT, ...(key ? { authorization: `Bearer ${key}` } : {}) } });
            assert.equal(res.status, 405);
            assert.equal(res.headers.get('allow'), 'POST');
            assert.deepEqual(await res.json(), METHOD_NOT_ALLOWED);
          }
        });
      }
    });

    describe('an internal error never shows its cause', () => {
      const { logger, lines } = capturedLogger('info');
      let served: { base: string; close: () => Promise<void> };
      before(async () => {
        const exploding = { ...findCapability('competitors.list')!, run: async () => { throw new Error('secret cause'); } } as Capability;
        const app = createApp({
          store: svc.store,
          logger,
          lastUsed: svc.lastUsed,
          config: { publicUrl: 'http://localhost:8080', host: '127.0.0.1' },
          mcpTools: new ToolSet(toolsFrom(capabilities.map((c) => (c.name === 'competitors.list' ? exploding : c)))),
        });
        served = await serveApp(app);
      });
      after(async () => {
        await served.close();
      });

      for (const kind of CLIENT_KINDS) {
        test(`${kind} client: isError "internal: <generic message>", the cause absent`, async () => {
          const session = await connect(kind, `${served.base}/api/mcp`, svc.keys.alice);
          try {
            await session.listTools();
            const result = await session.callTool('competitors_list', {});
            assertToolError(result, 'internal', INTERNAL_MESSAGE, kind);
            assert.ok(!JSON.stringify(result).includes('secret cause'));
            // The other tools are unaffected.
            const ok = await session.callTool('project_list', {});
            assert.equal(ok.isError, undefined);
          } finally {
            await session.close();
          }
        });
      }

      test('raw: the HTTP body never holds the cause; the log does, under the response\'s Request-Id', async () => {
        const res = await fetch(`${served.base}/api/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${svc.keys.alice}` },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'competitors_list', arguments: {} } }),
        });
        assert.equal(res.status, 200);
        const text = await res.text();
        assert.ok(!text.includes('secret cause'), text);
        assert.ok(!/\bat .*\.ts:\d+/.test(text), 'no stack trace in the answer');
        assert.deepEqual(JSON.parse(text).result.structuredContent, { error: { code: 'internal', message: INTERNAL_MESSAGE } });
        const requestId = res.headers.get('request-id');
        assert.match(requestId ?? '', /^req_[0-9a-f]{24}$/);
        const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.requestId === requestId && l.msg === 'tool call failed');
        assert.equal(logged.length, 1, 'one error line for the failed call');
        assert.equal(logged[0].tool, 'competitors.list');
        assert.match(JSON.stringify(logged[0].err), /secret cause/);
      });
    });
  });
}
