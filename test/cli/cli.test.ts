/**
 * The `signals` command as scripts use it (DESIGN §3): real processes of bin/signals.mjs on a fresh
 * database, checking `--json` output (exactly one JSON line on stdout, nothing on stderr), exit
 * statuses (0 success, 1 user error with one line on stderr and nothing written, 2 bad usage),
 * import/export round trips and the demo. Each spawn costs about a second, so checks are grouped.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { LastUsedRecorder } from '../../src/auth/api-keys.ts';
import { openAuth } from '../../src/auth/better-auth.ts';
import { createUser } from '../../src/auth/users.ts';
import { createApp } from '../../src/http/app.ts';
import { exportBundle } from '../../src/ingest/export.ts';
import { createLogger } from '../../src/logger.ts';
import { openStore, type Store } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';
import { authSecret } from '../../src/store/settings.ts';
import { ALICE, BOB, smallBundle } from '../fixtures/small-bundle.ts';
import { DIALECTS, freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { spawnSignals } from '../helpers/process.ts';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ID = /^[a-z]+_[a-z2-7]{26}$/;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function signals(databaseUrl: string, args: string[], stdin?: string): Promise<Run> {
  return spawnSignals(databaseUrl, args, { stdin }).done;
}

/** A successful `--json` run: exit 0, nothing on stderr, exactly one JSON object line on stdout. */
function json(run: Run): any {
  assert.equal(run.code, 0, `exit ${run.code}; stderr: ${run.stderr}`);
  assert.equal(run.stderr, '');
  assert.ok(run.stdout.endsWith('\n'), 'stdout ends with a newline');
  const lines = run.stdout.slice(0, -1).split('\n');
  assert.equal(lines.length, 1, `expected one line on stdout, got ${lines.length}`);
  const value = JSON.parse(lines[0]!);
  assert.equal(typeof value, 'object');
  assert.ok(value !== null && !Array.isArray(value));
  return value;
}

/** A user error: exit 1, nothing on stdout, one line on stderr matching `message`. */
function userError(run: Run, message: string | RegExp): void {
  assert.equal(run.code, 1, `exit ${run.code}; stdout: ${run.stdout}; stderr: ${run.stderr}`);
  assert.equal(run.stdout, '');
  assert.ok(run.stderr.endsWith('\n'));
  const lines = run.stderr.slice(0, -1).split('\n');
  assert.equal(lines.length, 1, `expected one stderr line, got: ${run.stderr}`);
  if (typeof message === 'string') assert.equal(lines[0], message);
  else assert.match(lines[0]!, message);
}

/** Bad usage: exit 2, nothing on stdout, the reason on stderr's first line. */
function usageError(run: Run, reason: string): void {
  assert.equal(run.code, 2, `exit ${run.code}; stderr: ${run.stderr}`);
  assert.equal(run.stdout, '');
  assert.equal(run.stderr.split('\n')[0], reason);
}

const EMPTY_BUNDLE = { format: 'project-signals-bundle', version: 1, projects: [] };
const FIXTURE_COUNTS = { projects: 3, posts: 5, signals: 9, themes: 6, briefs: 8, runs: 3 };

for (const dialect of DIALECTS) {
  describe(`signals command (${dialect})`, () => {
    let db: TestDatabase;
    let dir: string;
    let store: Store;
    const run = (args: string[], stdin?: string) => signals(db.url, args, stdin);
    const exportAll = async () => json(await run(['export', '--json']));

    before(async () => {
      db = await freshDatabase(dialect);
      dir = mkdtempSync(join(tmpdir(), 'signals-cli-'));
    });
    after(async () => {
      await store?.close();
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    // The tests below run in order and build on one another, like a script would.

    test('migrate --json lists the applied migrations, then nothing on a second run', async () => {
      const first = json(await run(['migrate', '--json']));
      assert.deepEqual(Object.keys(first), ['applied']);
      assert.ok(Array.isArray(first.applied));
      assert.ok(first.applied.length > 0, 'a fresh database gets migrations');
      assert.ok(first.applied.every((name: unknown) => typeof name === 'string' && name.length > 0));
      assert.equal(new Set(first.applied).size, first.applied.length);
      assert.deepEqual(json(await run(['migrate', '--json'])), { applied: [] });
      store = openStore(db.url);
    });

    test('user create: {id, email}; duplicates, a bad email and a short password exit 1; no --email exits 2', async () => {
      const alice = json(await run(['user', 'create', '--email', ALICE, '--password', 'correct horse', '--json']));
      assert.deepEqual(Object.keys(alice).sort(), ['email', 'id']);
      assert.equal(alice.email, ALICE);
      assert.equal(typeof alice.id, 'string');
      assert.ok(alice.id.length > 0);
      // Without a password: an API-key-only account.
      const bob = json(await run(['user', 'create', '--email', BOB, '--json']));
      assert.deepEqual(bob, { id: bob.id, email: BOB });
      assert.notEqual(bob.id, alice.id);

      userError(await run(['user', 'create', '--email', 'ALICE@example.com', '--password', 'another one', '--json']), /^signals: .*already exists$/);
      userError(await run(['user', 'create', '--email', 'not-an-email', '--json']), /^signals: --email: /);
      userError(await run(['user', 'create', '--email', 'dave@example.com', '--password', 'short', '--json']), /^signals: --password: /);
      usageError(await run(['user', 'create', '--password', 'correct horse', '--json']), 'signals: --email is required');

      const users = await store.db.selectFrom('user').select('email').orderBy('email').execute();
      assert.deepEqual(users.map((u) => u.email), [ALICE, BOB]);
    });

    test('a bad bundle exits 1 naming its first fault and writes nothing', async () => {
      const bad = smallBundle();
      bad.projects[0]!.signals[0]!.postId = 'nope';
      const file = join(dir, 'bad.json');
      writeFileSync(file, JSON.stringify(bad));
      userError(await run(['import', file, '--json']), 'signals: projects[0].signals[0].postId: no such post "nope"');

      // A fault found only against the database (the third project's owner does not exist), after
      // two projects were already written inside the import's transaction.
      const late = smallBundle();
      late.projects[2]!.owner = 'nobody@example.com';
      const lateFile = join(dir, 'late.json');
      writeFileSync(lateFile, JSON.stringify(late));
      userError(await run(['import', lateFile, '--json']), 'signals: projects[2].owner: no account with email "nobody@example.com"');

      writeFileSync(join(dir, 'broken.json'), '{"format": ');
      userError(await run(['import', join(dir, 'broken.json'), '--json']), /^signals: .*broken\.json is not valid JSON/);

      assert.deepEqual(await exportBundle(store.db), EMPTY_BUNDLE);
    });

    let bundleFile: string;
    let imported: any;

    test('import FILE --json prints the six counts; importing again from stdin changes nothing', async () => {
      bundleFile = join(dir, 'small.json');
      writeFileSync(bundleFile, JSON.stringify(smallBundle(), null, 2));
      assert.deepEqual(json(await run(['import', bundleFile, '--json'])), FIXTURE_COUNTS);
      imported = await exportAll();
      assert.deepEqual(imported, smallBundle());

      assert.deepEqual(json(await run(['import', '-', '--json'], JSON.stringify(smallBundle()))), FIXTURE_COUNTS);
      assert.deepEqual(await exportBundle(store.db), imported);
    });

    let projectId: string;

    test('project create --json gives {id, name, url}; the project is pending; an unknown owner exits 1', async () => {
      const created = json(await run(['project', 'create', '--owner', ALICE, '--name', 'Gamma', '--url', 'https://gamma.example.com', '--category', 'Tools', '--json']));
      assert.deepEqual(Object.keys(created).sort(), ['id', 'name', 'url']);
      assert.match(created.id, /^prj_[a-z2-7]{26}$/);
      assert.deepEqual(created, { id: created.id, name: 'Gamma', url: 'https://gamma.example.com' });
      projectId = created.id;

      const exported = json(await run(['export', '--project', projectId, '--json']));
      assert.equal(exported.projects.length, 1);
      const p = exported.projects[0];
      assert.match(p.createdAt, TIMESTAMP);
      assert.deepEqual(p, {
        owner: ALICE,
        id: projectId,
        name: 'Gamma',
        url: 'https://gamma.example.com',
        category: 'Tools',
        description: '',
        idealCustomer: '',
        competitors: [],
        offerings: [],
        communities: [],
        filterRules: [],
        memoryStatus: 'pending',
        memoryRefreshRequestedAt: null,
        createdAt: p.createdAt,
        posts: [],
        themes: [],
        signals: [],
        briefs: [],
        runs: [],
      });

      userError(await run(['project', 'create', '--owner', 'nobody@example.com', '--name', 'X', '--url', 'https://x.example.com', '--json']), /^signals: no account with email nobody@example\.com/);
      userError(await run(['project', 'create', '--owner', ALICE, '--name', 'X', '--url', 'ftp://x.example.com', '--json']), /^signals: --url: /);
      const count = await store.db.selectFrom('projects').select('id').execute();
      assert.equal(count.length, 4);
    });

    test('export --project takes an id or a part of a URL (as the API selects) and prints only that project', async () => {
      const byId = json(await run(['export', '--project', 'prj_beta', '--json']));
      assert.deepEqual(byId, { ...EMPTY_BUNDLE, projects: [smallBundle().projects[1]] });
      const byUrl = json(await run(['export', '--project', 'https://beta.example.org', '--json']));
      assert.deepEqual(byUrl, byId);
      assert.deepEqual(json(await run(['export', '--project', 'BETA.example', '--json'])), byId);
      userError(await run(['export', '--project', 'prj_nope', '--json']), /^signals: no project "prj_nope"/);
      // "example" is in the URLs of alice's and bob's projects: the operator must say which.
      userError(await run(['export', '--project', 'example', '--json']), /^signals: "example" matches projects of 2 accounts: give the project id/);
    });

    test('key create: untied, tied by id, tied by URL; someone else\'s project exits 1; revoke works at once', async () => {
      const untied = json(await run(['key', 'create', '--owner', ALICE, '--json']));
      assert.deepEqual(Object.keys(untied).sort(), ['id', 'key', 'projectId']);
      assert.match(untied.id, /^key_[a-z2-7]{26}$/);
      assert.match(untied.key, /^sgk_[a-z2-7]{32}$/);
      assert.equal(untied.projectId, null);

      const byId = json(await run(['key', 'create', '--owner', ALICE, '--project', projectId, '--name', 'ci', '--json']));
      assert.deepEqual(byId, { id: byId.id, key: byId.key, projectId });
      const byUrl = json(await run(['key', 'create', '--owner', ALICE, '--project', 'https://BETA.example.org', '--json']));
      assert.deepEqual(byUrl, { id: byUrl.id, key: byUrl.key, projectId: 'prj_beta' });
      assert.equal(new Set([untied.id, byId.id, byUrl.id]).size, 3);
      assert.equal(new Set([untied.key, byId.key, byUrl.key]).size, 3);

      userError(await run(['key', 'create', '--owner', BOB, '--project', 'prj_alpha', '--json']), /^signals: the account has no project "prj_alpha"/);

      // The keys work against the HTTP service on the same database, as created.
      const app = createApp({ store, logger: createLogger('silent'), lastUsed: new LastUsedRecorder(store.db, 60_000) });
      const invoke = async (key: string, body: unknown) => {
        const res = await app.request('/api/v1/invoke', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as any };
      };
      const tied = await invoke(byId.key, { capability: 'project.memory', project: 'alpha' });
      assert.equal(tied.status, 200);
      assert.equal(tied.body.data.memory.id, projectId);
      const list = await invoke(untied.key, { capability: 'project.list' });
      assert.deepEqual(
        list.body.data.projects.map((p: { id: string }) => p.id),
        [projectId, 'prj_alpha', 'prj_beta'],
      );

      const revoked = json(await run(['key', 'revoke', untied.id, '--json']));
      assert.deepEqual(Object.keys(revoked).sort(), ['id', 'revokedAt']);
      assert.equal(revoked.id, untied.id);
      assert.match(revoked.revokedAt, TIMESTAMP);
      const refused = await invoke(untied.key, { capability: 'project.list' });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.code, 'forbidden');
      // The other keys still work.
      assert.equal((await invoke(byUrl.key, { capability: 'project.memory' })).body.data.memory.id, 'prj_beta');

      userError(await run(['key', 'revoke', 'key_doesnotexist', '--json']), 'signals: no key with id "key_doesnotexist"');
    });

    test('export prints a bundle that imports into a fresh database (same accounts) unchanged', async () => {
      const exportRun = await run(['export']);
      assert.equal(exportRun.code, 0);
      assert.equal(exportRun.stderr, '');
      const bundle = json(exportRun);
      assert.deepEqual(
        bundle.projects.map((p: { id: string }) => p.id),
        [projectId, 'prj_alpha', 'prj_beta', 'prj_bob'].sort(),
      );
      const file = join(dir, 'export.json');
      writeFileSync(file, exportRun.stdout);

      const other = await freshDatabase(dialect);
      const otherStore = openStore(other.url);
      try {
        await migrate(otherStore);
        const auth = await openAuth(otherStore, { secret: await authSecret(otherStore), publicUrl: 'http://localhost:8080' });
        await createUser(auth, ALICE);
        await createUser(auth, BOB);
        assert.deepEqual(json(await signals(other.url, ['import', file, '--json'])), {
          projects: 4,
          posts: 5,
          signals: 9,
          themes: 6,
          briefs: 8,
          runs: 3,
        });
        assert.deepEqual(await exportBundle(otherStore.db), bundle);
      } finally {
        await otherStore.close();
        await other.drop();
      }
    });

    test('demo --json: {email, key, projects}; twice gives the same data and two working keys', async () => {
      const first = json(await run(['demo', '--json']));
      assert.deepEqual(Object.keys(first).sort(), ['email', 'key', 'projects']);
      assert.equal(first.email, 'demo@example.com');
      assert.match(first.key, /^sgk_[a-z2-7]{32}$/);
      assert.equal(first.projects.length, 2);
      for (const id of first.projects) assert.equal(typeof id, 'string');
      const data = await exportBundle(store.db, first.projects);
      assert.equal(data.projects.length, 2);

      const second = json(await run(['demo', '--json']));
      assert.deepEqual({ ...second, key: 'k' }, { ...first, key: 'k' });
      assert.notEqual(second.key, first.key);
      assert.deepEqual(await exportBundle(store.db, first.projects), data);

      // Both printed keys work against the HTTP app on the same database.
      const app = createApp({ store, logger: createLogger('silent'), lastUsed: new LastUsedRecorder(store.db, 60_000) });
      for (const key of [first.key, second.key]) {
        const res = await app.request('/api/v1/invoke', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ capability: 'project.list' }),
        });
        assert.equal(res.status, 200);
        const body = (await res.json()) as any;
        assert.deepEqual(body.data.projects.map((p: { id: string }) => p.id).sort(), [...first.projects].sort());
      }
      // The demo account owns nothing else, and the other accounts' data is untouched.
      const { projects } = await exportBundle(store.db);
      assert.deepEqual(projects.map((p) => p.id).sort(), [...first.projects, projectId, 'prj_alpha', 'prj_beta', 'prj_bob'].sort());
    });

    test('bad usage exits 2 and says what is missing: an unknown command, digest, import and key revoke without their argument', async () => {
      usageError(await run(['frobnicate', '--json']), 'signals: unknown command "frobnicate"');
      usageError(await run(['key', 'revoke', '--json']), 'signals: "key revoke" needs the key id (signals key list shows them)');
      usageError(await run(['import']), 'signals: "import" needs FILE: the bundle to read, or - for stdin');
      usageError(await run(['digest']), 'signals: "digest" needs a subcommand: did you mean "digest run --project P"?');
      usageError(await run(['digest', 'now']), 'signals: unknown command "digest now": did you mean "digest run --project P"?');
    });

    test('key list: every key (or one account\'s) with id, name, project, last four and last use, never the secret', async () => {
      const created = json(await run(['key', 'create', '--owner', ALICE, '--name', 'listed', '--json']));
      const all = json(await run(['key', 'list', '--json']));
      const mine = json(await run(['key', 'list', '--owner', ALICE, '--json']));
      const listed = mine.keys.find((k: { id: string }) => k.id === created.id);
      assert.deepEqual(listed, { id: created.id, name: 'listed', projectId: null, last4: created.key.slice(-4), lastUsedAt: null, revokedAt: null });
      assert.ok(all.keys.length >= mine.keys.length);
      assert.ok(!JSON.stringify(all).includes(created.key), 'the secret is shown once, at creation only');
      const revoked = json(await run(['key', 'list', '--owner', BOB, '--json'])).keys.filter((k: { revokedAt: string | null }) => k.revokedAt !== null);
      assert.ok(revoked.every((k: { revokedAt: string }) => TIMESTAMP.test(k.revokedAt)));
      userError(await run(['key', 'list', '--owner', 'nobody@example.com']), /^signals: no account with email nobody@example\.com/);
    });

    test('user password: from --password or stdin; the account can then sign in with it; too short exits 1', async () => {
      const set = json(await run(['user', 'password', '--email', BOB, '--json'], 'a new long password\n'));
      assert.equal(set.email, BOB);
      const auth = await openAuth(store, { secret: await authSecret(store), publicUrl: 'http://localhost:8080' });
      const signedIn = await auth.api.signInEmail({ body: { email: BOB, password: 'a new long password' } });
      assert.equal(signedIn.user.email, BOB);
      json(await run(['user', 'password', '--email', BOB, '--password', 'another long one', '--json']));
      await assert.rejects(auth.api.signInEmail({ body: { email: BOB, password: 'a new long password' } }));
      userError(await run(['user', 'password', '--email', BOB], 'short\n'), 'signals: the password on stdin: must be at least 8 characters');
    });

    test('a bad setting, a missing database or a busy port: one line, exit 1, no stack trace', async () => {
      userError(await run(['serve', '--port', 'abc']), 'signals: port "abc" is not a number from 0 to 65535');
      const badEnv = await spawnSignals(db.url, ['migrate'], { env: { GITHUB_API_URL: 'ftp://example.com' } }).done;
      userError(badEnv, 'signals: GITHUB_API_URL "ftp://example.com" is not an http(s) URL');
      const missing = await spawnSignals('postgres://postgres@127.0.0.1:5432/signals_no_such_database', ['migrate']).done;
      userError(missing, /^signals: (the database does not exist .*create it, or fix DATABASE_URL|cannot reach the database at .* is PostgreSQL running there\?)/);
      const busy = createServer();
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
      try {
        const port = (busy.address() as AddressInfo).port;
        const serve = await spawnSignals(db.url, ['serve', '--port', String(port)]).done;
        assert.equal(serve.code, 1);
        assert.match(serve.stderr.trim().split('\n').at(-1)!, new RegExp(`^signals: cannot listen: port ${port} on 127\\.0\\.0\\.1 is already in use`));
        assert.doesNotMatch(serve.stderr, /\n\s+at /, 'no stack trace');
      } finally {
        busy.close();
      }
    });
  });
}
