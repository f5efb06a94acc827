/**
 * Security of the HTTP API (spec §4.1 rules 1–3 and 5, §5, DESIGN §4 "Project selection" and
 * "Errors", §7 API keys):
 *  - the tenant matrix, generated from the capability registry: every capability must have a row
 *    below, so a new capability cannot be added without tenant-isolation coverage;
 *  - authentication: every kind of bad credential is 403 `forbidden`, revocation is immediate;
 *  - keys are stored only as SHA-256; secrets never reach the log.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createApiKey, generateKey, LastUsedRecorder, revokeApiKey } from '../../src/auth/api-keys.ts';
import { capabilities, findCapability } from '../../src/capabilities/registry.ts';
import { INTERNAL_MESSAGE } from '../../src/domain/errors.ts';
import { createApp } from '../../src/http/app.ts';
import { getProject } from '../../src/store/projects.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type Answer, type TestService } from '../helpers/service.ts';
import { capturedLogger } from '../helpers/logs.ts';

const REQUEST_ID = /^req_[0-9a-f]{24}$/;
const NO_KEY = 'Send your API key as "Authorization: Bearer <key>".';
const BAD_KEY = 'This API key is not recognized or has been revoked.';
const NO_PROJECT = 'No project yet: create one first (dashboard or `signals project create`).';
const notYours = (part: string) => `No project of yours has a URL containing "${part}".`;

/** Bob's post p1 (alice has a post with the same raw id, on purpose). */
const BOB_POST_URL = 'https://www.reddit.com/r/SaaS/comments/p1/bob_private_thread/';

/**
 * Strings that only bob's data contains (test/fixtures/small-bundle.ts) and that no input below
 * sends: none may appear in any answer to alice or carol.
 */
const BOB_DATA = [
  'prj_bob',
  'Bob Co',
  'Bob private thread',
  'Body of Bob',
  'Secret bob comment',
  'bobfan',
  'Bob pain',
  'Bob only',
  'sig_bob1',
  'brf_bob1',
  'bob content',
  'bob offers',
  'Post bob',
  'Nov 9 – Nov 10',
  'bob@example.com',
];
/** Strings only alice's data contains, for the other direction. */
const ALICE_DATA = ['prj_alpha', 'prj_beta', 'Alpha helps teams ship', 'Billing is painful', 'Failing billing webhooks', 'Stripe webhooks', 'Beta thread', 'alice@example.com'];

function assertNone(res: Answer, markers: string[], context: string) {
  const text = JSON.stringify(res.body);
  for (const marker of markers) assert.ok(!text.includes(marker), `${context}: the answer mentions "${marker}": ${text.slice(0, 400)}`);
}

function assertError(res: Answer, status: number, code: string, message: string) {
  assert.equal(res.status, status, JSON.stringify(res.body).slice(0, 400));
  assert.deepEqual(res.body, { error: { code, message } });
  assert.match(res.headers.get('request-id') ?? '', REQUEST_ID);
}

let ruleCounter = 0;
/** A filter rule no project has yet, so every memory.edit call changes something. */
const freshRuleEdit = () => ({ edits: [{ op: 'add_filter_rule', rule: `security rule ${++ruleCounter}` }] });

interface MatrixRow {
  /** A valid input; where the capability takes ids, they are ANOTHER account's (bob's). */
  foreign: () => Record<string, unknown>;
  /** `foreign` names bob's ids: alice in her own project must get not_found. */
  takesIds: boolean;
  /** Project-scoped rows: an input valid in prj_beta and a check that the answer is beta's. */
  beta?: { input: () => Record<string, unknown>; check: (data: any, input: Record<string, unknown>, svc: TestService) => void | Promise<void> };
}

/** The tenant matrix, one row per capability of the registry (checked below, both ways). */
const MATRIX: Record<string, MatrixRow> = {
  'project.memory': {
    foreign: () => ({}),
    takesIds: false,
    beta: {
      input: () => ({}),
      check: (data) => {
        assert.equal(data.memory.id, 'prj_beta');
        assert.equal(data.memory.name, 'Beta');
        assert.equal(data.memory.url, 'https://beta.example.org');
      },
    },
  },
  'project.list': { foreign: () => ({}), takesIds: false },
  'briefs.list': {
    foreign: () => ({ limit: 5 }),
    takesIds: false,
    beta: {
      input: () => ({ limit: 5 }),
      check: (data) => {
        assert.deepEqual(
          data.briefs.map((b: { window: string }) => b.window),
          ['Nov 8 – Nov 9'],
        );
        assert.equal(data.briefs[0].brief.sections[0].items[0].surfaced.summary, 'beta content a');
      },
    },
  },
  'briefs.get': {
    foreign: () => ({ n: 1 }),
    takesIds: false,
    beta: {
      input: () => ({ n: 3 }),
      check: (data) => {
        assert.equal(data.n, 3);
        assert.equal(data.when, 'Nov 8 – Nov 9');
        assert.equal(data.kind, 'offers');
        assert.equal(data.item.surfaced.summary, 'beta offers a');
      },
    },
  },
  'pains.list': {
    foreign: () => ({ type: 'pain' }),
    takesIds: false,
    beta: {
      input: () => ({ type: 'pain' }),
      check: (data) => {
        assert.deepEqual(
          data.rows.map((r: { id: string }) => r.id),
          ['sov_beta1'],
        );
        assert.equal(data.totalCount, 1);
      },
    },
  },
  'pains.get': {
    foreign: () => ({ sovId: 'sov_bob1' }),
    takesIds: true,
    beta: {
      input: () => ({ sovId: 'sov_beta1' }),
      check: (data) => {
        assert.equal(data.id, 'sov_beta1');
        assert.equal(data.title, 'Beta pain');
      },
    },
  },
  'pains.sources': {
    foreign: () => ({ sovIds: ['sov_bob1'] }),
    takesIds: true,
    beta: {
      input: () => ({ sovIds: ['sov_beta1'] }),
      check: (data) => {
        assert.deepEqual(
          data.sovs.map((s: { id: string }) => s.id),
          ['sov_beta1'],
        );
        assert.deepEqual(
          data.threads.map((t: { id: string; title: string }) => [t.id, t.title]),
          [['q1', 'Beta thread']],
        );
      },
    },
  },
  'posts.get': {
    foreign: () => ({ permalink: BOB_POST_URL }),
    takesIds: true,
    beta: {
      input: () => ({ id: 'q1' }),
      check: (data) => {
        assert.equal(data.post.id, 'q1');
        assert.equal(data.post.title, 'Beta thread');
      },
    },
  },
  'runs.get': { foreign: () => ({ runId: 'run_bob1' }), takesIds: true },
  'competitors.list': {
    foreign: () => ({}),
    takesIds: false,
    beta: {
      input: () => ({}),
      // beta tracks no competitor and has no competitor signal; alpha has several.
      check: (data) => assert.deepEqual(data, { competitors: [] }),
    },
  },
  search: {
    // Words only bob's thread holds: alice's project finds none of them.
    foreign: () => ({ query: 'secret bob', limit: 50 }),
    takesIds: false,
    beta: {
      input: () => ({ query: 'beta thread', limit: 50 }),
      check: (data) => {
        assert.ok(data.results.length > 0);
        for (const r of data.results) assert.match(r.id, /^(post:q1|signal:sig_beta1|theme:sov_beta1|brief:brf_beta1:\d\.\d)$/, r.id);
      },
    },
  },
  fetch: {
    foreign: () => ({ id: 'theme:sov_bob1' }),
    takesIds: true,
    beta: {
      input: () => ({ id: 'post:q1' }),
      check: (data) => {
        assert.equal(data.title, 'Beta thread');
        assert.match(data.text, /# Beta thread/);
      },
    },
  },
  'memory.edit': {
    foreign: freshRuleEdit,
    takesIds: false,
    beta: {
      input: freshRuleEdit,
      check: async (data, input, svc) => {
        const rule = (input.edits as { rule: string }[])[0]!.rule;
        assert.deepEqual(data, { applied: [`Added filter rule "${rule}".`] });
        assert.ok((await getProject(svc.store.db, 'prj_beta'))!.memory.filterRules.includes(rule));
        assert.ok(!(await getProject(svc.store.db, 'prj_alpha'))!.memory.filterRules.includes(rule));
        assert.ok(!(await getProject(svc.store.db, 'prj_bob'))!.memory.filterRules.includes(rule));
      },
    },
  },
};

describe('tenant matrix coverage', () => {
  test('every registry capability has a matrix row, and every row is a registry capability', () => {
    const names = capabilities.map((c) => c.name).sort();
    const missing = names.filter((n) => !(n in MATRIX));
    assert.deepEqual(missing, [], `add a tenant-matrix row for: ${missing.join(', ')}`);
    assert.deepEqual(Object.keys(MATRIX).sort(), names);
  });

  test('every project-scoped row can prove which project answered', () => {
    for (const c of capabilities) if (c.scope === 'project') assert.ok(MATRIX[c.name]?.beta, `${c.name} needs a beta check`);
  });
});

for (const dialect of DIALECTS) {
  describe(`invoke security (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startService(dialect);
    });
    after(() => svc.close());

    const call = (key: string, capability: string, input: Record<string, unknown>, project?: string) =>
      svc.invoke(key, project === undefined ? { capability, input } : { capability, input, project });
    const projectRow = async (id: string) => (await getProject(svc.store.db, id))!;

    test("the markers are bob's real data (so their absence means something)", async () => {
      const memory = await call(svc.keys.bob, 'project.memory', {});
      assert.equal(memory.body.data.memory.name, 'Bob Co');
      const post = await call(svc.keys.bob, 'posts.get', { id: 'p1' });
      assert.equal(post.body.data.post.title, 'Bob private thread');
      assert.match(post.body.data.post.content, /Secret bob comment/);
      const briefs = await call(svc.keys.bob, 'briefs.list', {});
      assert.deepEqual(JSON.stringify(briefs.body).includes('bob content'), true);
      const run = await call(svc.keys.bob, 'runs.get', { runId: 'run_bob1' });
      assert.equal(run.body.data.projectName, 'Bob Co');
    });

    // The matrix, generated from the registry: a capability with no row fails here.
    for (const capability of capabilities) {
      describe(`tenant matrix: ${capability.name} (${capability.scope})`, () => {
        const row = MATRIX[capability.name];

        test('has a matrix row', () => {
          assert.ok(row, `no tenant-matrix row for ${capability.name}`);
          if (capability.scope === 'project') assert.ok(row.beta, `no beta check for ${capability.name}`);
        });
        if (!row) return;

        if (capability.scope === 'project') {
          test("(a) alice naming bob's project is forbidden, learns nothing and changes nothing", async () => {
            const bobBefore = await projectRow('prj_bob');
            for (const part of ['bob.example.net', 'https://bob.example.net', 'BOB.EXAMPLE', 'bob', 'example.net']) {
              const res = await call(svc.keys.alice, capability.name, row.foreign(), part);
              assertError(res, 403, 'forbidden', notYours(part));
              assertNone(res, BOB_DATA, `${capability.name} with project ${part}`);
            }
            assert.deepEqual(await projectRow('prj_bob'), bobBefore);
          });

          test("(a') bob naming alice's project is forbidden and learns nothing", async () => {
            const alphaBefore = await projectRow('prj_alpha');
            for (const part of ['alpha.example.com', 'beta.example.org', 'alpha']) {
              const res = await call(svc.keys.bob, capability.name, row.foreign(), part);
              assertError(res, 403, 'forbidden', notYours(part));
              assertNone(res, ALICE_DATA, `bob: ${capability.name} with project ${part}`);
            }
            assert.deepEqual(await projectRow('prj_alpha'), alphaBefore);
          });

          test(
            row.takesIds ? "(b) alice asking for bob's ids in her own project gets not_found" : "(b) alice in her own project sees none of bob's data",
            async () => {
              for (const [key, project] of [
                [svc.keys.alice, undefined],
                [svc.keys.alice, 'alpha'],
                [svc.keys.alice, 'beta'],
                [svc.keys.aliceBeta, undefined],
              ] as const) {
                const res = await call(key, capability.name, row.foreign(), project);
                if (row.takesIds) {
                  assert.equal(res.status, 404, JSON.stringify(res.body));
                  assert.equal(res.body.error.code, 'not_found');
                  assert.match(res.body.error.message, /in this project$/);
                } else {
                  assert.equal(res.status, 200, JSON.stringify(res.body));
                }
                assertNone(res, BOB_DATA, `${capability.name} in alice's ${project ?? 'default'} project`);
              }
            },
          );

          test("(c) alice's tied key reads prj_beta whatever `project` says", async () => {
            for (const project of [undefined, 'alpha', 'alpha.example.com', 'bob', 'bob.example.net', 'nothing-matches']) {
              const input = row.beta!.input();
              const res = await call(svc.keys.aliceBeta, capability.name, input, project);
              assert.equal(res.status, 200, `project ${project}: ${JSON.stringify(res.body)}`);
              await row.beta!.check(res.body.data, input, svc);
              assertNone(res, BOB_DATA, `tied key, ${capability.name} with project ${project}`);
            }
          });

          test('(e) carol, with no project, gets not_found; naming a project gets forbidden', async () => {
            assertError(await call(svc.keys.carol, capability.name, row.foreign()), 404, 'not_found', NO_PROJECT);
            for (const part of ['alpha', 'bob.example.net']) {
              const res = await call(svc.keys.carol, capability.name, row.foreign(), part);
              assertError(res, 403, 'forbidden', notYours(part));
            }
          });
        } else {
          test('user-scoped: ignores `project` and answers only from the caller account', async () => {
            const plain = await call(svc.keys.alice, capability.name, row.foreign());
            for (const part of ['bob.example.net', 'alpha', 'nothing-matches']) {
              const res = await call(svc.keys.alice, capability.name, row.foreign(), part);
              assert.equal(res.status, plain.status);
              assert.deepEqual(res.body, plain.body);
              assertNone(res, BOB_DATA, `${capability.name} with project ${part}`);
            }
            if (row.takesIds) {
              // bob's ids are not alice's: not found, without a word of bob's data.
              assert.equal(plain.status, 404, JSON.stringify(plain.body));
              assert.equal(plain.body.error.code, 'not_found');
            } else {
              assert.equal(plain.status, 200, JSON.stringify(plain.body));
            }
            assertNone(plain, BOB_DATA, capability.name);
            const carol = await call(svc.keys.carol, capability.name, row.foreign(), 'bob.example.net');
            assertNone(carol, BOB_DATA, `carol: ${capability.name}`);
          });
        }
      });
    }

    test("posts.get by id p1: alice gets HER p1, never bob's", async () => {
      for (const [input, project] of [
        [{ id: 'p1' }, undefined],
        [{ id: 't3_p1' }, undefined],
        [{ id: 'p1' }, 'alpha'],
        [{ id: 'p1', permalink: BOB_POST_URL }, undefined], // with both, id is used
      ] as const) {
        const res = await call(svc.keys.alice, 'posts.get', input, project);
        assert.equal(res.status, 200);
        assert.equal(res.body.data.post.id, 'p1');
        assert.equal(res.body.data.post.title, 'Billing is painful');
        assertNone(res, BOB_DATA, `posts.get ${JSON.stringify(input)}`);
      }
      // bob's thread by its permalink (bare path too) is not alice's to read.
      for (const permalink of [BOB_POST_URL, '/r/SaaS/comments/p1/bob_private_thread', 'https://evil.example/r/SaaS/comments/p1/bob_private_thread/?x=1']) {
        const res = await call(svc.keys.alice, 'posts.get', { permalink });
        assert.equal(res.status, 404);
        assertNone(res, BOB_DATA, `posts.get permalink ${permalink}`);
      }
      // beta has no p1: the tied key finds nothing, not alpha's and not bob's.
      const tied = await call(svc.keys.aliceBeta, 'posts.get', { id: 'p1' }, 'alpha');
      assertError(tied, 404, 'not_found', 'no post "p1" in this project');
    });

    test("pains.sources mixing alice's and bob's ids is not_found naming bob's id, with no partial data", async () => {
      const res = await call(svc.keys.alice, 'pains.sources', { sovIds: ['sov_a1', 'sov_bob1'] });
      assertError(res, 404, 'not_found', 'no theme "sov_bob1" in this project');
      assertNone(res, [...BOB_DATA, 'Failing billing webhooks'], 'mixed pains.sources');
    });

    test('project selection only ever matches the caller’s own projects', async () => {
      // "example" is in all three URLs; alice gets her newest matching project, never bob's.
      const some = await call(svc.keys.alice, 'project.memory', {}, 'example');
      assert.equal(some.body.data.memory.id, 'prj_alpha');
      const beta = await call(svc.keys.alice, 'project.memory', {}, 'BETA.example');
      assert.equal(beta.body.data.memory.id, 'prj_beta');
      const bobs = await call(svc.keys.bob, 'project.memory', {}, 'example');
      assert.equal(bobs.body.data.memory.id, 'prj_bob');
      assertError(await call(svc.keys.alice, 'project.memory', {}, 'example.net'), 403, 'forbidden', notYours('example.net'));
    });

    test('(c) memory.edit through the tied key changes prj_beta only, whatever `project` says', async () => {
      const alphaBefore = await projectRow('prj_alpha');
      const bobBefore = await projectRow('prj_bob');
      const betaBefore = await projectRow('prj_beta');
      for (const project of ['alpha', 'bob.example.net']) {
        const res = await call(svc.keys.aliceBeta, 'memory.edit', { edits: [{ op: 'set_icp', text: `Tied-key ICP via ${project}` }] }, project);
        assert.equal(res.status, 200);
        assert.deepEqual(res.body, { data: { applied: ['Replaced the ideal-customer description.'] } });
      }
      assert.deepEqual(await projectRow('prj_alpha'), alphaBefore);
      assert.deepEqual(await projectRow('prj_bob'), bobBefore);
      const betaAfter = await projectRow('prj_beta');
      assert.equal(betaAfter.memory.idealCustomer, 'Tied-key ICP via bob.example.net');
      assert.notEqual(betaBefore.memory.idealCustomer, betaAfter.memory.idealCustomer);
    });

    test('(d) runs: bob cannot read alice’s runs, alice can', async () => {
      assertError(await call(svc.keys.bob, 'runs.get', { runId: 'run_a1' }), 404, 'not_found', 'no run "run_a1"');
      assertError(await call(svc.keys.bob, 'runs.get', { runId: 'run_beta1' }), 404, 'not_found', 'no run "run_beta1"');
      assertError(await call(svc.keys.carol, 'runs.get', { runId: 'run_a1' }), 404, 'not_found', 'no run "run_a1"');
      assertError(await call(svc.keys.alice, 'runs.get', { runId: 'run_bob1' }), 404, 'not_found', 'no run "run_bob1"');
      const own = await call(svc.keys.alice, 'runs.get', { runId: 'run_a1' });
      assert.equal(own.status, 200);
      assert.equal(own.body.data.id, 'run_a1');
      assert.equal(own.body.data.projectId, 'prj_alpha');
    });

    test('project.list lists only the caller’s projects', async () => {
      const ids = async (key: string) => (await call(key, 'project.list', {})).body.data.projects.map((p: { id: string }) => p.id);
      assert.deepEqual(await ids(svc.keys.alice), ['prj_alpha', 'prj_beta']);
      assert.deepEqual(await ids(svc.keys.bob), ['prj_bob']);
      assert.deepEqual(await ids(svc.keys.carol), []);
    });

    describe('authentication: every bad credential is 403 forbidden', () => {
      const capabilitiesWith = (headers: Record<string, string>) => svc.request('/api/v1/capabilities', { headers });
      const invokeWith = (headers: Record<string, string>) =>
        svc.request('/api/v1/invoke', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ capability: 'project.memory' }),
        });
      const both = async (headers: Record<string, string>, message: string) => {
        const invoke = await invokeWith(headers);
        assertError(invoke, 403, 'forbidden', message);
        assertNone(invoke, [...ALICE_DATA, ...BOB_DATA], JSON.stringify(headers));
        assertError(await capabilitiesWith(headers), 403, 'forbidden', message);
      };

      test('a missing Authorization header, or the key elsewhere', async () => {
        await both({}, NO_KEY);
        await both({ 'x-api-key': svc.keys.alice }, NO_KEY);
        await both({ cookie: `key=${svc.keys.alice}` }, NO_KEY);
        const query = await svc.request(`/api/v1/capabilities?key=${svc.keys.alice}`);
        assertError(query, 403, 'forbidden', NO_KEY);
      });

      test('a scheme other than Bearer', async () => {
        await both({ authorization: `Basic ${Buffer.from(`alice:${svc.keys.alice}`).toString('base64')}` }, NO_KEY);
        await both({ authorization: `Token ${svc.keys.alice}` }, NO_KEY);
        await both({ authorization: `Bearer: ${svc.keys.alice}` }, NO_KEY);
        await both({ authorization: svc.keys.alice }, NO_KEY);
      });

      test('an empty token', async () => {
        await both({ authorization: 'Bearer' }, NO_KEY);
        await both({ authorization: 'Bearer ' }, NO_KEY);
        await both({ authorization: 'Bearer     ' }, NO_KEY);
      });

      test('a wrong checksum, a truncated key, a random well-formed key, a re-cased key: one message for all', async () => {
        const key = svc.keys.alice;
        const flipped = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
        const bodyFlipped = key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11);
        for (const token of [flipped, bodyFlipped, key.slice(0, -1), key.slice(0, 20), generateKey(), key.toUpperCase(), `${key}a`, 'sgk_', 'x'.repeat(512)]) {
          await both({ authorization: `Bearer ${token}` }, BAD_KEY);
        }
      });

      test('a revoked key: the very next request is refused', async () => {
        const created = await createApiKey(svc.store.db, { userId: svc.users.alice, projectId: null, name: 'to revoke' });
        const ok = await svc.invoke(created.key, { capability: 'project.memory' });
        assert.equal(ok.status, 200);
        assert.equal((await capabilitiesWith({ authorization: `Bearer ${created.key}` })).status, 200);
        await revokeApiKey(svc.store.db, created.id);
        await both({ authorization: `Bearer ${created.key}` }, BAD_KEY);
        // The account's other keys are untouched.
        assert.equal((await svc.invoke(svc.keys.alice, { capability: 'project.memory' })).status, 200);
      });

      test('a revoked tied key is refused too', async () => {
        const created = await createApiKey(svc.store.db, { userId: svc.users.alice, projectId: 'prj_beta', name: 'tied, to revoke' });
        assert.equal((await svc.invoke(created.key, { capability: 'project.memory' })).body.data.memory.id, 'prj_beta');
        await revokeApiKey(svc.store.db, created.id);
        await both({ authorization: `Bearer ${created.key}` }, BAD_KEY);
      });

      test('GET /api/v1/capabilities with a valid key lists the registry', async () => {
        const res = await capabilitiesWith({ authorization: `Bearer ${svc.keys.carol}` });
        assert.equal(res.status, 200);
        assert.match(res.headers.get('request-id') ?? '', REQUEST_ID);
        assert.deepEqual(
          res.body.capabilities.map((c: { name: string }) => c.name),
          capabilities.map((c) => c.name),
        );
      });
    });

    describe('keys at rest', () => {
      test('api_keys holds only the SHA-256 of each key: no column of any row contains a key', async () => {
        const extra = await createApiKey(svc.store.db, { userId: svc.users.bob, projectId: 'prj_bob', name: 'at rest' });
        const plain = [svc.keys.alice, svc.keys.aliceBeta, svc.keys.bob, svc.keys.carol, extra.key];
        const rows = await svc.store.db.selectFrom('api_keys').selectAll().execute();
        assert.ok(rows.length >= plain.length);
        for (const row of rows) {
          for (const [column, value] of Object.entries(row)) {
            const text = String(value);
            for (const key of plain) {
              assert.ok(!text.includes(key), `api_keys.${column} holds a key`);
              assert.ok(!text.includes(key.slice(4)), `api_keys.${column} holds a key without its prefix`);
              assert.ok(!text.includes(key.slice(4, 16)), `api_keys.${column} holds a part of a key`);
            }
          }
        }
        const hashes = new Set(rows.map((r) => r.key_hash));
        for (const key of plain) {
          const sha = createHash('sha256').update(key).digest('hex');
          assert.ok(hashes.has(sha), 'a key has no row with its SHA-256');
          const row = rows.find((r) => r.key_hash === sha)!;
          assert.match(row.key_hash, /^[0-9a-f]{64}$/);
          assert.equal(row.last4, key.slice(-4));
        }
      });

      test('no table of the database holds a plaintext key', async () => {
        const plain = [svc.keys.alice, svc.keys.aliceBeta, svc.keys.bob, svc.keys.carol];
        const tables =
          svc.dialect === 'sqlite'
            ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(svc.store.db)).rows.map((r) => r.name)
            : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(svc.store.db)).rows.map(
                (r) => r.name,
              );
        assert.ok(tables.includes('api_keys'));
        for (const table of tables) {
          const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(svc.store.db)).rows;
          const text = JSON.stringify(rows);
          for (const key of plain) assert.ok(!text.includes(key.slice(4)), `table ${table} holds a key`);
        }
      });
    });

    describe('secrets never logged', () => {
      test('no log line holds a key or the Authorization header; every request line carries its requestId', async () => {
        const { logger, lines } = capturedLogger('trace');
        const app = createApp({ store: svc.store, logger, lastUsed: new LastUsedRecorder(svc.store.db, 60_000) });
        const revoked = await createApiKey(svc.store.db, { userId: svc.users.alice, projectId: null, name: 'logged?' });
        await revokeApiKey(svc.store.db, revoked.id);
        const random = generateKey();
        const flipped = svc.keys.bob.slice(0, -1) + (svc.keys.bob.endsWith('a') ? 'b' : 'a');
        const secrets = [svc.keys.alice, svc.keys.aliceBeta, svc.keys.bob, revoked.key, random, flipped];

        const capability = findCapability('competitors.list')!;
        const original = capability.run;
        Object.assign(capability, {
          run: async () => {
            throw new Error('exploded');
          },
        });
        const sent: { path: string; status: number; requestId: string }[] = [];
        const send = async (path: string, init: RequestInit, expectStatus: number) => {
          const res = await app.request(path, init);
          await res.text();
          assert.equal(res.status, expectStatus, `${init.method ?? 'GET'} ${path}`);
          sent.push({ path: path.split('?')[0]!, status: res.status, requestId: res.headers.get('request-id') ?? '' });
        };
        const invoke = (authorization: string | undefined, body: unknown, status: number, extra: Record<string, string> = {}) =>
          send(
            '/api/v1/invoke',
            {
              method: 'POST',
              headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}), ...extra },
              body: JSON.stringify(body),
            },
            status,
          );
        try {
          await invoke(`Bearer ${svc.keys.alice}`, { capability: 'project.memory', render: 'text' }, 200);
          await invoke(`Bearer ${svc.keys.aliceBeta}`, { capability: 'memory.edit', input: freshRuleEdit() }, 200);
          await invoke(`Bearer ${svc.keys.bob}`, { capability: 'posts.get', input: { id: 'p1' } }, 200);
          await invoke(`Bearer ${revoked.key}`, { capability: 'project.list' }, 403);
          await invoke(`Bearer ${random}`, { capability: 'project.list' }, 403);
          await invoke(`Bearer ${flipped}`, { capability: 'project.list' }, 403);
          await invoke(`Basic ${Buffer.from(`bob:${svc.keys.bob}`).toString('base64')}`, { capability: 'project.list' }, 403);
          await invoke(undefined, { capability: 'project.list', key: svc.keys.alice }, 403);
          await invoke(`Bearer ${svc.keys.alice}`, { capability: 'project.list', key: svc.keys.alice }, 400);
          await invoke(`Bearer ${svc.keys.alice}`, { capability: 'project.memory', project: 'bob.example.net' }, 403);
          await invoke(`Bearer ${svc.keys.alice}`, { capability: 'nope' }, 404);
          await invoke(`Bearer ${svc.keys.alice}`, { capability: 'competitors.list' }, 500);
          await invoke(`Bearer ${svc.keys.alice}`, { capability: 'project.list' }, 200, { 'request-id': 'caller-trace-0001' });
          await send(`/api/v1/capabilities?key=${svc.keys.bob}`, { headers: { authorization: `Bearer ${svc.keys.bob}` } }, 200);
          await send('/api/v1/capabilities', { headers: { authorization: `Bearer ${random}` } }, 403);
          await send('/api/v2/x', { headers: { authorization: `Bearer ${svc.keys.alice}` } }, 404);
        } finally {
          Object.assign(capability, { run: original });
        }

        assert.ok(lines.length >= sent.length);
        for (const line of lines) {
          for (const secret of secrets) {
            assert.ok(!line.includes(secret), `a log line holds a key: ${line.slice(0, 300)}`);
            assert.ok(!line.includes(secret.slice(4)), `a log line holds a key body: ${line.slice(0, 300)}`);
          }
          assert.doesNotMatch(line, /bearer|basic /i, `a log line holds an Authorization header: ${line.slice(0, 300)}`);
          assert.doesNotMatch(line, /sgk_/, `a log line holds something key-shaped: ${line.slice(0, 300)}`);
        }
        const requestLines = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
        assert.deepEqual(
          requestLines.map((l) => ({ path: l.path, status: l.status, requestId: l.requestId })),
          sent,
        );
        for (const l of requestLines) assert.match(l.requestId, /^(req_[0-9a-f]{24}|caller-trace-0001)$/);
        assert.equal(requestLines.filter((l) => l.requestId === 'caller-trace-0001').length, 1);
        // The internal failure is logged with its cause and the same requestId as its request line.
        const failure = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request failed');
        assert.ok(failure);
        assert.equal(failure.requestId, sent.find((s) => s.status === 500)!.requestId);
        assert.match(JSON.stringify(failure.err), /exploded/);
      });

      test('the 500 answer itself never carries the cause', async () => {
        const capability = findCapability('pains.list')!;
        const original = capability.run;
        Object.assign(capability, {
          run: async () => {
            throw new Error(`leaked ${svc.keys.alice}`);
          },
        });
        try {
          const res = await svc.invoke(svc.keys.alice, { capability: 'pains.list', input: { type: 'pain' } });
          assertError(res, 500, 'internal', INTERNAL_MESSAGE);
          assert.ok(!JSON.stringify(res.body).includes('leaked'));
        } finally {
          Object.assign(capability, { run: original });
        }
      });
    });
  });
}
