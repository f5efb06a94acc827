import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SignInThrottle } from './throttle.ts';

describe('SignInThrottle', () => {
  test('allows `limit` failures in the window, then refuses until the oldest ages out', () => {
    const t = new SignInThrottle(3, 1000);
    for (const at of [0, 10, 20]) {
      assert.equal(t.retryAfterMs('a@x', at), 0);
      t.fail('a@x', at);
    }
    assert.equal(t.retryAfterMs('a@x', 30), 970);
    assert.equal(t.retryAfterMs('b@x', 30), 0, 'other accounts are unaffected');
    assert.equal(t.retryAfterMs('a@x', 1000), 0, 'the first failure has aged out');
  });

  test('a success clears the count', () => {
    const t = new SignInThrottle(2, 1000);
    t.fail('a@x', 0);
    t.fail('a@x', 1);
    assert.ok(t.retryAfterMs('a@x', 2) > 0);
    t.succeed('a@x');
    assert.equal(t.retryAfterMs('a@x', 3), 0);
  });

  test('memory stays bounded under many distinct emails', () => {
    const t = new SignInThrottle(1, 1000, 100);
    for (let i = 0; i < 1000; i++) t.fail(`u${i}@x`, 0);
    assert.equal(t.retryAfterMs('u999@x', 1), 999);
    assert.equal(t.retryAfterMs('u0@x', 1), 0, 'the oldest entries were forgotten');
  });
});
