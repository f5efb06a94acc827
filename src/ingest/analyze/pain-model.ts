/**
 * The learned half of pain reading (docs/quality.md, "The pain model"). pain.ts reads a sentence
 * by its structure (cue lemmas, negation, relief, advice…) and is right about what it sees, but a
 * fixed cue list cannot weigh the rest of the sentence: "frustrated" in a success story, "bug" in
 * release notes, a problem told without any cue word. This model takes that reading as evidence
 * among others — what the sentence is about (its word vector), its words and word pairs, its
 * shape and its passage — and gives the probability that a careful reader would quote the
 * sentence as the writer's problem.
 *
 * It is a logistic regression (linear-model.ts). scripts/train-models.ts learns its weights from
 * opening posts labelled by the GUIDE of test/fixtures/quality (the training posts and the tuning
 * half; never the held-out half, which is what we report) and picks the decision threshold by
 * cross-validation on those same posts.
 *
 * Features are computed here and only here, for training and for analysis alike: a model file
 * records the feature set it was trained on and is refused if the code computes another.
 */
import { DenseWriter, fnv1a, HASH_BUCKETS, loadLinearModel, type FeatureSpec, type Features, type LinearModel } from './linear-model.ts';
import type { Token } from './nlp.ts';
import { PAIN_KINDS, rulesSayPain, type PainReading } from './pain.ts';
import type { WordVectors } from './vectors.ts';

/** Bump when any feature below changes meaning; the model file must be retrained then. */
export const FEATURE_SET = 'pain-features/3';

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’]*/gu;
const NEGATION = /\b(?:not|never|no|cannot|nothing|without)\b|n['’]t\b/i;
const FIRST_PERSON = /\b(?:i|me|my|mine|we|us|our|i'm|im|i've|i’m|i’ve)\b/i;

/** Where a sentence sits: its passage (title, post text or comment) and what else that passage says. */
export interface SentencePlace {
  /** The sentence is (in) the thread's title. */
  inTitle: boolean;
  /** Its index among its passage's sentences. */
  index: number;
  /** How many sentences its passage has. */
  passageSentences: number;
  /** How many of them carry a pain cue (readCues). */
  passageReadings: number;
}

/** What is known of one sentence before the model weighs it. */
export interface SentenceEvidence {
  sentence: string;
  /** Tags, when the sentence was tagged (it may carry a pain or a how-to question). */
  tokens: readonly Token[] | undefined;
  /** pain.ts's reading of its cues (readCues), whatever its score; undefined without a cue. */
  reading: PainReading | undefined;
  /** The sentence asks how to do something (pain.ts's isHowTo). */
  howTo: boolean;
}

const SHAPE_NAMES = [
  'cue',
  'cueScore',
  'rulePain',
  ...PAIN_KINDS.map((k) => `kind:${k}`),
  'howTo',
  'question',
  'exclamation',
  'inTitle',
  'firstSentence',
  'logLength',
  'firstPerson',
  'negation',
  'but',
  'logPassageSentences',
  'passageReadingShare',
  'otherReadings',
  'vectorKnown',
] as const;

/** The features the pain model is trained on (the model file lists the names, so weights stay readable). */
export function painSpec(dims: number): FeatureSpec {
  return { model: 'pain', featureSet: FEATURE_SET, dense: [...SHAPE_NAMES, ...Array.from({ length: dims }, (_, j) => `vector:${j}`)] };
}

/** Lower-cased words of a sentence (also what its word vector is made of). */
export function sentenceWords(sentence: string): string[] {
  return (sentence.toLowerCase().match(WORD) ?? []).map((w) => w.replace(/’/g, "'"));
}

export function painFeatures(evidence: SentenceEvidence, place: SentencePlace, vectors: WordVectors): Features {
  const { sentence, reading } = evidence;
  const words = sentenceWords(sentence);
  const vector = vectors.sentenceVector(words);
  const out = new DenseWriter(new Float32Array(SHAPE_NAMES.length + vectors.dims));
  out.put(reading !== undefined);
  out.put(reading ? Math.max(-2, Math.min(reading.score, 4)) / 4 : 0);
  out.put(rulesSayPain(reading));
  for (const kind of PAIN_KINDS) out.put(reading?.kind === kind);
  out.put(evidence.howTo);
  const trimmed = sentence.replace(/[*_`~\s]+$/, '');
  out.put(trimmed.endsWith('?'));
  out.put(trimmed.endsWith('!'));
  out.put(place.inTitle);
  out.put(place.index === 0);
  out.put(Math.log1p(sentence.length) / 6);
  out.put(FIRST_PERSON.test(sentence));
  out.put(NEGATION.test(sentence));
  out.put(/\bbut\b/i.test(sentence));
  out.put(Math.log1p(place.passageSentences) / 4);
  out.put(place.passageReadings / Math.max(1, place.passageSentences));
  out.put(Math.min(place.passageReadings - (reading ? 1 : 0), 5) / 5);
  out.put(vector !== undefined);
  if (vector) out.set(vector);
  return { dense: out.values, hashed: hashedWords(words) };
}

/**
 * The buckets of a sentence's words and adjacent word pairs, each bucket once, ascending: the
 * hash of each word and of each "previous word" + " " + word. A pair's hash continues its first
 * word's (FNV-1a reads a string left to right), so no pair string is built: every sentence the
 * model weighs passes here.
 */
export function hashedWords(words: readonly string[]): Uint32Array {
  const buckets = new Uint32Array(Math.max(0, 2 * words.length - 1));
  let k = 0;
  let previous = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (i > 0) buckets[k++] = fnv1a(word, fnv1a(' ', previous)) % HASH_BUCKETS;
    previous = fnv1a(word);
    buckets[k++] = previous % HASH_BUCKETS;
  }
  buckets.sort();
  let unique = 0;
  for (let i = 0; i < buckets.length; i++) if (i === 0 || buckets[i] !== buckets[i - 1]) buckets[unique++] = buckets[i]!;
  return buckets.slice(0, unique);
}

/** A cue reading this strong (pain.ts: a strong cue said by the writer) is clear on its own. */
export const CLEAR_CUE = 2.5;

/**
 * The decision: the model's probability reaches its threshold, or the cues are clear and the
 * model does not doubt them (half the threshold). Wishes and blunt complaints are rarer in the
 * labelled posts than in comments, so the model alone underrates them; cross-validation scored
 * this rule at F0.5 0.60 against 0.59 for the threshold alone (docs/quality.md).
 */
export function isPain(probability: number, reading: PainReading | undefined, threshold: number): boolean {
  return probability >= threshold || (reading !== undefined && reading.score >= CLEAR_CUE && probability >= threshold / 2);
}

let shared: LinearModel | undefined;

/** The shipped pain model, loaded once per process. */
export function painModel(dims: number): LinearModel {
  shared ??= loadLinearModel(painSpec(dims));
  return shared;
}

/**
 * The comment gate's features are the pain model's: it weighs the same evidence, learned from
 * other examples (see commentPainGate).
 */
export function commentPainSpec(dims: number): FeatureSpec {
  return { ...painSpec(dims), model: 'comment-pain' };
}

let sharedGate: LinearModel | undefined;

/**
 * A second decision for sentences of comments. The pain model learned from opening posts, where
 * a writer states their own problem; comments are replies, and half of the comment sentences it
 * accepts are not pains to a reader (advice, jokes, opinions about a release, "can't help but
 * notice"): 404 of 803 in a blind sample of a backfill. Among those it accepts, its probability
 * no longer tells pains from the rest (AUC 0.52). The gate is trained on comment sentences the
 * pain model accepted, each labelled by the GUIDE (fixtures/training/comment-pains.json), and a
 * comment's sentence is a pain only when both say so (docs/quality.md, "Pains in comments").
 */
export function commentPainGate(dims: number): LinearModel {
  sharedGate ??= loadLinearModel(commentPainSpec(dims));
  return sharedGate;
}
