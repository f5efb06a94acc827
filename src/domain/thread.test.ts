import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commentCount, eachComment, newestComments, renderThreadMarkdown, type ThreadComment } from './thread.ts';

const c = (id: string, minute: number, replies: ThreadComment[] = []): ThreadComment => ({
  id,
  author: `u_${id}`,
  body: `body ${id}`,
  score: 1,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
  replies,
});

// a(0) ─ b(5) ─ c(9)
//      └ d(2)
// e(7) ─ f(8)
const tree = () => [c('a', 0, [c('b', 5, [c('c', 9)]), c('d', 2)]), c('e', 7, [c('f', 8)])];

test('eachComment walks in reading order, each comment before its replies', () => {
  assert.deepEqual([...eachComment(tree())].map((c) => c.id), ['a', 'b', 'c', 'd', 'e', 'f']);
});

test('at or under the limit the thread is unchanged', () => {
  const comments = tree();
  assert.equal(commentCount(comments), 6);
  assert.deepEqual(newestComments(comments, 6), { comments, left: 0 });
  assert.deepEqual(newestComments(comments, 1_000), { comments, left: 0 });
});

test('over the limit: the newest comments are kept in thread order; a kept reply takes its left-out parent\'s place', () => {
  // Newest four: c(9), f(8), e(7), b(5); a(0) and d(2) are left out, so b moves up to a's level.
  const { comments, left } = newestComments(tree(), 4);
  assert.equal(left, 2);
  const shape = (list: ThreadComment[]): unknown => list.map((x) => [x.id, shape(x.replies)]);
  assert.deepEqual(shape(comments), [['b', [['c', []]]], ['e', [['f', []]]]]);
  assert.equal(commentCount(comments), 4);
});

test('ties in time keep the larger id (a stable choice), and limit 0 keeps no comment', () => {
  const same = [c('x1', 3), c('x2', 3), c('x3', 3)];
  assert.deepEqual(newestComments(same, 2).comments.map((x) => x.id), ['x2', 'x3']);
  assert.deepEqual(newestComments(same, 0), { comments: [], left: 3 });
  assert.equal(renderThreadMarkdown({ title: 'T', selftext: 'B', comments: [] }), '# T\n\nB\n\n## Comments');
});
