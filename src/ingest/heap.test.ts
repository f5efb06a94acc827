import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getHeapStatistics } from 'node:v8';
import { collectGarbage, enableCollections } from './heap.ts';

test('once enabled, a batch\'s dead garbage is collected when it passes the slack', () => {
  enableCollections();
  collectGarbage();
  let batch: number[][] | null = Array.from({ length: 64 }, () => Array.from({ length: 131_072 }, (_, i) => i + 0.5));
  assert.equal(batch.length, 64);
  const before = getHeapStatistics().used_heap_size;
  // Nothing is allocated between dropping the batch and collecting, so V8 cannot have done it.
  batch = null;
  collectGarbage();
  const after = getHeapStatistics().used_heap_size;
  assert.ok(after < before - 48 * 1024 * 1024, `heap ${Math.round(before / 1e6)} → ${Math.round(after / 1e6)} MB`);
});
