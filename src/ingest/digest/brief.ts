/**
 * The brief of one run window (DESIGN §8, "Brief"): a `content` section with the strongest pains
 * of the window (by posts, then the best post's score), each with its content move, and an
 * `offers` section with pains one of the project's offerings answers (a move proposing it) and
 * complaints about a competitor (a move positioning the project against it). Each item quotes its
 * source and lists the threads behind it. Pure: the pipeline hands in what the store ranked.
 */
import type { SignalItem } from '../../domain/resources.ts';
import type { WindowSignal, WindowTheme } from '../../store/digest.ts';
import type { Move } from '../analyze/analyzer.ts';

export const CONTENT_ITEMS = 5;
const OFFER_ITEMS = 3;
const RIVAL_ITEMS = 2;
const SOURCES_PER_ITEM = 3;
/** How well an offering must match a theme's words to be proposed for it. */
export const OFFER_FIT = 0.05;

export interface RankedTheme {
  theme: WindowTheme;
  /** Its signals from the window's posts, best-received first. */
  signals: WindowSignal[];
}

export interface BriefInput {
  project: { name: string; offerings: { name: string; description: string }[] };
  pains: RankedTheme[];
  rivals: RankedTheme[];
  /** Similarity of an offering's text to a theme (the grouper's TF-IDF cosine). */
  fit: (offeringText: string, theme: RankedTheme) => number;
}

export interface BriefSection {
  kind: 'content' | 'offers';
  title: string;
  items: SignalItem[];
}

export function buildBrief(input: BriefInput): BriefSection[] {
  const content = input.pains.slice(0, CONTENT_ITEMS);
  const featured = new Set(content.map((r) => r.theme.themeId));
  const offers: SignalItem[] = [];

  for (const offering of input.project.offerings) {
    if (offers.length >= OFFER_ITEMS) break;
    const text = `${offering.name} ${offering.description}`;
    let best: { ranked: RankedTheme; fit: number } | undefined;
    for (const ranked of input.pains) {
      // A theme the brief already shows is not shown twice.
      if (featured.has(ranked.theme.themeId)) continue;
      const fit = input.fit(text, ranked);
      if (fit >= OFFER_FIT && (!best || fit > best.fit)) best = { ranked, fit };
    }
    if (!best) continue;
    offers.push(
      item(best.ranked, 'pain', {
        title: `Offer ${offering.name}`,
        body: `${offering.description.replace(/\.?$/, '.')} Reply in the thread with what solves it first, then mention ${offering.name} as the way ${input.project.name} does it for you.`,
      }),
    );
    featured.add(best.ranked.theme.themeId);
  }

  for (const ranked of input.rivals.slice(0, RIVAL_ITEMS)) {
    const product = ranked.signals[0]?.competitor;
    if (!product) continue;
    offers.push(
      item(ranked, 'competitor', {
        title: `Position ${input.project.name} against ${product}`,
        body: `People say where ${product} falls short. Acknowledge what it does well, then show how ${input.project.name} handles exactly this case, with numbers.`,
      }),
    );
  }

  return [
    {
      kind: 'content',
      title: 'What people struggle with',
      items: content.map((ranked) => item(ranked, 'pain', contentMove(ranked))),
    },
    { kind: 'offers', title: 'Where your offerings fit', items: offers },
  ];
}

/** The signal an item leads with: the best-received one that names the theme, else the best-received. */
function leadOf(ranked: RankedTheme): WindowSignal {
  const title = ranked.theme.title.toLowerCase();
  return ranked.signals.find((s) => s.quote.toLowerCase().includes(title)) ?? ranked.signals[0]!;
}

function contentMove(ranked: RankedTheme): Move {
  const moves = JSON.parse(leadOf(ranked).moves) as Record<string, Move> | null;
  return moves?.content ?? { title: `Write about ${ranked.theme.title.toLowerCase()}`, body: ranked.theme.summary };
}

function item(ranked: RankedTheme, origin: string, move: Move): SignalItem {
  const lead = leadOf(ranked);
  const sources: SignalItem['sources'] = [];
  for (const s of ranked.signals) {
    if (sources.length >= SOURCES_PER_ITEM) break;
    if (!sources.some((x) => x.url === s.postUrl)) sources.push({ title: s.postTitle, url: s.postUrl, sub: s.community });
  }
  return {
    origin,
    surfaced: { summary: ranked.theme.summary, quote: { text: lead.quote, who: lead.author, sub: lead.community } },
    move,
    sources,
  };
}
