/**
 * What a complaint says its subject does badly, read from its sentence: "llama sucks at
 * summarizing" → "summarizing", "Gemma 3n really sucks in recognizing images" → "recognizing
 * images", "feels really bad in terms of hallucinations" → "hallucinations", "its vision sucks" →
 * "vision". A complaint's move then says what the quote says ("Show how Llama compares on
 * summarizing") instead of "Answer the complaint about Llama", the move annotators rated good in
 * 15 of 384 ratings and called generic most often (docs/quality.md, "Complaints that say what is
 * bad"). moves.ts writes the move; this module only reads the words.
 */
import { NOUNISH, nounChunks, phrase, type Token } from './nlp.ts';
import { isVague } from './vague.ts';

/** How far past the cue its "at …" may stand: "even worse than glm 4.5 at coding" is six words on. */
const REACH = 8;

/** The aspect a complaint whose cue is at `cue` names, or undefined when it names none. */
export function complaintAspect(tokens: readonly Token[], cue: number): string | undefined {
  return afterCue(tokens, cue) ?? possessed(tokens, cue);
}

/**
 * "bad at coding", "sucks in recognizing images", "useless for roleplaying", "bad in terms of
 * hallucinations": what follows the cue in its own clause. "at" takes a thing or an activity;
 * "in" and "for" only an activity, since "useless on macOS" or "bad for most of us" say where or
 * for whom, not at what.
 */
function afterCue(tokens: readonly Token[], cue: number): string | undefined {
  // "in" and "for" right after the cue and its adverbs: "useless garbage only fit for testing" is
  // what else it is fit for, not what it is bad at.
  let next = cue + 1;
  while (tokens[next]?.pos === 'ADV') next++;
  if ((tokens[next]?.lower === 'in' || tokens[next]?.lower === 'for') && isGerund(tokens[next + 1])) return aspectAt(tokens, next + 1);
  for (let i = cue + 1; i < Math.min(tokens.length, cue + REACH); i++) {
    const t = tokens[i]!;
    if (t.type === 'punctuation' || CLAUSE_BREAKS.has(t.lower)) return undefined;
    if (t.lower === 'in' && tokens[i + 1]?.lower === 'terms' && tokens[i + 2]?.lower === 'of') return aspectAt(tokens, i + 3);
    if (t.lower === 'at') {
      // "at least in terms of academic writing", "at all": an idiom, not what it is bad at.
      if (AT_IDIOMS.has(tokens[i + 1]?.lower ?? '')) continue;
      return aspectAt(tokens, i + 1);
    }
  }
  return undefined;
}

/**
 * "its vision sucks", "Llama's creative writing is horrible", and the common slip "it's creative
 * writing is horrible": the cue is said of a phrase that something named before it owns. Without
 * an owner ("the performance sucks") the phrase is the complaint's subject, as move-subject.ts
 * finds it.
 */
function possessed(tokens: readonly Token[], cue: number): string | undefined {
  let end = cue - 1;
  while (end >= 0 && (tokens[end]!.pos === 'ADV' || tokens[end]!.pos === 'AUX' || tokens[end]!.pos === 'PART')) end--;
  if (end < 0 || !NOUNISH.has(tokens[end]!.pos)) return undefined;
  // "its really bad at coding" has no noun between "its" and the cue: the slip for "it's".
  const chunk = nounChunks(tokens).find(([from, to]) => to === end + 1 && from > 0);
  if (!chunk) return undefined;
  const owner = tokens[chunk[0] - 1]!;
  const owned = POSSESSIVES.has(owner.lower) || owner.lower === "'s" || owner.lower === '’s';
  return owned ? aspectText(tokens, chunk[0], chunk[1]) : undefined;
}

/** The activity or thing that starts at `at`: a gerund and its object ("recognizing images"), else a noun phrase ("agentic workflows"). */
function aspectAt(tokens: readonly Token[], at: number): string | undefined {
  const first = tokens[at];
  if (!first) return undefined;
  if (isGerund(first)) {
    const next = tokens[at + 1];
    // "terrible at productizing them": whom it is done to is said before, not here; "sucks at
    // resolving “who did what when”": what it resolves is a quote, too long for a title.
    if (next?.pos === 'PRON' || QUOTE_MARKS.test(next?.text ?? '')) return undefined;
    // Its object runs to the next function word. Not by noun chunk: the tagger reads many plural
    // objects as verbs ("following prompts", "handling concurrent chats").
    let end = at + 1;
    while (end < tokens.length && end - at < MAX_WORDS && tokens[end]!.type === 'word' && !FUNCTION_POS.has(tokens[end]!.pos) && !CLAUSE_BREAKS.has(tokens[end]!.lower)) end++;
    return aspectText(tokens, at, end);
  }
  const chunk = nounChunks(tokens).find(([from]) => from === at);
  return chunk ? aspectText(tokens, chunk[0], chunk[1]) : undefined;
}

/** The words from `from` to `to` as an aspect: short, naming something, no pronoun, number or vague head ("at 8GB", "at anything", "at stuff"). */
function aspectText(tokens: readonly Token[], from: number, to: number): string | undefined {
  const words = tokens.slice(from, to);
  if (words.length === 0 || words.length > MAX_WORDS) return undefined;
  if (words.some((t) => t.pos === 'PRON' || t.pos === 'NUM' || t.type !== 'word' || /\d/.test(t.text))) return undefined;
  if (isVague(words[words.length - 1]!)) return undefined;
  const text = phrase(tokens, from, to);
  // A sentence's capital goes; a name's stays ("at RP", "on MLX").
  return words[0]!.pos === 'PROPN' || /[A-Z].*[A-Z]/.test(words[0]!.text) ? text : text.charAt(0).toLowerCase() + text.slice(1);
}

/** "coding", "summarizing", "recognizing": an activity, which the tagger calls a verb or a noun; not "thing" nor "string". */
function isGerund(token: Token | undefined): boolean {
  return token !== undefined && token.type === 'word' && (token.pos === 'VERB' || token.pos === 'NOUN') && /^[a-z-]{3,}ing$/.test(token.lower) && !NOT_GERUNDS.test(token.lower);
}

const MAX_WORDS = 4;
const QUOTE_MARKS = /^["“”'‘’`]$/;
const FUNCTION_POS = new Set(['ADP', 'CCONJ', 'SCONJ', 'PRON', 'AUX', 'PART', 'DET', 'ADV', 'NUM', 'INTJ']);
/** Owners that are things: "your solution is completely useless to me" is about the solution itself, not an aspect of something. */
const POSSESSIVES = new Set(['its', 'their']);
const AT_IDIOMS = new Set(['least', 'all', 'best', 'worst', 'most', 'times', 'first', 'once', 'this', 'that', 'the', 'some', 'any', 'home', 'scale', 'launch', 'release']);
const CLAUSE_BREAKS = new Set(['but', 'because', 'though', 'although', 'which', 'while', 'when', 'whereas', 'since', 'so', 'if', 'unless', 'and', 'or']);
const NOT_GERUNDS = /(?:thing|string|ring|king|spring|morning|evening|ceiling|during|ping)$/;
