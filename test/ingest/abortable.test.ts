/**
 * The run's abortable wait on its source must not keep the threads it handed out: a 100,000-thread
 * export has to stream through in flat memory. (It once raced each next() against one long-lived
 * promise, whose reactions held every result.) Checked with a WeakRef in a child run with
 * --expose-gc, since this process has no gc() to call.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

test('a thread is collectable once the run has moved past it', () => {
  const child = fileURLToPath(new URL('./abortable-leak.child.ts', import.meta.url));
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', child], { encoding: 'utf8' });
  assert.equal(out, 'collected');
});
