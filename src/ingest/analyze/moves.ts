/**
 * What to do about a pain (DESIGN §8.4): a move that fits it. A how-to question gets an answer
 * or a guide; a failure a fix, and so does a thing said to get stuck or be flaky (a difficulty is
 * the writer's), and a bare "problem" or "issue" (in the writer's word: a
 * sentence that says which kind of problem gets that kind's move, pain.ts `precise`); slowness
 * measured numbers; a price complaint a pricing move; a missing capability a roadmap move (and
 * something not supported a workaround, not a fix; hardware too small what runs where);
 * confusion a plain walkthrough (a choice
 * between many options, a side-by-side of them); a concern a straight answer; a complaint that
 * says what is bad a side-by-side on that (move-aspect.ts); frustration with a named product a
 * positioning move. Each move uses the pain's own subject (the product or the
 * noun phrase it is about) and its words, never one template for all.
 *
 * `content` is always there (what to write or reply); `pricing`, `roadmap` and `position` are
 * added when the pain calls for them.
 */
import type { Move, Moves } from './analyzer.ts';
import type { PainKind, PainReading } from './pain.ts';
import { namedProducts, subjectBefore, subjectFor, subjectOf, subjectPlace, threadNamed, threadWords, type ThingFailing } from './move-subject.ts';
import { complaintAspect } from './move-aspect.ts';
import { memoryAmount, outgrownHardware } from './move-hardware.ts';
import { choiceOf, difficultTask, taskOf } from './move-task.ts';
import { beforeAdverbs, type Token } from './nlp.ts';
import { bareProblem } from './pain.ts';
import { clip } from './text.ts';

export interface MoveContext {
  tokens: readonly Token[];
  sentence: string;
  reading: PainReading;
  /** Products the sentence names (tracked spellings). */
  products: readonly string[];
  community: string;
  /** The project's product name ('' when unknown). */
  project: string;
  /** The title of the sentence's thread, when known: what its other names are weighed against (see `threadNamed`). */
  threadTitle?: string;
}

/**
 * A subject that names the failure itself: by its last word ("request failures", "OOM errors"), or
 * by its first ("error loading model", "error code 1"): "Write the fix for error loading model
 * failing" says it twice.
 */
const NAMES_A_FAILURE = /\b(?:failures?|failing|errors?|crash(?:es)?|bugs?|issues?|problems?|outages?|leaks?|timeouts?)$|^(?:failures?|errors?|crash(?:es)?|bugs?|issues?|problems?|outages?|timeouts?)\b/i;

export function movesFor(given: MoveContext): Moves {
  // A move answers the kind of problem the sentence names, not its bare "problem" (pain.ts `precise`).
  const precise = given.reading.precise;
  const read = precise ? { ...given, reading: { ...given.reading, kind: precise.kind, cue: precise.cue } } : given;
  const failing = thingFails(read);
  const kind = failing ? 'failure' : (negatedAdjectiveKind(read) ?? judgedNotFound(read));
  const ctx = kind ? { ...read, reading: { ...read.reading, kind } } : read;
  // A reply names several things ("I tried llama-cpp, langchain and ollama but the function call
  // success rate was disappointing"); the one its thread is about is the one the move should be about.
  const named = namedProducts(ctx);
  const inTitle = threadWords(ctx.threadTitle);
  const product = named.find((p) => threadNamed(inTitle, p)) ?? named[0];
  // No subject (only pronouns or vague words): the move speaks of "it", the quote above it.
  const subject = product ?? subjectFor(ctx, failing);
  const said = inQuotes(ctx.sentence);
  const where = placeOf(ctx.community);
  const us = ours(ctx.project);
  if (ctx.reading.howTo) {
    const task = taskOf(ctx.sentence);
    return {
      content: {
        title: task ? `Publish a how-to: ${task}` : subject ? `Answer the question about ${subject}` : 'Answer the question, then publish the answer',
        body: `Asked in ${where}: ${said} Answer in the thread with the steps that work, then turn the answer into a guide${task ? ` titled “How to ${task}”` : subject ? ` on ${subject}` : ''} so the next person who searches for it lands on you.`,
      },
    };
  }
  const searching = FIND_BLOCKED.test(ctx.sentence);
  if (unsupported(ctx)) return supportMoves(ctx, product, said, where, us);
  if (ctx.reading.kind === 'failure' && !failing && outgrownHardware(ctx.tokens, ctx.reading.cue, ctx.sentence)) return { content: hardwareMove(memoryAmount(ctx.sentence), said, where) };
  const task = ctx.reading.kind === 'difficulty' && !searching ? difficultTask(ctx.sentence) : undefined;
  const choosing = ctx.reading.kind === 'difficulty' && !task && !searching ? choiceOf(ctx.sentence) : undefined;
  const aspect = ctx.reading.kind === 'frustration' ? complaintAspect(ctx.tokens, ctx.reading.cue) : undefined;
  const moves: Moves = {
    content: task
      ? taskMove(task, said, where)
      : choosing !== undefined
        ? choiceMove(choosing, said, where)
        : searching
        ? findMove(product, said, where)
        : bareProblem(ctx.tokens, ctx.reading)
          ? issueMove(subject, said, where, us)
          : aspect
            ? aspectMove(product ?? ownerOf(subject, aspect), aspect, said, where, us)
            : contentMove(ctx.reading.kind, subject, said, where, us, ctx.reading.kind === 'failure' ? symptomOf(ctx, failing) : undefined),
  };
  if (ctx.reading.kind === 'cost') {
    moves.pricing = {
      title: subject ? `Make the price of ${subject} easy to compare` : 'Make your price easy to compare',
      body: `${said} People here weigh what ${subject ?? 'it'} ${costs(subject)}. Show what the same job costs with ${us}, with a worked example in their numbers, and say who it is not worth it for.`,
    };
  }
  if (ctx.reading.kind === 'missing') moves.roadmap = roadmapMove(subject, said, us);
  // Not finding something about a product is not the product falling short ("couldn't find a TTS
  // engine as good as Kokoro" praises Kokoro).
  if (product && !searching && (ctx.reading.kind === 'failure' || ctx.reading.kind === 'frustration' || ctx.reading.kind === 'speed' || ctx.reading.kind === 'missing')) {
    moves.position = positionMove(product, said, us);
  }
  return moves;
}

/**
 * A difficulty is the writer's: they are stuck, confused, struggling, and a plain walkthrough
 * answers them (DESIGN §8.4). The same words said of a thing are that thing failing: "the unsloth
 * quantizations seem to get stuck in a thinking loop", "when kimi gets stuck", "my 32GB macbook
 * even struggles to run 14B models", "llama.cpp seems flaky at best", "Qwen was confused when drawing
 * bounding boxes", "it gets confused with background noise". A guide to the thing answers
 * nobody ("Write the plain guide to unsloth quantizations"); a fix does. Said of a person ("I'm
 * stuck on…", "beginners struggle with…") or of "they" (people as often as models), it stays the
 * writer's difficulty.
 */
function thingFails(ctx: MoveContext): ThingFailing | undefined {
  if (ctx.reading.kind !== 'difficulty') return undefined;
  const cue = ctx.tokens[ctx.reading.cue];
  if (!cue) return undefined;
  if (UNRELIABLE.has(cue.lemma) || UNRELIABLE.has(cue.lower)) return 'unreliable';
  if (cue.lemma !== 'struggle' && cue.lower !== 'stuck' && cue.lower !== 'confused') return undefined;
  // "the parts that stuck with me", "it stuck in my mind": remembered, not stuck.
  if (cue.lower === 'stuck' && /^(?:with|in)$/.test(ctx.tokens[ctx.reading.cue + 1]?.lower ?? '') && /^(?:me|my|us|our)$/.test(ctx.tokens[ctx.reading.cue + 2]?.lower ?? '')) return undefined;
  // "Qwen was confused", "it gets very confused": a state the thing is in; "it confused me" and "a
  // bit confused by Jamba" are the writer's.
  if (cue.lower === 'confused' && !linked(ctx.tokens, ctx.reading.cue)) return undefined;
  const subject = subjectBefore(ctx.tokens, subjectPlace(ctx.tokens, ctx.reading.cue));
  const thing = subject !== undefined && (subject.pos === 'NOUN' || subject.pos === 'PROPN' || (subject.pos === 'PRON' && THING_PRONOUNS.has(subject.lower)));
  return thing && !PERSONS.has(subject.lemma) && !PERSONS.has(subject.lower.replace(/’/g, "'")) ? 'subject' : undefined;
}

/** A form of "be", "get" or "seem" stands right before the word at `at`, past adverbs: "was confused", "gets very confused". */
function linked(tokens: readonly Token[], at: number): boolean {
  const before = beforeAdverbs(tokens, at);
  return before !== undefined && (before.pos === 'AUX' || BEFORE_VERB_LINKS.has(before.lemma));
}

const BEFORE_VERB_LINKS = new Set(['be', 'get', 'seem', 'become', 'look']);

/**
 * How a failure shows, as a fix's title says it of its subject: "Write the fix for LM Studio
 * crashing", "…for vLLM throwing errors", "…for Qwen3 hallucinating", "…for the server not
 * loading". "Failing" said only that something went wrong, and annotators called such fixes generic
 * more than any other remark (docs/quality.md, "Fixes that say the symptom"). Read from the cue: a
 * failure word ("crash", "hallucination"), a function verb that is negated or blocked ("doesn't
 * load", "unable to start"), or a thing that gets stuck (`thingFails`). Undefined for the rest
 * ("fails", "bug", "broken"), which "failing" says as well as anything.
 */
function symptomOf(ctx: MoveContext, failing: ThingFailing | undefined): Symptom | undefined {
  const cue = ctx.tokens[ctx.reading.cue];
  if (!cue) return undefined;
  if (failing) return cue.lower === 'stuck' ? 'getting stuck' : undefined;
  const word = FAILURE_SYMPTOMS.get(cue.lemma) ?? FAILURE_SYMPTOMS.get(cue.lower);
  if (word) return symptomSaid(word, cue, ctx.sentence) ? word : undefined;
  return cue.pos === 'VERB' || cue.pos === 'AUX' ? STOPPED_VERBS.get(cue.lemma) : undefined;
}

/**
 * Whether the sentence uses the failure word for that symptom: errors a program throws or shows
 * ("getting errors", "an error message"), not mistakes ("so many grammatical errors", "my
 * calculator makes errors"); garbage, nonsense or gibberish that is output ("spitting out
 * garbage", "it adds garbage"), not "the same nonsense people were saying"; a program that
 * freezes, not "the frozen VAE decoder" or "supply is frozen".
 */
function symptomSaid(symptom: Symptom, cue: Token, sentence: string): boolean {
  if (symptom === 'throwing errors') return ERRORS_SHOWN.test(sentence);
  if (symptom.startsWith('producing')) return OUTPUT_VERBS.test(sentence);
  if (symptom === 'freezing') return cue.lower !== 'frozen';
  return true;
}

const ERRORS_SHOWN = /\b(?:get(?:s|ting)?|got|throw(?:s|ing|n)?|threw|gives?|gave|giving|show(?:s|ing|ed|n)?|return(?:s|ing|ed)?|hit(?:s|ting)?|spit\w*|raise[sd]?|(?:run|ran|running) into)\s+(?:[\w-]+\s+){0,3}errors?\b|\berrors?\s*(?::|message|code)/i;
const OUTPUT_VERBS = /\b(?:spit\w*|outputs?|outputted|outputting|produc\w*|generat\w*|gives?|gave|giving|returns?|returned|returning|writes?|wrote|writing|adds?|added|adding|responds?|responded|replies|replied|answers?|answered|prints?|printed|comes? out|came out)\b/i;

/** Failure words and the symptom each says. */
const FAILURE_SYMPTOMS: ReadonlyMap<string, Symptom> = new Map([
  ['crash', 'crashing'],
  ['segfault', 'crashing'],
  ['freeze', 'freezing'],
  ['stall', 'stalling'],
  ['timeout', 'timing out'],
  ['error', 'throwing errors'],
  ['exception', 'throwing errors'],
  ['hallucinate', 'hallucinating'],
  ['hallucination', 'hallucinating'],
  ['gibberish', 'producing gibberish'],
  ['garbage', 'producing garbage'],
  ['nonsense', 'producing nonsense'],
  ['oom', 'running out of memory'],
]);

/** Function verbs that, negated or blocked, say what no longer happens: "doesn't load" → "not loading". */
const STOPPED_VERBS: ReadonlyMap<string, Symptom> = new Map([
  ['work', 'not working'],
  ['load', 'not loading'],
  ['start', 'not starting'],
  ['open', 'not opening'],
  ['connect', 'not connecting'],
  ['respond', 'not responding'],
  ['install', 'not installing'],
  ['compile', 'not compiling'],
  ['boot', 'not booting'],
  ['launch', 'not launching'],
]);

/** A subject that already names a symptom ("garbage characters", "causes hallucinations") is not said to produce it again. */
function saysSymptom(subject: string): boolean {
  return /\b(?:garbage|nonsense|gibberish|hallucinat\w*|errors?|crash\w*|freez\w*|stuck|memory)\b/i.test(subject);
}

type Symptom = 'crashing' | 'freezing' | 'stalling' | 'timing out' | 'throwing errors' | 'hallucinating' | 'producing gibberish' | 'producing garbage' | 'producing nonsense' | 'running out of memory' | 'getting stuck' | `not ${string}`;

/** Every symptom a fix's title may say: how a title is read back (`moveSubject`). */
const SYMPTOMS: ReadonlySet<Symptom> = new Set<Symptom>([...FAILURE_SYMPTOMS.values(), ...STOPPED_VERBS.values(), 'getting stuck']);

/**
 * pain.ts reads a negated quality ("not usable", "not clear", "not worth it") as something
 * missing, which the pain model was trained on, so it stays; but the move answers what the writer
 * lacks: "Show a way to get it today" fits "not ready for production", not "it's not really usable"
 * (it fails: a fix), "the docs are not clear" (confusion: a plain guide) or "not worth the
 * headache" (a judgement: an answer to the complaint).
 */
function negatedAdjectiveKind(ctx: MoveContext): PainKind | undefined {
  if (ctx.reading.kind !== 'missing') return undefined;
  const cue = ctx.tokens[ctx.reading.cue];
  return cue?.pos === 'ADJ' ? NEGATED_QUALITY_KINDS.get(cue.lemma) : undefined;
}

/**
 * "I haven't found GPT OSS to really be close to the best", "I don't find 7b models very useful",
 * "never found llama.cpp to be all that great": a negated "find" is a failure to pain.ts (the pain
 * model was trained on that reading, so it stays), and a search that came up empty is something
 * people can't find (FIND_BLOCKED). What is left is a judgement: nothing broke, and "Write the fix
 * for GPT OSS failing" offers a fix nobody can write; the writer's verdict is answered as a
 * complaint.
 */
function judgedNotFound(ctx: MoveContext): PainKind | undefined {
  if (ctx.reading.kind !== 'failure' || ctx.tokens[ctx.reading.cue]?.lemma !== 'find' || FIND_BLOCKED.test(ctx.sentence)) return undefined;
  return judgedAfter(ctx.tokens, ctx.reading.cue) ? 'frustration' : undefined;
}

/**
 * After "find" at `at`, its object and then what the writer judges it: "…found llama.cpp to be all
 * that great", "…find his response very compelling", "…find the 70B was any better". An error that
 * says "not found" has no object after it, and a search names only what was looked for ("didn't
 * find a good replacement for it yet": "good" comes before its noun, not after it).
 */
function judgedAfter(tokens: readonly Token[], at: number): boolean {
  let i = at + 1;
  while (i < tokens.length && !(OBJECT_POS.has(tokens[i]!.pos) && !POSSESSIVES.has(tokens[i]!.lower))) {
    if (tokens[i]!.type === 'punctuation' || i > at + 4) return false;
    i++;
  }
  for (let j = i + 1; j < Math.min(tokens.length, i + 8); j++) {
    const t = tokens[j]!;
    // A new clause ("…found one where you can…", "…obvious articles but overall…", "…some easy
    // solution it could be…") says something else than what the object was found to be.
    if (t.type === 'punctuation' || CLAUSE_OPENERS.has(t.lower) || (t.pos === 'PRON' && SUBJECTS.has(t.lower))) return false;
    if (t.lower === 'that' && tokens[j + 1]?.pos !== 'ADJ' && tokens[j + 1]?.pos !== 'ADV') return false;
    if (t.pos === 'ADJ' || t.lemma === 'be') return true;
  }
  return false;
}

const OBJECT_POS = new Set(['NOUN', 'PROPN', 'PRON', 'NUM']);
const POSSESSIVES = new Set(['my', 'your', 'his', 'her', 'its', 'our', 'their']);
const CLAUSE_OPENERS = new Set(['where', 'which', 'who', 'when', 'how', 'what', 'if', 'but', 'because', 'so', 'although', 'though', 'while']);
const SUBJECTS = new Set(['i', 'we', 'you', 'they', 'he', 'she', 'it']);

const NEGATED_QUALITY_KINDS: ReadonlyMap<string, PainKind> = new Map([
  ['usable', 'failure'],
  ['reliable', 'failure'],
  ['stable', 'failure'],
  ['clear', 'difficulty'],
  ['worth', 'frustration'],
]);

/** What is unreliable, unstable, flaky or inconsistent is a thing, and it fails. */
const UNRELIABLE = new Set(['unreliable', 'unstable', 'flaky', 'inconsistent']);
/** Pronouns that stand for a thing ("it gets stuck in a loop"), not for the writer or other people. */
const THING_PRONOUNS = new Set(['it', 'this', 'that']);
/**
 * People, as the tagger may read them: "users struggle with…" is their difficulty, not a thing's
 * failure, and the tagger reads "I'm" and "im" as names or nouns.
 */
const PERSONS = new Set("i i'm im i've ive i'd i'll we we're we've you you're u he he's she she's they they're me us him her them".split(' ').concat('people person user users folks folk dev devs developer developers beginner beginners newbie newbies noob noobs everyone everybody someone somebody anyone anybody guy guys friend friends team customer customers client clients student students colleague colleagues boss manager wife husband partner kid kids son daughter sister brother mom dad parents op'.split(' ')));

function roadmapMove(subject: string | undefined, said: string, us: string): Move {
  return {
    title: subject ? `Roadmap evidence: ${subject}` : 'Roadmap evidence from this thread',
    body: `${said} If ${us} already does this, reply and show it; if not, log it with this thread as evidence and tell the poster when it lands.`,
  };
}

function positionMove(product: string, said: string, us: string): Move {
  return {
    title: `Position ${us} against ${product}`,
    body: `${said} Acknowledge what ${product} does well, then show how ${us} handles this exact case, with numbers or a short clip rather than claims.`,
  };
}

/**
 * "The new engine does not support KVcache quant", "olmo2 isn't supported yet": the cue is a
 * negated "support", which pain.ts reads as a failure (the pain model was trained on that reading,
 * so it stays), but nothing broke: a capability is missing, and "Write the fix for olmo2 failing"
 * offers a fix nobody can write.
 */
function unsupported(ctx: MoveContext): boolean {
  return ctx.reading.kind === 'failure' && ctx.tokens[ctx.reading.cue]?.lemma === 'support';
}

/**
 * What is missing is what is not supported: the object of an active "does not support X", the
 * subject of a passive "X isn't supported". A product named elsewhere in the sentence is the one
 * that lacks it ("vLLM does not support AWQ"), so it gets the positioning move, not the title.
 */
function supportMoves(ctx: MoveContext, product: string | undefined, said: string, where: string, us: string): Moves {
  const passive = /ed$/.test(ctx.tokens[ctx.reading.cue]!.lower);
  // "…but it still isn't supported": the passive's subject is a pronoun, and the phrase before it
  // ("the same design as GLM") is not what it stands for.
  // Which side of the verb is what the grammar says is missing; the thread's title has no say
  // ("vllm says qwen3moe architecture isn't supported" under "…quants with vllm?").
  const thing = passive && pronounSubject(ctx.tokens, ctx.reading.cue) ? undefined : (subjectOf({ ...ctx, threadTitle: undefined }, passive ? 'before' : 'after') ?? (passive ? product : undefined));
  const moves: Moves = {
    content: {
      title: thing ? `Publish a workaround for ${thing} support` : 'Publish a workaround for the missing support',
      body: `${said} People in ${where} are blocked because ${thing ?? 'it'} is not supported yet. Publish the best workaround that exists now (another build, a flag, another runtime), and say plainly what is still missing.`,
    },
    roadmap: roadmapMove(thing && `${thing} support`, said, us),
  };
  if (product && product !== thing) moves.position = positionMove(product, said, us);
  return moves;
}

/**
 * The word before a passive verb's auxiliaries and adverbs ("it still isn't supported") is a
 * pronoun standing for something said earlier; not a relative one ("CUDA 12.4, which is not
 * supported"), whose phrase is the one right before it.
 */
function pronounSubject(tokens: readonly Token[], verb: number): boolean {
  let i = verb - 1;
  while (i >= 0 && (tokens[i]!.pos === 'AUX' || tokens[i]!.pos === 'PART' || tokens[i]!.pos === 'ADV')) i--;
  return i >= 0 && tokens[i]!.pos === 'PRON' && !RELATIVE_PRONOUNS.has(tokens[i]!.lower);
}

const RELATIVE_PRONOUNS = new Set(['which', 'that', 'who', 'whom', 'whose']);

/**
 * Hardware too small for what the writer wants to run (move-hardware.ts): nothing broke, so
 * "Write the fix for 16 GB RAM failing" offered a fix nobody can write (such fixes were rated bad
 * in 28 of 38 ratings, docs/quality.md). What answers it is what does fit, in the memory the
 * writer names when they name it. No positioning move: a product too big for someone's card has
 * not fallen short.
 */
function hardwareMove(amount: string | undefined, said: string, where: string): Move {
  return {
    title: amount ? `Show what runs in ${amount}` : 'Show what runs on which hardware',
    body: `${said} People in ${where} are held back by the hardware they have, not by a bug. Publish what fits where${amount ? `, starting with ${amount}` : ''}: which models and quantizations run on common memory sizes, at what context length and speed, and the cheapest way past the limit (a smaller quant, offloading, a second card, a hosted endpoint).`,
  };
}

/**
 * "I can't find any documentation on X", "couldn't find a GGUF for it": what is missing is
 * something to find, not a fix (nothing failed) nor a guide to a thing that does not exist yet.
 * The title names only a product: the phrase nearest the cue is what cannot be found ("any
 * documentation", "much info"), which says less than the quote above the move.
 */
const FIND_BLOCKED = new RegExp(
  [
    /\b(?:can(?:no|['’])?t|couldn['’]?t|could not|can not|unable to|(?:can|could) (?:barely|hardly|never)|(?:was|were|am|is|are)(?:n['’]t| not) able to|not managed to)\s+(?:(?:even|really|seem to|actually|still|ever|just|quite)\s+)*(?:find|locate)\b/.source,
    // "I haven't found a way to disable thinking", "didn't find any option": a search that came up
    // empty, said of something indefinite; not "didn't find the 70B any better" (a judgement).
    /\b(?:didn['’]?t|did not|haven['’]?t|have not|['’]ve not|hasn['’]?t|has not|never)\s+(?:(?:yet|even|really|actually|ever|still|been able to|managed to)\s+)*(?:find|found|locate|located)\s+(?:a|an|any|anything|much)\b/.source,
    // "…but still have not found it", "I didn't find it anywhere": the thing searched for, said
    // before; not "I didn't find it that good" nor "haven't found it to be…" (judgements).
    /\b(?:didn['’]?t|did not|haven['’]?t|have not|['’]ve not|never)\s+(?:(?:yet|even|really|actually|ever|still)\s+)*(?:find|found)\s+(?:it|them|one)\b(?!\s+(?:to\b|that\b|very\b|so\b|too\b|all that\b|particularly\b|any\b|as\b|more\b|less\b|useful\b|helpful\b|good\b|great\b|better\b|worse\b|comfortable\b|enough\b|much\b|where\b))/.source,
  ].join('|'),
  'i',
);

function findMove(product: string | undefined, said: string, where: string): Move {
  return {
    title: product ? `Publish what people can't find on ${product}` : "Publish what people can't find",
    body: `${said} People in ${where} look for this and come up empty. Reply with where it is (a link, the exact setting or command), or say plainly that it does not exist yet, then publish it where a search finds it.`,
  };
}

/**
 * "What GPUs really cost", "what RAM prices cost", "what Claude costs": the verb agrees with the
 * subject's last word, plural when it is a lower-case word in a plural `s` ("prices"; not
 * "class", "status", "analysis") or an acronym's plural ("GPUs"). A name is one thing, whatever
 * its last letter ("ElevenLabs").
 */
function costs(subject: string | undefined): 'cost' | 'costs' {
  return plural(subject) ? 'cost' : 'costs';
}

/** The subject's last word is a plural (see `costs`): "GPUs", "prices"; not "class", "ElevenLabs". */
function plural(subject: string | undefined): boolean {
  const last = subject?.split(/\s+/).pop() ?? '';
  return (/^[a-z]+s$/.test(last) && !/(?:ss|us|is)$/.test(last)) || /^[A-Z]{2,}(?:e?s)$/.test(last);
}

/**
 * "Having issues with LM Studio", "the problem with the chat template": the writer says something
 * goes wrong, in their own word for it, without saying how. A fix answers that, in the same word;
 * a guide (the move of a difficulty) answered what nobody asked.
 */
function issueMove(subject: string | undefined, said: string, where: string, us: string): Move {
  const fix = contentMove('failure', subject, said, where, us);
  // "FP8 models issues" reads as a typo: a plural subject takes "the issues with".
  const title = !subject ? 'Write the fix for this issue' : NAMES_A_FAILURE.test(subject) ? `Write the fix for ${subject}` : plural(subject) ? `Write the fix for the issues with ${subject}` : `Write the fix for ${subject} issues`;
  return { ...fix, title };
}

/** A worry about data: who can read it, where it goes, what is kept. */
const PRIVACY = /\b(?:privacy|private|confidential|data|security|secure|telemetry|tracking|tracked|logs?|logged|logging|gdpr|hipaa|compliance|leaks?|leaked|spying|surveillance|on my behalf)\b/i;

function contentMove(kind: PainKind, subject: string | undefined, said: string, where: string, us: string, symptom?: Symptom): Move {
  const it = subject ?? 'it';
  switch (kind) {
    case 'failure':
      return {
        // "tool call failures failing" says it twice: a subject that names the failure is the title.
        title: !subject ? 'Write the fix for this failure' : NAMES_A_FAILURE.test(subject) ? `Write the fix for ${subject}` : `Write the fix for ${subject} ${symptom && !saysSymptom(subject) ? symptom : 'failing'}`,
        body: `Seen in ${where}: ${said} Reply with the likely causes and the fix, then publish a troubleshooting note that quotes the exact symptom, so people searching for it find the answer (and ${us}).`,
      };
    case 'speed':
      return {
        title: `Show how to make ${it} faster`,
        body: `${said} Publish measured numbers${subject ? ` for ${subject}` : ''} on common setups and the settings that change them; people here compare figures, not adjectives.`,
      };
    case 'cost':
      return {
        title: `Break down what ${it} really ${costs(subject)}`,
        body: `${said} Write the cost breakdown people in ${where} are missing: what ${it} ${costs(subject)} for the work they do, up front and to run, where the money goes, and the cheaper ways to get the same result.`,
      };
    case 'missing':
      return {
        title: subject ? `Show a way to get ${subject} today` : 'Show the best way to get it today',
        body: `${said} People in ${where} want ${subject ?? 'this'}. Publish the best workaround that exists now, and say plainly what is still missing.`,
      };
    case 'difficulty':
      return {
        title: subject ? `Write the plain guide to ${subject}` : 'Write the plain walkthrough for it',
        body: `${said} People find ${subject ?? 'this'} hard to get right. A walkthrough that starts from zero, with the exact commands or settings and the mistakes to avoid, answers it for everyone who hits it next.`,
      };
    case 'concern':
      return {
        title: subject ? `Answer the concern about ${subject} head-on` : 'Answer the concern head-on',
        // What is stored and who sees it answers a worry about data, not one about context length or billing.
        body: PRIVACY.test(said)
          ? `${said} Say plainly how ${us} handles this (what is stored, where, who can see it, what it costs), in a short post people can link to when the worry comes up again.`
          : `${said} Say plainly what ${us} does about this and what it does not, with facts people can check (numbers, settings, a link), in a short post people can link to when the worry comes up again.`,
      };
    case 'frustration':
      return {
        title: subject ? `Answer the complaint about ${subject}` : 'Answer this complaint',
        body: `${said} Reply with what actually helps (a setting, a workaround, a better option), then collect the recurring complaints${subject ? ` about ${subject}` : ' like it'} into one honest comparison post.`,
      };
  }
}

/**
 * A content move that names nothing ("Write the fix for this failure", 43% of the export's pain
 * moves) about what its theme names: a brief shows it under a title such as "Problems with LM
 * Studio", led by a quote that says "LM Studio" (digest/brief.ts), so the move can say it too:
 * "Write the fix for LM Studio failing". Only the title changes; the text quotes the pain already.
 * A difficulty keeps its walkthrough (a guide to a bare subject, "Write the plain guide to LM
 * Studio", was never rated good), and so do the moves whose subject is what is missing or cannot be
 * found, which a theme's subject is not. Undefined when the move already names something.
 */
export function aboutSubject(move: Move, subject: string): Move | undefined {
  const retitle = SUBJECTLESS.get(move.title);
  return retitle && { ...move, title: retitle(subject) };
}

/**
 * The moves a theme's subject can be put into: those that say what fails, is slow, costs, worries
 * or annoys (and the bare issue's fix). The others keep their own subject, as `aboutSubject` says.
 */
const SUBJECT_MOVES: readonly ((subject: string | undefined, said: string, where: string, us: string, symptom?: Symptom) => Move)[] = [
  ...(['failure', 'speed', 'cost', 'concern', 'frustration'] as const).map((kind) => (subject: string | undefined, said: string, where: string, us: string, symptom?: Symptom) => contentMove(kind, subject, said, where, us, symptom)),
  issueMove,
];

/** The titles a move gets without a subject, and the same move's title with one. */
const SUBJECTLESS: ReadonlyMap<string, (subject: string) => string> = new Map(SUBJECT_MOVES.map((write): [string, (subject: string) => string] => [write(undefined, '', '', '').title, (subject) => write(subject, '', '', '').title]));

/**
 * What a content move of a pain names, read back from the move itself: the subject for which
 * writing the same move again, for the same quote, community and product, gives exactly this move;
 * and that move written about another subject. Undefined for a move that names nothing, a kind
 * whose subject stays its own (a walkthrough, what is missing or cannot be found, a how-to), or a
 * move written otherwise (by the `llm` analyzer, or before the project was renamed). Read back
 * rather than stored: briefs of signals stored long ago stay as they were written.
 */
export function moveSubject(move: Move, quote: string, community: string, project: string): { subject: string; about: (subject: string) => Move } | undefined {
  const said = inQuotes(quote);
  const where = placeOf(community);
  const us = ours(project);
  const words = move.title.split(' ');
  for (const write of SUBJECT_MOVES) {
    for (let from = 1; from < words.length; from++) {
      for (let to = from + 1; to <= words.length; to++) {
        const subject = words.slice(from, to).join(' ');
        // What a failure's title says of its subject ("crashing") is one of the symptoms, or none.
        const rest = words.slice(to).join(' ');
        const symptom = SYMPTOMS.has(rest as Symptom) ? (rest as Symptom) : undefined;
        const again = write(subject, said, where, us, symptom);
        // Written about another subject, the move says only that it fails: the symptom was said of this one.
        if (again.title === move.title && again.body === move.body) return { subject, about: (other) => write(other, said, where, us) };
      }
    }
  }
  return undefined;
}

/**
 * A complaint that says what is bad (move-aspect.ts: "sucks at summarizing", "its vision sucks"):
 * people weighing the thing want to see how it does at exactly that next to the alternatives,
 * which a reply and a side-by-side show. Without a name for the thing, the aspect is what the
 * complaint is about ("Answer the complaint about creative writing"), as move-subject.ts would
 * name a subject.
 */
function aspectMove(name: string | undefined, aspect: string, said: string, where: string, us: string): Move {
  if (!name) return contentMove('frustration', aspect, said, where, us);
  return {
    title: `Show how ${name} ${plural(name) ? 'compare' : 'compares'} on ${aspect}`,
    body: `${said} Reply with what actually helps (a setting, a prompt, a better option), then publish ${name} side by side with the alternatives on ${aspect}, with examples people in ${where} can run themselves.`,
  };
}

/**
 * The thing a complaint's aspect belongs to, when no product is named: the move's subject, unless
 * it is the aspect itself or speaks of many things at once ("Most models suck at agentic
 * workflows" compares nothing).
 */
function ownerOf(subject: string | undefined, aspect: string): string | undefined {
  if (!subject) return undefined;
  const lower = subject.toLowerCase();
  if (lower.includes(aspect.toLowerCase()) || aspect.toLowerCase().includes(lower)) return undefined;
  return QUANTIFIERS.test(lower) ? undefined : subject;
}

const QUANTIFIERS = /^(?:most|all|many|some|several|few|other|these|those|any|every|both|the other)\b/;

function choiceMove(options: string, said: string, where: string): Move {
  const them = options || 'the options';
  return {
    title: `Publish a side-by-side of ${them} and when to pick each`,
    body: `${said} People in ${where} are stuck choosing between ${them}. A plain comparison (what each is good at, what it needs in hardware, setup and money, and which to pick for which job) answers it for everyone who asks next.`,
  };
}

/** A difficulty with a task: a how-to about the task, as a how-to question gets. */
function taskMove(task: string, said: string, where: string): Move {
  return {
    title: `Publish a how-to: ${task}`,
    body: `Seen in ${where}: ${said} People find this hard to do. A walkthrough that starts from zero, with the exact commands or settings and the mistakes to avoid, answers it for everyone who tries it next.`,
  };
}

/** The sentence as a move quotes it; marked when cut: a quote that stops mid-clause ("…only the” People find…) reads as a typo. */
export function inQuotes(sentence: string): string {
  return `“${clip(sentence, 140)}”`;
}

/** How a move names the project: by its name, or as "your product" while it has none. */
export function ours(project: string): string {
  return project || 'your product';
}

/** "LocalLLaMA" → "r/LocalLLaMA"; other sources name their community themselves ("hn"). */
export function placeOf(community: string): string {
  return /^[A-Za-z0-9_]{2,21}$/.test(community) && community !== 'hn' ? `r/${community}` : community;
}
