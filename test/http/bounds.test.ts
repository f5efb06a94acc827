/**
 * DESIGN §11's bounds, each at its edge, on a project big enough to cross them: competitors.list
 * `limit` (1–200, default 50), pains.sources' newest comments per thread (default 200, 0–1,000),
 * and no text form over TEXT_MAX characters — a longer answer is cut between items and says how
 * to get the rest. Through /api/v1/invoke (`render: "text"`) and a raw MCP `tools/call`, whose
 * text is the same.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TEXT_MAX } from '../../src/capabilities/text.ts';
import { parseBundle, type Bundle, type BundleComment, type BundlePost, type BundleSignal, type BundleTheme } from '../../src/ingest/bundle.ts';
import { importBundle } from '../../src/ingest/import.ts';
import { blankProject, CAROL } from '../fixtures/small-bundle.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1) + minute * 60_000).toISOString();
/** A long, realistic quote: 400 characters. */
const long = (tag: string) => `${tag}: ${'the export keeps timing out on large workspaces and support has no answer '.repeat(6)}`.slice(0, 400);

function thread(id: string, comments: number): BundlePost {
  const list: BundleComment[] = [];
  for (let i = 0; i < comments; i++) {
    // Every tenth comment is a reply to the one before it, so pruning meets nested comments.
    const c: BundleComment = { id: `${id}_c${i}`, author: `user${i}`, body: `Comment ${i} of ${id}. ${'word '.repeat(40)}`, score: 1, createdAt: at(i), replies: [] };
    if (i % 10 === 9) list.at(-1)!.replies.push(c);
    else list.push(c);
  }
  const permalink = `/r/big/comments/${id}/t/`;
  return { id, url: `https://www.reddit.com${permalink}`, permalink, community: 'big', title: `Thread ${id}`, selftext: 'Body.', author: 'op', score: 1, postCreatedAt: at(0), comments: list };
}

/**
 * carol's project: 60 products (one mention more each than the next), a 1,000-comment thread,
 * a pain theme of 400 long quotes (about 200k characters as text), and 3,000 small themes.
 */
function bigBundle(): Bundle {
  const posts: BundlePost[] = [thread('huge', 1_000), thread('p201', 201), thread('p200', 200)];
  const themes: BundleTheme[] = [{ id: 'sov_big', type: 'pain', title: 'Exports time out', summary: 'Large exports fail.', updatedAt: at(0) }];
  const signals: BundleSignal[] = [];
  for (let i = 0; i < 400; i++) {
    posts.push(thread(`q${i}`, 1));
    signals.push({ id: `sig_big${i}`, postId: `q${i}`, kind: 'pain', quote: long(`q${i}`), author: `user${i}`, themeId: 'sov_big', competitor: null, seenAt: at(i), moves: {} });
  }
  for (let i = 0; i < 3_000; i++) {
    themes.push({ id: `sov_s${i}`, type: 'pain', title: `Small theme ${i} ${'about exports '.repeat(3)}`, summary: `Summary ${i}.`, updatedAt: at(i) });
    signals.push({ id: `sig_s${i}`, postId: `q${i % 400}`, kind: 'pain', quote: `small ${i}`, author: 'someone', themeId: `sov_s${i}`, competitor: null, seenAt: at(i), moves: {} });
  }
  for (let p = 0; p < 60; p++) {
    for (let m = 0; m <= 60 - p; m++) {
      signals.push({ id: `sig_c${p}_${m}`, postId: `q${m}`, kind: 'competitor', quote: `I use Product${String(p).padStart(2, '0')}.`, author: 'someone', themeId: null, competitor: `Product${String(p).padStart(2, '0')}`, seenAt: at(m), moves: {} });
    }
  }
  signals.push({ id: 'sig_p201', postId: 'p201', kind: 'pain', quote: 'Body.', author: 'op', themeId: 'sov_threads', competitor: null, seenAt: at(1), moves: {} });
  signals.push({ id: 'sig_p200', postId: 'p200', kind: 'pain', quote: 'Body.', author: 'op', themeId: 'sov_threads', competitor: null, seenAt: at(2), moves: {} });
  signals.push({ id: 'sig_huge', postId: 'huge', kind: 'pain', quote: 'Body.', author: 'op', themeId: 'sov_huge', competitor: null, seenAt: at(3), moves: {} });
  themes.push({ id: 'sov_threads', type: 'pain', title: 'Long threads', summary: 'Two long threads.', updatedAt: at(0) });
  themes.push({ id: 'sov_huge', type: 'pain', title: 'Huge thread', summary: 'One huge thread.', updatedAt: at(0) });
  return {
    format: 'project-signals-bundle',
    version: 1,
    projects: [
      {
        ...blankProject,
        owner: CAROL,
        id: 'prj_big',
        name: 'Big',
        url: 'https://big.example.com',
        createdAt: at(0),
        posts,
        themes,
        signals,
      },
    ],
  };
}

for (const dialect of DIALECTS) {
  describe(`bounded answers (${dialect})`, () => {
    let svc: TestService;
    let mcpUrl: string;
    before(async () => {
      svc = await startService(dialect);
      await importBundle(svc.store, parseBundle(bigBundle()));
      mcpUrl = `${await svc.listen()}/api/mcp`;
    });
    after(() => svc.close());

    const call = async (capability: string, input: Record<string, unknown> = {}) => {
      const res = await svc.invoke(svc.keys.carol, { capability, input, render: 'text' });
      assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
      return res.body as { data: any; text: string };
    };
    const refused = async (capability: string, input: Record<string, unknown>, field: string) => {
      const res = await svc.invoke(svc.keys.carol, { capability, input });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'invalid');
      assert.match(res.body.error.message, new RegExp(field));
    };
    const mcpText = async (name: string, args: Record<string, unknown>) => {
      const res = await fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${svc.keys.carol}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      });
      const body = (await res.json()) as any;
      assert.equal(body.result.isError, undefined, JSON.stringify(body).slice(0, 300));
      return body.result.content[0].text as string;
    };

    describe('competitors.list limit', () => {
      test('default 50: the 50 most-mentioned of 60, and the text says the list stops there', async () => {
        const { data, text } = await call('competitors.list');
        assert.equal(data.competitors.length, 50);
        assert.equal(data.competitors[0].name, 'Product00');
        assert.equal(data.competitors[0].mentions, 61);
        assert.equal(data.competitors[49].name, 'Product49');
        assert.ok(data.competitors.every((c: any) => c.sources.length <= 25));
        assert.match(text.split('\n').at(-1)!, /stops at `limit` \(50\); pass a larger one, up to 200/);
      });

      test('limit 1 and limit 200 (more than there are): exactly 1, then all 60 without the "stops" line', async () => {
        assert.deepEqual((await call('competitors.list', { limit: 1 })).data.competitors.map((c: any) => c.name), ['Product00']);
        const all = await call('competitors.list', { limit: 200 });
        assert.equal(all.data.competitors.length, 60);
        assert.equal(all.text.split('\n').length, 60);
      });

      test('limit 0, 201, 1.5 and "50" are invalid, naming limit', async () => {
        for (const limit of [0, 201, 1.5, '50']) await refused('competitors.list', { limit }, 'limit');
      });
    });

    describe('pains.sources commentsPerThread', () => {
      const threadsOf = async (input: Record<string, unknown>) => (await call('pains.sources', { sovIds: ['sov_threads'], ...input })).data.threads as any[];
      const commentLines = (content: string) => content.split('\n').filter((l) => /^\s*- \*\*user\d+\*\*/.test(l));

      test('default 200: a 200-comment thread is whole; a 201-comment one loses its oldest comment and says so', async () => {
        // Threads follow the theme's pains newest first: p200's signal is the newer.
        const [t200, t201] = await threadsOf({});
        assert.equal(t201.id, 'p201');
        assert.equal(commentLines(t201.content).length, 200);
        assert.ok(!t201.content.includes('Comment 0 of p201.'), 'the oldest comment is the one left out');
        assert.ok(t201.content.includes('Comment 200 of p201.'));
        assert.ok(t201.content.endsWith('_1 older comment was left out; posts.get with id "p201" gives the whole thread._'), t201.content.slice(-200));
        assert.equal(t200.id, 'p200');
        assert.equal(commentLines(t200.content).length, 200);
        assert.ok(!t200.content.includes('left out'));
      });

      test('0 keeps no comment; 1,000 keeps them all; 1,001 and -1 are invalid', async () => {
        const [, none] = await threadsOf({ commentsPerThread: 0 });
        assert.equal(commentLines(none.content).length, 0);
        assert.match(none.content, /_201 older comments were left out/);
        const huge = (await call('pains.sources', { sovIds: ['sov_huge'], commentsPerThread: 1_000 })).data.threads[0];
        assert.equal(commentLines(huge.content).length, 1_000);
        assert.ok(!huge.content.includes('left out'));
        for (const commentsPerThread of [1_001, -1]) await refused('pains.sources', { sovIds: ['sov_huge'], commentsPerThread }, 'commentsPerThread');
      });

      test('posts.get is not bounded: it gives the whole thread', async () => {
        const { data } = await call('posts.get', { id: 'p201' });
        assert.equal(commentLines(data.post.content).length, 201);
      });
    });

    describe('no text over 100,000 characters', () => {
      const assertCut = (text: string, hint: RegExp) => {
        assert.ok(text.length <= TEXT_MAX, `${text.length} characters`);
        const last = text.split('\n').at(-1)!;
        assert.match(last, /^- \[Cut here: the full answer is [\d,]+ characters, over the 100,000 a text answer holds\./);
        assert.match(last, hint);
      };

      test('pains.get on a theme of 400 long quotes: newest first, cut between quotes, the rest in the structured result', async () => {
        const { data, text } = await call('pains.get', { sovId: 'sov_big' });
        assert.equal(data.pains.length, 400);
        assertCut(text, /The newest \d+ of the theme's 400 quotes are shown; the structured result/);
        const quoteLines = text.split('\n').slice(1, -1);
        assert.ok(quoteLines.length > 100 && quoteLines.length < 400, `${quoteLines.length}`);
        for (const [i, line] of quoteLines.entries()) assert.ok(line.startsWith(`- "q${399 - i}:`), line.slice(0, 40));
      });

      test('pains.sources without ids over 3,000 themes: cut between themes, pointing at sovIds and pains.list', async () => {
        const { data, text } = await call('pains.sources');
        assert.equal(data.pains.length, 3_003);
        assertCut(text, /of 3,003 themes are shown, the most-posted first; pass up to 25 of their ids as `sovIds`/);
      });

      test('pains.sources with a 1,000-comment thread: the themes, then the thread cut short with how to read it', async () => {
        const { text } = await call('pains.sources', { sovIds: ['sov_huge'], commentsPerThread: 1_000 });
        assertCut(text, /0 of 1 threads are shown whole\. Pass a smaller `commentsPerThread`, or read a thread with posts\.get/);
      });

      test('posts.get on a 1,000-comment thread: cut between comments, pointing at the link', async () => {
        const { data, text } = await call('posts.get', { id: 'huge' });
        assert.ok(data.post.content.length > TEXT_MAX);
        assertCut(text, /The thread goes on; read the rest at \/r\/big\/comments\/huge\/t\//);
        const body = text.split('\n').slice(0, -1).join('\n');
        assert.ok(data.post.content.includes(body.slice(body.indexOf('# Thread huge'))), 'the shown part is the thread, whole comments only');
      });

      test('an MCP tools/call carries the same bounded text', async () => {
        const viaInvoke = (await call('pains.get', { sovId: 'sov_big' })).text;
        assert.equal(await mcpText('pains_get', { sovId: 'sov_big' }), viaInvoke);
        assert.ok((await mcpText('pains_sources', {})).length <= TEXT_MAX);
        assert.ok((await mcpText('competitors_list', { limit: 200 })).length <= TEXT_MAX);
      });
    });
  });
}
