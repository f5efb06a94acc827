/**
 * What the `llm` analyzer accepts back. The model's answer is untrusted text: it is parsed as
 * JSON, checked with Zod, and every signal is checked against the thread it claims to quote. The
 * author and date of a signal always come from the passage, never from the model; a quote that is
 * not an exact substring of the passage it names is dropped and counted. One bad signal costs
 * that signal, not the batch; only an answer that is not JSON of the right shape costs the batch.
 */
import { z } from 'zod';
import type { FoundSignal, Move, ThemeDraft, ThemeNaming } from './analyzer.ts';
import type { PreparedThread } from './llm-prompts.ts';

/** Shorter is not a quote ("ok"); longer is a whole comment pasted, not the sentence that matters. */
const QUOTE_CHARS = { min: 3, max: 1_000 } as const;
/** Longer is a description, not a product name. */
const MAX_PRODUCT_CHARS = 80;
const MOVE_TITLE_CHARS = 160;
const MOVE_BODY_CHARS = 1_500;
/** Per thread and kind, as the prompt asks (and as `rules` keeps): a chatty model cannot flood a brief. */
export const MAX_PER_THREAD = { pain: 4, competitor: 4, content: 2 } as const;

export const THEME_TITLE_WORDS = { min: 2, max: 7 } as const;
const THEME_TITLE_CHARS = 100;
const THEME_SUMMARY_CHARS = 300;

/** Signals dropped from answers, by why; summed over a run for its report. */
export interface DropCounts {
  notVerbatim: number;
  unknownPassage: number;
  malformed: number;
  beyondLimit: number;
}

export function noDrops(): DropCounts {
  return { notVerbatim: 0, unknownPassage: 0, malformed: 0, beyondLimit: 0 };
}

export interface SignalsAnswer {
  /** Signals of each thread of the request, in the request's order. */
  perThread: FoundSignal[][];
  drops: DropCounts;
}

/**
 * The content of a chat answer as JSON. Servers that do not enforce the schema sometimes wrap
 * the JSON in a Markdown code fence; that wrapper is the only liberty taken.
 */
export function parseJsonContent(content: string | null): unknown {
  if (content === null) return undefined;
  const text = content.trim().replace(/^```(?:json)?\s*\n([\s\S]*)\n```$/i, '$1');
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const signalsEnvelope = z.object({ signals: z.array(z.unknown()) });
const rawSignal = z.object({
  thread: z.string(),
  source: z.string(),
  kind: z.enum(['pain', 'competitor', 'content']),
  quote: z.string(),
  product: z.string().nullish(),
  complaint: z.boolean().nullish(),
  move: z.object({ title: z.string(), body: z.string() }).nullish(),
});
type RawSignal = z.infer<typeof rawSignal>;

/** The signals of an answer, checked; undefined when the answer is not `{signals: [...]}` JSON. */
export function readSignalsAnswer(content: string | null, threads: readonly PreparedThread[]): SignalsAnswer | undefined {
  const envelope = signalsEnvelope.safeParse(parseJsonContent(content));
  if (!envelope.success) return undefined;
  const drops = noDrops();
  const perThread: FoundSignal[][] = threads.map(() => []);
  const seen = threads.map(() => new Set<string>());
  for (const item of envelope.data.signals) {
    const parsed = rawSignal.safeParse(item);
    if (!parsed.success) {
      drops.malformed += 1;
      continue;
    }
    const checked = checkSignal(parsed.data, threads);
    if ('dropped' in checked) {
      drops[checked.dropped] += 1;
      continue;
    }
    const { position, signal } = checked;
    const key = `${signal.kind}\u0000${signal.quote}\u0000${signal.competitor ?? ''}`;
    if (seen[position]!.has(key)) continue; // the same signal twice is one signal
    if (perThread[position]!.filter((s) => s.kind === signal.kind).length >= MAX_PER_THREAD[signal.kind]) {
      drops.beyondLimit += 1;
      continue;
    }
    seen[position]!.add(key);
    perThread[position]!.push(signal);
  }
  return { perThread, drops };
}

type Checked = { position: number; signal: FoundSignal } | { dropped: keyof DropCounts };

/** One signal against its passage: where it is, whether the quote is really there, what it says. */
function checkSignal(raw: RawSignal, threads: readonly PreparedThread[]): Checked {
  const position = threadPosition(raw.thread, threads.length);
  const passage = position === undefined ? undefined : threads[position]!.passages.find((p) => p.id === raw.source.trim());
  if (position === undefined || passage === undefined) return { dropped: 'unknownPassage' };
  const quote = raw.quote.trim();
  if (quote.length < QUOTE_CHARS.min || quote.length > QUOTE_CHARS.max) return { dropped: 'malformed' };
  if (!passage.text.includes(quote)) return { dropped: 'notVerbatim' };
  const base = { quote, author: passage.author, at: passage.at };
  switch (raw.kind) {
    case 'pain': {
      const move = checkedMove(raw.move);
      return { position, signal: { ...base, kind: 'pain', competitor: null, moves: move ? { content: move } : null, complaint: false } };
    }
    case 'competitor': {
      const product = checkedProduct(raw.product);
      if (product === undefined) return { dropped: 'malformed' };
      return { position, signal: { ...base, kind: 'competitor', competitor: product, moves: null, complaint: raw.complaint === true } };
    }
    case 'content':
      return { position, signal: { ...base, kind: 'content', competitor: null, moves: null, complaint: false } };
  }
}

/** `T3` → 2 (or `3`, which small models sometimes send); undefined when no such thread. */
function threadPosition(label: string, count: number): number | undefined {
  const match = /^\s*T?(\d+)\s*$/i.exec(label);
  if (!match) return undefined;
  const position = Number(match[1]) - 1;
  return position >= 0 && position < count ? position : undefined;
}

function checkedMove(move: RawSignal['move']): Move | undefined {
  if (!move) return undefined;
  const title = move.title.trim();
  const body = move.body.trim();
  if (!title || !body || title.length > MOVE_TITLE_CHARS || body.length > MOVE_BODY_CHARS) return undefined;
  return { title, body };
}

function checkedProduct(product: string | null | undefined): string | undefined {
  const name = (product ?? '').replace(/\s+/g, ' ').trim();
  return name && name.length <= MAX_PRODUCT_CHARS ? name : undefined;
}

// ---------------------------------------------------------------------------------------------
// Theme names

const themesEnvelope = z.object({ names: z.array(z.unknown()), merges: z.array(z.unknown()) });
const rawName = z.object({ id: z.string(), title: z.string(), summary: z.string() });
const rawMerge = z.object({ from: z.string(), into: z.string() });

export interface ThemesAnswer {
  naming: ThemeNaming;
  droppedNames: number;
  droppedMerges: number;
}

/** Names and merges that fit the rules (known ids, 2–7 word titles, one-sentence summaries, no chains). */
export function readThemesAnswer(content: string | null, drafts: readonly ThemeDraft[]): ThemesAnswer | undefined {
  const envelope = themesEnvelope.safeParse(parseJsonContent(content));
  if (!envelope.success) return undefined;
  const known = new Set(drafts.map((d) => d.id));
  const names = acceptedNames(envelope.data.names, known);
  const merges = acceptedMerges(envelope.data.merges, known);
  return {
    naming: { names, merges },
    droppedNames: envelope.data.names.length - names.length,
    droppedMerges: envelope.data.merges.length - merges.length,
  };
}

function acceptedNames(items: readonly unknown[], known: ReadonlySet<string>): ThemeNaming['names'] {
  const names: ThemeNaming['names'] = [];
  const named = new Set<string>();
  for (const item of items) {
    const parsed = rawName.safeParse(item);
    if (!parsed.success || !known.has(parsed.data.id) || named.has(parsed.data.id)) continue;
    const title = themeTitle(parsed.data.title);
    const summary = themeSummary(parsed.data.summary);
    if (title === undefined || summary === undefined) continue;
    named.add(parsed.data.id);
    names.push({ id: parsed.data.id, title, summary });
  }
  return names;
}

/** A noun phrase of 2–7 words: the word count is what can be checked without a parser. */
export function themeTitle(text: string): string | undefined {
  const title = text.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  const words = title.split(' ').filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  if (words < THEME_TITLE_WORDS.min || words > THEME_TITLE_WORDS.max || title.length > THEME_TITLE_CHARS) return undefined;
  return title;
}

/** One sentence: bounded, and no sentence end followed by another sentence. */
export function themeSummary(text: string): string | undefined {
  const summary = text.replace(/\s+/g, ' ').trim();
  if (summary.length < 10 || summary.length > THEME_SUMMARY_CHARS) return undefined;
  if (/[.!?]["')\]]?\s+["'(]?[A-Z]/.test(summary)) return undefined;
  return summary;
}

/**
 * Merges between known drafts that neither chain nor loop: a draft merged away is never the
 * target of another merge, and a target is never merged away later (first come, first kept).
 */
function acceptedMerges(items: readonly unknown[], known: ReadonlySet<string>): ThemeNaming['merges'] {
  const merges: ThemeNaming['merges'] = [];
  const mergedAway = new Set<string>();
  const targets = new Set<string>();
  for (const item of items) {
    const parsed = rawMerge.safeParse(item);
    if (!parsed.success) continue;
    const { from, into } = parsed.data;
    if (!known.has(from) || !known.has(into) || from === into) continue;
    if (mergedAway.has(from) || mergedAway.has(into) || targets.has(from)) continue;
    mergedAway.add(from);
    targets.add(into);
    merges.push({ from, into });
  }
  return merges;
}
