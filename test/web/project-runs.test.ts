/**
 * /projects/:id/runs (DESIGN §9): the project's digest runs with their status, window, counts,
 * errors and per-community outcomes, and "Run now" (POST-redirect-GET through the dashboard's
 * launcher). Real runs go through the real pipeline: the `file` source over a Reddit-shaped
 * export of the shipped threads, the live source against a closed port for a run that fails.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { decodeHTML } from 'entities';
import { findUserByEmail } from '../../src/auth/users.ts';
import { loadSourceSettings } from '../../src/config.ts';
import { DigestLauncher } from '../../src/ingest/digest/launcher.ts';
import { sourceFrom, type SourceFactory } from '../../src/ingest/digest/sources.ts';
import type { CommunityOutcome, Source } from '../../src/ingest/sources/source.ts';
import { createLogger } from '../../src/logger.ts';
import { advanceRun, insertQueuedRun, listProjectRuns, runOfOwner } from '../../src/store/runs.ts';
import { DIALECTS } from '../helpers/database.ts';
import { createDigestProject } from '../helpers/digest.ts';
import { fixtureThreads, writeRedditExport, type RedditExport } from '../helpers/reddit-export.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { Browser, csrfOf } from './browser.ts';

const HOUR = 3_600_000;
const SCRIPT = '<script>alert(1)</script>';
const REFRESH = /<meta http-equiv="refresh" content="5"\/?>/;

/** The page's text as a person reads it: tags dropped, entities decoded, spaces collapsed. */
function textOf(html: string): string {
  return decodeHTML(html.replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');
}

const runsPath = (id: string) => `/projects/${id}/runs`;

/** A port nothing listens on: a live source pointed there fails at once (connection refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A source that hands out nothing until `open()`: its run stays `running` meanwhile. */
function gatedSource(): { source: Source; open(): void } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return {
    source: {
      name: 'gated',
      async *threads() {
        await gate;
      },
    },
    open,
  };
}

for (const dialect of DIALECTS) {
  describe(`web project runs page (${dialect})`, () => {
    let svc: TestService;
    let launcher!: DigestLauncher;
    let dump: RedditExport;
    let fileSource: SourceFactory;
    /** What the launcher's next run reads (each test sets it). */
    let nextSource: SourceFactory;
    let ownerId = '';
    let b: Browser;
    let other: Browser;

    const runsOf = async (projectId: string) =>
      svc.store.db.selectFrom('runs').selectAll().where('project_id', '=', projectId).orderBy('created_at').execute();
    const newProject = (id: string, overrides: Parameters<typeof createDigestProject>[3] = {}) => createDigestProject(svc.store, ownerId, id, overrides);

    before(async () => {
      svc = await startService(dialect, {
        web: true,
        launcher: (store) => (launcher = new DigestLauncher({ store, logger: createLogger('silent'), source: () => nextSource() })),
      });
      b = new Browser(svc);
      await b.signUp('runner@example.com', 'runner-password');
      other = new Browser(svc);
      await other.signUp('intruder@example.com', 'intruder-password');
      ownerId = (await findUserByEmail(svc.store, 'runner@example.com'))!.id;
      // The shipped threads, the newest a minute ago: a first run (30 days) reads them.
      dump = writeRedditExport({ threads: fixtureThreads().slice(0, 12), shiftTo: new Date(Date.now() - 60_000) });
      fileSource = sourceFrom(`file:${dump.dir}`, 'DIGEST_SOURCE', { db: svc.store.db, settings: loadSourceSettings({}) });
      nextSource = fileSource;
    });
    after(async () => {
      await svc.close();
      dump.remove();
    });

    test('before any run: the empty state, what Run now does, the button with its CSRF field, no reloading', async () => {
      const id = 'prj_runs_empty';
      await newProject(id);
      const page = await b.get(runsPath(id));
      assert.equal(page.status, 200);
      const text = textOf(page.html);
      assert.match(text, /No digest has run yet\. The first runs daily at 06:00 UTC — or run it now\./);
      assert.match(text, /collects the last 24 hours \(the last 30 days for a project's first run\) from the watched communities/);
      assert.match(text, /Run now collects the last 30 days, as this project has no complete run yet\./);
      const form = new RegExp(`<form method="post" action="/projects/${id}/runs"><input type="hidden" name="csrf" value="([^"]+)"/>`).exec(page.html);
      assert.ok(form, 'the Run now form posts here with the CSRF field');
      assert.equal(form[1], csrfOf(page.html));
      assert.match(page.html, /<button type="submit">Run now<\/button>/);
      assert.match(page.html, /<a href="\/projects\/prj_runs_empty\/runs" aria-current="page">Runs<\/a>/);
      assert.doesNotMatch(page.html, REFRESH);
      assert.doesNotMatch(page.html, /style=/, 'no inline style (CSP)');
    });

    test('Run now: 303 back to the page (a reload starts nothing), then the complete run with its counts; a second run reads 24 hours', async () => {
      const id = 'prj_runs_happy';
      await newProject(id);
      nextSource = fileSource;
      const res = await b.submit(runsPath(id), runsPath(id), {});
      assert.equal(res.status, 303, res.html);
      assert.equal(res.location, runsPath(id));
      let runs = await runsOf(id);
      assert.equal(runs.length, 1, 'the run is recorded before the answer');
      const run = runs[0]!;
      assert.equal(Date.parse(run.window_end) - Date.parse(run.window_start), 30 * 24 * HOUR, 'a first run reads 30 days');

      // The page the redirect leads to shows it, however far it has got; loading it again starts nothing.
      let page = await b.get(res.location!);
      assert.equal(page.status, 200);
      assert.ok(page.html.includes(run.id));
      await b.get(res.location!);
      assert.equal((await runsOf(id)).length, 1, 'GET never starts a run');

      await launcher.idle();
      runs = await runsOf(id);
      assert.equal(runs.length, 1);
      const done = runs[0]!;
      assert.equal(done.status, 'complete', done.error ?? '');
      const counts = JSON.parse(done.signal_counts) as Record<string, number>;
      assert.ok(Number(done.posts_analyzed) > 0 && counts.pain! > 0, JSON.stringify(done));

      page = await b.get(runsPath(id));
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.html, REFRESH, 'nothing in progress: no reloading');
      assert.match(page.html, /<span class="status complete">complete<\/span>/);
      const text = textOf(page.html);
      assert.ok(text.includes(`${Number(done.posts_analyzed)} posts analyzed.`), text);
      assert.ok(text.includes(`Signals: ${counts.pain} pain, ${counts.competitor ?? 0} competitor, ${counts.content ?? 0} content.`), text);
      const w = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
      assert.ok(text.includes(`${w(done.window_start)} – ${w(done.window_end)}`), 'the window');
      assert.ok(text.includes(`Started ${w(done.created_at)}; ended ${w(done.updated_at)}.`), 'started and ended');
      assert.match(text, /No per-community outcome was recorded \(a file source reads a dump, not the communities\)\./);
      assert.match(text, /Run now collects the last 24 hours\./);
      assert.doesNotMatch(text, /No digest has run yet/);

      // The next run reads the last 24 hours, and is listed first.
      const again = await b.submit(runsPath(id), runsPath(id), {});
      assert.equal(again.status, 303, again.html);
      await launcher.idle();
      runs = await runsOf(id);
      assert.equal(runs.length, 2);
      const second = runs.find((r) => r.id !== done.id)!;
      assert.equal(Date.parse(second.window_end) - Date.parse(second.window_start), 24 * HOUR);
      page = await b.get(runsPath(id));
      assert.ok(page.html.indexOf(second.id) < page.html.indexOf(done.id), 'newest first');
    });

    test('while a run works the page reloads itself; a second Run now is refused (409) and starts nothing', async () => {
      const id = 'prj_runs_busy';
      await newProject(id);
      const gated = gatedSource();
      nextSource = () => gated.source;
      try {
        const first = await b.submit(runsPath(id), runsPath(id), {});
        assert.equal(first.status, 303, first.html);
        const page = await b.get(runsPath(id));
        assert.match(page.html, REFRESH);
        assert.match(page.html, /<span class="status (queued|running)">(queued|running)<\/span>/);
        assert.match(textOf(page.html), /A run is in progress: this page reloads itself every 5 seconds until it ends\./);
        assert.match(textOf(page.html), /What each community gave shows once the run ends\./);

        const busy = await b.post(runsPath(id), { csrf: csrfOf(page.html) });
        assert.equal(busy.status, 409, busy.html);
        assert.match(busy.html, /<p class="error" role="alert">A run of this project is already in progress/);
        assert.doesNotMatch(busy.html, REFRESH, 'the answer to a post never reloads itself (that would post again)');
        assert.doesNotMatch(busy.html, /held by|:\d+:[0-9a-f]{8}/, 'the lease holder (host, pid) is not shown');
        assert.equal((await runsOf(id)).length, 1, 'only one run');
      } finally {
        gated.open();
        await launcher.idle();
      }
      const runs = await runsOf(id);
      assert.deepEqual(runs.map((r) => r.status), ['complete']);
      const page = await b.get(runsPath(id));
      assert.doesNotMatch(page.html, REFRESH);
    });

    test('a run in which one community failed: complete, with each community\'s source, outcome, threads, requests, error and notes', async () => {
      const id = 'prj_runs_mixed';
      await newProject(id, {
        communities: [
          { name: 'r/LocalLLaMA', description: '' },
          { name: 'github: acme/widgets', description: '' },
          { name: 'forum.example', description: '' },
        ],
      });
      const outcomes: CommunityOutcome[] = [
        { community: 'r/LocalLLaMA', source: 'reddit-rss', status: 'ok', threads: 12, requests: 13, notes: ['the feed’s 100-post limit was reached'] },
        { community: 'github: acme/widgets', source: 'github', status: 'failed', threads: 0, requests: 1, error: 'api.github.com rate limit spent (it resets at 2026-11-20T07:00:00Z)' },
        { community: 'forum.example', source: null, status: 'skipped', threads: 0, requests: 0, error: 'unknown community address' },
      ];
      // The file source's threads, reporting per-community outcomes as a live source does.
      nextSource = () => {
        const inner = fileSource();
        return { name: 'live', threads: (request) => inner.threads(request), outcomes: () => outcomes };
      };
      const res = await b.submit(runsPath(id), runsPath(id), {});
      assert.equal(res.status, 303, res.html);
      await launcher.idle();
      const [run] = await runsOf(id);
      assert.equal(run!.status, 'complete', run!.error ?? '');
      assert.deepEqual(JSON.parse(run!.communities), outcomes);

      const page = await b.get(runsPath(id));
      assert.match(page.html, /<span class="status complete">complete<\/span>/);
      const rows = [...page.html.matchAll(/<tr><td class="mono">([\s\S]*?)<\/tr>/g)].map((m) => textOf(`<td>${m[1]}`).trim());
      assert.deepEqual(rows, [
        'r/LocalLLaMA reddit-rss ok 12 threads 13 requests the feed’s 100-post limit was reached',
        'github: acme/widgets github failed 0 threads 1 request api.github.com rate limit spent (it resets at 2026-11-20T07:00:00Z)',
        'forum.example no source skipped 0 threads 0 requests unknown community address',
      ]);
      assert.match(page.html, /<span class="status failed">failed<\/span>/);
      assert.match(page.html, /<span class="status skipped">skipped<\/span>/);
      assert.doesNotMatch(page.html, /Failed:/, 'the run itself did not fail');
    });

    test('a run in which no community could be read fails: its error and every community\'s reason are shown', async () => {
      const id = 'prj_runs_failed';
      await newProject(id, { communities: [{ name: 'github: acme/widgets', description: '' }, { name: 'forum.example', description: '' }] });
      const port = await closedPort();
      nextSource = sourceFrom(undefined, 'DIGEST_SOURCE', { db: svc.store.db, settings: loadSourceSettings({ GITHUB_API_URL: `http://127.0.0.1:${port}` }), http: { retries: 0 } });
      const res = await b.submit(runsPath(id), runsPath(id), {});
      assert.equal(res.status, 303, res.html);
      await launcher.idle();
      const [run] = await runsOf(id);
      assert.equal(run!.status, 'failed');
      assert.match(run!.error!, /^no watched community could be collected: /);
      assert.match(run!.error!, /github: acme\/widgets: \S/);
      assert.match(run!.error!, /forum\.example: unknown community address/);

      const page = await b.get(runsPath(id));
      assert.equal(page.status, 200);
      assert.match(page.html, /<span class="status failed">failed<\/span>/);
      assert.ok(textOf(page.html).includes(`Failed: ${run!.error}`), 'the run\'s error');
      const rows = [...page.html.matchAll(/<tr><td class="mono">([\s\S]*?)<\/tr>/g)].map((m) => textOf(`<td>${m[1]}`).trim());
      assert.equal(rows.length, 2);
      const row = (community: string) => rows.find((r) => r.startsWith(`${community} `)) ?? '';
      assert.match(row('github: acme/widgets'), /^github: acme\/widgets github failed 0 threads \d+ requests? \S/);
      assert.match(row('forum.example'), /^forum\.example no source skipped 0 threads 0 requests unknown community address/);
      // The next Run now still reads 30 days: a failed run is not a project's first complete run.
      assert.match(textOf(page.html), /Run now collects the last 30 days/);
    });

    test('a project watching no community: the page says a run needs one and links to the memory; Run now answers 400 and records nothing', async () => {
      const id = 'prj_runs_none';
      await newProject(id, { communities: [] });
      nextSource = fileSource;
      const page = await b.get(runsPath(id));
      assert.equal(page.status, 200);
      assert.match(textOf(page.html), /A run needs at least one watched community, and this project watches none yet\./);
      assert.match(page.html, /<a href="\/projects\/prj_runs_none#communities">the project memory<\/a>/);
      assert.doesNotMatch(page.html, /<button type="submit">Run now<\/button>/, 'no button that cannot work');
      const res = await b.post(runsPath(id), { csrf: csrfOf(page.html) });
      assert.equal(res.status, 400, res.html);
      assert.match(textOf(res.html), /No run was started: this project watches no community yet, and a run needs at least one\. Add one in the project memory , then run it again\./);
      assert.match(res.html, /<p class="error" role="alert">[^]*<a href="\/projects\/prj_runs_none#communities">/);
      assert.equal((await runsOf(id)).length, 0);
    });

    test('the 20 newest runs, newest first; listProjectRuns has the runs.get fields and what the run recorded', async () => {
      const id = 'prj_runs_many';
      await newProject(id);
      const base = Date.parse('2026-10-01T06:00:00.000Z');
      for (let i = 0; i < 22; i++) {
        const at = new Date(base + i * 24 * HOUR).toISOString();
        await insertQueuedRun(svc.store.db, { id: `run_many_${String(i).padStart(2, '0')}`, projectId: id, windowStart: new Date(base + (i - 1) * 24 * HOUR).toISOString(), windowEnd: at, at });
      }
      await advanceRun(svc.store.db, 'run_many_21', 'running', {}, '2026-10-22T06:00:01.000Z');
      await advanceRun(svc.store.db, 'run_many_21', 'complete', { signalCounts: { pain: 2, competitor: 1, content: 0 }, postsAnalyzed: 5, communities: [{ community: 'r/LocalLLaMA', source: 'reddit-rss', status: 'ok', threads: 5, requests: 6 }] }, '2026-10-22T06:00:09.000Z');

      const listed = await listProjectRuns(svc.store.db, id, 20);
      assert.deepEqual(listed.map((r) => r.id), Array.from({ length: 20 }, (_, k) => `run_many_${String(21 - k).padStart(2, '0')}`));
      const { error, communities, createdAt, updatedAt, ...asGet } = listed[0]!;
      assert.deepEqual(asGet, await runOfOwner(svc.store.db, ownerId, 'run_many_21'), 'the runs.get fields, mapped alike');
      assert.deepEqual({ error, communities, createdAt, updatedAt }, {
        error: null,
        communities: [{ community: 'r/LocalLLaMA', source: 'reddit-rss', status: 'ok', threads: 5, requests: 6 }],
        createdAt: '2026-10-22T06:00:00.000Z',
        updatedAt: '2026-10-22T06:00:09.000Z',
      });
      assert.deepEqual(listed[1]!.communities, []);
      assert.equal(listed[1]!.status, 'queued');

      const page = await b.get(runsPath(id));
      const shown = [...page.html.matchAll(/run_many_\d\d/g)].map((m) => m[0]);
      assert.deepEqual(shown, listed.map((r) => r.id));
      assert.match(textOf(page.html), /The 20 newest runs are shown\./);
      assert.match(page.html, REFRESH, 'queued runs: the page reloads itself');
    });

    test('security: no CSRF token or a foreign Origin → 403; another account\'s project → 404 on GET and POST; signed out → sign-in; nothing started', async () => {
      const id = 'prj_runs_guarded';
      await newProject(id);
      nextSource = fileSource;
      const token = csrfOf((await b.get(runsPath(id))).html);
      for (const [fields, options] of [
        [{}, {}],
        [{ csrf: '' }, {}],
        [{ csrf: 'x'.repeat(token.length) }, {}],
        [{ csrf: token }, { origin: 'http://evil.example' }],
        [{ csrf: token }, { origin: 'null' }],
        [{ csrf: token }, { origin: null, referer: 'http://evil.example/page' }],
      ] as const) {
        const res = await b.post(runsPath(id), fields, options);
        assert.equal(res.status, 403, JSON.stringify([fields, options]));
      }
      // The intruder's own session and token, on the owner's project: the same 404 as no project.
      const intruderToken = csrfOf((await other.get('/dashboard')).html);
      const seen = await other.get(runsPath(id));
      assert.equal(seen.status, 404);
      assert.match(seen.html, /No project of yours has this address/);
      const posted = await other.post(runsPath(id), { csrf: intruderToken });
      assert.equal(posted.status, 404);
      assert.equal((await other.get('/projects/prj_nothing_here/runs')).status, 404);
      // Signed out: to the sign-in page, coming back here.
      const anon = await new Browser(svc).get(runsPath(id));
      assert.equal(anon.status, 303);
      assert.equal(anon.location, `/login?next=${encodeURIComponent(runsPath(id))}`);
      await launcher.idle();
      assert.equal((await runsOf(id)).length, 0, 'no run was started');
    });

    test('XSS: a community name, a run error and notes holding markup are shown as text', async () => {
      const id = 'prj_runs_xss';
      await newProject(id, { communities: [{ name: `r/x${SCRIPT}`, description: '' }] });
      const at = '2026-11-01T06:00:00.000Z';
      await insertQueuedRun(svc.store.db, { id: 'run_xss', projectId: id, windowStart: '2026-10-31T06:00:00.000Z', windowEnd: at, at });
      await advanceRun(svc.store.db, 'run_xss', 'running', {}, at);
      await advanceRun(
        svc.store.db,
        'run_xss',
        'failed',
        {
          error: `no watched community could be collected: r/x${SCRIPT}: ${SCRIPT}`,
          communities: [{ community: `r/x${SCRIPT}`, source: `reddit-rss${SCRIPT}`, status: 'failed', threads: 0, requests: 1, error: `"${SCRIPT}" & more`, notes: [SCRIPT] }],
        },
        '2026-11-01T06:00:05.000Z',
      );
      const page = await b.get(runsPath(id));
      assert.equal(page.status, 200);
      assert.ok(!page.html.includes(SCRIPT), 'no markup from the run reaches the page');
      assert.ok(!/<script>alert/i.test(page.html));
      assert.ok(page.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
      const text = textOf(page.html);
      assert.ok(text.includes(`Failed: no watched community could be collected: r/x${SCRIPT}: ${SCRIPT}`));
      assert.ok(text.includes(`"${SCRIPT}" & more`));
      assert.match(page.html, /<span class="status failed">failed<\/span>/);
    });
  });

  describe(`web project runs page without a launcher (${dialect})`, () => {
    let svc: TestService;
    let b: Browser;
    before(async () => {
      svc = await startService(dialect, { web: true });
      b = new Browser(svc);
      await b.signUp('solo@example.com', 'solo-password');
      const ownerId = (await findUserByEmail(svc.store, 'solo@example.com'))!.id;
      await createDigestProject(svc.store, ownerId, 'prj_runs_solo');
    });
    after(() => svc.close());

    test('no Run now button: the page says runs start from signals serve; a post is refused and records nothing', async () => {
      const page = await b.get(runsPath('prj_runs_solo'));
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.html, /<form method="post" action="\/projects\/prj_runs_solo\/runs">/);
      assert.doesNotMatch(page.html, /Run now<\/button>/);
      const text = textOf(page.html);
      assert.match(text, /Runs start from signals serve/);
      assert.match(text, /No digest has run yet\. The first runs daily at 06:00 UTC\./);
      const res = await b.post(runsPath('prj_runs_solo'), { csrf: csrfOf(page.html) });
      assert.equal(res.status, 503);
      assert.match(textOf(res.html), /This server does not run digests: runs start from signals serve\./);
      const runs = await svc.store.db.selectFrom('runs').select('id').where('project_id', '=', 'prj_runs_solo').execute();
      assert.equal(runs.length, 0);
    });
  });
}
