/**
 * What a move is about (DESIGN §8.4: "its body uses the pain's own specifics"): the product a
 * sentence names, else the noun phrase its cue is said of — by the cue's grammar where that says
 * more than nearness (what is "too expensive", what "slow" modifies, a thing that gets stuck), else
 * the phrase nearest the cue, never a pronoun, a vague or everyday word, forum shorthand or the
 * noun of a fixed expression. moves.ts chooses the kind of move and writes it; this module only
 * finds what it names. Each rule here was judged blind on the export's move titles
 * (test/fixtures/quality/move-subjects/, docs/quality.md "Move subjects judged blind").
 */
import type { MoveContext } from './moves.ts';
import { nounChunks, phrase, type Token } from './nlp.ts';
import { isCue } from './pain.ts';
import { CHAT_SHORTHAND, comparedOnly, opensComparison, shorten } from './text.ts';
import { isVague } from './vague.ts';
import { wordVectors } from './vectors.ts';

/** How a difficulty's cue makes it a thing's failure (moves.ts `thingFails`): the phrase before the verb, or the thing called unreliable. */
export type ThingFailing = 'unreliable' | 'subject';

/** Words this frequent are everyday words, in lower case or opening a sentence ("Memory", "Tool"), not names ("Kimi"). */
const COMMON_WORDS = 10_000;

/**
 * Fixed expressions whose noun names nothing the writer is about: "works out of the box" is not
 * about a box.
 */
const FIXED_EXPRESSIONS = /\b(?:out of the box|on the fly|at the end of the day|in the long run|in the meantime|at the moment|for the most part|on the other hand|in the first place|in the end|by the way|trial and error|at this point|at the same time|in the wild)\b/gi;

/**
 * What a pain that names no product is about, where the grammar of its cue says more than
 * nearness. A thing said to struggle or get stuck is the phrase before the verb; what it struggles
 * with comes after ("it's struggling with live2d"). What is "unreliable" is the thing, not
 * "unreliable X" ("Write the fix for inconsistent spacing failing" says it twice). What costs too
 * much: see `costSubject`.
 */
export function subjectFor(ctx: MoveContext, failing: ThingFailing | undefined): string | undefined {
  // Before the verb whose subject it is: the cue's, or the previous clause's when a conjunction
  // leaves it out (subjectPlace).
  if (failing === 'subject') return subjectOf({ ...ctx, reading: { ...ctx.reading, cue: subjectPlace(ctx.tokens, ctx.reading.cue) } }, 'before');
  if (failing === 'unreliable') return withoutCue(subjectOf(ctx), ctx.tokens[ctx.reading.cue]!);
  if (ctx.reading.kind === 'cost') return costSubject(ctx);
  if (ctx.reading.kind === 'speed' && ctx.tokens[ctx.reading.cue]!.pos === 'ADJ') return adjectiveSubject(ctx);
  // "terrible instruction following", "awful context handling": the complaint is about the
  // phrase, not about "terrible instruction following".
  if (ctx.reading.kind === 'frustration' && ctx.tokens[ctx.reading.cue]!.pos === 'ADJ') return withoutCue(subjectOf(ctx), ctx.tokens[ctx.reading.cue]!);
  return subjectOf(ctx);
}

/**
 * What costs too much, by the grammar of the cost word: the phrase it modifies ("the most
 * expensive GPU" → "GPU"), the phrase before it as a predicate ("APIs are too expensive" →
 * "APIs"), the object of "can't afford" ("gpt plus"), the phrase of "costs"/"prices" without it
 * ("the ram costs are just too much" → "ram"). The nearest phrase was often what the cost is
 * compared with or paid for ("Break down what Country really costs"). A pronoun in the grammar's
 * place leaves no subject: falling back to the nearest phrase was rated worse (docs/quality.md,
 * round 16).
 */
function costSubject(ctx: MoveContext): string | undefined {
  const cue = ctx.tokens[ctx.reading.cue]!;
  if (cue.lemma === 'afford') return subjectOf(ctx, 'after');
  if (cue.pos === 'ADJ') return adjectiveSubject(ctx);
  return withoutCue(subjectOf(ctx), cue);
}

/**
 * What an adjective cue ("expensive", "slow") is said of: the phrase it modifies, without it ("very
 * slow prompt processing" → "prompt processing"), or, as a predicate, the phrase before it ("Gemma
 * was painfully slow"; "it" leaves none).
 */
function adjectiveSubject(ctx: MoveContext): string | undefined {
  const cue = ctx.tokens[ctx.reading.cue]!;
  const next = ctx.tokens[ctx.reading.cue + 1];
  const attributive = next !== undefined && (next.pos === 'NOUN' || next.pos === 'PROPN');
  return attributive ? withoutCue(subjectOf(ctx), cue) : subjectOf(ctx, 'before');
}

/**
 * A subject without its cue word and what leads up to it ("most expensive GPU" → "GPU"), or
 * without a cue word that closes it ("ram costs" → "ram"); undefined when nothing is left.
 */
function withoutCue(subject: string | undefined, cue: Token): string | undefined {
  if (subject === undefined) return undefined;
  const words = subject.split(/\s+/);
  const at = words.findIndex((w) => w.toLowerCase() === cue.lower);
  if (at < 0) return subject;
  const rest = (at === words.length - 1 ? words.slice(0, at) : words.slice(at + 1)).join(' ');
  return rest || undefined;
}

/** Words between a verb and its subject: "seem to get stuck", "is still stuck", "always gets stuck". */
const BEFORE_VERB = new Set(['get', 'gets', 'got', 'getting', 'seem', 'seems', 'seemed', 'to', 'keep', 'keeps', 'kept', 'tend', 'tends', 'become', 'becomes', 'end', 'ends', 'up']);

/** The word a verb or predicate adjective at `at` is said of: back over auxiliaries, adverbs and "seem to get". */
export function subjectBefore(tokens: readonly Token[], at: number): Token | undefined {
  let i = at - 1;
  while (i >= 0 && (tokens[i]!.pos === 'AUX' || tokens[i]!.pos === 'ADV' || tokens[i]!.pos === 'PART' || BEFORE_VERB.has(tokens[i]!.lower))) i--;
  return i >= 0 ? tokens[i] : undefined;
}

/**
 * Where the subject of the verb at `verb` is said: right before it, or, when a conjunction leaves
 * it out ("Q4 MLX is good quality and very fast, but can struggle with more complex tasks", "vLLM
 * is good for high throughput, but seems to struggle"), before the verb of the clause right before
 * the conjunction. Returns the index of the verb whose subject it is.
 */
export function subjectPlace(tokens: readonly Token[], verb: number): number {
  const before = subjectBefore(tokens, verb);
  if (!before || !COORDINATORS.has(before.lower)) return verb;
  // The verb of the clause right before the conjunction, not an infinitive or a participle ("Air was
  // able to pass but did struggle": "was", not "pass"; "models often use older versions or get
  // confused": "use"; "I try to launch qwen3 using VLLM and stuck on…": "try").
  for (let i = tokens.indexOf(before) - 1; i > 0; i--) {
    const t = tokens[i]!;
    if ((t.pos === 'VERB' || t.pos === 'AUX') && tokens[i - 1]!.lower !== 'to' && !/ing$/.test(t.lower)) return i;
  }
  return verb;
}

const COORDINATORS = new Set(['and', 'but', 'yet', 'or']);

/**
 * What a pain that names no product is about: the noun phrase nearest its cue (only those on one
 * `side` of it when given); undefined when no phrase names anything (only pronouns, vague words or
 * the cue itself).
 */
export function subjectOf(ctx: Pick<MoveContext, 'tokens' | 'reading' | 'sentence' | 'threadTitle'>, side?: 'before' | 'after'): string | undefined {
  const fixed = fixedExpressionTokens(ctx.tokens, ctx.sentence);
  const chunks = nounChunks(ctx.tokens).map((c) => withoutShorthand(ctx.tokens, withoutVerbTail(ctx.tokens, withSizeOfUnit(ctx.tokens, withoutSizePieces(ctx.tokens, c))))).filter(([from, to]) => {
    if (to <= from) return false;
    const words = ctx.tokens.slice(from, to);
    if (words.some((_, i) => fixed.has(from + i))) return false;
    // "I'm", "you're": a pronoun the tagger read as a noun.
    if (words.some((t) => /['’]/.test(t.text))) return false;
    // "even worse than glm 4.5": what the pain is measured against is not what it is about.
    if (opensComparison(phrase(ctx.tokens, 0, from))) return false;
    // A letter left alone inside ("235 B" of "Q6 235B") is a size split by the tagger: no subject.
    if (words.some((t) => t.type === 'word' && t.text.length === 1)) return false;
    // One word right before an adjective cue is its intensifier, whatever the tagger says ("super
    // slow", "dead slow"): a noun does not stand between "is" and "slow".
    if (to - from === 1 && to === ctx.reading.cue && ctx.tokens[ctx.reading.cue]?.pos === 'ADJ') return false;
    // A phrase is what its last word names: "time reading ChatGPT crap" is not about time.
    const head = words[words.length - 1]!;
    if (isVague(head) && !isCue(head)) return false;
    // The pain's own cue ("trouble", "bugs") is what goes wrong, not what it goes wrong with; a
    // vague noun stays vague with a quality before it ("main problem", "same issue").
    const named = words.filter((t) => t.pos !== 'ADJ');
    return !named.every((t) => isVague(t) || isCue(t)) && !(to - from === 1 && words[0]!.text.length < 3) && !words.some((t) => t.pos === 'PRON');
  });
  const cue = ctx.reading.cue;
  const sided = side === undefined ? chunks : chunks.filter(([from, to]) => (side === 'after' ? from > cue : to <= cue));
  if (sided.length === 0) return undefined;
  const nearest = (candidates: [number, number][]) => {
    const distance = (c: [number, number]) => (c[1] <= cue ? cue - c[1] : c[0] > cue ? c[0] - cue : 0);
    let out = candidates[0]!;
    for (const chunk of candidates) if (distance(chunk) < distance(out)) out = chunk;
    return out;
  };
  let best = nearest(sided);
  // One everyday word, as written in lower case, names no subject a founder can act on ("Answer
  // the complaint about purpose", "Write the fix for reviews failing" of "couldn't find any
  // reviews"): the move then speaks of the quote. A farther phrase is not taken instead: it is
  // further still from what the pain is about (and, rated blind, one the thread's title names was
  // no better: docs/quality.md, round 13).
  const named: number[] = [];
  for (let i = best[0]; i < best[1]; i++) if (ctx.tokens[i]!.pos !== 'ADJ') named.push(i);
  if (named.length === 1 && isEverydayWord(ctx.tokens[named[0]!]!, named[0]!)) return undefined;
  // Between phrases that name something, one naming what the thread is about by a name or a rare
  // word comes first: "Write the fix for exl3 quants failing" under "Is EXL3 doomed?", not for the
  // webui named on the way.
  const inTitle = threadWords(ctx.threadTitle);
  const aboutThread = sided.filter(([from, to]) => ctx.tokens.slice(from, to).some((t, i) => !isEverydayWord(t, from + i) && !isVague(t) && threadNamed(inTitle, t.text)));
  if (aboutThread.length > 0) best = nearest(aboutThread);
  // The chunk may hold the cue itself ("tool call failures"): that is still what it is about.
  // A sentence's capital goes ("Memory leaks" → "memory leaks"); a name's stays ("LoRA", "LM
  // Studio", "with Kimi K2"). The tagger calls most capitalised words names, so a capital opening
  // the sentence goes when its word is an everyday word.
  const text = phrase(ctx.tokens, best[0], best[1]);
  const first = ctx.tokens[best[0]]!;
  const sentenceCapital = best[0] === 0 && first.text !== first.lower && isEverydayWord(first, 0);
  return shorten(sentenceCapital ? first.lower + text.slice(first.text.length) : text, 60);
}

/**
 * The products a sentence names in its words. A product it names only by a link (products.ts:
 * a huggingface.co link is "Hugging Face") still counts as a mention, but is not what the pain is
 * about: "…fixed the tool-calling issues that have been plaguing Qwen3-Coder, see HF discussion
 * [here](https://huggingface.co/…)" is not a reason to "Write the plain guide to Hugging Face".
 * Nor is a product named only as the other term of a comparison (text.ts `comparedOnly`): "I find
 * it underwhelming compared to ChatGPT" is no complaint about ChatGPT.
 */
export function namedProducts(ctx: Pick<MoveContext, 'products' | 'sentence'>): string[] {
  const words = squeeze(ctx.sentence.replace(/https?:\/\/\S+/g, ' '));
  return ctx.products.filter((product) => words.includes(squeeze(product)) && !comparedOnly(ctx.sentence, product));
}

/** A thread's title as `threadNamed` compares it (squeezed once per move, not once per word). */
export function threadWords(threadTitle: string | undefined): string | undefined {
  return threadTitle === undefined ? undefined : squeeze(threadTitle);
}

/**
 * The thread's title (`threadWords`) names this (a product, or a word of a phrase): "Kimi K2" in
 * "Kimi K2 is slow on my 3090", "ollama" in "Ollama vs llama.cpp". Compared squeezed, so "LM
 * studio" names "LM Studio"; a word shorter than three letters names nothing by itself ("AI" is in
 * every title).
 */
export function threadNamed(titleWords: string | undefined, name: string): boolean {
  const key = squeeze(name);
  return titleWords !== undefined && key.length >= 3 && titleWords.includes(key);
}

/** Lower case letters and digits only: "LM Studio" is named by "LM studio" and "LMStudio". */
function squeeze(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/**
 * A word written in lower case, or opening the sentence with only its capital ("Concerns about…"),
 * that is among the COMMON_WORDS most frequent English words.
 */
function isEverydayWord(token: Token, index: number): boolean {
  const written = index === 0 ? token.text.charAt(0).toLowerCase() + token.text.slice(1) : token.text;
  return written === token.lower && /^[a-z]+$/.test(written) && (wordVectors().rank(token.lower) ?? Infinity) <= COMMON_WORDS;
}

/** Gerunds used as prepositions: "documentation regarding tool calls" is about documentation. */
const PREPOSITION_GERUNDS = new Set(['regarding', 'including', 'concerning', 'considering', 'excluding', 'involving', 'according']);

/**
 * A chunk up to a gerund that acts as a preposition ("documentation regarding tool calls" is
 * "documentation"), and without a gerund at its end that starts a verb phrase ("hard time trying"
 * of "a hard time trying to figure out" is "hard time": vague, so no subject). "Tool calling" and
 * "instruction following" stay.
 */
function withoutVerbTail(tokens: readonly Token[], [from, to]: [number, number]): [number, number] {
  const last = tokens[to - 1];
  const next = tokens[to];
  for (let i = from + 1; i < to; i++) if (tokens[i]!.pos === 'VERB' && PREPOSITION_GERUNDS.has(tokens[i]!.lower)) return [from, i];
  if (to - from > 1 && last?.pos === 'VERB' && /ing$/.test(last.lower) && next?.lower === 'to') return [from, to - 1];
  // After a vague noun a gerund starts what is done, not a name for it: "a hard time accomplishing
  // that", "people running into errors" (while "error handling" stays whole).
  if (to - from > 1 && last?.pos === 'VERB' && /ing$/.test(last.lower) && isVague(tokens[to - 2]!)) return [from, to - 1];
  // A plural noun and then a problem word in its bare form is a subject and its verb, whatever the
  // tagger says: "small models suck", "open-source models struggle" ("…models struggle with
  // long contexts"); "tool call failures" and "PCIe lag" stay.
  if (to - from > 1 && last && isCue(last) && last.lower === last.lemma && isPluralNoun(tokens[to - 2]!)) return [from, to - 1];
  return [from, to];
}

/** A common noun in a plural "s": "models", "LLMs"; not "class", "status", a name ("Ollama"). */
function isPluralNoun(token: Token): boolean {
  return token.pos === 'NOUN' && /[^su]s$/i.test(token.text) && token.lemma !== token.lower;
}

/** A chunk without the forum shorthand at its ends: "IIRC llama.cpp" → "llama.cpp", "biggest pain point IMO" → "biggest pain point". */
function withoutShorthand(tokens: readonly Token[], [from, to]: [number, number]): [number, number] {
  while (from < to && CHAT_SHORTHAND.has(tokens[from]!.lower)) from++;
  while (to > from && CHAT_SHORTHAND.has(tokens[to - 1]!.lower)) to--;
  return [from, to];
}

/** Indexes of the tokens inside a fixed expression (FIXED_EXPRESSIONS) of the sentence. */
function fixedExpressionTokens(tokens: readonly Token[], sentence: string): Set<number> {
  const inside = new Set<number>();
  for (const m of sentence.matchAll(FIXED_EXPRESSIONS)) {
    const words = m[0].toLowerCase().split(/\s+/);
    for (let i = 0; i + words.length <= tokens.length; i++) {
      if (words.every((w, k) => tokens[i + k]!.lower === w)) for (let k = 0; k < words.length; k++) inside.add(i + k);
    }
  }
  return inside;
}

/** Units of memory and storage, which the tagger splits from their number ("16GB" → "16" "GB"). */
const SIZE_UNITS = /^(?:[kmgt]i?b|[kmgt]bs?)$/i;

/**
 * A chunk that opens on a unit keeps its number: "16GB VRAM", not "GB VRAM" ("Show how to make 8GB
 * card faster", where "GB card" read as a garble). The tagger starts a noun chunk after a number,
 * so the number is outside it.
 */
function withSizeOfUnit(tokens: readonly Token[], [from, to]: [number, number]): [number, number] {
  // A size alone ("32 GB") names nothing: only a unit with a thing after it keeps its number.
  return from > 0 && to - from >= 2 && SIZE_UNITS.test(tokens[from]!.text) && tokens[from - 1]!.pos === 'NUM' ? [from - 1, to] : [from, to];
}

/**
 * A chunk without the leading pieces of a size or count: the tagger splits "8B" into "8" "B" and
 * "2x" into "2" "x", and a chunk may start inside one ("B model", "x RTX 3090 setup").
 */
function withoutSizePieces(tokens: readonly Token[], [from, to]: [number, number]): [number, number] {
  let start = from;
  while (start < to && (tokens[start]!.pos === 'NUM' || (tokens[start]!.type === 'word' && tokens[start]!.text.length === 1))) start++;
  return [start, to];
}
