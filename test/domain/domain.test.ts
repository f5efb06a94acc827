/**
 * The pure domain logic, without a database: brief numbering (DESIGN §4 "briefs"), page arithmetic
 * ("pains.list"), the Markdown thread and permalink keys ("posts.get"), memory edits applied to a
 * memory value ("memory.edit") and identifiers ("Identifiers").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findNumberedItem, numberBriefs, type StoredBrief } from '../../src/domain/briefs.ts';
import { applyEdits, communityKey, editSchema, type Edit } from '../../src/domain/edits.ts';
import { ServiceError } from '../../src/domain/errors.ts';
import { base32, newId, type IdPrefix } from '../../src/domain/ids.ts';
import { pageWindow } from '../../src/domain/pagination.ts';
import { normalizePermalinkKey } from '../../src/domain/permalink.ts';
import type { ProjectMemory, SignalItem } from '../../src/domain/resources.ts';
import { renderThreadMarkdown, type ThreadComment } from '../../src/domain/thread.ts';
import { isIsoTimestamp } from '../../src/domain/time.ts';

const item = (tag: string): SignalItem => ({
  origin: 'pain',
  surfaced: { summary: `summary ${tag}` },
  move: { title: `move ${tag}`, body: `body ${tag}` },
  sources: [{ title: `post ${tag}`, url: `https://example.com/${tag}`, sub: 'SaaS' }],
});

// Newest first: brief 1 has 2 + 1 items, brief 2 has 0 + 2, brief 3 has one empty section.
const BRIEFS: StoredBrief[] = [
  {
    window: 'Nov 19 – Nov 20',
    sections: [
      { kind: 'content', title: 'Content ideas', items: [item('a'), item('b')] },
      { kind: 'offers', title: 'Offers', items: [item('c')] },
    ],
  },
  {
    window: 'Nov 18 – Nov 19',
    sections: [
      { kind: 'content', title: 'Content ideas', items: [] },
      { kind: 'offers', title: 'Offers', items: [item('d'), item('e')] },
    ],
  },
  { window: 'Nov 17 – Nov 18', sections: [{ kind: 'content', title: 'Content ideas', items: [] }] },
];

describe('numberBriefs', () => {
  test('numbers items 1..N newest brief first, sections in order, items in order', () => {
    const numbered = numberBriefs(BRIEFS);
    assert.deepEqual(numbered, [
      {
        window: 'Nov 19 – Nov 20',
        brief: {
          sections: [
            { kind: 'content', title: 'Content ideas', items: [{ n: 1, ...item('a') }, { n: 2, ...item('b') }] },
            { kind: 'offers', title: 'Offers', items: [{ n: 3, ...item('c') }] },
          ],
        },
      },
      {
        window: 'Nov 18 – Nov 19',
        brief: {
          sections: [
            { kind: 'content', title: 'Content ideas', items: [] },
            { kind: 'offers', title: 'Offers', items: [{ n: 4, ...item('d') }, { n: 5, ...item('e') }] },
          ],
        },
      },
      { window: 'Nov 17 – Nov 18', brief: { sections: [{ kind: 'content', title: 'Content ideas', items: [] }] } },
    ]);
  });

  test('puts n first in each item and leaves the input untouched', () => {
    const copy = structuredClone(BRIEFS);
    const numbered = numberBriefs(BRIEFS);
    assert.deepEqual(Object.keys(numbered[0]!.brief.sections[0]!.items[0]!), ['n', 'origin', 'surfaced', 'move', 'sources']);
    assert.deepEqual(BRIEFS, copy);
  });

  test('no briefs give no numbers', () => {
    assert.deepEqual(numberBriefs([]), []);
  });
});

describe('findNumberedItem', () => {
  test('finds every number with its brief window and section kind, as numberBriefs numbers them', () => {
    const expected: [number, string, string, string][] = [
      [1, 'Nov 19 – Nov 20', 'content', 'a'],
      [2, 'Nov 19 – Nov 20', 'content', 'b'],
      [3, 'Nov 19 – Nov 20', 'offers', 'c'],
      [4, 'Nov 18 – Nov 19', 'offers', 'd'],
      [5, 'Nov 18 – Nov 19', 'offers', 'e'],
    ];
    for (const [n, when, kind, tag] of expected) {
      assert.deepEqual(findNumberedItem(BRIEFS, n), { n, when, kind, item: item(tag) });
    }
  });

  test('numbers outside 1..N find nothing', () => {
    for (const n of [0, -1, 6, 100, 1.5]) assert.equal(findNumberedItem(BRIEFS, n), undefined, `n=${n}`);
    assert.equal(findNumberedItem([], 1), undefined);
  });
});

describe('pageWindow', () => {
  test('a full first page', () => {
    assert.deepEqual(pageWindow(60, 1, 25, 25), { page: 1, pageSize: 25, pageCount: 3, offset: 0, rangeStart: 1, rangeEnd: 25 });
  });

  test('a partial last page', () => {
    assert.deepEqual(pageWindow(60, 3, 25, 10), { page: 3, pageSize: 25, pageCount: 3, offset: 50, rangeStart: 51, rangeEnd: 60 });
  });

  test('pageCount rounds up, and is exact on a multiple of pageSize', () => {
    assert.equal(pageWindow(51, 1, 25, 25).pageCount, 3);
    assert.equal(pageWindow(50, 1, 25, 25).pageCount, 2);
    assert.equal(pageWindow(1, 1, 100, 1).pageCount, 1);
  });

  test('no rows at all: pageCount 0, range 0 to 0', () => {
    assert.deepEqual(pageWindow(0, 1, 25, 0), { page: 1, pageSize: 25, pageCount: 0, offset: 0, rangeStart: 0, rangeEnd: 0 });
  });

  test('a page past the end: range 0 to 0, pageCount unchanged', () => {
    assert.deepEqual(pageWindow(10, 5, 3, 0), { page: 5, pageSize: 3, pageCount: 4, offset: 12, rangeStart: 0, rangeEnd: 0 });
  });

  test('pageSize 1', () => {
    assert.deepEqual(pageWindow(3, 2, 1, 1), { page: 2, pageSize: 1, pageCount: 3, offset: 1, rangeStart: 2, rangeEnd: 2 });
  });
});

describe('renderThreadMarkdown', () => {
  const c = (author: string, body: string, score: number, replies: ThreadComment[] = []): ThreadComment => ({
    id: `id_${author}`,
    author,
    body,
    score,
    createdAt: '2026-11-10T13:00:00.000Z',
    replies,
  });

  test('title, body, Comments heading, nested replies indented two spaces per level, in thread order', () => {
    const md = renderThreadMarkdown({
      title: 'Billing is painful',
      selftext: 'Body of the post.',
      comments: [
        c('ann', 'Stripe webhooks keep failing.', 5, [c('ben', 'Same here.', 3, [c('cy', 'Try retries.', 1)]), c('bo', 'Not for us.', -2)]),
        c('dee', 'We switched.', 0),
      ],
    });
    assert.equal(
      md,
      [
        '# Billing is painful',
        '',
        'Body of the post.',
        '',
        '## Comments',
        '- **ann** (5 points): Stripe webhooks keep failing.',
        '  - **ben** (3 points): Same here.',
        '    - **cy** (1 points): Try retries.',
        '  - **bo** (-2 points): Not for us.',
        '- **dee** (0 points): We switched.',
      ].join('\n'),
    );
  });

  test('a multi-line comment keeps its continuation lines under its bullet; blank lines stay blank', () => {
    const md = renderThreadMarkdown({
      title: 'T',
      selftext: 'Line one.\nLine two.',
      comments: [c('ann', 'First.\n\nSecond paragraph.', 2, [c('ben', 'Reply line 1\nReply line 2', 1)])],
    });
    assert.equal(
      md,
      [
        '# T',
        '',
        'Line one.',
        'Line two.',
        '',
        '## Comments',
        '- **ann** (2 points): First.',
        '',
        '  Second paragraph.',
        '  - **ben** (1 points): Reply line 1',
        '    Reply line 2',
      ].join('\n'),
    );
  });

  test('a thread without comments ends with the Comments heading; an empty body leaves an empty line', () => {
    assert.equal(renderThreadMarkdown({ title: 'Only a title', selftext: '', comments: [] }), '# Only a title\n\n\n\n## Comments');
  });
});

describe('normalizePermalinkKey', () => {
  const cases: [string, string][] = [
    ['/r/SaaS/comments/1abcde/x/', '/r/SaaS/comments/1abcde/x'],
    ['/r/SaaS/comments/1abcde/x', '/r/SaaS/comments/1abcde/x'],
    ['https://www.reddit.com/r/SaaS/comments/1abcde/x/', '/r/SaaS/comments/1abcde/x'],
    ['http://old.reddit.com/r/SaaS/comments/1abcde/x/', '/r/SaaS/comments/1abcde/x'],
    ['https://any.host.example:8443/r/SaaS/comments/1abcde/x', '/r/SaaS/comments/1abcde/x'],
    ['HTTPS://WWW.REDDIT.COM/r/SaaS/comments/1abcde/x/', '/r/SaaS/comments/1abcde/x'],
    ['/r/SaaS/comments/1abcde/x/?utm_source=share&utm_medium=web', '/r/SaaS/comments/1abcde/x'],
    ['https://www.reddit.com/r/SaaS/comments/1abcde/x/?a=1#comment-2', '/r/SaaS/comments/1abcde/x'],
    ['/r/SaaS/comments/1abcde/x#frag', '/r/SaaS/comments/1abcde/x'],
    ['/r/SaaS/comments/1abcde/x?next=/r/other/', '/r/SaaS/comments/1abcde/x'],
    ['/r/SaaS/comments/1abcde/x///', '/r/SaaS/comments/1abcde/x'],
    ['r/SaaS/comments/1abcde/x/', '/r/SaaS/comments/1abcde/x'],
    ['  /r/SaaS/comments/1abcde/x/  ', '/r/SaaS/comments/1abcde/x'],
    ['https://www.reddit.com', '/'],
    ['https://www.reddit.com/', '/'],
    ['/', '/'],
    ['', '/'],
  ];
  for (const [input, key] of cases) {
    test(`${JSON.stringify(input)} → ${JSON.stringify(key)}`, () => {
      assert.equal(normalizePermalinkKey(input), key);
    });
  }

  test('the path keeps its case (ids are case-sensitive)', () => {
    assert.notEqual(normalizePermalinkKey('/r/SaaS/comments/AbC/x'), normalizePermalinkKey('/r/SaaS/comments/abc/x'));
  });
});

describe('applyEdits (pure)', () => {
  const MEMORY: ProjectMemory = {
    id: 'prj_x',
    name: 'X',
    url: 'https://x.example',
    category: 'Tools',
    description: 'Old product.',
    idealCustomer: 'Old customer.',
    competitors: [{ name: 'Ollama', url: 'https://ollama.com', description: 'Runner.' }],
    offerings: [{ name: 'Hosted', description: 'Managed.' }],
    communities: [{ name: 'r/SaaS', description: 'Founders.' }],
    filterRules: ['ignore memes'],
    memoryStatus: 'ready',
    memoryRefreshRequestedAt: null,
  };
  /** Edits as the capability receives them: parsed (and so trimmed) by the schema. */
  const parse = (edits: unknown[]): Edit[] => edits.map((e) => editSchema.parse(e));

  const refusal = (edits: unknown[], memory = MEMORY): ServiceError => {
    try {
      applyEdits(memory, parse(edits));
    } catch (err) {
      assert.ok(err instanceof ServiceError, `expected a ServiceError, got ${String(err)}`);
      return err;
    }
    assert.fail('expected the edits to be refused');
  };

  test('returns the new memory, the sentences and the touched fields, without changing its input', () => {
    const before = structuredClone(MEMORY);
    const outcome = applyEdits(
      MEMORY,
      parse([
        { op: 'set_product', text: 'New product.' },
        { op: 'add_competitor', name: 'Acme', url: 'https://acme.example', description: 'Rival.' },
        { op: 'remove_competitor', name: 'OLLAMA' },
        { op: 'add_filter_rule', rule: 'exclude ads' },
      ]),
    );
    assert.deepEqual(MEMORY, before);
    assert.deepEqual(outcome.memory, {
      ...MEMORY,
      description: 'New product.',
      competitors: [{ name: 'Acme', url: 'https://acme.example', description: 'Rival.' }],
      filterRules: ['ignore memes', 'exclude ads'],
    });
    assert.deepEqual(outcome.applied, ['Replaced the product description.', 'Added competitor "Acme".', 'Removed competitor "Ollama".', 'Added filter rule "exclude ads".']);
    assert.deepEqual([...outcome.touched].sort(), ['competitors', 'description', 'filterRules']);
  });

  test('each field an op touches', () => {
    const touched = (edit: unknown) => [...applyEdits(MEMORY, parse([edit])).touched];
    assert.deepEqual(touched({ op: 'set_icp', text: 'New.' }), ['idealCustomer']);
    assert.deepEqual(touched({ op: 'add_offering', name: 'New', description: 'd' }), ['offerings']);
    assert.deepEqual(touched({ op: 'remove_offering', name: 'hosted' }), ['offerings']);
    assert.deepEqual(touched({ op: 'add_community', name: 'hn', description: 'd' }), ['communities']);
    assert.deepEqual(touched({ op: 'remove_community', name: 'SAAS' }), ['communities']);
    assert.deepEqual(touched({ op: 'remove_filter_rule', rule: 'ignore memes' }), ['filterRules']);
  });

  test('the schema trims every string before it reaches applyEdits', () => {
    assert.deepEqual(editSchema.parse({ op: 'add_competitor', name: '  Acme  ', url: ' https://acme.example\n', description: '\tRival. ' }), {
      op: 'add_competitor',
      name: 'Acme',
      url: 'https://acme.example',
      description: 'Rival.',
    });
    assert.deepEqual(editSchema.parse({ op: 'add_filter_rule', rule: '  exclude ads  ' }), { op: 'add_filter_rule', rule: 'exclude ads' });
  });

  test('a no-op edit is invalid, naming its index; a 6th community is limit', () => {
    const e1 = refusal([{ op: 'add_filter_rule', rule: 'x' }, { op: 'remove_offering', name: 'Nope' }]);
    assert.equal(e1.code, 'invalid');
    assert.equal(e1.message, 'edits[1]: offering "Nope" does not exist');
    const e2 = refusal([{ op: 'set_icp', text: ' Old customer. ' }]);
    assert.deepEqual([e2.code, e2.message], ['invalid', 'edits[0]: the ideal-customer description already has this text']);
    const full = { ...MEMORY, communities: ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name, description: name })) };
    const e3 = refusal([{ op: 'add_community', name: 'f', description: 'f' }], full);
    assert.deepEqual([e3.code, e3.message], ['limit', 'edits[0]: a project watches at most 5 communities; remove one first']);
  });

  test('communityKey ignores case and a leading r/ or /r/ (only at the start)', () => {
    assert.equal(communityKey('r/SaaS'), 'saas');
    assert.equal(communityKey('/r/SaaS'), 'saas');
    assert.equal(communityKey('R/SaaS'), 'saas');
    assert.equal(communityKey(' SaaS '), 'saas');
    assert.equal(communityKey('hn'), 'hn');
    assert.equal(communityKey('SaaS/r/'), 'saas/r/');
    assert.notEqual(communityKey('rr/SaaS'), communityKey('SaaS'));
  });

  test('an edit schema refuses an unknown op and extra properties', () => {
    assert.equal(editSchema.safeParse({ op: 'nope' }).success, false);
    assert.equal(editSchema.safeParse({ op: 'set_icp', text: 'x', extra: 1 }).success, false);
    assert.equal(editSchema.safeParse({ op: 'add_competitor', name: 'x', url: 'javascript:alert(1)', description: 'd' }).success, false);
  });
});

describe('identifiers', () => {
  test('base32 is RFC 4648 lowercase without padding', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'my'],
      ['fo', 'mzxq'],
      ['foo', 'mzxw6'],
      ['foob', 'mzxw6yq'],
      ['fooba', 'mzxw6ytb'],
      ['foobar', 'mzxw6ytboi'],
    ];
    for (const [raw, encoded] of vectors) assert.equal(base32(Buffer.from(raw)), encoded, raw);
    assert.equal(base32(new Uint8Array(16)), 'a'.repeat(26));
    assert.equal(base32(new Uint8Array(16).fill(255)), `${'7'.repeat(25)}4`);
  });

  test('newId is the type prefix, an underscore and 26 base32 characters (128 bits), distinct each time', () => {
    const prefixes: IdPrefix[] = ['prj', 'sov', 'sig', 'run', 'key', 'brf'];
    for (const prefix of prefixes) {
      const ids = Array.from({ length: 500 }, () => newId(prefix));
      for (const id of ids) assert.match(id, new RegExp(`^${prefix}_[a-z2-7]{26}$`));
      assert.equal(new Set(ids).size, ids.length);
    }
  });
});

describe('timestamps', () => {
  test('only YYYY-MM-DDTHH:MM:SS.mmmZ of a real instant is a timestamp', () => {
    assert.equal(isIsoTimestamp('2026-11-01T09:00:00.000Z'), true);
    assert.equal(isIsoTimestamp(new Date(0).toISOString()), true);
    const bad = [
      '2026-11-01T09:00:00Z',
      '2026-11-01T09:00:00.000+00:00',
      '2026-11-01 09:00:00.000Z',
      '2026-13-01T09:00:00.000Z',
      // Dates and times that Date.parse would silently roll over to another instant.
      '2026-02-30T06:00:00.000Z',
      '2026-11-31T06:00:00.000Z',
      '2026-11-01T24:00:00.000Z',
      'yesterday',
      '',
    ];
    for (const value of bad) assert.equal(isIsoTimestamp(value), false, value);
    assert.equal(isIsoTimestamp('2028-02-29T23:59:59.999Z'), true);
  });
});
