/**
 * Bundle import and export in-process (DESIGN §5): validation that names the first fault, the
 * round trip export → import → export, idempotent re-import, refusal of ids owned by another
 * project or account, and all-or-nothing writes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BundleError, parseBundle, type Bundle } from '../../src/ingest/bundle.ts';
import { exportBundle } from '../../src/ingest/export.ts';
import { importBundle } from '../../src/ingest/import.ts';
import { ALICE, BOB, smallBundle } from '../fixtures/small-bundle.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';

/** The message parseBundle refuses `bundle` with (fails the test when it is accepted). */
function refusal(bundle: unknown): string {
  try {
    parseBundle(bundle);
  } catch (err) {
    assert.ok(err instanceof BundleError, `expected a BundleError, got ${String(err)}`);
    return err.message;
  }
  assert.fail('expected the bundle to be refused');
}

/** The fixture with one change applied. */
function changed(change: (b: any) => void): unknown {
  const bundle = smallBundle() as any;
  change(bundle);
  return bundle;
}

/** A small valid project of alice's that does not exist yet. */
function newProject(id: string, owner = ALICE): Bundle['projects'][number] {
  return {
    owner,
    id,
    name: `Project ${id}`,
    url: `https://${id}.example.com`,
    category: '',
    description: 'New.',
    idealCustomer: '',
    competitors: [],
    offerings: [],
    communities: [],
    filterRules: [],
    memoryStatus: 'pending',
    memoryRefreshRequestedAt: null,
    createdAt: '2026-11-20T09:00:00.000Z',
    posts: [
      {
        id: `${id}_post`,
        url: `https://www.reddit.com/r/SaaS/comments/${id}/t/`,
        permalink: `/r/SaaS/comments/${id}/t/`,
        community: 'SaaS',
        title: 'A thread',
        selftext: 'Text.',
        author: 'someone',
        score: 1,
        postCreatedAt: '2026-11-19T09:00:00.000Z',
        comments: [],
      },
    ],
    themes: [{ id: `sov_${id}`, type: 'pain', title: 'A pain', summary: 'One.', updatedAt: '2026-11-19T10:00:00.000Z' }],
    signals: [
      {
        id: `sig_${id}`,
        postId: `${id}_post`,
        kind: 'pain',
        quote: 'Text.',
        author: 'someone',
        themeId: `sov_${id}`,
        competitor: null,
        seenAt: '2026-11-19T11:00:00.000Z',
        moves: {},
      },
    ],
    briefs: [],
    runs: [],
  };
}

const bundleOf = (...projects: Bundle['projects']): Bundle => ({ format: 'project-signals-bundle', version: 1, projects });

describe('bundle validation names the first fault', () => {
  test('the fixture bundle is valid and parses to itself', () => {
    assert.deepEqual(parseBundle(smallBundle()), smallBundle());
  });

  const faults: [string, (b: any) => void, string][] = [
    ['a duplicate project id', (b) => (b.projects[1].id = 'prj_alpha'), 'projects[1].id: duplicate project id "prj_alpha"'],
    ['a duplicate post id', (b) => (b.projects[0].posts[2].id = 'p1'), 'projects[0].posts[2].id: duplicate post "p1"'],
    [
      'two posts with one permalink (trailing slash aside)',
      (b) => (b.projects[0].posts[1].permalink = '/r/SaaS/comments/p1/billing_is_painful'),
      'projects[0].posts[1].permalink: duplicate permalink "/r/SaaS/comments/p1/billing_is_painful"',
    ],
    ['a duplicate theme id', (b) => (b.projects[0].themes[3].id = 'sov_a2'), 'projects[0].themes[3].id: duplicate theme "sov_a2"'],
    ['a duplicate signal id', (b) => (b.projects[0].signals[6].id = 'sig_a1'), 'projects[0].signals[6].id: duplicate signal "sig_a1"'],
    ['a duplicate brief id', (b) => (b.projects[0].briefs[5].id = 'brf_a5'), 'projects[0].briefs[5].id: duplicate brief "brf_a5"'],
    ['a duplicate run id', (b) => b.projects[0].runs.push({ ...b.projects[0].runs[0] }), 'projects[0].runs[1].id: duplicate run "run_a1"'],
    [
      'a theme type that does not exist',
      (b) => (b.projects[0].themes[0].type = 'content'),
      'projects[0].themes[0].type: Invalid option: expected one of "pain"|"competitor"',
    ],
    ['a signal with an unknown postId', (b) => (b.projects[0].signals[0].postId = 'p9'), 'projects[0].signals[0].postId: no such post "p9"'],
    [
      'a postId of another project of the bundle',
      (b) => (b.projects[1].signals[0].postId = 'p2'),
      'projects[1].signals[0].postId: no such post "p2"',
    ],
    ['a signal with an unknown themeId', (b) => (b.projects[0].signals[1].themeId = 'sov_zz'), 'projects[0].signals[1].themeId: no such theme "sov_zz"'],
    [
      'a themeId of another project of the bundle',
      (b) => (b.projects[0].signals[1].themeId = 'sov_beta1'),
      'projects[0].signals[1].themeId: no such theme "sov_beta1"',
    ],
    [
      'a content signal with a theme',
      (b) => (b.projects[0].signals[6].themeId = 'sov_a1'),
      'projects[0].signals[6].themeId: a content signal belongs to no theme',
    ],
    [
      'a competitor signal in a pain theme',
      (b) => (b.projects[0].signals[4].themeId = 'sov_a1'),
      'projects[0].signals[4].themeId: a competitor signal belongs to a competitor theme',
    ],
    [
      'a competitor signal without product',
      (b) => (b.projects[0].signals[4].competitor = null),
      'projects[0].signals[4].competitor: a competitor signal names its product',
    ],
    [
      'a competitor signal with a blank product',
      (b) => (b.projects[0].signals[5].competitor = '   '),
      'projects[0].signals[5].competitor: a competitor signal names its product',
    ],
    [
      'a timestamp without milliseconds',
      (b) => (b.projects[0].signals[0].seenAt = '2026-11-10T13:00:00Z'),
      'projects[0].signals[0].seenAt: must be a timestamp like 2026-11-01T09:00:00.000Z',
    ],
    [
      'an impossible date',
      (b) => (b.projects[0].briefs[0].windowEnd = '2026-02-30T06:00:00.000Z'),
      'projects[0].briefs[0].windowEnd: must be a timestamp like 2026-11-01T09:00:00.000Z',
    ],
    [
      'a bad timestamp deep in a comment tree',
      (b) => (b.projects[0].posts[0].comments[0].replies[0].replies[0].createdAt = '2026-11-10'),
      'projects[0].posts[0].comments[0].replies[0].replies[0].createdAt: must be a timestamp like 2026-11-01T09:00:00.000Z',
    ],
    [
      'six communities',
      (b) => (b.projects[0].communities = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => ({ name: `r/${n}`, description: n }))),
      'projects[0].communities: Too big: expected array to have <=5 items',
    ],
    ['a project url that is not http(s)', (b) => (b.projects[0].url = 'ftp://alpha.example.com'), 'projects[0].url: must be an http(s) URL'],
    ['a javascript: competitor url', (b) => (b.projects[0].competitors[0].url = 'javascript:alert(1)'), 'projects[0].competitors[0].url: must be an http(s) URL'],
    ['a post url that is not http(s)', (b) => (b.projects[2].posts[0].url = 'file:///etc/passwd'), 'projects[2].posts[0].url: must be an http(s) URL'],
    [
      'a brief source url that is not http(s)',
      (b) => (b.projects[0].briefs[2].sections[1].items[0].sources[0].url = 'mailto:a@b.example'),
      'projects[0].briefs[2].sections[1].items[0].sources[0].url: must be an http(s) URL',
    ],
    ['an unknown project property', (b) => (b.projects[0].secret = true), 'projects[0]: Unrecognized key: "secret"'],
    ['an unknown signal property', (b) => (b.projects[0].signals[3].score = 1), 'projects[0].signals[3]: Unrecognized key: "score"'],
    ['an unknown top-level property', (b) => (b.extra = 1), '(root): Unrecognized key: "extra"'],
    ['another format', (b) => (b.format = 'something-else'), 'format: Invalid input: expected "project-signals-bundle"'],
    ['another version', (b) => (b.version = 2), 'version: Invalid input: expected 1'],
    ['a permalink that is not a path', (b) => (b.projects[0].posts[0].permalink = 'r/SaaS/x'), 'projects[0].posts[0].permalink: Invalid string: must start with "/"'],
    [
      'an unknown memory status',
      (b) => (b.projects[0].memoryStatus = 'done'),
      'projects[0].memoryStatus: Invalid option: expected one of "pending"|"building"|"ready"|"failed"',
    ],
  ];
  for (const [what, change, message] of faults) {
    test(`${what}`, () => {
      assert.equal(refusal(changed(change)), message);
    });
  }

  test('a missing field is named by its path', () => {
    assert.match(
      refusal(
        changed((b) => {
          delete b.projects[0].posts[1].title;
        }),
      ),
      /^projects\[0\]\.posts\[1\]\.title: \S/,
    );
  });

  test('of two faults of one kind, the earlier one is named', () => {
    const bundle = changed((b) => {
      b.projects[0].signals[2].seenAt = 'later';
      b.projects[0].signals[5].seenAt = 'even later';
    });
    assert.equal(refusal(bundle), 'projects[0].signals[2].seenAt: must be a timestamp like 2026-11-01T09:00:00.000Z');
    const refs = changed((b) => {
      b.projects[0].signals[1].postId = 'nope1';
      b.projects[0].signals[3].postId = 'nope3';
    });
    assert.equal(refusal(refs), 'projects[0].signals[1].postId: no such post "nope1"');
  });

  test('not an object at all', () => {
    assert.match(refusal([]), /^\(root\): /);
    assert.match(refusal(null), /^\(root\): /);
  });
});

for (const dialect of DIALECTS) {
  describe(`import and export (${dialect})`, () => {
    let svc: TestService;
    let empty: TestService;
    before(async () => {
      svc = await startService(dialect);
      empty = await startService(dialect, { bundle: false });
    });
    after(async () => {
      await svc.close();
      await empty.close();
    });

    const exportAll = () => exportBundle(svc.store.db);

    test('export gives back exactly the imported fixture, projects and lists ordered by id', async () => {
      assert.deepEqual(await exportAll(), smallBundle());
    });

    test('export of chosen projects holds only them', async () => {
      const beta = await exportBundle(svc.store.db, ['prj_beta']);
      assert.deepEqual(beta, bundleOf(smallBundle().projects[1]!));
      assert.deepEqual(await exportBundle(svc.store.db, []), bundleOf());
      assert.deepEqual(await exportBundle(svc.store.db, ['prj_nope']), bundleOf());
    });

    test('importing the same bundle again reports the same counts and changes nothing', async () => {
      const before = await exportAll();
      const counts = await importBundle(svc.store, parseBundle(smallBundle()));
      assert.deepEqual(counts, { projects: 3, posts: 5, signals: 9, themes: 6, briefs: 8, runs: 3 });
      assert.deepEqual(await exportAll(), before);
      // Derived counters are recomputed, not doubled.
      const list = await svc.invoke(svc.keys.alice, { capability: 'pains.list', input: { type: 'pain', sort: 'posts' } });
      assert.deepEqual(
        list.body.data.rows.map((r: { id: string; postCount: number }) => [r.id, r.postCount]),
        [
          ['sov_a1', 2],
          ['sov_a2', 1],
          ['sov_a3', 0],
        ],
      );
    });

    test('an export read back through JSON imports into a fresh database unchanged', async () => {
      const exported = await exportAll();
      const text = JSON.stringify(exported);
      const counts = await importBundle(empty.store, parseBundle(JSON.parse(text)));
      assert.deepEqual(counts, { projects: 3, posts: 5, signals: 9, themes: 6, briefs: 8, runs: 3 });
      assert.deepEqual(await exportBundle(empty.store.db), exported);
      // The imported data serves reads for its owner there too.
      const memory = await empty.invoke(empty.keys.alice, { capability: 'project.memory' });
      assert.equal(memory.body.data.memory.id, 'prj_alpha');
    });

    test('an upsert by id updates changed rows in place', async () => {
      const bundle = smallBundle();
      bundle.projects = [bundle.projects[1]!];
      bundle.projects[0]!.themes[0]!.title = 'Beta pain, renamed';
      bundle.projects[0]!.filterRules = ['new rule'];
      await importBundle(svc.store, parseBundle(bundle));
      const exported = await exportBundle(svc.store.db, ['prj_beta']);
      assert.deepEqual(exported, bundleOf(bundle.projects[0]!));
      // Restore the fixture for the other tests.
      await importBundle(svc.store, parseBundle(bundleOf(smallBundle().projects[1]!)));
      assert.deepEqual(await exportAll(), smallBundle());
    });

    test('a pain signal naming a product may sit in that product\'s competitor theme (DESIGN §4), and pains.get lists it there', async () => {
      const bundle = bundleOf(smallBundle().projects[0]!);
      const pain = bundle.projects[0]!.signals.find((x) => x.kind === 'pain')!;
      pain.themeId = 'sov_ac';
      await importBundle(empty.store, parseBundle(bundle));
      const theme = await empty.invoke(empty.keys.alice, { capability: 'pains.get', project: bundle.projects[0]!.url, input: { sovId: 'sov_ac' } });
      assert.equal(theme.status, 200, JSON.stringify(theme.body));
      assert.ok(JSON.stringify(theme.body.data).includes(pain.quote), 'the pain is listed with the competitor theme');
      assert.deepEqual((await exportBundle(empty.store.db, [bundle.projects[0]!.id])).projects[0]!.signals.find((x) => x.id === pain.id)!.themeId, 'sov_ac');
    });

    test('the owner email matches case-insensitively', async () => {
      const p = newProject('prj_case', 'ALICE@Example.COM');
      await importBundle(empty.store, parseBundle(bundleOf(p)));
      const exported = await exportBundle(empty.store.db, ['prj_case']);
      assert.deepEqual(exported, bundleOf({ ...p, owner: ALICE }));
    });

    /** Imports a bundle that must be refused with `message`, and checks nothing at all changed. */
    async function expectRefusedImport(bundle: Bundle, message: string): Promise<void> {
      const before = await exportAll();
      await assert.rejects(importBundle(svc.store, parseBundle(bundle)), (err: unknown) => {
        assert.ok(err instanceof BundleError, String(err));
        assert.equal(err.message, message);
        return true;
      });
      assert.deepEqual(await exportAll(), before);
    }

    test("a project id owned by another account is refused and bob's project is untouched", async () => {
      const takeover = { ...smallBundle().projects[2]!, owner: ALICE, name: 'Stolen' };
      await expectRefusedImport(bundleOf(takeover), 'projects[0].id: project "prj_bob" belongs to another account');
    });

    for (const [table, index, id] of [
      ['themes', 0, 'sov_bob1'],
      ['signals', 0, 'sig_bob1'],
      ['briefs', 0, 'brf_bob1'],
      ['runs', 0, 'run_bob1'],
    ] as const) {
      test(`a ${table.slice(0, -1)} id that belongs to another project is refused, and the new project is not written`, async () => {
        const p = newProject('prj_thief');
        if (table === 'themes') {
          p.themes[0]!.id = id;
          p.signals[0]!.themeId = id;
        } else if (table === 'signals') {
          p.signals[0]!.id = id;
        } else if (table === 'briefs') {
          p.briefs.push({ ...smallBundle().projects[2]!.briefs[0]!, id });
        } else {
          p.runs.push({ ...smallBundle().projects[2]!.runs[0]!, id });
        }
        await expectRefusedImport(bundleOf(p), `projects[0].${table}[${index}].id: "${id}" belongs to another project`);
      });
    }

    test("an id of alice's other project is refused too (ids are not moved between projects)", async () => {
      const p = newProject('prj_mover');
      p.signals.push({ ...p.signals[0]!, id: 'sig_beta1' });
      await expectRefusedImport(bundleOf(p), 'projects[0].signals[1].id: "sig_beta1" belongs to another project');
    });

    test('all or nothing: a bad second project leaves the first one unwritten', async () => {
      const first = newProject('prj_first');
      const second = newProject('prj_second', 'nobody@example.com');
      await expectRefusedImport(bundleOf(first, second), 'projects[1].owner: no account with email "nobody@example.com"');
    });

    test('all or nothing: changes to an existing project are rolled back when a later project fails', async () => {
      const alpha = smallBundle().projects[0]!;
      alpha.name = 'Alpha renamed';
      alpha.themes[0]!.title = 'Renamed theme';
      alpha.signals = alpha.signals.filter((s) => s.id !== 'sig_a7');
      const bad = { ...smallBundle().projects[2]!, owner: ALICE };
      await expectRefusedImport(bundleOf(alpha, newProject('prj_between'), bad), 'projects[2].id: project "prj_bob" belongs to another account');
      const memory = await svc.invoke(svc.keys.alice, { capability: 'project.memory', input: { field: 'product' } });
      assert.equal(memory.body.data.memory.name, 'Alpha');
    });

    test('an owner that does not exist is refused; bob can import his own project', async () => {
      await expectRefusedImport(bundleOf(newProject('prj_ghost', 'ghost@example.com')), 'projects[0].owner: no account with email "ghost@example.com"');
      const bobs = smallBundle().projects[2]!;
      assert.deepEqual(await importBundle(svc.store, parseBundle(bundleOf(bobs))), { projects: 1, posts: 1, signals: 1, themes: 1, briefs: 1, runs: 1 });
      assert.equal(bobs.owner, BOB);
      assert.deepEqual(await exportAll(), smallBundle());
    });
  });
}
