/**
 * Two versions of the code, the same daily briefs, the items only one of them holds: how the
 * daily-brief comparisons of test/fixtures/quality/daily-briefs/ are made. For each version (a
 * checkout of this repository with its node_modules) and each set of days, a fresh `signals demo`
 * database, a backfill of the r/LocalLLaMA export up to the set's first day, then one
 * `signals digest run` per day for seven days, as a project lives (README.md there). Then every
 * item of the devtools project's briefs from that first day on is compared between the versions,
 * and those only one version holds (an item shown in several sets' databases once) are shuffled
 * with a seed into `items.json` for the annotators; `<out>.key.json`, beside the folder so that
 * annotators never see it, says which version holds each (the fixtures keep it as `key.json`).
 * The annotators' instructions are the fixture's, with the item count of this draw.
 *
 * Each version's database is made by its own code: a run never analyses a stored signal again, so
 * the demo's threads must be stored by the version under test. The two versions run side by side,
 * one process each (about 2 minutes a set on two cores).
 *
 *   node --import tsx test/ingest/quality/brief-ab.ts --old DIR --new DIR --out DIR \
 *     [--sets 2025-07-03,2025-07-10,2025-07-17,2025-07-24,2025-07-31] [--seed 1] [--prefix i] \
 *     [--export ../shared/data/reddit-localllama]
 *
 * Then two annotators per draw, each reading only the out folder's INSTRUCTIONS.md and items.json,
 * and `daily-briefs.ts` (`printRatedTogether`) prints their answers by version.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import Database from 'better-sqlite3';

const run = promisify(execFile);
const PROJECT = 'prj_demo_devtools';
const DAYS = 7;

interface BriefItem {
  surfaced: { summary: string; quote?: { text: string } };
  move: { title: string; body: string };
  sources: { title: string }[];
}
interface Item {
  day: string;
  section: string;
  summary: string;
  quote: string;
  move_title: string;
  move_body: string;
  threads: string[];
}

const { values } = parseArgs({
  options: {
    old: { type: 'string' },
    new: { type: 'string' },
    out: { type: 'string' },
    sets: { type: 'string', default: '2025-07-03,2025-07-10,2025-07-17,2025-07-24,2025-07-31' },
    seed: { type: 'string', default: '1' },
    prefix: { type: 'string', default: 'i' },
    export: { type: 'string', default: '../shared/data/reddit-localllama' },
  },
});
if (!values.old || !values.new || !values.out) {
  console.error('usage: node --import tsx test/ingest/quality/brief-ab.ts --old DIR --new DIR --out DIR [--sets D1,D2,…] [--seed N] [--prefix P] [--export DIR]');
  process.exit(2);
}
const source = `file:${resolve(values.export)}`;
const sets = values.sets.split(',');
const work = mkdtempSync(join(tmpdir(), 'brief-ab-'));

/** The next day of `day` (YYYY-MM-DD) plus `n`. */
function dayAfter(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** One version's seven daily briefs after a backfill to `first`, in a database of its own. */
async function liveSet(repo: string, first: string, db: string): Promise<void> {
  const signals = (...args: string[]) => run(process.execPath, [join(repo, 'bin/signals.mjs'), ...args, '--json'], { cwd: repo, env: { ...process.env, DATABASE_URL: `sqlite:${db}` }, maxBuffer: 64 * 1024 * 1024 });
  await signals('demo');
  await signals('digest', 'run', '--project', PROJECT, '--since', '2020-01-01', '--until', `${first}T00:00:00Z`, '--source', source);
  for (let i = 0; i < DAYS; i++) {
    await signals('digest', 'run', '--project', PROJECT, '--since', `${dayAfter(first, i)}T00:00:00Z`, '--until', `${dayAfter(first, i + 1)}T00:00:00Z`, '--source', source);
  }
}

/** Every item of the project's briefs whose window starts on `first` or later. */
function itemsOf(db: string, first: string): Item[] {
  const database = new Database(db, { readonly: true });
  const rows = database.prepare('SELECT window_start, sections FROM briefs WHERE project_id = ? AND window_start >= ? ORDER BY window_start').all(PROJECT, `${first}T00:00:00`) as { window_start: string; sections: string }[];
  database.close();
  return rows.flatMap((row) => {
    const stored = JSON.parse(row.sections) as { kind: string; items: BriefItem[] }[] | { sections: { kind: string; items: BriefItem[] }[] };
    const sections = Array.isArray(stored) ? stored : stored.sections;
    return sections.flatMap((section) =>
      section.items.map((item) => ({
        day: String(row.window_start).slice(0, 10),
        section: section.kind,
        summary: item.surfaced.summary,
        quote: item.surfaced.quote?.text ?? '',
        move_title: item.move.title,
        move_body: item.move.body,
        threads: item.sources.map((s) => s.title),
      })),
    );
  });
}

const keyOf = (item: Item) => JSON.stringify([item.day, item.section, item.summary, item.quote, item.move_title]);
const differing: (Item & { versions: string[]; set: string })[] = [];
const taken = new Set<string>();
for (const first of sets) {
  const dbs = { old: join(work, `old-${first}.db`), new: join(work, `new-${first}.db`) };
  const started = Date.now();
  await Promise.all([liveSet(resolve(values.old), first, dbs.old), liveSet(resolve(values.new), first, dbs.new)]);
  const items = { old: itemsOf(dbs.old, first), new: itemsOf(dbs.new, first) };
  const keys = { old: new Set(items.old.map(keyOf)), new: new Set(items.new.map(keyOf)) };
  let only = 0;
  for (const [version, other] of [['old', 'new'], ['new', 'old']] as const) {
    for (const item of items[version]) {
      const key = `${version} ${keyOf(item)}`;
      if (keys[other].has(keyOf(item)) || taken.has(key)) continue;
      taken.add(key);
      differing.push({ ...item, versions: [version], set: first });
      only += 1;
    }
  }
  console.error(`${first}: ${items.old.length} and ${items.new.length} items, ${only} only one version holds (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

// A seeded shuffle (a linear congruential generator is enough to mix the versions).
let seed = Number(values.seed);
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
for (let i = differing.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [differing[i], differing[j]] = [differing[j]!, differing[i]!];
}
const ids = differing.map((_, i) => `${values.prefix}${String(i + 1).padStart(3, '0')}`);
mkdirSync(values.out, { recursive: true });
writeFileSync(join(values.out, 'items.json'), `${JSON.stringify(differing.map(({ summary, quote, move_title, move_body, threads }, i) => ({ id: ids[i], summary, quote, move_title, move_body, threads })), null, 1)}\n`);
writeFileSync(`${values.out.replace(/\/+$/, '')}.key.json`, `${JSON.stringify(differing.map(({ versions, day, section, set }, i) => ({ id: ids[i], versions, day, section, set })), null, 1)}\n`);
const template = readFileSync(new URL('../../fixtures/quality/daily-briefs/absolute-2026-11-28/INSTRUCTIONS.md', import.meta.url), 'utf8');
writeFileSync(join(values.out, 'INSTRUCTIONS.md'), template.replace('holds 60 such items', `holds ${differing.length} such items`).replace('all 60.', `all ${differing.length}.`));
rmSync(work, { recursive: true, force: true });
console.error(`${differing.length} items in ${values.out}, their key in ${values.out.replace(/\/+$/, '')}.key.json`);
