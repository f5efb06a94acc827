/**
 * Text helpers for the rules analyzer: a thread's passages in reading order, splitting them into
 * sentences that stay verbatim slices of the original (a quote must be findable in its source),
 * cutting quotes, and the filter rules of a project's memory.
 */
import { eachComment } from '../../domain/thread.ts';
import type { SourceThread } from '../sources/source.ts';
import type { Token } from './nlp.ts';

/** Sentences of a text, trimmed, each an exact substring of `text`. Code blocks and quotes are skipped. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  let inFence = false;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (line.startsWith('```')) {
      inFence = !inFence;
      continue;
    }
    // Markdown quotes repeat someone else's words; code (fenced or indented) and tables are not prose.
    if (inFence || line === '' || line.startsWith('>') || /^(?: {4}|\t)/.test(rawLine) || line.startsWith('|')) continue;
    const bare = line.replace(/^(?:[-*+]|\d+[.)])\s+/, '');
    out.push(...lineSentences(bare));
  }
  return out;
}

/**
 * Abbreviations whose period does not end a sentence: what follows is the same sentence ("(i.e.
 * vLLM) handle this decay better", "e.g. Qwen"), often a name, so its capital says nothing.
 */
const ABBREVIATION = /(?:^|[\s(])(?:i\.e|e\.g|vs|approx|cf|esp|incl|aka|viz|resp|w\.r\.t|mr|mrs|ms|dr)\.$/i;
/** "etc." ends a sentence only when a capital follows ("…and so on etc. Then…"). */
const ETC = /(?:^|[\s(])etc\.$/i;
/** A parenthesis longer than this is not merged into one sentence: an unclosed "(" stops mattering. */
const MAX_PARENTHESIS = 400;

/**
 * A line's sentences. A sentence ends where `sentenceEnds` says it may, except after an
 * abbreviation, and not inside a parenthesis that closes later on the line ("(YMMV. For me it is
 * fast enough.)"): a quote cut there starts "vLLM) handle…" or ends "(e.g." and reads as broken.
 * Every sentence is a verbatim slice of the line.
 */
function lineSentences(line: string): string[] {
  const out: string[] = [];
  let start = 0;
  let depth = 0;
  let scanned = 0;
  for (const { end, next } of sentenceEnds(line)) {
    depth += parenthesisDepth(line.slice(scanned, end));
    scanned = end;
    const sentence = line.slice(start, end);
    const following = line[next] ?? '';
    if (ABBREVIATION.test(sentence) || (ETC.test(sentence) && !/[A-Z]/.test(following))) continue;
    if (depth > 0 && end - start < MAX_PARENTHESIS && parenthesisDepth(line.slice(next)) < 0) continue;
    out.push(sentence.trim());
    start = next;
    depth = 0;
    scanned = next;
  }
  const last = line.slice(start).trim();
  if (last.length > 0) out.push(last);
  return out;
}

/**
 * Where a sentence may end: after . ! or ? followed by a space ("llama.cpp" and "3.5" stay whole).
 * `end` is just after the mark, `next` where the next sentence starts.
 */
function sentenceEnds(text: string): { end: number; next: number }[] {
  return [...text.matchAll(/[.!?]\s+/g)].map((m) => ({ end: m.index + 1, next: m.index + m[0].length }));
}

/** Opened minus closed parentheses of a piece of text; negative when it closes more than it opens. */
function parenthesisDepth(text: string): number {
  let depth = 0;
  for (const c of text) {
    if (c === '(') depth++;
    else if (c === ')') depth--;
  }
  return depth;
}

/**
 * The phrases a memory's filter rules exclude: "ignore memes", "exclude: crypto, NSFW",
 * "ignore posts about hiring" → ["memes"], ["crypto", "nsfw"], ["hiring"]. Rules in other forms
 * are kept as one phrase each (matching them never hurts more than missing them).
 */
export function excludedPhrases(rules: readonly string[]): string[] {
  const phrases: string[] = [];
  for (const rule of rules) {
    const body = rule
      .trim()
      .replace(/^(?:ignore|exclude|skip|drop|filter out)\b[:\s]*/i, '')
      .replace(/^(?:posts?|threads?|comments?|anything)\s+(?:about|mentioning|with|from|on)\s+/i, '')
      .replace(/[."']+$/g, '');
    for (const part of body.split(/,|\bor\b|\band\b/)) {
      const phrase = part.trim().toLowerCase();
      if (phrase.length >= 2) phrases.push(phrase);
    }
  }
  return [...new Set(phrases)];
}

/** Each phrase list's pattern, compiled once: the analyzer asks about every sentence it reads. */
const phrasePatterns = new WeakMap<readonly string[], RegExp>();

export function mentionsAny(text: string, phrases: readonly string[]): boolean {
  if (phrases.length === 0) return false;
  let pattern = phrasePatterns.get(phrases);
  if (!pattern) {
    pattern = new RegExp(`(?:^|[^a-z0-9])(?:${phrases.map(escapeRegExp).join('|')})(?:$|[^a-z0-9])`);
    phrasePatterns.set(phrases, pattern);
  }
  return pattern.test(text.toLowerCase());
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Cuts a quote to at most `max` characters at a word boundary, keeping it a verbatim prefix. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:–—-]+$/, '');
}

/** `shorten`, marked as cut with an ellipsis when it cut (for summaries and moves, not quotes). */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${shorten(text, max)}…`;
}

/**
 * Forum shorthand that says how the writer speaks, never what they speak of ("imo", "tbh",
 * "IIRC", "slow af", and spoken contractions: "gonna", "tho"): neither a product, a subject nor
 * part of a theme's title.
 */
export const CHAT_SHORTHAND: ReadonlySet<string> = new Set('imo imho tbh fyi psa eli5 op ama tldr tl;dr lol lmao btw idk afaik iirc fwiw ngl smh af gonna wanna gotta kinda sorta dunno tho'.split(' '));

/**
 * A comparison's other term follows one of these, after at most a determiner or one coordinated
 * term ("than the stock one", "compared to both ChatGPT and Perplexity", "not as fast as Claude
 * Code"; not "as soon as", "as long as", "as well as", "as far as"). Not "vs" ("Ollama vs LM
 * Studio" weighs both alike) nor "instead of" ("instead of running Ollama, which is slow" is about
 * Ollama).
 */
const COMPARED_BEFORE = /\b(?:than|compared\s+(?:to|with)|comparison\s+(?:to|with)|unlike|as\s+(?!(?:soon|long|well|far)\s)[a-z]+\s+as)(?:\s+(?:the|a|an|both|either|plain|stock|regular|vanilla))?(?:\s+[^\s,;:.!?()]+\s+(?:and|or))?\s*$/i;

/** The text before a word ends in the opening of a comparison's other term, within its clause. */
export function opensComparison(before: string): boolean {
  return COMPARED_BEFORE.test(before.split(/[,;:.!?()](?=\s|$)/).pop() ?? '');
}

/**
 * The sentence names `product` only as what something else is measured against: "it's even worse
 * than GLM 4.5", "underwhelming compared to both ChatGPT and Perplexity", "slower than vLLM". The
 * pain is not about that product (it is most often the better one), so it is neither the move's
 * subject nor a complaint about it. A product named once plainly and once in a comparison is named.
 */
export function comparedOnly(sentence: string, product: string): boolean {
  // Written as people type it, as products.ts matches a tracked name ("LMStudio", "llama cpp").
  const written = new RegExp(`(?<![\\w.])${flexible(product)}(?![\\w])`, 'gi');
  let seen = false;
  for (const match of sentence.matchAll(written)) {
    seen = true;
    if (!opensComparison(sentence.slice(0, match.index))) return false;
  }
  return seen;
}

/**
 * A product name with its separators optional: "llama.cpp" also matches "llamacpp", "llama cpp"
 * and "llama-cpp"; "LM Studio" also "lmstudio" and "LM-Studio" — the spellings people type.
 */
export function flexible(name: string): string {
  return name
    .split(/[\s.\-_]+/)
    .map(escapeRegExp)
    .join('[\\s.\\-_]?');
}

/** Units a quantity is written in ("288.0 GB", "30 tok/s"): what follows a number is no name. */
export const UNITS = ['gb', 'mb', 'tb', 'kb', 'ghz', 'mhz', 'w', 'ms', 's', 'k', 'b', 'm', 't/s', 'tok/s', '%'] as const;

/** A word written as an acronym: two to five capitals, perhaps a plural ("GPU", "LLMs", "RAG"). */
export function isAcronym(text: string): boolean {
  return /^[A-Z]{2,5}s?$/.test(text);
}

/**
 * One key per product however it is written: "LM Studio"/"lmstudio"/"LM-Studio", "llama.cpp"/"llamacpp",
 * and as its web address: "continue.dev", "www.kimi.com" and "runpod.io" are Continue, Kimi and
 * Runpod (competitors.list of the r/LocalLLaMA backfill listed "continue.dev" beside "Continue" and
 * "Kimi.com" beside Kimi). Only the address's "www." and its ending go: "chat.qwen.ai" is Qwen's
 * chat site, not Qwen; and what is left must have three characters or more ("hf.co" stays itself).
 * Not ".ai": there the ending is as often part of the name ("together.ai" is Together AI, labelled so
 * in the quality fixture; Fireworks AI, Novel AI).
 */
export function productKey(name: string): string {
  const address = WEB_ADDRESS.exec(name.trim())?.[1];
  const bare = address === undefined ? '' : keyOf(address);
  return bare.length >= 3 ? bare : keyOf(name);
}

const WEB_ADDRESS = /^(?:https?:\/\/)?(?:www\.)?([^/\s]+?)\.(?:com|dev|io|app|org|net|co|sh)\/?$/i;

function keyOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9+]/g, '');
}

/** A text of a thread: the title, the post text or one comment, with who wrote it and when. */
export interface Passage {
  /** Which part of the thread it is: the opening post is its title and its text. */
  part: 'title' | 'text' | 'comment';
  text: string;
  author: string;
  at: string;
}

/** The thread's texts in reading order: title, post text, then comments depth-first. */
export function* passages(thread: SourceThread): Generator<Passage> {
  yield { part: 'title', text: thread.title, author: thread.author, at: thread.postCreatedAt };
  if (thread.selftext) yield { part: 'text', text: thread.selftext, author: thread.author, at: thread.postCreatedAt };
  for (const c of eachComment(thread.comments)) yield { part: 'comment', text: c.body, author: c.author, at: c.createdAt };
}

/** Characters of text in the threads (titles, posts, comments), counted up to `enough`. */
export function textLength(threads: readonly SourceThread[], enough = Infinity): number {
  let n = 0;
  for (const thread of threads) {
    for (const passage of passages(thread)) n += passage.text.length;
    if (n >= enough) break;
  }
  return n;
}

/**
 * Most words start with a capital: a headline ("Tool Calling Issues In LM Studio"), where capitals
 * say nothing about names.
 */
export function titleCase(tokens: readonly Token[]): boolean {
  const long = tokens.filter((t) => t.type === 'word' && /^[A-Za-z]/.test(t.text) && t.text.length > 3);
  return long.length >= 3 && long.filter((t) => /^[A-Z]/.test(t.text)).length / long.length > 0.6;
}

/**
 * The pieces of a sentence that the pain model reads: cut at every . ! or ? followed by a space,
 * abbreviations and parentheses included, each a verbatim slice of the sentence. The model was
 * trained on these pieces, before sentences went on past "e.g." and through parentheses; read
 * whole, the same labels chose another regularisation by cross-validation and the 300-post
 * development set lost precision (docs/quality.md, "Whole sentences as quotes"), so the model keeps
 * its pieces and only the quote a founder reads is the whole sentence.
 */
export function readingPieces(sentence: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const { end, next } of sentenceEnds(sentence)) {
    pieces.push(sentence.slice(start, end));
    start = next;
  }
  pieces.push(sentence.slice(start));
  return pieces.map((piece) => piece.trim()).filter((piece) => piece.length > 0);
}
