/**
 * api-key-auth (spec §5): `Authorization: Bearer <API key>` → `c.var.caller`; a missing, malformed,
 * unknown or revoked key is 403 `forbidden` before the handler runs. Also the header parser.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Hono } from 'hono';
import { createApiKey, generateKey, LastUsedRecorder, revokeApiKey } from '../../../auth/api-keys.ts';
import { createLogger } from '../../../logger.ts';
import { LIMITS } from '../../../domain/limits.ts';
import { openStore, type Store } from '../../../store/db.ts';
import { migrate } from '../../../store/migrate.ts';
import type { AppEnv } from '../../env.ts';
import { renderError } from '../../errors.ts';
import { apiKeyAuth, bearerToken } from './index.ts';

describe('bearerToken', () => {
  const key = generateKey();

  test('takes the token after the Bearer scheme, the scheme in any case', () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) assert.equal(bearerToken(`${scheme} ${key}`), key, scheme);
  });

  test('allows several spaces after the scheme and trailing whitespace', () => {
    assert.equal(bearerToken(`Bearer    ${key}`), key);
    assert.equal(bearerToken(`Bearer ${key}   `), key);
    assert.equal(bearerToken(`Bearer ${key}\t`), key);
  });

  test('returns the token as sent, without judging it (the key check comes later)', () => {
    assert.equal(bearerToken('Bearer not-a-key'), 'not-a-key');
    assert.equal(bearerToken('Bearer a'), 'a');
  });

  test(`accepts tokens up to ${LIMITS.bearerToken} characters (an OAuth JWT fits) and refuses longer ones`, () => {
    assert.equal(bearerToken(`Bearer ${'a'.repeat(LIMITS.bearerToken)}`), 'a'.repeat(LIMITS.bearerToken));
    assert.equal(bearerToken(`Bearer ${'a'.repeat(LIMITS.bearerToken + 1)}`), undefined);
    assert.equal(bearerToken(`Bearer ${'a'.repeat(100_000)}`), undefined);
  });

  test('refuses a missing header, another scheme, no token, or a token with spaces inside', () => {
    const refused: (string | undefined)[] = [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      'Bearer    ',
      `Basic ${Buffer.from(`user:${key}`).toString('base64')}`,
      `Token ${key}`,
      `Bearer: ${key}`,
      `Bearer${key}`,
      `BearerX ${key}`,
      `X Bearer ${key}`,
      ` Bearer ${key}`,
      `Bearer\t${key}`,
      `Bearer ${key} extra`,
      `Bearer ${key},Bearer ${key}`.replace(',', ', '),
      key,
    ];
    for (const header of refused) assert.equal(bearerToken(header), undefined, JSON.stringify(header));
  });
});

describe('api-key-auth middleware', () => {
  let store: Store;
  const touched: string[] = [];
  let live: { id: string; key: string };
  let tied: { id: string; key: string };
  let revoked: { id: string; key: string };

  /** A recorder that only notes touches, to see which key the middleware counted as used. */
  class SpyRecorder extends LastUsedRecorder {
    override touch(keyId: string): void {
      touched.push(keyId);
    }
  }

  function tinyApp() {
    const app = new Hono<AppEnv>();
    let handled = 0;
    app.use('/api/*', apiKeyAuth(store, new SpyRecorder(store.db)));
    app.get('/api/whoami', (c) => {
      handled++;
      return c.json(c.get('caller'));
    });
    app.onError((err, c) => renderError(c, err, createLogger('silent')));
    return { app, handled: () => handled };
  }

  async function call(authorization?: string) {
    const { app, handled } = tinyApp();
    const res = await app.request('/api/whoami', authorization === undefined ? {} : { headers: { authorization } });
    return { status: res.status, body: await res.json(), handled: handled() };
  }

  const NO_KEY = { error: { code: 'forbidden', message: 'Send your API key as "Authorization: Bearer <key>".' } };
  const BAD_KEY = { error: { code: 'forbidden', message: 'This API key is not recognized or has been revoked.' } };

  before(async () => {
    store = openStore('sqlite::memory:');
    await migrate(store);
    live = await createApiKey(store.db, { userId: 'usr_one', projectId: null, name: 'live' });
    tied = await createApiKey(store.db, { userId: 'usr_one', projectId: 'prj_tied', name: 'tied' });
    revoked = await createApiKey(store.db, { userId: 'usr_two', projectId: null, name: 'revoked' });
    await revokeApiKey(store.db, revoked.id);
  });
  after(() => store.close());

  test('a live key reaches the handler as its caller and is counted as used', async () => {
    touched.length = 0;
    const res = await call(`Bearer ${live.key}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { userId: 'usr_one', tiedProjectId: null, keyId: live.id });
    assert.deepEqual(touched, [live.id]);
  });

  test('a tied key carries its project', async () => {
    const res = await call(`bearer   ${tied.key}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { userId: 'usr_one', tiedProjectId: 'prj_tied', keyId: tied.id });
  });

  test('a missing or unparseable Authorization header is 403 with a hint, before the handler', async () => {
    touched.length = 0;
    for (const header of [undefined, '', 'Bearer', `Basic ${live.key}`, `Bearer ${live.key} x`, `Bearer ${'a'.repeat(LIMITS.bearerToken + 1)}`]) {
      const res = await call(header);
      assert.equal(res.status, 403, JSON.stringify(header));
      assert.deepEqual(res.body, NO_KEY, JSON.stringify(header));
      assert.equal(res.handled, 0);
    }
    assert.deepEqual(touched, []);
  });

  test('an unknown, mangled or revoked key is 403 with one message for all, before the handler', async () => {
    touched.length = 0;
    const flipped = live.key.slice(0, -1) + (live.key.endsWith('a') ? 'b' : 'a');
    for (const token of [generateKey(), flipped, live.key.slice(0, -1), live.key.toUpperCase(), revoked.key, 'not-a-key', 'a'.repeat(512)]) {
      const res = await call(`Bearer ${token}`);
      assert.equal(res.status, 403, token);
      assert.deepEqual(res.body, BAD_KEY, token);
      assert.equal(res.handled, 0);
    }
    assert.deepEqual(touched, []);
  });

  test('revoking a key refuses its very next request', async () => {
    const key = await createApiKey(store.db, { userId: 'usr_three', projectId: null, name: 'soon revoked' });
    assert.equal((await call(`Bearer ${key.key}`)).status, 200);
    await revokeApiKey(store.db, key.id);
    const res = await call(`Bearer ${key.key}`);
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, BAD_KEY);
  });

  test('routes outside the guarded path are not affected', async () => {
    const { app } = tinyApp();
    app.get('/open', (c) => c.text('open'));
    const res = await app.request('/open');
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'open');
  });
});
