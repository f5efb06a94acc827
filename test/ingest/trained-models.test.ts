/**
 * The shipped pain model and product names (src/ingest/analyze/data/) are exactly what
 * scripts/train-models.ts trains from the labels with this code: a changed feature, rule or label
 * without a retrain fails here, not silently in a brief.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

test('the shipped models are what the labels and the code train (scripts/train-models.ts --check)', () => {
  const script = fileURLToPath(new URL('../../scripts/train-models.ts', import.meta.url));
  const run = spawnSync(process.execPath, ['--import', 'tsx', script, '--check'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, /pain-model\.json is up to date/);
  assert.match(run.stderr, /product-names\.json is up to date/);
});
