/**
 * `npm run quality -- --analyzer llm` (test/ingest/quality/report.ts): the `llm` analyzer scored
 * on the 240 labelled posts, against a local fake chat-completions endpoint in the real format.
 * A fake that answers every labelled pain quote, and nothing else, must score precision 1 and
 * recall 1 — so the posts, the quotes and the scoring meet end to end; a run the LLM did not read
 * alone (it fell back to `rules`) must print no figure. The recorded answers of a real model
 * (test/fixtures/quality/llm-answers/) replay to the figures docs/quality.md reports.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createLlmAnalyzer } from '../../src/ingest/analyze/llm.ts';
import { rulesAnalyzer } from '../../src/ingest/analyze/rules.ts';
import { completion, type FakeLlm, type RecordedRequest, signalsContent, startFakeLlm, type FakeSignal } from '../helpers/fake-llm.ts';
import { fixtureThreads } from '../helpers/reddit-export.ts';
import { evaluateAnalyzer, loadLabels } from './quality/evaluate.ts';
import { startReplay } from './quality/llm-replay.ts';

/** Each labelled post's pain quotes (none for a post labelled no pain), by the post's title. */
const LABELLED_BY_TITLE = (() => {
  const threads = new Map(fixtureThreads().map((t) => [t.id, t]));
  return new Map(loadLabels().map((l) => [threads.get(l.id)!.title, { title: threads.get(l.id)!.title, quotes: l.pain ? l.quotes : [] }]));
})();

/** A model that says exactly what the labels say: each thread's labelled quotes as pains, from the passage that holds them. */
function oracle(request: RecordedRequest) {
  const user = request.body.messages.find((m) => m.role === 'user')?.content ?? '';
  const signals: FakeSignal[] = [];
  for (const m of user.matchAll(/<thread id="(T\d+)"[^>]*>\n<passage id="title">([^\n]*)<\/passage>/g)) {
    const post = LABELLED_BY_TITLE.get(m[2]!);
    for (const quote of post?.quotes ?? []) signals.push({ thread: m[1]!, source: post!.title.includes(quote) ? 'title' : 'post', kind: 'pain', quote });
  }
  return { body: completion(signalsContent(signals)) };
}

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm([], oracle);
});
after(() => fake.close());

test('a model that answers the labels scores precision and recall 1 on both halves', async () => {
  const analyzer = createLlmAnalyzer({ baseUrl: fake.baseUrl, model: 'fake-model', maxTokensPerRun: 10_000_000, fallback: rulesAnalyzer });
  const { scores, report } = await evaluateAnalyzer(analyzer);
  assert.equal(report.analyzer, 'llm', report.notes.join('; '));
  for (const half of ['heldout', 'tuning'] as const) {
    const s = scores[half];
    assert.equal(s.posts, 120);
    assert.equal(s.painPrecision, 1, `${half}: ${s.truePositives}/${s.predictedPainPosts}`);
    assert.equal(s.painRecall, 1, `${half}: ${s.truePositives}/${s.painPosts}`);
  }
  assert.ok(fake.requests.length > 1, 'the posts go in several requests');
});

const run = promisify(execFile);
const REPORT = fileURLToPath(new URL('./quality/report.ts', import.meta.url));

/** The report as `npm run quality -- …` runs it, with the given LLM_* environment. */
async function report(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const { LLM_BASE_URL: _url, LLM_MODEL: _model, LLM_API_KEY: _key, ...rest } = process.env;
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', REPORT, ...args], { env: { ...rest, ...env }, maxBuffer: 10 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test('--analyzer llm without an endpoint says what to set, and prints no figure', async () => {
  const { code, stdout, stderr } = await report(['--analyzer', 'llm'], {});
  assert.equal(code, 2);
  assert.equal(stdout, '');
  assert.match(stderr, /set LLM_BASE_URL and LLM_MODEL/);
  const bad = await report(['--analyzer', 'llm'], { LLM_BASE_URL: 'http://127.0.0.1:1/v1' });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /LLM_MODEL is not/);
  const unknown = await report(['--analyzer', 'gpt'], {});
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /--analyzer is rules or llm, not "gpt"/);
});

test('--analyzer llm prints the figures of a run the LLM read alone, and none of a run that fell back to rules', async () => {
  const good = await report(['--analyzer', 'llm'], { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'fake-model', LLM_MAX_TOKENS_PER_RUN: '10000000' });
  assert.equal(good.code, 0, good.stderr);
  assert.match(good.stdout, /\| pain precision \| 1\.000 \(\d+\/\d+\) \| 1\.000/);
  assert.match(good.stdout, /analyzer: llm \(fake-model\)/);
  assert.doesNotMatch(good.stdout, /grouping precision/);

  // Every answer a refusal: each request's posts go to rules.
  const refusing = await startFakeLlm([], { body: completion(null, { refusal: 'I cannot help with that.' }) });
  try {
    const mixed = await report(['--analyzer', 'llm'], { LLM_BASE_URL: refusing.baseUrl, LLM_MODEL: 'fake-model' });
    assert.equal(mixed.code, 1);
    assert.equal(mixed.stdout, '');
    assert.match(mixed.stderr, /note: .*analysed by rules/);
    assert.match(mixed.stderr, /analysed by llm\+rules, not by the LLM alone/);
  } finally {
    await refusing.close();
  }
});

test('the recorded answers replay to the figures docs/quality.md reports', async () => {
  const expected: Record<string, { heldout: [number, number, number]; tuning: [number, number, number] }> = {
    // [true positives, posts predicted pain, labelled pain posts]
    'claude-helpers-2026-11-28': { heldout: [52, 77, 53], tuning: [62, 76, 63] },
    'claude-helpers-2026-11-28-second': { heldout: [53, 77, 53], tuning: [63, 82, 63] },
    'claude-helpers-guide-2026-11-28': { heldout: [50, 63, 53], tuning: [59, 70, 63] },
    'claude-helpers-guide-2026-11-28-second': { heldout: [52, 65, 53], tuning: [57, 67, 63] },
  };
  for (const [set, figures] of Object.entries(expected)) {
    const replay = await startReplay(fileURLToPath(new URL(`../fixtures/quality/llm-answers/${set}`, import.meta.url)));
    try {
      const analyzer = createLlmAnalyzer({ baseUrl: replay.baseUrl, model: 'recorded', maxTokensPerRun: Number.MAX_SAFE_INTEGER, fallback: rulesAnalyzer, ...(replay.promptsDir ? { promptsDir: replay.promptsDir } : {}) });
      const { scores, report } = await evaluateAnalyzer(analyzer);
      assert.equal(report.analyzer, 'llm', `${set}: ${report.notes.join('; ')}`);
      for (const half of ['heldout', 'tuning'] as const) {
        const s = scores[half];
        assert.deepEqual([s.truePositives, s.predictedPainPosts, s.painPosts], figures[half], `${set}, ${half}`);
      }
    } finally {
      await replay.close();
    }
  }
});
