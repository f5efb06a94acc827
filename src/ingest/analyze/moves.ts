/**
 * What to do about a pain (DESIGN §8.4): a move that fits it. A how-to question gets an answer
 * or a guide; a failure a fix; slowness measured numbers; a price complaint a pricing move; a
 * missing capability a roadmap move; confusion a plain walkthrough; a concern a straight answer;
 * frustration with a named product a positioning move. Each move uses the pain's own subject
 * (the product or the noun phrase it is about) and its words, never one template for all.
 *
 * `content` is always there (what to write or reply); `pricing`, `roadmap` and `position` are
 * added when the pain calls for them.
 */
import type { Move, Moves } from './analyzer.ts';
import type { PainKind, PainReading } from './pain.ts';
import { nounChunks, phrase, type Token } from './nlp.ts';
import { isCue } from './pain.ts';
import { clip, shorten } from './text.ts';

export interface MoveContext {
  tokens: readonly Token[];
  sentence: string;
  reading: PainReading;
  /** Products the sentence names (tracked spellings). */
  products: readonly string[];
  community: string;
  /** The project's product name ('' when unknown). */
  project: string;
}

/** A subject whose last word is the failure itself ("request failures", "OOM errors"). */
const NAMES_A_FAILURE = /\b(?:failures?|errors?|crash(?:es)?|bugs?|issues?|problems?|outages?|leaks?|timeouts?)$/i;

/** Words too vague to be what a pain is about. */
const VAGUE = new Set(
  'thing things stuff way time times lot bit one ones something anything everything nothing people guy guys someone anyone problem problems issue issues question help idea point reason kind sort money text trouble pain hell mess crap shit'.split(' '),
);

export function movesFor(ctx: MoveContext): Moves {
  const subject = subjectOf(ctx);
  // Marked when cut: a quote that stops mid-clause ("…only the” People find…) reads as a typo.
  const said = `“${clip(ctx.sentence, 140)}”`;
  const where = placeOf(ctx.community);
  const us = ctx.project || 'your product';
  const product = ctx.products[0];
  if (ctx.reading.howTo) {
    const task = taskOf(ctx.sentence);
    return {
      content: {
        title: task ? `Publish a how-to: ${task}` : `Answer the question about ${subject}`,
        body: `Asked in ${where}: ${said} Answer in the thread with the steps that work, then turn the answer into a guide${task ? ` titled “How to ${task}”` : ` on ${subject}`} so the next person who searches for it lands on you.`,
      },
    };
  }
  const moves: Moves = { content: contentMove(ctx.reading.kind, subject, said, where, us) };
  if (ctx.reading.kind === 'cost') {
    moves.pricing = {
      title: `Make the price of ${subject} easy to compare`,
      body: `${said} People here weigh what ${subject} costs. Show what the same job costs with ${us}, with a worked example in their numbers, and say who it is not worth it for.`,
    };
  }
  if (ctx.reading.kind === 'missing') {
    moves.roadmap = {
      title: `Roadmap evidence: ${subject}`,
      body: `${said} If ${us} already does this, reply and show it; if not, log it with this thread as evidence and tell the poster when it lands.`,
    };
  }
  if (product && (ctx.reading.kind === 'failure' || ctx.reading.kind === 'frustration' || ctx.reading.kind === 'speed' || ctx.reading.kind === 'missing')) {
    moves.position = {
      title: `Position ${us} against ${product}`,
      body: `${said} Acknowledge what ${product} does well, then show how ${us} handles this exact case, with numbers or a short clip rather than claims.`,
    };
  }
  return moves;
}

function contentMove(kind: PainKind, subject: string, said: string, where: string, us: string): Move {
  switch (kind) {
    case 'failure':
      return {
        // "tool call failures failing" says it twice: a subject that names the failure is the title.
        title: NAMES_A_FAILURE.test(subject) ? `Write the fix for ${subject}` : `Write the fix for ${subject} failing`,
        body: `Seen in ${where}: ${said} Reply with the likely causes and the fix, then publish a troubleshooting note that quotes the exact symptom, so people searching for it find the answer (and ${us}).`,
      };
    case 'speed':
      return {
        title: `Show how to make ${subject} faster`,
        body: `${said} Publish measured numbers for ${subject} on common setups and the settings that change them; people here compare figures, not adjectives.`,
      };
    case 'cost':
      return {
        title: `Break down what ${subject} really costs`,
        body: `${said} Write the cost breakdown people in ${where} are missing: what ${subject} costs per month at their scale, where the money goes, and the cheaper ways to get the same result.`,
      };
    case 'missing':
      return {
        title: `Show a way to get ${subject} today`,
        body: `${said} People in ${where} want ${subject}. Publish the best workaround that exists now, and say plainly what is still missing.`,
      };
    case 'difficulty':
      return {
        title: `Write the plain guide to ${subject}`,
        body: `${said} People find ${subject} hard to get right. A walkthrough that starts from zero, with the exact commands or settings and the mistakes to avoid, answers it for everyone who hits it next.`,
      };
    case 'concern':
      return {
        title: `Answer the concern about ${subject} head-on`,
        body: `${said} Say plainly how ${us} handles this (what is stored, where, who can see it, what it costs), in a short post people can link to when the worry comes up again.`,
      };
    case 'frustration':
      return {
        title: `Answer the complaint about ${subject}`,
        body: `${said} Reply with what actually helps (a setting, a workaround, a better option), then collect the recurring complaints about ${subject} into one honest comparison post.`,
      };
  }
}

/** What the pain is about: a product it names, else the noun phrase nearest its cue. */
export function subjectOf(ctx: Pick<MoveContext, 'tokens' | 'reading' | 'products'>): string {
  if (ctx.products[0]) return ctx.products[0];
  const chunks = nounChunks(ctx.tokens).map((c) => withoutSizePieces(ctx.tokens, c)).filter(([from, to]) => {
    if (to <= from) return false;
    const words = ctx.tokens.slice(from, to);
    // A letter left alone inside ("235 B" of "Q6 235B") is a size split by the tagger: no subject.
    if (words.some((t) => t.type === 'word' && t.text.length === 1)) return false;
    // One word right before an adjective cue is its intensifier, whatever the tagger says ("super
    // slow", "dead slow"): a noun does not stand between "is" and "slow".
    if (to - from === 1 && to === ctx.reading.cue && ctx.tokens[ctx.reading.cue]?.pos === 'ADJ') return false;
    // The pain's own cue ("trouble", "bugs") is what goes wrong, not what it goes wrong with.
    return !words.every((t) => VAGUE.has(t.lower) || isCue(t)) && !(to - from === 1 && words[0]!.text.length < 3) && !words.some((t) => t.pos === 'PRON');
  });
  if (chunks.length === 0) return 'this';
  const cue = ctx.reading.cue;
  let best = chunks[0]!;
  for (const chunk of chunks) {
    const distance = (c: [number, number]) => (c[1] <= cue ? cue - c[1] : c[0] > cue ? c[0] - cue : 0);
    if (distance(chunk) < distance(best)) best = chunk;
  }
  // The chunk may hold the cue itself ("tool call failures"): that is still what it is about.
  // A sentence's capital goes ("Memory leaks" → "memory leaks"); a name's stays ("LoRA", "LM Studio").
  return shorten(phrase(ctx.tokens, best[0], best[1]).replace(/^[A-Z](?=[a-z]+\b)/, (c) => c.toLowerCase()), 60);
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

/** "How do I stop responses dissolving into word salad?" → "stop responses dissolving into word salad". */
export function taskOf(question: string): string | undefined {
  const m = /\bhow (?:do|can|should|would|could) (?:i|we|you|one) (.+?)[?.!]*$|\bhow to (.+?)[?.!]*$|\bbest way to (.+?)[?.!]*$|\bis there (?:a|any) way to (.+?)[?.!]*$/i.exec(question.trim());
  const task = (m?.[1] ?? m?.[2] ?? m?.[3] ?? m?.[4])?.trim();
  if (!task || task.length < 6) return undefined;
  return shorten(task.replace(/\s+/g, ' '), 80);
}

/** "LocalLLaMA" → "r/LocalLLaMA"; other sources name their community themselves ("hn"). */
export function placeOf(community: string): string {
  return /^[A-Za-z0-9_]{2,21}$/.test(community) && community !== 'hn' ? `r/${community}` : community;
}
