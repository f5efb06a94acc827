/**
 * Model families by their sizes (DESIGN §8.2: a model family is never a product): which families
 * a text writes with a parameter count, and when the counts make a name a model.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isModelFamily, sizedFamilies } from './model-sizes.ts';

describe('model families by their sizes', () => {
  test('a name right before a parameter count in billions, in the ways people write it', () => {
    assert.deepEqual(sizedFamilies('QwQ-32B is great'), ['qwq']);
    assert.deepEqual(sizedFamilies('I run Mixtral 8x7B and qwen3:30b on it'), ['mixtral', 'qwen']);
    assert.deepEqual(sizedFamilies('Mistral Large 123B').sort(), ['large', 'mistrallarge']);
    assert.deepEqual(sizedFamilies('magistral 24b and Command-A 111B').sort(), ['a', 'commanda', 'magistral']);
  });

  test('a name that only comes before the model is not written with its size', () => {
    // "Unsloth Qwen3 30B": Unsloth's quant of Qwen3; "Nemotron Super 49B" names "Nemotron Super".
    assert.ok(!sizedFamilies('grab the Unsloth Qwen3 30B quant').includes('unsloth'));
    assert.ok(!sizedFamilies('Nemotron Super 49B').includes('nemotron'));
  });

  test('counts, memory sizes and money are not parameter counts', () => {
    assert.deepEqual(sizedFamilies('Spotify has 100M users and Dropbox gave me 512MB'), []);
    assert.deepEqual(sizedFamilies('Ollama uses 24GB and 16 GB of RAM'), []);
    assert.deepEqual(sizedFamilies('OpenAI raised $40B'), []);
  });

  test('a model family: written with a size twice or more, in a tenth of its mentions or more', () => {
    assert.equal(isModelFamily({ sized: 2, mentions: 18 }), true);
    assert.equal(isModelFamily({ sized: 2, mentions: 19 }), false);
    assert.equal(isModelFamily({ sized: 1, mentions: 0 }), false, 'one slip is not enough');
    assert.equal(isModelFamily({ sized: 3, mentions: 1161 }), false, 'a product with a few slips');
  });
});
