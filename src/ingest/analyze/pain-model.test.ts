/**
 * The pain model (pain-model.ts): its features are stable and mean what they say, the model file
 * is refused when it was trained on other features, and the shipped model tells pains from
 * non-pains on hand-written sentences it was not trained on.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { tag } from './nlp.ts';
import { readCues } from './pain.ts';
import { fnv1a, HASH_BUCKETS, LinearModel, modelPath, type LinearModelFile } from './linear-model.ts';
import { FEATURE_SET, hashedWords, isPain, painFeatures, painModel, painSpec, sentenceWords, type SentencePlace } from './pain-model.ts';
import { wordVectors } from './vectors.ts';

const vectors = wordVectors();
const spec = painSpec(vectors.dims);
const denseNames = (_dims: number) => spec.dense;
const LOAD_BUCKET = 0xe60759e9 % HASH_BUCKETS;
const place: SentencePlace = { inTitle: false, index: 1, passageSentences: 4, passageReadings: 1 };

function features(sentence: string, where: SentencePlace = place) {
  const tokens = tag(sentence);
  return painFeatures({ sentence, tokens, reading: readCues(tokens, sentence), howTo: false }, where, vectors);
}

function dense(sentence: string, name: string, where?: SentencePlace): number {
  return features(sentence, where).dense[denseNames(vectors.dims).indexOf(name)]!;
}

describe('pain model: the decision', () => {
  test('the threshold decides; clear cues need only half of it', () => {
    const clearCue = { score: 2.5, kind: 'failure' as const, cue: 0, howTo: false };
    const mildCue = { ...clearCue, score: 2 };
    assert.equal(isPain(0.6, undefined, 0.6), true);
    assert.equal(isPain(0.59, undefined, 0.6), false);
    assert.equal(isPain(0.3, clearCue, 0.6), true);
    assert.equal(isPain(0.29, clearCue, 0.6), false);
    assert.equal(isPain(0.5, mildCue, 0.6), false);
  });
});

describe('pain model: features', () => {
  test('one dense value per named feature, vector included', () => {
    const f = features('Ollama keeps crashing when I load a long context.');
    assert.equal(f.dense.length, denseNames(vectors.dims).length);
    assert.equal(dense('Ollama keeps crashing when I load a long context.', 'vectorKnown'), 1);
  });

  test('the cue reading, its kind and the sentence shape are features', () => {
    const s = 'Ollama keeps crashing when I load a long context.';
    assert.equal(dense(s, 'cue'), 1);
    assert.equal(dense(s, 'kind:failure'), 1);
    assert.equal(dense(s, 'kind:cost'), 0);
    assert.equal(dense(s, 'firstPerson'), 1);
    assert.equal(dense('What is the best model for coding?', 'question'), 1);
    assert.equal(dense('What is the best model for coding?', 'cue'), 0);
    assert.equal(dense(s, 'inTitle', { ...place, inTitle: true }), 1);
  });

  test('words and word pairs hash to stable buckets, each once', () => {
    const words = sentenceWords("It doesn’t load, it doesn't load.");
    assert.deepEqual(words.slice(0, 3), ['it', "doesn't", 'load']);
    const buckets = hashedWords(words);
    assert.equal(new Set(buckets).size, buckets.length);
    assert.ok([...buckets].every((b) => b >= 0 && b < HASH_BUCKETS));
    // FNV-1a of "load" (computed apart): a changed hash would silently misread every shipped weight.
    assert.deepEqual([...hashedWords(['load'])], [LOAD_BUCKET]);
    // A pair is the hash of the two words joined by a space (computed without building the string).
    const expected = [...new Set(['it', 'load', 'it load'].map((k) => fnv1a(k) % HASH_BUCKETS))].sort((a, b) => a - b);
    assert.deepEqual([...hashedWords(['it', 'load'])], expected);
  });
});

describe('pain model: the model file', () => {
  const file = JSON.parse(readFileSync(modelPath('pain'), 'utf8')) as LinearModelFile;

  test('the shipped file matches the features this code computes', () => {
    assert.equal(file.featureSet, FEATURE_SET);
    assert.deepEqual(file.dense, denseNames(vectors.dims));
    assert.equal(file.hashedWeights.length, HASH_BUCKETS);
    assert.ok(file.threshold > 0 && file.threshold < 1);
  });

  test('a file trained on other features is refused with how to fix it', () => {
    assert.throws(() => new LinearModel({ ...file, featureSet: 'pain-features/0' }, spec), /trained on pain-features\/0.*train-models/);
    assert.throws(() => new LinearModel({ ...file, dense: file.dense.slice(1) }, spec), /other dense features/);
    assert.throws(() => new LinearModel({ ...file, hashedWeights: [] }, spec), /wrong number of weights/);
  });

  test('the probability is the logistic of the weighted sum', () => {
    const zero = new LinearModel({ ...file, denseWeights: file.denseWeights.map(() => 0), hashedWeights: file.hashedWeights.map(() => 0), bias: 0 }, spec);
    assert.equal(zero.probability(features('Anything at all.')), 0.5);
    const biased = new LinearModel({ ...file, denseWeights: file.denseWeights.map(() => 0), hashedWeights: file.hashedWeights.map(() => 0), bias: Math.log(3) }, spec);
    assert.ok(Math.abs(biased.probability(features('Anything at all.')) - 0.75) < 1e-9);
  });
});

describe('pain model: the shipped model on sentences it never saw', () => {
  const model = painModel(vectors.dims);
  const p = (s: string) => model.probability(features(s));
  const clear = [
    'Ollama keeps crashing when I load a 32k context and it is driving me nuts.',
    'Zoom keeps freezing during my lectures and I miss half of the class.',
    'Group projects with teammates who never contribute are so frustrating.',
  ];
  const subtle = [
    "I've spent two days trying to get ROCm working and it still can't see my GPU.",
    'I wish there was a simple way to see how much VRAM a model will need before downloading it.',
  ];
  const nonPains = [
    'Thanks everyone for the great suggestions, I learned a lot!',
    'We just released version 2.0 with support for vision models.',
    'Here is my benchmark table for the new quantizations.',
    'Check out the repo if you want to try it yourself.',
  ];
  const pain = (s: string) => {
    const tokens = tag(s);
    return isPain(p(s), readCues(tokens, s), model.threshold);
  };
  test('clear pains are pains, whatever the community', () => {
    for (const s of clear) assert.ok(pain(s), `${s}: ${p(s).toFixed(2)}`);
  });
  test('announcements, thanks and pointers are not', () => {
    for (const s of nonPains) assert.ok(!pain(s), `${s}: ${p(s).toFixed(2)}`);
  });
  test('pains told without a strong cue still rank above every non-pain', () => {
    const highest = Math.max(...nonPains.map(p));
    for (const s of subtle) assert.ok(p(s) > highest, `${s}: ${p(s).toFixed(2)} ≤ ${highest.toFixed(2)}`);
  });
});
