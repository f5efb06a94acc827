/**
 * Pain themes judged blind for coherence (test/fixtures/quality/theme-coherence/README.md): themes
 * of an export backfill, regrouped offline under grouper variants (regroup-themes.ts), each shown
 * as its title and up to eight quotes of different posts, rated by two annotators who saw neither
 * the variant nor the grouper. Prints, per round, variant and sample (`top`: among the 40 biggest
 * themes; `random`: the rest), the themes rated coherent, the quotes that voice the problem the
 * title names, and the title ratings; then, over every round, how often a quote fits by whether it
 * or its thread's title names the title's subject.
 *
 *   node --import tsx test/ingest/quality/theme-coherence.ts
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { titleNames } from '../../../src/ingest/digest/themes.ts';

interface Theme {
  id: string;
  title: string;
  quotes: { n: number; quote: string; thread: string }[];
}
interface Key {
  id: string;
  variant: string;
  rank: 'top' | 'random';
  posts: number;
}
interface Label {
  id: string;
  fits: number[];
  coherent: boolean;
  title: 'good' | 'ok' | 'bad';
}

const root = new URL('../../fixtures/quality/theme-coherence/', import.meta.url);
const json = <T>(url: URL): T => JSON.parse(readFileSync(url, 'utf8')) as T;
const ANNOTATORS = [1, 2] as const;

interface Tally {
  themes: number;
  quotes: number;
  coherent: number[];
  fits: number[];
  titles: Record<Label['title'], number>[];
}

const byNaming = new Map<string, { quotes: number; fitBoth: number }>();

for (const round of readdirSync(root).filter((d) => d.startsWith('round-')).sort()) {
  const tallies = new Map<string, Tally>();
  const dir = new URL(`${round}/`, root);
  for (const part of readdirSync(dir).filter((d) => /^p\d+$/.test(d)).sort()) {
    const themes = new Map(json<Theme[]>(new URL(`${part}/items.json`, dir)).map((t) => [t.id, t]));
    const labels = ANNOTATORS.map((a) => new URL(`${part}/labels-${a}.json`, dir)).map((u) => (existsSync(u) ? new Map(json<Label[]>(u).map((l) => [l.id, l])) : undefined));
    if (labels.some((l) => l === undefined)) continue;
    for (const key of json<Key[]>(new URL(`key-${part}.json`, dir))) {
      const theme = themes.get(key.id)!;
      const [one, two] = labels.map((l) => l!.get(key.id)!);
      const name = `${key.variant} ${key.rank}`;
      const t = tallies.get(name) ?? { themes: 0, quotes: 0, coherent: [0, 0], fits: [0, 0], titles: [{ good: 0, ok: 0, bad: 0 }, { good: 0, ok: 0, bad: 0 }] };
      tallies.set(name, t);
      t.themes += 1;
      t.quotes += theme.quotes.length;
      [one!, two!].forEach((l, i) => {
        t.coherent[i]! += Number(l.coherent);
        t.fits[i]! += l.fits.length;
        t.titles[i]![l.title] += 1;
      });
      const subject = titleNames(theme.title).toLowerCase().split(/[\s-]+/).filter((w) => w.length > 1);
      for (const q of theme.quotes) {
        const names = (text: string) => subject.some((w) => text.toLowerCase().includes(w));
        const where = names(q.quote) ? 'the quote names it' : names(q.thread) ? "only its thread's title names it" : 'neither names it';
        const n = byNaming.get(where) ?? { quotes: 0, fitBoth: 0 };
        n.quotes += 1;
        n.fitBoth += Number(one!.fits.includes(q.n) && two!.fits.includes(q.n));
        byNaming.set(where, n);
      }
    }
  }
  if (tallies.size === 0) continue;
  console.log(`\n${round}\n`);
  console.log('| variant, sample | themes | coherent (annotator 1, 2) | quotes that fit the title | titles good / ok / bad |');
  console.log('|---|---|---|---|---|');
  for (const [name, t] of [...tallies].sort()) {
    const share = (n: number) => `${n}/${t.quotes} (${(n / t.quotes).toFixed(2)})`;
    const titles = t.titles.map((r) => `${r.good}/${r.ok}/${r.bad}`).join(', ');
    console.log(`| ${name} | ${t.themes} | ${t.coherent.join(', ')} | ${t.fits.map(share).join(', ')} | ${titles} |`);
  }
}

console.log("\nEvery round: a quote fits its theme's title (both annotators) by where the title's subject is named\n");
console.log('| the title subject | quotes | fit (both) |');
console.log('|---|---|---|');
for (const [where, n] of byNaming) console.log(`| ${where} | ${n.quotes} | ${n.fitBoth} (${(n.fitBoth / n.quotes).toFixed(2)}) |`);
