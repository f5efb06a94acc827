/**
 * Is this sentence a pain (DESIGN §8.2)? A pain is a sentence in which the writer, or someone
 * they speak for, has a problem: a failure, a blocker, a cost, a missing capability, frustration
 * with a named thing. Praise, thanks, advice to others, jokes and neutral questions are not.
 *
 * The reading works on tagged tokens (nlp.ts), not on the raw string, so that:
 * - cues match by lemma ("crashes", "crashed", "crashing" → crash) and by part of speech
 *   ("a break" is not "it breaks");
 * - function verbs are pains only when negated or blocked ("doesn't work", "unable to load",
 *   "refuses to start") and pain words are cancelled when negated or avoided ("no issues",
 *   "never crashes", "minimizes hallucinations", "without errors");
 * - the sentence's shape counts: a relief ("works fine now"), a well-wish ("good luck"), advice
 *   to someone else ("try lowering the context"), a hypothetical ("if you have issues…") and a
 *   survey question to others ("have you faced issues with…?") are not the writer's pain.
 *
 * Each cue belongs to a kind (failure, speed, cost, missing, difficulty, frustration, concern),
 * which decides what move fits the pain (moves.ts). Scores are additive and the threshold is
 * one global constant: no rule names a product, a community or a post.
 */
import { beforeAdverbs, tag, type Token } from './nlp.ts';

export const PAIN_KINDS = ['failure', 'speed', 'cost', 'missing', 'difficulty', 'frustration', 'concern'] as const;
export type PainKind = (typeof PAIN_KINDS)[number];

export interface PainReading {
  score: number;
  kind: PainKind;
  /** Index of the token that carries the strongest cue. */
  cue: number;
  /** The sentence asks how to do something (also a pain when a cue is present). */
  howTo: boolean;
  /**
   * When the strongest cue is a bare "problem" or "issue", which says only that there is one, the
   * first cue as strong that says which kind it is: "my real problem is that structured output
   * does not work with Ollama" is a failure. Moves read it (moves.ts); the pain model does not.
   */
  precise?: { kind: PainKind; cue: number };
}

/** A sentence scoring this much or more is a pain. */
export const PAIN_THRESHOLD = 2;

type Cue = [kind: PainKind, weight: number];

/** Lemmas that voice a problem by themselves (unless negated or avoided). */
const CUE_LEMMAS = new Map<string, Cue>([
  ...words('crash segfault oom freeze fail failure bug buggy glitch glitchy error exception gibberish garbage nonsense hallucinate hallucination leak broken stall timeout regression unresponsive corrupt corrupted', ['failure', 2]),
  ...words('slow slower sluggish laggy lag bottleneck', ['speed', 1.5]),
  ...words('expensive overpriced pricey costly', ['cost', 2]),
  ...words('lack lacking missing unsupported', ['missing', 1.5]),
  ...words('struggle stuck trouble headache nightmare confuse confusing confused overwhelm overwhelmed overwhelming tedious unreliable unstable flaky inconsistent fragmented clunky cumbersome painful', ['difficulty', 2]),
  ...words('hard difficult tough tricky impossible problem issue', ['difficulty', 1.5]),
  ...words('frustrate frustrating frustrated frustration annoy annoying annoyed hate suck terrible awful horrible useless unusable trash disappointing disappointed disappoint underwhelming underwhelmed lackluster lacklustre ridiculous infuriating exhausting', ['frustration', 2]),
  ...words('bad poor poorly worse worst mediocre', ['frustration', 1.5]),
  ...words('concern concerned worry worried afraid scared fear', ['concern', 1.5]),
]);

/** Verbs that say something works; negated or blocked they are a failure ("won't load"). */
const FUNCTION_VERBS = new Set(
  'work run load start open connect respond install compile boot launch fit support recognize recognise detect pull show finish complete generate save sync perform handle follow apply call output produce read parse find stop help'.split(' '),
);
/** After "can't" or "couldn't" these say the writer is blocked ("can't figure out how"). */
const BLOCKED_VERBS = new Set('get figure find make understand seem manage load'.split(' '));
/** Adjectives that voice a problem when negated ("still not ready", "not usable"). */
const NEGATED_ADJECTIVES = new Set('ready usable stable reliable viable worth possible clear'.split(' '));
/** After "high"/"huge" these are a cost the writer bears ("very high power consumption"). */
const RESOURCE_NOUNS = new Set('cost costs price prices consumption latency usage bill bills fee fees rent draw'.split(' '));
const CAN = new Set(['ca', 'can', 'could', 'cannot', 'couldn']);
const NEGATORS = new Set(['not', "n't", 'n’t', 'never', 'no', 'without', 'cannot', 'none', 'nothing', 'zero', 'hardly', 'barely', 'nor']);
/** Before a pain word these mean it is prevented or gone ("minimizes hallucinations"). */
const AVOIDERS = new Set('avoid avoiding prevent prevents reduce reduces reduced minimize minimizes minimise fix fixes fixed solve solves solved resolve resolved eliminate eliminates less fewer free handle handles'.split(' '));
const BLOCKERS = new Set(['unable', 'fail', 'refuse', 'struggle']);
const INTENSIFIERS = new Set('so too very really extremely super incredibly insanely painfully way much terribly horribly absurdly'.split(' '));
const FIRST_PERSON = new Set(['i', 'me', 'my', 'mine', 'we', 'us', 'our', "i'm", 'im', "i've"]);

const RELIEF = /\b(?:hard to (?:beat|match|believe|argue)|wish (?:i|we) (?:was|were|had known)|works? (?:great|fine|well|perfectly|flawlessly|now)|(?:now|finally) (?:it )?works|no (?:problems?|issues?) (?:so far|at all|whatsoever)|(?:problem|issue) (?:solved|fixed|resolved)|(?:fixed|solved|resolved) (?:it|this|that|the (?:problem|issue))|not (?:that |too |so )?(?:bad|terrible|awful)|never had (?:a |any )?(?:problems?|issues?))\b/i;
/**
 * A sentence that says there was no problem: "no issues with mine", "not a big problem", "I
 * haven't had a single issue with a tool call failing", "worked without issues". The problem
 * words inside the denial ("failing", "buggy quant") read as a pain to the model, which sees words,
 * not what a negation reaches. Among 1,603 comment sentences the pain model had accepted and
 * annotators labelled blind (fixtures/training/comment-pains.json and both brief-leads fixtures),
 * 15 say this and none is a pain, whatever follows a "but"; none of the ~500 labelled pain quotes
 * of opening posts does (docs/quality.md, "Denials"). So it decides alone, after the model.
 *
 * The same holds of failures, crashes, bugs and limitations, of a problem named by one word before
 * it, and of a problem not run into: "with 0 failures", "assuming there are no VRAM limitations",
 * "without running into memory issues", "we are not grappling with any security issues" (5 of
 * 4,362 pains of a backfill and a week of daily runs, three of which led daily items, none a pain
 * to two blind annotators; 2 of the ~2,500 labelled sentences, both no pain: docs/quality.md,
 * "Denials of failures").
 */
const MODIFIER = '(?:(?:real|major|big|serious|huge|noticeable|such)\\s+)?';
const PROBLEM_NOUN = '(?:problems?|issues?)\\b';
/** Problems that can be denied by "no" or "without": "0 failures", "no VRAM limitations". */
const DENIABLE = '(?:problems?|issues?|failures?|crash(?:es)?|bugs?|limitations?)\\b';
/** One word naming which problem: "no memory issues", "no VRAM limitations". */
const WHICH = '(?:[\\w-]+\\s+)?';
const DENIAL = new RegExp(
  [
    `\\b(?:no|zero|0)\\s+${MODIFIER}${WHICH}${DENIABLE}`,
    `\\bnot\\s+(?:a|an|one|any)\\s+(?:single\\s+)?${MODIFIER}${PROBLEM_NOUN}`,
    `\\b(?:haven['’]?t|hasn['’]?t|hadn['’]?t|didn['’]?t|(?:have|has|had|did)\\s+not|never)\\s+(?:had|have|seen|see|run\\s+into|ran\\s+into|hit|encountered|encounter|noticed|notice|experienced|experience|got|get)\\s+(?:a\\s+single\\s+|any\\s+|an?\\s+|one\\s+)?${MODIFIER}${PROBLEM_NOUN}`,
    // The present tense says it as surely: "I usually don't have problems with it", "it doesn't have such issue".
    `\\b(?:don['’]?t|doesn['’]?t|(?:do|does)\\s+not)\\s+(?:\\w+ly\\s+)?(?:have|see|run\\s+into|hit|encounter|notice|experience|get)\\s+(?:a\\s+single\\s+|any\\s+|an?\\s+|one\\s+)?${MODIFIER}${PROBLEM_NOUN}`,
    // "without any problems", "without running into memory issues".
    `\\bwithout\\s+(?:\\w+ing\\s+(?:into\\s+)?)?(?:any\\s+)?${MODIFIER}${WHICH}${DENIABLE}`,
    // "we are not grappling with any security issues", "not seeing a single crash".
    `\\bnot\\s+\\w+ing\\s+(?:(?:with|into)\\s+)?(?:any|a\\s+single)\\s+${MODIFIER}${WHICH}${DENIABLE}`,
  ].join('|'),
  'i',
);

/** The sentence says there was no problem (see DENIAL): it is no pain, whatever its other words. */
export function deniesProblem(sentence: string): boolean {
  return DENIAL.test(sentence);
}

/**
 * A problem said to be fixed: "Edit: The 300B loading issue is now fixed", "The wizards at Unsloth
 * seem to have fixed the tool-calling issues…", "The project solves existing issues in audio
 * generation…", "after all the problems with the support have been resolved". The problem words
 * are there, the problem is not. Not when the fix is denied ("a bug which is not fixed yet",
 * "couldn't fix it", "I haven't found a way to fix it"). Of the export backfill's pains it takes
 * 9, 2 of them labelled pains by both annotators, against 7 and 7 of 10 pains drawn at random
 * (test/fixtures/quality/fixed-problems-2026-11-27/). Of the 1,603 labelled comment and
 * brief-lead sentences it takes 3, one a pain ("It had terrible errors while making arithmetic
 * computations, problem that has long been solved in llms": solved elsewhere, not for its writer).
 */
const REPORTED_FIXED = new RegExp(
  [
    /\b(?:is|are|was|were|been|got|gets|get)\s+(?:now\s+|finally\s+|already\s+|mostly\s+|all\s+|since\s+)?(?:fixed|resolved|solved|patched|addressed)\b/.source,
    /\b(?:have|has|had)\s+(?:now\s+|finally\s+|already\s+)?(?:fixed|resolved|solved|patched)\b/.source,
    /\b(?:fixes|solves|resolves)\s+(?:the\s+|this\s+|these\s+|existing\s+|a\s+|all\s+)?(?:\w+\s+){0,2}(?:issues?|problems?|bugs?|errors?)\b/.source,
  ].join('|'),
  'i',
);
const FIX_DENIED = /\b(?:not|never|no one|nobody|yet to|cannot|\w+n['’]t)\s[^.]{0,25}\b(?:fixed|resolved|solved|patched|addressed|fix|solve)/i;

/** The sentence says its problem was fixed (see REPORTED_FIXED): it is no pain, whatever its other words. */
export function reportsFixed(sentence: string): boolean {
  return REPORTED_FIXED.test(sentence) && !FIX_DENIED.test(sentence);
}

/**
 * A problem its writer has put behind them, said in the same sentence: "I've had similar issues in
 * the past, but I've migrated to a metadata embedding", "after repeated issues with generation…,
 * but I moved over to LM Studio and it has been a breeze", "I always had a hard time cloning my
 * voice with eleven lab, but this model actually done a good job", "I couldn't find a basic guide
 * so I decided to create one", "I used to have issues when…". Read alone such a sentence is a pain
 * (two annotators labelled 11 of the 13 an export backfill holds a pain: docs/quality.md, "Problems
 * the writer got past lead last"), so it stays one; but as a brief's lead it tells of a problem nobody has
 * now: such leads were 5 of 60 random daily items, each a bad move to both annotators. The brief
 * lets them lead last (brief.ts `leadOf`). Only after "but", "so", "until" or "now", and only when
 * what follows voices no problem of its own ("…but I switched to vLLM and it crashes too" still
 * leads).
 */
const OVERCOME = new RegExp(
  `\\b(?:but|so|until|now)\\s*,?\\s+(?:${[
    // Until they found what works: "I struggled with it for a week until I found your documentation page".
    /(?<=until\s+)(?:i|we)\s+(?:found|discovered|switched|moved|realized|realised|figured|upgraded|updated)\b/.source,
    // The writer moved to something else.
    /(?:i|we)(?:['’]ve| have)?\s+(?:since\s+|now\s+|just\s+|finally\s+|eventually\s+|recently\s+)?(?:migrated|moved|switched|changed|jumped)\s+(?:over\s+|back\s+)?to\b/.source,
    // What they use now is fine: "it has been a breeze", "this model actually done a good job".
    /(?:[\w'’-]+\s+){0,6}?(?:has|have)\s+been\s+(?:a\s+)?(?:breeze|great|fine|flawless|solid|perfect|smooth|amazing|excellent)\b/.source,
    /(?:[\w'’-]+\s+){0,6}?(?:did|does|done|doing|do)\s+(?:a\s+|an\s+)?(?:really\s+|very\s+|pretty\s+|much\s+)?(?:good|great|fine|decent|excellent|solid|better|amazing)\s+job\b/.source,
    // They made what they could not find.
    /(?:i|we)\s+(?:decided\s+to|ended\s+up|went\s+ahead\s+and)\s+(?:create|make|write|build|creating|making|writing|building|created|made|wrote|built)\s+(?:one|my\s+own|our\s+own)\b/.source,
  ].join('|')})`,
  'i',
);

/** The sentence says its writer got past its problem (see OVERCOME, USED_TO). */
export function overcomesProblem(sentence: string): boolean {
  const m = OVERCOME.exec(sentence);
  if (m) return !voicesProblem(sentence.slice(m.index));
  return usedToHave(sentence);
}

/**
 * "I used to have issues when the server is limiting to anything lower than 8k context", "it used
 * to crash ingame and cause artifacts so I bought my current 6750XT": the problem is in the clause
 * "used to" opens, and nothing before it or after its "but", "so", "however", "now" or "then"
 * voices one ("It used to be so great but now the quality has been very bad" does).
 */
function usedToHave(sentence: string): boolean {
  const m = USED_TO.exec(sentence);
  if (!m) return false;
  const opens = m.index + m[0].length;
  const turn = TURN.exec(sentence.slice(opens));
  const ends = turn ? opens + turn.index : sentence.length;
  return voicesProblem(sentence.slice(m.index, ends)) && !voicesProblem(sentence.slice(0, m.index)) && !voicesProblem(sentence.slice(ends));
}

const USED_TO = /\b(?:i|we|it|they|this|that|he|she)\s+used\s+to\s+/i;
const TURN = /\b(?:but|so|however|now|then|until)\b|;/i;

/**
 * Any cue in the text, whatever its score (a clause's words, for the checks above). Padded because
 * `readCues` passes over sentences under 20 characters, and a clause ("so I bought one") may be one.
 */
function voicesProblem(text: string): boolean {
  return text.trim().length > 0 && readCues(tag(text), text.padEnd(20)) !== undefined;
}

/**
 * A leak told as news: "the leaked LLaMA 1 models", "a leaked version of Kimi K2", "LEAK: How
 * OpenAI came up with…", "early Llama info leaks". In r/LocalLLaMA a leak is more often a
 * disclosure than something escaping, and none of the 12 labelled comment and brief-lead
 * sentences that speak of one is a pain (fixtures/training/comment-pains.json and both
 * brief-leads fixtures); the 2 labelled pain quotes with a leak say what escapes ("data leaks to
 * cloud", "it's leaking the chat formatting"). A sentence that names what leaks next to it is
 * left to the model (`LEAKING_THING`): "VRAM leaking", "memory leak", "leaks private data", and
 * "the leaked system prompt", which may be either.
 */
const LEAK_NEWS = new RegExp(
  [
    // "leaked" before what was leaked, after a determiner ("the leaked LLaMA 1 models", "a leaked version").
    /\b(?:the|a|an|this|that|these|those|their|its|his|her|our)\s+(?:\w+\s+)?leaked\s+(?!(?:to|into|from|out|through|over)\b)[\w"“]/.source,
    /^leaked\s+\w/.source,
    /^leaks?\s*:/.source,
    // "the leak", "some of the leaks", "info leaks", "a source code leak".
    /\b(?:the|these|those|recent|latest|alleged|supposed|info|information|source code|early)\s+leaks?\b/.source,
  ].join('|'),
  'i',
);
const LEAKING_THING = /\b(?:memory|vram|ram|data|template|token|tokens|prompt|formatting)\s+leak|\bleak(?:s|ing|ed)?\s+(?:the\s+|my\s+|your\s+|its\s+|it'?s\s+)?(?:memory|vram|ram|data|private|personal|template|system prompt|formatting|tokens?)\b/i;

/**
 * The sentence's only problem is a leak told as news (see LEAK_NEWS): no pain, whatever the model
 * makes of "leak". A sentence that still voices a problem read without its leak words ("the leaked
 * model is terrible") is read as usual.
 */
export function leakAsNews(tokens: readonly Token[], sentence: string): boolean {
  if (!LEAK_NEWS.test(sentence) || LEAKING_THING.test(sentence)) return false;
  const withoutLeak = tokens.filter((t) => t.lemma !== 'leak');
  return withoutLeak.length < tokens.length && readCues(withoutLeak, sentence) === undefined;
}

/** "Can't wait to try it": eagerness, though its negation and "try"/"run" read like a failure. */
const EAGERNESS = /\b(?:can(?:no|['’])?t|can not) wait (?:to|for|till|until)\b/i;
const WELL_WISHING = /\b(?:good luck|best of luck|best wishes|thanks?(?: you)?(?: so much)?(?: in advance)?\b|congrat\w*|hope (?:this|that|it) helps|cheers)\b/i;
const JOKE = /\b(?:lol|lmao|rofl|haha\w*|jk)\b|\/s\b|😂|🤣/i;
const SURVEY = /^(?:so,? )?(?:have|do|did|are|were|would|will) you\b|^(?:what|which|how) (?:are|is|do|did|was|were) (?:your|you)\b|^what(?:'s| is| are) (?:the |your )?(?:most|biggest|main|worst)\b|^(?:has|have) (?:anyone|anybody)\b(?!.*\b(?:else|too|also)\b)/i;
const ADVICE = /^(?:you (?:should|could|can|might|need|have to|must|'ll|will|want)|i(?:'d| would)? (?:recommend|suggest)|(?:try|make sure|consider|check|just use|use|avoid|don't|do not|set|install|run|look (?:at|into)|read|go with)\b)/i;
const HOW_TO =
  /^(?:so,? |hey,? |hi,? |ok,? |also,? |and )?(?:how (?:do|can|should|would|could|to|does one)\b|is (?:there|it possible)\b.*\b(?:way|option|tool|setting)\b|what(?:'s| is) the (?:best|easiest|fastest|right|proper|recommended) way\b|any (?:tips|advice|ideas|suggestions|recommendations)\b|can (?:someone|anyone|you) (?:explain|help|tell|point)\b|where (?:can|do|should) (?:i|we)\b|what (?:should|can|do) (?:i|we) (?:do|use|try)\b)/i;
/** A clause that only supposes: "if you have issues…", "even if the model doesn't fit…". */
const CONDITIONALS = new Set(['if', 'unless', 'whenever', 'case']);

/**
 * A cheap test that a sentence MAY be a pain or a how-to question, so that the many sentences
 * that cannot be are never tagged. Built from the same word lists as the reader (every cue lemma,
 * function and blocked verb, negator, and the special cues of cueAt), matched as word prefixes so
 * inflections pass; it may pass sentences readPain then rejects, never the other way round.
 */
export const PAIN_HINT = new RegExp(
  `n['’]t|(?:^|[^\\p{L}])(?:${[
    ...CUE_LEMMAS.keys(),
    ...NEGATORS,
    ...BLOCKERS,
    ...NEGATED_ADJECTIVES,
    ...RESOURCE_NOUNS,
    "n't",
    'n’t',
    'cannot',
    'wish',
    'miss',
    'lost',
    'tried',
    'try',
    'afford',
    'forever',
    'waste',
    'cost',
    'price',
    'hard',
    'high',
    'huge',
    'how',
    'way',
  ]
    .map((w) => prefixOf(w))
    .join('|')})`,
  'iu',
);

/** The part of a word its inflections share: "waste" → "wast" (wasting), "frustrate" → "frustra". */
function prefixOf(word: string): string {
  const stem = word.length > 3 ? word.replace(/e$/, '') : word;
  return escapeRegExp(stem.length > 5 ? stem.slice(0, stem.length - 2) : stem);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function words(list: string, cue: Cue): [string, Cue][] {
  return list.split(' ').map((w) => [w, cue]);
}

export function isHowTo(sentence: string): boolean {
  const s = sentence.trim();
  // The question may follow what prompted it: "Responses keep looping - how do I stop it?"
  const asked = s.split(/\s[-–—]\s|[,;:]\s/).map((part) => part.trim());
  return (s.endsWith('?') && asked.some((part) => HOW_TO.test(part))) || /^how to\b/i.test(s);
}

/** A word that voices a problem by itself ("trouble", "crashes"), whatever its context. */
export function isCue(t: Token): boolean {
  return CUE_LEMMAS.has(t.lemma) || CUE_LEMMAS.has(t.lower);
}

/** The sentence's pain reading, or undefined when it voices no problem of the writer's. */
export function readPain(tokens: readonly Token[], sentence: string): PainReading | undefined {
  const reading = readCues(tokens, sentence);
  return rulesSayPain(reading) ? reading : undefined;
}

/** The rules' own verdict on a cue reading: it reaches PAIN_THRESHOLD. */
export function rulesSayPain(reading: PainReading | undefined): reading is PainReading {
  return reading !== undefined && reading.score >= PAIN_THRESHOLD;
}

/**
 * What the sentence's cues say, whatever their score: undefined when it has no cue (or is a
 * relief). The pain model weighs this reading with the rest of the sentence (pain-model.ts).
 */
export function readCues(tokens: readonly Token[], sentence: string, negation: NegationScope = negatedBefore): PainReading | undefined {
  if (sentence.length < 20 || RELIEF.test(sentence) || EAGERNESS.test(sentence)) return undefined;
  // Markdown emphasis ("**most frustrating**") must not hide a sentence's shape from the patterns.
  const plain = sentence.replace(/[*_`~]+/g, '').trim();
  let best: { weight: number; kind: PainKind; at: number } | undefined;
  let precise: { weight: number; kind: PainKind; at: number } | undefined;
  let cues = 0;
  for (let i = 0; i < tokens.length; i++) {
    const cue = cueAt(tokens, i, negation);
    if (!cue) continue;
    cues += 1;
    const weight = cue[1] + (INTENSIFIERS.has(tokens[i - 1]?.lower ?? '') ? 0.5 : 0);
    if (!best || weight > best.weight) best = { weight, kind: cue[0], at: i };
    if (!PROBLEM_LEMMAS.has(tokens[i]!.lemma) && (!precise || weight > precise.weight)) precise = { weight, kind: cue[0], at: i };
  }
  const howTo = isHowTo(sentence);
  if (!best) return undefined;

  let score = best.weight + (cues > 1 ? 0.5 : 0);
  if (tokens.some((t) => FIRST_PERSON.has(t.lower))) score += 0.5;
  // A well-wish or thanks carries pain words only in passing ("sorry for your trouble, good luck").
  if (WELL_WISHING.test(plain)) score -= best.weight < 2 ? 3 : 1;
  if (JOKE.test(plain)) score -= 0.75;
  if (plain.endsWith('?') && SURVEY.test(plain)) score -= 2;
  else if (!plain.endsWith('?') && ADVICE.test(plain)) score -= 1.5;
  if (inConditional(tokens, best.at)) score -= 1.5;
  // "What models can't I run?": an inverted question asks, it does not report a failure.
  if (plain.endsWith('?') && invertedNegation(tokens, best.at)) score -= 2;
  const reading: PainReading = { score, kind: best.kind, cue: best.at, howTo };
  if (PROBLEM_LEMMAS.has(tokens[best.at]!.lemma) && precise && precise.weight >= best.weight) reading.precise = { kind: precise.kind, cue: precise.at };
  return reading;
}

/** Nouns that say there is a problem, not which kind. */
const PROBLEM_LEMMAS = new Set(['problem', 'issue']);

/** The reading's cue is a bare "problem" or "issue" with no more precise cue beside it ("having issues with LM Studio"). */
export function bareProblem(tokens: readonly Token[], reading: PainReading): boolean {
  return reading.precise === undefined && PROBLEM_LEMMAS.has(tokens[reading.cue]?.lemma ?? '');
}

/** The cue token i carries, if any, after negation, avoidance and part-of-speech checks. */
function cueAt(tokens: readonly Token[], i: number, negation: NegationScope): Cue | undefined {
  const t = tokens[i]!;
  if (t.type !== 'word') return undefined;
  const lemma = t.lemma;

  if (t.pos === 'VERB' || t.pos === 'AUX') {
    // "doesn't work", "won't load", "never loads", "unable to start", "refuses to run".
    if (FUNCTION_VERBS.has(lemma) && (negation(tokens, i, 3) || blockedBefore(tokens, i))) return ['failure', 2];
    // "can't figure out", "couldn't get it to" — not "not made for", "can't tell".
    if (BLOCKED_VERBS.has(lemma) && negatedBefore(tokens, i, 2) && CAN.has(tokens[i - 2]?.lower ?? tokens[i - 1]?.lower ?? '')) return ['difficulty', 2];
    // "one thing I miss from ChatGPT is…".
    if (lemma === 'miss' && tokens[i - 1]?.lower === 'i') return ['missing', 2];
    // "I tried the new image but I got…": an attempt that went wrong.
    if (lemma === 'try' && tokens[i - 1]?.lower === 'i' && tokens.slice(i + 1).some((x) => x.lower === 'but')) return ['failure', 1.5];
  }
  if (NEGATED_ADJECTIVES.has(lemma) && t.pos === 'ADJ' && negatedBefore(tokens, i, 3)) return ['missing', 2];
  if ((lemma === 'high' || lemma === 'huge') && (RESOURCE_NOUNS.has(tokens[i + 1]?.lower ?? '') || RESOURCE_NOUNS.has(tokens[i + 2]?.lower ?? ''))) return ['cost', 2];
  if (t.lower === 'lost' && ['am', "'m", '’m', 'bit', 'so', 'completely', 'totally', 'little', 'feel'].includes(tokens[i - 1]?.lower ?? '')) return ['difficulty', 2];
  if (lemma === 'afford' && negatedBefore(tokens, i, 3)) return ['cost', 2];
  if (lemma === 'wish') return wishCue(tokens, i);
  if ((lemma === 'cost' || lemma === 'price') && costTooHigh(tokens, i)) return ['cost', 2];
  if (lemma === 'forever' && tokens.slice(Math.max(0, i - 3), i).some((x) => x.lemma === 'take')) return ['speed', 2];
  if (lemma === 'waste' && (tokens[i + 1]?.lower === 'of' || t.pos === 'VERB')) return ['frustration', 2];

  const cue = CUE_LEMMAS.get(lemma) ?? CUE_LEMMAS.get(t.lower);
  if (!cue) return undefined;
  // "take a break", "the bug bounty": nouns that name no problem are checked by their neighbours.
  if (lemma === 'missing' && (tokens[i + 1]?.lower === 'something' || tokens[i + 1]?.lower === 'out')) return undefined;
  if (lemma === 'problem' || lemma === 'issue') return problemHeld(tokens, i) ? ['difficulty', 2] : ['difficulty', 1];
  if ((lemma === 'hard' || lemma === 'difficult' || lemma === 'tough') && (tokens[i + 1]?.lower === 'to' || tokens[i + 1]?.lower === 'time')) return ['difficulty', 2];
  if (lemma === 'slow' || lemma === 'slower') return slowCue(tokens, i, cue);
  if (negatedBefore(tokens, i, 3) || avoidedBefore(tokens, i)) return undefined;
  return cue;
}

/** "I wish it could…", "wish there was…" — not "I wish you the best". */
function wishCue(tokens: readonly Token[], i: number): Cue | undefined {
  const next = tokens[i + 1]?.lower;
  if (next === undefined || next === 'you' || next === 'everyone' || next === 'all' || next === 'him' || next === 'her' || next === 'them' || next === 'luck') return undefined;
  return ['missing', 2];
}

/** "the costs are just too much", "price is insane", "costs rack up". */
function costTooHigh(tokens: readonly Token[], i: number): boolean {
  return tokens.slice(i + 1, i + 6).some((x) => ['too', 'insane', 'high', 'rack', 'steep', 'ridiculous', 'absurd', 'outrageous'].includes(x.lower));
}

/** "having issues", "the problem is", "problems with", "run into a problem" — not "no problem", "math problem". */
function problemHeld(tokens: readonly Token[], i: number): boolean {
  if (negatedBefore(tokens, i, 2)) return false;
  const before = tokens.slice(Math.max(0, i - 3), i).map((x) => x.lemma);
  const after = tokens[i + 1]?.lower;
  return (
    before.some((l) => ['have', 'face', 'hit', 'encounter', 'get', 'into', 'experience', 'same', 'main', 'biggest', 'only', 'real', 'weird', 'serious', 'major', 'big', 'annoying', 'persistent'].includes(l)) ||
    after === 'with' || after === 'is' || after === 'was' || after === 'of' || after === 'when'
  );
}

/** "too slow", "painfully slow", "9x slower", "slow as hell": slowness that bites; a bare "slow" is weaker. */
function slowCue(tokens: readonly Token[], i: number, cue: Cue): Cue | undefined {
  if (negatedBefore(tokens, i, 2) || avoidedBefore(tokens, i)) return undefined;
  const before = tokens[i - 1];
  if (before && (INTENSIFIERS.has(before.lower) || /^\d+(?:\.\d+)?x$/i.test(before.lower))) return ['speed', 2];
  return cue;
}

function negatedBefore(tokens: readonly Token[], i: number, window: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - window); j--) {
    const t = tokens[j]!;
    if (t.type === 'punctuation') return false;
    if (NEGATORS.has(t.lower)) return true;
  }
  return false;
}

/** Whether a negation within `window` tokens before token i reaches it. */
type NegationScope = (tokens: readonly Token[], i: number, window: number) => boolean;

/**
 * Whether the negation before token i is about it and not about a verb between them: "I haven't
 * added tool calling yet", "I couldn't dream of running a 235b model" deny the adding and the
 * dreaming; nothing failed. Verbs that only lead on to the next one pass the negation on ("doesn't
 * seem to work", "couldn't make it work", "won't let me run it").
 */
function negationOfItsOwn(tokens: readonly Token[], i: number, window: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - window); j--) {
    const t = tokens[j]!;
    if (t.type === 'punctuation') return false;
    if (NEGATORS.has(t.lower)) return true;
    // "Nothing I build works": a negated subject reaches its verb across a relative clause.
    if (t.pos === 'VERB' && !LEADING_VERBS.has(t.lemma) && verbNegatedBefore(tokens, j)) return false;
  }
  return false;
}

/** Whether the word before verb j (or the one before that) negates a verb: "not", "never", "n't". */
function verbNegatedBefore(tokens: readonly Token[], j: number): boolean {
  return [tokens[j - 1], tokens[j - 2]].some((t) => t !== undefined && VERB_NEGATORS.has(t.lower));
}

const VERB_NEGATORS = new Set(['not', "n't", 'n’t', 'never', 'cannot', 'hardly', 'barely']);

/**
 * Verbs that hand a negation on to the verb after them: "doesn't seem to load", "can't get it to
 * run", and the verbs of opinion whose negation is the clause's ("I don't think it works at all
 * in Windows": it does not work).
 */
const LEADING_VERBS = new Set('seem appear want try manage bother need let make help get go think believe expect suppose guess imagine'.split(' '));

/**
 * Confusing one thing with another: "Ah, I confused it with K2", "some people confuse analyzing
 * video with analyzing frames", "He probably confused it with LM Studio". Someone mixed two things
 * up; nobody is stuck, and the plain guide such a quote got ("Write the plain guide to LM Studio",
 * the lead of the demo's newest brief) answers nothing. A thing that "gets confused with
 * background noise" (failing) and a writer "confused by" something (stuck) are read as before. Of
 * the export backfill's pains, 5 of the 9 with "confuse … with" were such mix-ups. A sentence that
 * still voices a problem read without them is read as usual.
 */
export function mistakesOneForAnother(tokens: readonly Token[], sentence: string): boolean {
  const mixUps = new Set<number>();
  for (let i = 0; i < tokens.length; i++) if (mixUp(tokens, i)) mixUps.add(i);
  return mixUps.size > 0 && readCues(tokens.filter((_, i) => !mixUps.has(i)), sentence) === undefined;
}

/** "confused it with", "confuse analyzing video with": an object, then "with", in one clause; not "get/is confused with". */
function mixUp(tokens: readonly Token[], i: number): boolean {
  if (!/^confus(?:e|ed|es|ing)$/.test(tokens[i]!.lower)) return false;
  // Past its adverbs: "was so confused it stopped…" is a state.
  if (STATE_VERBS.has(beforeAdverbs(tokens, i)?.lemma ?? '')) return false;
  const object = tokens[i + 1];
  if (object === undefined || object.type === 'punctuation' || object.pos === 'ADP') return false;
  for (let j = i + 2; j < Math.min(tokens.length, i + 6); j++) {
    if (tokens[j]!.lower === 'with') return true;
    if (tokens[j]!.type === 'punctuation') return false;
  }
  return false;
}

/** Verbs before "confused" that make it a state, not a mix-up: "gets confused with", "was confused with". */
const STATE_VERBS = new Set(['be', 'get', 'seem', 'become', 'look', 'feel', 'appear']);

/**
 * The sentence's only problem is a function verb whose negation belongs to another verb (see
 * `negationOfItsOwn`): "I couldn't dream of running a 235b model right now but the GPT-OSS did
 * run…", "I haven't added tool calling to it yet", "I don't have experience running LLMs on a
 * smartphone". The pain model learned from the plain reading (a negation within three words), so
 * it reads these as failures; among the 1,603 comment and brief-lead sentences labelled blind
 * (fixtures/training/comment-pains.json, both brief-leads fixtures) the 5 whose every cue goes
 * with the narrower reading are no pains, all 5 (labels made before the rule). So it decides
 * alone, after the model, as a denial does (docs/quality.md, "Negations of another verb").
 */
export function negatesAnotherVerb(tokens: readonly Token[], sentence: string): boolean {
  return readCues(tokens, sentence) !== undefined && readCues(tokens, sentence, negationOfItsOwn) === undefined;
}

function avoidedBefore(tokens: readonly Token[], i: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - 5); j--) {
    const t = tokens[j]!;
    if (t.type === 'punctuation') return false;
    if (AVOIDERS.has(t.lower) || AVOIDERS.has(t.lemma)) return true;
  }
  return false;
}

/** "unable to load", "fails to start", "refused to run", "struggling to get". */
function blockedBefore(tokens: readonly Token[], i: number): boolean {
  const to = tokens[i - 1];
  const blocker = tokens[i - 2];
  return to?.lower === 'to' && blocker !== undefined && BLOCKERS.has(blocker.lemma);
}

/** Token i sits in a clause that opens with "if", "unless", "in case", "whenever" (up to its comma). */
function inConditional(tokens: readonly Token[], i: number): boolean {
  for (let j = i - 1; j >= 0; j--) {
    const t = tokens[j]!;
    if (t.text === ',' || t.text === ';' || t.text === ':' || t.text === '(' || t.text === ')') return false;
    if (CONDITIONALS.has(t.lower) && (t.lower !== 'case' || tokens[j - 1]?.lower === 'in')) return true;
  }
  return false;
}

/** "can't I run", "doesn't it support": a negated auxiliary followed by its subject. */
function invertedNegation(tokens: readonly Token[], i: number): boolean {
  for (let j = Math.max(1, i - 4); j < i; j++) {
    const t = tokens[j]!;
    if ((t.lower === "n't" || t.lower === 'n’t') && tokens[j + 1]?.pos === 'PRON') return true;
  }
  return false;
}
