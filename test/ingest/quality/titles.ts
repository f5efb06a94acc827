/**
 * Theme titles judged blind (test/fixtures/quality/theme-titles/README.md): two annotators
 * compared the old and the new title of the 40 biggest themes of the r/LocalLLaMA backfill, not
 * knowing which was which. Prints, per annotator, which title they preferred and how accurate
 * they found each; then, per later round (one title rule, every title it changes in an export
 * backfill, rated like the move titles of move-subjects.ts), the same for the titles the committed
 * rule changes.
 *
 *   node --import tsx test/ingest/quality/titles.ts
 */
import { readFileSync } from 'node:fs';
import { moveScores, type Answer as MoveAnswer, type Key as MoveKey, type Rating } from './move-subjects.ts';

interface Key {
  n: number;
  A: 'old' | 'new';
  B: 'old' | 'new';
}
interface Answer {
  group: number;
  better: 'A' | 'B' | 'same';
  accurateA: 0 | 1 | 2;
  accurateB: 0 | 1 | 2;
}

const dir = new URL('../../fixtures/quality/theme-titles/', import.meta.url);
const read = <T>(name: string): T => JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as T;

export function titleScores(answers: Answer[], key: Key[]) {
  const score = { preferNew: 0, preferOld: 0, same: 0, accuracy: { old: [0, 0, 0], new: [0, 0, 0] } };
  for (const answer of answers) {
    const k = key.find((x) => x.n === answer.group)!;
    if (answer.better === 'same') score.same += 1;
    else if (k[answer.better] === 'new') score.preferNew += 1;
    else score.preferOld += 1;
    score.accuracy[k.A][answer.accurateA]! += 1;
    score.accuracy[k.B][answer.accurateB]! += 1;
  }
  return score;
}

/** A later round: one title rule, every theme of an export backfill whose title it changes (`round-<name>-*.json`). */
interface RoundKey extends MoveKey {
  /** Whether the rule as committed (or, for a rule not kept or kept narrowed, as judged) changes this title: a round is judged on the code of its day. */
  shipped: boolean;
}

/**
 * The rounds, in order. A rule judged and not kept is scored on every title it changed. `shared`
 * was kept narrowed: a chunk two posts name comes first only when it is several words or an
 * uncommon word (`session-gated`: all kept rules so far against 19fc29b), and `written` judged
 * that word as written, not as keyed. `without-pieces` took `pieces` out again, judged once more
 * after the narrowing: here "new" is the code without it.
 */
const ROUNDS: { name: string; verdict: 'kept' | 'not kept' | 'kept narrowed' | 'kept, before written' }[] = [
  { name: 'nouns', verdict: 'kept' },
  { name: 'vague-heads', verdict: 'not kept' },
  { name: 'shared', verdict: 'kept narrowed' },
  { name: 'held-subsets', verdict: 'not kept' },
  { name: 'name-pieces', verdict: 'not kept' },
  { name: 'pieces', verdict: 'kept' },
  { name: 'session-ungated', verdict: 'not kept' },
  { name: 'session-gated', verdict: 'kept, before written' },
  { name: 'written', verdict: 'kept' },
  { name: 'without-pieces', verdict: 'not kept' },
  { name: 'units', verdict: 'kept' },
  { name: 'bigger-takes', verdict: 'not kept' },
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const key = read<Key[]>('key.json');
  console.log('| annotator | prefers new | prefers old | same | new: accurate / partly / misleading | old: accurate / partly / misleading |\n|---|---|---|---|---|---|');
  for (const name of ['answers-1.json', 'answers-2.json']) {
    const s = titleScores(read<Answer[]>(name), key);
    const acc = (a: number[]) => `${a[2]} / ${a[1]} / ${a[0]}`;
    console.log(`| ${name.replace(/\.json$/, '')} | ${s.preferNew} | ${s.preferOld} | ${s.same} | ${acc(s.accuracy.new)} | ${acc(s.accuracy.old)} |`);
  }
  console.log('\n| round | annotator | prefers new | prefers old | same | new: good / ok / bad | old: good / ok / bad |\n|---|---|---|---|---|---|---|');
  for (const { name, verdict } of ROUNDS) {
    const roundKey = read<RoundKey[]>(`round-${name}-key.json`);
    const shipped = new Set(roundKey.filter((k) => k.shipped).map((k) => k.id));
    for (const annotator of [1, 2]) {
      const s = moveScores(read<MoveAnswer[]>(`round-${name}-answers-${annotator}.json`).filter((a) => shipped.has(a.id)), roundKey);
      const rated = (r: Record<Rating, number>) => `${r.good} / ${r.ok} / ${r.bad}`;
      console.log(`| ${name} (${verdict}) | ${annotator} | ${s.preferNew} | ${s.preferOld} | ${s.same} | ${rated(s.rated.new)} | ${rated(s.rated.old)} |`);
    }
  }
}
