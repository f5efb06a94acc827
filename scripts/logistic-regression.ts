/**
 * The logistic regression the `rules` analyzer's models are trained with (scripts/train-models.ts),
 * shared with the quality scripts that measure what other labels would teach it
 * (test/ingest/quality/pain-evidence.ts).
 */
import { HASH_BUCKETS, linear, sigmoid, type Features } from '../src/ingest/analyze/linear-model.ts';

export interface Weights {
  dense: Float64Array;
  hashed: Float64Array;
  bias: number;
}

/**
 * L2-regularised logistic regression by full-batch gradient descent with Adam: deterministic
 * (fixed order, fixed steps), and a few thousand examples train in a second or two. Positives
 * are weighted up so both classes weigh the same in total.
 */
export function train(examples: readonly { features: Features; positive: boolean }[], lambda: number): Weights {
  const dims = examples[0]!.features.dense.length;
  const w: Weights = { dense: new Float64Array(dims), hashed: new Float64Array(HASH_BUCKETS), bias: 0 };
  const positives = examples.filter((e) => e.positive).length;
  const positiveWeight = (examples.length - positives) / Math.max(1, positives);
  const total = examples.length - positives + positives * positiveWeight;
  const size = dims + HASH_BUCKETS + 1;
  const m = new Float64Array(size);
  const v = new Float64Array(size);
  const g = new Float64Array(size);
  const rate = 0.05;
  for (let step = 1; step <= 400; step++) {
    g.fill(0);
    for (const e of examples) {
      const p = sigmoid(linear(e.features, w.dense, w.hashed, w.bias));
      const err = (p - (e.positive ? 1 : 0)) * (e.positive ? positiveWeight : 1);
      const d = e.features.dense;
      for (let j = 0; j < dims; j++) g[j]! += err * d[j]!;
      for (const b of e.features.hashed) g[dims + b]! += err;
      g[size - 1]! += err;
    }
    for (let j = 0; j < size - 1; j++) {
      const weight = j < dims ? w.dense[j]! : w.hashed[j - dims]!;
      g[j] = g[j]! / total + (lambda / total) * weight;
    }
    g[size - 1] = g[size - 1]! / total;
    for (let j = 0; j < size; j++) {
      m[j] = 0.9 * m[j]! + 0.1 * g[j]!;
      v[j] = 0.999 * v[j]! + 0.001 * g[j]! * g[j]!;
      const delta = (rate * (m[j]! / (1 - 0.9 ** step))) / (Math.sqrt(v[j]! / (1 - 0.999 ** step)) + 1e-8);
      if (j < dims) w.dense[j]! -= delta;
      else if (j < size - 1) w.hashed[j - dims]! -= delta;
      else w.bias -= delta;
    }
  }
  return w;
}

/** The cross-validation fold (0 to `folds` − 1) of a key: a post id, a sentence; the same key, the same fold. */
export function foldOfKey(key: string, folds: number): number {
  let h = 0;
  for (const c of key) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h % folds;
}
