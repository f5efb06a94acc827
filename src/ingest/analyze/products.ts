/**
 * Product names in a sentence (DESIGN §8.2). A name counts when the project tracks it (memory
 * competitors, matched anywhere however it is spaced or punctuated) or when it stands in a
 * product context:
 *
 * - strong: after a verb of use or choice ("use", "tried", "switched from/to", "installed",
 *   "pay for"), "alternative to", "instead of", "X vs Y", "better than X", "compared to X";
 * - as the subject of a failure ("X keeps crashing", "X doesn't support…");
 * - weak: after "in/with/via/through" ("in LM Studio", "with Docker") — only for names that cannot
 *   be ordinary words: camelCase, digits or a dot inside, or a capitalised word that is rare in
 *   English (not among the COMMON_RANK most frequent words of the word-vector vocabulary).
 *
 * Never a product: places, people, dates, weekdays, months, holidays, natural and programming
 * languages, operating systems, quantities and units ("288.0 GB"), sentence fragments ("when I"),
 * a common word capitalised only because it opens a sentence or a Title Case headline, all-capital
 * words of up to three letters ("CS", "GPU", "AI"), and four- or five-letter ones outside a
 * strong context. An untracked name written with a version or size ("Qwen3-32B", "Llama 3",
 * "GPT-4o") names a release or a model, not a product: it counts only when the project tracks its
 * family. Names listed with an accepted one ("an alternative to Chegg or Quizlet") share its context.
 *
 * One product per spelling family: "Qwen", "Qwen3" and "qwen-3" are one product, and so are
 * "Claude" and "Claude 3.5 Sonnet" (a trailing version, size or variant is not part of the name);
 * a project that tracks two members of a family ("Qwen" and "Qwen3-Coder") keeps them apart —
 * the longest tracked name that matches wins. See docs/pipeline.md, "Product names".
 *
 * What a community calls a product is also learned (data/product-names.json, written by
 * scripts/train-models.ts from labelled posts): names its readers call products in three posts or
 * more count in any product context, whatever their shape ("Docker", "Continue"), and names they
 * (almost) never call products — makers ("OpenAI", "NVIDIA") and model families ("Qwen",
 * "Mistral"), called a product in a tenth of their posts or fewer — never count. Names the labels
 * do not know go by the rules above, so other communities keep them. A name the labels call a
 * product also counts typed in lower case ("tried unsloth") when the word is no English word, and
 * is then shown in the labels' spelling.
 *
 * Links name products too: readers counted "Hugging Face" for a bare huggingface.co link in 35 of
 * the 40 labelled posts that had one, but "GitHub" for a github.com link in only half. So a link
 * counts as a mention of a product only when its site is one the labels agree on (data/
 * product-names.json `links`, learned like the names), shown in the labels' spelling.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type nlpType from 'compromise';
import { CHAT_SHORTHAND, flexible, isAcronym, productKey, titleCase, UNITS } from './text.ts';
import { ordinaryWord, wordVectors } from './vectors.ts';
import type { Token } from './nlp.ts';

export interface TrackedProduct {
  name: string;
  pattern: RegExp;
  key: string;
}

export function trackedProducts(names: readonly string[]): TrackedProduct[] {
  return names
    .map((n) => n.trim())
    .filter((n) => n.length >= 2)
    .map((name) => ({ name, key: familyKey(name), pattern: new RegExp(`(?:^|[^\\w.])${flexible(name)}(?![\\w])`, 'i') }))
    // Longest first: "Qwen3-Coder" is matched before "Qwen" takes the same words.
    .sort((a, b) => b.name.length - a.name.length || (a.name < b.name ? -1 : 1));
}

/**
 * The family a spelling belongs to: its key without a trailing version, size or variant.
 * "Qwen3-32B" → "qwen", "Claude 3.5 Sonnet" → "claude", "GPT-4o" → "gpt", "DeepSeek-R1" →
 * "deepseek"; "GPT4All" stays "gpt4all" (letters follow its digits: they are part of the name).
 */
export function familyKey(name: string): string {
  const stem = name
    .trim()
    // A version/size token and everything after it: " 3.5 Sonnet", "-32B-Instruct", "3", " v2".
    .replace(/(?:[\s\-_]+(?:v?\d+(?:\.\d+)*[a-z]?|[a-z]\d+(?:\.\d+)*)|(?<=[a-z])\d+(?:\.\d+)*[a-z]?)(?=$|[\s\-_:]).*$/i, '');
  const key = productKey(stem);
  return key.length >= 2 ? key : productKey(name);
}

const USE_VERBS = new Set(
  'use try switch move migrate install run choose pick prefer recommend test deploy adopt replace ditch drop leave subscribe pay buy host self-host compare love hate'.split(' '),
);
const STRONG_BEFORE = new Set(['vs', 'vs.', 'versus', 'than', 'of']);
const WEAK_BEFORE = new Set(['in', 'with', 'via', 'through', 'on', 'from', 'to', 'into', 'like', 'and', 'or']);
const FAILURE_AFTER = new Set('crash crashes keep keeps fail fails failed doesn doesn’t does did won will can cannot is was sucks suck breaks broke hangs freezes refuses lacks'.split(' '));

/**
 * Verbs of opinion and speech, said of people, not software: "Zuck doesn't specify what…", "Altman
 * doesn't think…" tell what a person thinks or says; a product fails to do ("doesn't support",
 * "won't load", "keeps crashing"). Verbs said of software too ("doesn't like long prompts",
 * "doesn't want to load", "doesn't seem to work") are left out.
 */
const PERSON_VERBS = new Set('think believe care say tell specify mention agree admit claim promise deserve'.split(' '));

/** The first verb after the name (past auxiliaries, negations and adverbs) is a PERSON_VERBS one. */
function speaksOrFeels(tokens: readonly Token[], to: number): boolean {
  for (let i = to; i < Math.min(tokens.length, to + 5); i++) {
    const t = tokens[i]!;
    if (t.pos === 'AUX' || t.pos === 'PART' || t.pos === 'ADV' || t.lower === "n't" || t.lower === 'n’t' || t.lower === 'not') continue;
    return t.pos === 'VERB' && PERSON_VERBS.has(t.lemma);
  }
  return false;
}

/**
 * compromise is loaded on the first verdict: it weighs about 40 MB in each thread that loads it,
 * and a run's main thread imports this module (for its names and keys) while the analyzer's
 * workers are the ones that judge candidates.
 */
let compromise: typeof nlpType | undefined;
function nlpCompromise(text: string): ReturnType<typeof nlpType> {
  compromise ??= createRequire(import.meta.url)('compromise') as typeof nlpType;
  return compromise(text);
}

/** Names that look like products but never are (compromise knows places, people and dates). */
const NEVER = new Set(
  (
    'christmas thanksgiving easter halloween hanukkah ramadan diwali eid newyear springbreak winterbreak summerbreak fallbreak midterms finals ' +
    'english spanish french german chinese mandarin japanese korean italian portuguese russian arabic hindi dutch latin ' +
    'python javascript typescript java rust golang kotlin swift ruby php perl haskell cpp csharp sql html css bash ' +
    'linux windows macos mac osx ubuntu debian fedora arch android ios wsl unix ' +
    // Kinds of hardware, not names: an integrated, discrete or external GPU.
    'igpu igpus dgpu dgpus egpu egpus ' +
    'reddit subreddit edit update ' +
    // People the community names the way it names products ("switched to Grok because Elon…",
    // "Zuck vs Altman"); compromise does not know them, and a people list is never a product list.
    'elon musk zuck zuckerberg altman sama jensen karpathy lecun hinton amodei hassabis nadella pichai bezos'
  )
    .split(' ')
    .concat(...CHAT_SHORTHAND),
);

/** Tokens that continue a name: "Studio" of "LM Studio", "3.5" of "Claude 3.5". */
function continues(t: Token): boolean {
  return (t.type === 'word' || t.type === 'number') && (/^[A-Z0-9]/.test(t.text) || oddShape(t.text)) && t.pos !== 'PRON' && t.pos !== 'DET';
}

/** Spellings no ordinary word has: "vLLM", "ComfyUI", "GPT4All", "llama.cpp", "Qwen3". */
function oddShape(text: string): boolean {
  return /[a-z][A-Z]/.test(text) || (/[A-Za-z]/.test(text) && /\d/.test(text) && /^[A-Za-z]/.test(text)) || /[a-z]\.[a-z]/i.test(text);
}

function capitalised(text: string): boolean {
  return /^[A-Z]/.test(text);
}

export interface ProductMatcher {
  /** A cheap test on the raw sentence: false means find() would find nothing (no tagging needed). */
  mightName(sentence: string): boolean;
  /** The same test without the context: false means the sentence holds no candidate name, product or not (for names()). */
  holdsCandidate(sentence: string): boolean;
  /** Products the sentence names, tracked spellings for tracked families. */
  find(tokens: readonly Token[], sentence: string): string[];
  /** Families of every untracked name the sentence could hold, product or not (for scripts/train-models.ts). */
  names(tokens: readonly Token[]): string[];
}

/** What labelled posts say of names (data/product-names.json): families called products, and families never called one. */
export interface KnownNames {
  products: string[];
  /** The spelling the labels give each product family ("ollama" → "Ollama"), for a name typed in lower case. */
  spellings: Record<string, string>;
  notProducts: string[];
  /** Sites whose links name a product: the site's family (linkSites) → the product's spelling. */
  links: Record<string, string>;
  /** How the lists were made (for docs/quality.md). */
  trained: Record<string, unknown>;
}

export const KNOWN_NAMES_PATH = fileURLToPath(new URL('./data/product-names.json', import.meta.url));
export const NO_KNOWN_NAMES: KnownNames = { products: [], spellings: {}, notProducts: [], links: {}, trained: {} };
let shippedNames: KnownNames | undefined;

export function knownNames(): KnownNames {
  shippedNames ??= JSON.parse(readFileSync(KNOWN_NAMES_PATH, 'utf8')) as KnownNames;
  return shippedNames;
}

/** Stems of the failure words that make a name before them a product ("X keeps crashing"). */
const FAILURE_STEMS = ['crash', 'fail', 'freez', 'hang', 'break', 'broke', 'suck', 'refus', 'lack', 'not', 'never', 'keep'];
/** A failure word as contextOf reads it: a lower-cased token starting with a stem, or "n't". */
const FAILURE_WORDS = new RegExp(`^(?:n't|n’t|${FAILURE_STEMS.join('|')})`);
/** A strong context after a name (contextOf: "vs", or a failure word within four tokens), in the raw text. */
const AFTER_HINT = new RegExp(`n['’]t|\\b(?:vs|versus|${FAILURE_STEMS.join('|')})`, 'i');
/** An http(s) link's host (scheme required: "see huggingface.co" is a name, and the rules read names). */
const LINK = /\bhttps?:\/\/(?:www\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)+)/gi;

/** Second-level labels of two-part public suffixes ("co.uk", "com.au", "ac.jp"). */
const SUFFIX_SECOND_LEVELS = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'ne', 'or']);

/**
 * The sites a sentence links to, as name families: the host's name under its public suffix
 * ("huggingface.co" → "huggingface", "docs.vllm.ai" → "vllm", "user.github.io" → "github"; under
 * a two-part suffix such as "co.uk", the label before it).
 */
export function linkSites(sentence: string): string[] {
  const out = new Set<string>();
  for (const [, host] of sentence.matchAll(LINK)) {
    const labels = host!.toLowerCase().split('.');
    let i = labels.length - 2;
    if (i > 0 && SUFFIX_SECOND_LEVELS.has(labels[i]!) && labels[labels.length - 1]!.length === 2) i -= 1;
    const family = familyKey(labels[i]!);
    if (family.length >= 2) out.add(family);
  }
  return [...out];
}

/** Every form of a verb of USE_VERBS that the tagger may read as it (the raw text's side of contextOf). */
const USE_FORMS = new Set(
  [...USE_VERBS].flatMap((v) => {
    const stem = v.endsWith('e') ? v.slice(0, -1) : v;
    const doubled = /[^aeiou][aeiou][bdgmnprt]$/.test(v) ? v + v.slice(-1) : v;
    const y = v.endsWith('y') && !/[aeiou]y$/.test(v) ? v.slice(0, -1) + 'i' : v;
    return [v, `${y}s`, `${v}es`, `${y}es`, `${stem}ed`, `${y}ed`, `${doubled}ed`, `${stem}ing`, `${doubled}ing`, `${v}ing`];
  }).concat('ran chose chosen left paid bought'.split(' ')),
);
/** Words contextOf reads before a name, in any form it may read them. */
const CUE_BEFORE = new Set([...STRONG_BEFORE, ...WEAK_BEFORE, 'for', 'of', ...USE_FORMS]);
/** Words contextOf steps over on its way back to the cue (determiners, pronouns, "new", "good", "old"): a generous list, so that no cue is missed. */
const STEPPED_OVER = new Set(
  'the a an this that these those my your our their his her its whose which what whatever whichever some any no every each either neither both all another other such much many few several enough half it itself i me mine myself we us ours ourselves you yours yourself yourselves he him himself she herself they them themselves one ones someone something anything nothing everything somebody anybody nobody everybody who whom new good old'.split(' '),
);

/** Reading back from the word before `i`, past determiners and pronouns, is there a word contextOf takes as a cue? */
function cueBefore(words: readonly string[], i: number): boolean {
  for (let b = i - 1; b >= 0; b--) {
    // The tagger splits "police...and" where the raw words do not: the cue is the last piece.
    const lower = words[b]!.toLowerCase().split(/\.+/).filter(Boolean).pop() ?? '';
    if (CUE_BEFORE.has(lower)) return true;
    if (!STEPPED_OVER.has(lower)) return false;
  }
  return false;
}

/** "I", "I'm", "I've": a pronoun, never a candidate. */
const PRONOUN_I = /^I(?:['’](?:m|ve|d|ll))?$/;

/** `known`: the shipped lists by default; scripts/train-models.ts passes none while it counts names. */
export function productMatcher(tracked: readonly TrackedProduct[], own: string, known: KnownNames = knownNames()): ProductMatcher {
  const ownKey = familyKey(own);
  const knownProducts = new Set(known.products);
  const notProducts = new Set(known.notProducts);
  // compromise takes a fraction of a millisecond per call and a backfill meets the same names
  // thousands of times: each verdict is asked once per run.
  const plausible = remembered(plausibleName);
  const organization = remembered((phrase: string) => nlpCompromise(phrase).has('#Organization'));
  const trackedFamilies = new Set(tracked.map((t) => t.key));
  // People type product names in lower case ("I use ollama"). A lower-case word counts as a name
  // when the labels call its family a product and it is no English word (not in the word-vector
  // vocabulary): "ollama", "unsloth", "sillytavern"; never "docker", "cursor", "perplexity".
  const typedLower = (word: string) => knownProducts.has(word) && !wordVectors().has(word);
  const links = new Map(Object.entries(known.links));
  const linkedProducts = (sentence: string) => (links.size === 0 || !sentence.includes('://') ? [] : linkSites(sentence).flatMap((site) => links.get(site) ?? []));
  // Tracked names count anywhere, and links name products without any context.
  const namedWithoutContext = (sentence: string) => tracked.some((t) => t.pattern.test(sentence)) || linkedProducts(sentence).length > 0;
  return {
    mightName(sentence) {
      if (namedWithoutContext(sentence)) return true;
      // A name counts only in a context (contextOf): a cue word before it, or one after it. The
      // raw text says whether one may be there, and a sentence with capitals but no cue near
      // them is spared the tagger.
      const after = AFTER_HINT.test(sentence);
      const words = Array.from(sentence.matchAll(/[A-Za-z][\w.+'’-]*/g), (m) => m[0]);
      for (let i = 0; i < words.length; i++) {
        const word = words[i]!;
        // A single capital counts too: "L" opens the name "L Building".
        if (!oddShape(word) && !typedLower(word.replace(/\.+$/, '')) && (!capitalised(word) || PRONOUN_I.test(word))) continue;
        if (after || trackedFamilies.has(familyKey(word)) || cueBefore(words, i)) return true;
      }
      return false;
    },
    holdsCandidate(sentence) {
      if (namedWithoutContext(sentence)) return true;
      let first = true;
      for (const [word] of sentence.matchAll(/[A-Za-z][\w.+'’-]*/g)) {
        const opening = first;
        first = false;
        if (oddShape(word)) return true;
        if (word.length < 2 || !capitalised(word) || PRONOUN_I.test(word)) continue;
        // Nothing stands before the first word: only what follows can make it a name ("Mistral
        // doesn't…", "Ollama vs …"), unless its family is tracked (counted anywhere).
        if (!opening || AFTER_HINT.test(sentence) || trackedFamilies.has(familyKey(word))) return true;
      }
      return false;
    },
    names(tokens) {
      const out = new Set<string>();
      for (const [from, to] of candidates(tokens)) {
        const name = spelled(phraseOf(tokens, from, to));
        if (/[A-Za-z]{2}/.test(name) && !SIZE.test(name)) out.add(familyKey(name));
      }
      return [...out];
    },
    find(tokens, sentence) {
      const out = new Map<string, string>();
      // Tracked products are keyed by their own name, so two tracked members of one family stay
      // apart; an untracked spelling maps onto its family's tracked product (the plainest one).
      const add = (name: string, isTracked: boolean) => {
        const family = familyKey(name);
        if (family === ownKey) return;
        const known = isTracked ? undefined : familyMember(tracked, family);
        const shown = known?.name ?? name;
        const key = isTracked || known ? productKey(shown) : family;
        if (!out.has(key)) out.set(key, shown);
      };
      const claimed: [number, number][] = [];
      for (const t of tracked) {
        for (let from = 0; from < sentence.length; ) {
          const rest = from === 0 ? sentence : sentence.slice(from);
          const m = t.pattern.exec(rest);
          if (!m) break;
          const start = from + m.index + (m[0].length - m[0].trimStart().length);
          const end = from + m.index + m[0].length;
          from = end;
          // "Qwen" inside an already matched "Qwen3-Coder" is the same mention.
          if (claimed.some(([a, b]) => start >= a && start < b)) continue;
          // "Claude Code" is not "Claude": the tracked name opens a longer name the labels call a
          // product; the tracked product may still be named further on.
          const longer = longerKnownName(sentence, start, end, t.key, knownProducts);
          claimed.push([start, longer?.end ?? end]);
          if (longer) {
            add(longer.name, false);
            from = longer.end;
            continue;
          }
          add(t.name, true);
          break;
        }
      }
      const headline = titleCase(tokens);
      let lastAccepted = -1;
      for (const [from, to] of candidates(tokens, typedLower)) {
        // A sentence's closing period glued to its last word ("switched to Jan.") is not the name's.
        const written = phraseOf(tokens, from, to).replace(/(?<=[A-Za-z0-9])\.+$/, '');
        const name = spelled(written);
        const first = tokens[from]!;
        if (tracked.some((t) => t.pattern.test(written))) continue;
        const spelledFamily = familyKey(name);
        // "Qwen3-32B" when the project tracks "Qwen": its family is tracked, so it counts anywhere.
        if (familyMember(tracked, spelledFamily)) {
          add(name, false);
          continue;
        }
        const family = knownFamily(spelledFamily, written, knownProducts, notProducts);
        if (notProducts.has(family)) continue;
        // "Dockers" is a mention of Docker.
        const singular = family !== spelledFamily ? name.slice(0, -1) : name;
        const listed = lastAccepted !== -1 && from - lastAccepted <= 2 && /^(?:,|or|and|\/)$/.test(tokens[from - 1]?.lower ?? '');
        const context = listed ? 'strong' : contextOf(tokens, from, to);
        if (context === 'none') continue;
        if (knownProducts.has(family)) {
          // The community calls it a product: its shape and place need not say so ("Docker", "Continue").
          // Typed in lower case, it is shown as the labels spell it ("ollama" → "Ollama").
          const shown = typedLower(written) ? (known.spellings[family] ?? singular) : singular;
          if (!actsAsMaker(tokens, to)) add(shown, false);
          lastAccepted = to;
          continue;
        }
        if (name !== written || SIZE.test(written)) continue;
        const shapeSays = oddShape(first.text) || to - from > 1 || rare(first.lower);
        if (context === 'weak' && !shapeSays) continue;
        // A capital that opens a sentence or sits in a headline says nothing: then only the shape can.
        if ((from === 0 || headline || tokens[from - 1]?.text === ':') && !shapeSays) continue;
        if (isAcronym(first.text) && to - from === 1 && (first.text.replace(/s$/, '').length <= 3 || context !== 'strong')) continue;
        if (actsAsMaker(tokens, to) || benchmark(tokens, from, to, name) || genericPhrase(tokens, from, to, organization) || !plausible(name)) continue;
        add(name, false);
        lastAccepted = to;
      }
      for (const product of linkedProducts(sentence)) add(product, false);
      return [...out.values()];
    },
  };
}

/**
 * A plural of a name the labels know is that name: "GGUFs" and "Macs" say what "GGUF" and "Mac"
 * say (never products), "Dockers" what "Docker" says. Only for a plural `s` written in lower case
 * after the name ("LLMs", not "ROCS"), and only when the plural itself is not a known name.
 */
function knownFamily(family: string, written: string, products: ReadonlySet<string>, notProducts: ReadonlySet<string>): string {
  if (products.has(family) || notProducts.has(family) || !/[A-Za-z]s$/.test(written) || !/[^s]s$/.test(family)) return family;
  const singular = family.slice(0, -1);
  return products.has(singular) || notProducts.has(singular) ? singular : family;
}

/**
 * A tracked name followed by one or two words that make, with it, a name the labels call a
 * product of its own family ("Claude" + " Code", "Gemini" + " CLI"): that longer name, as written.
 * Longest first. A version ("Claude 3.5 Sonnet") keeps the tracked family, so it never qualifies.
 */
function longerKnownName(sentence: string, start: number, end: number, trackedKey: string, products: ReadonlySet<string>): { name: string; end: number } | undefined {
  if (products.size === 0) return undefined;
  const next = /^[\s\-_]+([A-Za-z][\w.+]*)(?:[\s\-_]+([A-Za-z][\w.+]*))?/.exec(sentence.slice(end));
  if (!next) return undefined;
  const oneWord = next[0].indexOf(next[1]!) + next[1]!.length;
  for (const length of next[2] ? [next[0].length, oneWord] : [oneWord]) {
    const name = sentence.slice(start, end + length).replace(/\.+$/, '');
    const family = familyKey(name);
    if (family !== trackedKey && products.has(family)) return { name, end: start + name.length };
  }
  return undefined;
}

/** The tracked product of a family: the one spelled as the family itself, else the shortest. */
function familyMember(tracked: readonly TrackedProduct[], family: string): TrackedProduct | undefined {
  const members = tracked.filter((t) => t.key === family);
  return members.find((t) => productKey(t.name) === family) ?? members.sort((a, b) => a.name.length - b.name.length)[0];
}

const OPENS_NO_NAME = new Set(['CCONJ', 'SCONJ', 'ADP', 'ADV']);

/** Token ranges that could be names: a capitalised or odd-shaped word and the name words after it, or one word `typedLower` accepts. */
function candidates(tokens: readonly Token[], typedLower: (word: string) => boolean = () => false): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    // Shorthand opens no name: "IIRC llama.cpp wasn't deterministic" names llama.cpp.
    if (t.type !== 'word' || t.pos === 'PRON' || t.pos === 'DET' || t.pos === 'AUX' || CHAT_SHORTHAND.has(t.lower)) continue;
    // Nor does a conjunction, preposition or adverb, capitalised only because it opens the
    // sentence: "If Qwen…", "Also vLLM…", "Because DeepSeek…" name Qwen, vLLM and DeepSeek.
    if (OPENS_NO_NAME.has(t.pos) && !oddShape(t.text)) continue;
    if (!capitalised(t.text) && !oddShape(t.text) && !typedLower(t.text)) continue;
    if (/^\d/.test(t.text)) continue;
    let j = i + 1;
    // A name typed in lower case is that one word: "unsloth Colab" is Unsloth's notebook on Colab.
    const typed = !capitalised(t.text) && !oddShape(t.text);
    while (!typed && j < tokens.length && j - i < 4 && continues(tokens[j]!) && tokens[j]!.space !== '' ) j++;
    out.push([i, j]);
    i = j - 1;
  }
  return out;
}

function phraseOf(tokens: readonly Token[], from: number, to: number): string {
  let out = tokens[from]!.text;
  for (let i = from + 1; i < to; i++) out += tokens[i]!.space + tokens[i]!.text;
  return out;
}

/** A parameter count or size inside a name: "32B", "0.6B", "8x7B". */
const SIZE = /\d(?:\.\d+)?[bBmM](?![a-z])/;

/** The name without a trailing version or glued version digits ("Qwen3" → "Qwen", "Llama 3" → "Llama"). */
function spelled(written: string): string {
  return written.replace(/(?:[\s\-_]+(?:v?\d+(?:\.\d+)*[a-z]?|[a-z]\d+(?:\.\d+)*)|(?<=[a-z])\d+(?:\.\d+)*[a-z]?)(?:[\s\-_].*)?$/i, '');
}

function contextOf(tokens: readonly Token[], from: number, to: number): 'strong' | 'weak' | 'none' {
  // Skip "the", "a", "my" and a possessive: "switched to the new LM Studio".
  let b = from - 1;
  while (b >= 0 && (tokens[b]!.pos === 'DET' || tokens[b]!.pos === 'PRON' || tokens[b]!.lower === 'new' || tokens[b]!.lower === 'good' || tokens[b]!.lower === 'old')) b--;
  const before = tokens[b];
  const before2 = tokens[b - 1];
  if (before) {
    if (STRONG_BEFORE.has(before.lower) && (before.lower !== 'of' || before2?.lower === 'instead')) return 'strong';
    if ((before.lower === 'to' || before.lower === 'for') && before2 && /^alternatives?$/.test(before2.lower)) return 'strong';
    if ((before.lower === 'to' || before.lower === 'with') && before2?.lower === 'compared') return 'strong';
    if (before.pos === 'VERB' && USE_VERBS.has(before.lemma)) return 'strong';
    if ((before.lower === 'from' || before.lower === 'to' || before.lower === 'for' || before.lower === 'with') && before2 && USE_VERBS.has(before2.lemma)) return 'strong';
  }
  const after = tokens[to];
  if (after && (after.lower === 'vs' || after.lower === 'vs.' || after.lower === 'versus')) return 'strong';
  if (after && FAILURE_AFTER.has(after.lower) && tokens.slice(to, to + 4).some((t) => FAILURE_WORDS.test(t.lower)) && !speaksOrFeels(tokens, to)) return 'strong';
  if (before && WEAK_BEFORE.has(before.lower)) return 'weak';
  return 'none';
}

const MAKER_VERBS = new Set('release announce launch drop open-source publish ship unveil train acquire hire raise'.split(' '));

/** "OpenAI released…", "Alibaba's new model": the name acts as a company making things, not as a product in use. */
function actsAsMaker(tokens: readonly Token[], to: number): boolean {
  const next = tokens[to];
  if (!next) return false;
  if (next.text === "'s" || next.text === '’s' || next.text === "'" ) return true;
  const verb = next.pos === 'AUX' ? tokens[to + 1] : next;
  return verb !== undefined && verb.pos === 'VERB' && MAKER_VERBS.has(verb.lemma);
}

/**
 * A benchmark, not a product: a name with a "bench" part ("SWE-Bench", "LiveCodeBench", "SWE-bench
 * Verified"), or one a score is reported on or in ("scored 81.2% on Aider Polyglot", "in GPQA
 * Diamond, … achieves 53.79%"); a bare percentage is not a score ("90% GPU use on …").
 * r/LocalLLaMA names benchmarks in the places it names tools ("on", "in"): the export's
 * competitors.list held six among its top 120 entries, all labelled no product.
 */
function benchmark(tokens: readonly Token[], from: number, to: number, name: string): boolean {
  if (/bench(?![a-z])/i.test(name)) return true;
  const before = tokens[from - 1]?.lower;
  if (before !== 'on' && before !== 'in') return false;
  // The score is said next to the name: "scores 70 on HumanEval and runs fine in Msty" still names Msty.
  const near = [...tokens.slice(Math.max(0, from - SCORE_REACH), from), ...tokens.slice(to, to + SCORE_REACH)];
  return near.some((t) => SCORE_WORDS.has(t.lemma) || SCORE_WORDS.has(t.lower));
}

/** How many tokens from a name a score word may stand and still be about it. */
const SCORE_REACH = 5;

const SCORE_WORDS = new Set(['score', 'scored', 'scores', 'scoring', 'achieve', 'achieves', 'achieved', 'benchmark', 'benchmarks', 'leaderboard', 'elo']);

function rare(lower: string): boolean {
  return !ordinaryWord(lower);
}

/**
 * A kind of thing, not a product: headed by an acronym ("AMD GPUs", "System VRAM", "Local LLM"),
 * joined by a slash ("CPU/RAM"), or made of ordinary words only ("Model Providers", "First Token").
 */
function genericPhrase(tokens: readonly Token[], from: number, to: number, organization: (phrase: string) => boolean): boolean {
  const words = tokens.slice(from, to).filter((t) => t.type === 'word');
  const head = words[words.length - 1];
  if (!head) return true;
  if (words.some((t) => t.text.includes('/'))) return true;
  if (words.length > 1 && isAcronym(head.text)) return true;
  return words.length > 1 && words.every((t) => !oddShape(t.text) && !rare(t.lower)) && !organization(words.map((t) => t.text).join(' '));
}

function remembered(verdict: (text: string) => boolean): (text: string) => boolean {
  const known = new Map<string, boolean>();
  return (text) => {
    let v = known.get(text);
    if (v === undefined) {
      v = verdict(text);
      known.set(text, v);
    }
    return v;
  };
}

/** A name ending in a number and its unit ("Mac Studio 512 GB"). */
const QUANTITY = new RegExp(`\\b\\d+(?:\\.\\d+)?\\s?(?:${UNITS.map((u) => u.replace(/[/%]/g, (c) => `\\${c}`)).join('|')})$`, 'i');

/**
 * What a program reads, not what anyone buys: a file name with a code, config or data ending
 * ("settings.json", "tts.py", "server.exe", "model.gguf"), an environment variable (capitals joined
 * by underscores: "CUDA_VISIBLE_DEVICES") and a quantisation level ("Q4_K_M", "q4km", "IQ4XS",
 * "FP16"). The r/LocalLLaMA backfill listed 49 of them in competitors.list, and a competitor's
 * issue tracker (DESIGN §8's `github:` source) names little else. Not ".js", ".cpp", ".sh", ".md"
 * or ".so": those end products' names too (Transformers.js, llama.cpp, inference.sh, Obsidian.md,
 * Notion.so).
 */
function codeIdentifier(name: string): boolean {
  return FILE_OR_QUANT.test(name) || ENVIRONMENT_VARIABLE.test(name);
}
const FILE_OR_QUANT = /^(?:[\w-]+\.(?:json|jsonl|py|ipynb|exe|ya?ml|txt|cfg|ini|toml|log|csv|gguf|bin|safetensors|pt|pth|onnx|bat|ps1|dll|zip|tar|gz)|i?q\d(?:[_-]?[0-9a-z]){0,5}|b?f16|fp\d{1,2}|int\d{1,2})$/i;
/** Capitals only: "LM_Studio" is a name written with a separator. */
const ENVIRONMENT_VARIABLE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

/** Not a place or its people ("American"), person, date, holiday, language, platform, unit, quantity, code identifier or compound adjective ("CPU-only"). */
function plausibleName(name: string): boolean {
  const key = productKey(name);
  if (key.length < 2 || NEVER.has(key) || NEVER.has(name.toLowerCase())) return false;
  // "Elon Musk", "Spring Break": every word a never-word (the list holds single words).
  if (name.toLowerCase().split(/[\s\-_]+/).every((word) => NEVER.has(word))) return false;
  if (/^\d/.test(name) || QUANTITY.test(name) || codeIdentifier(name)) return false;
  // "CPU-only", "AI-powered", "LLM-based": a compound adjective describes a thing, it names none
  // ("SWE-agent" and "LE-chat", an acronym and a noun, are left to the other rules).
  const compound = /^[A-Z]{2,5}s?-([a-z]+)$/.exec(name);
  if (compound && ['#Adjective', '#PastTense', '#Participle', '#Gerund', '#Adverb'].some((tag) => nlpCompromise(compound[1]!).has(tag))) return false;
  if (!/[A-Za-z]{2}/.test(name)) return false;
  const doc = nlpCompromise(name);
  return !(doc.has('#Place') || doc.has('#Demonym') || doc.has('#Person') || doc.has('#Date') || doc.has('#Month') || doc.has('#WeekDay') || doc.has('#Holiday'));
}
