/**
 * Offerings and the quote they answer, judged blind (test/fixtures/quality/offer-quote/README.md):
 * pairs of a pain quote of the r/LocalLLaMA export backfill and one of the demo's offerings, each
 * labelled by two annotators (would the offering help the writer with what the quote says?).
 * Prints how many pairs each rule of brief.ts keeps and how many of them both annotators call
 * relevant ("yes" or "partly"), on the development and test halves of the labels (split by a hash
 * of the signal id).
 *
 *   node --import tsx test/ingest/quality/offer-quote.ts            # the figures
 *   node --import tsx test/ingest/quality/offer-quote.ts BACKFILL.db  # re-score every pair of a backfill (JSON on stdout)
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { OFFER_FIT, OFFER_QUOTE_FIT } from '../../../src/ingest/digest/brief.ts';
import { seedGrouper } from '../../../src/ingest/digest/run.ts';
import { ThemeGrouper } from '../../../src/ingest/digest/themes.ts';
import { DEMO_PROJECTS } from '../../../src/ingest/demo.ts';
import { openStore } from '../../../src/store/db.ts';

interface Key {
  id: number;
  signal: string;
  offering: string;
  quoteFit: number;
  themeFit: number | null;
  /** How the pair was drawn: a band of quoteFit ("q0.1": from 0.1 up to the next band), "theme" (themeFit ≥ 0.12, quoteFit < 0.08), "top" (every pair above the bands' sample). */
  stratum: string;
}
type Relevance = 'yes' | 'partly' | 'no';
interface DailyAnswer {
  id: string;
  move: 'good' | 'ok' | 'bad';
  forward: boolean;
}

const EVALKIT_OFFERINGS = DEMO_PROJECTS.find((p) => p.id === 'prj_demo_devtools')!.offerings;
const dir = new URL('../../fixtures/quality/offer-quote/', import.meta.url);
const read = <T>(name: string): T => JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as T;

export function half(signal: string): 'development' | 'test' {
  return createHash('sha1').update(signal).digest()[19]! % 2 === 0 ? 'development' : 'test';
}

async function scorePairs(dbFile: string): Promise<void> {
  const store = openStore(`sqlite:${dbFile}`);
  const projectId = 'prj_demo_devtools';
  const grouper = new ThemeGrouper(() => 'unused');
  await seedGrouper(grouper, store, projectId);
  const pains = await store.db.selectFrom('signals').select(['id', 'quote', 'theme_id']).where('project_id', '=', projectId).where('kind', '=', 'pain').execute();
  const out = EVALKIT_OFFERINGS.flatMap((offering) => {
    const text = `${offering.name} ${offering.description}`;
    return pains.map((p) => ({ signal: p.id, offering: offering.name, quoteFit: grouper.quoteFit(text, p.quote), themeFit: p.theme_id ? grouper.fit(text, p.theme_id) : null }));
  });
  process.stdout.write(`${JSON.stringify(out)}\n`);
  await store.close();
}

/** The daily briefs' offering items before and after the quote rule, rated blind together (daily-offers/). */
function dailyOffers(): void {
  const key = read<{ id: string; version: 'old' | 'new' }[]>('daily-offers/key.json');
  const answers = [read<DailyAnswer[]>('daily-offers/answers-1.json'), read<DailyAnswer[]>('daily-offers/answers-2.json')].map((a) => new Map(a.map((x) => [x.id, x])));
  console.log('\nDaily briefs, offering items rated blind together:\n\n| offering items | items | move good / ok / bad (each annotator) | worth forwarding (each) |\n|---|---|---|---|');
  for (const [version, name] of [['old', 'before (theme fit)'], ['new', 'after (quote fit)']] as const) {
    const ids = key.filter((k) => k.version === version).map((k) => k.id);
    const moves = answers.map((a) => (['good', 'ok', 'bad'] as const).map((m) => ids.filter((id) => a.get(id)!.move === m).length).join(' / ')).join(', ');
    const forward = answers.map((a) => ids.filter((id) => a.get(id)!.forward).length).join(', ');
    console.log(`| ${name} | ${ids.length} | ${moves} | ${forward} |`);
  }
}

function report(): void {
  const key = read<Key[]>('key.json');
  const answers = [read<{ id: number; relevant: Relevance }[]>('answers-1.json'), read<{ id: number; relevant: Relevance }[]>('answers-2.json')].map((a) => new Map(a.map((x) => [x.id, x.relevant])));
  const relevant = (k: Key) => answers.every((a) => a.get(k.id) !== 'no');
  const agree = key.filter((k) => (answers[0]!.get(k.id) === 'no') === (answers[1]!.get(k.id) === 'no')).length;
  console.log(`${key.length} pairs, the annotators agree on ${agree} (relevant or not)\n`);

  console.log('Sampled bands (a pair counts as relevant when both annotators say yes or partly):\n\n| offering | band | pairs | relevant |\n|---|---|---|---|');
  const bands = [...new Set(key.map((k) => k.stratum))];
  for (const offering of EVALKIT_OFFERINGS.map((o) => o.name)) {
    for (const band of bands) {
      const mine = key.filter((k) => k.offering === offering && k.stratum === band);
      if (mine.length > 0) console.log(`| ${offering} | ${band} | ${mine.length} | ${mine.filter(relevant).length} |`);
    }
  }
  // Every pair with quoteFit ≥ 0.2 (and ≥ 0.15 with themeFit ≥ OFFER_FIT) is labelled, so these rows are counts, not estimates.
  console.log(`\nRules, every labelled pair they keep (quoteFit ≥ 0.2 is labelled in full):\n\n| rule | development: kept, relevant | test: kept, relevant |\n|---|---|---|`);
  for (const q of [0.2, 0.22, OFFER_QUOTE_FIT, 0.28, 0.3]) {
    for (const theme of [null, OFFER_FIT]) {
      const keep = (k: Key) => k.quoteFit >= q && (theme === null || (k.themeFit ?? 0) >= theme);
      const cell = (h: string) => {
        const kept = key.filter((k) => half(k.signal) === h && keep(k));
        const good = kept.filter(relevant).length;
        return `${kept.length}, ${good} (${(good / Math.max(1, kept.length)).toFixed(2)})`;
      };
      const shipped = q === OFFER_QUOTE_FIT && theme === OFFER_FIT ? ' **(shipped)**' : '';
      console.log(`| quote ≥ ${q}${theme === null ? '' : `, theme ≥ ${theme}`}${shipped} | ${cell('development')} | ${cell('test')} |`);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2]) await scorePairs(process.argv[2]);
  else {
    report();
    dailyOffers();
  }
}
