/**
 * Theme titles judged blind (test/fixtures/quality/theme-titles/README.md): two annotators
 * compared the old and the new title of the 40 biggest themes of the r/LocalLLaMA backfill, not
 * knowing which was which. Prints, per annotator, which title they preferred and how accurate
 * they found each.
 *
 *   node --import tsx test/ingest/quality/titles.ts
 */
import { readFileSync } from 'node:fs';

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

if (import.meta.url === `file://${process.argv[1]}`) {
  const key = read<Key[]>('key.json');
  console.log('| annotator | prefers new | prefers old | same | new: accurate / partly / misleading | old: accurate / partly / misleading |\n|---|---|---|---|---|---|');
  for (const name of ['answers-1.json', 'answers-2.json']) {
    const s = titleScores(read<Answer[]>(name), key);
    const acc = (a: number[]) => `${a[2]} / ${a[1]} / ${a[0]}`;
    console.log(`| ${name.replace(/\.json$/, '')} | ${s.preferNew} | ${s.preferOld} | ${s.same} | ${acc(s.accuracy.new)} | ${acc(s.accuracy.old)} |`);
  }
}
