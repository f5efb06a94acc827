/**
 * Logistic regression for the `rules` analyzer's learned part (pain-model.ts): one weight per
 * feature, so a prediction is a sum anyone can trace, a model file is small JSON, and scoring
 * costs a few hundred multiplications. This module holds what does not depend on the features:
 * the feature vector (named dense values plus hashed word buckets), the model file and its
 * checks, and scoring. scripts/train-models.ts learns the weights.
 *
 * A model file records the feature set and the dense feature names it was trained on, and is
 * refused when the code computes others: a silently misaligned weight vector would score
 * garbage without any error.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Hashed word features: 2^13 buckets (few collisions for the few thousand words that carry weight). */
export const HASH_BUCKETS = 8192;

/** One example's features: dense values (in the order of the model's names) and the hashed buckets present. */
export interface Features {
  dense: Float32Array;
  hashed: Uint32Array;
}

/** What scripts/train-models.ts writes to src/ingest/analyze/data/<name>-model.json. */
export interface LinearModelFile {
  featureSet: string;
  dense: string[];
  denseWeights: number[];
  hashedWeights: number[];
  bias: number;
  /** An example is positive when its probability reaches this. */
  threshold: number;
  /** How it was made and how it scored in cross-validation (for docs/quality.md). */
  trained: Record<string, unknown>;
}

/** What a model is trained on: its name, feature-set version and dense feature names. */
export interface FeatureSpec {
  model: 'pain' | 'comment-pain';
  featureSet: string;
  dense: readonly string[];
}

export function modelPath(model: FeatureSpec['model']): string {
  return fileURLToPath(new URL(`./data/${model}-model.json`, import.meta.url));
}

export class LinearModel {
  readonly threshold: number;
  private readonly denseWeights: Float32Array;
  private readonly hashedWeights: Float32Array;
  private readonly bias: number;

  constructor(file: LinearModelFile, spec: FeatureSpec, source = 'memory') {
    const retrain = 'run node --import tsx scripts/train-models.ts';
    if (file.featureSet !== spec.featureSet) throw new Error(`${spec.model} model at ${source} was trained on ${file.featureSet}, this code computes ${spec.featureSet}; ${retrain}`);
    if (file.dense.length !== spec.dense.length || file.dense.some((n, i) => n !== spec.dense[i])) throw new Error(`${spec.model} model at ${source} names other dense features than this code computes; ${retrain}`);
    if (file.denseWeights.length !== spec.dense.length || file.hashedWeights.length !== HASH_BUCKETS) throw new Error(`${spec.model} model at ${source} has the wrong number of weights; ${retrain}`);
    this.denseWeights = Float32Array.from(file.denseWeights);
    this.hashedWeights = Float32Array.from(file.hashedWeights);
    this.bias = file.bias;
    this.threshold = file.threshold;
  }

  probability(features: Features): number {
    return sigmoid(linear(features, this.denseWeights, this.hashedWeights, this.bias));
  }
}

export function loadLinearModel(spec: FeatureSpec): LinearModel {
  const path = modelPath(spec.model);
  return new LinearModel(JSON.parse(readFileSync(path, 'utf8')) as LinearModelFile, spec, path);
}

export function linear(features: Features, denseWeights: ArrayLike<number>, hashedWeights: ArrayLike<number>, bias: number): number {
  let z = bias;
  const d = features.dense;
  for (let j = 0; j < d.length; j++) z += d[j]! * denseWeights[j]!;
  for (const b of features.hashed) z += hashedWeights[b]!;
  return z;
}

export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/**
 * FNV-1a, 32 bits: a stable string hash (the same on every machine and Node version). `seed`
 * continues a hash: fnv1a(b, fnv1a(a)) is fnv1a(a + b).
 */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Fills a dense vector value by value, in the order of its names. */
export class DenseWriter {
  private k = 0;
  constructor(readonly values: Float32Array) {}
  put(value: number | boolean): void {
    this.values[this.k++] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
  }
  set(values: ArrayLike<number>): void {
    this.values.set(values, this.k);
    this.k += values.length;
  }
}
