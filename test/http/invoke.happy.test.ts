/**
 * Happy paths of POST /api/v1/invoke, on every dialect: every capability of the registry answers
 * the exact data of spec §2/§4.2 and DESIGN §4 for the small fixture (test/fixtures/small-bundle.ts).
 *
 * The HAPPY table holds at least one case per capability; a test fails when the registry gains a
 * capability without a case here. Every successful answer is also checked against the
 * capability's own `output` schema (no missing and no extra fields) and every timestamp in it
 * against DESIGN's `YYYY-MM-DDTHH:MM:SS.mmmZ`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { capabilities, findCapability } from '../../src/capabilities/registry.ts';
import { parseBundle, type BundleProject } from '../../src/ingest/bundle.ts';
import { importBundle } from '../../src/ingest/import.ts';
import { CAROL } from '../fixtures/small-bundle.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type Keys, type TestService } from '../helpers/service.ts';

// ---------------------------------------------------------------------------------------------
// Checks shared by every successful call
// ---------------------------------------------------------------------------------------------

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Fields that hold timestamps anywhere in the spec's resources. */
const TIMESTAMP_FIELDS = new Set(['seenAt', 'firstSeenAt', 'lastSeenAt', 'lastUpdatedAt', 'postCreatedAt', 'windowStart', 'windowEnd']);
const NULLABLE_TIMESTAMP_FIELDS = new Set(['memoryRefreshRequestedAt']);

function assertTimestamps(value: unknown, path: string): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => assertTimestamps(v, `${path}[${i}]`));
    return;
  }
  if (value === null || typeof value !== 'object') {
    // Anything else that looks like a date must have the one timestamp shape too.
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) assert.match(value, TIMESTAMP, `${path}: ${value}`);
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (TIMESTAMP_FIELDS.has(key)) assert.match(String(v), TIMESTAMP, `${at} is not a timestamp: ${String(v)}`);
    else if (NULLABLE_TIMESTAMP_FIELDS.has(key)) {
      if (v !== null) assert.match(String(v), TIMESTAMP, `${at} is not a timestamp: ${String(v)}`);
    } else assertTimestamps(v, at);
  }
}

type KeyName = keyof Keys;

interface InvokeBody {
  capability: string;
  input?: Record<string, unknown>;
  project?: string;
  render?: 'text';
}

interface Success {
  data: any;
  text?: string;
}

/**
 * Invokes and asserts a 200 whose body is exactly `{ data }` (or `{ data, text }` when text is
 * expected), whose data parses with the capability's output schema into itself (nothing missing,
 * nothing extra) and whose timestamps have the one shape.
 */
async function ok(svc: TestService, key: KeyName, body: InvokeBody, expectText = false): Promise<Success> {
  const answer = await svc.invoke(svc.keys[key], body);
  assert.equal(answer.status, 200, `${body.capability}: ${JSON.stringify(answer.body)}`);
  assert.equal(answer.headers.get('content-type')?.split(';')[0], 'application/json');
  assert.deepEqual(Object.keys(answer.body).sort(), expectText ? ['data', 'text'] : ['data']);
  const capability = findCapability(body.capability);
  assert.ok(capability, `no capability ${body.capability}`);
  assert.deepEqual(capability.output.parse(answer.body.data), answer.body.data, `${body.capability}: data differs from its output schema`);
  assertTimestamps(answer.body.data, 'data');
  return answer.body as Success;
}

// ---------------------------------------------------------------------------------------------
// Expected values, written out from the fixture
// ---------------------------------------------------------------------------------------------

const t = (day: number, hour = 12) => `2026-11-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;

const ALPHA_COMPETITORS = [
  { name: 'Ollama', url: 'https://ollama.com', description: 'Local model runner.' },
  { name: 'LM Studio', url: 'https://lmstudio.ai', description: 'Desktop app.' },
];
const ALPHA_MEMORY = {
  id: 'prj_alpha',
  name: 'Alpha',
  url: 'https://alpha.example.com',
  category: 'Developer tools',
  description: 'Alpha helps teams ship.',
  idealCustomer: 'Small SaaS teams.',
  competitors: ALPHA_COMPETITORS,
  offerings: [{ name: 'Hosted Alpha', description: 'Managed plan.' }],
  communities: [{ name: 'r/SaaS', description: 'Founders.' }],
  filterRules: ['ignore memes'],
  memoryStatus: 'ready',
  memoryRefreshRequestedAt: null,
};
const ALPHA_ID = { id: 'prj_alpha', name: 'Alpha', url: 'https://alpha.example.com' };
const BETA_ID = { id: 'prj_beta', name: 'Beta', url: 'https://beta.example.org' };

/** DESIGN §4 "project.memory with field": what each `field` selects besides id, name and url. */
const FIELD_SELECTIONS: Record<string, Record<string, unknown>> = {
  product: { description: 'Alpha helps teams ship.', category: 'Developer tools' },
  icp: { idealCustomer: 'Small SaaS teams.' },
  communities: { communities: [{ name: 'r/SaaS', description: 'Founders.' }] },
  competitors: { competitors: ALPHA_COMPETITORS },
  offerings: { offerings: [{ name: 'Hosted Alpha', description: 'Managed plan.' }] },
  filter_rules: { filterRules: ['ignore memes'] },
};

const P1_URL = 'https://www.reddit.com/r/SaaS/comments/p1/billing_is_painful/';
const P2_URL = 'https://www.reddit.com/r/SaaS/comments/p2/churn_questions/';

/** DESIGN §4 "posts.get": title, blank, body, blank, `## Comments`, bullets, replies +2 spaces. */
const P1 = {
  id: 'p1',
  permalink: '/r/SaaS/comments/p1/billing_is_painful/',
  title: 'Billing is painful',
  selftext: 'Body of Billing is painful.',
  author: 'op_p1',
  score: 20,
  postCreatedAt: t(10),
  content: [
    '# Billing is painful',
    '',
    'Body of Billing is painful.',
    '',
    '## Comments',
    '- **ann** (5 points): Stripe webhooks keep failing for us.',
    '  - **ben** (3 points): Same here.',
    // A multi-line comment body continues under its bullet, indented past the "- ".
    '    We gave up.',
    '    - **cy** (1 points): Try retries.',
    '- **dee** (2 points): We switched from Ollama to vLLM.',
  ].join('\n'),
  community: 'SaaS',
};
const P2 = {
  id: 'p2',
  permalink: '/r/SaaS/comments/p2/churn_questions/',
  title: 'Churn questions',
  selftext: 'Body of Churn questions.',
  author: 'op_p2',
  score: 21,
  postCreatedAt: t(11),
  content: '# Churn questions\n\nBody of Churn questions.\n\n## Comments\n- **eve** (4 points): How do you measure churn?',
  community: 'SaaS',
};
const P3 = {
  id: 'p3',
  permalink: '/r/startups/comments/p3/pricing_pages/',
  title: 'Pricing pages',
  selftext: 'Body of Pricing pages.',
  author: 'op_p3',
  score: 22,
  postCreatedAt: t(12),
  content: '# Pricing pages\n\nBody of Pricing pages.\n\n## Comments',
  community: 'startups',
};
/** posts.get signals: pains carry their theme, competitor and content signals carry null. */
const P1_SIGNALS = [
  { kind: 'pain', quote: 'Stripe webhooks keep failing for us.', author: 'ann', sovId: 'sov_a1' },
  { kind: 'pain', quote: 'We gave up.', author: 'ben', sovId: 'sov_a2' },
  { kind: 'competitor', quote: 'We switched from Ollama to vLLM.', author: 'dee', sovId: null },
  { kind: 'competitor', quote: 'We switched from Ollama to vLLM.', author: 'dee', sovId: null },
];
const P2_SIGNALS = [
  { kind: 'pain', quote: 'How do you measure churn?', author: 'eve', sovId: 'sov_a1' },
  { kind: 'competitor', quote: 'How do you measure churn?', author: 'eve', sovId: null },
  { kind: 'content', quote: 'How do you measure churn?', author: 'eve', sovId: null },
];

const SIG_A1 = {
  signalId: 'sig_a1',
  quote: 'Stripe webhooks keep failing for us.',
  author: 'ann',
  postUrl: P1_URL,
  postTitle: 'Billing is painful',
  community: 'SaaS',
  seenAt: t(10, 13),
  moves: { content: { title: 'Write a webhook guide', body: 'Explain retries.' } },
};
const SIG_A2 = {
  signalId: 'sig_a2',
  quote: 'How do you measure churn?',
  author: 'eve',
  postUrl: P2_URL,
  postTitle: 'Churn questions',
  community: 'SaaS',
  seenAt: t(11, 13),
  moves: {},
};
const SIG_A3 = {
  signalId: 'sig_a3',
  quote: 'We gave up.',
  author: 'ben',
  postUrl: P1_URL,
  postTitle: 'Billing is painful',
  community: 'SaaS',
  seenAt: t(10, 14),
  moves: { content: { title: 'Churn explainer', body: 'Define churn.' } },
};
const THEME_A1 = {
  id: 'sov_a1',
  title: 'Failing billing webhooks',
  summary: 'Webhooks fail silently.',
  postCount: 2,
  firstSeenAt: t(10, 13),
  lastSeenAt: t(11, 13),
  pains: [SIG_A2, SIG_A1],
};
const THEME_A2 = {
  id: 'sov_a2',
  title: 'Measuring churn',
  summary: 'Nobody knows how to measure churn.',
  postCount: 1,
  firstSeenAt: t(10, 14),
  lastSeenAt: t(10, 14),
  pains: [SIG_A3],
};
// lastUpdatedAt (DESIGN §4) is the newest signal's seenAt — when the community last spoke of the
// theme — not the bundle's updatedAt; a theme with no signal keeps its own updatedAt.
const ROW_A1 = { id: 'sov_a1', title: 'Failing billing webhooks', summary: 'Webhooks fail silently.', postCount: 2, lastUpdatedAt: t(11, 13) };
const ROW_A2 = { id: 'sov_a2', title: 'Measuring churn', summary: 'Nobody knows how to measure churn.', postCount: 1, lastUpdatedAt: t(10, 14) };
const ROW_A3 = { id: 'sov_a3', title: 'Empty theme', summary: 'No signals yet.', postCount: 0, lastUpdatedAt: t(5, 8) };
const ROW_AC = { id: 'sov_ac', title: 'Ollama speed', summary: 'Ollama is slow for teams.', postCount: 1, lastUpdatedAt: t(10, 15) };

/** One item of the fixture's briefs, as stored (no `n`). */
function briefItem(tag: string, section: string, k: string) {
  return {
    origin: 'pain',
    surfaced: { summary: `${tag} ${section} ${k}`, quote: { text: `quote ${tag} ${section} ${k}`, who: 'someone', sub: 'SaaS' } },
    move: { title: `Move ${tag} ${section} ${k}`, body: `Do ${tag} ${section} ${k}.` },
    sources: [{ title: `Post ${tag}`, url: `https://www.reddit.com/r/SaaS/comments/${tag}/`, sub: 'SaaS' }],
  };
}

/**
 * The alpha brief whose window ends on 2026-11-`day`, numbered as DESIGN §4 says: the newest
 * (day 16) holds 1..3, day 15 holds 4..6, … day 12 holds 13..15; day 11 is the sixth, never numbered.
 */
function alphaBrief(day: number) {
  const tag = `d${day}`;
  const first = (16 - day) * 3 + 1;
  return {
    window: `Nov ${day - 1} – Nov ${day}`,
    brief: {
      sections: [
        {
          kind: 'content',
          title: 'Content ideas',
          items: [
            { n: first, ...briefItem(tag, 'content', 'a') },
            { n: first + 1, ...briefItem(tag, 'content', 'b') },
          ],
        },
        { kind: 'offers', title: 'Offers', items: [{ n: first + 2, ...briefItem(tag, 'offers', 'a') }] },
      ],
    },
  };
}

const PAGE_DEFAULTS = { page: 1, pageSize: 25, pageCount: 1 };

// ---------------------------------------------------------------------------------------------
// The table: at least one happy case per capability
// ---------------------------------------------------------------------------------------------

interface HappyCase {
  title: string;
  key?: KeyName;
  request: Omit<InvokeBody, 'capability'>;
  /** The exact `data`, or a check of its own (which may make further calls). */
  expect: unknown | ((data: any, svc: TestService) => void | Promise<void>);
}

const HAPPY: Record<string, HappyCase[]> = {
  'project.memory': [
    {
      title: 'without field: the whole memory of the default project (prj_alpha), field null',
      request: {},
      expect: { memory: ALPHA_MEMORY, field: null },
    },
    ...Object.entries(FIELD_SELECTIONS).map(([field, selected]) => ({
      title: `field ${field}: id, name, url and only ${Object.keys(selected).join(' + ')}; field echoed`,
      request: { input: { field } },
      expect: { memory: { ...ALPHA_ID, ...selected }, field },
    })),
  ],
  'project.list': [
    {
      title: "alice's projects newest first, summary fields only",
      request: {},
      expect: {
        projects: [
          { ...ALPHA_ID, memoryStatus: 'ready' },
          { ...BETA_ID, memoryStatus: 'ready' },
        ],
      },
    },
    {
      title: "bob sees only his own project",
      key: 'bob',
      request: {},
      expect: { projects: [{ id: 'prj_bob', name: 'Bob Co', url: 'https://bob.example.net', memoryStatus: 'ready' }] },
    },
    {
      title: 'carol, with no project, gets an empty list',
      key: 'carol',
      request: {},
      expect: { projects: [] },
    },
  ],
  'briefs.list': [
    {
      title: 'default limit 3: the three newest briefs by windowEnd, items numbered 1..9',
      request: {},
      expect: { briefs: [alphaBrief(16), alphaBrief(15), alphaBrief(14)] },
    },
    {
      title: 'limit 1: the newest brief only, numbered 1..3',
      request: { input: { limit: 1 } },
      expect: { briefs: [alphaBrief(16)] },
    },
    {
      title: 'limit 5: five briefs numbered 1..15; the sixth (oldest) brief is not among them',
      request: { input: { limit: 5 } },
      expect: { briefs: [alphaBrief(16), alphaBrief(15), alphaBrief(14), alphaBrief(13), alphaBrief(12)] },
    },
  ],
  'briefs.get': [
    {
      title: 'n=1: the first content item of the newest brief; item without n',
      request: { input: { n: 1 } },
      expect: { n: 1, when: 'Nov 15 – Nov 16', kind: 'content', item: briefItem('d16', 'content', 'a') },
    },
    {
      title: 'n=3: an offers item',
      request: { input: { n: 3 } },
      expect: { n: 3, when: 'Nov 15 – Nov 16', kind: 'offers', item: briefItem('d16', 'offers', 'a') },
    },
    {
      title: 'n=5: the second item of the second brief',
      request: { input: { n: 5 } },
      expect: { n: 5, when: 'Nov 14 – Nov 15', kind: 'content', item: briefItem('d15', 'content', 'b') },
    },
    {
      title: 'n=15: the last numbered item, in the fifth newest brief',
      request: { input: { n: 15 } },
      expect: { n: 15, when: 'Nov 11 – Nov 12', kind: 'offers', item: briefItem('d12', 'offers', 'a') },
    },
  ],
  'pains.list': [
    {
      title: 'type pain with defaults: sort recent (lastUpdatedAt desc: newest signal seenAt), page 1 of 1, 25 per page',
      request: { input: { type: 'pain' } },
      expect: {
        rows: [ROW_A1, ROW_A2, ROW_A3],
        totalCount: 3,
        totalPostCount: 2,
        ...PAGE_DEFAULTS,
        rangeStart: 1,
        rangeEnd: 3,
        sort: 'recent',
      },
    },
    {
      title: 'sort posts: postCount desc',
      request: { input: { type: 'pain', sort: 'posts' } },
      expect: { rows: [ROW_A1, ROW_A2, ROW_A3], totalCount: 3, totalPostCount: 2, ...PAGE_DEFAULTS, rangeStart: 1, rangeEnd: 3, sort: 'posts' },
    },
    {
      title: 'pageSize 2, page 1: rows 1-2 of 3, pageCount 2',
      request: { input: { type: 'pain', sort: 'posts', pageSize: 2 } },
      expect: { rows: [ROW_A1, ROW_A2], totalCount: 3, totalPostCount: 2, page: 1, pageSize: 2, pageCount: 2, rangeStart: 1, rangeEnd: 2, sort: 'posts' },
    },
    {
      title: 'pageSize 2, page 2: row 3 of 3',
      request: { input: { type: 'pain', sort: 'posts', pageSize: 2, page: 2 } },
      expect: { rows: [ROW_A3], totalCount: 3, totalPostCount: 2, page: 2, pageSize: 2, pageCount: 2, rangeStart: 3, rangeEnd: 3, sort: 'posts' },
    },
    {
      title: 'a page past the end: no rows, rangeStart = rangeEnd = 0, totals unchanged',
      request: { input: { type: 'pain', pageSize: 2, page: 3 } },
      expect: { rows: [], totalCount: 3, totalPostCount: 2, page: 3, pageSize: 2, pageCount: 2, rangeStart: 0, rangeEnd: 0, sort: 'recent' },
    },
    {
      title: 'type competitor: only competitor themes, their own totals',
      request: { input: { type: 'competitor' } },
      expect: { rows: [ROW_AC], totalCount: 1, totalPostCount: 1, ...PAGE_DEFAULTS, rangeStart: 1, rangeEnd: 1, sort: 'recent' },
    },
  ],
  'pains.get': [
    {
      title: 'a theme with two pains on two posts: newest seenAt first, with post and moves',
      request: { input: { sovId: 'sov_a1' } },
      expect: THEME_A1,
    },
    {
      title: 'a theme with one pain',
      request: { input: { sovId: 'sov_a2' } },
      expect: THEME_A2,
    },
    {
      title: 'an empty theme: no pains, postCount 0, seen-at range falls back to the theme update time',
      request: { input: { sovId: 'sov_a3' } },
      expect: { id: 'sov_a3', title: 'Empty theme', summary: 'No signals yet.', postCount: 0, firstSeenAt: t(5, 8), lastSeenAt: t(5, 8), pains: [] },
    },
  ],
  'pains.sources': [
    {
      title: 'list mode: every pain theme ranked by post count, painCount = its number of signals',
      request: {},
      expect: {
        mode: 'list',
        pains: [
          { id: 'sov_a1', title: 'Failing billing webhooks', summary: 'Webhooks fail silently.', painCount: 2 },
          { id: 'sov_a2', title: 'Measuring churn', summary: 'Nobody knows how to measure churn.', painCount: 1 },
          { id: 'sov_a3', title: 'Empty theme', summary: 'No signals yet.', painCount: 0 },
        ],
      },
    },
    {
      title: 'sources mode: sovs in the order asked, each thread once in order of first appearance',
      request: { input: { sovIds: ['sov_a2', 'sov_a1'] } },
      // sov_a2 → p1; sov_a1 → p2 (newest pain first), then p1 again (deduplicated).
      expect: { mode: 'sources', sovs: [THEME_A2, THEME_A1], threads: [P1, P2] },
    },
    {
      title: 'sources mode, one theme: threads follow its pains newest first',
      request: { input: { sovIds: ['sov_a1'] } },
      expect: { mode: 'sources', sovs: [THEME_A1], threads: [P2, P1] },
    },
    {
      title: 'sources mode with an empty theme: no threads',
      request: { input: { sovIds: ['sov_a3'] } },
      expect: {
        mode: 'sources',
        sovs: [{ id: 'sov_a3', title: 'Empty theme', summary: 'No signals yet.', postCount: 0, firstSeenAt: t(5, 8), lastSeenAt: t(5, 8), pains: [] }],
        threads: [],
      },
    },
  ],
  'posts.get': [
    {
      title: 'by id: the thread as Markdown (nested replies), pains with sovId, other signals with null',
      request: { input: { id: 'p1' } },
      expect: { post: P1, signals: P1_SIGNALS },
    },
    {
      title: 'by t3_ id',
      request: { input: { id: 't3_p2' } },
      expect: { post: P2, signals: P2_SIGNALS },
    },
    {
      title: 'by absolute URL on another host, with query and fragment, without trailing slash',
      request: { input: { permalink: 'https://old.reddit.com/r/SaaS/comments/p1/billing_is_painful?utm_source=x&b=2#c1' } },
      expect: { post: P1, signals: P1_SIGNALS },
    },
    {
      title: 'by the stored absolute URL',
      request: { input: { permalink: P2_URL } },
      expect: { post: P2, signals: P2_SIGNALS },
    },
    {
      title: 'by bare path',
      request: { input: { permalink: '/r/SaaS/comments/p2/churn_questions/' } },
      expect: { post: P2, signals: P2_SIGNALS },
    },
    {
      title: 'by bare path without trailing slash: a post with no comments and no signals',
      request: { input: { permalink: '/r/startups/comments/p3/pricing_pages' } },
      expect: { post: P3, signals: [] },
    },
    {
      title: 'with both id and permalink, id wins',
      request: { input: { id: 'p2', permalink: '/r/SaaS/comments/p1/billing_is_painful/' } },
      expect: { post: P2, signals: P2_SIGNALS },
    },
  ],
  'runs.get': [
    {
      title: "alice's run of prj_alpha, with projectName",
      request: { input: { runId: 'run_a1' } },
      expect: {
        id: 'run_a1',
        projectId: 'prj_alpha',
        projectName: 'Alpha',
        windowStart: t(15, 6),
        windowEnd: t(16, 6),
        status: 'complete',
        signalCounts: { pain: 3, competitor: 3, content: 1 },
        postsAnalyzed: 3,
      },
    },
    {
      title: "alice's run of prj_beta (not her default project), with projectName",
      request: { input: { runId: 'run_beta1' } },
      expect: {
        id: 'run_beta1',
        projectId: 'prj_beta',
        projectName: 'Beta',
        windowStart: t(8, 6),
        windowEnd: t(9, 6),
        status: 'running',
        signalCounts: { pain: 1 },
        postsAnalyzed: 1,
      },
    },
  ],
  'competitors.list': [
    {
      title: 'grouped case-insensitively, memory spelling and url, untracked url null, unmentioned tracked last',
      request: {},
      expect: {
        competitors: [
          {
            // "ollama" and "Ollama" signals: one product, named and linked as in memory.
            name: 'Ollama',
            url: 'https://ollama.com',
            mentions: 2,
            sources: [
              { title: 'Churn questions', url: P2_URL, quote: 'How do you measure churn?' },
              { title: 'Billing is painful', url: P1_URL, quote: 'We switched from Ollama to vLLM.' },
            ],
          },
          { name: 'vLLM', url: null, mentions: 1, sources: [{ title: 'Billing is painful', url: P1_URL, quote: 'We switched from Ollama to vLLM.' }] },
          { name: 'LM Studio', url: 'https://lmstudio.ai', mentions: 0, sources: [] },
        ],
      },
    },
    {
      title: 'a project with no competitor at all: empty list',
      request: { project: 'beta' },
      expect: { competitors: [] },
    },
  ],
  search: [
    {
      title: 'one word: the theme titled with it first, then the comment and the pain quote holding it; snippets hold the word',
      request: { input: { query: 'webhooks' } },
      expect: (data: any) => {
        assert.deepEqual(data.results.map((r: any) => r.id), ['theme:sov_a1', 'comment:p1:c1', 'signal:sig_a1']);
        assert.deepEqual(data.results[0], { id: 'theme:sov_a1', title: 'Failing billing webhooks', url: 'http://localhost:8080/projects/prj_alpha/themes/sov_a1', snippet: data.results[0].snippet, kind: 'theme' });
        assert.deepEqual(data.results.slice(1).map((r: any) => [r.kind, r.url]), [['comment', P1_URL], ['signal', P1_URL]]);
        for (const r of data.results) assert.match(r.snippet, /webhooks/i);
      },
    },
    {
      title: 'two words: what holds both comes first, then what holds one',
      request: { input: { query: 'Stripe webhooks?' } },
      expect: (data: any) => {
        assert.deepEqual(data.results.slice(0, 2).map((r: any) => r.id).sort(), ['comment:p1:c1', 'signal:sig_a1']);
        assert.equal(data.results[2].id, 'theme:sov_a1');
      },
    },
    {
      title: 'words are stemmed ("fails" finds "fail" and "failing"); limit caps the results',
      request: { input: { query: 'fails', limit: 2 } },
      expect: (data: any) => {
        assert.equal(data.results.length, 2);
        assert.equal(data.results[0].id, 'theme:sov_a1');
      },
    },
    {
      title: "another project's words find nothing (bob's thread), and project switches what is searched",
      request: { input: { query: 'secret bob' } },
      expect: async (data: any, svc: TestService) => {
        assert.deepEqual(data, { results: [] });
        const beta = await ok(svc, 'alice', { capability: 'search', project: 'beta', input: { query: 'beta thread', limit: 2 } });
        assert.deepEqual(beta.data.results.map((r: any) => r.id).sort(), ['post:q1', 'signal:sig_beta1']);
      },
    },
  ],
  fetch: [
    {
      title: "a post: its thread as posts.get's text, its link and facts",
      request: { input: { id: 'post:p1' } },
      expect: async (data: any, svc: TestService) => {
        const thread = await ok(svc, 'alice', { capability: 'posts.get', input: { id: 'p1' }, render: 'text' }, true);
        assert.deepEqual(data, { id: 'post:p1', title: 'Billing is painful', text: thread.text, url: P1_URL, metadata: { kind: 'post', community: 'SaaS', author: 'op_p1', score: 20, postedAt: t(10) } });
      },
    },
    {
      title: 'a comment (a reply, nested): the comment first, then its thread',
      request: { input: { id: 'comment:p1:c2' } },
      expect: (data: any) => {
        assert.equal(data.title, 'Comment by ben on "Billing is painful"');
        assert.ok(data.text.startsWith('- Comment by ben (3 points, 2026-11-10) on "Billing is painful"\n\nSame here.\nWe gave up.\n\nThe thread:\n\n- Posted by op_p1'), data.text);
        assert.equal(data.url, P1_URL);
        assert.equal(data.metadata.commentAuthor, 'ben');
      },
    },
    {
      title: "a theme: pains.get's text and the theme's dashboard page",
      request: { input: { id: 'theme:sov_a1' } },
      expect: async (data: any, svc: TestService) => {
        const theme = await ok(svc, 'alice', { capability: 'pains.get', input: { sovId: 'sov_a1' }, render: 'text' }, true);
        assert.deepEqual(data, {
          id: 'theme:sov_a1',
          title: 'Failing billing webhooks',
          text: theme.text,
          url: 'http://localhost:8080/projects/prj_alpha/themes/sov_a1',
          metadata: { kind: 'theme', postCount: 2, quotes: 2, firstSeenAt: t(10, 13), lastSeenAt: t(11, 13) },
        });
      },
    },
    {
      title: 'a signal: the quote, who and where, its theme and moves',
      request: { input: { id: 'signal:sig_a1' } },
      expect: {
        id: 'signal:sig_a1',
        title: 'Pain by ann in "Billing is painful"',
        text: [
          '- pain: "Stripe webhooks keep failing for us."',
          `- By ann in SaaS, 2026-11-10, in "Billing is painful" (${P1_URL}); the thread: fetch post:p1`,
          '- Theme sov_a1: Failing billing webhooks',
          '- content move: Write a webhook guide: Explain retries.',
        ].join('\n'),
        url: P1_URL,
        metadata: { kind: 'signal', signalKind: 'pain', author: 'ann', seenAt: t(10, 13), themeId: 'sov_a1' },
      },
    },
    {
      title: 'a brief item: the item on one line, linked to its first source',
      request: { input: { id: 'brief:brf_a6:1.0' } },
      expect: {
        id: 'brief:brf_a6:1.0',
        title: 'd16 offers a',
        text: '- Brief Nov 15 – Nov 16\n- Offers: d16 offers a. Quote: "quote d16 offers a" (someone in SaaS). Move: Move d16 offers a: Do d16 offers a. Sources: Post d16 (https://www.reddit.com/r/SaaS/comments/d16/)',
        url: 'https://www.reddit.com/r/SaaS/comments/d16/',
        metadata: { kind: 'brief', window: 'Nov 15 – Nov 16', section: 'offers' },
      },
    },
  ],
  'memory.edit': [
    {
      // The dedicated memory.edit suite covers the operations; this is the one happy call.
      title: 'one edit on prj_beta (chosen by project): applied sentence, and project.memory reflects it',
      request: { project: 'beta.example', input: { edits: [{ op: 'add_filter_rule', rule: '  ignore job posts  ' }] } },
      expect: async (data: any, svc: TestService) => {
        assert.deepEqual(data, { applied: ['Added filter rule "ignore job posts".'] });
        const after = await ok(svc, 'alice', { capability: 'project.memory', project: 'beta', input: { field: 'filter_rules' } });
        assert.deepEqual(after.data, { memory: { ...BETA_ID, filterRules: ['ignore job posts'] }, field: 'filter_rules' });
        // The edit went to beta only.
        const alpha = await ok(svc, 'alice', { capability: 'project.memory' });
        assert.deepEqual(alpha.data, { memory: ALPHA_MEMORY, field: null });
      },
    },
  ],
};

/**
 * Spec §4.2's column "render text", widened by DESIGN §11: every read has a text form, and so has
 * memory.edit.
 */
const TEXT_CAPABILITIES = new Set(capabilities.filter((c) => c.kind === 'read' || c.name === 'memory.edit').map((c) => c.name));

/**
 * Text forms that hold a thread as Markdown (DESIGN §11: posts.get's text is the thread itself):
 * their bullet lines come first, then the thread's lines, which need not be bullets.
 */
const THREAD_TEXT = new Set(['posts.get', 'pains.sources']);

/** DESIGN §11: search and fetch answer as ChatGPT reads them, one text holding the data as JSON. */
const JSON_TEXT = new Set(['search', 'fetch']);

/** A request per capability for the render tests (memory.edit with an edit of its own). */
const RENDER_REQUESTS: Record<string, Omit<InvokeBody, 'capability'>> = {
  'project.memory': {},
  'project.list': {},
  'briefs.list': { input: { limit: 2 } },
  'briefs.get': { input: { n: 1 } },
  'pains.list': { input: { type: 'pain' } },
  'pains.get': { input: { sovId: 'sov_a1' } },
  'pains.sources': { input: { sovIds: ['sov_a1'] } },
  'posts.get': { input: { id: 'p1' } },
  'runs.get': { input: { runId: 'run_a1' } },
  'competitors.list': {},
  search: { input: { query: 'webhooks' } },
  fetch: { input: { id: 'post:p1' } },
  'memory.edit': { project: 'beta', input: { edits: [{ op: 'add_offering', name: 'Beta plan', description: 'A plan.' }] } },
};

/** What each text rendering must mention, in this order (the layout itself is not fixed). */
const TEXT_MENTIONS: Record<string, string[]> = {
  'project.memory': ['Alpha', 'https://alpha.example.com', 'Ollama', 'LM Studio', 'Hosted Alpha', 'r/SaaS', 'ignore memes'],
  'project.list': ['Alpha', 'Beta'],
  'briefs.get': ['d16 content a', 'Move d16 content a'],
  'pains.list': ['Failing billing webhooks', 'Measuring churn', 'Empty theme'],
  'posts.get': ['op_p1', 'SaaS', 'Stripe webhooks keep failing for us.', '# Billing is painful', '## Comments', 'We gave up.'],
  'briefs.list': ['Brief', '#1', 'd16 content a', 'Move d16 content a'],
  'pains.get': ['sov_a1', 'Failing billing webhooks', 'Webhooks fail silently.'],
  'pains.sources': ['sov_a1', 'Failing billing webhooks', 'Thread 1 of 2', '# Churn questions', 'Thread 2 of 2', '# Billing is painful'],
  'runs.get': ['run_a1', 'Alpha', 'complete', '3 posts analyzed', 'pain 3', 'competitor 3', 'content 1'],
  'competitors.list': ['Ollama', 'vLLM', 'LM Studio'],
  'memory.edit': ['Added offering "Beta plan".'],
};

function assertMentionsInOrder(text: string, words: string[]): void {
  let from = 0;
  for (const word of words) {
    const at = text.indexOf(word, from);
    assert.ok(at >= 0, `text lacks "${word}" (after position ${from}):\n${text}`);
    from = at + word.length;
  }
}

// ---------------------------------------------------------------------------------------------
// A second data set (carol's projects) for the rules the small fixture cannot show:
// sort ties, pains counted per signal vs per post, threads deduplicated by URL, and the
// "most recently created of several matches" rule when that is not the default project.
// ---------------------------------------------------------------------------------------------

const DUP_URL = 'https://www.reddit.com/r/ties/comments/abc123/dup/';

function carolProject(id: string, name: string, url: string, createdDay: number, extra: Partial<BundleProject> = {}): BundleProject {
  return {
    owner: CAROL,
    id,
    name,
    url,
    category: '',
    description: `${name} product.`,
    idealCustomer: '',
    competitors: [],
    offerings: [],
    communities: [],
    filterRules: [],
    memoryStatus: 'ready',
    memoryRefreshRequestedAt: null,
    createdAt: t(createdDay, 9),
    posts: [],
    themes: [],
    signals: [],
    briefs: [],
    runs: [],
    ...extra,
  };
}

const tiePost = (id: string, title: string, url: string, permalink: string) => ({
  id,
  url,
  permalink,
  community: 'ties',
  title,
  selftext: `Body ${title}.`,
  author: `op_${id}`,
  score: 1,
  postCreatedAt: t(6),
  comments: [],
});

const tieSignal = (id: string, postId: string, themeId: string, seenAt: string) => ({
  id,
  postId,
  kind: 'pain' as const,
  quote: `Body ${id}.`,
  author: 'someone',
  themeId,
  competitor: null,
  seenAt,
  moves: {},
});

const tieTheme = (id: string, updatedAt: string) => ({ id, type: 'pain' as const, title: `Theme ${id}`, summary: `About ${id}.`, updatedAt });

function carolBundle() {
  return {
    format: 'project-signals-bundle',
    version: 1,
    projects: [
      carolProject('prj_c1', 'Shop', 'https://shop.example.io', 1),
      carolProject('prj_c2', 'Shop Two', 'https://Shop-Two.example.io', 5),
      carolProject('prj_c3', 'Other', 'https://other.example.io', 9, {
        posts: [
          tiePost('z1', 'Tie A', 'https://www.reddit.com/r/ties/comments/z1/a/', '/r/ties/comments/z1/a/'),
          tiePost('z2', 'Tie B', 'https://www.reddit.com/r/ties/comments/z2/b/', '/r/ties/comments/z2/b/'),
          // One thread stored twice (two ids, two permalink spellings, one URL).
          tiePost('abc123', 'Dup thread', DUP_URL, '/r/ties/comments/abc123/dup/'),
          tiePost('abc123_copy', 'Dup thread', DUP_URL, '/r/ties/comments/abc123/'),
        ],
        themes: [
          tieTheme('sov_t1', t(10, 8)),
          tieTheme('sov_t2', t(10, 8)),
          tieTheme('sov_t3', t(12, 8)),
          tieTheme('sov_t4', t(9, 8)),
          tieTheme('sov_t5', t(7, 8)),
        ],
        signals: [
          tieSignal('s1', 'z1', 'sov_t1', t(8, 13)),
          tieSignal('s2', 'z2', 'sov_t2', t(8, 13)),
          tieSignal('s3', 'z1', 'sov_t3', t(8, 14)),
          tieSignal('s4', 'z1', 'sov_t4', t(8, 15)),
          tieSignal('s5', 'z2', 'sov_t4', t(8, 16)),
          tieSignal('s6', 'z2', 'sov_t4', t(8, 17)),
          tieSignal('d1', 'abc123', 'sov_t5', t(7, 13)),
          tieSignal('d2', 'abc123_copy', 'sov_t5', t(7, 14)),
        ],
      }),
    ],
  };
}

const tieRow = (id: string, postCount: number, lastUpdatedAt: string) => ({ id, title: `Theme ${id}`, summary: `About ${id}.`, postCount, lastUpdatedAt });
// lastUpdatedAt: each theme's newest signal (s1/s2 tie, so t1 and t2 tie).
const T1 = tieRow('sov_t1', 1, t(8, 13));
const T2 = tieRow('sov_t2', 1, t(8, 13));
const T3 = tieRow('sov_t3', 1, t(8, 14));
const T4 = tieRow('sov_t4', 2, t(8, 17));
const T5 = tieRow('sov_t5', 2, t(7, 14));

// ---------------------------------------------------------------------------------------------

for (const dialect of DIALECTS) {
  describe(`invoke happy paths (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startService(dialect);
    });
    after(() => svc.close());

    test('every capability of the registry has a happy case in this suite', () => {
      const names = capabilities.map((c) => c.name);
      assert.equal(new Set(names).size, names.length, 'capability names are unique');
      for (const name of names) assert.ok((HAPPY[name]?.length ?? 0) > 0, `no happy case for "${name}"`);
      assert.deepEqual(Object.keys(HAPPY).sort(), [...names].sort(), 'the table names no capability the registry lacks');
      assert.deepEqual(Object.keys(RENDER_REQUESTS).sort(), [...names].sort(), 'every capability has a render request');
    });

    for (const [name, cases] of Object.entries(HAPPY)) {
      for (const c of cases) {
        test(`${name}: ${c.title}`, async () => {
          const answer = await ok(svc, c.key ?? 'alice', { capability: name, ...c.request });
          if (typeof c.expect === 'function') await c.expect(answer.data, svc);
          else assert.deepEqual(answer.data, c.expect);
        });
      }
    }

    test('briefs.list: every item carries n, and numbers do not depend on limit', async () => {
      const numbers = async (limit: number) => {
        const { data } = await ok(svc, 'alice', { capability: 'briefs.list', input: { limit } });
        return data.briefs.flatMap((b: any) => b.brief.sections.flatMap((s: any) => s.items.map((i: any) => i.n)));
      };
      const all = await numbers(5);
      assert.deepEqual(all, Array.from({ length: 15 }, (_, i) => i + 1));
      for (const limit of [1, 2, 3, 4]) assert.deepEqual(await numbers(limit), all.slice(0, limit * 3), `limit ${limit}`);
    });

    test('briefs.get answers, for every n, the item briefs.list numbers n', async () => {
      const { data } = await ok(svc, 'alice', { capability: 'briefs.list', input: { limit: 5 } });
      for (const brief of data.briefs) {
        for (const section of brief.brief.sections) {
          for (const { n, ...item } of section.items) {
            const got = await ok(svc, 'alice', { capability: 'briefs.get', input: { n } });
            assert.deepEqual(got.data, { n, when: brief.window, kind: section.kind, item });
          }
        }
      }
    });

    test('pains.list: totalPostCount counts distinct posts, not postCount sums', async () => {
      // p1 is behind sov_a1 and sov_a2: the sum of postCount is 3, the distinct posts are 2.
      const { data } = await ok(svc, 'alice', { capability: 'pains.list', input: { type: 'pain' } });
      assert.equal(data.rows.reduce((sum: number, r: any) => sum + r.postCount, 0), 3);
      assert.equal(data.totalPostCount, 2);
    });

    describe('project selection', () => {
      test('project is a case-insensitive substring of the URL: "BETA" reads prj_beta', async () => {
        const { data } = await ok(svc, 'alice', { capability: 'project.memory', project: 'BETA', input: { field: 'product' } });
        assert.deepEqual(data, { memory: { ...BETA_ID, description: '', category: '' }, field: 'product' });
        const pains = await ok(svc, 'alice', { capability: 'pains.list', project: 'Beta.Example.ORG', input: { type: 'pain' } });
        assert.deepEqual(pains.data.rows, [{ id: 'sov_beta1', title: 'Beta pain', summary: 'Beta only.', postCount: 1, lastUpdatedAt: t(9, 13) }]);
      });

      test('several matches: the most recently created of them (prj_alpha for "example")', async () => {
        for (const project of ['example', 'https://', '.EXAMPLE.']) {
          const { data } = await ok(svc, 'alice', { capability: 'project.memory', project, input: { field: 'icp' } });
          assert.deepEqual(data, { memory: { ...ALPHA_ID, idealCustomer: 'Small SaaS teams.' }, field: 'icp' }, project);
        }
      });

      test('without project: the most recently created project (prj_alpha)', async () => {
        const { data } = await ok(svc, 'alice', { capability: 'runs.get', input: { runId: 'run_a1' } });
        assert.equal(data.projectId, 'prj_alpha');
        const briefs = await ok(svc, 'alice', { capability: 'briefs.get', input: { n: 1 } });
        assert.equal(briefs.data.when, 'Nov 15 – Nov 16');
      });

      test('a key tied to prj_beta reads prj_beta whatever project says', async () => {
        for (const project of [undefined, 'alpha', 'https://alpha.example.com', 'no-such-project']) {
          const body: InvokeBody = { capability: 'project.memory', input: { field: 'icp' } };
          if (project !== undefined) body.project = project;
          const { data } = await ok(svc, 'aliceBeta', body);
          assert.deepEqual(data, { memory: { ...BETA_ID, idealCustomer: '' }, field: 'icp' }, String(project));
        }
        const brief = await ok(svc, 'aliceBeta', { capability: 'briefs.get', project: 'alpha', input: { n: 1 } });
        assert.deepEqual(brief.data, { n: 1, when: 'Nov 8 – Nov 9', kind: 'content', item: briefItem('beta', 'content', 'a') });
        const post = await ok(svc, 'aliceBeta', { capability: 'posts.get', project: 'alpha', input: { id: 'q1' } });
        assert.equal(post.data.post.title, 'Beta thread');
      });

      test('user-scoped capabilities ignore project, even one that matches nothing', async () => {
        const list = await ok(svc, 'alice', { capability: 'project.list', project: 'no-such-project' });
        assert.deepEqual(list.data.projects.map((p: any) => p.id), ['prj_alpha', 'prj_beta']);
        const listBeta = await ok(svc, 'alice', { capability: 'project.list', project: 'beta' });
        assert.deepEqual(listBeta.data, list.data);
        const run = await ok(svc, 'alice', { capability: 'runs.get', project: 'no-such-project', input: { runId: 'run_a1' } });
        assert.equal(run.data.projectId, 'prj_alpha');
        const runOther = await ok(svc, 'alice', { capability: 'runs.get', project: 'alpha', input: { runId: 'run_beta1' } });
        assert.equal(runOther.data.projectId, 'prj_beta');
      });
    });

    describe('render "text"', () => {
      test('every read and memory.edit has a text form (spec §4.2 widened by DESIGN §11)', () => {
        for (const c of capabilities) assert.equal(typeof c.text === 'function', TEXT_CAPABILITIES.has(c.name), c.name);
      });

      for (const c of capabilities) {
        const request = RENDER_REQUESTS[c.name] ?? {};
        if (TEXT_CAPABILITIES.has(c.name)) {
          test(`${c.name}: text is bullet lines, no table markup, beside the same data`, async () => {
            const answer = await ok(svc, 'alice', { capability: c.name, ...request, render: 'text' }, true);
            const text = answer.text!;
            assert.equal(typeof text, 'string');
            assert.ok(text.length > 0);
            if (JSON_TEXT.has(c.name)) {
              assert.deepEqual(JSON.parse(text), answer.data);
              return;
            }
            const lines = text.split('\n');
            const listLines = THREAD_TEXT.has(c.name) ? lines.slice(0, lines.indexOf('')) : lines;
            assert.ok(listLines.length > 0);
            for (const line of listLines) {
              assert.match(line, /^- \S/, `not a bullet line: ${JSON.stringify(line)}`);
              assert.ok(!line.includes('|'), `table markup in: ${JSON.stringify(line)}`);
            }
            assertMentionsInOrder(text, TEXT_MENTIONS[c.name] ?? []);
            if (c.kind === 'read') {
              // render adds text; it never changes data.
              const plain = await ok(svc, 'alice', { capability: c.name, ...request });
              assert.deepEqual(answer.data, plain.data);
            } else {
              assert.deepEqual(answer.data, { applied: ['Added offering "Beta plan".'] });
              assert.equal(text, '- Added offering "Beta plan".');
            }
          });
        } else {
          test(`${c.name}: no text form, so text is absent even when asked`, async () => {
            const answer = await ok(svc, 'alice', { capability: c.name, ...request, render: 'text' }, false);
            assert.equal('text' in answer, false);
            const plain = await ok(svc, 'alice', { capability: c.name, ...request });
            assert.deepEqual(answer.data, plain.data);
          });
        }
      }

      test('project.list and competitors.list render one bullet line per item; competitors carry their newest quote', async () => {
        const projects = await ok(svc, 'alice', { capability: 'project.list', render: 'text' }, true);
        assert.equal(projects.text!.split('\n').length, 2);
        const competitors = await ok(svc, 'alice', { capability: 'competitors.list', render: 'text' }, true);
        const lines = competitors.text!.split('\n');
        assert.equal(lines.length, 3);
        assert.ok(lines[0]!.includes('Ollama') && lines[1]!.includes('vLLM') && lines[2]!.includes('LM Studio'), competitors.text);
        assert.ok(lines[0]!.includes('2 mentions. Newest: "How do you measure churn?" (Churn questions,'), lines[0]);
      });

      test("posts.get's text: one line about the post, one bullet per signal, then the thread itself", async () => {
        const answer = await ok(svc, 'alice', { capability: 'posts.get', input: { id: 'p1' }, render: 'text' }, true);
        const lines = answer.text!.split('\n');
        // p1's signal quotes are single lines; a multi-line comment body stays inside the thread.
        assert.equal(lines.indexOf(''), 1 + P1_SIGNALS.length);
        assert.equal(lines.slice(lines.indexOf('') + 1).join('\n'), answer.data.post.content);
      });
    });
  });

  describe(`invoke happy paths on a second data set: ties, dedup, selection (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startService(dialect);
      await importBundle(svc.store, parseBundle(carolBundle()));
    });
    after(() => svc.close());

    const page = (rows: unknown[], sort: string) => ({
      rows,
      totalCount: 5,
      totalPostCount: 4,
      page: 1,
      pageSize: 25,
      pageCount: 1,
      rangeStart: 1,
      rangeEnd: 5,
      sort,
    });

    test('pains.list sort recent: lastUpdatedAt desc; equal lastUpdatedAt ordered by id (descending)', async () => {
      const { data } = await ok(svc, 'carol', { capability: 'pains.list', input: { type: 'pain' } });
      assert.deepEqual(data, page([T4, T3, T2, T1, T5], 'recent'));
    });

    test('pains.list sort posts: postCount desc, then lastUpdatedAt desc, then id (descending)', async () => {
      const { data } = await ok(svc, 'carol', { capability: 'pains.list', input: { type: 'pain', sort: 'posts' } });
      assert.deepEqual(data, page([T4, T5, T3, T2, T1], 'posts'));
    });

    test('pains.list: pages of 2 walk the same order without gaps or repeats', async () => {
      const seen: string[] = [];
      for (const p of [1, 2, 3]) {
        const { data } = await ok(svc, 'carol', { capability: 'pains.list', input: { type: 'pain', sort: 'posts', pageSize: 2, page: p } });
        assert.equal(data.pageCount, 3);
        assert.equal(data.rangeStart, (p - 1) * 2 + 1);
        assert.equal(data.rangeEnd, Math.min(p * 2, 5));
        seen.push(...data.rows.map((r: any) => r.id));
      }
      assert.deepEqual(seen, ['sov_t4', 'sov_t5', 'sov_t3', 'sov_t2', 'sov_t1']);
    });

    test('pains.sources list mode: ranked as sort posts; painCount counts signals, not posts', async () => {
      const { data } = await ok(svc, 'carol', { capability: 'pains.sources' });
      const row = (id: string, painCount: number) => ({ id, title: `Theme ${id}`, summary: `About ${id}.`, painCount });
      // sov_t4: 3 signals on 2 posts.
      assert.deepEqual(data, { mode: 'list', pains: [row('sov_t4', 3), row('sov_t5', 2), row('sov_t3', 1), row('sov_t2', 1), row('sov_t1', 1)] });
    });

    test('pains.sources sources mode: one thread per URL even when stored under two post ids', async () => {
      const { data } = await ok(svc, 'carol', { capability: 'pains.sources', input: { sovIds: ['sov_t5', 'sov_t4'] } });
      assert.deepEqual(data.sovs.map((s: any) => [s.id, s.postCount, s.pains.map((p: any) => p.signalId)]), [
        ['sov_t5', 2, ['d2', 'd1']],
        ['sov_t4', 2, ['s6', 's5', 's4']],
      ]);
      // d2 (abc123_copy) comes first and stands for DUP_URL; abc123 has the same URL and is skipped.
      assert.deepEqual(
        data.threads.map((p: any) => [p.id, p.permalink]),
        [
          ['abc123_copy', '/r/ties/comments/abc123/'],
          ['z2', '/r/ties/comments/z2/b/'],
          ['z1', '/r/ties/comments/z1/a/'],
        ],
      );
      assert.equal(data.threads[0].content, '# Dup thread\n\nBody Dup thread.\n\n## Comments');
    });

    test('several matching projects: the most recently created among the matches, not the default', async () => {
      const product = async (project?: string) => {
        const body: InvokeBody = { capability: 'project.memory', input: { field: 'product' } };
        if (project !== undefined) body.project = project;
        return (await ok(svc, 'carol', body)).data.memory.id;
      };
      assert.equal(await product(), 'prj_c3'); // default: newest of all
      assert.equal(await product('SHOP'), 'prj_c2'); // c1 and c2 match; c2 is newer
      assert.equal(await product('shop-two'), 'prj_c2'); // stored URL has capitals
      assert.equal(await product('shop.example'), 'prj_c1'); // only c1 matches
      assert.equal(await product('example.io'), 'prj_c3'); // all match
    });
  });
}
