/**
 * memory.edit, the refusals (spec §4.3, §7; DESIGN §4 "memory.edit"): malformed edits and edits
 * that change nothing are 400 `invalid`, a sixth watched community is 409 `limit`, each naming the
 * edit; and a refused call changes nothing at all, however far into its edits it failed.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { ProjectMemory } from '../../src/domain/resources.ts';
import { saveMemory } from '../../src/store/projects.ts';
import { smallBundle } from '../fixtures/small-bundle.ts';
import { memoryOf } from '../../src/ingest/bundle.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type Answer, type TestService } from '../helpers/service.ts';

/** The memory of a fixture project exactly as project.memory must show it after the import. */
function fixtureMemory(id: string): ProjectMemory {
  return memoryOf(smallBundle().projects.find((x) => x.id === id)!);
}

type Edit = Record<string, unknown>;

const OP_LIST =
  'set_product, set_icp, add_competitor, remove_competitor, add_offering, remove_offering, add_community, remove_community, add_filter_rule, remove_filter_rule';

/** A URL of exactly `length` characters. */
const urlOf = (length: number) => `https://example.com/${'u'.repeat(length - 'https://example.com/'.length)}`;

/** Malformed edits: [what, edit, exact message or a pattern for Zod's own wording after the path]. */
const MALFORMED: [string, Edit, string | RegExp][] = [
  ['an empty text', { op: 'set_product', text: '' }, 'input.edits[0].text: text must not be empty'],
  ['a text of only whitespace', { op: 'set_icp', text: ' \n\t ' }, 'input.edits[0].text: text must not be empty'],
  ['a name of only spaces', { op: 'add_competitor', name: '   ', url: 'https://a.example', description: 'd' }, 'input.edits[0].name: name must not be empty'],
  ['an empty description', { op: 'add_offering', name: 'X', description: '  ' }, 'input.edits[0].description: description must not be empty'],
  ['an empty url', { op: 'add_competitor', name: 'X', url: ' ', description: 'd' }, 'input.edits[0].url: url must not be empty'],
  ['an empty rule', { op: 'add_filter_rule', rule: '  ' }, 'input.edits[0].rule: rule must not be empty'],
  ['an empty name to remove', { op: 'remove_community', name: '' }, 'input.edits[0].name: name must not be empty'],
  ['a name of 201 characters', { op: 'add_offering', name: 'n'.repeat(201), description: 'd' }, 'input.edits[0].name: name is longer than 200 characters'],
  ['a text of 4001 characters', { op: 'set_product', text: 't'.repeat(4001) }, 'input.edits[0].text: text is longer than 4000 characters'],
  [
    'a description of 4001 characters',
    { op: 'add_community', name: 'r/x', description: 'd'.repeat(4001) },
    'input.edits[0].description: description is longer than 4000 characters',
  ],
  ['a rule of 501 characters', { op: 'add_filter_rule', rule: 'r'.repeat(501) }, 'input.edits[0].rule: rule is longer than 500 characters'],
  ['a url of 2049 characters', { op: 'add_competitor', name: 'X', url: urlOf(2049), description: 'd' }, 'input.edits[0].url: url is longer than 2048 characters'],
  ['a javascript: url', { op: 'add_competitor', name: 'X', url: 'javascript:alert(1)', description: 'd' }, 'input.edits[0].url: url must be an http or https URL'],
  ['an ftp url', { op: 'add_competitor', name: 'X', url: 'ftp://files.example.com/', description: 'd' }, 'input.edits[0].url: url must be an http or https URL'],
  ['a url without scheme', { op: 'add_competitor', name: 'X', url: 'acme.example', description: 'd' }, 'input.edits[0].url: url must be an http or https URL'],
  ['a url with a space inside', { op: 'add_competitor', name: 'X', url: 'https://acme.example/a b', description: 'd' }, 'input.edits[0].url: url must be an http or https URL'],
  ['an unknown op', { op: 'rename_project', name: 'X' }, `input.edits[0].op: must be one of ${OP_LIST}`],
  ['an edit without op', { rule: 'x' }, `input.edits[0].op: must be one of ${OP_LIST}`],
  ['an op of the wrong case', { op: 'SET_PRODUCT', text: 'x' }, `input.edits[0].op: must be one of ${OP_LIST}`],
  ['a missing field', { op: 'add_competitor', name: 'X', url: 'https://a.example' }, /^input\.edits\[0\]\.description: \S/],
  ['a missing text', { op: 'set_product' }, /^input\.edits\[0\]\.text: \S/],
  ['an extra field', { op: 'add_filter_rule', rule: 'x', priority: 'high' }, 'input.edits[0]: unknown property "priority"'],
  ['a field of another op', { op: 'remove_competitor', name: 'Ollama', url: 'https://ollama.com' }, 'input.edits[0]: unknown property "url"'],
  ['a number value', { op: 'add_filter_rule', rule: 5 }, /^input\.edits\[0\]\.rule: \S/],
  ['a null value', { op: 'set_icp', text: null }, /^input\.edits\[0\]\.text: \S/],
  ['an array value', { op: 'remove_offering', name: ['Hosted Alpha'] }, /^input\.edits\[0\]\.name: \S/],
];

for (const dialect of DIALECTS) {
  describe(`memory.edit refusals (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startService(dialect);
    });
    after(() => svc.close());
    beforeEach(async () => {
      const at = new Date().toISOString();
      for (const id of ['prj_alpha', 'prj_beta', 'prj_bob']) await saveMemory(svc.store.db, id, fixtureMemory(id), [], at);
    });

    const call = (input: unknown, extra: Record<string, unknown> = {}, key = svc.keys.alice): Promise<Answer> =>
      svc.invoke(key, { capability: 'memory.edit', input, ...extra });
    const edit = (edits: unknown[], extra: Record<string, unknown> = {}, key = svc.keys.alice) => call({ edits }, extra, key);

    async function memoryOf(project: 'alpha' | 'beta', key = svc.keys.alice): Promise<ProjectMemory> {
      const res = await svc.invoke(key, { capability: 'project.memory', project });
      assert.equal(res.status, 200);
      return res.body.data.memory;
    }

    /** The call must be refused with exactly this error, and alpha's memory must be the fixture's. */
    async function expectRefused(res: Answer, status: number, code: string, message: string | RegExp): Promise<void> {
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body), ['error']);
      assert.deepEqual(Object.keys(res.body.error).sort(), ['code', 'message']);
      assert.equal(res.body.error.code, code);
      if (typeof message === 'string') assert.equal(res.body.error.message, message);
      else assert.match(res.body.error.message, message);
      assert.deepEqual(await memoryOf('alpha'), fixtureMemory('prj_alpha'));
    }

    for (const [what, bad, message] of MALFORMED) {
      test(`${what} is invalid and names the edit`, async () => {
        await expectRefused(await edit([bad]), 400, 'invalid', message);
      });
    }

    test('a malformed edit later in the list is named by its index, and the good edits before it are not kept', async () => {
      const res = await edit([
        { op: 'add_filter_rule', rule: 'kept?' },
        { op: 'set_product', text: 'changed?' },
        { op: 'add_competitor', name: 'X', url: 'ftp://x.example', description: 'd' },
      ]);
      await expectRefused(res, 400, 'invalid', 'input.edits[2].url: url must be an http or https URL');
    });

    test('0 edits is invalid', async () => {
      await expectRefused(await edit([]), 400, 'invalid', /^input\.edits: \S/);
    });

    test('65 edits is invalid, and none of them is applied', async () => {
      const edits = Array.from({ length: 65 }, (_, i) => ({ op: 'add_filter_rule', rule: `r${i}` }));
      await expectRefused(await edit(edits), 400, 'invalid', /^input\.edits: \S/);
    });

    test('edits that is not an array is invalid', async () => {
      await expectRefused(await call({ edits: { op: 'set_product', text: 'x' } }), 400, 'invalid', /^input\.edits: \S/);
    });

    test('an edit that is not an object is invalid', async () => {
      await expectRefused(await edit(['set_product']), 400, 'invalid', /^input\.edits\[0\]: \S/);
    });

    test('input without edits is invalid', async () => {
      await expectRefused(await call({}), 400, 'invalid', /^input\.edits: \S/);
    });

    test('an unknown property beside edits is invalid and named', async () => {
      await expectRefused(await call({ edits: [{ op: 'add_filter_rule', rule: 'x' }], dryRun: true }), 400, 'invalid', 'input: unknown property "dryRun"');
    });

    // Edits that change nothing: each sits at index 2 behind two good edits, which must not be kept.
    const NOOPS: [string, Edit, string][] = [
      [
        'adding a tracked competitor in another case',
        { op: 'add_competitor', name: 'OLLAMA', url: 'https://ollama.com', description: 'Again.' },
        'edits[2]: competitor "OLLAMA" is already tracked',
      ],
      ['removing a competitor that is not tracked', { op: 'remove_competitor', name: 'Nobody' }, 'edits[2]: competitor "Nobody" is not tracked'],
      ['adding an offering that exists (other case)', { op: 'add_offering', name: 'hosted ALPHA', description: 'd' }, 'edits[2]: offering "hosted ALPHA" already exists'],
      ['removing an absent offering', { op: 'remove_offering', name: 'Enterprise' }, 'edits[2]: offering "Enterprise" does not exist'],
      ['setting the product to its current text', { op: 'set_product', text: 'Alpha helps teams ship.' }, 'edits[2]: the product description already has this text'],
      [
        'setting the product to its current text with surrounding spaces',
        { op: 'set_product', text: '  Alpha helps teams ship.\n' },
        'edits[2]: the product description already has this text',
      ],
      ['setting the icp to its current text', { op: 'set_icp', text: 'Small SaaS teams.' }, 'edits[2]: the ideal-customer description already has this text'],
      ['adding an existing filter rule', { op: 'add_filter_rule', rule: 'ignore memes' }, 'edits[2]: filter rule "ignore memes" already exists'],
      ['adding an existing filter rule with spaces around it', { op: 'add_filter_rule', rule: ' ignore memes ' }, 'edits[2]: filter rule "ignore memes" already exists'],
      ['removing an absent filter rule', { op: 'remove_filter_rule', rule: 'no such rule' }, 'edits[2]: filter rule "no such rule" does not exist'],
      ['watching "SaaS" while "r/SaaS" is watched', { op: 'add_community', name: 'SaaS', description: 'd' }, 'edits[2]: community "SaaS" is already watched'],
      ['watching "/r/saas" while "r/SaaS" is watched', { op: 'add_community', name: '/r/saas', description: 'd' }, 'edits[2]: community "/r/saas" is already watched'],
      ['removing a community that is not watched', { op: 'remove_community', name: 'r/startups' }, 'edits[2]: community "r/startups" is not watched'],
    ];
    for (const [what, noop, message] of NOOPS) {
      test(`${what} changes nothing: invalid, naming edits[2]`, async () => {
        const res = await edit([{ op: 'add_filter_rule', rule: 'first' }, { op: 'add_offering', name: 'Second', description: 'd' }, noop]);
        await expectRefused(res, 400, 'invalid', message);
      });
    }

    test('an edit made pointless by an earlier edit of the same call is refused (edits apply in order)', async () => {
      const res = await edit([
        { op: 'add_filter_rule', rule: 'twice' },
        { op: 'add_filter_rule', rule: 'twice' },
      ]);
      await expectRefused(res, 400, 'invalid', 'edits[1]: filter rule "twice" already exists');
      const res2 = await edit([
        { op: 'remove_competitor', name: 'Ollama' },
        { op: 'remove_competitor', name: 'ollama' },
      ]);
      await expectRefused(res2, 400, 'invalid', 'edits[1]: competitor "ollama" is not tracked');
    });

    test('a 6th watched community is 409 limit naming the edit, and the first four are not kept', async () => {
      const res = await edit([
        { op: 'add_community', name: 'r/a', description: 'A.' },
        { op: 'add_community', name: 'r/b', description: 'B.' },
        { op: 'add_community', name: 'r/c', description: 'C.' },
        { op: 'add_community', name: 'r/d', description: 'D.' },
        { op: 'add_community', name: 'r/e', description: 'E.' },
      ]);
      await expectRefused(res, 409, 'limit', 'edits[4]: a project watches at most 5 communities; remove one first');
    });

    test('a 6th community in a later call is refused with limit too', async () => {
      const four = ['a', 'b', 'c', 'd'].map((n) => ({ op: 'add_community', name: `r/${n}`, description: n }));
      assert.equal((await edit(four)).status, 200);
      const before = await memoryOf('alpha');
      assert.equal(before.communities.length, 5);
      const res = await edit([{ op: 'add_community', name: 'hn', description: 'Hacker News.' }]);
      assert.equal(res.status, 409);
      assert.deepEqual(res.body, { error: { code: 'limit', message: 'edits[0]: a project watches at most 5 communities; remove one first' } });
      assert.deepEqual(await memoryOf('alpha'), before);
    });

    /** 40 edits of every kind that all succeed on the fixture memory when applied alone. */
    function fortyEdits(): Edit[] {
      const edits: Edit[] = [
        { op: 'set_product', text: 'Changed product.' },
        { op: 'set_icp', text: 'Changed customer.' },
        { op: 'add_competitor', name: 'Acme', url: 'https://acme.example', description: 'Rival.' },
        { op: 'remove_competitor', name: 'LM Studio' },
        { op: 'add_offering', name: 'Audit', description: 'One-off.' },
        { op: 'remove_offering', name: 'Hosted Alpha' },
        { op: 'remove_filter_rule', rule: 'ignore memes' },
        { op: 'remove_community', name: 'r/SaaS' },
      ];
      for (let i = 0; edits.length < 40; i++) edits.push({ op: 'add_filter_rule', rule: `rule ${i}` });
      return edits;
    }

    test('atomicity: 40 edits whose 37th is invalid leave the memory exactly as before', async () => {
      const before = await memoryOf('alpha');
      const edits = fortyEdits();
      edits[36] = { op: 'remove_competitor', name: 'Absent Inc' };
      const res = await edit(edits);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: { code: 'invalid', message: 'edits[36]: competitor "Absent Inc" is not tracked' } });
      assert.deepEqual(await memoryOf('alpha'), before);
      // The same 40 edits without the fault all apply: the fault alone was the reason.
      const ok = await edit(fortyEdits());
      assert.equal(ok.status, 200);
      assert.equal(ok.body.data.applied.length, 40);
    });

    test('atomicity: 40 edits whose 37th hits the community limit leave the memory exactly as before', async () => {
      const before = await memoryOf('alpha');
      const edits: Edit[] = [
        ...['a', 'b', 'c', 'd'].map((n) => ({ op: 'add_community', name: `r/${n}`, description: n })),
        { op: 'set_product', text: 'Changed product.' },
        { op: 'add_competitor', name: 'Acme', url: 'https://acme.example', description: 'Rival.' },
        { op: 'remove_offering', name: 'Hosted Alpha' },
      ];
      for (let i = 0; edits.length < 36; i++) edits.push({ op: 'add_filter_rule', rule: `rule ${i}` });
      edits.push({ op: 'add_community', name: 'r/sixth', description: 'One too many.' });
      for (let i = 100; edits.length < 40; i++) edits.push({ op: 'add_filter_rule', rule: `rule ${i}` });
      assert.equal(edits.length, 40);
      const res = await edit(edits);
      assert.equal(res.status, 409);
      assert.deepEqual(res.body, { error: { code: 'limit', message: 'edits[36]: a project watches at most 5 communities; remove one first' } });
      assert.deepEqual(await memoryOf('alpha'), before);
    });

    test('a refused call through the tied key leaves both beta and alpha unchanged', async () => {
      const res = await edit([{ op: 'add_filter_rule', rule: 'x' }, { op: 'remove_offering', name: 'Hosted Alpha' }], { project: 'alpha' }, svc.keys.aliceBeta);
      // Beta has no offerings: the tied key edits beta, so the removal is absent there.
      assert.deepEqual(res.body, { error: { code: 'invalid', message: 'edits[1]: offering "Hosted Alpha" does not exist' } });
      assert.deepEqual(await memoryOf('beta'), fixtureMemory('prj_beta'));
      assert.deepEqual(await memoryOf('alpha'), fixtureMemory('prj_alpha'));
    });

    test("another account's project is forbidden and stays unchanged", async () => {
      const res = await edit([{ op: 'add_filter_rule', rule: 'intrusion' }], { project: 'bob.example.net' });
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'forbidden');
      const bob = await svc.invoke(svc.keys.bob, { capability: 'project.memory' });
      assert.deepEqual(bob.body.data.memory, fixtureMemory('prj_bob'));
    });

    test('a caller without any project gets not_found', async () => {
      const res = await edit([{ op: 'add_filter_rule', rule: 'x' }], {}, svc.keys.carol);
      assert.equal(res.status, 404);
      assert.equal(res.body.error.code, 'not_found');
    });
  });
}
