/**
 * Theme grouping against the theme labels (test/fixtures/quality/THEMES.md): the rules analyzer
 * and the theme grouper run over all 240 fixture threads with their comments, in post order, as
 * one backfill would; then every pair of labelled pain posts is checked.
 *
 * Grouping is scored apart from detection: the pairs are those of labelled pain posts in which
 * the analyzer found a pain in the opening post (title and text). A post's predicted themes are
 * the themes of those pains (none while they wait in the unthemed pool). A pair is predicted
 * together when those sets share a theme, and truly together when the labels give both posts the
 * same theme.
 * - precision = pairs predicted together that are truly together ÷ pairs predicted together;
 * - recall = pairs truly together that are predicted together ÷ pairs truly together (a pooled
 *   post loses its pairs).
 * Per half: a pair counts for a half when both posts are in it.
 */
import { derivedId } from '../../../src/domain/ids.ts';
import { threadReader } from '../../../src/ingest/analyze/rules.ts';
import { painContext, ThemeGrouper, type GrouperOptions } from '../../../src/ingest/digest/themes.ts';
import { fixtureThreads } from '../../helpers/reddit-export.ts';
import { EVALUATION_MEMORY, loadLabels, loadThemeLabels, type LabelSet } from './evaluate.ts';

export interface GroupingScores {
  predictedPairs: number;
  goldPairs: number;
  truePairs: number;
  precision: number;
  recall: number;
  themes: number;
  threads: number;
  largest: number;
}

export function groupingBySet(options: GrouperOptions = {}): Record<LabelSet | 'all', GroupingScores> & { tuningDetails: string[] } {
  const threads = fixtureThreads().sort((a, b) => (a.postCreatedAt < b.postCreatedAt ? -1 : a.postCreatedAt > b.postCreatedAt ? 1 : a.id < b.id ? -1 : 1));
  const read = threadReader(EVALUATION_MEMORY);
  const grouper = new ThemeGrouper((doc) => derivedId('sov', 'eval', 'pain', doc.quote), options);
  const opening = new Map<string, string[]>();
  // Signal → theme, as a run stores it: where add() placed it, or where the pool later moved it.
  const themeOf = new Map<string, string>();
  for (const thread of threads) {
    for (const s of read(thread)) {
      if (s.kind !== 'pain') continue;
      const signalId = derivedId('sig', 'eval', thread.id, s.quote);
      const placed = grouper.add({ signalId, postId: thread.id, quote: s.quote, context: painContext(thread), at: s.at, community: thread.community });
      if (placed.themeId !== null) themeOf.set(signalId, placed.themeId);
      if (thread.title.includes(s.quote) || thread.selftext.includes(s.quote)) {
        opening.set(thread.id, [...(opening.get(thread.id) ?? []), signalId]);
      }
    }
  }
  grouper.recluster();
  for (const [signal, theme] of grouper.takeReassigned()) themeOf.set(signal, theme);
  const sizes = new Map<string, Set<string>>();
  for (const theme of grouper.changedThemes()) sizes.set(theme.id, theme.posts);

  const labels = loadLabels();
  const gold = loadThemeLabels().posts;
  const predicted = new Map<string, Set<string>>();
  for (const [postId, signals] of opening) {
    const themes = new Set(signals.map((s) => themeOf.get(s)).filter((t): t is string => t !== undefined));
    if (themes.size > 0) predicted.set(postId, themes);
  }
  const result = (set: LabelSet | 'all') => {
    const posts = labels.filter((l) => l.pain && opening.has(l.id) && (set === 'all' || l.set === set)).map((l) => l.id);
    let predictedPairs = 0;
    let goldPairs = 0;
    let truePairs = 0;
    for (let i = 0; i < posts.length; i++) {
      for (let j = i + 1; j < posts.length; j++) {
        const a = posts[i]!;
        const b = posts[j]!;
        const together = [...(predicted.get(a) ?? [])].some((t) => predicted.get(b)?.has(t));
        const truly = gold[a] !== undefined && gold[a] === gold[b];
        if (together) predictedPairs += 1;
        if (truly) goldPairs += 1;
        if (together && truly) truePairs += 1;
      }
    }
    return {
      predictedPairs,
      goldPairs,
      truePairs,
      precision: truePairs / Math.max(1, predictedPairs),
      recall: truePairs / Math.max(1, goldPairs),
      themes: sizes.size,
      threads: threads.length,
      largest: Math.max(0, ...[...sizes.values()].map((s) => s.size)),
    };
  };
  const details: string[] = ['\ngrouping (tuning half): labelled pain posts by predicted theme'];
  const tuning = labels.filter((l) => l.pain && l.set === 'tuning');
  const byTheme = new Map<string, string[]>();
  for (const l of tuning) for (const t of predicted.get(l.id) ?? ['(none)']) byTheme.set(t, [...(byTheme.get(t) ?? []), `${l.id}=${gold[l.id]}`]);
  for (const [t, members] of byTheme) {
    const theme = grouper.get(t);
    details.push(`  ${theme ? grouper.title(theme) : t}: ${members.join(' ')}`);
  }
  return { all: result('all'), tuning: result('tuning'), heldout: result('heldout'), tuningDetails: details };

}
