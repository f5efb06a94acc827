/**
 * Noun chunks (nlp.ts): what a move and a theme title may name.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nounChunks, phrase, tag } from './nlp.ts';

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
