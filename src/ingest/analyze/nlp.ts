/**
 * English NLP for the `rules` analyzer (decision 0011): wink-nlp with its lite English model
 * gives tokens, part-of-speech tags and lemmas, offline and deterministic, at about 40,000
 * sentences a second on one core of the CI machine.
 *
 * The analyzer splits text into sentences itself (text.ts `sentences`, which keeps every sentence
 * a verbatim slice of its source and skips code and quoted text), then tags one sentence at a
 * time here. wink's own negation flag is not used: it marks everything from "not" to the end of
 * the sentence ("doesn't work with my GPU on Monday" flags "Monday"), so negation is scoped to
 * a few tokens by the callers instead.
 *
 * Determinism: wink's tokenizer adds every new word to an in-memory lexicon and, for a word with
 * punctuation attached ("8GB,", "(M4"), decides where to split by looking that lexicon up — so
 * the same sentence could tokenise differently after other text was read ("8GB" once "8 GB",
 * later "8GB"). Leading and trailing punctuation, possessives ("Qwen’s") and a number opening a
 * word ("7B") are therefore detached with a space before wink reads a sentence; the splits it
 * then makes depend on the sentence alone, almost always (a test runs the whole fixture twice and
 * compares): a fresh instance (see `lifetime`) tags 76 of the r/LocalLLaMA export's 253,434
 * sentences differently from one that has read the export up to them (a number such as "58" or
 * "125" read as a word, "\_" as a name). The same input read in the same order always gives the
 * same tags.
 */
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

export interface Token {
  /** As written. */
  text: string;
  lower: string;
  lemma: string;
  /** Universal POS tag: NOUN, PROPN, VERB, AUX, ADJ, ADV, PRON, DET, ADP, PART, NUM, PUNCT, … */
  pos: string;
  /** wink's token type: word, number, punctuation, emoji, url, email, … */
  type: string;
  /** Spaces before the token in the sentence (to rebuild phrases as written). */
  space: string;
}

let instance: ReturnType<typeof winkNLP> | undefined;
let reads = 0;

/**
 * The model every instance is built from. wink-eng-lite-web-model 1.8.1's `metaCER` loader
 * stringifies its own module-level result again on every call (`machines = JSON.stringify(machines)`):
 * the second instance got a doubly escaped string, and after a dozen the string outgrew V8's limit
 * ("Invalid string length"). Its first answer serves every instance; the other loaders copy their
 * data per call.
 */
let cerMeta: unknown;
const reusableModel = { ...model, metaCER: () => (cerMeta ??= (model.metaCER as () => unknown)()) } as typeof model;

/**
 * Sentences one wink instance reads before a fresh one takes over. wink keeps every word it has
 * not met before in its lexicon for the instance's life (about 140 bytes a word: 600,000 new words
 * held 70 MB), and `signals serve` tags new threads every day in one process, so one instance
 * would grow without end. A fresh one starts from the model's own lexicon (10 MB) and costs about
 * 60 ms. Tags hardly depend on what an instance read before (Determinism above: 76 of the export's
 * 253,434 sentences), and a renewal falls at the same sentence whenever the same input is read in
 * the same order. At 100,000 sentences an instance grows by about 8 MB before it goes.
 */
let lifetime = 100_000;

function nlp(): ReturnType<typeof winkNLP> {
  // Loading the model takes ~150 ms: only analyzer runs pay it, not every command.
  // No sentence-boundary pipe: the analyzer hands wink one sentence at a time (text.ts splits them),
  // and the tags are the same without it (checked on every sentence of the r/LocalLLaMA export).
  if (instance === undefined || reads >= lifetime) {
    instance = winkNLP(reusableModel, ['pos']);
    reads = 0;
  }
  reads += 1;
  return instance;
}

/** Sets how many sentences one wink instance reads (tests); returns the previous setting. */
export function setTaggerLifetime(sentences: number): number {
  const previous = lifetime;
  lifetime = Math.max(1, sentences);
  return previous;
}

/** Tokens of one sentence with their tags. */
export function tag(sentence: string): Token[] {
  const engine = nlp();
  const its = engine.its;
  const doc = engine.readDoc(detachPunctuation(sentence));
  const tokens = doc.tokens();
  const values = tokens.out(its.value) as string[];
  const pos = tokens.out(its.pos) as string[];
  const lemmas = tokens.out(its.lemma as unknown as typeof its.value) as string[];
  const types = tokens.out(its.type) as string[];
  const spaces = tokens.out(its.precedingSpaces) as string[];
  const out: Token[] = new Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const text = values[i]!;
    out[i] = { text, lower: text.toLowerCase(), lemma: (lemmas[i] ?? text).toLowerCase(), pos: pos[i]!, type: types[i]!, space: spaces[i] ?? '' };
  }
  return joinGlued(out);
}

/** "(see 8GB, above)" → "( see 8GB , above )": punctuation at a word's edge stands apart. */
export function detachPunctuation(sentence: string): string {
  return (
    sentence
      .replace(/([^\s])([.,;:!?)\]}"'”’…]+)(?=\s|$)/gu, '$1 $2')
      .replace(/(^|\s)([(\[{"'“‘]+)(?=[^\s])/gu, '$1$2 ')
      // "Qwen’s": wink splits a possessive off an unknown word only while it has not seen it before.
      .replace(/([\p{L}\p{N}])(['’]s)(?=[\s.,;:!?)]|$)/gu, '$1 $2')
      // "7B", "8GB": wink splits a number from its unit only while it has not seen the pair before.
      .replace(/(^|\s)(\d+(?:\.\d+)?)([A-Za-z]+)(?=\s|$)/g, '$1$2 $3')
  );
}

const GLUE = new Set(['.', '-', '_', '/']);

/**
 * wink splits "llama.cpp", "text-generation-webui" and "ik_llama.cpp" at their punctuation; a
 * name (or "tool-calling") is one word to the analyzer: word-glue-word runs written without
 * spaces are joined back, taking PROPN if any part was one.
 */
function joinGlued(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    let t = tokens[i]!;
    while (
      (t.type === 'word' || t.type === 'number') &&
      GLUE.has(tokens[i + 1]?.text ?? '') &&
      tokens[i + 1]!.space === '' &&
      tokens[i + 2] !== undefined &&
      tokens[i + 2]!.space === '' &&
      (tokens[i + 2]!.type === 'word' || tokens[i + 2]!.type === 'number')
    ) {
      const next = tokens[i + 2]!;
      const text = t.text + tokens[i + 1]!.text + next.text;
      t = { text, lower: text.toLowerCase(), lemma: text.toLowerCase(), pos: t.pos === 'PROPN' || next.pos === 'PROPN' ? 'PROPN' : next.pos, type: 'word', space: t.space };
      i += 2;
    }
    out.push(t);
  }
  return out;
}

/** Tokens i..j-1 as written (their own spacing), e.g. a noun chunk for a theme title. */
export function phrase(tokens: readonly Token[], from: number, to: number): string {
  let out = '';
  for (let i = from; i < to; i++) out += (i === from ? '' : tokens[i]!.space) + tokens[i]!.text;
  return out;
}

/** The word before token `at`, past its adverbs: "gets very confused" → "gets". */
export function beforeAdverbs(tokens: readonly Token[], at: number): Token | undefined {
  let i = at - 1;
  while (i >= 0 && tokens[i]!.pos === 'ADV') i--;
  return tokens[i];
}

/** The tags of a noun: common or proper. */
export const NOUNISH: ReadonlySet<string> = new Set(['NOUN', 'PROPN']);

/**
 * Noun chunks: runs of adjectives/nouns/numbers ending in a noun ("prompt processing speed",
 * "high idle power consumption"), as [from, to) token ranges. Determiners and possessives are
 * left out so the chunk names the thing, not whose it is.
 */
export function nounChunks(tokens: readonly Token[]): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  let lastNoun = -1;
  const close = () => {
    if (start !== -1 && lastNoun !== -1) out.push([start, lastNoun + 1]);
    start = -1;
    lastNoun = -1;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const gerund = t.pos === 'VERB' && t.lower.endsWith('ing') && start !== -1 && compoundsWith(tokens[i - 1]!);
    const joins = t.type === 'word' && (NOUNISH.has(t.pos) || t.pos === 'ADJ' || gerund);
    const number = t.pos === 'NUM' && start !== -1;
    if (joins || number) {
      if (start === -1) start = i;
      if (NOUNISH.has(t.pos) || gerund) lastNoun = i;
    } else {
      close();
    }
  }
  close();
  return out;
}

/**
 * Whether a gerund after this word names an activity ("prompt processing", "tool calling") rather
 * than what a plural subject does ("massive models hitting the limit", "people running it").
 */
function compoundsWith(previous: Token): boolean {
  return !(NOUNISH.has(previous.pos) && /[^s]s$/i.test(previous.text) && previous.text !== previous.text.toUpperCase());
}
