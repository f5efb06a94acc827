/**
 * `signals digest run` as real processes (DESIGN §8) on a Reddit-shaped export of the shipped
 * threads: `--json` summary and stderr progress; exit statuses; two processes on one database
 * run a project's digest exactly once; a killed process leaves its run `failed` (by the next
 * claimer), a SIGTERM'd one fails it itself; two `signals serve` schedulers run a slot once.
 *
 * To hold a run in the middle, the export's comments file is a named pipe: the run has claimed
 * its lease and is `running`, blocked reading, until the test writes the comments into the pipe.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createUser } from '../../src/auth/users.ts';
import { openAuth } from '../../src/auth/better-auth.ts';
import { openStore, type Store } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';
import { authSecret } from '../../src/store/settings.ts';
import { DIALECTS, freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { createDigestProject } from '../helpers/digest.ts';
import { freePort, spawnSignals, waitForHealth } from '../helpers/process.ts';
import { fixtureThreads, writeRedditExport, type RedditExport } from '../helpers/reddit-export.ts';

const PROJECT = 'prj_cli_digest';
/**
 * A quarter of the shipped threads: this suite is about the process (output, exit statuses,
 * leases, signals), which a run of 60 threads exercises as a run of 240 does; it runs about six
 * digests per database, each of the whole fixture took most of its three minutes.
 */
const THREADS = fixtureThreads().slice(0, 60);

/**
 * A copy of the export whose comments arrive through a named pipe. The test holds the pipe's
 * write end from the start (opening it completes when the digest opens the read end), so the
 * digest blocks on a read, not on open: a read ends when the writer closes, which lets a
 * SIGTERM'd process exit (Node joins its I/O threads on exit; an open() of a pipe nobody writes
 * would block forever).
 */
function pipedExport(from: RedditExport) {
  const dir = mkdtempSync(join(tmpdir(), 'signals-piped-'));
  const pipe = join(dir, 'comments.jsonl');
  symlinkSync(join(from.dir, 'posts.jsonl'), join(dir, 'posts.jsonl'));
  execFileSync('mkfifo', [pipe]);
  const writer = open(pipe, 'w');
  let settled = false;
  void writer.then(() => (settled = true));
  return {
    dir,
    /** Writes every comment into the pipe and closes it: the run goes on. */
    async release() {
      const handle = await writer;
      await handle.writeFile(readFileSync(join(from.dir, 'comments.jsonl')));
      await handle.close();
    },
    async remove() {
      // Nobody opened the read end (the test failed early): open it ourselves so the pending
      // open of the write end completes instead of holding one of this process's I/O threads.
      if (!settled) closeSync(openSync(pipe, constants.O_RDONLY | constants.O_NONBLOCK));
      await (await writer).close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

for (const dialect of DIALECTS) {
  describe(`signals digest run (${dialect})`, () => {
    let database: TestDatabase;
    let store: Store;
    let data: RedditExport;
    let window: string[];

    const runs = () => store.db.selectFrom('runs').selectAll().where('project_id', '=', PROJECT).orderBy('created_at').execute();
    const runningRun = () =>
      until('a running digest', async () => (await runs()).find((r) => r.status === 'running'));

    before(async () => {
      database = await freshDatabase(dialect);
      store = openStore(database.url);
      await migrate(store);
      const auth = await openAuth(store, { secret: await authSecret(store), publicUrl: 'http://localhost:8080' });
      const owner = await createUser(auth, 'digest@example.com');
      await createDigestProject(store, owner.id, PROJECT);
      data = writeRedditExport({ threads: THREADS });
      window = ['--since', new Date(data.oldest.getTime() - 1000).toISOString(), '--until', data.newest.toISOString()];
    });
    after(async () => {
      data.remove();
      await store.close();
      await database.drop();
    });

    test('--json prints the summary; progress goes to stderr; a re-run adds nothing', async () => {
      const first = await spawnSignals(database.url, ['digest', 'run', '--project', PROJECT, ...window, '--source', `file:${data.dir}`, '--json']).done;
      assert.equal(first.code, 0, first.stderr);
      const lines = first.stdout.trim().split('\n');
      assert.equal(lines.length, 1, 'one JSON line on stdout');
      const summary = JSON.parse(lines[0]!);
      assert.equal(summary.status, 'complete');
      assert.equal(summary.postsAnalyzed, data.threads.length);
      assert.ok(summary.signalsAdded > 100);
      assert.match(first.stderr, /^digest: reading: [\d,]+ lines read/m);
      assert.match(first.stderr, /digest: briefing: .*[\d,]+ analyzed, [\d,]+ signals found/);

      const again = await spawnSignals(database.url, ['digest', 'run', '--project', `https://${PROJECT}.example.com`, ...window, '--source', `file:${data.dir}`, '--json']).done;
      assert.equal(again.code, 0, again.stderr);
      const second = JSON.parse(again.stdout);
      assert.equal(second.signalsAdded, 0);
      assert.equal(second.brief.id, summary.brief.id);

      const human = await spawnSignals(database.url, ['digest', 'run', '--project', PROJECT, ...window, '--source', `file:${data.dir}`]).done;
      assert.equal(human.code, 0);
      assert.match(human.stdout, /^Digest run_\w+ complete for [A-Z][a-z]{2} \d+ – [A-Z][a-z]{2} \d+ /);
    });

    test('usage and user errors: exit 2 and 1, one line, nothing recorded', async () => {
      const before = (await runs()).length;
      const usage = await spawnSignals(database.url, ['digest', 'run', '--source', `file:${data.dir}`]).done;
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /needs --project P/);
      const cases: [string[], RegExp][] = [
        [['--project', 'prj_nope', '--source', `file:${data.dir}`], /^signals: no project "prj_nope"/],
        [['--project', PROJECT, '--since', 'yesterday', '--source', `file:${data.dir}`], /--since "yesterday" is neither a duration/],
        [['--project', PROJECT, '--source', 'file:/no/such/dir'], /--source file:\/no\/such\/dir: no such file or directory/],
        [['--project', PROJECT, '--source', 'ftp:somewhere'], /--source: unknown source "ftp:somewhere"/],
      ];
      for (const [args, message] of cases) {
        const run = await spawnSignals(database.url, ['digest', 'run', ...args], { env: { DIGEST_SOURCE: '' } }).done;
        assert.equal(run.code, 1, `${args.join(' ')}: ${run.stderr}`);
        assert.equal(run.stdout, '');
        assert.match(run.stderr.trim(), message);
        assert.equal(run.stderr.trim().split('\n').length, 1);
      }
      assert.equal((await runs()).length, before);
    });

    test('two processes at once: exactly one runs the digest, the other says it is busy', async () => {
      const piped = pipedExport(data);
      try {
        const holder = spawnSignals(database.url, ['digest', 'run', '--project', PROJECT, ...window, '--source', `file:${piped.dir}`, '--json']);
        const running = await runningRun();
        const second = await spawnSignals(database.url, ['digest', 'run', '--project', PROJECT, ...window, '--source', `file:${data.dir}`, '--json']).done;
        assert.equal(second.code, 1);
        assert.match(second.stderr, new RegExp(`a digest of project ${PROJECT} is already running \\(${running.id}, held by `));
        await piped.release();
        const first = await holder.done;
        assert.equal(first.code, 0, first.stderr);
        assert.equal(JSON.parse(first.stdout).runId, running.id);
        assert.equal((await runs()).filter((r) => r.id === running.id && r.status === 'complete').length, 1);
        assert.equal((await runs()).filter((r) => r.status === 'running' || r.status === 'queued').length, 0);
      } finally {
        await piped.remove();
      }
    });

    test('SIGTERM mid-run: the process fails its run and exits 1', async () => {
      const piped = pipedExport(data);
      try {
        const holder = spawnSignals(database.url, ['digest', 'run', '--project', PROJECT, ...window, '--source', `file:${piped.dir}`]);
        const running = await runningRun();
        holder.child.kill('SIGTERM');
        // The run fails at once; the process exits when its blocked read ends (the writer closes).
        await until('the run to fail', async () => ((await runs()).find((r) => r.id === running.id)?.status === 'failed' ? true : undefined));
        await piped.remove();
        const result = await holder.done;
        assert.equal(result.code, 1);
        assert.match(result.stderr, new RegExp(`digest ${running.id} failed: interrupted by SIGTERM`));
        const row = (await runs()).find((r) => r.id === running.id)!;
        assert.equal(row.status, 'failed');
        assert.equal(row.error, 'interrupted by SIGTERM');
      } finally {
        await piped.remove();
      }
    });

    test('SIGKILL mid-run: the run is failed by the next claimer once its lease expires', async () => {
      const piped = pipedExport(data);
      try {
        const holder = spawnSignals(database.url, ['digest', 'run', '--project', PROJECT, ...window, '--source', `file:${piped.dir}`], { env: { DIGEST_LEASE_SECONDS: '1' } });
        const running = await runningRun();
        holder.child.kill('SIGKILL');
        await holder.done;
        assert.equal((await runs()).find((r) => r.id === running.id)!.status, 'running', 'nobody has noticed yet');
        await new Promise((r) => setTimeout(r, 1_200));
        const next = await spawnSignals(database.url, ['digest', 'run', '--project', PROJECT, ...window, '--source', `file:${data.dir}`, '--json']).done;
        assert.equal(next.code, 0, next.stderr);
        const dead = (await runs()).find((r) => r.id === running.id)!;
        assert.equal(dead.status, 'failed');
        assert.match(dead.error ?? '', /stopped \(its lease expired at/);
      } finally {
        await piped.remove();
      }
    });

    test('two `signals serve` processes with the scheduler: one run for the slot', async () => {
      // Threads moved into the day before this hour's slot, so the scheduled window holds them.
      const slot = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
      const recent = writeRedditExport({ threads: THREADS, shiftTo: new Date(slot.getTime() - 60_000) });
      const project = 'prj_cli_sched';
      const owner = await store.db.selectFrom('projects').select('owner_id').where('id', '=', PROJECT).executeTakeFirstOrThrow();
      // Created before the slot closed: the slot is the project's to run.
      await createDigestProject(store, owner.owner_id, project, {}, new Date(slot.getTime() - 3_600_000).toISOString());
      // Only the new project is watched, so the servers' work is this one slot.
      await store.db.updateTable('projects').set({ communities: '[]' }).where('id', '=', PROJECT).execute();
      const env = { DIGEST_SOURCE: `file:${recent.dir}`, DIGEST_HOUR_UTC: String(slot.getUTCHours()), DIGEST_TICK_SECONDS: '1' };
      const servers = await Promise.all(
        [0, 1].map(async () => {
          const port = await freePort();
          const server = spawnSignals(database.url, ['serve', '--port', String(port)], { env });
          await waitForHealth(`http://127.0.0.1:${port}`, server.child);
          return server;
        }),
      );
      try {
        const done = await until('the scheduled run', async () =>
          (await store.db.selectFrom('runs').selectAll().where('project_id', '=', project).where('status', '=', 'complete').execute())[0],
        );
        assert.equal(done.window_end, slot.toISOString());
        assert.ok(Number(done.posts_analyzed) > 0);
        await new Promise((r) => setTimeout(r, 2_500)); // a few more ticks of both servers
        const all = await store.db.selectFrom('runs').select(['id', 'status']).where('project_id', '=', project).execute();
        assert.deepEqual(all, [{ id: done.id, status: 'complete' }]);
      } finally {
        for (const s of servers) s.child.kill('SIGTERM');
        await Promise.all(servers.map((s) => s.done));
        recent.remove();
      }
    });
  });
}
