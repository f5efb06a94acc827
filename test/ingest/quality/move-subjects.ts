/**
 * Move titles judged blind (test/fixtures/quality/move-subjects/README.md): per round, two
 * annotators compared the move title before and after a rule on 40–60 pains it changes, not
 * knowing which was which. Prints which title each preferred and how each title was rated.
 *
 *   node --import tsx test/ingest/quality/move-subjects.ts
 */
import { readFileSync } from 'node:fs';

export type Rating = 'good' | 'ok' | 'bad';
export interface Key {
  id: number | string;
  new: 'A' | 'B';
}
export interface Answer {
  id: number | string;
  better: 'A' | 'B' | 'same';
  A: Rating;
  B: Rating;
}

const dir = new URL('../../fixtures/quality/move-subjects/', import.meta.url);
const read = <T>(name: string): T => JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as T;

export function moveScores(answers: Answer[], key: Key[]) {
  const score = { preferNew: 0, preferOld: 0, same: 0, rated: { new: { good: 0, ok: 0, bad: 0 }, old: { good: 0, ok: 0, bad: 0 } } };
  for (const answer of answers) {
    const newSide = key.find((k) => k.id === answer.id)!.new;
    const oldSide = newSide === 'A' ? 'B' : 'A';
    if (answer.better === 'same') score.same += 1;
    else if (answer.better === newSide) score.preferNew += 1;
    else score.preferOld += 1;
    score.rated.new[answer[newSide]] += 1;
    score.rated.old[answer[oldSide]] += 1;
  }
  return score;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('| round | annotator | prefers new | prefers old | same | new: good / ok / bad | old: good / ok / bad |\n|---|---|---|---|---|---|---|');
  for (const round of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, '13-check', 14, 15, 16, '16-bodies', '17-bodies', 18, 19, 20, 21, 'briefs', 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32]) {
    const key = read<Key[]>(`round-${round}-key.json`);
    for (const annotator of [1, 2]) {
      const s = moveScores(read<Answer[]>(`round-${round}-answers-${annotator}.json`), key);
      const rated = (r: Record<Rating, number>) => `${r.good} / ${r.ok} / ${r.bad}`;
      console.log(`| ${round} | ${annotator} | ${s.preferNew} | ${s.preferOld} | ${s.same} | ${rated(s.rated.new)} | ${rated(s.rated.old)} |`);
    }
  }
}
