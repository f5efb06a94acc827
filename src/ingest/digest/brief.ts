/**
 * The brief of one run window (DESIGN §8, "Brief"): a `content` section with the strongest pains
 * of the window (by posts in the window, then posts so far, then the best post's score: the store's
 * `themesInWindow`) among the themes that hold one problem
 * (`COHERENT_FIT`) and whose lead names what their title names (`namesItsTitle`), each with its
 * content move, and an
 * `offers` section with pains one of the project's offerings answers (a move proposing it, led by
 * the quote it answers) and
 * complaints about a competitor the memory lists (any product when it lists none), with a move
 * positioning the project against it. Each item quotes its
 * source and lists the threads behind it. A window with fewer themes than content items is
 * filled with its best-received pains still waiting in the unthemed pool, said to be single
 * reports. Moves come from the pain itself (analyze/moves.ts), so each fits its pain; under a
 * theme, one is about what the theme's title names when the quote says it (`themeMove`). Pure: the
 * pipeline hands in what the store ranked.
 */
import type { SignalItem } from '../../domain/resources.ts';
import type { WindowSignal, WindowTheme } from '../../store/digest.ts';
import type { Move } from '../analyze/analyzer.ts';
import { aboutSubject, inQuotes, moveSubject, ours, placeOf } from '../analyze/moves.ts';
import { tag } from '../analyze/nlp.ts';
import { overcomesProblem, readCues } from '../analyze/pain.ts';
import { clip, comparedOnly, productKey } from '../analyze/text.ts';
import { COST_WORDS, exampleClause, SLOW_WORDS, titleNames, titleSubject } from './themes.ts';
import { terms } from './terms.ts';

export const CONTENT_ITEMS = 5;
const OFFER_ITEMS = 3;
const RIVAL_ITEMS = 2;
const SOURCES_PER_ITEM = 3;
/** How well an offering must match a theme (the grouper's similarity) to be proposed for it. */
export const OFFER_FIT = 0.12;
/**
 * How well an offering must match the very quote the item leads with (the grouper's similarity of
 * the two texts). The theme's match alone proposed offerings beside quotes they do not answer
 * ("Offer Tool-call test packs" under "I'm no good in AI tools"): of the export backfill's pains in
 * themes at OFFER_FIT, about one in eight was one the offering helps, by two annotators' blind
 * labels. With the quote at 0.25 too, 17 of 27 pairs on the labels' development half and 18 of 24
 * on their test half (docs/quality.md, "Offerings and the quote they answer").
 */
export const OFFER_QUOTE_FIT = 0.25;
/**
 * How close a theme's window quotes must sit to the theme on average (the grouper's similarity)
 * for the brief to show it. A theme whose quotes sit far from it gathers several problems under one
 * title ("Game failures" held complaints about Qwen3, Kimi K2 and DeepSeek), and then no lead can be
 * a pain about its title. Chosen on the labelled themes 1–20 of the brief-leads fixture (the
 * smallest threshold at which the brief's five items all lead with a pain about their title);
 * themes 21–40 are the check: docs/quality.md, "Which themes a brief shows".
 */
export const COHERENT_FIT = 0.15;

export interface RankedTheme {
  theme: WindowTheme;
  /** Its signals from the window's posts, best-received first. */
  signals: WindowSignal[];
}

export interface BriefInput {
  /**
   * `competitors`: the memory's. When it lists any, only complaints about them get a positioning
   * item: "Position EvalKit against CUDA" (or PyCharm) is noise to a founder who named the tools
   * they compete with. Every product mentioned still counts in competitors.list.
   */
  project: { name: string; offerings: { name: string; description: string }[]; competitors?: readonly string[] };
  pains: RankedTheme[];
  rivals: RankedTheme[];
  /** The window's pains not in any theme yet, best-received first (fill for a thin window). */
  loose?: WindowSignal[];
  /** Similarity of an offering's text to a theme (the grouper's TF-IDF cosine). */
  fit: (offeringText: string, theme: RankedTheme) => number;
  /** Similarity of an offering's text to one quote, on the same scale. */
  quoteFit: (offeringText: string, quote: string) => number;
}

export interface BriefSection {
  kind: 'content' | 'offers';
  title: string;
  items: SignalItem[];
}

export function buildBrief(input: BriefInput): BriefSection[] {
  const shown = input.pains.filter((ranked) => coherence(ranked, input.fit) >= COHERENT_FIT);
  // Each theme's lead is chosen once: it decides whether the theme is shown and then leads its item.
  const content = shown
    .map((ranked) => ({ ranked, lead: leadOf(ranked, input.fit) }))
    .filter(({ ranked, lead }) => namesItsTitle(ranked, lead))
    .slice(0, CONTENT_ITEMS);
  const featured = new Set(content.map(({ ranked }) => ranked.theme.themeId));
  // A sentence that complains about a tracked product is both a pain and a mention of it: each
  // quote leads one item of a brief, never two.
  const quoted = new Set(content.map(({ lead }) => lead.quote));
  const offers: SignalItem[] = [];

  const us = ours(input.project.name);
  for (const offering of input.project.offerings) {
    if (offers.length >= OFFER_ITEMS) break;
    const text = `${offering.name} ${offering.description}`;
    let best: { ranked: RankedTheme; lead: WindowSignal; fit: number } | undefined;
    for (const ranked of shown) {
      // A theme the brief already shows is not shown twice.
      if (featured.has(ranked.theme.themeId) || input.fit(text, ranked) < OFFER_FIT) continue;
      for (const signal of ranked.signals) {
        if (quoted.has(signal.quote) || !answersItsAspect(text, signal.quote)) continue;
        const fit = input.quoteFit(text, signal.quote);
        if (fit >= OFFER_QUOTE_FIT && (!best || fit > best.fit)) best = { ranked, lead: signal, fit };
      }
    }
    if (!best) continue;
    const lead = best.lead;
    offers.push(
      item(best.ranked, lead, 'pain', {
        title: `Offer ${offering.name} where people hit “${clip(best.ranked.theme.title, 60)}”`,
        body: `u/${lead.author} in ${placeOf(lead.community)}: ${inQuotes(lead.quote)} Reply with what solves it first, then show how ${offering.name} (${clip(offering.description.replace(/\.$/, ''), 100)}) handles exactly this, and link the thread in your offer page.`,
      }),
    );
    featured.add(best.ranked.theme.themeId);
    quoted.add(lead.quote);
  }

  const tracked = new Set((input.project.competitors ?? []).map(productKey));
  const rivals = tracked.size === 0 ? input.rivals : input.rivals.filter((r) => tracked.has(productKey(r.signals[0]?.competitor ?? '')));
  let rivalItems = 0;
  for (const ranked of rivals) {
    if (rivalItems >= RIVAL_ITEMS) break;
    const product = ranked.signals[0]?.competitor;
    // Its complaints already lead other items: the brief says them once.
    const unquoted = ranked.signals.filter((s) => !quoted.has(s.quote));
    if (!product || unquoted.length === 0) continue;
    const lead = leadOf({ ...ranked, signals: unquoted }, input.fit);
    quoted.add(lead.quote);
    rivalItems += 1;
    const position = movesOf(lead)?.position;
    offers.push(
      item(
        ranked,
        lead,
        'competitor',
        position ?? {
          title: `Position ${us} against ${product}`,
          body: `${ranked.theme.posts} post${ranked.theme.posts === 1 ? '' : 's'} this window on where ${product} falls short, e.g. ${inQuotes(lead.quote)} Acknowledge what ${product} does well, then show how ${us} handles this exact case, with numbers.`,
        },
      ),
    );
  }

  const contentItems = content.map(({ ranked, lead }) => item(ranked, lead, 'pain', themeMove(ranked, lead, input.project.name)));
  for (const pain of input.loose ?? []) {
    if (contentItems.length >= CONTENT_ITEMS) break;
    if (quoted.has(pain.quote) || !standsAlone(pain.quote)) continue;
    quoted.add(pain.quote);
    contentItems.push(looseItem(pain));
  }
  return [
    {
      kind: 'content',
      title: 'What people struggle with',
      items: contentItems,
    },
    { kind: 'offers', title: 'Where your offerings fit', items: offers },
  ];
}

/**
 * A quote that complains of speed or cost is answered only by an offering whose text speaks of it:
 * "Offer Tool-call test packs where people hit…" beside "the calls get expensive and slow" promises
 * what the offering does not do. Measured on blind labels made before this rule: of the 403
 * offering–quote pairs of `test/fixtures/quality/offer-quote/`, those whose quote speaks of speed or
 * cost and whose offering does not were judged helped by the offering in 0 of 66 ratings ("partly" 4),
 * the others in 13 of 740 ("partly" 158); and every offer item of the rated daily briefs led by
 * such a quote (4 quotes, 12 ratings) was rated a bad move and never worth forwarding
 * (docs/quality.md, "Offers for speed and cost").
 */
export function answersItsAspect(offering: string, quote: string): boolean {
  const asked = ASPECTS.filter((aspect) => aspect.complaint.test(quote));
  return asked.length === 0 || asked.some((aspect) => aspect.offered.test(offering));
}

/** Speed and cost: the words of a complaint about each, and those an offering speaks of it with. */
const ASPECTS = [
  { complaint: SLOW_WORDS, offered: /\b(?:fast\w*|speed\w*|slow\w*|latency|throughput|tokens? (?:per|a) second)\b/i },
  { complaint: COST_WORDS, offered: /\b(?:costs?|price\w*|cheap\w*|budget|afford\w*|billing|spend\w*|hourly|per hour)\b/i },
];

/** The mean similarity of a theme's window signals to the theme: how much it holds one problem. */
export function coherence(ranked: RankedTheme, fit: BriefInput['fit']): number {
  if (ranked.signals.length === 0) return 0;
  return ranked.signals.reduce((sum, signal) => sum + fit(signal.quote, ranked), 0) / ranked.signals.length;
}

/**
 * The signal an item leads with: one that does not speak to someone ("you…": speaksToSomeone)
 * nor tell of a problem its writer got past (pain.ts `overcomesProblem`) when there is one; among
 * those, the one saying most of the theme title's words (not the
 * "Problems with" a title opens with when its pains voice no one kind: titleSubject); among those,
 * one whose quote or thread names what the title names (namesItsTitle), then the one closest to
 * the theme as the grouper measures it; the best-received when they tie.
 * Best-received alone put a passing comment of a popular thread ("Can't wait to run this!") at
 * the head of a theme about something else; title words alone left the tie to the best-received
 * thread. On 20 themes of the r/LocalLLaMA backfill, labelled blind (is the sentence a pain, is
 * it about the title), the lead was a pain about its title for 3 (best-received), 6 (title words)
 * and 8 (title words, then closeness): docs/quality.md, "Which quote leads an item".
 */
export function leadOf(ranked: RankedTheme, fit: BriefInput['fit']): WindowSignal {
  const title = new Set(terms(titleSubject(ranked.theme.title)));
  const named = namedTerms(ranked);
  let lead = ranked.signals[0]!;
  let best: [number, number, number, number] | undefined;
  for (const signal of ranked.signals) {
    const said = new Set(terms(signal.quote).filter((t) => title.has(t))).size;
    // Between quotes that say as much of the title, one from a thread about it (see namesItsTitle).
    const namesTitle = mentions(signal, named) ? 1 : 0;
    const close = fit(signal.quote, ranked);
    const key: [number, number, number, number] = [speaksToSomeone(signal.quote) || overcomesProblem(signal.quote) ? 0 : 1, said, namesTitle, close];
    if (!best || ranksAbove(key, best)) {
      lead = signal;
      best = key;
    }
  }
  return lead;
}

/**
 * A sentence that speaks to someone ("you'll see very slow prompt processing", "Runpod isn't too
 * hard, but still doesn't fit your requirements") most often advises or explains; it is someone's
 * own problem far less often. Blind labels agree: such sentences are pains in 30–44% of three sets
 * (the comment pains, both brief-leads fixtures) against 52–70% for the rest, and brief items led
 * by one were worth forwarding in 19% of the daily briefs' ratings against 37%. A thank-you and
 * words in quotation marks ("I know what you're thinking") do not count.
 */
function speaksToSomeone(quote: string): boolean {
  return SECOND_PERSON.test(quote.replace(/\bthank(?:s| you)\b|["“][^"”]*["”]/gi, ''));
}

/** "you" and its forms, and chat's "u" and "ur" ("If u want…"), but not the "u/" of a username. */
const SECOND_PERSON = /\b(?:you|your|yours|you['’](?:re|ve|ll|d)|youre|youve|youll)\b|(?<![\w/])(?:u|ur)(?![\w/'’])/i;

/** Whether `a` ranks above `b`, comparing their first differing place. */
function ranksAbove(a: readonly number[], b: readonly number[]): boolean {
  const i = a.findIndex((x, k) => x !== b[k]);
  return i !== -1 && a[i]! > b[i]!;
}

/**
 * Whether a signal, or the thread it comes from, names what its theme's title names (titleNames:
 * "Chat template" of "Chat template failures"). A brief shows a pain theme only when its lead
 * does: a quote that names neither in itself nor in its thread's title is seldom about the title.
 * Among the candidate quotes of the brief-leads labels (blind, made before this rule), such quotes
 * were about their title for 24% and 8% (two sets of titles) against 42–90% for the others; on the
 * rated daily briefs, such items fitted their title for 24% of the ratings and were worth
 * forwarding for 17% (docs/quality.md, "Items whose quote and thread name their title").
 */
export function namesItsTitle(ranked: RankedTheme, signal: WindowSignal): boolean {
  return mentions(signal, namedTerms(ranked));
}

/** The terms of what a theme's title names (titleNames). */
function namedTerms(ranked: RankedTheme): Set<string> {
  return new Set(terms(titleNames(ranked.theme.title)));
}

/** Whether a signal's quote or its thread's title says one of `named`. */
function mentions(signal: WindowSignal, named: ReadonlySet<string>): boolean {
  return terms(signal.quote).some((t) => named.has(t)) || terms(signal.postTitle).some((t) => named.has(t));
}

/**
 * A theme item's move: its lead's content move, about what the theme's title names when the lead's
 * quote says every word of it. A move that names nothing names it (moves.ts `aboutSubject`); one
 * that names something else of the quote is written about it instead (`moveSubject`): a quote
 * names several things ("Llama4-Scout performs very bad…, and Hunyuan-A13B is barely usable"),
 * the move took the first or the one its thread's title names, and the item is about its theme.
 * A title that names only its problem ("Endless hallucination loop") gives no subject, and one the
 * quote does not say may not be what the quote's writer struggles with (a quote from a thread
 * about it may be about something else).
 */
function themeMove(ranked: RankedTheme, lead: WindowSignal, project: string): Move {
  const move = movesOf(lead)?.content ?? { title: `Write about ${ranked.theme.title.toLowerCase()}`, body: ranked.theme.summary };
  const subject = titleNames(ranked.theme.title);
  if (subject === ranked.theme.title) return move;
  const subjectTerms = terms(subject);
  const said = new Set(terms(lead.quote));
  if (!subjectTerms.every((t) => said.has(t))) return move;
  const written = asWritten(subject, ranked.theme.title, lead.quote);
  // Named only as what something is measured against ("Claude is underwhelming compared to
  // ChatGPT", "it's even slower than LM Studio" under "Problems with LM Studio"): not what the
  // quote complains about, as a move never takes such a product for its subject (moves.ts
  // `namedProducts`).
  if (comparedOnly(lead.quote, written)) return move;
  const named = aboutSubject(move, written);
  if (named) return named;
  const own = moveSubject(move, lead.quote, lead.community, project);
  // Already about it ("LM Studio chat" under "Problems with LM Studio"): kept as the quote says it.
  if (!own) return move;
  const ownTerms = new Set(terms(own.subject));
  if (subjectTerms.every((t) => ownTerms.has(t))) return move;
  return own.about(written);
}

/**
 * A title's first letter is a capital whatever it opens with ("Chat template failures"); inside a
 * move the subject's first word is written as the lead writes it: "chat template", but "Ollama".
 */
function asWritten(subject: string, title: string, quote: string): string {
  if (!title.startsWith(subject)) return subject;
  const first = /^\p{Lu}\p{Ll}*(?=\s|$)/u.exec(subject)?.[0];
  if (!first) return subject;
  const lower = first.toLowerCase();
  const written = new RegExp(`(?<![\\p{L}\\p{N}])(?:${first}|${lower})(?![\\p{L}\\p{N}])`, 'gu');
  const forms = [...quote.matchAll(written)].map((m) => m[0]);
  return forms.length > 0 && forms.every((f) => f === lower) ? `${lower}${subject.slice(first.length)}` : subject;
}

function movesOf(signal: WindowSignal): Record<string, Move> | null {
  return JSON.parse(signal.moves) as Record<string, Move> | null;
}

/** How many unthemed pains of a window a brief looks through for the single reports it may show. */
export const LOOSE_CANDIDATES = 50;

/**
 * A single report has no echo to vouch for it, so it is shown only when its sentence says a
 * problem strongly: a cue reading (pain.ts `readCues`) of at least STANDS_ALONE, that is a strong
 * cue with more to it (the writer's own, a second cue, an intensifier: "I keep getting crashes: the
 * installer fails every time"), not one problem word alone ("I have an old workstation with 256GB
 * of slow but cheap RAM"). Over every blind-rated daily brief, single reports below the bar were
 * worth forwarding in 1 of 76 ratings (bad moves 50), those at it in 7 of 22; on the labelled lead
 * and comment sentences, readings at the bar are pains more often than those below it (0.59–0.82
 * against 0.49–0.68); rated blind on 12 days the rule never saw, the single report each would
 * show was a pain 11 times of 12 with it, 5 without: docs/quality.md, "Single reports that stand
 * alone". A thin window shows fewer items rather than weak ones.
 */
function standsAlone(quote: string): boolean {
  return (readCues(tag(quote), quote)?.score ?? 0) >= STANDS_ALONE;
}

const STANDS_ALONE = 3;

/**
 * A pain no other post has echoed yet: shown as a single report, with its own move. Its summary
 * does not repeat the quote the item shows right below it (as a theme's drops its example when the
 * two are one sentence): the dashboard printed the sentence in the summary, the quote and the move.
 */
function looseItem(pain: WindowSignal): SignalItem {
  return {
    origin: 'pain',
    surfaced: {
      summary: `A single report in ${placeOf(pain.community)} so far, not yet a theme.`,
      quote: { text: pain.quote, who: pain.author, sub: pain.community },
    },
    move: movesOf(pain)?.content ?? { title: 'Answer it in the thread', body: `Reply to ${inQuotes(pain.quote)} with what solves it.` },
    sources: [{ title: pain.postTitle, url: pain.postUrl, sub: pain.community }],
  };
}

/**
 * A competitor item says how much of the window complains about the product and where; the
 * theme's own summary is the same sentence for every product ("What people say goes wrong with…").
 */
function rivalSummary(ranked: RankedTheme): string {
  const product = ranked.signals[0]?.competitor ?? ranked.theme.title;
  const places = [...new Set(ranked.signals.map((s) => placeOf(s.community)))].slice(0, 2).join(' and ');
  const posts = ranked.theme.posts;
  return `${ranked.theme.title}: ${posts} post${posts === 1 ? '' : 's'} in ${places} this window ${posts === 1 ? 'says' : 'say'} where ${product} falls short.`;
}

/** A pain theme's summary without its example quote when that is the quote the item leads with (said once, not twice). */
function withoutExample(summary: string, lead: string): string {
  const clause = exampleClause(lead);
  return summary.endsWith(clause) ? `${summary.slice(0, -clause.length)}.` : summary;
}

function item(ranked: RankedTheme, lead: WindowSignal, origin: string, move: Move): SignalItem {
  const sources: SignalItem['sources'] = [];
  for (const s of ranked.signals) {
    if (sources.length >= SOURCES_PER_ITEM) break;
    if (!sources.some((x) => x.url === s.postUrl)) sources.push({ title: s.postTitle, url: s.postUrl, sub: s.community });
  }
  // A pain theme's summary says how often and where ("… describe this"); the brief shows no
  // title beside it, so the item names the problem first. A competitor theme's summary names its product.
  const summary = ranked.theme.type === 'pain' ? `${ranked.theme.title}: ${withoutExample(ranked.theme.summary, lead.quote)}` : rivalSummary(ranked);
  return {
    origin,
    surfaced: { summary, quote: { text: lead.quote, who: lead.author, sub: lead.community } },
    move,
    sources,
  };
}
