/**
 * The `rules` analyzer (DESIGN §8): pains with a move, questions as content ideas, competitor
 * mentions from the memory and from comparison contexts (one product however it is written),
 * filter rules, verbatim quotes, determinism — on crafted threads and on the shipped real ones.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { AnalyzerMemory, FoundSignal } from '../../src/ingest/analyze/analyzer.ts';
import { analyzeThread, isPain, isQuestion, productKey } from '../../src/ingest/analyze/rules.ts';
import { excludedPhrases, sentences } from '../../src/ingest/analyze/text.ts';
import type { SourceThread } from '../../src/ingest/sources/source.ts';

const MEMORY: AnalyzerMemory = {
  name: 'Quantforge',
  description: '',
  competitors: [
    { name: 'Ollama', url: 'https://ollama.com', description: '' },
    { name: 'LM Studio', url: 'https://lmstudio.ai', description: '' },
  ],
  offerings: [],
  filterRules: ['ignore memes', 'exclude: crypto, giveaways'],
};

function thread(title: string, selftext: string, comments: Array<[string, string]> = []): SourceThread {
  return {
    id: 't1',
    url: 'https://www.reddit.com/r/LocalLLaMA/comments/t1/x/',
    permalink: '/r/LocalLLaMA/comments/t1/x/',
    community: 'LocalLLaMA',
    title,
    selftext,
    author: 'op',
    score: 5,
    postCreatedAt: '2025-08-01T00:00:00.000Z',
    comments: comments.map(([author, body], i) => ({ id: `c${i}`, author, body, score: 1, createdAt: '2025-08-01T01:00:00.000Z', replies: [] })),
  };
}

const kinds = (signals: FoundSignal[], kind: FoundSignal['kind']) => signals.filter((s) => s.kind === kind);

describe('rules analyzer', () => {
  test('a frustrated sentence is a pain with a content move; its quote is verbatim and its author kept', () => {
    const t = thread('Help with context length', 'I have 24GB of VRAM. Ollama keeps crashing when I load a 32k context and it is driving me nuts.', [
      ['alice', 'Works fine for me, no issues at all.'],
      ['bob', 'I wish there was a simple way to see how much VRAM a model will need before downloading it.'],
    ]);
    const signals = analyzeThread(t, MEMORY);
    const pains = kinds(signals, 'pain');
    assert.deepEqual(
      pains.map((p) => [p.author, p.quote]),
      [
        ['op', 'Ollama keeps crashing when I load a 32k context and it is driving me nuts.'],
        ['bob', 'I wish there was a simple way to see how much VRAM a model will need before downloading it.'],
      ],
    );
    for (const p of pains) {
      assert.ok(p.moves?.content.title.startsWith('Answer it: “'));
      assert.match(p.moves!.content.body, /r\/LocalLLaMA/);
      assert.match(p.moves!.content.body, /Quantforge/);
      assert.equal(p.competitor, null);
    }
  });

  test('questions become content ideas; rhetorical or short ones do not', () => {
    assert.equal(isQuestion('How do I run two models on one GPU with llama.cpp?'), true);
    assert.equal(isQuestion('Is there a GUI that shows token speed?'), true);
    assert.equal(isQuestion('Why?'), false);
    assert.equal(isQuestion('This model is great, right?'), false);
    const signals = analyzeThread(thread('How do I run two models on one GPU with llama.cpp?', ''), MEMORY);
    assert.deepEqual(kinds(signals, 'content').map((s) => s.quote), ['How do I run two models on one GPU with llama.cpp?']);
  });

  test('pain vocabulary without a pain ("no problems", "works great") is not a pain', () => {
    assert.equal(isPain('I have had no problems with it so far, honestly.'), false);
    assert.equal(isPain('It works great on my 3090 even with long prompts.'), false);
    assert.equal(isPain('It keeps failing to load the tokenizer on Windows.'), true);
  });

  test('competitors: the memory\'s products in any case, and products named where people compare tools, one per product', () => {
    const t = thread('Switched from ollama to vLLM', 'LM studio is nice but I moved to vLLM for batching. KoboldCpp vs Oobabooga for roleplay?', [
      ['carol', 'I use OLLAMA daily. Is there an alternative to LM Studio on Linux?'],
      ['dave', 'I switched from it to something else.'],
    ]);
    const found = kinds(analyzeThread(t, MEMORY), 'competitor');
    const products = [...new Set(found.map((s) => s.competitor))];
    assert.deepEqual(products.sort(), ['KoboldCpp', 'LM Studio', 'Ollama', 'Oobabooga', 'vLLM']);
    assert.ok(found.every((s) => s.moves === null));
    assert.equal(productKey('Ollama'), productKey('OLLAMA'));
    assert.equal(productKey('LM Studio'), productKey('lm studio'));
  });

  test('the project itself is never its own competitor', () => {
    const found = analyzeThread(thread('Quantforge vs Ollama', ''), MEMORY);
    assert.deepEqual(kinds(found, 'competitor').map((s) => s.competitor), ['Ollama']);
  });

  test('filter rules: a title that hits one drops the thread; a sentence that hits one is skipped', () => {
    assert.deepEqual(excludedPhrases(MEMORY.filterRules), ['memes', 'crypto', 'giveaways']);
    assert.deepEqual(analyzeThread(thread('Best memes of the week', 'Ollama keeps crashing all the time for me.'), MEMORY), []);
    const signals = analyzeThread(thread('Setup help', 'The crypto miner keeps crashing my box every night. Ollama keeps crashing too on big prompts.'), MEMORY);
    assert.deepEqual(kinds(signals, 'pain').map((s) => s.quote), ['Ollama keeps crashing too on big prompts.']);
  });

  test('sentences are verbatim slices; quotes, code and list markers are left out', () => {
    const text = '> quoted text that keeps crashing\n- First point. Second point!\n    code line\nLast one?';
    const parts = sentences(text);
    assert.deepEqual(parts, ['First point.', 'Second point!', 'Last one?']);
    for (const p of parts) assert.ok(text.includes(p));
  });

  test('AutoModerator and deleted comments are ignored', () => {
    const signals = analyzeThread(
      thread('Title', '', [
        ['AutoModerator', 'Your post keeps failing our rules, which is frustrating.'],
        ['[deleted]', '[deleted]'],
      ]),
      MEMORY,
    );
    assert.deepEqual(signals, []);
  });

  test('on the shipped real threads: deterministic, every quote verbatim in its thread, all three kinds found', () => {
    const fixture = JSON.parse(gunzipSync(readFileSync(new URL('../../fixtures/localllama-threads.json.gz', import.meta.url))).toString()) as { threads: SourceThread[] } | SourceThread[];
    const threads = Array.isArray(fixture) ? fixture : fixture.threads;
    assert.ok(threads.length >= 100);
    const run = () => threads.map((t) => analyzeThread(t, MEMORY));
    const first = run();
    assert.deepEqual(run(), first, 'the same input gives the same signals');
    const all = first.flat();
    for (const kind of ['pain', 'competitor', 'content'] as const) assert.ok(kinds(all, kind).length >= 20, `${kind}: ${kinds(all, kind).length}`);
    threads.forEach((t, i) => {
      const corpus = [t.title, t.selftext, ...flatten(t.comments)].join('\n');
      for (const s of first[i]!) assert.ok(corpus.includes(s.quote), `not verbatim: ${s.quote}`);
    });
    const ollama = kinds(all, 'competitor').filter((s) => productKey(s.competitor!) === 'ollama');
    assert.ok(ollama.length > 5);
    assert.ok(ollama.every((s) => s.competitor === 'Ollama'), 'one spelling for a memory competitor');
  });
});

function flatten(comments: SourceThread['comments']): string[] {
  return comments.flatMap((c) => [c.body, ...flatten(c.replies)]);
}
