/**
 * `npm run quality`: the analyzer's scores against the hand labels, with the misses and false
 * alarms listed so a change to the rules can be judged post by post (docs/quality.md).
 */
import { evaluate } from './evaluate.ts';

const s = evaluate();
const pct = (x: number) => x.toFixed(3);
console.log(`posts ${s.posts}, labelled pain ${s.painPosts}, predicted pain ${s.predictedPainPosts}, true positives ${s.truePositives}`);
console.log(`pain precision ${pct(s.painPrecision)}  recall ${pct(s.painRecall)}`);
console.log(`product recall, tracked products ${pct(s.trackedRecall)} (${s.trackedFound}/${s.trackedMentions}); all products ${pct(s.allRecall)} (${s.allFound}/${s.allMentions})`);
if (process.argv.includes('--details')) {
  for (const r of s.results) {
    const predicted = r.predictedQuotes.length > 0;
    if (predicted === r.label.pain && (r.painHit || !r.label.pain)) continue;
    const kind = !r.label.pain ? 'FALSE ALARM' : predicted ? 'WRONG QUOTE' : 'MISS';
    console.log(`\n${kind} ${r.label.id} — ${r.post.title}\n  label: ${r.label.note}`);
    for (const q of r.label.quotes) console.log(`  gold: ${q.slice(0, 160)}`);
    for (const q of r.predictedQuotes) console.log(`  got:  ${q.slice(0, 160)}`);
  }
}
