/**
 * API keys (src/auth/api-keys.ts): the key format and its checksum, hashing, revocation, and the
 * LastUsedRecorder that batches last-use times instead of writing on every request.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  authenticateKey,
  createApiKey,
  generateKey,
  hashKey,
  isWellFormedKey,
  KEY_PREFIX,
  LastUsedRecorder,
  revokeApiKey,
} from '../../src/auth/api-keys.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
/** Characters a mistyped key could contain that are outside the key alphabet. */
const FOREIGN_CHARS = ['A', 'Z', '0', '1', '8', '9', '_', '-', ' ', 'é'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('generateKey', () => {
  test('is sgk_ followed by 32 lowercase base32 characters', () => {
    for (let i = 0; i < 200; i++) {
      const key = generateKey();
      assert.equal(KEY_PREFIX, 'sgk_');
      assert.match(key, /^sgk_[a-z2-7]{32}$/);
      assert.equal(key.length, 36);
    }
  });

  test('1000 generated keys are all distinct, and so are their 26-character random parts', () => {
    const keys = Array.from({ length: 1000 }, () => generateKey());
    assert.equal(new Set(keys).size, 1000);
    assert.equal(new Set(keys.map((k) => k.slice(4, 30))).size, 1000);
  });

  test('the random part uses the whole base32 alphabet in every position class', () => {
    // 1000 keys x 26 random characters: every one of the 32 symbols shows up (a constant or
    // badly biased generator would not), and so does every symbol at the first position.
    const keys = Array.from({ length: 1000 }, () => generateKey());
    const seen = new Set(keys.flatMap((k) => [...k.slice(4, 30)]));
    assert.deepEqual([...seen].sort().join(''), [...BASE32].sort().join(''));
    const firstChars = new Set(keys.map((k) => k[4]));
    assert.equal(firstChars.size, 32);
  });
});

describe('isWellFormedKey', () => {
  test('accepts every generated key', () => {
    for (let i = 0; i < 500; i++) assert.equal(isWellFormedKey(generateKey()), true);
  });

  test('refuses every single-character substitution of a generated key (prefix, body and checksum)', () => {
    for (let round = 0; round < 3; round++) {
      const key = generateKey();
      let tried = 0;
      for (let i = 0; i < key.length; i++) {
        for (const c of [...BASE32, ...FOREIGN_CHARS]) {
          if (c === key[i]) continue;
          const mutated = key.slice(0, i) + c + key.slice(i + 1);
          tried++;
          assert.equal(isWellFormedKey(mutated), false, `accepted ${mutated} (position ${i} of ${key})`);
        }
      }
      assert.ok(tried > 36 * 31, `only ${tried} mutations tried`);
    }
  });

  test('refuses truncated, extended, re-cased and otherwise malformed keys', () => {
    const key = generateKey();
    const bad = [
      '',
      KEY_PREFIX,
      key.slice(0, -1),
      key.slice(0, 20),
      key.slice(1),
      `${key}a`,
      `a${key}`,
      key.toUpperCase(),
      `SGK_${key.slice(4)}`,
      `sgk-${key.slice(4)}`,
      key.slice(4),
      ` ${key}`,
      `${key} `,
      `${key}\n`,
      key.slice(0, 30) + key.slice(30).split('').reverse().join(''),
    ];
    for (const candidate of bad) {
      if (candidate === key) continue;
      assert.equal(isWellFormedKey(candidate), false, `accepted ${JSON.stringify(candidate)}`);
    }
  });

  test('a changed body with its old checksum is refused (the checksum covers the body)', () => {
    const a = generateKey();
    const b = generateKey();
    // b's body with a's checksum
    assert.equal(isWellFormedKey(`${KEY_PREFIX}${b.slice(4, 30)}${a.slice(30)}`), false);
  });
});

describe('hashKey', () => {
  test('is the lowercase hex SHA-256 of the whole key', () => {
    const key = generateKey();
    assert.equal(hashKey(key), createHash('sha256').update(key, 'utf8').digest('hex'));
    assert.match(hashKey(key), /^[0-9a-f]{64}$/);
    assert.notEqual(hashKey(key), hashKey(generateKey()));
  });
});

for (const dialect of DIALECTS) {
  describe(`API keys in the database (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startService(dialect);
    });
    after(() => svc.close());

    const keyId = async (key: string) =>
      (await svc.store.db.selectFrom('api_keys').select('id').where('key_hash', '=', hashKey(key)).executeTakeFirstOrThrow()).id;
    const lastUsedAt = async (id: string) =>
      (await svc.store.db.selectFrom('api_keys').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow()).last_used_at;

    test('createApiKey stores the hash, the last four characters and no use or revocation yet', async () => {
      const created = await createApiKey(svc.store.db, { userId: svc.users.alice, projectId: 'prj_beta', name: 'ci' }, '2026-11-20T10:00:00.000Z');
      assert.match(created.id, /^key_[a-z2-7]{26}$/);
      assert.equal(isWellFormedKey(created.key), true);
      assert.equal(created.projectId, 'prj_beta');
      const row = await svc.store.db.selectFrom('api_keys').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
      assert.deepEqual(row, {
        id: created.id,
        user_id: svc.users.alice,
        project_id: 'prj_beta',
        name: 'ci',
        key_hash: createHash('sha256').update(created.key).digest('hex'),
        last4: created.key.slice(-4),
        created_at: '2026-11-20T10:00:00.000Z',
        last_used_at: null,
        revoked_at: null,
      });
    });

    test('authenticateKey answers the caller of a live key, tied project included', async () => {
      assert.deepEqual(await authenticateKey(svc.store.db, svc.keys.aliceBeta), {
        userId: svc.users.alice,
        tiedProjectId: 'prj_beta',
        keyId: await keyId(svc.keys.aliceBeta),
      });
      assert.deepEqual(await authenticateKey(svc.store.db, svc.keys.bob), {
        userId: svc.users.bob,
        tiedProjectId: null,
        keyId: await keyId(svc.keys.bob),
      });
      assert.equal(await authenticateKey(svc.store.db, generateKey()), undefined);
      assert.equal(await authenticateKey(svc.store.db, svc.keys.bob.slice(0, -1)), undefined);
    });

    test('revokeApiKey refuses the key at once, is idempotent, and answers undefined for an unknown id', async () => {
      const created = await createApiKey(svc.store.db, { userId: svc.users.bob, projectId: null, name: 'old' });
      assert.ok(await authenticateKey(svc.store.db, created.key));
      const revoked = await revokeApiKey(svc.store.db, created.id, '2026-11-21T08:00:00.000Z');
      assert.deepEqual(revoked, { id: created.id, revokedAt: '2026-11-21T08:00:00.000Z' });
      assert.equal(await authenticateKey(svc.store.db, created.key), undefined);
      // A second revocation keeps the first time.
      assert.deepEqual(await revokeApiKey(svc.store.db, created.id, '2026-11-22T08:00:00.000Z'), {
        id: created.id,
        revokedAt: '2026-11-21T08:00:00.000Z',
      });
      assert.equal(await revokeApiKey(svc.store.db, 'key_doesnotexist'), undefined);
      // Other keys of the same account keep working.
      assert.ok(await authenticateKey(svc.store.db, svc.keys.bob));
    });

    test('LastUsedRecorder: authenticated requests do not write last_used_at until flush', async () => {
      const id = await keyId(svc.keys.carol);
      assert.equal(await lastUsedAt(id), null);
      const before = new Date().toISOString();
      for (let i = 0; i < 5; i++) {
        const res = await svc.invoke(svc.keys.carol, { capability: 'project.list' });
        assert.equal(res.status, 200);
        assert.equal(await lastUsedAt(id), null, `written after request ${i + 1}`);
      }
      const res = await svc.request('/api/v1/capabilities', { headers: { authorization: `Bearer ${svc.keys.carol}` } });
      assert.equal(res.status, 200);
      assert.equal(await lastUsedAt(id), null);

      await svc.lastUsed.flush();
      const written = await lastUsedAt(id);
      assert.ok(written !== null);
      assert.match(written, ISO);
      assert.ok(written >= before, `${written} is older than the requests (${before})`);
      assert.ok(written <= new Date().toISOString());
    });

    test('LastUsedRecorder: a refused request touches nothing', async () => {
      const created = await createApiKey(svc.store.db, { userId: svc.users.carol, projectId: null, name: 'unused' });
      // A request with a mangled copy of the key is refused and must not count as a use.
      const mangled = created.key.slice(0, -1) + (created.key.endsWith('a') ? 'b' : 'a');
      assert.equal((await svc.invoke(mangled, { capability: 'project.list' })).status, 403);
      await svc.lastUsed.flush();
      assert.equal(await lastUsedAt(created.id), null);
    });

    test('LastUsedRecorder: flush writes the newest time touched, whatever the order of touches', async () => {
      const { id } = await createApiKey(svc.store.db, { userId: svc.users.bob, projectId: null, name: 'order' });
      const recorder = new LastUsedRecorder(svc.store.db, 60_000);
      recorder.touch(id, '2026-11-20T10:00:00.000Z');
      recorder.touch(id, '2026-11-20T12:00:00.000Z');
      recorder.touch(id, '2026-11-20T11:00:00.000Z');
      assert.equal(await lastUsedAt(id), null);
      await recorder.flush();
      assert.equal(await lastUsedAt(id), '2026-11-20T12:00:00.000Z');
    });

    test('LastUsedRecorder: an older time never overwrites a newer one already stored', async () => {
      const { id } = await createApiKey(svc.store.db, { userId: svc.users.bob, projectId: null, name: 'monotonic' });
      const recorder = new LastUsedRecorder(svc.store.db, 60_000);
      recorder.touch(id, '2026-11-20T12:00:00.000Z');
      await recorder.flush();
      // e.g. another process flushing a batch it collected earlier
      const other = new LastUsedRecorder(svc.store.db, 60_000);
      other.touch(id, '2026-11-20T09:00:00.000Z');
      await other.flush();
      assert.equal(await lastUsedAt(id), '2026-11-20T12:00:00.000Z');
      recorder.touch(id, '2026-11-20T12:00:00.000Z');
      await recorder.flush();
      assert.equal(await lastUsedAt(id), '2026-11-20T12:00:00.000Z');
      recorder.touch(id, '2026-11-20T13:30:00.000Z');
      await recorder.flush();
      assert.equal(await lastUsedAt(id), '2026-11-20T13:30:00.000Z');
    });

    test('LastUsedRecorder: keys are recorded independently and a flush with nothing pending writes nothing', async () => {
      const a = await createApiKey(svc.store.db, { userId: svc.users.bob, projectId: null, name: 'a' });
      const b = await createApiKey(svc.store.db, { userId: svc.users.bob, projectId: null, name: 'b' });
      const c = await createApiKey(svc.store.db, { userId: svc.users.bob, projectId: null, name: 'c' });
      const recorder = new LastUsedRecorder(svc.store.db, 60_000);
      await recorder.flush();
      recorder.touch(a.id, '2026-11-20T10:00:00.000Z');
      recorder.touch(b.id, '2026-11-20T11:00:00.000Z');
      await recorder.flush();
      assert.equal(await lastUsedAt(a.id), '2026-11-20T10:00:00.000Z');
      assert.equal(await lastUsedAt(b.id), '2026-11-20T11:00:00.000Z');
      assert.equal(await lastUsedAt(c.id), null);
      // The batch was emptied: flushing again changes nothing even if the row is reset meanwhile.
      await svc.store.db.updateTable('api_keys').set({ last_used_at: null }).where('id', '=', a.id).execute();
      await recorder.flush();
      assert.equal(await lastUsedAt(a.id), null);
    });

    test('LastUsedRecorder: the timer flushes on its own after the interval', async () => {
      const { id } = await createApiKey(svc.store.db, { userId: svc.users.bob, projectId: null, name: 'timer' });
      const errors: unknown[] = [];
      const recorder = new LastUsedRecorder(svc.store.db, 5, (e) => errors.push(e));
      recorder.touch(id, '2026-11-20T10:00:00.000Z');
      // Wait for the write (no timing assertion: poll until it lands, with a generous cap).
      for (let i = 0; i < 500 && (await lastUsedAt(id)) === null; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(await lastUsedAt(id), '2026-11-20T10:00:00.000Z');
      assert.deepEqual(errors, []);
    });
  });
}
