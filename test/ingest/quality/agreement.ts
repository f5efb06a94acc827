/**
 * How far two labellers agree on the held-out half (docs/quality.md, "The ceiling"): the second
 * labelling (`localllama-labels-heldout-second.json`, made blind to the first and to the analyzer,
 * from the same GUIDE) is scored as if it were an analyzer, with the same pain and product rules
 * as evaluate.ts. Its precision and recall against the first labels are what a careful human
 * reaches on these posts: an analyzer's target above them asks it to agree with one labeller
 * better than another labeller does.
 *
 *   node --import tsx test/ingest/quality/agreement.ts
 */
import { readFileSync } from 'node:fs';
import { familyKey } from '../../../src/ingest/analyze/products.ts';
import { fixtureThreads } from '../../helpers/reddit-export.ts';
import { overlaps, type Label } from './evaluate.ts';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../../fixtures/quality/${file}`, import.meta.url), 'utf8')) as Label[];

export interface Agreement {
  posts: number;
  /** Posts the reference calls pain, posts the other calls pain, and posts where both do with overlapping quotes. */
  referencePain: number;
  otherPain: number;
  hits: number;
  painPrecision: number;
  painRecall: number;
  /** (post, product family) pairs. */
  referenceProducts: number;
  otherProducts: number;
  sharedProducts: number;
  productPrecision: number;
  productRecall: number;
}

/** `other` scored against `reference`, as evaluate.ts scores the analyzer. */
export function agreement(reference: Label[], other: Label[]): Agreement {
  const threads = new Map(fixtureThreads().map((t) => [t.id, t]));
  const others = new Map(other.map((l) => [l.id, l]));
  let referencePain = 0;
  let otherPain = 0;
  let hits = 0;
  let referenceProducts = 0;
  let otherProducts = 0;
  let sharedProducts = 0;
  for (const ref of reference) {
    const oth = others.get(ref.id);
    const post = threads.get(ref.id);
    if (!oth || !post) throw new Error(`post ${ref.id}: missing from the second labels or the fixture`);
    if (ref.pain) referencePain += 1;
    if (oth.pain) otherPain += 1;
    if (ref.pain && oth.pain && oth.quotes.some((q) => ref.quotes.some((r) => overlaps(post, q, r)))) hits += 1;
    const a = new Set(ref.products.map(familyKey));
    const b = new Set(oth.products.map(familyKey));
    referenceProducts += a.size;
    otherProducts += b.size;
    for (const key of b) if (a.has(key)) sharedProducts += 1;
  }
  return {
    posts: reference.length,
    referencePain,
    otherPain,
    hits,
    painPrecision: hits / Math.max(1, otherPain),
    painRecall: hits / Math.max(1, referencePain),
    referenceProducts,
    otherProducts,
    sharedProducts,
    productPrecision: sharedProducts / Math.max(1, otherProducts),
    productRecall: sharedProducts / Math.max(1, referenceProducts),
  };
}

export function loadSecondLabels(): Label[] {
  return read('localllama-labels-heldout-second.json');
}

export function heldOutAgreement(): Agreement {
  return agreement(read('localllama-labels-heldout.json'), loadSecondLabels());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const a = heldOutAgreement();
  const f = (x: number) => x.toFixed(3);
  console.log(`held-out half, ${a.posts} posts: the second labelling scored against the first (the labels the analyzer is scored against)`);
  console.log(`pain precision ${f(a.painPrecision)} (${a.hits}/${a.otherPain})  recall ${f(a.painRecall)} (${a.hits}/${a.referencePain})`);
  console.log(`products (post, product pairs): precision ${f(a.productPrecision)} (${a.sharedProducts}/${a.otherProducts})  recall ${f(a.productRecall)} (${a.sharedProducts}/${a.referenceProducts})`);
}
