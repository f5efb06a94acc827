/**
 * GET /api/v1/capabilities (spec §4.4, DESIGN §4 "Discovery"), on every dialect: every capability
 * of the registry once, with its kind, scope, agentInvokable flag, description and a JSON Schema
 * 2020-12 input schema that carries the spec's bounds — and that the service accepts what the
 * published schema accepts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { capabilities, findCapability } from '../../src/capabilities/registry.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';

const SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** Spec §4.2 (scope) and §4.4/DESIGN (kind): written out here, not read from the registry. */
const EXPECTED: Record<string, { kind: 'read' | 'write'; scope: 'project' | 'user' }> = {
  'project.memory': { kind: 'read', scope: 'project' },
  'project.list': { kind: 'read', scope: 'user' },
  'briefs.list': { kind: 'read', scope: 'project' },
  'briefs.get': { kind: 'read', scope: 'project' },
  'pains.list': { kind: 'read', scope: 'project' },
  'pains.get': { kind: 'read', scope: 'project' },
  'pains.sources': { kind: 'read', scope: 'project' },
  'posts.get': { kind: 'read', scope: 'project' },
  'runs.get': { kind: 'read', scope: 'user' },
  'competitors.list': { kind: 'read', scope: 'project' },
  search: { kind: 'read', scope: 'project' },
  fetch: { kind: 'read', scope: 'project' },
  'memory.edit': { kind: 'write', scope: 'project' },
};

const EDIT_OPS = [
  'set_product',
  'set_icp',
  'add_competitor',
  'remove_competitor',
  'add_offering',
  'remove_offering',
  'add_community',
  'remove_community',
  'add_filter_rule',
  'remove_filter_rule',
];

type JsonSchema = Record<string, any>;

interface Entry {
  name: string;
  kind: string;
  scope: string;
  agentInvokable: boolean;
  description: string;
  inputSchema: JsonSchema;
}

/** Every `properties` map in a schema, with where it is. */
function* propertyMaps(schema: unknown, path = 'inputSchema'): Generator<[string, Record<string, JsonSchema>]> {
  if (Array.isArray(schema)) {
    for (const [i, s] of schema.entries()) yield* propertyMaps(s, `${path}[${i}]`);
    return;
  }
  if (schema === null || typeof schema !== 'object') return;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      yield [path, value as Record<string, JsonSchema>];
      for (const [name, sub] of Object.entries(value)) yield* propertyMaps(sub, `${path}.properties.${name}`);
    } else {
      yield* propertyMaps(value, `${path}.${key}`);
    }
  }
}

/** Values the fixture makes real, so a sampled request reads existing data (200, not 404). */
const FIXTURE_STRINGS: Record<string, string> = {
  sovId: 'sov_a1',
  sovIds: 'sov_a1',
  runId: 'run_a1',
  id: 'p1',
  permalink: '/r/SaaS/comments/p1/billing_is_painful/',
  query: 'webhooks',
  // fetch's `id` is a search result id, not a raw post id.
  'fetch.id': 'post:p1',
};

/**
 * A value built from a published JSON Schema alone: `required` mode fills required properties and
 * those with a `default`; `all` mode fills every property. Strings are unique across samples so
 * that sampled memory edits always change something.
 */
let sampled = 0;
function sampler() {
  // The capability's name comes in on the first call; nested calls name the property.
  const sample = (schema: JsonSchema, name: string, mode: 'required' | 'all', capability = name): unknown => {
    if ('const' in schema) return schema.const;
    if ('default' in schema) return schema.default;
    if (Array.isArray(schema.enum)) return schema.enum[0];
    if (Array.isArray(schema.oneOf)) return sample(schema.oneOf[0], name, mode, capability);
    switch (schema.type) {
      case 'object': {
        const required = new Set<string>(schema.required ?? []);
        const out: Record<string, unknown> = {};
        for (const [key, sub] of Object.entries<JsonSchema>(schema.properties ?? {})) {
          if (mode === 'all' || required.has(key) || 'default' in sub) out[key] = sample(sub, key, mode, capability);
        }
        return out;
      }
      case 'array':
        return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => sample(schema.items, name, mode, capability));
      case 'integer':
      case 'number':
        return schema.minimum ?? 1;
      case 'string': {
        const fixture = FIXTURE_STRINGS[`${capability}.${name}`] ?? FIXTURE_STRINGS[name];
        if (fixture) return fixture;
        assert.equal(schema.pattern, undefined, `cannot sample a patterned string (${name})`);
        return `sample ${++sampled}`.padEnd(schema.minLength ?? 0, 'x');
      }
      default:
        throw new Error(`cannot sample schema of ${name}: ${JSON.stringify(schema)}`);
    }
  };
  return sample;
}

for (const dialect of DIALECTS) {
  describe(`GET /api/v1/capabilities (${dialect})`, () => {
    let svc: TestService;
    let listed: Entry[];
    const byName = (name: string) => {
      const entry = listed.find((e) => e.name === name);
      assert.ok(entry, `${name} is not listed`);
      return entry;
    };
    const props = (name: string) => byName(name).inputSchema.properties as Record<string, JsonSchema>;

    before(async () => {
      svc = await startService(dialect);
      const answer = await svc.request('/api/v1/capabilities', { headers: { authorization: `Bearer ${svc.keys.alice}` } });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      listed = answer.body.capabilities;
    });
    after(() => svc.close());

    test('answers JSON { capabilities } with a Request-Id', async () => {
      const answer = await svc.request('/api/v1/capabilities', { headers: { authorization: `Bearer ${svc.keys.alice}` } });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('content-type')?.split(';')[0], 'application/json');
      assert.match(answer.headers.get('request-id') ?? '', /^req_[0-9a-f]{24}$/);
      assert.deepEqual(Object.keys(answer.body), ['capabilities']);
    });

    test('lists every registry capability exactly once, in registry order', () => {
      assert.deepEqual(
        listed.map((e) => e.name),
        capabilities.map((c) => c.name),
      );
      assert.equal(new Set(listed.map((e) => e.name)).size, listed.length);
      // The spec's table and the registry agree: no capability missing on either side.
      assert.deepEqual(listed.map((e) => e.name).sort(), Object.keys(EXPECTED).sort());
    });

    test('each entry is exactly { name, kind, scope, agentInvokable, description, inputSchema } with the spec values', () => {
      for (const entry of listed) {
        const capability = findCapability(entry.name)!;
        const expected = EXPECTED[entry.name]!;
        assert.deepEqual(Object.keys(entry).sort(), ['agentInvokable', 'description', 'inputSchema', 'kind', 'name', 'scope'], entry.name);
        assert.equal(entry.kind, expected.kind, entry.name);
        assert.equal(entry.scope, expected.scope, entry.name);
        assert.equal(entry.agentInvokable, expected.kind === 'read', entry.name);
        assert.equal(entry.description, capability.description, entry.name);
        assert.ok(entry.description.trim().length >= 20, `${entry.name}: a real description`);
        assert.equal(typeof entry.inputSchema, 'object');
      }
    });

    test('memory.edit is a write and not agent-invokable; every other capability is an invokable read', () => {
      assert.deepEqual(
        listed.filter((e) => e.kind === 'write').map((e) => [e.name, e.agentInvokable]),
        [['memory.edit', false]],
      );
      for (const e of listed.filter((x) => x.name !== 'memory.edit')) assert.deepEqual([e.kind, e.agentInvokable], ['read', true], e.name);
    });

    test('every inputSchema is JSON Schema 2020-12: type object, additionalProperties false, described properties', () => {
      for (const { name, inputSchema } of listed) {
        assert.equal(inputSchema.$schema, SCHEMA_2020_12, name);
        assert.equal(inputSchema.type, 'object', name);
        assert.equal(inputSchema.additionalProperties, false, name);
        assert.equal(typeof inputSchema.properties, 'object', name);
        for (const required of inputSchema.required ?? []) assert.ok(required in inputSchema.properties, `${name}: required "${required}" is a property`);
        let seen = 0;
        for (const [where, properties] of propertyMaps(inputSchema)) {
          for (const [property, schema] of Object.entries(properties)) {
            seen += 1;
            assert.equal(typeof schema.description, 'string', `${name} ${where}.${property} has no description`);
            assert.ok(schema.description.trim().length > 0, `${name} ${where}.${property} has an empty description`);
          }
        }
        assert.equal(seen > 0, Object.keys(inputSchema.properties).length > 0, name);
      }
    });

    test('capabilities without input publish an empty closed object', () => {
      const { $schema, ...rest } = byName('project.list').inputSchema;
      assert.equal($schema, SCHEMA_2020_12);
      assert.deepEqual(rest, { type: 'object', properties: {}, additionalProperties: false });
    });

    test('competitors.list: limit is an optional integer 1..200, default 50 (DESIGN §11)', () => {
      const { limit } = props('competitors.list');
      assert.deepEqual([limit!.type, limit!.minimum, limit!.maximum, limit!.default], ['integer', 1, 200, 50]);
      assert.deepEqual(byName('competitors.list').inputSchema.required ?? [], []);
    });

    test('pains.sources: commentsPerThread is an optional integer 0..1000, default 200 (DESIGN §11)', () => {
      const { commentsPerThread } = props('pains.sources');
      assert.deepEqual([commentsPerThread!.type, commentsPerThread!.minimum, commentsPerThread!.maximum, commentsPerThread!.default], ['integer', 0, 1000, 200]);
    });

    test('briefs.list: limit is an optional integer 1..5, default 3', () => {
      const { limit } = props('briefs.list');
      assert.deepEqual([limit!.type, limit!.minimum, limit!.maximum, limit!.default], ['integer', 1, 5, 3]);
      assert.deepEqual(byName('briefs.list').inputSchema.required ?? [], []);
    });

    test('briefs.get: n is a required integer >= 1', () => {
      const { n } = props('briefs.get');
      assert.deepEqual([n!.type, n!.minimum], ['integer', 1]);
      assert.deepEqual(byName('briefs.get').inputSchema.required, ['n']);
    });

    test('pains.list: type enum [pain, competitor] required; page >= 1 default 1; pageSize 1..100 default 25; sort enum default recent', () => {
      const p = props('pains.list');
      assert.deepEqual(Object.keys(p).sort(), ['page', 'pageSize', 'sort', 'type']);
      assert.deepEqual([p.type!.type, p.type!.enum], ['string', ['pain', 'competitor']]);
      assert.deepEqual(byName('pains.list').inputSchema.required, ['type']);
      assert.deepEqual([p.page!.type, p.page!.minimum, p.page!.default], ['integer', 1, 1]);
      assert.deepEqual([p.pageSize!.type, p.pageSize!.minimum, p.pageSize!.maximum, p.pageSize!.default], ['integer', 1, 100, 25]);
      assert.deepEqual([p.sort!.type, p.sort!.enum, p.sort!.default], ['string', ['recent', 'posts'], 'recent']);
    });

    test('project.memory: field is an optional enum of the six parts', () => {
      const { field } = props('project.memory');
      assert.deepEqual(field!.enum, ['product', 'icp', 'communities', 'competitors', 'offerings', 'filter_rules']);
      assert.deepEqual(byName('project.memory').inputSchema.required ?? [], []);
    });

    test('pains.get, runs.get: their id is a required string; pains.sources: sovIds an optional array of 1..25', () => {
      assert.deepEqual(byName('pains.get').inputSchema.required, ['sovId']);
      assert.equal(props('pains.get').sovId!.type, 'string');
      assert.deepEqual(byName('runs.get').inputSchema.required, ['runId']);
      assert.equal(props('runs.get').runId!.type, 'string');
      const { sovIds } = props('pains.sources');
      assert.deepEqual([sovIds!.type, sovIds!.minItems, sovIds!.maxItems, sovIds!.items.type], ['array', 1, 25, 'string']);
      assert.deepEqual(byName('pains.sources').inputSchema.required ?? [], []);
      assert.deepEqual(Object.keys(props('posts.get')).sort(), ['id', 'permalink']);
    });

    test('memory.edit: edits is a required array of 1..64, one closed oneOf branch per operation (10)', () => {
      const schema = byName('memory.edit').inputSchema;
      assert.deepEqual(schema.required, ['edits']);
      const { edits } = props('memory.edit');
      assert.deepEqual([edits!.type, edits!.minItems, edits!.maxItems], ['array', 1, 64]);
      const branches: JsonSchema[] = edits!.items.oneOf;
      assert.equal(branches.length, 10);
      assert.deepEqual(
        branches.map((b) => b.properties.op.const),
        EDIT_OPS,
      );
      const fields: Record<string, string[]> = {
        set_product: ['text'],
        set_icp: ['text'],
        add_competitor: ['name', 'url', 'description'],
        remove_competitor: ['name'],
        add_offering: ['name', 'description'],
        remove_offering: ['name'],
        add_community: ['name', 'description'],
        remove_community: ['name'],
        add_filter_rule: ['rule'],
        remove_filter_rule: ['rule'],
      };
      for (const branch of branches) {
        const op = branch.properties.op.const as string;
        assert.equal(branch.type, 'object', op);
        assert.equal(branch.additionalProperties, false, op);
        assert.deepEqual(branch.required, ['op', ...fields[op]!], op);
        assert.deepEqual(Object.keys(branch.properties), ['op', ...fields[op]!], op);
        for (const field of fields[op]!) assert.equal(branch.properties[field].type, 'string', `${op}.${field}`);
      }
    });

    test('the published schemas carry the bounds the service enforces', async () => {
      const cases: [string, Record<string, unknown>, boolean][] = [
        ['briefs.list', { limit: 1 }, true],
        ['briefs.list', { limit: 5 }, true],
        ['briefs.list', { limit: 0 }, false],
        ['briefs.list', { limit: 6 }, false],
        ['briefs.list', { limit: 2.5 }, false],
        ['pains.list', { type: 'pain', pageSize: 1, page: 1 }, true],
        ['pains.list', { type: 'pain', pageSize: 100 }, true],
        ['pains.list', { type: 'pain', pageSize: 0 }, false],
        ['pains.list', { type: 'pain', pageSize: 101 }, false],
        ['pains.list', { type: 'pain', page: 0 }, false],
        ['pains.list', { type: 'other' }, false],
        ['pains.list', { type: 'pain', sort: 'oldest' }, false],
        ['pains.list', {}, false],
        ['briefs.get', {}, false],
        ['briefs.get', { n: 0 }, false],
        ['memory.edit', { edits: [] }, false],
        ['memory.edit', { edits: Array.from({ length: 65 }, (_, i) => ({ op: 'add_filter_rule', rule: `r${i}` })) }, false],
        ['memory.edit', { edits: [{ op: 'rename_project', name: 'x' }] }, false],
        ['project.list', { extra: true }, false],
      ];
      for (const [name, input, valid] of cases) {
        const published = z.fromJSONSchema(byName(name).inputSchema as z.core.JSONSchema.JSONSchema);
        assert.equal(published.safeParse(input).success, valid, `published schema of ${name} on ${JSON.stringify(input).slice(0, 80)}`);
        if (!valid) {
          // What the schema refuses, the service refuses as `invalid` (before doing anything).
          const answer = await svc.invoke(svc.keys.alice, { capability: name, input });
          assert.equal(answer.status, 400, `${name} ${JSON.stringify(input).slice(0, 80)}: ${JSON.stringify(answer.body)}`);
          assert.equal(answer.body.error.code, 'invalid');
        }
      }
    });

    test('a request built from each published schema (required values and defaults) is accepted', async () => {
      const sample = sampler();
      for (const { name, inputSchema } of listed) {
        // posts.get needs one of permalink/id, which its schema states in words only (see below).
        if (name === 'posts.get') continue;
        const input = sample(inputSchema, name, 'required') as Record<string, unknown>;
        const published = z.fromJSONSchema(inputSchema as z.core.JSONSchema.JSONSchema);
        assert.ok(published.safeParse(input).success, `${name}: the sample ${JSON.stringify(input)} fits its own schema`);
        const answer = await svc.invoke(svc.keys.alice, { capability: name, input });
        assert.equal(answer.status, 200, `${name} ${JSON.stringify(input)}: ${JSON.stringify(answer.body)}`);
        assert.deepEqual(Object.keys(answer.body), ['data']);
      }
    });

    test('a request filling every property of each published schema is accepted', async () => {
      const sample = sampler();
      for (const { name, inputSchema } of listed) {
        const input = sample(inputSchema, name, 'all') as Record<string, unknown>;
        const published = z.fromJSONSchema(inputSchema as z.core.JSONSchema.JSONSchema);
        assert.ok(published.safeParse(input).success, `${name}: the sample ${JSON.stringify(input)} fits its own schema`);
        const answer = await svc.invoke(svc.keys.alice, { capability: name, input });
        assert.equal(answer.status, 200, `${name} ${JSON.stringify(input)}: ${JSON.stringify(answer.body)}`);
      }
    });

    test('posts.get: its schema and description tell that one of permalink and id is needed', () => {
      const entry = byName('posts.get');
      assert.deepEqual(entry.inputSchema.required ?? [], []);
      assert.match(entry.description, /permalink/);
      assert.match(entry.description, /one of the two/);
    });

    test('the list is the same for every key: untied, tied to a project, no project at all', async () => {
      for (const key of [svc.keys.aliceBeta, svc.keys.bob, svc.keys.carol]) {
        const answer = await svc.request('/api/v1/capabilities', { headers: { authorization: `Bearer ${key}` } });
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body, { capabilities: listed });
      }
    });

    test('the schemas are what the registry emits from each input schema', () => {
      for (const entry of listed) {
        const capability = findCapability(entry.name)!;
        assert.deepEqual(entry.inputSchema, z.toJSONSchema(capability.input, { io: 'input', target: 'draft-2020-12' }), entry.name);
      }
    });

    for (const [title, headers] of [
      ['without a key', {}],
      ['with an unknown key', { authorization: 'Bearer sgk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }],
      ['with a non-Bearer scheme', { authorization: 'Basic YWxpY2U6cGFzcw==' }],
    ] as const) {
      test(`${title}: 403 forbidden envelope, no capability listed`, async () => {
        const answer = await svc.request('/api/v1/capabilities', { headers: { ...headers } });
        assert.equal(answer.status, 403);
        assert.deepEqual(Object.keys(answer.body), ['error']);
        assert.deepEqual(Object.keys(answer.body.error).sort(), ['code', 'message']);
        assert.equal(answer.body.error.code, 'forbidden');
        assert.equal(typeof answer.body.error.message, 'string');
        assert.ok(answer.body.error.message.length > 0);
        assert.match(answer.headers.get('request-id') ?? '', /^req_[0-9a-f]{24}$/);
      });
    }
  });
}
