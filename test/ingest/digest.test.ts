/**
 * The digest pipeline in-process (DESIGN §8) over the shipped real r/LocalLLaMA threads: what a
 * run writes reads back through the capabilities unchanged (runs.get, briefs.*, pains.*,
 * posts.get, competitors.list); quotes are verbatim; re-running a window adds nothing twice; a
 * second window joins the first one's themes; another tenant sees none of it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BundleComment, BundlePost } from '../../src/ingest/bundle.ts';
import { runDigest, type DigestSummary } from '../../src/ingest/digest/run.ts';
import { DIALECTS } from '../helpers/database.ts';
import { createDigestProject, memorySource, rowCounts } from '../helpers/digest.ts';
import { fixtureThreads } from '../helpers/reddit-export.ts';
import { startService, type TestService } from '../helpers/service.ts';

const threads = fixtureThreads();
const times = threads.map((t) => Date.parse(t.postCreatedAt)).sort((a, b) => a - b);
const FULL = { start: new Date(times[0]! - 1), end: new Date(times[times.length - 1]!) };
const MIDDLE = new Date(times[Math.floor(times.length / 2)]!);

function textsOf(post: BundlePost): string[] {
  const out = [post.title, post.selftext];
  const walk = (list: BundleComment[]) => list.forEach((c) => (out.push(c.body), walk(c.replies)));
  walk(post.comments);
  return out;
}

for (const dialect of DIALECTS) {
  describe(`digest pipeline (${dialect})`, () => {
    let svc: TestService;
    let first: DigestSummary;
    const project = 'prj_digest';
    const call = (capability: string, input: object = {}, key = svc.keys.alice) => svc.invoke(key, { capability, project, input });

    before(async () => {
      svc = await startService(dialect);
      await createDigestProject(svc.store, svc.users.alice, project);
      first = await runDigest({ store: svc.store, projectId: project, source: memorySource(threads), window: FULL });
    });
    after(() => svc.close());

    test('the run completes and runs.get reports it', async () => {
      assert.equal(first.status, 'complete', first.error ?? '');
      assert.equal(first.postsAnalyzed, threads.length);
      assert.ok(first.signalCounts.pain > 50 && first.signalCounts.competitor > 50 && first.signalCounts.content > 20, JSON.stringify(first.signalCounts));
      const res = await call('runs.get', { runId: first.runId });
      assert.equal(res.status, 200);
      assert.equal(res.body.data.status, 'complete');
      assert.equal(res.body.data.postsAnalyzed, threads.length);
      assert.deepEqual(res.body.data.signalCounts, first.signalCounts);
      assert.equal(res.body.data.windowStart, FULL.start.toISOString());
      assert.equal(res.body.data.windowEnd, FULL.end.toISOString());
    });

    test('the brief reads back through briefs.list and briefs.get', async () => {
      assert.ok(first.brief && first.brief.items >= 3, JSON.stringify(first.brief));
      const list = await call('briefs.list', { limit: 1 });
      assert.equal(list.status, 200);
      const brief = list.body.data.briefs[0];
      assert.match(brief.window, /^[A-Z][a-z]{2} \d{1,2} – [A-Z][a-z]{2} \d{1,2}$/);
      assert.deepEqual(brief.brief.sections.map((s: { kind: string }) => s.kind), ['content', 'offers']);
      const content = brief.brief.sections[0].items;
      assert.ok(content.length >= 3);
      for (const item of content) {
        assert.equal(item.origin, 'pain');
        assert.ok(item.surfaced.summary.length > 10);
        assert.ok(item.move.title && item.move.body);
        assert.ok(item.sources.length >= 1 && item.sources.every((s: { url: string }) => s.url.startsWith('https://www.reddit.com/r/LocalLLaMA/')));
        const post = threads.find((t) => item.sources.some((s: { url: string }) => s.url === t.url));
        assert.ok(post, 'a source is one of the threads');
      }
      const one = await call('briefs.get', { n: 1 });
      assert.equal(one.status, 200);
      assert.equal(one.body.data.when, brief.window);
      assert.deepEqual(one.body.data.item.surfaced, content[0].surfaced);
    });

    test('every stored quote is a verbatim slice of its post or one of its comments; themes rest on two posts or more', async () => {
      const signals = await svc.store.db.selectFrom('signals').select(['post_id', 'quote', 'kind', 'theme_id']).where('project_id', '=', project).execute();
      assert.equal(signals.length, first.signalCounts.pain + first.signalCounts.competitor + first.signalCounts.content);
      const byId = new Map(threads.map((t) => [t.id, textsOf(t)]));
      const painThemes = await svc.store.db.selectFrom('themes').select(['id', 'post_count']).where('project_id', '=', project).where('type', '=', 'pain').execute();
      const posts = new Map(painThemes.map((t) => [t.id, Number(t.post_count)]));
      let pooled = 0;
      for (const s of signals) {
        assert.ok(byId.get(s.post_id)!.some((text) => text.includes(s.quote)), `not verbatim: ${s.quote}`);
        if (s.kind === 'pain' && s.theme_id === null) pooled += 1;
        // A pain waits in the unthemed pool until a second post echoes it (DESIGN §8.3).
        if (s.kind === 'pain' && s.theme_id !== null) assert.ok((posts.get(s.theme_id) ?? 0) >= 2, `theme ${s.theme_id} of a pain has ${posts.get(s.theme_id)} posts`);
        if (s.kind === 'content') assert.equal(s.theme_id, null);
      }
      assert.ok(pooled > 0 && pooled < first.signalCounts.pain, `some pains wait in the pool, not all (${pooled} of ${first.signalCounts.pain})`);
    });

    test('pains.list, pains.get and pains.sources show the themes with right counts', async () => {
      const list = await call('pains.list', { type: 'pain', sort: 'posts', pageSize: 5 });
      assert.equal(list.status, 200);
      const rows = list.body.data.rows;
      assert.ok(rows.length === 5 && rows[0].postCount >= 2, JSON.stringify(rows[0]));
      const top = rows[0];
      const theme = await call('pains.get', { sovId: top.id });
      assert.equal(theme.status, 200);
      const posts = new Set(theme.body.data.pains.map((s: { postUrl: string }) => s.postUrl));
      assert.equal(posts.size, top.postCount, 'postCount counts distinct posts among the signals');
      assert.ok(top.title.length > 0 && top.title.length <= 60 && !/[.!?]$/.test(top.title), `a short noun phrase: ${top.title}`);
      // One sentence: it ends with a full stop, or with its quote's own (“….” is not written twice).
      assert.match(top.summary, /^[^\n]+(?:\.|[.!?…]”)$/);
      const sources = await call('pains.sources', { sovIds: [top.id] });
      assert.equal(sources.status, 200);
      assert.equal(sources.body.data.threads.length, top.postCount);
    });

    test('posts.get shows the signals of a post, pains with their theme', async () => {
      const signal = await svc.store.db.selectFrom('signals').select(['post_id', 'theme_id']).where('project_id', '=', project).where('kind', '=', 'pain').orderBy('id').executeTakeFirstOrThrow();
      const res = await call('posts.get', { id: signal.post_id });
      assert.equal(res.status, 200);
      assert.ok(res.body.data.signals.some((s: { kind: string; sovId: string | null }) => s.kind === 'pain' && s.sovId === signal.theme_id));
      assert.match(res.body.data.post.content, /^# /);
    });

    test('competitors.list counts products case-insensitively under the memory spelling', async () => {
      const res = await call('competitors.list');
      assert.equal(res.status, 200);
      const names = res.body.data.competitors.map((c: { name: string }) => c.name);
      for (const tracked of ['Ollama', 'llama.cpp', 'vLLM', 'LM Studio']) assert.ok(names.includes(tracked), `${tracked} in ${names.join(', ')}`);
      const lower = names.map((n: string) => n.toLowerCase());
      assert.equal(new Set(lower).size, lower.length, 'one entry per product whatever the spelling');
      const ollama = res.body.data.competitors.find((c: { name: string }) => c.name === 'Ollama');
      assert.ok(ollama.mentions >= 10 && ollama.url !== null);
    });

    test('re-running the window adds nothing twice', async () => {
      const before = await rowCounts(svc.store, project);
      const again = await runDigest({ store: svc.store, projectId: project, source: memorySource(threads), window: FULL });
      assert.equal(again.status, 'complete');
      assert.equal(again.signalsAdded, 0);
      assert.equal(again.themesCreated, 0);
      assert.deepEqual(again.signalCounts, first.signalCounts, 'the same input gives the same signals');
      assert.equal(again.brief?.id, first.brief?.id, 'the window keeps one brief');
      const after = await rowCounts(svc.store, project);
      assert.deepEqual({ ...after, runs: after.runs - 1 }, before);
    });

    test('another tenant sees none of it', async () => {
      const run = await svc.invoke(svc.keys.bob, { capability: 'runs.get', input: { runId: first.runId } });
      assert.equal(run.status, 404);
      const forbidden = await svc.invoke(svc.keys.bob, { capability: 'pains.list', project, input: { type: 'pain' } });
      assert.equal(forbidden.status, 403);
      // A key tied to another project of the same owner reads that project, never this one.
      const tied = await svc.invoke(svc.keys.aliceBeta, { capability: 'posts.get', project, input: { id: threads[0]!.id } });
      assert.equal(tied.status, 404);
    });
  });

  describe(`digest pipeline, incremental (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startService(dialect);
    });
    after(() => svc.close());

    test('a product new to the project is named by the spelling its batch uses most, not by the first one seen', async () => {
      // Untracked here, so no memory spelling applies; a headline's "VLLM" comes first.
      await createDigestProject(svc.store, svc.users.alice, 'prj_spellings', { competitors: [] });
      const texts = ['I switched to VLLM last week.', 'I switched to vLLM for batching and it works.', 'We moved from Ollama to vLLM for throughput.'];
      const crafted = texts.map((selftext, i) => ({ ...threads[0]!, id: `spell${i}`, url: `https://www.reddit.com/r/LocalLLaMA/comments/spell${i}/`, permalink: `/r/LocalLLaMA/comments/spell${i}/`, title: 'Serving setup', selftext, comments: [], postCreatedAt: new Date(times[0]! + i * 1000).toISOString() }));
      const run = await runDigest({ store: svc.store, projectId: 'prj_spellings', source: memorySource(crafted), window: FULL });
      assert.equal(run.status, 'complete', run.error ?? '');
      const res = await svc.invoke(svc.keys.alice, { capability: 'competitors.list', project: 'prj_spellings', input: {} });
      const names = res.body.data.competitors.map((c: { name: string }) => c.name);
      assert.ok(names.includes('vLLM'), names.join(', '));
      assert.ok(!names.includes('VLLM'), names.join(', '));
    });

    test('a product written as its web address is that product in competitors.list: continue.dev is Continue', async () => {
      await createDigestProject(svc.store, svc.users.alice, 'prj_addresses', { competitors: [] });
      const texts = ['I switched to Continue for autocomplete.', 'We moved from Cursor to continue.dev last month.', 'I switched to Continue and it works offline.', 'I tried chat.deepseek.com instead of Cursor.'];
      const crafted = texts.map((selftext, i) => ({ ...threads[0]!, id: `site${i}`, url: `https://www.reddit.com/r/LocalLLaMA/comments/site${i}/`, permalink: `/r/LocalLLaMA/comments/site${i}/`, title: 'Editor setup', selftext, comments: [], postCreatedAt: new Date(times[0]! + i * 1000).toISOString() }));
      const run = await runDigest({ store: svc.store, projectId: 'prj_addresses', source: memorySource(crafted), window: FULL });
      assert.equal(run.status, 'complete', run.error ?? '');
      const res = await svc.invoke(svc.keys.alice, { capability: 'competitors.list', project: 'prj_addresses', input: {} });
      const listed = new Map(res.body.data.competitors.map((c: { name: string; mentions: number }) => [c.name, c.mentions]));
      assert.equal(listed.get('Continue'), 3, JSON.stringify([...listed]));
      assert.ok(!listed.has('continue.dev'), JSON.stringify([...listed]));
      // Only the address's ending goes: DeepSeek's chat site is not DeepSeek.
      assert.ok(!listed.has('DeepSeek') && !listed.has('deepseek'), JSON.stringify([...listed]));
    });

    test('a name the threads write with a parameter count is a model family, not a competitor, in this run and the next', async () => {
      await createDigestProject(svc.store, svc.users.alice, 'prj_models', { competitors: [] });
      const crafted = (texts: string[], from: number) =>
        texts.map((selftext, i) => ({ ...threads[0]!, id: `model${from + i}`, url: `https://www.reddit.com/r/LocalLLaMA/comments/model${from + i}/`, permalink: `/r/LocalLLaMA/comments/model${from + i}/`, title: 'Local setup', selftext, comments: [], postCreatedAt: new Date(times[0]! + (from + i) * 1000).toISOString() }));
      const listed = async () => {
        const res = await svc.invoke(svc.keys.alice, { capability: 'competitors.list', project: 'prj_models', input: {} });
        return res.body.data.competitors.map((c: { name: string }) => c.name) as string[];
      };
      const first = await runDigest({
        store: svc.store,
        projectId: 'prj_models',
        source: memorySource(crafted(['QwQ-32B is out and it beats everything at this size.', 'I switched from Ollama to QwQ for coding.', 'We switched to QwQ and never looked back.', 'I run QwQ 32B at Q4 on one card.'], 0)),
        window: FULL,
      });
      assert.equal(first.status, 'complete', first.error ?? '');
      let names = await listed();
      assert.ok(names.includes('Ollama'), names.join(', '));
      assert.ok(!names.includes('QwQ'), names.join(', '));
      // The next run's thread alone says nothing of sizes: what the project read before decides.
      const second = await runDigest({ store: svc.store, projectId: 'prj_models', source: memorySource(crafted(['Honestly I switched to QwQ last week.'], 10)), window: FULL });
      assert.equal(second.status, 'complete', second.error ?? '');
      assert.equal(second.signalCounts.competitor, 0);
      names = await listed();
      assert.ok(!names.includes('QwQ'), names.join(', '));
    });

    test('a name found to be a model family later loses the mentions stored before, with its competitor theme', async () => {
      await createDigestProject(svc.store, svc.users.alice, 'prj_models_later', { competitors: [] });
      const crafted = (texts: string[], from: number) =>
        texts.map((selftext, i) => ({ ...threads[0]!, id: `later${from + i}`, url: `https://www.reddit.com/r/LocalLLaMA/comments/later${from + i}/`, permalink: `/r/LocalLLaMA/comments/later${from + i}/`, title: 'Local setup', selftext, comments: [], postCreatedAt: new Date(times[0]! + (from + i) * 1000).toISOString() }));
      const call = (capability: string, input: object) => svc.invoke(svc.keys.alice, { capability, project: 'prj_models_later', input });
      const first = await runDigest({ store: svc.store, projectId: 'prj_models_later', source: memorySource(crafted(['I switched to QwQ and it keeps crashing on long prompts.'], 0)), window: FULL });
      assert.equal(first.status, 'complete', first.error ?? '');
      const before = await call('competitors.list', {});
      assert.ok(before.body.data.competitors.some((c: { name: string }) => c.name === 'QwQ'), 'a product until the threads say otherwise');
      const themesBefore = await call('pains.list', { type: 'competitor' });
      assert.equal(themesBefore.body.data.totalCount, 1, JSON.stringify(themesBefore.body.data));
      const second = await runDigest({ store: svc.store, projectId: 'prj_models_later', source: memorySource(crafted(['QwQ-32B is out today.', 'The QwQ 32B quants are up on the hub.'], 10)), window: FULL });
      assert.equal(second.status, 'complete', second.error ?? '');
      const after = await call('competitors.list', {});
      assert.ok(!after.body.data.competitors.some((c: { name: string }) => c.name === 'QwQ'), JSON.stringify(after.body.data));
      const themesAfter = await call('pains.list', { type: 'competitor' });
      assert.equal(themesAfter.body.data.totalCount, 0, JSON.stringify(themesAfter.body.data));
      const left = await svc.store.db.selectFrom('signals').select('id').where('project_id', '=', 'prj_models_later').where('kind', '=', 'competitor').execute();
      assert.equal(left.length, 0);
    });

    test('a second window joins the first one’s themes and yields the same signals as one run', async () => {
      await createDigestProject(svc.store, svc.users.alice, 'prj_halves');
      await createDigestProject(svc.store, svc.users.alice, 'prj_whole');
      const a = await runDigest({ store: svc.store, projectId: 'prj_halves', source: memorySource(threads), window: { start: FULL.start, end: MIDDLE } });
      const b = await runDigest({ store: svc.store, projectId: 'prj_halves', source: memorySource(threads), window: { start: MIDDLE, end: FULL.end } });
      const whole = await runDigest({ store: svc.store, projectId: 'prj_whole', source: memorySource(threads), window: FULL });
      assert.equal(a.postsAnalyzed + b.postsAnalyzed, whole.postsAnalyzed);
      assert.ok(b.themesUpdated > 0, 'pains of the second window joined existing themes');
      const quotes = async (projectId: string) =>
        (await svc.store.db.selectFrom('signals').select(['kind', 'quote', 'post_id']).where('project_id', '=', projectId).execute())
          .map((s) => `${s.kind}|${s.post_id}|${s.quote}`)
          .sort();
      assert.deepEqual(await quotes('prj_halves'), await quotes('prj_whole'));
      const briefs = await svc.store.db.selectFrom('briefs').select('window').where('project_id', '=', 'prj_halves').execute();
      assert.equal(briefs.length, 2, 'one brief per window');
      // Theme rows carry the counters pains.list pages on: they must match the signals behind them.
      const themes = await svc.store.db.selectFrom('themes').selectAll().where('project_id', '=', 'prj_halves').execute();
      for (const t of themes) {
        const posts = await svc.store.db.selectFrom('signals').select('post_id').distinct().where('theme_id', '=', t.id).execute();
        assert.equal(Number(t.post_count), posts.length, `post_count of ${t.title}`);
      }
    });
  });
}
