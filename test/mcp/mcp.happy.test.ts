/**
 * The MCP endpoint, happy paths (spec §4.5, DESIGN §6), through real clients on a real socket:
 *  - the official v2 client in its three era modes (legacy 2025-11-25 `initialize`, `auto` and a
 *    2026-07-28 pin, both of which start with `server/discover`) and the v1 client;
 *  - tools/list: exactly the read tools (spec §4.5 and DESIGN §11 search and fetch), each fully described; no write capability;
 *  - every tool, generated from the registry, answers exactly what POST /api/v1/invoke answers
 *    (`structuredContent` = `data`, text = the text rendering or compact JSON), with and without
 *    `project`;
 *  - raw JSON-RPC: initialize, ping and tools/call answer plain JSON, never a session id;
 *  - a capability added to a capability list becomes a tool with no other change.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { capabilities, findCapability, inputJsonSchema, isAgentInvokable, outputJsonSchema } from '../../src/capabilities/registry.ts';
import { projectCapability, type Capability } from '../../src/capabilities/types.ts';
import { ERROR_CODES } from '../../src/domain/errors.ts';
import { createApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/logger.ts';
import { SERVER_INFO } from '../../src/mcp/server.ts';
import { toolName, toolsFrom, ToolSet } from '../../src/mcp/tools.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { serveApp } from '../helpers/serve.ts';

/** Spec §4.5, verbatim. */
const SPEC_TOOLS = [
  'pains_list',
  'pains_get',
  'pains_sources',
  'briefs_list',
  'briefs_get',
  'posts_get',
  'competitors_list',
  'project_memory',
  'project_list',
  'runs_get',
  // DESIGN §11: the two tools ChatGPT's deep research and company knowledge use.
  'search',
  'fetch',
];
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const ACCEPT = 'application/json, text/event-stream';

type ClientKind = 'v2 legacy' | 'v2 auto' | 'v2 pin 2026-07-28' | 'v1';
const CLIENT_KINDS: ClientKind[] = ['v2 legacy', 'v2 auto', 'v2 pin 2026-07-28', 'v1'];

interface Seen {
  method: string;
  status: number;
  contentType: string | null;
  sessionId: string | null;
}

/** One connected client of either SDK, plus every HTTP response it received. */
interface Session {
  kind: ClientKind;
  v2?: Client;
  v1?: V1Client;
  v1Transport?: V1Transport;
  seen: Seen[];
  listTools(): Promise<{ tools: any[] }>;
  callTool(name: string, args: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

async function connect(kind: ClientKind, url: string, key: string): Promise<Session> {
  const seen: Seen[] = [];
  const recordingFetch = async (input: string | URL | Request, init?: RequestInit) => {
    const res = await fetch(input, init);
    seen.push({ method: init?.method ?? 'GET', status: res.status, contentType: res.headers.get('content-type'), sessionId: res.headers.get('mcp-session-id') });
    return res;
  };
  const requestInit = { headers: { Authorization: `Bearer ${key}` } };
  if (kind === 'v1') {
    const v1 = new V1Client({ name: 'mcp-happy-test', version: '1.0.0' });
    const v1Transport = new V1Transport(new URL(url), { requestInit, fetch: recordingFetch });
    await v1.connect(v1Transport);
    return {
      kind,
      v1,
      v1Transport,
      seen,
      listTools: () => v1.listTools(),
      callTool: (name, args) => v1.callTool({ name, arguments: args }),
      close: () => v1.close(),
    };
  }
  const mode = kind === 'v2 legacy' ? 'legacy' : kind === 'v2 auto' ? 'auto' : { pin: MODERN };
  const v2 = new Client({ name: 'mcp-happy-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  await v2.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit, fetch: recordingFetch }));
  return {
    kind,
    v2,
    seen,
    listTools: () => v2.listTools(),
    callTool: (name, args) => v2.callTool({ name, arguments: args }),
    close: () => v2.close(),
  };
}

/**
 * One call case per read capability of the registry: an input valid in alice's default project
 * (prj_alpha) and one valid in prj_beta (sent with `project: "beta"`). Every tool must have a row.
 */
const CALLS: Record<string, { alpha: Record<string, unknown>; beta: Record<string, unknown> }> = {
  'project.memory': { alpha: {}, beta: {} },
  'project.list': { alpha: {}, beta: {} },
  'briefs.list': { alpha: { limit: 2 }, beta: { limit: 2 } },
  'briefs.get': { alpha: { n: 2 }, beta: { n: 2 } },
  'pains.list': { alpha: { type: 'pain', sort: 'posts', pageSize: 2 }, beta: { type: 'pain', sort: 'posts', pageSize: 2 } },
  'pains.get': { alpha: { sovId: 'sov_a1' }, beta: { sovId: 'sov_beta1' } },
  'pains.sources': { alpha: { sovIds: ['sov_a2', 'sov_a1'] }, beta: {} },
  'posts.get': { alpha: { permalink: 'https://www.reddit.com/r/SaaS/comments/p1/billing_is_painful?utm_source=x' }, beta: { id: 't3_q1' } },
  'runs.get': { alpha: { runId: 'run_beta1' }, beta: { runId: 'run_beta1' } },
  'competitors.list': { alpha: {}, beta: {} },
  search: { alpha: { query: 'webhooks' }, beta: { query: 'beta thread' } },
  fetch: { alpha: { id: 'post:p1' }, beta: { id: 'post:q1' } },
};

const readCapabilities = () => capabilities.filter(isAgentInvokable);

function withoutDialect(schema: Record<string, unknown>) {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

/** What POST /api/v1/invoke answers for the same call, as the MCP result must look. */
async function expectedResult(svc: TestService, key: string, capability: Capability, input: Record<string, unknown>, project?: string) {
  const res = await svc.invoke(key, { capability: capability.name, input, ...(project === undefined ? {} : { project }), render: 'text' });
  assert.equal(res.status, 200, `${capability.name} via invoke: ${JSON.stringify(res.body).slice(0, 300)}`);
  if (capability.text) assert.equal(typeof res.body.text, 'string', `${capability.name} has a text form`);
  else assert.equal(res.body.text, undefined, `${capability.name} has no text form`);
  return { data: res.body.data, text: capability.text ? (res.body.text as string) : JSON.stringify(res.body.data) };
}

function assertSuccess(result: any, expected: { data: unknown; text: string }, context: string) {
  assert.ok(!result.isError, `${context}: ${JSON.stringify(result).slice(0, 300)}`);
  assert.deepEqual(result.content, [{ type: 'text', text: expected.text }], context);
  assert.deepEqual(result.structuredContent, expected.data, context);
}

for (const dialect of DIALECTS) {
  describe(`MCP endpoint, happy paths (${dialect})`, () => {
    let svc: TestService;
    let url: string;

    before(async () => {
      svc = await startService(dialect);
      url = `${await svc.listen()}/api/mcp`;
    });
    after(async () => {
      await svc.close();
    });

    test('the call table covers every read capability of the registry and nothing else', () => {
      assert.deepEqual(Object.keys(CALLS).sort(), readCapabilities().map((c) => c.name).sort());
      assert.deepEqual(readCapabilities().map((c) => toolName(c.name)).sort(), [...SPEC_TOOLS].sort());
    });

    for (const kind of CLIENT_KINDS) {
      describe(`${kind} client`, () => {
        let session: Session;
        before(async () => {
          session = await connect(kind, url, svc.keys.alice);
        });
        after(async () => {
          await session.close();
        });

        test('connects in the expected protocol era and sees the server info and tools capability', async () => {
          if (kind === 'v1') {
            assert.deepEqual(session.v1!.getServerVersion(), SERVER_INFO);
            assert.deepEqual(session.v1!.getServerCapabilities(), { tools: { listChanged: false } });
            assert.equal(session.v1Transport!.protocolVersion, LEGACY);
            return;
          }
          const client = session.v2!;
          assert.deepEqual(client.getServerVersion(), SERVER_INFO);
          assert.deepEqual(client.getServerCapabilities(), { tools: { listChanged: false } });
          assert.match(client.getInstructions() ?? '', /briefs_list/);
          if (kind === 'v2 legacy') {
            assert.equal(client.getNegotiatedProtocolVersion(), LEGACY);
            assert.equal(client.getProtocolEra(), 'legacy');
            assert.equal(client.getDiscoverResult(), undefined);
          } else {
            // auto and pin both probed with server/discover and settled on the modern revision.
            assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
            assert.equal(client.getProtocolEra(), 'modern');
            const discovered = client.getDiscoverResult();
            assert.ok(discovered, 'server/discover answered');
            assert.deepEqual(discovered.supportedVersions, [MODERN]);
            assert.deepEqual(discovered.capabilities, { tools: { listChanged: false } });
            // An explicit server/discover works on the modern connection too.
            const again = await client.discover();
            assert.deepEqual(again.supportedVersions, [MODERN]);
            assert.deepEqual(again.capabilities, { tools: { listChanged: false } });
          }
        });

        test('tools/list returns exactly the read tools (the ten of spec §4.5, search and fetch) and no write capability', async () => {
          const { tools } = await session.listTools();
          assert.deepEqual(tools.map((t) => t.name).sort(), [...SPEC_TOOLS].sort());
          assert.equal(new Set(tools.map((t) => t.name)).size, 12);
          for (const c of capabilities.filter((c) => c.kind === 'write')) {
            assert.ok(!tools.some((t) => t.name === toolName(c.name)), `write capability ${c.name} is listed`);
          }
          assert.ok(!tools.some((t) => t.name === 'memory_edit'));
        });

        test('each tool has the title, description, input schema + optional project (closed), output schema and read-only annotations', async () => {
          const { tools } = await session.listTools();
          for (const c of readCapabilities()) {
            const tool = tools.find((t) => t.name === toolName(c.name));
            assert.ok(tool, `${c.name} is listed`);
            assert.equal(tool.title, c.title, c.name);
            assert.equal(typeof tool.title, 'string');
            assert.ok(tool.title.length > 0);
            assert.equal(tool.description, c.description, c.name);
            assert.deepEqual(tool.annotations, READ_ONLY, c.name);

            const own = inputJsonSchema(c) as { properties?: Record<string, unknown>; required?: string[] };
            const input = tool.inputSchema;
            assert.equal(input.type, 'object', c.name);
            assert.equal(input.additionalProperties, false, c.name);
            assert.deepEqual(Object.keys(input.properties).sort(), [...Object.keys(own.properties ?? {}), 'project'].sort(), c.name);
            for (const [name, schema] of Object.entries(own.properties ?? {})) assert.deepEqual(input.properties[name], schema, `${c.name}.${name}`);
            assert.equal(input.properties.project.type, 'string', c.name);
            assert.equal(typeof input.properties.project.description, 'string');
            assert.deepEqual(input.required ?? [], own.required ?? [], `${c.name}: project is optional, the capability's own fields keep their rule`);

            const output = tool.outputSchema;
            assert.equal(output.type, 'object', c.name);
            assert.equal(output.anyOf.length, 2, c.name);
            assert.deepEqual(output.anyOf[0], withoutDialect(outputJsonSchema(c)), `${c.name}: the capability's output schema`);
            // The error result is admitted too, so that clients validating it do not throw.
            assert.deepEqual(output.anyOf[1].required, ['error']);
            assert.deepEqual(output.anyOf[1].properties.error.properties.code.enum, [...ERROR_CODES]);
          }
        });

        test('the schemas say what the spec says for the capabilities with bounded inputs', async () => {
          const { tools } = await session.listTools();
          const byName = new Map(tools.map((t) => [t.name, t]));
          const briefsList = byName.get('briefs_list').inputSchema.properties.limit;
          assert.deepEqual([briefsList.type, briefsList.minimum, briefsList.maximum, briefsList.default], ['integer', 1, 5, 3]);
          assert.deepEqual(byName.get('briefs_get').inputSchema.required, ['n']);
          const painsList = byName.get('pains_list').inputSchema;
          assert.deepEqual(painsList.required, ['type']);
          assert.deepEqual(painsList.properties.type.enum, ['pain', 'competitor']);
          assert.deepEqual([painsList.properties.pageSize.minimum, painsList.properties.pageSize.maximum, painsList.properties.pageSize.default], [1, 100, 25]);
          assert.deepEqual(painsList.properties.sort.enum, ['recent', 'posts']);
          assert.deepEqual(byName.get('pains_get').inputSchema.required, ['sovId']);
          assert.deepEqual(byName.get('runs_get').inputSchema.required, ['runId']);
          assert.deepEqual(Object.keys(byName.get('posts_get').inputSchema.properties).sort(), ['id', 'permalink', 'project']);
          assert.deepEqual(byName.get('project_memory').inputSchema.properties.field.enum, ['product', 'icp', 'communities', 'competitors', 'offerings', 'filter_rules']);
          assert.deepEqual(Object.keys(byName.get('project_list').inputSchema.properties), ['project']);
          // DESIGN §11: the bounds that keep a big project's answers readable.
          const competitors = byName.get('competitors_list').inputSchema.properties.limit;
          assert.deepEqual([competitors.type, competitors.minimum, competitors.maximum, competitors.default], ['integer', 1, 200, 50]);
          const comments = byName.get('pains_sources').inputSchema.properties.commentsPerThread;
          assert.deepEqual([comments.type, comments.minimum, comments.maximum, comments.default], ['integer', 0, 1000, 200]);
        });

        test('every tool answers what /api/v1/invoke answers, without project and with project "beta"', async () => {
          const { tools } = await session.listTools();
          for (const tool of tools) {
            const capability = findCapability(tool.name.replaceAll('_', '.'));
            assert.ok(capability, `${tool.name} maps to a capability`);
            const row = CALLS[capability.name];
            assert.ok(row, `no call case for tool ${tool.name}: add one to CALLS`);

            const alphaExpected = await expectedResult(svc, svc.keys.alice, capability, row.alpha);
            const alpha = await session.callTool(tool.name, row.alpha);
            assertSuccess(alpha, alphaExpected, `${tool.name} without project`);

            const betaExpected = await expectedResult(svc, svc.keys.alice, capability, row.beta, 'beta');
            const beta = await session.callTool(tool.name, { ...row.beta, project: 'beta' });
            assertSuccess(beta, betaExpected, `${tool.name} with project "beta"`);

            if (capability.scope === 'project') {
              // The project argument really switched projects.
              assert.notDeepEqual(alpha.structuredContent, beta.structuredContent, tool.name);
            } else {
              // Account-wide tools ignore it.
              assert.deepEqual(alpha.structuredContent, beta.structuredContent, tool.name);
            }
          }
        });

        test('the answers hold the fixture values (default project alpha, "beta" switches)', async () => {
          const memory = await session.callTool('project_memory', {});
          assert.equal(memory.structuredContent.memory.id, 'prj_alpha');
          assert.equal(memory.structuredContent.field, null);
          const betaMemory = await session.callTool('project_memory', { project: 'BETA.example', field: 'product' });
          assert.deepEqual(betaMemory.structuredContent, {
            memory: { id: 'prj_beta', name: 'Beta', url: 'https://beta.example.org', description: '', category: '' },
            field: 'product',
          });
          const projects = await session.callTool('project_list', {});
          assert.deepEqual(
            projects.structuredContent.projects.map((p: { id: string }) => p.id),
            ['prj_alpha', 'prj_beta'],
          );
          const post = await session.callTool('posts_get', { id: 'p1' });
          assert.equal(post.structuredContent.post.title, 'Billing is painful');
          // DESIGN §11: posts.get's text is the thread itself.
          assert.ok(post.content[0].text.includes(post.structuredContent.post.content), post.content[0].text);
          const item = await session.callTool('briefs_get', { n: 1, project: 'beta' });
          assert.deepEqual([item.structuredContent.n, item.structuredContent.when, item.structuredContent.kind], [1, 'Nov 8 – Nov 9', 'content']);
          const run = await session.callTool('runs_get', { runId: 'run_a1' });
          assert.equal(run.structuredContent.projectId, 'prj_alpha');
          assert.match(run.content[0].text, /^- Run run_a1 of Alpha \(prj_alpha\): complete\n/);
        });

        test('every HTTP answer the client received was plain JSON with no session id', async () => {
          await session.callTool('competitors_list', {});
          const posts = session.seen.filter((s) => s.method === 'POST');
          assert.ok(posts.length >= 3);
          for (const s of posts) {
            assert.ok(s.status === 200 || s.status === 202, `status ${s.status}`);
            if (s.status === 200) assert.equal(s.contentType, 'application/json', `${kind}: a response was ${s.contentType}`);
            assert.equal(s.sessionId, null);
          }
          // 2025-era clients try a GET for a server-to-client stream; a stateless endpoint has none.
          for (const s of session.seen.filter((s) => s.method !== 'POST')) assert.deepEqual([s.method, s.status, s.sessionId], ['GET', 405, null]);
        });
      });
    }

    describe('raw JSON-RPC over fetch', () => {
      const post = (body: unknown, headers: Record<string, string> = {}) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${svc.keys.alice}`, ...headers },
          body: JSON.stringify(body),
        });

      test('initialize (2025-11-25) answers serverInfo and the tools capability as plain JSON, no session id', async () => {
        const res = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'application/json');
        assert.equal(res.headers.get('mcp-session-id'), null);
        assert.match(res.headers.get('request-id') ?? '', /^req_[0-9a-f]{24}$/);
        const body = await res.json();
        assert.equal(typeof body.result.instructions, 'string');
        delete body.result.instructions;
        assert.deepEqual(body, {
          jsonrpc: '2.0',
          id: 1,
          result: { protocolVersion: LEGACY, capabilities: { tools: { listChanged: false } }, serverInfo: SERVER_INFO },
        });
      });

      test('notifications/initialized is accepted with 202 and no body', async () => {
        const res = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-protocol-version': LEGACY });
        assert.equal(res.status, 202);
        assert.equal(await res.text(), '');
        assert.equal(res.headers.get('mcp-session-id'), null);
      });

      test('ping answers an empty result as plain JSON', async () => {
        const res = await post({ jsonrpc: '2.0', id: 'ping-1', method: 'ping' }, { 'mcp-protocol-version': LEGACY });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'application/json');
        assert.equal(res.headers.get('mcp-session-id'), null);
        assert.deepEqual(await res.json(), { jsonrpc: '2.0', id: 'ping-1', result: {} });
      });

      test('tools/call in the request shape of spec §4.5 answers { content: [text], structuredContent } (stateless: no initialize first)', async () => {
        const expected = await expectedResult(svc, svc.keys.alice, findCapability('briefs.get')!, { n: 3 });
        const res = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'briefs_get', arguments: { n: 3 } } });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'application/json');
        assert.deepEqual(await res.json(), { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: expected.text }], structuredContent: expected.data } });
      });

      test('tools/list over raw JSON-RPC lists the same tools', async () => {
        const res = await post({ jsonrpc: '2.0', id: 8, method: 'tools/list', params: {} });
        assert.equal(res.status, 200);
        const body = await res.json();
        assert.deepEqual(body.result.tools.map((t: { name: string }) => t.name).sort(), [...SPEC_TOOLS].sort());
      });

      test('server/discover (2026-07-28) with the per-request envelope answers plain JSON', async () => {
        const meta = {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        };
        const res = await post(
          { jsonrpc: '2.0', id: 'd1', method: 'server/discover', params: { _meta: meta } },
          { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' },
        );
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'application/json');
        assert.equal(res.headers.get('mcp-session-id'), null);
        const body = await res.json();
        assert.equal(body.jsonrpc, '2.0');
        assert.equal(body.id, 'd1');
        assert.deepEqual(body.result.supportedVersions, [MODERN]);
        assert.deepEqual(body.result.capabilities, { tools: { listChanged: false } });
        assert.deepEqual(body.result._meta['io.modelcontextprotocol/serverInfo'], SERVER_INFO);

        const expected = await expectedResult(svc, svc.keys.alice, findCapability('pains.get')!, { sovId: 'sov_beta1' }, 'beta');
        const call = await post(
          { jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'pains_get', arguments: { sovId: 'sov_beta1', project: 'beta' }, _meta: meta } },
          { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'pains_get' },
        );
        assert.equal(call.status, 200);
        assert.equal(call.headers.get('content-type'), 'application/json');
        const result = (await call.json()).result;
        assert.deepEqual(result.content, [{ type: 'text', text: expected.text }]);
        assert.deepEqual(result.structuredContent, expected.data);
      });
    });

    describe('a capability added to the capability list appears as a tool with no other change', () => {
      const noteInput = z.strictObject({
        word: z.string().min(1).max(20).describe('A word to repeat.'),
        times: z.number().int().min(1).max(3).default(1).describe('How many times, 1 to 3.'),
      });
      const noteOutput = z.object({ projectId: z.string(), words: z.array(z.string()) });
      const fakeRead = projectCapability({
        name: 'notes.echo',
        title: 'Echo a word',
        kind: 'read',
        scope: 'project',
        description: 'Repeats a word, naming the project it ran in.',
        input: noteInput,
        output: noteOutput,
        async run({ project }, input) {
          return { projectId: project.memory.id, words: Array.from({ length: input.times }, () => input.word) };
        },
      }) as unknown as Capability;
      const fakeWrite = projectCapability({
        name: 'notes.write',
        title: 'Write a note',
        kind: 'write',
        scope: 'project',
        description: 'Writes a note.',
        input: z.strictObject({ text: z.string() }),
        output: z.object({ applied: z.array(z.string()) }),
        async run() {
          throw new Error('a write tool must never run through MCP');
        },
      }) as unknown as Capability;

      let served: { base: string; close: () => Promise<void> };
      before(async () => {
        const app = createApp({
          store: svc.store,
          logger: createLogger('silent'),
          lastUsed: svc.lastUsed,
          config: { publicUrl: 'http://localhost:8080', host: '127.0.0.1' },
          mcpTools: new ToolSet(toolsFrom([...capabilities, fakeRead, fakeWrite])),
        });
        served = await serveApp(app);
      });
      after(async () => {
        await served.close();
      });

      for (const kind of ['v2 pin 2026-07-28', 'v2 legacy', 'v1'] as const) {
        test(`${kind}: the new read tool is listed with its schemas and callable; the new write one is not listed`, async () => {
          const session = await connect(kind, `${served.base}/api/mcp`, svc.keys.alice);
          try {
            const { tools } = await session.listTools();
            assert.deepEqual(tools.map((t) => t.name).sort(), [...SPEC_TOOLS, 'notes_echo'].sort());
            const tool = tools.find((t) => t.name === 'notes_echo');
            assert.equal(tool.title, 'Echo a word');
            assert.equal(tool.description, 'Repeats a word, naming the project it ran in.');
            assert.deepEqual(tool.annotations, READ_ONLY);
            assert.deepEqual(tool.inputSchema.required, ['word']);
            assert.equal(tool.inputSchema.additionalProperties, false);
            assert.deepEqual(Object.keys(tool.inputSchema.properties).sort(), ['project', 'times', 'word']);
            assert.deepEqual(tool.inputSchema.properties.word, { type: 'string', minLength: 1, maxLength: 20, description: 'A word to repeat.' });
            assert.deepEqual(tool.inputSchema.properties.times, { type: 'integer', minimum: 1, maximum: 3, default: 1, description: 'How many times, 1 to 3.' });
            assert.deepEqual(tool.outputSchema.anyOf[0], {
              type: 'object',
              properties: { projectId: { type: 'string' }, words: { type: 'array', items: { type: 'string' } } },
              required: ['projectId', 'words'],
              additionalProperties: false,
            });

            const inBeta = await session.callTool('notes_echo', { word: 'hi', times: 2, project: 'beta' });
            const data = { projectId: 'prj_beta', words: ['hi', 'hi'] };
            assert.deepEqual({ isError: inBeta.isError, content: inBeta.content, structuredContent: inBeta.structuredContent }, {
              isError: undefined,
              content: [{ type: 'text', text: JSON.stringify(data) }],
              structuredContent: data,
            });
            const byDefault = await session.callTool('notes_echo', { word: 'yo' });
            assert.deepEqual(byDefault.structuredContent, { projectId: 'prj_alpha', words: ['yo'] });
            // Its schema is enforced like any capability's.
            const bad = await session.callTool('notes_echo', { word: 'x', times: 4 });
            assert.equal(bad.isError, true);
            assert.equal(bad.structuredContent.error.code, 'invalid');

            await assert.rejects(session.callTool('notes_write', { text: 'no' }), (err: any) => err.code === -32602 && /Unknown tool: notes_write/.test(err.message));
          } finally {
            await session.close();
          }
        });
      }

      test('the service built from the registry alone does not have the new tool', async () => {
        const session = await connect('v2 legacy', url, svc.keys.alice);
        try {
          const { tools } = await session.listTools();
          assert.ok(!tools.some((t) => t.name === 'notes_echo'));
          await assert.rejects(session.callTool('notes_echo', { word: 'hi' }), (err: any) => err.code === -32602);
        } finally {
          await session.close();
        }
      });
    });
  });
}
