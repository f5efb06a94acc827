/**
 * Complaints about a product, labelled blind (test/fixtures/quality/product-complaints/README.md):
 * 120 sentences the analyzer files as a complaint about a product (a `competitor` signal with
 * `complaint`), half naming the product only after a preposition of place or means ("awful on
 * lmarena"), half otherwise. Prints how many are about the product itself, by group, and what a
 * rule by the distance between the product and the pain's cue word would keep (chosen on the odd
 * ids, reported on the even ones). Nothing in the analyzer uses these labels.
 *
 *   node --import tsx test/ingest/quality/product-complaints.ts
 */
import { readFileSync } from 'node:fs';
import { tag } from '../../../src/ingest/analyze/nlp.ts';
import { readPain } from '../../../src/ingest/analyze/pain.ts';

interface Item {
  id: number;
  quote: string;
  product: string;
}
interface Answer {
  id: number;
  complaint: boolean;
  about_product: boolean;
}

const dir = new URL('../../fixtures/quality/product-complaints/', import.meta.url);
const read = <T>(name: string): T => JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as T;

const items = read<Item[]>('items.json');
const groups = new Map(read<{ id: number; group: 'venue' | 'other' }[]>('key.json').map((k) => [k.id, k.group]));
const answers = [1, 2].map((n) => new Map(read<Answer[]>(`answers-${n}.json`).map((a) => [a.id, a])));
/** About the product when both annotators say so. */
const about = (id: number) => answers.every((a) => a.get(id)!.about_product);

const squeeze = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');

/** Tokens between the product's first mention and the pain's cue word (0 when the cue is inside it); undefined when either is not found. */
function cueDistance(item: Item): number | undefined {
  const tokens = tag(item.quote);
  const reading = readPain(tokens, item.quote);
  const key = squeeze(item.product);
  for (let i = 0; i < tokens.length; i++) {
    let joined = '';
    for (let j = i; j < Math.min(tokens.length, i + 6); j++) {
      joined += squeeze(tokens[j]!.text);
      if (joined === key) return reading ? (reading.cue > j ? reading.cue - j : reading.cue < i ? i - reading.cue : 0) : undefined;
      if (!key.startsWith(joined)) break;
    }
  }
  return undefined;
}

console.log('| sentences | n | about the product (both annotators) | annotator 1 | annotator 2 |\n|---|---|---|---|---|');
for (const group of ['venue', 'other'] as const) {
  const ids = items.filter((i) => groups.get(i.id) === group).map((i) => i.id);
  const each = (n: number) => ids.filter((id) => answers[n]!.get(id)!.about_product).length;
  console.log(`| ${group === 'venue' ? 'product only after on/in/via/through/at/with/using/from…' : 'product named otherwise'} | ${ids.length} | ${ids.filter(about).length} | ${each(0)} | ${each(1)} |`);
}
const agree = items.filter((i) => answers[0]!.get(i.id)!.about_product === answers[1]!.get(i.id)!.about_product).length;
console.log(`\nannotators agree on ${agree} of ${items.length}\n`);

const distance = new Map(items.map((i) => [i.id, cueDistance(i)]));
console.log('| rule: product within k tokens of the cue | half | kept | precision | recall | precision of all |\n|---|---|---|---|---|---|');
for (const k of [2, 3, 5]) {
  for (const [name, parity] of [['odd ids (chosen on)', 1], ['even ids (held out)', 0]] as const) {
    const ids = items.filter((i) => i.id % 2 === parity).map((i) => i.id);
    const kept = ids.filter((id) => (distance.get(id) ?? Infinity) <= k);
    const right = kept.filter(about).length;
    const all = ids.filter(about).length;
    console.log(`| k = ${k} | ${name} | ${kept.length} | ${right}/${kept.length} | ${right}/${all} | ${all}/${ids.length} |`);
  }
}
