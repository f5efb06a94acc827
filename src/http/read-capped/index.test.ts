import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readCapped } from './index.ts';

function stream(chunks: string[], onCancel?: () => void): ReadableStream<Uint8Array> {
  const queue = chunks.map((c) => new TextEncoder().encode(c));
  return new ReadableStream({
    pull(controller) {
      const next = queue.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
    cancel: onCancel,
  });
}

test('a body within the bound is read whole, across chunks', async () => {
  assert.equal((await readCapped(stream(['{"a"', ':1}']), 7, () => new Error('too large'))).toString('utf8'), '{"a":1}');
});

test('no body reads as empty', async () => {
  assert.equal((await readCapped(null, 10, () => new Error('too large'))).length, 0);
});

test('one byte past the bound: the caller\'s error, and the stream is cancelled', async () => {
  let cancelled = false;
  await assert.rejects(
    readCapped(stream(['12345', '678'], () => (cancelled = true)), 7, () => new Error('too large')),
    /too large/,
  );
  assert.equal(cancelled, true);
});
