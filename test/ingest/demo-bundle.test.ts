import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { buildDemoBundle } from '../../src/ingest/demo-bundle.ts';
import { parseBundle, type Bundle, type BundleComment, type BundlePost } from '../../src/ingest/bundle.ts';

const FIXTURE = new URL('../../fixtures/localllama-threads.json.gz', import.meta.url);
const OWNER = 'demo@example.com';

// Built once: the bundle is deterministic (asserted below), so every test can share it.
const bundle: Bundle = buildDemoBundle(OWNER);
const inference = bundle.projects.find((p) => p.id === 'prj_demo_inference')!;
const devtools = bundle.projects.find((p) => p.id === 'prj_demo_devtools')!;

/** Every text a quote may legitimately come from (title, selftext, each comment) with its author. */
function textsOf(post: BundlePost): { author: string; text: string }[] {
  const texts = [
    { author: post.author, text: post.title },
    { author: post.author, text: post.selftext },
  ];
  const walk = (comments: BundleComment[]): void => {
    for (const c of comments) {
      texts.push({ author: c.author, text: c.body });
      walk(c.replies);
    }
  };
  walk(post.comments);
  return texts;
}

function loadFixture(): BundlePost[] {
  return JSON.parse(gunzipSync(readFileSync(FIXTURE)).toString('utf8')) as BundlePost[];
}

test('the fixture stays within 2 MB', () => {
  assert.ok(statSync(FIXTURE).size <= 2 * 1024 * 1024, `fixture is ${statSync(FIXTURE).size} bytes`);
});

test('the demo bundle passes bundle validation', () => {
  assert.doesNotThrow(() => parseBundle(bundle));
  assert.deepEqual(
    bundle.projects.map((p) => [p.id, p.owner]),
    [
      ['prj_demo_inference', OWNER],
      ['prj_demo_devtools', OWNER],
    ],
  );
});

test('two builds are deep-equal', () => {
  assert.deepEqual(buildDemoBundle(OWNER), bundle);
});

test('the inference project is the most recently created, so it is the default', () => {
  assert.ok(Date.parse(inference.createdAt) > Date.parse(devtools.createdAt));
});

test('both projects have enough themes, briefs and runs for a demo', () => {
  const painThemes = (p: typeof inference) => p.themes.filter((t) => t.type === 'pain');
  assert.ok(painThemes(inference).length >= 24, `inference pain themes: ${painThemes(inference).length}`);
  assert.ok(painThemes(devtools).length >= 10, `devtools pain themes: ${painThemes(devtools).length}`);
  for (const project of bundle.projects) {
    assert.ok(project.themes.some((t) => t.type === 'competitor'), `${project.id} has competitor themes`);
    assert.ok(project.briefs.length >= 7, `${project.id} briefs: ${project.briefs.length}`);
    assert.ok(project.runs.filter((r) => r.status === 'complete').length >= project.briefs.length);
    for (const brief of project.briefs) {
      assert.match(brief.window, /^[A-Z][a-z]{2} \d{1,2} – [A-Z][a-z]{2} \d{1,2}$/);
      const content = brief.sections.find((s) => s.kind === 'content')!;
      const offers = brief.sections.find((s) => s.kind === 'offers')!;
      assert.ok(content.items.length >= 2 && content.items.length <= 4, `${brief.window}: ${content.items.length} content items`);
      assert.ok(offers.items.length >= 1 && offers.items.length <= 2, `${brief.window}: ${offers.items.length} offer items`);
    }
  }
});

test('every pain theme is backed by at least two signals', () => {
  for (const project of bundle.projects) {
    for (const theme of project.themes.filter((t) => t.type === 'pain')) {
      const count = project.signals.filter((s) => s.themeId === theme.id).length;
      assert.ok(count >= 2, `${project.id} "${theme.title}" has ${count} signals`);
    }
  }
});

test('signals cover every kind and several competing products', () => {
  const kinds = new Set(inference.signals.map((s) => s.kind));
  assert.deepEqual([...kinds].sort(), ['competitor', 'content', 'pain']);
  assert.ok(inference.signals.length >= 150, `inference signals: ${inference.signals.length}`);
  const products = new Set(inference.signals.filter((s) => s.kind === 'competitor').map((s) => s.competitor));
  assert.ok(products.size >= 4, `products: ${[...products].join(', ')}`);
  for (const s of inference.signals.filter((x) => x.kind !== 'competitor')) assert.equal(s.competitor, null);
});

test('every signal quote is verbatim from its own post, by that author', () => {
  for (const project of bundle.projects) {
    const posts = new Map(project.posts.map((p) => [p.id, p]));
    for (const signal of project.signals) {
      const post = posts.get(signal.postId)!;
      assert.ok(
        textsOf(post).some((t) => t.author === signal.author && t.text.includes(signal.quote)),
        `${project.id} ${signal.id}: quote by ${signal.author} not found in post ${post.id}: ${signal.quote}`,
      );
    }
  }
});

test('every brief quote occurs verbatim in the fixture', () => {
  const corpus = loadFixture().flatMap(textsOf);
  for (const project of bundle.projects) {
    for (const brief of project.briefs) {
      for (const item of brief.sections.flatMap((s) => s.items)) {
        const quote = item.surfaced.quote!;
        assert.ok(quote, `${brief.window}: item without a quote`);
        assert.ok(
          corpus.some((t) => t.author === quote.who && t.text.includes(quote.text)),
          `${brief.window}: quote by ${quote.who} not in fixture: ${quote.text}`,
        );
      }
    }
  }
});

test('the fixture threads have Reddit URLs and ISO timestamps', () => {
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
  const threads = loadFixture();
  assert.ok(threads.length >= 150 && threads.length <= 250, `threads: ${threads.length}`);
  for (const t of threads) {
    assert.equal(t.url, `https://www.reddit.com${t.permalink}`);
    assert.match(t.postCreatedAt, iso);
    const walk = (comments: BundleComment[]): void => {
      for (const c of comments) {
        assert.match(c.createdAt, iso);
        walk(c.replies);
      }
    };
    walk(t.comments);
  }
});
