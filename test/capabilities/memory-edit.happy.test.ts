/**
 * memory.edit, the successful paths (spec §4.3, DESIGN §4 "memory.edit"): every operation with its
 * exact `applied` sentence and its effect as project.memory shows it, order of application,
 * trimming, case-insensitive names, community names with or without `r/`, limits at their bound,
 * tied keys and project selection.
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

for (const dialect of DIALECTS) {
  describe(`memory.edit happy paths (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startService(dialect);
    });
    after(() => svc.close());
    // Every test starts from the fixture's memory of alpha and beta.
    beforeEach(async () => {
      const at = new Date().toISOString();
      for (const id of ['prj_alpha', 'prj_beta']) await saveMemory(svc.store.db, id, fixtureMemory(id), [], at);
    });

    const edit = (edits: Edit[], extra: Record<string, unknown> = {}, key = svc.keys.alice): Promise<Answer> =>
      svc.invoke(key, { capability: 'memory.edit', input: { edits }, ...extra });

    async function memoryOf(project: 'alpha' | 'beta'): Promise<ProjectMemory> {
      const res = await svc.invoke(svc.keys.alice, { capability: 'project.memory', project });
      assert.equal(res.status, 200);
      return res.body.data.memory;
    }

    /** Runs one call that must succeed, and checks its sentences and alpha's memory afterwards. */
    async function expectApplied(edits: Edit[], applied: string[], change: (m: ProjectMemory) => void): Promise<void> {
      const res = await edit(edits);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { data: { applied } });
      const expected = fixtureMemory('prj_alpha');
      change(expected);
      assert.deepEqual(await memoryOf('alpha'), expected);
    }

    test('the fixture memory of alpha is what project.memory shows before any edit', async () => {
      assert.deepEqual(await memoryOf('alpha'), fixtureMemory('prj_alpha'));
    });

    test('set_product replaces the product description', async () => {
      await expectApplied([{ op: 'set_product', text: 'Alpha ships software.' }], ['Replaced the product description.'], (m) => {
        m.description = 'Alpha ships software.';
      });
    });

    test('set_icp replaces the ideal-customer description', async () => {
      await expectApplied([{ op: 'set_icp', text: 'Solo founders.' }], ['Replaced the ideal-customer description.'], (m) => {
        m.idealCustomer = 'Solo founders.';
      });
    });

    test('add_competitor appends a competitor with its url and description', async () => {
      await expectApplied(
        [{ op: 'add_competitor', name: 'Acme', url: 'https://acme.example', description: 'Rival.' }],
        ['Added competitor "Acme".'],
        (m) => {
          m.competitors.push({ name: 'Acme', url: 'https://acme.example', description: 'Rival.' });
        },
      );
    });

    test('remove_competitor removes it and the sentence uses the stored spelling', async () => {
      await expectApplied([{ op: 'remove_competitor', name: 'lm studio' }], ['Removed competitor "LM Studio".'], (m) => {
        m.competitors = m.competitors.filter((c) => c.name !== 'LM Studio');
      });
    });

    test('add_offering appends an offering', async () => {
      await expectApplied(
        [{ op: 'add_offering', name: 'Consulting', description: 'Hands-on help.' }],
        ['Added offering "Consulting".'],
        (m) => {
          m.offerings.push({ name: 'Consulting', description: 'Hands-on help.' });
        },
      );
    });

    test('remove_offering removes an offering by name, case-insensitively', async () => {
      await expectApplied([{ op: 'remove_offering', name: 'HOSTED alpha' }], ['Removed offering "Hosted Alpha".'], (m) => {
        m.offerings = [];
      });
    });

    test('add_community starts watching a community', async () => {
      await expectApplied(
        [{ op: 'add_community', name: 'r/startups', description: 'Early-stage founders.' }],
        ['Started watching community "r/startups".'],
        (m) => {
          m.communities.push({ name: 'r/startups', description: 'Early-stage founders.' });
        },
      );
    });

    test('remove_community stops watching it', async () => {
      await expectApplied([{ op: 'remove_community', name: 'r/SaaS' }], ['Stopped watching community "r/SaaS".'], (m) => {
        m.communities = [];
      });
    });

    test('add_filter_rule appends a rule', async () => {
      await expectApplied([{ op: 'add_filter_rule', rule: 'exclude job posts' }], ['Added filter rule "exclude job posts".'], (m) => {
        m.filterRules.push('exclude job posts');
      });
    });

    test('remove_filter_rule removes a rule', async () => {
      await expectApplied([{ op: 'remove_filter_rule', rule: 'ignore memes' }], ['Removed filter rule "ignore memes".'], (m) => {
        m.filterRules = [];
      });
    });

    test('all ten operations in one call: one sentence each, in order, all effects kept', async () => {
      await expectApplied(
        [
          { op: 'set_product', text: 'New product.' },
          { op: 'set_icp', text: 'New customer.' },
          { op: 'add_competitor', name: 'Acme', url: 'http://acme.example/x?y=1', description: 'Rival.' },
          { op: 'remove_competitor', name: 'Ollama' },
          { op: 'add_offering', name: 'Audit', description: 'One-off audit.' },
          { op: 'remove_offering', name: 'Hosted Alpha' },
          { op: 'add_community', name: 'hn', description: 'Hacker News.' },
          { op: 'remove_community', name: 'r/SaaS' },
          { op: 'add_filter_rule', rule: 'exclude hiring threads' },
          { op: 'remove_filter_rule', rule: 'ignore memes' },
        ],
        [
          'Replaced the product description.',
          'Replaced the ideal-customer description.',
          'Added competitor "Acme".',
          'Removed competitor "Ollama".',
          'Added offering "Audit".',
          'Removed offering "Hosted Alpha".',
          'Started watching community "hn".',
          'Stopped watching community "r/SaaS".',
          'Added filter rule "exclude hiring threads".',
          'Removed filter rule "ignore memes".',
        ],
        (m) => {
          m.description = 'New product.';
          m.idealCustomer = 'New customer.';
          m.competitors = [
            { name: 'LM Studio', url: 'https://lmstudio.ai', description: 'Desktop app.' },
            { name: 'Acme', url: 'http://acme.example/x?y=1', description: 'Rival.' },
          ];
          m.offerings = [{ name: 'Audit', description: 'One-off audit.' }];
          m.communities = [{ name: 'hn', description: 'Hacker News.' }];
          m.filterRules = ['exclude hiring threads'];
        },
      );
    });

    test('edits apply in order: each one sees the result of the ones before it', async () => {
      await expectApplied(
        [
          { op: 'set_product', text: 'First.' },
          { op: 'set_product', text: 'Second.' },
          { op: 'add_competitor', name: 'Acme', url: 'https://one.example', description: 'One.' },
          { op: 'remove_competitor', name: 'ACME' },
          { op: 'add_competitor', name: 'acme', url: 'https://two.example', description: 'Two.' },
          { op: 'add_filter_rule', rule: 'b' },
          { op: 'add_filter_rule', rule: 'a' },
        ],
        [
          'Replaced the product description.',
          'Replaced the product description.',
          'Added competitor "Acme".',
          'Removed competitor "Acme".',
          'Added competitor "acme".',
          'Added filter rule "b".',
          'Added filter rule "a".',
        ],
        (m) => {
          m.description = 'Second.';
          m.competitors.push({ name: 'acme', url: 'https://two.example', description: 'Two.' });
          m.filterRules.push('b', 'a');
        },
      );
    });

    test('adding then removing the same entry in one call is two changes and leaves the list as it was', async () => {
      await expectApplied(
        [
          { op: 'add_offering', name: 'Temp', description: 'Short-lived.' },
          { op: 'remove_offering', name: 'temp' },
        ],
        ['Added offering "Temp".', 'Removed offering "Temp".'],
        () => {},
      );
    });

    test('every string is trimmed before it is compared and stored', async () => {
      await expectApplied(
        [
          { op: 'add_competitor', name: '  Acme  ', url: '  https://acme.example  ', description: '\n Rival. \t' },
          { op: 'add_offering', name: ' Audit ', description: ' One-off. ' },
          { op: 'add_community', name: '  r/startups ', description: ' Founders. ' },
          { op: 'add_filter_rule', rule: '   exclude ads   ' },
          { op: 'set_product', text: '  Trimmed product.  ' },
          { op: 'set_icp', text: '\tTrimmed customer.\n' },
          { op: 'remove_filter_rule', rule: ' ignore memes ' },
        ],
        [
          'Added competitor "Acme".',
          'Added offering "Audit".',
          'Started watching community "r/startups".',
          'Added filter rule "exclude ads".',
          'Replaced the product description.',
          'Replaced the ideal-customer description.',
          'Removed filter rule "ignore memes".',
        ],
        (m) => {
          m.competitors.push({ name: 'Acme', url: 'https://acme.example', description: 'Rival.' });
          m.offerings.push({ name: 'Audit', description: 'One-off.' });
          m.communities.push({ name: 'r/startups', description: 'Founders.' });
          m.filterRules = ['exclude ads'];
          m.description = 'Trimmed product.';
          m.idealCustomer = 'Trimmed customer.';
        },
      );
    });

    test('remove_competitor matches names case-insensitively', async () => {
      await expectApplied([{ op: 'remove_competitor', name: 'oLLaMa' }], ['Removed competitor "Ollama".'], (m) => {
        m.competitors = [{ name: 'LM Studio', url: 'https://lmstudio.ai', description: 'Desktop app.' }];
      });
    });

    for (const spelling of ['/r/saas', 'saas', 'R/SAAS', 'r/SaaS']) {
      test(`remove_community "${spelling}" removes the watched "r/SaaS"`, async () => {
        await expectApplied([{ op: 'remove_community', name: spelling }], ['Stopped watching community "r/SaaS".'], (m) => {
          m.communities = [];
        });
      });
    }

    test('a community added without r/ is found again with /r/ (and the stored spelling is kept)', async () => {
      await expectApplied(
        [
          { op: 'add_community', name: 'LocalLLaMA', description: 'Local models.' },
          { op: 'remove_community', name: '/r/localllama' },
          { op: 'add_community', name: '/r/LocalLLaMA', description: 'Again.' },
        ],
        ['Started watching community "LocalLLaMA".', 'Stopped watching community "LocalLLaMA".', 'Started watching community "/r/LocalLLaMA".'],
        (m) => {
          m.communities.push({ name: '/r/LocalLLaMA', description: 'Again.' });
        },
      );
    });

    test('a project may watch exactly 5 communities, and a removal makes room for another in the same call', async () => {
      await expectApplied(
        [
          { op: 'add_community', name: 'r/a', description: 'A.' },
          { op: 'add_community', name: 'r/b', description: 'B.' },
          { op: 'add_community', name: 'r/c', description: 'C.' },
          { op: 'add_community', name: 'r/d', description: 'D.' },
          { op: 'remove_community', name: 'a' },
          { op: 'add_community', name: 'r/e', description: 'E.' },
        ],
        [
          'Started watching community "r/a".',
          'Started watching community "r/b".',
          'Started watching community "r/c".',
          'Started watching community "r/d".',
          'Stopped watching community "r/a".',
          'Started watching community "r/e".',
        ],
        (m) => {
          m.communities.push(
            { name: 'r/b', description: 'B.' },
            { name: 'r/c', description: 'C.' },
            { name: 'r/d', description: 'D.' },
            { name: 'r/e', description: 'E.' },
          );
        },
      );
      assert.equal((await memoryOf('alpha')).communities.length, 5);
    });

    test('values at their maximum length are accepted (name 200, text 4000, rule 500, url 2048)', async () => {
      const name = 'N'.repeat(200);
      const text = 'T'.repeat(4000);
      const rule = 'R'.repeat(500);
      const url = `https://example.com/${'u'.repeat(2048 - 'https://example.com/'.length)}`;
      assert.equal(url.length, 2048);
      await expectApplied(
        [
          { op: 'add_competitor', name, url, description: text },
          { op: 'set_product', text },
          { op: 'add_filter_rule', rule },
        ],
        [`Added competitor "${name}".`, 'Replaced the product description.', `Added filter rule "${rule}".`],
        (m) => {
          m.competitors.push({ name, url, description: text });
          m.description = text;
          m.filterRules.push(rule);
        },
      );
    });

    test('64 edits in one call are accepted and all applied', async () => {
      const rules = Array.from({ length: 64 }, (_, i) => `rule ${String(i).padStart(2, '0')}`);
      await expectApplied(
        rules.map((rule) => ({ op: 'add_filter_rule', rule })),
        rules.map((rule) => `Added filter rule "${rule}".`),
        (m) => {
          m.filterRules.push(...rules);
        },
      );
    });

    test('render text lists one bullet per applied sentence', async () => {
      const res = await edit(
        [
          { op: 'add_filter_rule', rule: 'exclude ads' },
          { op: 'set_icp', text: 'Agencies.' },
        ],
        { render: 'text' },
      );
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {
        data: { applied: ['Added filter rule "exclude ads".', 'Replaced the ideal-customer description.'] },
        text: '- Added filter rule "exclude ads".\n- Replaced the ideal-customer description.',
      });
    });

    test('the edit is visible through project.memory with a field too', async () => {
      await expectApplied([{ op: 'add_filter_rule', rule: 'exclude ads' }], ['Added filter rule "exclude ads".'], (m) => {
        m.filterRules.push('exclude ads');
      });
      const res = await svc.invoke(svc.keys.alice, { capability: 'project.memory', input: { field: 'filter_rules' } });
      assert.deepEqual(res.body, {
        data: {
          memory: { id: 'prj_alpha', name: 'Alpha', url: 'https://alpha.example.com', filterRules: ['ignore memes', 'exclude ads'] },
          field: 'filter_rules',
        },
      });
    });

    test('an untied key edits the project chosen by `project`, and only that one', async () => {
      const res = await edit([{ op: 'set_product', text: 'Beta product.' }], { project: 'BETA.example' });
      assert.deepEqual(res.body, { data: { applied: ['Replaced the product description.'] } });
      assert.deepEqual(await memoryOf('beta'), { ...fixtureMemory('prj_beta'), description: 'Beta product.' });
      assert.deepEqual(await memoryOf('alpha'), fixtureMemory('prj_alpha'));
    });

    test('without `project` the most recent project (alpha) is edited', async () => {
      const res = await edit([{ op: 'set_icp', text: 'Default project.' }]);
      assert.equal(res.status, 200);
      assert.deepEqual(await memoryOf('alpha'), { ...fixtureMemory('prj_alpha'), idealCustomer: 'Default project.' });
      assert.deepEqual(await memoryOf('beta'), fixtureMemory('prj_beta'));
    });

    test('a key tied to beta edits beta only, even when `project` names alpha', async () => {
      const res = await edit([{ op: 'add_filter_rule', rule: 'tied rule' }], { project: 'alpha' }, svc.keys.aliceBeta);
      assert.deepEqual(res.body, { data: { applied: ['Added filter rule "tied rule".'] } });
      assert.deepEqual(await memoryOf('beta'), { ...fixtureMemory('prj_beta'), filterRules: ['tied rule'] });
      assert.deepEqual(await memoryOf('alpha'), fixtureMemory('prj_alpha'));
    });

    test('edits persist: a second call sees the first one', async () => {
      assert.equal((await edit([{ op: 'add_filter_rule', rule: 'one' }])).status, 200);
      assert.equal((await edit([{ op: 'add_filter_rule', rule: 'two' }])).status, 200);
      assert.deepEqual((await memoryOf('alpha')).filterRules, ['ignore memes', 'one', 'two']);
    });
  });
}
