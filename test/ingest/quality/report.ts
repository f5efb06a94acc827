/**
 * `npm run quality`: the analyzer's scores against the hand labels, per half (docs/quality.md).
 * The held-out half is the honest figure. `--details` lists the misses and false alarms of the
 * TUNING half only: held-out posts are never shown one by one, so rules cannot drift towards them
 * (`--final` adds the held-out half's top products, for the report in docs/quality.md).
 */
import { heldOutAgreement } from './agreement.ts';
import { evaluateBySet, type Scores } from './evaluate.ts';
import { groupingBySet, type GroupingScores } from './grouping.ts';

const halves = evaluateBySet();
const grouping = groupingBySet();
const f = (x: number) => x.toFixed(3);
const rows: [string, (s: Scores, g: GroupingScores) => string][] = [
  ['pain precision', (s) => `${f(s.painPrecision)} (${s.truePositives}/${s.predictedPainPosts})`],
  ['pain recall', (s) => `${f(s.painRecall)} (${s.truePositives}/${s.painPosts})`],
  ['grouping precision (pairs)', (_, g) => `${f(g.precision)} (${g.truePairs}/${g.predictedPairs})`],
  ['grouping recall (pairs)', (_, g) => `${f(g.recall)} (${g.truePairs}/${g.goldPairs})`],
  ['product precision (top 20)', (s) => `${f(s.productPrecision)} (${s.topProducts.filter((p) => p.product).length}/${s.topProducts.length})`],
  ['product recall (all)', (s) => `${f(s.allRecall)} (${s.allFound}/${s.allMentions})`],
  ['product recall (tracked)', (s) => `${f(s.trackedRecall)} (${s.trackedFound}/${s.trackedMentions})`],
];
console.log(`| measure | held-out (${halves.heldout.posts} posts) | tuning (${halves.tuning.posts}) | all (${halves.all.posts}) |`);
console.log('|---|---|---|---|');
for (const [name, cell] of rows) {
  console.log(`| ${name} | ${cell(halves.heldout, grouping.heldout)} | ${cell(halves.tuning, grouping.tuning)} | ${cell(halves.all, grouping.all)} |`);
}
console.log(`\ngrouping: ${grouping.all.themes} themes over the ${grouping.all.threads} fixture threads (with comments); largest ${grouping.all.largest} posts`);
const top = (s: Scores) => s.topProducts.map((p) => `${p.name}${p.product ? '' : ' (NOT A PRODUCT)'} ×${p.posts}`).join(', ');
console.log(`top products, tuning half: ${top(halves.tuning)}`);
// The held-out half's list is for the final report only (docs/quality.md): read while changing
// rules, it would tune them to the held-out posts.
const second = heldOutAgreement();
console.log(
  `a second labeller on the held-out half (the ceiling): pain precision ${second.painPrecision.toFixed(3)}, recall ${second.painRecall.toFixed(3)}; product pairs precision ${second.productPrecision.toFixed(3)}, recall ${second.productRecall.toFixed(3)}`,
);
if (process.argv.includes('--final')) console.log(`top products, held-out half: ${top(halves.heldout)}`);

if (process.argv.includes('--details')) {
  for (const r of halves.tuning.results) {
    const predicted = r.predictedQuotes.length > 0;
    if (predicted === r.label.pain && (r.painHit || !r.label.pain)) continue;
    const kind = !r.label.pain ? 'FALSE ALARM' : predicted ? 'WRONG QUOTE' : 'MISS';
    console.log(`\n${kind} ${r.label.id} — ${r.post.title}\n  label: ${r.label.note}`);
    for (const q of r.label.quotes) console.log(`  gold: ${q.slice(0, 160)}`);
    for (const q of r.predictedQuotes) console.log(`  got:  ${q.slice(0, 160)}`);
  }
  console.log('\nproducts missed (tuning half):');
  for (const r of halves.tuning.results) {
    const missed = r.label.products.filter((p) => !r.predictedProducts.includes(familyOf(p)));
    const extra = r.predictedNames.filter((n) => !r.label.products.some((p) => familyOf(p) === familyOf(n)));
    if (missed.length || extra.length) console.log(`  ${r.label.id}: missed ${missed.join(', ') || '-'}; extra ${extra.join(', ') || '-'}`);
  }
  for (const line of grouping.tuningDetails) console.log(line);
}

import { familyKey as familyOf } from '../../../src/ingest/analyze/products.ts';
