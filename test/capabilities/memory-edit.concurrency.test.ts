/**
 * memory.edit under concurrent calls (DESIGN §4: "Edits to one project are serialised (no lost
 * update under concurrent calls, on SQLite and PostgreSQL alike)"). Besides many calls through one
 * app, two independent stores (two SQLite connections / two PostgreSQL pools on one database)
 * stand in for two service processes behind a load balancer.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { sql } from 'kysely';
import { LastUsedRecorder } from '../../src/auth/api-keys.ts';
import type { ProjectMemory } from '../../src/domain/resources.ts';
import { createApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/logger.ts';
import { openStore, type Store } from '../../src/store/db.ts';
import { saveMemory } from '../../src/store/projects.ts';
import { smallBundle } from '../fixtures/small-bundle.ts';
import { memoryOf } from '../../src/ingest/bundle.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';

/** The memory of a fixture project exactly as project.memory must show it after the import. */
function fixtureMemory(id: string): ProjectMemory {
  return memoryOf(smallBundle().projects.find((x) => x.id === id)!);
}

interface Reply {
  status: number;
  body: any;
}

type Invoke = (body: unknown) => Promise<Reply>;

/** An invoke function over an app built on its own store, as a second process would have. */
function appOn(store: Store, key: string): Invoke {
  const app = createApp({ store, logger: createLogger('silent'), lastUsed: new LastUsedRecorder(store.db, 60_000) });
  return async (body) => {
    const res = await app.request('/api/v1/invoke', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
}

const addRule = (rule: string) => ({ capability: 'memory.edit', input: { edits: [{ op: 'add_filter_rule', rule }] } });

for (const dialect of DIALECTS) {
  describe(`memory.edit under concurrency (${dialect})`, () => {
    let svc: TestService;
    let storeA: Store;
    let storeB: Store;
    before(async () => {
      svc = await startService(dialect);
      storeA = openStore(svc.database.url);
      storeB = openStore(svc.database.url);
    });
    after(async () => {
      await storeA.close();
      await storeB.close();
      await svc.close();
    });
    beforeEach(async () => {
      await saveMemory(svc.store.db, 'prj_alpha', fixtureMemory('prj_alpha'), [], new Date().toISOString());
    });

    async function alphaMemory(): Promise<ProjectMemory> {
      const res = await svc.invoke(svc.keys.alice, { capability: 'project.memory' });
      assert.equal(res.status, 200);
      return res.body.data.memory;
    }

    test('40 concurrent calls through one app each add a rule: all succeed, none is lost', async () => {
      const rules = Array.from({ length: 40 }, (_, i) => `concurrent rule ${i}`);
      const replies = await Promise.all(rules.map((rule) => svc.invoke(svc.keys.alice, addRule(rule))));
      replies.forEach((r, i) => assert.deepEqual({ status: r.status, body: r.body }, { status: 200, body: { data: { applied: [`Added filter rule "${rules[i]}".`] } } }));
      const memory = await alphaMemory();
      assert.deepEqual([...memory.filterRules].sort(), ['ignore memes', ...rules].sort());
      // Nothing else in the memory was touched by the interleaving.
      assert.deepEqual({ ...memory, filterRules: [] }, { ...fixtureMemory('prj_alpha'), filterRules: [] });
    });

    test('30 + 30 interleaved calls through two apps on two independent stores: all 60 kept, no error', async () => {
      const viaA = appOn(storeA, svc.keys.alice);
      const viaB = appOn(storeB, svc.keys.alice);
      const calls: Promise<Reply>[] = [];
      const rules: string[] = [];
      for (let i = 0; i < 30; i++) {
        rules.push(`A${i}`, `B${i}`);
        calls.push(viaA(addRule(`A${i}`)), viaB(addRule(`B${i}`)));
      }
      const replies = await Promise.all(calls);
      replies.forEach((r, i) =>
        assert.deepEqual({ status: r.status, body: r.body }, { status: 200, body: { data: { applied: [`Added filter rule "${rules[i]}".`] } } }),
      );
      const memory = await alphaMemory();
      assert.equal(memory.filterRules.length, 61);
      assert.deepEqual([...memory.filterRules].sort(), ['ignore memes', ...rules].sort());
      if (dialect === 'sqlite') {
        // Taking the lock without blocking must leave each connection's busy timeout as it was.
        for (const s of [storeA, storeB, svc.store]) {
          const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(s.db);
          assert.deepEqual(rows, [{ timeout: 5000 }]);
        }
      }
    });

    test('the same rule sent 10 times at once over two stores is added exactly once; the others change nothing', async () => {
      const viaA = appOn(storeA, svc.keys.alice);
      const viaB = appOn(storeB, svc.keys.alice);
      const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? viaA : viaB)(addRule('only once'))));
      const ok = replies.filter((r) => r.status === 200);
      const refused = replies.filter((r) => r.status !== 200);
      assert.equal(ok.length, 1);
      assert.deepEqual(ok[0]!.body, { data: { applied: ['Added filter rule "only once".'] } });
      assert.equal(refused.length, 9);
      for (const r of refused) {
        assert.deepEqual(r, { status: 400, body: { error: { code: 'invalid', message: 'edits[0]: filter rule "only once" already exists' } } });
      }
      assert.deepEqual((await alphaMemory()).filterRules, ['ignore memes', 'only once']);
    });

    test('10 different communities at once over two stores: exactly 4 fit beside r/SaaS, 6 hit the limit', async () => {
      const viaA = appOn(storeA, svc.keys.alice);
      const viaB = appOn(storeB, svc.keys.alice);
      const names = Array.from({ length: 10 }, (_, i) => `r/c${i}`);
      const replies = await Promise.all(
        names.map((name, i) => (i % 2 === 0 ? viaA : viaB)({ capability: 'memory.edit', input: { edits: [{ op: 'add_community', name, description: name }] } })),
      );
      const added = names.filter((_, i) => replies[i]!.status === 200);
      assert.equal(added.length, 4);
      for (const [i, r] of replies.entries()) {
        if (r.status === 200) assert.deepEqual(r.body, { data: { applied: [`Started watching community "${names[i]}".`] } });
        else assert.deepEqual(r, { status: 409, body: { error: { code: 'limit', message: 'edits[0]: a project watches at most 5 communities; remove one first' } } });
      }
      const memory = await alphaMemory();
      assert.deepEqual(memory.communities.map((c) => c.name).sort(), ['r/SaaS', ...added].sort());
    });

    test('concurrent edits of different fields over two stores keep every field', async () => {
      const viaA = appOn(storeA, svc.keys.alice);
      const viaB = appOn(storeB, svc.keys.alice);
      const edit = (edits: unknown[]) => ({ capability: 'memory.edit', input: { edits } });
      const replies = await Promise.all([
        viaA(edit([{ op: 'set_product', text: 'Product from A.' }])),
        viaB(edit([{ op: 'set_icp', text: 'Customer from B.' }])),
        viaA(edit([{ op: 'add_competitor', name: 'Acme', url: 'https://acme.example', description: 'From A.' }])),
        viaB(edit([{ op: 'add_offering', name: 'Audit', description: 'From B.' }])),
        viaA(edit([{ op: 'remove_community', name: 'saas' }])),
        viaB(edit([{ op: 'remove_filter_rule', rule: 'ignore memes' }])),
      ]);
      assert.deepEqual(replies.map((r) => r.status), [200, 200, 200, 200, 200, 200]);
      const expected = fixtureMemory('prj_alpha');
      expected.description = 'Product from A.';
      expected.idealCustomer = 'Customer from B.';
      expected.competitors.push({ name: 'Acme', url: 'https://acme.example', description: 'From A.' });
      expected.offerings.push({ name: 'Audit', description: 'From B.' });
      expected.communities = [];
      expected.filterRules = [];
      assert.deepEqual(await alphaMemory(), expected);
    });
  });
}
