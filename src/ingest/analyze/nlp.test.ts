/**
 * nlp.ts: noun chunks (what a move and a theme title may name) and the tagger's lifetime.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nounChunks, phrase, setTaggerLifetime, tag } from './nlp.ts';

const chunks = (sentence: string) => {
  const tokens = tag(sentence);
  return nounChunks(tokens).map(([from, to]) => phrase(tokens, from, to));
};

test('a gerund after a singular noun names an activity; after a plural it is what the subject does', () => {
  assert.ok(chunks('Offloading to RAM and context caching are broken.').includes('context caching'));
  assert.ok(chunks('Tool calling fails every time.').some((c) => /tool calling/i.test(c)));
  const plural = chunks('The issue is these massive models hitting the physical limit of the board.');
  assert.ok(plural.includes('massive models'), plural.join(' | '));
  assert.ok(!plural.some((c) => c.includes('hitting')), plural.join(' | '));
  assert.ok(!chunks('My GPUs running hot is the problem.').some((c) => c.includes('running')));
});

test('a fresh tagger takes over after its lifetime, as often as needed, and tags as the first one did', () => {
  const sentences = ['LM Studio keeps crashing when I load a second model.', 'Prompt processing is painfully slow on my Mac.', 'Is there a way to run Qwen3 on two GPUs?'];
  const first = sentences.map((s) => tag(s));
  const previous = setTaggerLifetime(1);
  try {
    // One instance per sentence: 30 instances. wink-eng-lite-web-model's metaCER loader made the
    // twelfth or so throw "Invalid string length" until its first answer was reused.
    for (let round = 0; round < 10; round++) assert.deepEqual(sentences.map((s) => tag(s)), first);
  } finally {
    setTaggerLifetime(previous);
  }
});
