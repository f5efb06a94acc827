/**
 * Every tool on a big project, at its largest (DESIGN §11): builds the bench's generated project
 * (100,000 posts by default, bench/generate.ts) in a temporary SQLite database, then calls each
 * read capability with the inputs that make its answer biggest — the largest theme, 25 themes at
 * once, the longest thread, the highest limits — and reports how long it took, how big the
 * structured data is and how long the text is (the text form MCP tool results carry). Exits 1
 * when a text is over TEXT_MAX.
 *
 *   node --import tsx bench/tool-bounds.ts [--posts N]
 *
 * A measurement, not a test: its timings depend on the machine. test/http/bounds.test.ts checks
 * the same bounds at their edges on small data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openAuth } from '../src/auth/better-auth.ts';
import { createUser } from '../src/auth/users.ts';
import { invokeCapability } from '../src/capabilities/invoke.ts';
import { findCapability } from '../src/capabilities/registry.ts';
import { TEXT_MAX } from '../src/capabilities/text.ts';
import { parseBundle } from '../src/ingest/bundle.ts';
import { importBundle } from '../src/ingest/import.ts';
import { openStore } from '../src/store/db.ts';
import { migrate } from '../src/store/migrate.ts';
import { authSecret } from '../src/store/settings.ts';
import { BENCH_OWNER, bundleChunks, DEFAULT_OPTIONS, planProject } from './generate.ts';

const { values: flags } = parseArgs({ options: { posts: { type: 'string' } } });
const posts = flags.posts ? Number(flags.posts) : DEFAULT_OPTIONS.posts;
const scale = posts / DEFAULT_OPTIONS.posts;
const options = {
  ...DEFAULT_OPTIONS,
  posts,
  painThemes: Math.max(10, Math.round(DEFAULT_OPTIONS.painThemes * scale)),
  competitorThemes: Math.max(2, Math.round(DEFAULT_OPTIONS.competitorThemes * scale)),
  signals: Math.round(DEFAULT_OPTIONS.signals * scale),
};

const dir = mkdtempSync(join(tmpdir(), 'tool-bounds-'));
const store = openStore(join(dir, 'bench.db'));
try {
  await migrate(store);
  const owner = await createUser(await openAuth(store, { secret: await authSecret(store), publicUrl: 'http://localhost:8080' }), BENCH_OWNER);
  const plan = planProject(options);
  const started = performance.now();
  for (const chunk of bundleChunks(plan)) await importBundle(store, parseBundle(JSON.parse(JSON.stringify(chunk.bundle))));
  const importSeconds = (performance.now() - started) / 1000;
  const { projectId } = plan.targets;
  console.log(`${posts.toLocaleString('en-US')} posts imported in ${importSeconds.toFixed(1)} s (${Math.round(posts / importSeconds)} posts/s, search index included)`);

  const caller = { userId: owner.id, tiedProjectId: null, keyId: null };
  const call = async (name: string, input: Record<string, unknown>) => {
    const t0 = performance.now();
    const result = await invokeCapability(store, caller, findCapability(name)!, { input, project: projectId, render: 'text' }, 'http://localhost:8080');
    return { ms: performance.now() - t0, data: JSON.stringify(result.data).length, text: result.text ?? '' };
  };

  const biggestThemes = (await call('pains.list', { type: 'pain', sort: 'posts', pageSize: 25 }).then(() => store.db.selectFrom('themes').select('id').where('project_id', '=', projectId).where('type', '=', 'pain').orderBy('post_count', 'desc').limit(25).execute())).map((t) => t.id);
  const { rows: [longest] } = await sql<{ id: string }>`select id from posts where project_id = ${projectId} order by length(comments) desc limit 1`.execute(store.db);
  const run = await store.db.selectFrom('runs').select('id').where('project_id', '=', projectId).executeTakeFirst();
  const firstHit = async () => JSON.parse((await call('search', { query: 'slow export', limit: 1 })).text).results[0]?.id ?? `post:${longest!.id}`;

  const cases: [string, Record<string, unknown>][] = [
    ['project.memory', {}],
    ['project.list', {}],
    ['briefs.list', { limit: 5 }],
    ['briefs.get', { n: plan.targets.briefN }],
    ['pains.list', { type: 'pain', pageSize: 100 }],
    ['pains.get', { sovId: biggestThemes[0] }],
    ['pains.sources', {}],
    ['pains.sources', { sovIds: biggestThemes }],
    ['pains.sources', { sovIds: biggestThemes, commentsPerThread: 1_000 }],
    ['posts.get', { id: longest!.id }],
    ...(run ? ([['runs.get', { runId: run.id }]] as [string, Record<string, unknown>][]) : []),
    ['competitors.list', {}],
    ['competitors.list', { limit: 200 }],
    ['search', { query: 'slow export', limit: 50 }],
    ['fetch', { id: `post:${longest!.id}` }],
    ['fetch', { id: await firstHit() }],
  ];
  console.log('| tool | input | ms | data (chars) | text (chars) | cut |');
  console.log('|---|---|---|---|---|---|');
  let over = 0;
  for (const [name, input] of cases) {
    const shown = JSON.stringify(input).replace(/"sovIds":\[[^\]]*\]/, `"sovIds":[${(input.sovIds as unknown[] | undefined)?.length ?? 0} ids]`);
    const r = await call(name, input);
    if (r.text.length > TEXT_MAX) over += 1;
    const cut = /\[Cut here:|The rest is at the document's url/.test(r.text) ? 'yes' : 'no';
    console.log(`| ${name} | \`${shown}\` | ${r.ms.toFixed(0)} | ${r.data.toLocaleString('en-US')} | ${r.text.length.toLocaleString('en-US')} | ${cut} |`);
  }
  if (over > 0) {
    console.error(`${over} text(s) over ${TEXT_MAX}`);
    process.exitCode = 1;
  }
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
