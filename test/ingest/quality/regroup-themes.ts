/**
 * A backfill's pains grouped again, offline, under other grouper options: how theme-coherence
 * rounds are made (test/fixtures/quality/theme-coherence/README.md). Reads the demo project's pains
 * from a SQLite database a backfill wrote, adds them to a fresh ThemeGrouper in post order, as one
 * run would (one `recluster` at the end), and prints how many themes it makes and the biggest;
 * with an output file, writes every theme with its title and members. About 5 s for the export's
 * 4,460 pains, against minutes for a backfill.
 *
 *   node --import tsx test/ingest/quality/regroup-themes.ts backfill.db '{"pair":0.3}' [themes.json]
 */
import { writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { ThemeGrouper, type GrouperOptions } from '../../../src/ingest/digest/themes.ts';

interface PainRow {
  id: string;
  post_id: string;
  quote: string;
  seen_at: string;
  title: string;
  community: string;
}

const [file, optionsJson = '{}', out] = process.argv.slice(2);
if (!file) {
  console.error("usage: node --import tsx test/ingest/quality/regroup-themes.ts <sqlite file> ['<GrouperOptions JSON>'] [<themes.json>]");
  process.exit(2);
}
const db = new Database(file, { readonly: true });
const pains = db
  .prepare(
    `select s.id, s.post_id, s.quote, s.seen_at, p.title, p.community from signals s
     join posts p on p.project_id = s.project_id and p.id = s.post_id
     where s.project_id = 'prj_demo_devtools' and s.kind = 'pain'
     order by p.post_created_at, p.id, s.seen_at, s.id`,
  )
  .all() as PainRow[];
db.close();

const grouper = new ThemeGrouper((doc) => `sov_${doc.signalId}`, JSON.parse(optionsJson) as GrouperOptions);
const themeOf = new Map<string, string>();
for (const p of pains) {
  const placed = grouper.add({ signalId: p.id, postId: p.post_id, quote: p.quote, context: p.title, at: p.seen_at, community: p.community });
  if (placed.themeId !== null) themeOf.set(p.id, placed.themeId);
}
grouper.recluster();
for (const [signal, theme] of grouper.takeReassigned()) themeOf.set(signal, theme);

const byId = new Map(pains.map((p) => [p.id, p]));
const members = new Map<string, { quote: string; title: string; post: string }[]>();
for (const [signal, theme] of themeOf) {
  const p = byId.get(signal)!;
  members.set(theme, [...(members.get(theme) ?? []), { quote: p.quote, title: p.title, post: p.post_id }]);
}
const themes = grouper
  .changedThemes()
  .map((t) => ({ id: t.id, title: grouper.title(t), posts: t.posts.size, members: members.get(t.id) ?? [] }))
  .filter((t) => t.members.length > 0)
  .sort((a, b) => b.posts - a.posts || (a.id < b.id ? -1 : 1));
const sizes = themes.map((t) => t.posts);
console.log(
  JSON.stringify({ pains: pains.length, themed: themeOf.size, themes: themes.length, fivePostsOrMore: sizes.filter((s) => s >= 5).length, tenOrMore: sizes.filter((s) => s >= 10).length, largest: sizes[0] ?? 0 }),
);
console.log(themes.slice(0, 25).map((t) => `${t.title} (${t.posts})`).join(' | '));
if (out) writeFileSync(out, JSON.stringify(themes));
