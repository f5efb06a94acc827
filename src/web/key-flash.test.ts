import assert from 'node:assert/strict';
import { test } from 'node:test';
import { open, seal } from './key-flash.ts';

const SECRET = 'a-secret-of-the-auth-server-0123456789';

test('a sealed key opens for its own session only, before it expires', () => {
  const sealed = seal(SECRET, 'sess_1', { key: 'sgk_abc', name: 'laptop' }, 1_000);
  assert.deepEqual(open(SECRET, 'sess_1', sealed, 2_000), { key: 'sgk_abc', name: 'laptop' });
  assert.equal(open(SECRET, 'sess_2', sealed, 2_000), undefined, 'another session');
  assert.equal(open('another-secret-0123456789012345678', 'sess_1', sealed, 2_000), undefined, 'another secret');
  assert.equal(open(SECRET, 'sess_1', sealed, 1_000 + 301_000), undefined, 'expired');
});

test('the cookie does not show the key, and a changed or truncated cookie opens to nothing', () => {
  const sealed = seal(SECRET, 'sess_1', { key: 'sgk_visible', name: 'laptop' });
  assert.equal(Buffer.from(sealed, 'base64url').toString('latin1').includes('sgk_visible'), false);
  const raw = Buffer.from(sealed, 'base64url');
  raw[raw.length - 1] = raw[raw.length - 1]! ^ 1;
  assert.equal(open(SECRET, 'sess_1', raw.toString('base64url')), undefined);
  assert.equal(open(SECRET, 'sess_1', sealed.slice(0, 20)), undefined);
  assert.equal(open(SECRET, 'sess_1', '!!!'), undefined);
});
