/**
 * competitors.list judged blind (test/fixtures/quality/competitor-list/README.md): the 200
 * most-mentioned entries of an export backfill, each labelled product or not by two annotators.
 * For each SQLite database given (a backfill of the demo project), prints the share of products
 * among its top 20 / 50 / 100 / 150 entries, and, per half of the labelled names, how many
 * mentions of products and of non-products it holds.
 *
 *   node --import tsx test/ingest/quality/competitor-list.ts before.db after.db
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';

interface Item {
  n: number;
  name: string;
  key: string;
}
interface Answer {
  n: number;
  product: 'yes' | 'no' | 'unsure';
}

const dir = new URL('../../fixtures/quality/competitor-list/', import.meta.url);
const read = <T>(name: string): T => JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as T;
const PROJECT = 'prj_demo_devtools';

type Verdict = 'product' | 'not' | 'split';
type Half = 'development' | 'test';

function labels(): Map<string, { name: string; verdict: Verdict; half: Half }> {
  const [one, two] = [read<Answer[]>('answers-1.json'), read<Answer[]>('answers-2.json')].map((a) => new Map(a.map((x) => [x.n, x.product === 'yes'])));
  const out = new Map<string, { name: string; verdict: Verdict; half: Half }>();
  for (const item of read<Item[]>('items.json')) {
    const yes = Number(one!.get(item.n)) + Number(two!.get(item.n));
    const half = /[02468ace]$/.test(createHash('sha1').update(item.key).digest('hex')) ? 'development' : 'test';
    out.set(item.key, { name: item.name, verdict: yes === 2 ? 'product' : yes === 0 ? 'not' : 'split', half });
  }
  return out;
}

function mentions(file: string): { key: string; mentions: number }[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('select competitor_key as key, mentions from competitor_totals where project_id = ? order by mentions desc, competitor_key').all(PROJECT) as { key: string; mentions: number }[];
  } finally {
    db.close();
  }
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node --import tsx test/ingest/quality/competitor-list.ts <sqlite file> [<sqlite file>…]');
  process.exit(2);
}
const labelled = labels();
console.log('| database | top 20 | top 50 | top 100 | top 150 | mentions of products (development / test half) | of non-products | non-products gone from the list |');
console.log('|---|---|---|---|---|---|---|---|');
for (const file of files) {
  const rows = mentions(file);
  const at = (n: number) => {
    const top = rows.slice(0, n);
    const products = top.filter((r) => labelled.get(r.key)?.verdict === 'product').length;
    const unlabelled = top.filter((r) => !labelled.has(r.key)).length;
    return `${(products / n).toFixed(2)}${unlabelled ? ` (${unlabelled} unlabelled)` : ''}`;
  };
  const byKey = new Map(rows.map((r) => [r.key, r.mentions]));
  const sum = (verdict: Verdict, half: Half) => [...labelled].filter(([, l]) => l.verdict === verdict && l.half === half).reduce((n, [key]) => n + (byKey.get(key) ?? 0), 0);
  const gone = (half: Half) => [...labelled].filter(([key, l]) => l.verdict === 'not' && l.half === half && !byKey.has(key)).length;
  const notCount = (half: Half) => [...labelled.values()].filter((l) => l.verdict === 'not' && l.half === half).length;
  console.log(
    `| ${file} | ${at(20)} | ${at(50)} | ${at(100)} | ${at(150)} | ${sum('product', 'development')} / ${sum('product', 'test')} | ${sum('not', 'development')} / ${sum('not', 'test')} | ${gone('development')} of ${notCount('development')} / ${gone('test')} of ${notCount('test')} |`,
  );
}
