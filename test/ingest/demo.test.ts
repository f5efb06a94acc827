/**
 * `signals demo` data (src/ingest/demo.ts): built by the real pipeline over the shipped fixture,
 * so it must look like a product in use — a default project, daily briefs, themes, competitors —
 * and loading it twice must add nothing.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { demoThreads, demoWindows, loadDemo, type DemoResult } from '../../src/ingest/demo.ts';
import { DIALECTS } from '../helpers/database.ts';
import { rowCounts } from '../helpers/digest.ts';
import { startService, type TestService } from '../helpers/service.ts';

test('each fixture stays within 2 MB, the windows replay their whole history, and every daily window has dozens of threads', () => {
  for (const file of ['localllama-threads.json.gz', 'localllama-demo-days.json.gz']) assert.ok(statSync(new URL(`../../fixtures/${file}`, import.meta.url)).size <= 2 * 1024 * 1024, file);
  const threads = demoThreads();
  assert.equal(new Set(threads.map((t) => t.id)).size, threads.length, 'no thread twice');
  const windows = demoWindows(threads);
  assert.equal(windows.length, 8);
  for (let i = 1; i < windows.length; i++) assert.equal(windows[i]!.start.getTime(), windows[i - 1]!.end.getTime(), 'windows are contiguous');
  for (const t of threads) {
    const at = Date.parse(t.postCreatedAt);
    assert.ok(at > windows[0]!.start.getTime() && at <= windows[windows.length - 1]!.end.getTime(), `${t.id} falls in a window`);
  }
  // A daily brief needs themes with posts in its window, not 12 threads and single reports.
  for (const w of windows.slice(1)) {
    const inside = threads.filter((t) => Date.parse(t.postCreatedAt) > w.start.getTime() && Date.parse(t.postCreatedAt) <= w.end.getTime()).length;
    assert.ok(inside >= 30, `${inside} threads in the window ending ${w.end.toISOString()}`);
  }
});

for (const dialect of DIALECTS) {
  describe(`demo data (${dialect})`, () => {
    let svc: TestService;
    let first: DemoResult;
    const call = (capability: string, input: object = {}, project?: string) => svc.invoke(svc.keys.carol, { capability, input, ...(project ? { project } : {}) });

    before(async () => {
      svc = await startService(dialect, { bundle: false });
      first = await loadDemo(svc.store, svc.users.carol);
    });
    after(() => svc.close());

    test('every replayed window ran to completion for both projects', () => {
      assert.deepEqual(first.projects, ['prj_demo_devtools', 'prj_demo_inference']);
      assert.equal(first.runs.length, 16);
      assert.ok(first.runs.every((r) => r.status === 'complete'));
      assert.equal(first.runs.filter((r) => r.projectId === 'prj_demo_inference').reduce((n, r) => n + r.postsAnalyzed, 0), demoThreads().length);
    });

    test('the default project shows numbered daily briefs, themes and competitors', async () => {
      const list = await call('project.list');
      assert.equal(list.body.data.projects[0].id, 'prj_demo_inference', 'Quantforge is the newest, so the default');
      const briefs = await call('briefs.list', { limit: 5 });
      assert.equal(briefs.status, 200);
      assert.equal(briefs.body.data.briefs.length, 5);
      assert.equal(briefs.body.data.briefs[0].window, 'Aug 7 – Aug 8');
      const items = briefs.body.data.briefs.flatMap((b: any) => b.brief.sections.flatMap((s: any) => s.items));
      assert.deepEqual(items.map((i: any) => i.n), items.map((_: unknown, k: number) => k + 1));
      const pains = await call('pains.list', { type: 'pain', sort: 'posts', pageSize: 3 });
      assert.ok(pains.body.data.totalCount >= 20 && pains.body.data.rows[0].postCount >= 2, JSON.stringify(pains.body.data.rows[0]));
      const competitors = await call('competitors.list');
      const names = competitors.body.data.competitors.map((c: any) => c.name);
      for (const tracked of ['Ollama', 'LM Studio', 'vLLM', 'OpenRouter']) assert.ok(names.includes(tracked), tracked);
      const run = await call('runs.get', { runId: first.runs.find((r) => r.projectId === 'prj_demo_inference')!.runId });
      assert.equal(run.body.data.status, 'complete');
    });

    test('loading the demo again adds nothing', async () => {
      const before = await rowCounts(svc.store);
      const again = await loadDemo(svc.store, svc.users.carol);
      assert.deepEqual(again.runs, []);
      assert.deepEqual(await rowCounts(svc.store), before);
    });
  });
}
