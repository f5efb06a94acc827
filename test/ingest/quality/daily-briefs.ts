/**
 * Daily briefs as a founder reads them, judged blind (test/fixtures/quality/daily-briefs/README.md):
 * every item of seven daily briefs of the r/LocalLLaMA export, each rated by two annotators who
 * saw only the item (title, quote, move, threads). Prints, per question, how many items each
 * annotator said yes to, and the same by section and by kind of move.
 *
 *   node --import tsx test/ingest/quality/daily-briefs.ts
 */
import { readFileSync } from 'node:fs';

type MoveRating = 'good' | 'ok' | 'bad';
interface Item {
  id: string;
  move_title: string;
}
interface Key {
  id: string;
  day: string;
  section: 'content' | 'offers';
}
interface Answer {
  id: string;
  title_ok: boolean;
  quote_pain: boolean;
  quote_fits_title: boolean;
  move: MoveRating;
  forward: boolean;
}

const dir = new URL('../../fixtures/quality/daily-briefs/', import.meta.url);
const read = <T>(name: string): T => JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as T;

const QUESTIONS = ['title_ok', 'quote_pain', 'quote_fits_title', 'forward'] as const;

/** What kind of move an item proposes, by its title's opening (brief.ts writes these three). */
export function moveKind(title: string): 'offer' | 'position' | 'content' {
  return title.startsWith('Offer ') ? 'offer' : title.startsWith('Position ') ? 'position' : 'content';
}

export function tally(answers: Answer[], ids: ReadonlySet<string>) {
  const mine = answers.filter((a) => ids.has(a.id));
  const yes = Object.fromEntries(QUESTIONS.map((q) => [q, mine.filter((a) => a[q]).length])) as Record<(typeof QUESTIONS)[number], number>;
  const moves = { good: 0, ok: 0, bad: 0 };
  for (const a of mine) moves[a.move] += 1;
  return { items: mine.length, ...yes, moves };
}

/** One row per group and annotator; annotators are numbered from `first` (two per fixture). */
function printTable(groups: [string, Set<string>][], answers: Answer[][], first: number): void {
  console.log('| items | annotator | n | title names something | quote is a pain | quote fits title | move good / ok / bad | worth forwarding |\n|---|---|---|---|---|---|---|---|');
  for (const [name, ids] of groups) {
    answers.forEach((a, i) => {
      const t = tally(a, ids);
      console.log(`| ${name} | ${i + first} | ${t.items} | ${t.title_ok} | ${t.quote_pain} | ${t.quote_fits_title} | ${t.moves.good} / ${t.moves.ok} / ${t.moves.bad} | ${t.forward} |`);
    });
  }
}

/**
 * A folder of items from two or more versions of the briefs, rated together by two annotators
 * blind to the version: `key.json` says which versions hold each item (an item in several is
 * rated once). One row per version and annotator.
 */
function printRatedTogether(folder: string, heading: string, firstAnnotator: number, versions: [name: string, version: string][]): void {
  const key = read<{ id: string; versions: string[] }[]>(`${folder}key.json`);
  const rated = [read<Answer[]>(`${folder}answers-1.json`), read<Answer[]>(`${folder}answers-2.json`)];
  const holding = (version: string) => new Set(key.filter((k) => k.versions.includes(version)).map((k) => k.id));
  console.log(`\n${heading} (${folder}):\n`);
  printTable(
    versions.map(([name, version]) => [name, holding(version)]),
    rated,
    firstAnnotator,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const items = read<Item[]>('items.json');
  const key = new Map(read<Key[]>('key.json').map((k) => [k.id, k]));
  const answers = [read<Answer[]>('answers-1.json'), read<Answer[]>('answers-2.json')];
  const groups: [string, Set<string>][] = [
    ['all items', new Set(items.map((i) => i.id))],
    ['content section', new Set(items.filter((i) => key.get(i.id)!.section === 'content').map((i) => i.id))],
    ['offers section', new Set(items.filter((i) => key.get(i.id)!.section === 'offers').map((i) => i.id))],
    ['offer moves', new Set(items.filter((i) => moveKind(i.move_title) === 'offer').map((i) => i.id))],
  ];
  printTable(groups, answers, 1);

  // The same seven days at 2026-11-27's head, rated with the items of efa2a52 by two other
  // annotators, blind to which brief an item came from (an item in both is rated once).
  printRatedTogether('rerated-2026-11-27/', 'Rated again together', 3, [
    ['before (efa2a52)', 'old'],
    ['after (2026-11-27)', 'new'],
  ]);

  // A brief that showed only items whose quote reads as a pain on its own (tried, not kept):
  // 5bbf27c's briefs and that rule's, on the seven days the rule was chosen on and on the seven
  // days before them, the check.
  printRatedTogether('clear-leads-2026-11-27/days-07-31/', 'Clear quotes only, 2025-07-31 to 08-06 (the rule was chosen on these)', 5, [
    ['5bbf27c', 'old'],
    ['clear quotes only', 'new'],
  ]);
  printRatedTogether('clear-leads-2026-11-27/days-07-24/', 'Clear quotes only, 2025-07-24 to 07-30 (the check)', 7, [
    ['5bbf27c', 'old'],
    ['clear quotes only', 'new'],
  ]);

  // Denials are no pains (pain.ts deniesProblem): the items that changed on both sets of days
  // (most through themes formed a little differently).
  printRatedTogether('denials-2026-11-27/', 'Denials are no pains, the items that changed', 9, [
    ['07-31 to 08-06, before', 'old'],
    ['07-31 to 08-06, after', 'new'],
    ['07-24 to 07-30, before', 'oldb'],
    ['07-24 to 07-30, after', 'newb'],
  ]);

  // A theme is shown only when its lead or the lead's thread names what its title names
  // (brief.ts namesItsTitle): the items that changed, on the two sets of days above (the rule was
  // drawn from their ratings) and on seven days before them (the check).
  printRatedTogether('named-leads-2026-11-27/', 'Only themes whose lead names their title, the items that changed', 11, [
    ['07-31 to 08-06, before', 'olda'],
    ['07-31 to 08-06, after', 'newa'],
    ['07-24 to 07-30, before', 'oldb'],
    ['07-24 to 07-30, after', 'newb'],
    ['07-17 to 07-23 (check), before', 'oldc'],
    ['07-17 to 07-23 (check), after', 'newc'],
  ]);

  // The session's three changes together (denials, leads that name their title, round 12 of the
  // moves), on seven days no rule was drawn from or checked on: every item, rated blind.
  printRatedTogether('unseen-days-2026-11-27/', 'Before and after 2026-11-27, 2025-07-10 to 07-16 (days never looked at)', 13, [
    ['5bbf27c', 'old'],
    ['a229c27', 'new'],
  ]);

  // The same two versions on the demo's own briefs (`signals demo`, the devtools project): the
  // items that differ, rated blind.
  printRatedTogether('demo-2026-11-27/', 'Before and after 2026-11-27, the demo\'s briefs, the items that differ', 15, [
    ['5bbf27c', 'old'],
    ['a229c27', 'new'],
  ]);

  // Between themes with as many posts in the window, the one more posts have voiced so far comes
  // first (store/digest.ts themesInWindow): every item of 8d9b3a1's briefs and the new ones, on
  // seven days no rule had been drawn from (06-26 to 07-02) and on seven read once before the rule
  // (07-03 to 07-09).
  printRatedTogether('ranking-2026-11-27/', 'Recurring themes first, every item', 17, [
    ['06-26 to 07-02, before', 'olda'],
    ['06-26 to 07-02, after', 'newa'],
    ['07-03 to 07-09, before', 'oldb'],
    ['07-03 to 07-09, after', 'newb'],
  ]);

  // The later session's changes together (round 13 of the moves, spoken contractions, recurring
  // themes first), on the days the earlier session kept unseen (no rule of this session was drawn
  // from them): every item of c048552's briefs and 6cf044e's, rated blind.
  printRatedTogether('later-session-2026-11-27/', 'Before and after the later session of 2026-11-27, 2025-07-10 to 07-16', 19, [
    ['c048552', 'old'],
    ['6cf044e', 'new'],
  ]);

  // The demo over 445 threads instead of 240 (fixtures/localllama-demo-days.json.gz: 28 more
  // threads for each of its last eight days): every item of EvalKit's eight briefs, before and
  // after, rated blind.
  printRatedTogether('denser-demo-2026-11-27/', "The demo's briefs over 240 threads and over 445", 21, [
    ['240 threads (aab3879)', 'old'],
    ['445 threads', 'new'],
  ]);

  // A quote that speaks to someone ("you…") leads only when no other can (brief.ts leadOf): the
  // items that changed over 2025-07-17 to 07-30 and the demo's briefs, before and after, mixed.
  printRatedTogether('second-person-2026-11-27/', 'Quotes that speak to someone lead last, the items that changed', 23, [
    ['before (0e6dd9c)', 'old'],
    ['after', 'new'],
  ]);

  // A negation that belongs to another verb is no failure (pain.ts negatesAnotherVerb): the items
  // that changed over 2025-07-24 to 08-06, before and after, mixed.
  printRatedTogether('negations-2026-11-27/', 'Negations of another verb, the items that changed', 25, [
    ['07-31 to 08-06, before (576bb9b)', 'old'],
    ['07-31 to 08-06, after', 'new'],
    ['07-24 to 07-30, before (576bb9b)', 'oldb'],
    ['07-24 to 07-30, after', 'newb'],
  ]);

  // A quote that complains of speed or cost gets an offering only when the offering speaks of it
  // (brief.ts answersItsAspect): the offer items that changed over 2025-07-24 to 08-06, mixed.
  printRatedTogether('offer-aspects-2026-11-27/', 'Offers for speed and cost, the items that changed', 27, [
    ['07-31 to 08-06, before (12bc017)', 'old'],
    ['07-31 to 08-06, after', 'new'],
    ['07-24 to 07-30, before (12bc017)', 'oldb'],
    ['07-24 to 07-30, after', 'newb'],
  ]);

  // This session's changes together (negations of another verb, move rounds 24–28, offers for speed
  // and cost), on seven days none of them was drawn from (2025-07-17 to 07-23, with the demo's
  // briefs): the items that differ between 576bb9b and ca4757a, mixed.
  printRatedTogether('session-changes-2026-11-27/', 'Before and after this session, 2025-07-17 to 07-23 and the demo, the items that differ', 29, [
    ['576bb9b', 'old'],
    ['ca4757a', 'new'],
  ]);

  // Theme titles that name what two posts share, any chunk two posts name first (a version not
  // kept: its titles were judged better over the export backfill, not in the daily briefs), on
  // 2025-06-29 to 07-05 with the demo's briefs: the items that differ from 19fc29b, mixed.
  printRatedTogether('titles-shared-2026-11-27/', 'Any shared chunk titles first, 2025-06-29 to 07-05 and the demo, the items that differ (not kept)', 31, [
    ['19fc29b', 'old'],
    ['shared chunks first', 'new'],
  ]);

  // A shared chunk first only when it is several words or an uncommon word, the word judged as
  // keyed ("datum" for "data"), the same days, the items that differ from 19fc29b, mixed.
  printRatedTogether('titles-gated-2026-11-27/', 'Shared chunks first when particular, 2025-06-29 to 07-05 and the demo, the items that differ', 33, [
    ['19fc29b', 'old'],
    ['particular shared chunks first', 'new'],
  ]);

  // The titles as kept: that word judged as written ("data", "RAG"), the same days, the items
  // that differ from 19fc29b, mixed.
  printRatedTogether('titles-final-2026-11-27/', 'Theme titles as kept, 2025-06-29 to 07-05 and the demo, the items that differ', 35, [
    ['19fc29b', 'old'],
    ['titles as kept', 'new'],
  ]);

  // The session's end (8778050: the title rules, units and shorthand, mix-ups), the same days,
  // the items that differ from 19fc29b, mixed.
  printRatedTogether('session-head-2026-11-27/', 'Before and after the session of 2026-11-27 (titles, mix-ups), 2025-06-29 to 07-05 and the demo, the items that differ', 37, [
    ['19fc29b', 'old'],
    ['8778050', 'new'],
  ]);

  // Themes founded only by two pains that name one thing (themes.ts sharesAName), at a0553d4 and
  // with the rule, each from a demo database made by the same code: 2025-07-17 to 07-23 with the
  // demo's own briefs (rated in two parts by four annotators: an answers file joins two of them),
  // then 2025-07-24 to 07-30 without them. First the version that asked for a particular name
  // only, then the one kept (a particular name, or one few pains name).
  printRatedTogether('shared-names-2026-11-27/days-07-17/', 'Themes founded by a particular shared name, 2025-07-17 to 07-23 and the demo, the items that differ', 39, [
    ['a0553d4', 'old'],
    ['founded by a particular name', 'new'],
  ]);
  printRatedTogether('shared-names-2026-11-27/days-07-24/', 'Themes founded by a particular shared name, 2025-07-24 to 07-30, the items that differ', 43, [
    ['a0553d4', 'old'],
    ['founded by a particular name', 'new'],
  ]);
  printRatedTogether('shared-names-2026-11-27/rare-days-07-17/', 'Themes founded by a particular or rare shared name (kept), 2025-07-17 to 07-23 and the demo, the items that differ', 45, [
    ['a0553d4', 'old'],
    ['founded by a particular or rare name', 'new'],
  ]);
  printRatedTogether('shared-names-2026-11-27/rare-days-07-24/', 'Themes founded by a particular or rare shared name (kept), 2025-07-24 to 07-30, the items that differ', 49, [
    ['a0553d4', 'old'],
    ['founded by a particular or rare name', 'new'],
  ]);

  // Tried, not kept: a theme is shown only when its lead or the lead's thread says the head (last
  // word) of what its title names, not any of its words. 5f99131 and the rule, five sets of seven
  // days (07-03 to 08-06, each a backfill to its first day from a fresh demo), the items that differ.
  printRatedTogether('head-term-2026-11-28/', 'A title\'s head word in the lead or its thread (not kept), 2025-07-03 to 08-06, the items that differ', 51, [
    ['5f99131', 'old'],
    ['head word', 'new'],
  ]);

  // Where the brief stands: 60 items drawn at random (seed 77) from the 183 of 35 daily briefs
  // (2025-07-03 to 08-06, five sets of seven days as above, at 5f99131), rated by two more annotators.
  printRatedTogether('absolute-2026-11-28/', 'The brief at 5f99131: 60 random items of 35 daily briefs, 2025-07-03 to 08-06', 53, [['5f99131', '5f99131']]);

  // Tried, not kept: a quote that supposes ("if", "unless", "whether"; not "even if", "as if")
  // leads only when no other of its theme's window quotes can, after one that speaks to someone.
  // 281c82f and the rule, the same five sets of seven days: the 8 leads that changed, both sides.
  // Kept: a theme item's move is about what the theme's title names when the lead's quote says it
  // and the move named another thing of the quote (brief.ts `themeMove`, moves.ts `moveSubject`).
  // 281c82f and the rule, the same five sets of seven days: the items whose move changed.
  printRatedTogether('theme-subject-moves-2026-11-28/', "Moves about the theme's subject (kept), 2025-07-03 to 08-06, the items that differ", 57, [
    ['281c82f', 'old'],
    ["the theme's subject", 'new'],
  ]);
  // Tried, not kept: a walkthrough names only a product or a subject written as a name, else "it".
  // 0db8508 and the rule (brief-ab.ts, seeds 71 and 72 over nine sets): 3 pairs, one repeated.
  printRatedTogether('named-guides-2026-11-28/', 'Guides that name a name (not kept), nine sets of seven days, the items that differ', 71, [
    ['0db8508', 'old'],
    ['names only', 'new'],
  ]);
  // Kept: a fix says how the failure shows ("crashing", "throwing errors", "not loading") instead
  // of "failing" (moves.ts `symptomOf`). cb37496 and the rule (brief-ab.ts, seed 69): the 12 pairs whose move changed.
  printRatedTogether('fix-symptoms-2026-11-28/', 'Fixes that say the symptom (kept), 2025-07-03 to 08-06, the items that differ', 69, [
    ['cb37496', 'old'],
    ['the symptom', 'new'],
  ]);
  // Kept: a single report is shown only when its sentence says a problem strongly (brief.ts
  // `standsAlone`). Not brief-ab.ts (single reports are 1 of 218 items there): for each day of a
  // backfill to 07-31 plus a week, the single report a thin window would show before and after the
  // rule, 12 of the 24 days where they differ (make-pairs.ts, seed 84).
  printRatedTogether('single-reports-2026-11-28/', 'Single reports that stand alone (kept), 12 days of 2025-07-01 to 08-07, the single report before and after', 81, [
    ['e887d1a', 'old'],
    ['stands alone', 'new'],
  ]);
  // Kept: a quote that tells of a problem its writer got past leads only when no other can
  // (brief.ts `leadOf`, pain.ts `overcomesProblem`). d76eb7d and the rule (brief-ab.ts, seed 79):
  // the 2 leads that changed.
  printRatedTogether('got-past-leads-2026-11-28/', 'Problems got past lead last (kept), 2025-07-03 to 08-06, the items that differ', 79, [
    ['d76eb7d', 'old'],
    ['got past leads last', 'new'],
  ]);
  // Not a comparison: 60 items drawn at random (seed 77) from the 218 items of the five sets at
  // 7606071, after this session's rules, to set beside 5f99131's figures above.
  printRatedTogether('brief-now-2026-11-28/', 'The brief at 7606071: 60 random items of 35 daily briefs, 2025-07-03 to 08-06', 75, [['7606071', '7606071']]);
  // Kept: a complaint that says what is bad gets a side-by-side on exactly that ("Show how llama
  // compares on summarizing"; moves.ts `aspectMove`, move-aspect.ts), and a complaint's subject
  // loses its own adjective ("terrible stock voices" → "stock voices"). 30de3df and the rule over
  // thirteen sets of seven days (brief-ab.ts, seeds 73–75, merged, seed 76): the 3 pairs that changed.
  printRatedTogether('complaint-aspects-2026-11-28/', 'Complaints that say what is bad (kept), thirteen sets of seven days, the items that differ', 73, [
    ['30de3df', 'old'],
    ['the aspect', 'new'],
  ]);
  // Kept: hardware too small for what the writer wants to run gets what runs where, not a fix
  // (moves.ts, move-hardware.ts). 94e8dca and the rule (brief-ab.ts, seed 65): the 7 pairs whose
  // move changed once a model's size alone was no longer taken for hardware (2 of 9 pairs dropped).
  printRatedTogether('hardware-moves-2026-11-28/', 'Hardware too small (kept), 2025-07-03 to 08-06, the items that differ', 67, [
    ['94e8dca', 'old'],
    ['what runs where', 'new'],
  ]);
  // Tried, not kept: between quotes that say as much of the title, one that says its problem
  // strongly (brief.ts standsAlone) leads (strong-leads-2026-11-28/rule.patch). c055807 and the
  // rule (brief-ab.ts, seed 89): the 40 items that differ.
  printRatedTogether('strong-leads-2026-11-28/', 'Leads that say their problem strongly first (not kept), 2025-07-03 to 08-06, the items that differ', 87, [
    ['c055807', 'old'],
    ['strong leads first', 'new'],
  ]);
  // Tried, not kept: a difficulty's guide names only what the grammar of the difficulty says is
  // hard, else nothing (guide-subjects-2026-11-28/rule.patch). c5f9deb and the rule (brief-ab.ts,
  // seed 83; seed 85 drew the same 10 pairs after two more cases were added): the 10 pairs.
  printRatedTogether('guide-subjects-2026-11-28/', 'Guides named by the grammar of the difficulty (not kept), 2025-07-03 to 08-06, the items that differ', 83, [
    ['c5f9deb', 'old'],
    ['guides by grammar', 'new'],
  ]);
  // Tried, not kept: between quotes that say as much of the title, one whose move (as the brief
  // writes it) names something leads. 42fc828 and the rule, the same sets: the 8 leads that changed.
  // Tried, not kept: a failure measured against benchmarks, other things, the writer's tests or
  // expectations (and no malfunction beside it) answered as a complaint. 8781aef and the rule
  // (brief-ab.ts, seed 7171): the 5 items whose move changed.
  // Tried, not kept: a theme item's summary without its example quote (the lead quote stands right
  // below it). 92d13a9 and the variant (brief-ab.ts, seed 11): 30 of the 191 pairs drawn (seed 99).
  printRatedTogether('no-example-2026-11-28/', 'Summaries without their example quote (not kept), 2025-07-03 to 08-06, 30 pairs of the 191', 63, [
    ['92d13a9', 'old'],
    ['no example', 'new'],
  ]);
  printRatedTogether('judged-failures-2026-11-28/', 'Failures measured against something as complaints (not kept), 2025-07-03 to 08-06, the items that differ', 61, [
    ['8781aef', 'old'],
    ['judged failures as complaints', 'new'],
  ]);
  printRatedTogether('named-leads-2026-11-28/', 'Leads whose move names something first (not kept), 2025-07-03 to 08-06, the items that differ', 59, [
    ['42fc828', 'old'],
    ['moves that name something first', 'new'],
  ]);
  printRatedTogether('supposes-2026-11-28/', 'Quotes that suppose lead last (not kept), 2025-07-03 to 08-06, the items that differ', 55, [
    ['281c82f', 'old'],
    ['supposing quotes last', 'new'],
  ]);
}
