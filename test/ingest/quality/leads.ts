/**
 * Which quote leads a brief item (docs/quality.md, "Which quote leads an item"): on the 40
 * biggest pain themes of the r/LocalLLaMA backfill, each with the 10 signals a brief chooses from
 * (its best-received threads), every sentence labelled blind — is it a pain, is it about the
 * theme's title — by two annotators who saw neither the rule nor the analyzer. A lead is good
 * when it is both. Scored: the shipped rule (brief.ts `leadOf`, with the grouper's closeness as
 * stored in the fixture) against the best-received quote, on the half the rule was chosen on
 * (themes 1–20) and on the half it was not (21–40), which is the figure to report.
 *
 *   node --import tsx test/ingest/quality/leads.ts
 */
import { readFileSync } from 'node:fs';
import { buildBrief, coherence, COHERENT_FIT, leadOf, type RankedTheme } from '../../../src/ingest/digest/brief.ts';

interface LabelledSignal {
  id: string;
  quote: string;
  thread: string;
  /** The grouper's similarity of the quote to its theme when the pool was drawn. */
  fit: number;
  pain: boolean;
  onTopic: boolean;
}
interface LabelledTheme {
  theme: number;
  title: string;
  /** Best-received first, as the brief reads them. */
  signals: LabelledSignal[];
}

/**
 * The labelled themes: `brief-leads.json` (2026-11-25, the titles of that day) or
 * `brief-leads-2026-11-26.json` (the same kind of labels for the 40 biggest themes under today's
 * titles: "Problems with Kimi K2" where the older ones read "Slow Moonshot API").
 */
export const LEAD_FIXTURES = ['brief-leads.json', 'brief-leads-2026-11-26.json'] as const;

export function leadFixture(name: (typeof LEAD_FIXTURES)[number] = 'brief-leads.json'): LabelledTheme[] {
  return JSON.parse(readFileSync(new URL(`../../fixtures/quality/${name}`, import.meta.url), 'utf8')) as LabelledTheme[];
}

export interface LeadScore {
  themes: number;
  /** Themes whose lead is a pain about the title. */
  good: number;
  /** Themes where some sentence would be (the best any rule can do). */
  possible: number;
}

export function scoreLeads(themes: LabelledTheme[], pick: (theme: LabelledTheme) => LabelledSignal): LeadScore {
  const good = (s: LabelledSignal) => s.pain && s.onTopic;
  return { themes: themes.length, good: themes.filter((t) => good(pick(t))).length, possible: themes.filter((t) => t.signals.some(good)).length };
}

/** A labelled theme as the brief reads it, with the grouper's closeness as stored in the fixture. */
function asRanked(theme: LabelledTheme): { ranked: RankedTheme; fit: (text: string) => number } {
  const fits = new Map(theme.signals.map((s) => [s.quote, s.fit]));
  const ranked: RankedTheme = {
    theme: { themeId: `theme_${theme.theme}`, type: 'pain', title: theme.title, summary: '', posts: theme.signals.length, topScore: 0 },
    signals: theme.signals.map((s, i) => ({ id: s.id, kind: 'pain', quote: s.quote, author: '', competitor: null, moves: 'null', postTitle: s.thread, postUrl: '', community: '', score: -i })),
  };
  return { ranked, fit: (text) => fits.get(text) ?? 0 };
}

/** The shipped rule on a labelled theme. */
export function shippedLead(theme: LabelledTheme): LabelledSignal {
  const { ranked, fit } = asRanked(theme);
  const lead = leadOf(ranked, fit);
  return theme.signals.find((s) => s.id === lead.id)!;
}

export interface BriefScore {
  /** Content items the brief shows (at most five). */
  items: number;
  /** Of those, items whose lead is a pain about the title. */
  good: number;
  /** Themes the brief could show (those that pass its coherence gate). */
  shown: number;
  /** Of those, themes whose lead would be a pain about the title. */
  shownGood: number;
}

/**
 * The brief the shipped rules build from `themes` (biggest first, as ranked for a window): its
 * content items and how many lead with a pain about their title. `gate` false shows every theme,
 * as the brief did before COHERENT_FIT.
 */
export function scoreBrief(themes: LabelledTheme[], gate = true): BriefScore {
  const byId = new Map(themes.map((t) => [`theme_${t.theme}`, { labelled: t, ...asRanked(t) }]));
  // Without the gate: every closeness raised by one, which passes every theme and keeps their order (the lead rule compares them).
  const fit = (text: string, ranked: RankedTheme) => byId.get(ranked.theme.themeId)!.fit(text) + (gate ? 0 : 1);
  const [content] = buildBrief({ project: { name: 'EvalKit', offerings: [] }, pains: [...byId.values()].map((t) => t.ranked), rivals: [], fit, quoteFit: () => 0 });
  const good = (s: LabelledSignal) => s.pain && s.onTopic;
  const leads = content!.items.map((item) => [...byId.values()].flatMap((t) => t.labelled.signals).find((s) => s.quote === item.surfaced.quote?.text)!);
  const shown = themes.filter((t) => {
    const { ranked, fit: closeness } = asRanked(t);
    return !gate || coherence(ranked, closeness) >= COHERENT_FIT;
  });
  return { items: leads.length, good: leads.filter(good).length, shown: shown.length, shownGood: shown.filter((t) => good(shippedLead(t))).length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const fixture of LEAD_FIXTURES) {
    const all = leadFixture(fixture);
    const halves: [string, LabelledTheme[]][] = [
      ['themes 1–20 (the rule was chosen on these)', all.slice(0, 20)],
      ['themes 21–40 (held out: the figure to report)', all.slice(20)],
    ];
    console.log(`\n## ${fixture}\n`);
    console.log('| themes | shipped rule | best-received quote | any rule at best |\n|---|---|---|---|');
    for (const [name, themes] of halves) {
      const shipped = scoreLeads(themes, shippedLead);
      const first = scoreLeads(themes, (t) => t.signals[0]!);
      console.log(`| ${name} | ${shipped.good}/${shipped.themes} | ${first.good}/${first.themes} | ${shipped.possible}/${shipped.themes} |`);
    }
    console.log('\nWhich themes a brief shows: its five content items, built by buildBrief from each half (biggest first).\n');
    console.log('| themes | items leading with a pain about their title, every theme shown | the same, coherent themes only (shipped) | themes shown / with a good lead |\n|---|---|---|---|');
    for (const [name, themes] of halves) {
      const before = scoreBrief(themes, false);
      const after = scoreBrief(themes);
      console.log(`| ${name} | ${before.good}/${before.items} | ${after.good}/${after.items} | ${before.shown} → ${after.shown} / ${before.shownGood} → ${after.shownGood} |`);
    }
  }
}
