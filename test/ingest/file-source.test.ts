/**
 * The `file` source (DESIGN §8): posts and comments from JSONL (plain or gzipped, two files or a
 * mixed dump), threads rebuilt from link_id / parent_id, the window and the communities applied,
 * Reddit's entities unescaped, bad input refused with file and line, and the real r/LocalLLaMA
 * export read whole when the shared data is on this machine.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { buildTree, fileSource, FileSourceError } from '../../src/ingest/sources/file.ts';
import type { CollectProgress, SourceThread } from '../../src/ingest/sources/source.ts';

const T0 = Date.UTC(2025, 7, 1) / 1000; // 2025-08-01T00:00:00Z, seconds
const WINDOW = { since: new Date((T0 - 1) * 1000), until: new Date((T0 + 86_400) * 1000) };

const post = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  subreddit: 'LocalLLaMA',
  title: `Title ${id}`,
  selftext: `Body of ${id}`,
  author: 'op',
  score: 10,
  created_utc: T0 + 60,
  permalink: `/r/LocalLLaMA/comments/${id}/title/`,
  url: `https://i.redd.it/${id}.png`,
  ...extra,
});
const comment = (id: string, link: string, parent: string, extra: Record<string, unknown> = {}) => ({
  id,
  link_id: `t3_${link}`,
  parent_id: parent,
  author: `u_${id}`,
  body: `comment ${id}`,
  score: 1,
  created_utc: T0 + 120,
  ...extra,
});
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

async function collect(path: string, communities = ['r/LocalLLaMA'], window = WINDOW, onProgress?: (p: CollectProgress) => void): Promise<SourceThread[]> {
  const out: SourceThread[] = [];
  for await (const t of fileSource(path).threads({ communities, ...window, ...(onProgress ? { onProgress } : {}) })) out.push(t);
  return out;
}

describe('file source', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'file-source-test-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('posts.jsonl.gz + comments.jsonl.gz: threads oldest first, comments nested by parent_id, siblings oldest first', async () => {
    const d = join(dir, 'two-files');
    makeDir(d);
    writeFileSync(join(d, 'posts.jsonl.gz'), gzipSync(jsonl([post('b', { created_utc: T0 + 300 }), post('a')])));
    writeFileSync(
      join(d, 'comments.jsonl.gz'),
      gzipSync(
        jsonl([
          comment('c3', 'a', 't1_c1', { created_utc: T0 + 200 }),
          comment('c1', 'a', 't3_a'),
          comment('c2', 'a', 't3_a', { created_utc: T0 + 100 }),
          comment('c4', 'b', 't3_b'),
          comment('c5', 'a', 't1_missing'),
        ]),
      ),
    );
    const threads = await collect(d);
    assert.deepEqual(threads.map((t) => t.id), ['a', 'b']);
    const a = threads[0]!;
    assert.equal(a.url, 'https://www.reddit.com/r/LocalLLaMA/comments/a/title/');
    assert.equal(a.community, 'LocalLLaMA');
    assert.equal(a.postCreatedAt, new Date((T0 + 60) * 1000).toISOString());
    assert.deepEqual(
      a.comments.map((c) => [c.id, c.replies.map((r) => r.id)]),
      [
        ['c2', []],
        ['c1', ['c3']],
        ['c5', []],
      ],
      'c3 under c1; c5, whose parent is missing, kept at the top',
    );
    assert.deepEqual(threads[1]!.comments.map((c) => c.id), ['c4']);
  });

  test('a Pushshift-style dump: submissions and comments mixed in one file, string timestamps, other records skipped', async () => {
    const file = join(dir, 'RS_dump.ndjson');
    writeFileSync(
      file,
      jsonl([
        comment('k1', 'p1', 't3_p1', { created_utc: String(T0 + 500) }),
        { kind: 'more', id: 'zz' },
        post('p1', { created_utc: String(T0 + 400), permalink: undefined }),
      ]),
    );
    const [thread, ...rest] = await collect(file);
    assert.equal(rest.length, 0);
    assert.equal(thread!.id, 'p1');
    assert.equal(thread!.permalink, '/r/LocalLLaMA/comments/p1/');
    assert.deepEqual(thread!.comments.map((c) => c.id), ['k1']);
  });

  test('the window (since exclusive, until inclusive) and the watched communities decide which threads come out', async () => {
    const d = join(dir, 'window');
    makeDir(d);
    writeFileSync(
      join(d, 'posts.jsonl'),
      jsonl([
        post('before', { created_utc: T0 - 1 }),
        post('first', { created_utc: T0 }),
        post('last', { created_utc: T0 + 86_400 }),
        post('after', { created_utc: T0 + 86_401 }),
        post('other', { subreddit: 'SaaS' }),
      ]),
    );
    assert.deepEqual((await collect(d)).map((t) => t.id), ['first', 'last']);
    assert.deepEqual((await collect(d, ['/r/saas/', 'localllama'])).map((t) => t.id).sort(), ['first', 'last', 'other']);
    assert.deepEqual(await collect(d, ['hn']), []);
  });

  test('entities unescaped, deleted authors kept as [deleted], scores as integers', async () => {
    const d = join(dir, 'text');
    makeDir(d);
    writeFileSync(join(d, 'posts.jsonl'), jsonl([post('t', { title: 'A &amp; B &lt;3', selftext: '1 &gt; 0', author: null, score: '7' })]));
    writeFileSync(join(d, 'comments.jsonl'), jsonl([comment('x', 't', 't3_t', { body: 'Q&amp;A', author: '[deleted]', score: 2.9 })]));
    const [t] = await collect(d);
    assert.equal(t!.title, 'A & B <3');
    assert.equal(t!.selftext, '1 > 0');
    assert.equal(t!.author, '[deleted]');
    assert.equal(t!.score, 7);
    assert.deepEqual({ body: t!.comments[0]!.body, author: t!.comments[0]!.author, score: t!.comments[0]!.score }, { body: 'Q&A', author: '[deleted]', score: 2 });
  });

  test('bad input is refused with the file and line; a missing path or an empty directory says so', async () => {
    const d = join(dir, 'bad');
    makeDir(d);
    writeFileSync(join(d, 'posts.jsonl'), `${JSON.stringify(post('ok'))}\n{not json\n`);
    await assert.rejects(collect(d), (err: Error) => err instanceof FileSourceError && err.message === 'posts.jsonl:2: not a JSON line');
    writeFileSync(join(d, 'posts.jsonl'), `${JSON.stringify({ title: 'no id', subreddit: 'x' })}\n`);
    await assert.rejects(collect(d), /posts\.jsonl:1: a post needs id, subreddit and created_utc/);
    await assert.rejects(collect(join(dir, 'nope')), /no such file or directory/);
    const empty = join(dir, 'empty');
    makeDir(empty);
    await assert.rejects(collect(empty), /no \.jsonl or \.ndjson files \(optionally \.gz\)/);
  });

  test('stopping early (break) still removes the temporary spill file', async () => {
    const d = join(dir, 'early');
    makeDir(d);
    writeFileSync(join(d, 'posts.jsonl'), jsonl([post('e1'), post('e2', { created_utc: T0 + 61 })]));
    const before = new Set(tmpEntries());
    for await (const t of fileSource(d).threads({ communities: ['LocalLLaMA'], ...WINDOW })) {
      assert.equal(t.id, 'e1');
      break;
    }
    const left = tmpEntries().filter((e) => !before.has(e) && e.startsWith('signals-file-source-'));
    assert.deepEqual(left, []);
  });

  test('buildTree never loops on a comment that names itself as parent', () => {
    const tree = buildTree([{ id: 'x', parentId: 't1_x', author: 'a', body: 'b', score: 0, createdAt: '2025-08-01T00:00:00.000Z' }]);
    assert.deepEqual(tree.map((c) => c.id), ['x']);
  });

  const SHARED = process.env.SIGNALS_SHARED_DATA ?? '/work/shared/data/reddit-localllama';
  test('the real r/LocalLLaMA export: 3,747 threads, every one of the 79,196 comments in a tree', { skip: existsSync(SHARED) ? false : `no shared data at ${SHARED}` }, async () => {
    const progress: CollectProgress[] = [];
    const threads = await collect(SHARED, ['r/LocalLLaMA'], { since: new Date(0), until: new Date() }, (p) => progress.push(p));
    assert.equal(threads.length, 3747);
    const count = (list: SourceThread['comments']): number => list.reduce((n, c) => n + 1 + count(c.replies), 0);
    assert.equal(threads.reduce((n, t) => n + count(t.comments), 0), 79_196);
    assert.ok(progress.some((p) => p.stage === 'reading' && p.itemsRead >= 80_000));
    assert.deepEqual(progress.at(-1), { stage: 'threads', itemsRead: 3747 + 79_196, threads: 3747 });
    const sorted = threads.map((t) => t.postCreatedAt);
    assert.deepEqual(sorted, [...sorted].sort(), 'oldest first');
  });
});

function makeDir(path: string): void {
  mkdirSync(path, { recursive: true });
}

function tmpEntries(): string[] {
  return readdirSync(tmpdir());
}
