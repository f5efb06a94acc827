/**
 * The `llm` analyzer (DESIGN §8, "Analyze") against a local fake chat-completions endpoint in the
 * real response format: requests and batching, answers checked quote by quote, every failure
 * falling back per batch or for the rest of the run, the token budget, theme naming, the
 * environment, and the API key kept out of logs. A tiny fake fallback stands in for `rules`, so
 * these tests do not depend on what the rules analyzer finds. No real sleeping: waits go through
 * an injected sleep that records them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Analyzer, AnalyzerMemory, FoundSignal, ThemeDraft } from '../../src/ingest/analyze/analyzer.ts';
import { createLlmAnalyzer, type LlmOptions, llmOptionsFromEnv } from '../../src/ingest/analyze/llm.ts';
import { parseRetryAfter } from '../../src/ingest/analyze/llm-client.ts';
import { DEFAULT_PROMPTS_DIR } from '../../src/ingest/analyze/llm-prompts.ts';
import type { SourceThread } from '../../src/ingest/sources/source.ts';
import { completion, type FakeLlm, passagesIn, type Responder, signalsContent, startFakeLlm, threadsIn } from '../helpers/fake-llm.ts';
import { capturedLogger } from '../helpers/logs.ts';

const MEMORY: AnalyzerMemory = {
  name: 'Quantforge',
  description: 'Runs large language models on laptops.',
  competitors: [{ name: 'LM Studio', url: 'https://lmstudio.ai', description: 'desktop app for local models' }],
  offerings: [{ name: 'Quantforge Pro', description: 'one-click quantization' }],
  filterRules: ['ignore memes'],
};

const API_KEY = 'sk-test-4f9c2b7e1d8a6053';

function thread(id: string, overrides: Partial<SourceThread> = {}): SourceThread {
  return {
    id,
    url: `https://www.reddit.com/r/LocalLLaMA/comments/${id}/x/`,
    permalink: `/r/LocalLLaMA/comments/${id}/x/`,
    community: 'LocalLLaMA',
    title: 'Ollama keeps crashing on my M2',
    selftext: 'Every time I load a 70B model it dies. I have tried everything.',
    author: 'op1',
    score: 12,
    postCreatedAt: '2026-01-01T10:00:00.000Z',
    comments: [
      {
        id: 'k1',
        author: 'alice',
        body: 'It was way more stable for me after I switched to LM Studio.',
        score: 3,
        createdAt: '2026-01-01T11:00:00.000Z',
        replies: [{ id: 'k2', author: 'bob', body: 'How do I set the context length in Ollama?', score: 1, createdAt: '2026-01-01T12:00:00.000Z', replies: [] }],
      },
    ],
    ...overrides,
  };
}

/** The answer a good model gives for `thread()`: one signal of each kind. */
const GOOD_SIGNALS = signalsContent([
  { source: 'title', kind: 'pain', quote: 'Ollama keeps crashing on my M2', move: { title: 'Guide: running 70B models on an M2', body: 'Show the memory settings that keep a 70B model loaded on 32 GB.' } },
  { source: 'c1', kind: 'competitor', quote: 'I switched to LM Studio', product: '  LM   Studio ', complaint: false },
  { source: 'c2', kind: 'content', quote: 'How do I set the context length in Ollama?' },
]);

/** A stand-in for `rules`: one content signal per thread (its title), and a record of its calls. */
function fakeFallback() {
  const state = { calls: [] as string[][], starts: 0, closes: 0 };
  const analyzer: Analyzer = {
    name: 'rules',
    start() {
      state.starts += 1;
      return {
        analyze: async (threads) => {
          state.calls.push(threads.map((t) => t.id));
          return threads.map((t): FoundSignal[] => [{ kind: 'content', quote: t.title, author: t.author, at: t.postCreatedAt, competitor: null, moves: null, complaint: false }]);
        },
        report: () => ({ analyzer: 'rules', notes: [] }),
        close: async () => {
          state.closes += 1;
        },
      };
    },
  };
  return { analyzer, state };
}

const servers: FakeLlm[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function fake(script: Responder[], otherwise?: Responder): Promise<FakeLlm> {
  const server = await startFakeLlm(script, otherwise);
  servers.push(server);
  return server;
}

/** An analyzer on the fake, with a recording sleep and a fake fallback. */
function setup(server: { baseUrl: string }, options: Partial<LlmOptions> = {}) {
  const fallback = fakeFallback();
  const sleeps: number[] = [];
  const analyzer = createLlmAnalyzer({
    baseUrl: server.baseUrl,
    model: 'fake-model',
    maxTokensPerRun: 200_000,
    fallback: fallback.analyzer,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  return { analyzer, fallback: fallback.state, sleeps, run: analyzer.start(MEMORY) };
}

const ok = (content: string, options?: Parameters<typeof completion>[1]): Responder => ({ body: completion(content, options) });

describe('requests', () => {
  test('a POST to {baseUrl}/chat/completions with the model, temperature 0, max_tokens and a strict JSON schema', async () => {
    const server = await fake([ok(GOOD_SIGNALS)]);
    const { run } = setup(server);
    await run.analyze([thread('p1')]);
    assert.equal(server.requests.length, 1);
    const [request] = server.requests;
    assert.equal(request!.method, 'POST');
    assert.equal(request!.path, '/v1/chat/completions');
    const body = request!.body;
    assert.equal(body.model, 'fake-model');
    assert.equal(body.temperature, 0);
    assert.ok(body.max_tokens > 0);
    assert.deepEqual(body.messages.map((m) => m.role), ['system', 'user']);
    assert.equal(body.response_format.type, 'json_schema');
    assert.equal(body.response_format.json_schema.strict, true);
    assert.deepEqual(Object.keys(body.response_format.json_schema.schema.properties), ['signals']);
  });

  test('the prompt carries the memory, the filter rules, the definitions and every passage by its id', async () => {
    const server = await fake([ok(GOOD_SIGNALS)]);
    const { run } = setup(server);
    await run.analyze([thread('p1')]);
    const [system, user] = server.requests[0]!.body.messages.map((m) => m.content);
    for (const text of ['Quantforge', 'Runs large language models on laptops.', 'LM Studio: desktop app for local models', 'Quantforge Pro: one-click quantization', 'ignore memes']) {
      assert.ok(system!.includes(text), `system prompt should include "${text}"`);
    }
    for (const kind of ['`pain`', '`competitor`', '`content`']) assert.ok(system!.includes(kind));
    assert.ok(!system!.includes('<!--'), 'comments of the prompt file are not sent');
    assert.deepEqual(passagesIn(server.requests[0]!), ['T1/title', 'T1/post', 'T1/c1', 'T1/c2']);
    assert.ok(user!.includes('<passage id="c2" reply_to="c1">How do I set the context length in Ollama?</passage>'));
    assert.ok(!user!.includes('alice'), 'authors are not sent');
  });

  test('Authorization: Bearer when an API key is set, no Authorization otherwise', async () => {
    const server = await fake([ok(GOOD_SIGNALS), ok(GOOD_SIGNALS)]);
    await setup(server, { apiKey: API_KEY }).run.analyze([thread('p1')]);
    await setup(server).run.analyze([thread('p1')]);
    assert.equal(server.requests[0]!.headers.authorization, `Bearer ${API_KEY}`);
    assert.equal(server.requests[1]!.headers.authorization, undefined);
  });

  test('small threads share a request up to the character bound; a bigger one starts the next', async () => {
    const server = await fake([]);
    const { run } = setup(server, { batchChars: 2_000 });
    const big = thread('p3', { selftext: 'x'.repeat(1_500) });
    await run.analyze([thread('p1'), thread('p2'), big, thread('p4')]);
    assert.deepEqual(server.requests.map(threadsIn), [['T1', 'T2'], ['T1'], ['T1']]);
  });

  test('a thread longer than the bound is cut: later comments are not sent, and the report says so', async () => {
    const server = await fake([]);
    const { run } = setup(server, { batchChars: 2_000 });
    const comments = Array.from({ length: 30 }, (_, i) => ({ id: `k${i}`, author: `u${i}`, body: `Comment number ${i} `.repeat(8), score: 0, createdAt: '2026-01-01T11:00:00.000Z', replies: [] }));
    await run.analyze([thread('long', { comments })]);
    const sent = passagesIn(server.requests[0]!);
    assert.ok(sent.length > 3 && sent.length < 32, `some comments sent, not all (${sent.length})`);
    const user = server.requests[0]!.body.messages[1]!.content;
    assert.ok(user.length < 2_000 + 200, `the threads text stays near the bound (${user.length})`);
    const notes = run.report().notes.join('\n');
    assert.match(notes, /1 thread was longer than 2000 characters and cut: \d+ comments not sent to the LLM/);
  });
});

describe('answers', () => {
  test('signals are mapped: author and date from the quoted passage, product trimmed, the move kept', async () => {
    const server = await fake([ok(GOOD_SIGNALS)]);
    const { run, fallback } = setup(server);
    const [found] = await run.analyze([thread('p1')]);
    assert.deepEqual(found, [
      {
        kind: 'pain',
        quote: 'Ollama keeps crashing on my M2',
        author: 'op1',
        at: '2026-01-01T10:00:00.000Z',
        competitor: null,
        moves: { content: { title: 'Guide: running 70B models on an M2', body: 'Show the memory settings that keep a 70B model loaded on 32 GB.' } },
        complaint: false,
      },
      { kind: 'competitor', quote: 'I switched to LM Studio', author: 'alice', at: '2026-01-01T11:00:00.000Z', competitor: 'LM Studio', moves: null, complaint: false },
      { kind: 'content', quote: 'How do I set the context length in Ollama?', author: 'bob', at: '2026-01-01T12:00:00.000Z', competitor: null, moves: null, complaint: false },
    ]);
    assert.equal(fallback.starts, 0, 'the fallback is not started when the LLM does everything');
    const report = run.report();
    assert.equal(report.analyzer, 'llm');
    assert.deepEqual(report.notes, ["the LLM used 1000 tokens of the run's budget of 200000 in 1 request"]);
  });

  test('signals land on the thread they name in a batched request', async () => {
    const server = await fake([
      ok(signalsContent([{ thread: 'T2', source: 'title', kind: 'pain', quote: 'Second title hurts' }, { thread: 'T1', source: 'title', kind: 'content', quote: 'First title' }])),
    ]);
    const { run } = setup(server);
    const found = await run.analyze([thread('p1', { title: 'First title?' }), thread('p2', { title: 'Second title hurts' })]);
    assert.deepEqual(found.map((signals) => signals.map((s) => s.quote)), [['First title'], ['Second title hurts']]);
  });

  test('quotes not in the passage they name are dropped and counted; so are unknown passages', async () => {
    const server = await fake([
      ok(
        signalsContent([
          { source: 'title', kind: 'pain', quote: 'Ollama keeps crashing on my M1' }, // altered
          { source: 'title', kind: 'pain', quote: 'I switched to LM Studio' }, // real, but from c1
          { source: 'post', kind: 'pain', quote: 'Every time I load a 70B model it dies.' }, // good
          { source: 'c9', kind: 'content', quote: 'How do I set the context length in Ollama?' }, // no such passage
          { thread: 'T7', source: 'title', kind: 'pain', quote: 'Ollama keeps crashing on my M2' }, // no such thread
          { source: 'c1', kind: 'competitor', quote: 'I switched to LM Studio', product: '   ' }, // no product
        ]),
      ),
    ]);
    const { run } = setup(server);
    const [found] = await run.analyze([thread('p1')]);
    assert.deepEqual(found!.map((s) => s.quote), ['Every time I load a 70B model it dies.']);
    assert.equal(found![0]!.moves, null, 'a pain without a move has none');
    const notes = run.report().notes;
    assert.ok(notes.includes('2 quotes from the LLM dropped: not found verbatim in the passage they name'), notes.join('\n'));
    assert.ok(notes.includes('2 signals from the LLM dropped: naming no passage of the threads sent'), notes.join('\n'));
    assert.ok(notes.some((n) => n.startsWith('1 signal from the LLM dropped as malformed')), notes.join('\n'));
    assert.equal(run.report().analyzer, 'llm', 'dropped quotes are not a fallback');
  });

  test('an over-long or empty move is dropped, the pain kept', async () => {
    const server = await fake([
      ok(
        signalsContent([
          { source: 'title', kind: 'pain', quote: 'Ollama keeps crashing on my M2', move: { title: ' ', body: 'Something' } },
          { source: 'post', kind: 'pain', quote: 'it dies', move: { title: 'Guide', body: 'y'.repeat(5_000) } },
        ]),
      ),
    ]);
    const [found] = await setup(server).run.analyze([thread('p1')]);
    assert.deepEqual(found!.map((s) => [s.quote, s.moves]), [
      ['Ollama keeps crashing on my M2', null],
      ['it dies', null],
    ]);
  });
});

describe('failures fall back per batch', () => {
  test('a refusal: the fallback analyses that batch, and the report says why', async () => {
    const server = await fake([ok(GOOD_SIGNALS), { body: completion(null, { refusal: "I'm sorry, I can't help with that." }) }]);
    const { run, fallback } = setup(server, { batchChars: 2_000 });
    const found = await run.analyze([thread('p1'), thread('p2', { selftext: 'z'.repeat(1_800) })]);
    assert.equal(found[0]!.length, 3, 'the first batch is the LLM’s');
    assert.deepEqual(found[1]!.map((s) => s.quote), ['Ollama keeps crashing on my M2'], 'the second is the fallback’s');
    assert.deepEqual(fallback.calls, [['p2']]);
    const report = run.report();
    assert.equal(report.analyzer, 'llm+rules');
    assert.ok(report.notes.includes('1 thread (1 request) analysed by rules because the model refused'), report.notes.join('\n'));
  });

  test('invalid JSON: asked once more, then the fallback', async () => {
    const server = await fake([ok('Sure! Here are the signals: pain, pain'), ok('{"signals": [')]);
    const { run, fallback } = setup(server);
    await run.analyze([thread('p1')]);
    assert.equal(server.requests.length, 2);
    assert.deepEqual(fallback.calls, [['p1']]);
    assert.ok(run.report().notes.includes('1 thread (1 request) analysed by rules because the answer was not the JSON asked for, twice'));
  });

  test('a page that is not a chat completion (HTML with status 200) counts as invalid JSON', async () => {
    const page: Responder = { headers: { 'content-type': 'text/html' }, body: '<html><body>Blocked</body></html>' };
    const server = await fake([page, page]);
    const { run, fallback } = setup(server);
    await run.analyze([thread('p1')]);
    assert.equal(server.requests.length, 2);
    assert.deepEqual(fallback.calls, [['p1']]);
  });

  test('invalid JSON then a good answer: the LLM’s signals', async () => {
    const server = await fake([ok('not json'), ok('```json\n' + GOOD_SIGNALS + '\n```')]);
    const { run, fallback } = setup(server);
    const [found] = await run.analyze([thread('p1')]);
    assert.equal(found!.length, 3);
    assert.equal(fallback.calls.length, 0);
  });

  test('a truncated answer (finish_reason length): the batch is split in two and asked again', async () => {
    const server = await fake([
      ok('{"signals": [{"thread": "T1", "sou', { finishReason: 'length' }),
      ok(GOOD_SIGNALS),
      ok(signalsContent([{ source: 'post', kind: 'pain', quote: 'it dies' }])),
    ]);
    const { run, fallback } = setup(server);
    const found = await run.analyze([thread('p1'), thread('p2')]);
    assert.deepEqual(server.requests.map(threadsIn), [['T1', 'T2'], ['T1'], ['T1']]);
    assert.deepEqual(found.map((s) => s.length), [3, 1]);
    assert.equal(fallback.calls.length, 0);
  });

  test('still truncated after the split: the fallback', async () => {
    const truncated = ok('{"signals": [', { finishReason: 'length' });
    const server = await fake([truncated, truncated, truncated]);
    const { run, fallback } = setup(server);
    await run.analyze([thread('p1'), thread('p2')]);
    assert.equal(server.requests.length, 3);
    assert.deepEqual(fallback.calls, [['p1'], ['p2']]);
    assert.ok(run.report().notes.includes('2 threads (2 requests) analysed by rules because the answer was cut at max_tokens even after splitting the request'));
  });

  test('429 with Retry-After in seconds: waits that long, then retries', async () => {
    const server = await fake([{ status: 429, headers: { 'retry-after': '7' }, body: { error: { message: 'Rate limit reached' } } }, ok(GOOD_SIGNALS)]);
    const { run, sleeps, fallback } = setup(server);
    const [found] = await run.analyze([thread('p1')]);
    assert.deepEqual(sleeps, [7_000]);
    assert.equal(found!.length, 3);
    assert.equal(fallback.calls.length, 0);
  });

  test('429 with Retry-After as an HTTP date: waits until then, bounded to 60 s', async () => {
    const soon = new Date(Date.now() + 30_000).toUTCString();
    const late = new Date(Date.now() + 3_600_000).toUTCString();
    const server = await fake([
      { status: 429, headers: { 'retry-after': soon } },
      { status: 429, headers: { 'retry-after': late } },
      ok(GOOD_SIGNALS),
    ]);
    const { run, sleeps } = setup(server);
    await run.analyze([thread('p1')]);
    assert.equal(sleeps.length, 2);
    assert.ok(sleeps[0]! > 28_000 && sleeps[0]! <= 30_000, `waited ${sleeps[0]} ms`);
    assert.equal(sleeps[1], 60_000);
    assert.equal(parseRetryAfter('Wed, 21 Oct 2026 07:28:30 GMT', Date.parse('2026-10-21T07:28:00Z')), 30_000);
    assert.equal(parseRetryAfter('soon'), undefined);
  });

  test('429 without Retry-After: exponential backoff with jitter, then the fallback after the retries', async () => {
    const server = await fake([], { status: 429 });
    const { run, sleeps, fallback } = setup(server, { retries: 3 });
    await run.analyze([thread('p1')]);
    assert.equal(server.requests.length, 4, 'the first try and 3 retries');
    assert.equal(sleeps.length, 3);
    const steps = [1_000, 2_000, 4_000];
    sleeps.forEach((ms, i) => assert.ok(ms >= steps[i]! / 2 && ms <= steps[i]!, `wait ${i} was ${ms} ms`));
    assert.deepEqual(fallback.calls, [['p1']]);
    assert.ok(run.report().notes.includes('1 thread (1 request) analysed by rules because the endpoint kept answering 429 (rate limited) after the retries'));
  });

  test('a 500, then success: backoff and retry', async () => {
    const server = await fake([{ status: 500, body: { error: { message: 'boom' } } }, { status: 503 }, ok(GOOD_SIGNALS)]);
    const { run, sleeps, fallback } = setup(server);
    const [found] = await run.analyze([thread('p1')]);
    assert.equal(found!.length, 3);
    assert.equal(sleeps.length, 2);
    assert.equal(fallback.calls.length, 0);
    assert.equal(run.report().analyzer, 'llm');
  });

  test('an answer slower than the timeout is aborted, retried, then the fallback', async () => {
    const server = await fake([], { delayMs: 400, body: completion(GOOD_SIGNALS) });
    const { run, fallback } = setup(server, { timeoutMs: 40, retries: 1 });
    const started = Date.now();
    await run.analyze([thread('p1')]);
    assert.ok(Date.now() - started < 350, 'did not wait for the slow answers');
    assert.equal(server.requests.length, 2);
    assert.deepEqual(fallback.calls, [['p1']]);
    assert.ok(run.report().notes.includes('1 thread (1 request) analysed by rules because no answer came within the timeout, retries included'));
  });
});

describe('failures that end the LLM’s part of the run', () => {
  test('an unreachable endpoint: the whole rest of the run uses the fallback, noted once', async () => {
    const port = await closedPort();
    const fetches: string[] = [];
    const counting: typeof fetch = (input, init) => {
      fetches.push(String(input));
      return fetch(input, init);
    };
    const { run, fallback } = setup({ baseUrl: `http://127.0.0.1:${port}/v1` }, { fetch: counting });
    const first = await run.analyze([thread('p1'), thread('p2')]);
    const second = await run.analyze([thread('p3')]);
    assert.equal(fetches.length, 3, 'one try and two retries, then never again');
    assert.deepEqual(fallback.calls, [['p1', 'p2'], ['p3']]);
    assert.deepEqual([...first, ...second].map((s) => s.length), [1, 1, 1]);
    const report = run.report();
    assert.equal(report.analyzer, 'llm+rules');
    const about = report.notes.filter((n) => n.includes('could not be reached'));
    assert.deepEqual(about, [`the LLM endpoint http://127.0.0.1:${port}/v1 could not be reached (cannot connect (ECONNREFUSED)); 3 threads were analysed by rules instead`]);
  });

  test('401 (a bad key): no more requests this run, and the note names what to check', async () => {
    const server = await fake([{ status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}` } } }]);
    const { run, fallback } = setup(server, { apiKey: API_KEY });
    await run.analyze([thread('p1')]);
    await run.analyze([thread('p2')]);
    assert.equal(server.requests.length, 1);
    assert.deepEqual(fallback.calls, [['p1'], ['p2']]);
    assert.match(run.report().notes.join('\n'), /refused the requests \(HTTP 401; check LLM_API_KEY, LLM_MODEL and LLM_BASE_URL\); 2 threads were analysed by rules instead/);
  });

  test('the token budget: once a request would not fit, the fallback does the rest, and the report says when', async () => {
    // The first answer reports 58,000 tokens: the next request (prompt + max_tokens) cannot fit in 60,000.
    const server = await fake([ok(GOOD_SIGNALS, { usage: { prompt: 57_000, completion: 1_000 } })]);
    const { run, fallback } = setup(server, { maxTokensPerRun: 60_000, batchChars: 2_000 });
    const big = (id: string) => thread(id, { selftext: 'y'.repeat(1_800) });
    const first = await run.analyze([thread('p1'), big('p2')]);
    const second = await run.analyze([big('p3')]);
    assert.equal(server.requests.length, 1);
    assert.equal(first[0]!.length, 3);
    assert.deepEqual(fallback.calls, [['p2'], ['p3']]);
    const report = run.report();
    assert.equal(report.analyzer, 'llm+rules');
    assert.ok(report.notes.includes('token budget of 60000 reached after 1 thread; 2 threads were analysed by rules instead'), report.notes.join('\n'));
    assert.ok(report.notes.includes("the LLM used 58000 tokens of the run's budget of 60000 in 1 request"));
    assert.equal(second[0]!.length, 1);
  });

  test('without usage in the answer, tokens are estimated at 4 characters each', async () => {
    const server = await fake([ok(GOOD_SIGNALS, { usage: null })]);
    const { run } = setup(server);
    await run.analyze([thread('p1')]);
    const note = run.report().notes.find((n) => n.startsWith('the LLM used'));
    assert.match(note ?? '', /^the LLM used about \d+ tokens/);
  });

  test('the run’s abort ends an in-flight request at once, with no fallback', async () => {
    const server = await fake([{ hang: true }]);
    const { run, fallback } = setup(server);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('run cancelled')), 30);
    await assert.rejects(run.analyze([thread('p1')], controller.signal), /run cancelled/);
    assert.ok(Date.now() - started < 1_000);
    assert.equal(fallback.calls.length, 0);
  });

  test('the run’s abort also ends a backoff wait', async () => {
    const server = await fake([], { status: 503 });
    const controller = new AbortController();
    const { run } = setup(server, { sleep: () => new Promise(() => {}) }); // a wait that never ends by itself
    setTimeout(() => controller.abort(new Error('stop now')), 30);
    await assert.rejects(run.analyze([thread('p1')], controller.signal), /stop now/);
  });
});

describe('nameThemes', () => {
  const drafts: ThemeDraft[] = [
    { id: 'th-a', title: 'crashing ollama', summary: 'Ollama crashes.', posts: 5, quotes: ['Ollama keeps crashing on my M2'] },
    { id: 'th-b', title: 'ollama crash', summary: 'Crashes.', posts: 2, quotes: ['it dies on load'] },
    { id: 'th-c', title: 'context length', summary: 'Context.', posts: 3, quotes: ['How do I set the context length?'] },
  ];
  const themesAnswer = (names: unknown[], merges: unknown[]) => ok(JSON.stringify({ names, merges }));

  test('a good answer: names and merges, one request with the themes prompt and schema', async () => {
    const server = await fake([
      themesAnswer(
        [
          { id: 'th-a', title: 'Ollama crashes loading large models', summary: 'Five people report Ollama crashing when loading 70B models on Apple Silicon.' },
          { id: 'th-c', title: 'Setting the context length', summary: 'Three people ask how to raise the context length in local runners.' },
        ],
        [{ from: 'th-b', into: 'th-a' }],
      ),
    ]);
    const { run } = setup(server);
    const naming = await run.nameThemes!(drafts);
    assert.deepEqual(naming, {
      names: [
        { id: 'th-a', title: 'Ollama crashes loading large models', summary: 'Five people report Ollama crashing when loading 70B models on Apple Silicon.' },
        { id: 'th-c', title: 'Setting the context length', summary: 'Three people ask how to raise the context length in local runners.' },
      ],
      merges: [{ from: 'th-b', into: 'th-a' }],
    });
    const body = server.requests[0]!.body;
    assert.deepEqual(Object.keys(body.response_format.json_schema.schema.properties), ['names', 'merges']);
    assert.ok(body.messages[1]!.content.includes('<theme id="th-a" posts="5">'));
    assert.deepEqual(run.report().notes, ["the LLM used 1000 tokens of the run's budget of 200000 in 1 request"], 'it counts against the budget');
  });

  test('unknown ids, titles of the wrong length, two-sentence summaries and chained merges are dropped', async () => {
    const server = await fake([
      themesAnswer(
        [
          { id: 'th-zzz', title: 'A perfectly good title here', summary: 'Fine summary of the problem.' },
          { id: 'th-a', title: 'Ollama crashes whenever people try loading very large models on laptops', summary: 'Too long a title.' },
          { id: 'th-b', title: 'Crashes', summary: 'One word.' },
          { id: 'th-c', title: 'Context length settings', summary: 'People ask about it. Often on weekends.' },
          { id: 'th-c', title: 'Context length settings', summary: 'People ask how to set the context length.' },
        ],
        [
          { from: 'th-b', into: 'th-a' },
          { from: 'th-a', into: 'th-c' }, // th-a is a target already: a chain
          { from: 'th-c', into: 'th-b' }, // th-b is merged away
          { from: 'th-c', into: 'th-c' },
          { from: 'th-c', into: 'nope' },
        ],
      ),
    ]);
    const { run } = setup(server);
    const naming = await run.nameThemes!(drafts);
    assert.deepEqual(naming, {
      names: [{ id: 'th-c', title: 'Context length settings', summary: 'People ask how to set the context length.' }],
      merges: [{ from: 'th-b', into: 'th-a' }],
    });
    assert.ok(run.report().notes.some((n) => n.startsWith('theme naming: 4 names and 4 merges from the LLM were dropped')), run.report().notes.join('\n'));
  });

  test('a failure gives no names and no merges, and a note', async () => {
    const server = await fake([{ status: 500 }]);
    const { run } = setup(server, { retries: 0 });
    assert.deepEqual(await run.nameThemes!(drafts), { names: [], merges: [] });
    assert.ok(run.report().notes.includes("themes were not named by the LLM (the endpoint kept failing (HTTP 5xx) after the retries); the grouper's titles stand"));
  });

  test('an answer that is not the JSON asked for gives nothing, and a note', async () => {
    const server = await fake([ok('{"names": "all good"}')]);
    const { run } = setup(server);
    assert.deepEqual(await run.nameThemes!(drafts), { names: [], merges: [] });
    assert.ok(run.report().notes.some((n) => n.includes('the answer was not the JSON asked for')));
  });

  test('theme naming counts against the budget: a request that would not fit is not made', async () => {
    const server = await fake([]);
    const { run } = setup(server, { maxTokensPerRun: 2_000 });
    assert.deepEqual(await run.nameThemes!(drafts), { names: [], merges: [] });
    assert.equal(server.requests.length, 0);
    assert.ok(run.report().notes.includes("themes were not named by the LLM (the request would exceed the token budget of 2000); the grouper's titles stand"));
  });

  test('no drafts, no request', async () => {
    const server = await fake([]);
    assert.deepEqual(await setup(server).run.nameThemes!([]), { names: [], merges: [] });
    assert.equal(server.requests.length, 0);
  });
});

describe('the run', () => {
  test('close() is idempotent and closes the fallback once', async () => {
    const server = await fake([{ body: completion(null, { refusal: 'no' }) }]);
    const { run, fallback } = setup(server);
    await run.analyze([thread('p1')]);
    await run.close();
    await run.close();
    assert.equal(fallback.closes, 1);
    await assert.rejects(run.analyze([thread('p2')]), /closed/);
  });

  test('the same answers give the same signals and the same report', async () => {
    const script = (): Responder[] => [ok(GOOD_SIGNALS), ok('nope'), ok('nope'), ok(signalsContent([{ source: 'title', kind: 'pain', quote: 'not there' }]))];
    const outcomes = [];
    for (let i = 0; i < 2; i += 1) {
      const server = await fake(script());
      const { run } = setup(server, { batchChars: 2_000 });
      const big = (id: string) => thread(id, { selftext: 'q'.repeat(1_800) });
      const found = await run.analyze([thread('p1'), big('p2'), big('p3')]);
      outcomes.push({ found, report: run.report(), sent: server.requests.map((r) => r.body) });
    }
    assert.deepEqual(outcomes[0], outcomes[1]);
  });

  test('the API key never reaches a log line or a note, whatever happens', async () => {
    const { logger, lines } = capturedLogger('trace');
    const server = await fake([
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 500 },
      ok('not json'),
      ok('not json'),
      { body: completion(null, { refusal: 'no' }) },
      { status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}` } } },
    ]);
    const { run } = setup(server, { apiKey: API_KEY, logger, batchChars: 2_000 });
    const big = (id: string) => thread(id, { selftext: 'w'.repeat(1_800) });
    await run.analyze([thread('p1'), big('p2'), big('p3'), big('p4')]);
    await run.nameThemes!([{ id: 'a', title: 't', summary: 's', posts: 1, quotes: [] }]);
    assert.ok(lines.length > 3, 'the analyzer logged what happened');
    const everything = [...lines, ...run.report().notes].join('\n');
    assert.ok(!everything.includes(API_KEY), 'the API key appears nowhere');
    assert.ok(!everything.includes('4f9c2b7e'), 'not even a part of it');
  });
});

describe('prompts', () => {
  test('the shipped prompt files are plain Markdown with the placeholders documented in them', () => {
    const analyze = readFileSync(join(DEFAULT_PROMPTS_DIR, 'analyze.md'), 'utf8');
    assert.ok(analyze.includes('{{threads}}') && analyze.includes('{{filter_rules}}'));
    assert.ok(readFileSync(join(DEFAULT_PROMPTS_DIR, 'themes.md'), 'utf8').includes('{{themes}}'));
  });

  test('an edited prompt is used; placeholders in thread text are not expanded', async () => {
    const dir = promptsDir('# System\nYou help {{project_name}}. Rules: {{filter_rules}}\n# User\nRead:\n{{threads}}');
    const server = await fake([]);
    const { run } = setup(server, { promptsDir: dir });
    await run.analyze([thread('p1', { title: 'What is {{project_name}}?' })]);
    const [system, user] = server.requests[0]!.body.messages.map((m) => m.content);
    assert.equal(system, 'You help Quantforge. Rules: - ignore memes');
    assert.ok(user!.startsWith('Read:\n<thread id="T1"'));
    assert.ok(user!.includes('What is {{project_name}}?'));
  });

  test('a prompt with an unknown placeholder, or without the threads, fails when the analyzer is made', () => {
    const { analyzer: fallback } = fakeFallback();
    const make = (dir: string) => () => createLlmAnalyzer({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', maxTokensPerRun: 1_000, fallback, promptsDir: dir });
    assert.throws(make(promptsDir('# System\n{{competitor}}\n# User\n{{threads}}')), /unknown placeholder \{\{competitor\}\}/);
    assert.throws(make(promptsDir('# System\nHello\n# User\nNothing here')), /must contain \{\{threads\}\}/);
    assert.throws(make(promptsDir('Just text, no sections {{threads}}')), /"# System" line/);
  });
});

describe('llmOptionsFromEnv', () => {
  const { analyzer: fallback } = fakeFallback();

  test('undefined when LLM_BASE_URL is unset or empty', () => {
    assert.equal(llmOptionsFromEnv({}, fallback), undefined);
    assert.equal(llmOptionsFromEnv({ LLM_BASE_URL: '  ', LLM_MODEL: 'x' }, fallback), undefined);
  });

  test('the values, with defaults', () => {
    assert.deepEqual(llmOptionsFromEnv({ LLM_BASE_URL: 'http://localhost:11434/v1', LLM_MODEL: 'llama3.1:8b' }, fallback), {
      baseUrl: 'http://localhost:11434/v1',
      model: 'llama3.1:8b',
      maxTokensPerRun: 200_000,
      fallback,
    });
    const full = llmOptionsFromEnv(
      { LLM_BASE_URL: 'https://api.openai.com/v1', LLM_MODEL: 'gpt-4o-mini', LLM_API_KEY: API_KEY, LLM_MAX_TOKENS_PER_RUN: '50000', LLM_TIMEOUT_SECONDS: '2.5', LLM_BATCH_CHARS: '8000', LLM_PROMPTS_DIR: '/etc/signals/prompts' },
      fallback,
    );
    assert.deepEqual(full, { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: API_KEY, maxTokensPerRun: 50_000, timeoutMs: 2_500, batchChars: 8_000, promptsDir: '/etc/signals/prompts', fallback });
  });

  test('clear errors for bad values, never showing the key', () => {
    const base = { LLM_BASE_URL: 'http://localhost:11434/v1', LLM_MODEL: 'm', LLM_API_KEY: API_KEY };
    const cases: [NodeJS.ProcessEnv, RegExp][] = [
      [{ LLM_BASE_URL: 'http://localhost:11434/v1', LLM_API_KEY: API_KEY }, /LLM_MODEL is not/],
      [{ ...base, LLM_BASE_URL: 'localhost:11434' }, /LLM_BASE_URL must be an http\(s\) URL/],
      [{ ...base, LLM_BASE_URL: 'https://me:secret@llm.example.com/v1' }, /LLM_BASE_URL must not hold a user name or password/],
      [{ ...base, LLM_MAX_TOKENS_PER_RUN: 'lots' }, /LLM_MAX_TOKENS_PER_RUN must be a whole number/],
      [{ ...base, LLM_MAX_TOKENS_PER_RUN: '0' }, /LLM_MAX_TOKENS_PER_RUN must be a whole number ≥ 1/],
      [{ ...base, LLM_MAX_TOKENS_PER_RUN: '1.5' }, /LLM_MAX_TOKENS_PER_RUN/],
      [{ ...base, LLM_TIMEOUT_SECONDS: '-3' }, /LLM_TIMEOUT_SECONDS must be a positive number/],
      [{ ...base, LLM_TIMEOUT_SECONDS: '0' }, /LLM_TIMEOUT_SECONDS/],
      [{ ...base, LLM_BATCH_CHARS: '100' }, /LLM_BATCH_CHARS must be a whole number ≥ 2000/],
    ];
    for (const [env, message] of cases) {
      assert.throws(
        () => llmOptionsFromEnv(env, fallback),
        (err: Error) => message.test(err.message) && !err.message.includes(API_KEY),
        `${JSON.stringify({ ...env, LLM_API_KEY: undefined })} should fail with ${message}`,
      );
    }
  });
});

/** A port nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function promptsDir(analyze: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'llm-prompts-'));
  writeFileSync(join(dir, 'analyze.md'), analyze);
  writeFileSync(join(dir, 'themes.md'), readFileSync(join(DEFAULT_PROMPTS_DIR, 'themes.md'), 'utf8'));
  return dir;
}
