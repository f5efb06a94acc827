/**
 * DESIGN §9, the project's read pages: /projects/ID/briefs, /projects/ID/themes (paging, both
 * sorts, both types), /projects/ID/themes/SOVID and /projects/ID/competitors. Happy paths on the
 * small bundle, empty states, lenient query parsing, 404s that tell nothing about others'
 * projects, and escaping of hostile imported text and links.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createUser, setPassword } from '../../src/auth/users.ts';
import type { Bundle, BundleProject } from '../../src/ingest/bundle.ts';
import { parseBundle } from '../../src/ingest/bundle.ts';
import { importBundle } from '../../src/ingest/import.ts';
import { newProjectMemory } from '../../src/domain/resources.ts';
import { upsertProject } from '../../src/store/projects.ts';
import { ALICE, blankProject, BOB, CAROL } from '../fixtures/small-bundle.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { Browser, type Page } from './browser.ts';

const PASSWORD = 'read-pages-password';
const DORA = 'dora@example.com';
const MALLORY = 'mallory@example.com';
const XSS = '<script>alert(1)</script>';
const XSS_ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;';
const JS_URL = 'javascript:alert(1)';
const REL = 'rel="noopener noreferrer nofollow"';
const NOT_FOUND = 'No project of yours has this address.';

const day = (d: number, hour = 12, month = 11) => `2026-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;


/**
 * dora's project with 45 pain themes: m45 is the most recently updated, m01 the least; m01 and
 * m02 alone have signals (3 and 2 posts, seen long before every other theme's update), so
 * `sort=posts` puts them first while `sort=recent` puts them last (m01, seen later, before m02).
 */
function manyThemes(): BundleProject {
  const id = (i: number) => `sov_m${String(i).padStart(2, '0')}`;
  const posts = [1, 2, 3].map((i) => ({
    id: `mp${i}`,
    url: `https://www.reddit.com/r/many/comments/mp${i}/`,
    permalink: `/r/many/comments/mp${i}/`,
    community: 'many',
    title: `Many post ${i}`,
    selftext: '',
    author: `op${i}`,
    score: 1,
    postCreatedAt: day(1, 12, 9),
    comments: [],
  }));
  const signal = (n: number, theme: number, post: number) => ({
    id: `sig_m${n}`, postId: `mp${post}`, kind: 'pain' as const, quote: `Many quote ${n}`, author: `writer${n}`, themeId: id(theme), competitor: null, seenAt: day(post, 12, 9), moves: {},
  });
  return {
    ...blankProject,
    owner: DORA,
    id: 'prj_many',
    name: 'Many',
    url: 'https://many.example.com',
    createdAt: day(1, 9),
    posts,
    themes: Array.from({ length: 45 }, (_, k) => {
      const i = k + 1;
      return { id: id(i), type: 'pain' as const, title: `Many theme ${String(i).padStart(2, '0')}`, summary: `Summary ${i}.`, updatedAt: `2026-10-01T${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 === 0 ? '00' : '30'}:00.000Z` };
    }),
    signals: [
      signal(1, 1, 1), signal(2, 1, 2), signal(3, 1, 3), signal(4, 2, 1), signal(5, 2, 2),
      // 35 products, Tool 01 named in all three posts: more than one page of competitors.
      ...Array.from({ length: 35 }, (_, k) => ({
        id: `sig_tool${k + 1}`, postId: 'mp1', kind: 'competitor' as const, quote: `Tool ${String(k + 1).padStart(2, '0')} is slow`, author: 'writer', themeId: null,
        competitor: `Tool ${String(k + 1).padStart(2, '0')}`, seenAt: day(1, 12, 9), moves: {},
      })),
      ...[2, 3].map((post) => ({ id: `sig_tool1_${post}`, postId: `mp${post}`, kind: 'competitor' as const, quote: 'Tool 01 again', author: 'writer', themeId: null, competitor: 'Tool 01', seenAt: day(post, 12, 9), moves: {} })),
    ],
  };
}

/** mallory's project: hostile text everywhere an import can put it (links are made hostile after). */
function hostile(): BundleProject {
  const post = { id: 'xp1', url: 'https://evil.example.com/thread', permalink: '/r/evil/comments/xp1/', community: XSS, title: `Thread ${XSS}`, selftext: XSS, author: XSS, score: 1, postCreatedAt: day(5), comments: [] };
  return {
    ...blankProject,
    owner: MALLORY,
    id: 'prj_xss',
    name: `Evil ${XSS}`,
    url: 'https://evil.example.com',
    competitors: [{ name: `Rival ${XSS}`, url: 'https://rival.example.com', description: `Tracked ${XSS}` }],
    createdAt: day(1, 9),
    posts: [post, { ...post, id: 'xp2', url: 'https://evil.example.com/second', permalink: '/r/evil/comments/xp2/', title: `Second ${XSS}` }],
    themes: [
      { id: 'sov_x1', type: 'pain', title: `Theme ${XSS}`, summary: `Summary ${XSS}`, updatedAt: day(5) },
      { id: 'sov_x2', type: 'competitor', title: `Weakness ${XSS}`, summary: `About ${XSS}`, updatedAt: day(5) },
    ],
    signals: [
      { id: 'sig_x1', postId: 'xp1', kind: 'pain', quote: `Quote ${XSS}`, author: `Author ${XSS}`, themeId: 'sov_x1', competitor: null, seenAt: day(5, 13), moves: { [`kind ${XSS}`]: { title: `Move ${XSS}`, body: `Body ${XSS}` } } },
      { id: 'sig_x2', postId: 'xp2', kind: 'pain', quote: `Other ${XSS}`, author: `Second ${XSS}`, themeId: 'sov_x1', competitor: null, seenAt: day(5, 14), moves: {} },
      { id: 'sig_x3', postId: 'xp1', kind: 'competitor', quote: `Mention ${XSS}`, author: 'x', themeId: 'sov_x2', competitor: `Rival ${XSS}`, seenAt: day(5, 15), moves: {} },
      { id: 'sig_x4', postId: 'xp2', kind: 'competitor', quote: `Other mention ${XSS}`, author: 'x', themeId: null, competitor: `Upstart ${XSS}`, seenAt: day(5, 16), moves: {} },
    ],
    briefs: [
      {
        id: 'brf_x1',
        window: `Window ${XSS}`,
        windowStart: day(4, 6),
        windowEnd: day(5, 6),
        createdAt: day(5, 7),
        sections: [
          {
            kind: 'content',
            title: `Section ${XSS}`,
            items: [
              {
                origin: XSS,
                surfaced: { summary: `Summary ${XSS}`, quote: { text: `Said ${XSS}`, who: `Who ${XSS}`, sub: `Sub ${XSS}` } },
                move: { title: `Move ${XSS}`, body: `Body ${XSS}` },
                sources: [
                  { title: `Source ${XSS}`, url: 'https://evil.example.com/source', sub: `In ${XSS}` },
                  { title: `Bad link ${XSS}`, url: 'https://evil.example.com/to-be-replaced', sub: 'x' },
                ],
              },
            ],
          },
          { kind: 'offers', title: 'Where your offerings fit', items: [] },
          { kind: 'content', title: 'Empty content', items: [] },
        ],
      },
    ],
  };
}

function bundleOf(...projects: BundleProject[]): Bundle {
  return { format: 'project-signals-bundle', version: 1, projects };
}

/** No link to a script URL; every link off the site carries the rel that gives nothing away. */
function assertSafeLinks(page: Page, what: string): void {
  assert.doesNotMatch(page.html, /href="\s*javascript:/i, what);
  for (const [tag] of page.html.matchAll(/<a\s[^>]*>/g)) {
    const href = /href="([^"]*)"/.exec(tag)?.[1] ?? '';
    assert.ok(href.startsWith('/') || /^https?:\/\//i.test(href), `${what}: ${tag}`);
    if (/^https?:\/\//i.test(href)) assert.ok(tag.includes(REL), `${what}: ${tag}`);
  }
  // No inline script or style for the CSP to trip on; the one script is the site's own file.
  assert.doesNotMatch(page.html, /style="|onclick=|<style/i, what);
  assert.deepEqual([...page.html.matchAll(/<script[^>]*>/g)].map((m) => m[0]), ['<script src="/assets/copy.js" defer="">'], what);
}

/** The text of the page's body, tags dropped (for order checks and "absent" checks). */
function textOf(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
}

for (const dialect of DIALECTS) {
  describe(`project read pages (${dialect})`, () => {
    let svc: TestService;
    const signedIn = new Map<string, Browser>();

    async function as(email: string): Promise<Browser> {
      const known = signedIn.get(email);
      if (known) return known;
      const b = new Browser(svc);
      const res = await b.logIn(email, PASSWORD);
      assert.equal(res.status, 303, res.html);
      signedIn.set(email, b);
      return b;
    }

    async function ok(email: string, path: string): Promise<Page> {
      const page = await (await as(email)).get(path);
      assert.equal(page.status, 200, `${path}: ${page.html}`);
      assertSafeLinks(page, path);
      return page;
    }

    before(async () => {
      svc = await startService(dialect, { web: true });
      for (const userId of [svc.users.alice, svc.users.bob, svc.users.carol]) await setPassword(svc.auth, userId, PASSWORD);
      await createUser(svc.auth, DORA, PASSWORD);
      await createUser(svc.auth, MALLORY, PASSWORD);
      await importBundle(svc.store, parseBundle(bundleOf(manyThemes(), hostile())));
      // Links an import refuses (only http(s) is accepted) but older data or another writer could hold.
      const db = svc.store.db;
      await db.updateTable('posts').set({ url: JS_URL }).where('project_id', '=', 'prj_xss').where('id', '=', 'xp1').execute();
      const brief = await db.selectFrom('briefs').select('sections').where('id', '=', 'brf_x1').executeTakeFirstOrThrow();
      await db.updateTable('briefs').set({ sections: brief.sections.replace('https://evil.example.com/to-be-replaced', JS_URL) }).where('id', '=', 'brf_x1').execute();
      await db.updateTable('projects').set({ competitors: JSON.stringify([{ name: `Rival ${XSS}`, url: JS_URL, description: `Tracked ${XSS}` }]) }).where('id', '=', 'prj_xss').execute();
      // carol's first project, just created: nothing collected yet.
      await upsertProject(db, {
        id: 'prj_carol',
        ownerId: svc.users.carol,
        createdAt: new Date().toISOString(),
        memory: newProjectMemory({ id: 'prj_carol', name: 'Carol Co', url: 'https://carol.example.com', category: '' }),
        editedFields: [],
      });
    });
    after(() => svc.close());

    // --- briefs --------------------------------------------------------------------------------

    test('briefs: the five newest briefs, numbered items with quote, move and sources', async () => {
      const page = await ok(ALICE, '/projects/prj_alpha/briefs');
      const html = page.html;
      assert.match(html, /<title>Briefs · Alpha · Project Signals<\/title>/);
      assert.match(html, /<a href="\/projects\/prj_alpha\/briefs" aria-current="page">Briefs<\/a>/);
      // Five newest of six, newest first; the sixth (Nov 10 – Nov 11) is beyond the numbering.
      const windows = [...html.matchAll(/<h2 class="brief-window">([^<]*)<\/h2>/g)].map((m) => m[1]);
      assert.deepEqual(windows, ['Nov 15 – Nov 16', 'Nov 14 – Nov 15', 'Nov 13 – Nov 14', 'Nov 12 – Nov 13', 'Nov 11 – Nov 12']);
      assert.ok(!html.includes('d11'), 'the sixth brief is not shown');
      // Items numbered 1..15 across briefs, sections in order.
      const numbers = [...html.matchAll(/<span class="item-n">#(\d+)<\/span> <strong>([^<]*)<\/strong>/g)].map((m) => `${m[1]} ${m[2]}`);
      assert.equal(numbers.length, 15);
      assert.deepEqual(numbers.slice(0, 4), ['1 d16 content a', '2 d16 content b', '3 d16 offers a', '4 d15 content a']);
      assert.equal(numbers[14], '15 d12 offers a');
      const text = textOf(html);
      assert.ok(text.indexOf('Content ideas') < text.indexOf('Offers'), 'sections in order');
      // The first item in full.
      const first = /<li id="item-1"[\s\S]*?<\/ul><\/li>/.exec(html)?.[0] ?? '';
      assert.ok(first.includes('<blockquote><p>quote d16 content a</p><p class="muted">— someone in SaaS</p></blockquote>'), first);
      assert.ok(first.includes('<strong>Move d16 content a</strong> Do d16 content a.'), first);
      assert.ok(first.includes(`<a href="https://www.reddit.com/r/SaaS/comments/d16/" ${REL} target="_blank">Post d16</a><span class="muted"> · SaaS</span>`), first);
    });

    test('briefs: an empty offers section says what would have filled it', async () => {
      const text = textOf((await ok(MALLORY, '/projects/prj_xss/briefs')).html);
      assert.match(text, /Where your offerings fit No post in this window asks for what your offerings do, and none complains about a competitor you track\./);
      assert.match(text, /Empty content Nothing in this section\./);
    });

    test('briefs: a project without a brief points at the daily digest and the runs page', async () => {
      const page = await ok(CAROL, '/projects/prj_carol/briefs');
      assert.match(page.html, /No brief yet\./);
      assert.match(page.html, /the daily digest/);
      assert.match(page.html, /<a href="\/projects\/prj_carol\/runs">Run it now<\/a>/);
      assert.doesNotMatch(page.html, /item-n/);
    });

    // --- themes list ---------------------------------------------------------------------------

    test('themes: pain themes by default, each linked with summary, post count and last update', async () => {
      const page = await ok(ALICE, '/projects/prj_alpha/themes');
      const html = page.html;
      assert.match(html, /<a href="\/projects\/prj_alpha\/themes" aria-current="page">Themes<\/a>/);
      assert.match(html, /rows 1–3 of 3 · 2 posts in all/);
      const rows = [...html.matchAll(/<a href="\/projects\/prj_alpha\/themes\/(sov_[a-z0-9]+)\?type=pain&amp;sort=recent"><strong>([^<]*)<\/strong><\/a>/g)].map((m) => [m[1], m[2]]);
      assert.deepEqual(rows, [
        ['sov_a1', 'Failing billing webhooks'],
        ['sov_a2', 'Measuring churn'],
        ['sov_a3', 'Empty theme'],
      ]);
      assert.match(html, /Failing billing webhooks<\/strong><\/a><p class="theme-summary">Webhooks fail silently\.<\/p><p class="hint">2 posts · last updated <time datetime="2026-11-11T13:00:00.000Z">Nov 11, 2026<\/time><\/p>/);
      assert.match(html, /Empty theme<\/strong><\/a><p class="theme-summary">No signals yet\.<\/p><p class="hint">0 posts · last updated <time datetime="2026-11-05T08:00:00.000Z">Nov 5, 2026<\/time>/);
      // The current type and sort are text; the others are links (page 1 again).
      assert.match(html, /<strong aria-current="true">Customer pains<\/strong><a href="\/projects\/prj_alpha\/themes\?type=competitor&amp;sort=recent">Competitor weaknesses<\/a>/);
      assert.match(html, /<strong aria-current="true">Most recent<\/strong><a href="\/projects\/prj_alpha\/themes\?type=pain&amp;sort=posts">Most posts<\/a>/);
      assert.doesNotMatch(html, /aria-label="Pages"/, 'one page: no pager');
      assert.doesNotMatch(html, /class="notice"/);
    });

    test('themes: the other type and the other sort through their links', async () => {
      const competitor = await ok(ALICE, '/projects/prj_alpha/themes?type=competitor&sort=recent');
      assert.match(competitor.html, /rows 1–1 of 1/);
      assert.match(competitor.html, /<a href="\/projects\/prj_alpha\/themes\/sov_ac\?type=competitor&amp;sort=recent"><strong>Ollama speed<\/strong><\/a><p class="theme-summary">Ollama is slow for teams\.<\/p>/);
      assert.doesNotMatch(competitor.html, /Failing billing webhooks/);
      assert.match(competitor.html, /<strong aria-current="true">Competitor weaknesses<\/strong>/);
      assert.match(competitor.html, /<a href="\/projects\/prj_alpha\/themes\?type=pain&amp;sort=recent">Customer pains<\/a>/);
      assert.match(competitor.html, /<a href="\/projects\/prj_alpha\/themes\?type=competitor&amp;sort=posts">Most posts<\/a>/);

      const byPosts = await ok(ALICE, '/projects/prj_alpha/themes?type=competitor&sort=posts');
      assert.match(byPosts.html, /<strong aria-current="true">Most posts<\/strong>/);
      assert.match(byPosts.html, /<a href="\/projects\/prj_alpha\/themes\?type=competitor&amp;sort=recent">Most recent<\/a>/);
    });

    test('competitors: 30 a page, most-mentioned first, a page past the end shows the last', async () => {
      const names = (html: string) => [...html.matchAll(/<strong>(Tool \d\d)<\/strong>/g)].map((m) => m[1]!);
      const first = await ok(DORA, '/projects/prj_many/competitors');
      assert.equal(names(first.html).length, 30);
      assert.equal(names(first.html)[0], 'Tool 01');
      assert.match(first.html, /<span class="muted">← Previous<\/span><span>page 1 of 2 \(35 products\)<\/span><a rel="next" href="\/projects\/prj_many\/competitors\?page=2">Next →<\/a>/);
      const second = await ok(DORA, '/projects/prj_many/competitors?page=2');
      assert.equal(names(second.html).length, 5);
      assert.equal(new Set([...names(first.html), ...names(second.html)]).size, 35);
      assert.deepEqual(names((await ok(DORA, '/projects/prj_many/competitors?page=99')).html), names(second.html));
      assert.deepEqual(names((await ok(DORA, '/projects/prj_many/competitors?page=abc')).html), names(first.html));
    });

    test('themes: 20 rows a page, previous/next links, both sorts keep their order across pages', async () => {
      const titles = (html: string) => [...html.matchAll(/<strong>(Many theme \d\d)<\/strong>/g)].map((m) => m[1]!.slice(-2));
      const first = await ok(DORA, '/projects/prj_many/themes');
      assert.match(first.html, /rows 1–20 of 45 · 3 posts in all/);
      assert.deepEqual(titles(first.html), Array.from({ length: 20 }, (_, k) => String(45 - k)));
      assert.match(first.html, /<span class="muted">← Previous<\/span><span>page 1 of 3<\/span><a rel="next" href="\/projects\/prj_many\/themes\?type=pain&amp;sort=recent&amp;page=2">Next →<\/a>/);

      const second = await ok(DORA, '/projects/prj_many/themes?type=pain&sort=recent&page=2');
      assert.match(second.html, /rows 21–40 of 45/);
      assert.deepEqual(titles(second.html), Array.from({ length: 20 }, (_, k) => String(25 - k).padStart(2, '0')));
      assert.match(second.html, /<a rel="prev" href="\/projects\/prj_many\/themes\?type=pain&amp;sort=recent">← Previous<\/a><span>page 2 of 3<\/span><a rel="next" href="\/projects\/prj_many\/themes\?type=pain&amp;sort=recent&amp;page=3">Next →<\/a>/);

      const last = await ok(DORA, '/projects/prj_many/themes?type=pain&sort=recent&page=3');
      assert.match(last.html, /rows 41–45 of 45/);
      // m01 and m02 were last spoken of in September (m01 later): the oldest of all.
      assert.deepEqual(titles(last.html), ['05', '04', '03', '01', '02']);
      assert.match(last.html, /<a rel="prev" href="\/projects\/prj_many\/themes\?type=pain&amp;sort=recent&amp;page=2">← Previous<\/a><span>page 3 of 3<\/span><span class="muted">Next →<\/span>/);

      const posts = await ok(DORA, '/projects/prj_many/themes?type=pain&sort=posts');
      assert.deepEqual(titles(posts.html).slice(0, 4), ['01', '02', '45', '44']);
      assert.match(posts.html, /Many theme 01<\/strong><\/a><p class="theme-summary">Summary 1\.<\/p><p class="hint">3 posts · /);
      assert.match(posts.html, /<a rel="next" href="\/projects\/prj_many\/themes\?type=pain&amp;sort=posts&amp;page=2">Next →<\/a>/);
      const posts3 = await ok(DORA, '/projects/prj_many/themes?sort=posts&page=3&type=pain');
      assert.deepEqual(titles(posts3.html), ['07', '06', '05', '04', '03']);

      // A page past the end is empty, with a way to the last page.
      const beyond = await ok(DORA, '/projects/prj_many/themes?type=pain&sort=posts&page=9');
      assert.match(beyond.html, /No pain themes on page 9: there are 3 pages\./);
      assert.match(beyond.html, /<a href="\/projects\/prj_many\/themes\?type=pain&amp;sort=posts&amp;page=3">Go to the last page<\/a>/);
      assert.match(beyond.html, /<a rel="prev" href="\/projects\/prj_many\/themes\?type=pain&amp;sort=posts&amp;page=3">← Previous<\/a>/);
      assert.deepEqual(titles(beyond.html), []);
    });

    test('themes: query values the page does not offer fall back to the defaults, with a notice', async () => {
      for (const query of ['page=abc', 'page=0', 'page=-1', 'page=1.5', 'page=2e1', 'page=99999999', 'page=', 'type=zzz', 'type=PAIN', 'sort=zzz', 'sort=', `type=${encodeURIComponent(XSS)}`, 'page=abc&type=zzz&sort=zzz']) {
        const page = await ok(DORA, `/projects/prj_many/themes?${query}`);
        assert.match(page.html, /<p class="notice">Part of this address was not understood, so the defaults are shown instead\.<\/p>/, query);
        assert.match(page.html, /rows 1–20 of 45/, query);
        assert.match(page.html, /<strong aria-current="true">Customer pains<\/strong>/, query);
        assert.match(page.html, /<strong aria-current="true">Most recent<\/strong>/, query);
        assert.ok(!page.html.includes('zzz') && !page.html.includes(XSS) && !page.html.includes(XSS_ESCAPED), `${query}: the value is not echoed`);
      }
      // Good values beside a bad one are kept.
      const mixed = await ok(DORA, '/projects/prj_many/themes?sort=posts&page=zz');
      assert.match(mixed.html, /<strong aria-current="true">Most posts<\/strong>/);
      assert.match(mixed.html, /class="notice"/);
    });

    test('themes: a project without themes says they come with the first digest run', async () => {
      for (const type of ['pain', 'competitor']) {
        const page = await ok(CAROL, `/projects/prj_carol/themes?type=${type}`);
        assert.match(page.html, new RegExp(`No ${type} themes yet\\.`));
        assert.match(page.html, /Themes appear after the first digest run/);
        assert.match(page.html, /<a href="\/projects\/prj_carol\/runs">/);
        assert.doesNotMatch(page.html, /rows \d/);
        assert.doesNotMatch(page.html, /aria-label="Pages"/);
      }
    });

    // --- one theme -----------------------------------------------------------------------------

    test('a theme: title, summary, every quote with author, community, date and thread link', async () => {
      const page = await ok(ALICE, '/projects/prj_alpha/themes/sov_a1');
      const html = page.html;
      assert.match(html, /<title>Failing billing webhooks · Project Signals<\/title>/);
      assert.match(html, /<h1>Failing billing webhooks<\/h1>/);
      assert.match(html, /<p class="overflow">Webhooks fail silently\.<\/p>/);
      assert.match(html, /2 posts · first seen <time datetime="2026-11-10T13:00:00.000Z">Nov 10, 2026<\/time> · last seen <time datetime="2026-11-11T13:00:00.000Z">Nov 11, 2026<\/time>/);
      assert.match(html, /<a href="\/projects\/prj_alpha\/themes\?type=pain&amp;sort=recent">← All themes<\/a>/);
      // Opened from page 2 of the competitor themes by posts: the way back returns there.
      const fromList = await ok(ALICE, '/projects/prj_alpha/themes/sov_ac?type=competitor&sort=posts&page=2');
      assert.match(fromList.html, /<a href="\/projects\/prj_alpha\/themes\?type=competitor&amp;sort=posts&amp;page=2">← All themes<\/a>/);
      assert.match(html, /<h2>2 quotes, newest first<\/h2>/);
      const quotes = [...html.matchAll(/<blockquote><p>([^<]*)<\/p><\/blockquote><p class="hint"><span class="quote-author">([^<]*)<\/span> in <span class="quote-community">([^<]*)<\/span> · <time datetime="[^"]*">([^<]*)<\/time> · <a href="([^"]*)" rel="noopener noreferrer nofollow" target="_blank">([^<]*)<\/a>/g)].map((m) => m.slice(1));
      assert.deepEqual(quotes, [
        ['How do you measure churn?', 'eve', 'SaaS', 'Nov 11, 2026', 'https://www.reddit.com/r/SaaS/comments/p2/churn_questions/', 'Churn questions'],
        ['Stripe webhooks keep failing for us.', 'ann', 'SaaS', 'Nov 10, 2026', 'https://www.reddit.com/r/SaaS/comments/p1/billing_is_painful/', 'Billing is painful'],
      ]);
      assert.match(html, /<span class="muted">Suggested content move: <\/span><strong>Write a webhook guide<\/strong> Explain retries\./);

      const empty = await ok(ALICE, '/projects/prj_alpha/themes/sov_a3');
      assert.match(empty.html, /<h1>Empty theme<\/h1>/);
      assert.match(empty.html, /No quotes in this theme yet\./);
      const competitor = await ok(ALICE, '/projects/prj_alpha/themes/sov_ac');
      assert.match(competitor.html, /<blockquote><p>We switched from Ollama to vLLM\.<\/p><\/blockquote><p class="hint"><span class="quote-author">dee<\/span>/);
    });

    test('a theme id that is not one of this project\'s themes: the 404 page, nothing of the theme', async () => {
      const cases: [string, string][] = [
        [ALICE, '/projects/prj_alpha/themes/sov_nope'],
        [ALICE, '/projects/prj_alpha/themes/sov_beta1'], // alice's other project
        [ALICE, '/projects/prj_alpha/themes/sov_bob1'], // bob's project
        [ALICE, `/projects/prj_alpha/themes/${'x'.repeat(300)}`], // longer than any id: refused as invalid
        [ALICE, `/projects/prj_alpha/themes/${encodeURIComponent(XSS)}`],
        [BOB, '/projects/prj_bob/themes/sov_a1'],
        [CAROL, '/projects/prj_carol/themes/sov_a1'],
      ];
      for (const [who, path] of cases) {
        const page = await (await as(who)).get(path);
        assert.equal(page.status, 404, path);
        assert.ok(page.html.includes(NOT_FOUND), path);
        assertSafeLinks(page, path);
        for (const secret of ['Beta pain', 'Bob pain', 'Secret bob comment', 'Failing billing webhooks', 'Stripe webhooks', XSS]) assert.ok(!page.html.includes(secret), `${path}: ${secret}`);
      }
    });

    // --- competitors ---------------------------------------------------------------------------

    test('competitors: most-mentioned first, counts, links and tracked marks, newest mentions', async () => {
      const page = await ok(ALICE, '/projects/prj_alpha/competitors');
      const html = page.html;
      assert.match(html, /<a href="\/projects\/prj_alpha\/competitors" aria-current="page">Competitors<\/a>/);
      const heads = [...html.matchAll(/<p class="item-head"><strong>([^<]*)<\/strong> (<span class="status ok">tracked<\/span>)? <span class="muted">([^<]*)<\/span><\/p>/g)].map((m) => [m[1], m[2] !== undefined, m[3]]);
      assert.deepEqual(heads, [
        ['Ollama', true, '2 mentions'],
        ['vLLM', false, '1 mention'],
        ['LM Studio', true, '0 mentions'],
      ]);
      assert.ok(html.includes(`<p class="mono"><a href="https://ollama.com" ${REL} target="_blank">https://ollama.com</a></p><p>Local model runner.</p>`));
      assert.ok(html.includes(`<a href="https://lmstudio.ai" ${REL} target="_blank">https://lmstudio.ai</a>`));
      assert.match(html, /<summary>The 2 mentions<\/summary>/);
      assert.match(html, /<summary>The mention<\/summary>/);
      // Ollama's mentions, newest first: eve's (Nov 11) then dee's (Nov 10).
      const ollama = /<strong>Ollama<\/strong>[\s\S]*?<\/details>/.exec(html)?.[0] ?? '';
      const mentions = [...ollama.matchAll(/<blockquote><p>([^<]*)<\/p><\/blockquote><p class="hint"><a href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((m) => m.slice(1));
      assert.deepEqual(mentions, [
        ['How do you measure churn?', 'https://www.reddit.com/r/SaaS/comments/p2/churn_questions/', 'Churn questions'],
        ['We switched from Ollama to vLLM.', 'https://www.reddit.com/r/SaaS/comments/p1/billing_is_painful/', 'Billing is painful'],
      ]);
    });

    test('competitors: a project with none says where they come from', async () => {
      const page = await ok(CAROL, '/projects/prj_carol/competitors');
      assert.match(page.html, /No competitors yet\./);
      assert.match(page.html, /<a href="\/projects\/prj_carol">project memory<\/a>/);
      assert.doesNotMatch(page.html, /item-head/);
    });

    // --- security ------------------------------------------------------------------------------

    test("another account's project id on every page: the same 404 as no project, none of its text", async () => {
      const alicesText = ['Alpha', 'alpha.example.com', 'd16', 'Content ideas', 'Failing billing webhooks', 'Webhooks fail', 'Stripe webhooks', 'Ollama', 'LM Studio', 'rows 1'];
      const paths = ['/briefs', '/themes', '/themes?type=competitor&sort=posts&page=2', '/themes/sov_a1', '/themes/sov_ac', '/competitors'];
      for (const path of paths) {
        for (const [who, project] of [
          [BOB, 'prj_alpha'],
          [BOB, 'prj_beta'],
          [CAROL, 'prj_alpha'],
          [ALICE, 'prj_bob'],
          [ALICE, 'prj_nothing'],
          [ALICE, 'not-a-project-id'],
        ] as const) {
          const page = await (await as(who)).get(`/projects/${project}${path}`);
          assert.equal(page.status, 404, `${who} ${project}${path}`);
          assert.ok(page.html.includes(NOT_FOUND), `${who} ${project}${path}`);
          assertSafeLinks(page, path);
          if (who !== ALICE) for (const secret of alicesText) assert.ok(!page.html.includes(secret), `${who} ${project}${path}: ${secret}`);
          else for (const secret of ['Bob Co', 'Bob pain', 'Secret bob comment', 'bob.example.net']) assert.ok(!page.html.includes(secret), `${project}${path}: ${secret}`);
        }
      }
      // Bob's own pages still work, and show only his project.
      const own = await ok(BOB, '/projects/prj_bob/themes');
      assert.match(own.html, /Bob pain/);
      for (const secret of ['Failing billing webhooks', 'Measuring churn']) assert.ok(!own.html.includes(secret));
    });

    test('without a session every page goes to sign-in and back', async () => {
      const b = new Browser(svc);
      for (const path of ['/projects/prj_alpha/briefs', '/projects/prj_alpha/themes', '/projects/prj_alpha/themes/sov_a1', '/projects/prj_alpha/competitors']) {
        const page = await b.get(path);
        assert.equal(page.status, 303, path);
        assert.equal(page.location, `/login?next=${encodeURIComponent(path)}`);
        assert.ok(!page.html.includes('Failing billing webhooks'));
      }
    });

    test('hostile imported text is escaped everywhere; script links are shown as text only', async () => {
      const pages = [
        await ok(MALLORY, '/projects/prj_xss/briefs'),
        await ok(MALLORY, '/projects/prj_xss/themes'),
        await ok(MALLORY, '/projects/prj_xss/themes?type=competitor'),
        await ok(MALLORY, '/projects/prj_xss/themes/sov_x1'),
        await ok(MALLORY, '/projects/prj_xss/themes/sov_x2'),
        await ok(MALLORY, '/projects/prj_xss/competitors'),
      ];
      for (const page of pages) {
        assert.ok(!page.html.includes(XSS), page.html);
        assert.ok(page.html.includes(`Evil ${XSS_ESCAPED}`), 'the project name, escaped');
        assert.doesNotMatch(page.html, /href="[^"]*javascript/i);
      }
      const [briefs, themes, competitorThemes, theme, competitorTheme, competitors] = pages.map((p) => p!.html) as [string, string, string, string, string, string];
      for (const expected of [
        `Window ${XSS_ESCAPED}`,
        `Section ${XSS_ESCAPED}`,
        `Summary ${XSS_ESCAPED}`,
        `Said ${XSS_ESCAPED}`,
        `Who ${XSS_ESCAPED}`,
        `Sub ${XSS_ESCAPED}`,
        `Move ${XSS_ESCAPED}`,
        `Body ${XSS_ESCAPED}`,
        `<a href="https://evil.example.com/source" ${REL} target="_blank">Source ${XSS_ESCAPED}</a>`,
        // The script link's title is shown, as text.
        `<span>Bad link ${XSS_ESCAPED}</span>`,
      ]) assert.ok(briefs.includes(expected), `briefs: ${expected}`);
      assert.ok(themes.includes(`<strong>Theme ${XSS_ESCAPED}</strong>`) && themes.includes(`Summary ${XSS_ESCAPED}`));
      assert.ok(competitorThemes.includes(`<strong>Weakness ${XSS_ESCAPED}</strong>`) && competitorThemes.includes(`About ${XSS_ESCAPED}`));
      for (const expected of [
        `<h1>Theme ${XSS_ESCAPED}</h1>`,
        `<p>Quote ${XSS_ESCAPED}</p>`,
        `<span class="quote-author">Author ${XSS_ESCAPED}</span>`,
        `<span class="quote-community">${XSS_ESCAPED}</span>`,
        // xp1's URL became a script URL: its title stays, not as a link.
        `<span>Thread ${XSS_ESCAPED}</span>`,
        `<a href="https://evil.example.com/second" ${REL} target="_blank">Second ${XSS_ESCAPED}</a>`,
        `Suggested kind ${XSS_ESCAPED} move: `,
        `<strong>Move ${XSS_ESCAPED}</strong> Body ${XSS_ESCAPED}`,
      ]) assert.ok(theme.includes(expected), `theme: ${expected}`);
      assert.ok(competitorTheme.includes(`<p>Mention ${XSS_ESCAPED}</p>`));
      for (const expected of [
        `<strong>Rival ${XSS_ESCAPED}</strong> <span class="status ok">tracked</span>`,
        `<strong>Upstart ${XSS_ESCAPED}</strong>`,
        `<p class="mono"><span>${JS_URL}</span></p>`,
        `<p>Tracked ${XSS_ESCAPED}</p>`,
        `<p>Mention ${XSS_ESCAPED}</p>`,
        `<span>Thread ${XSS_ESCAPED}</span>`,
        `<a href="https://evil.example.com/second" ${REL} target="_blank">Second ${XSS_ESCAPED}</a>`,
      ]) assert.ok(competitors.includes(expected), `competitors: ${expected}`);
    });
  });
}
