/**
 * `npm run bench -- --only pipeline` (also the last part of a plain `npm run bench`), or on its
 * own `node --import tsx bench/pipeline.ts [--fresh] [--cpu-prof]`: throughput and peak memory of
 * one digest run (`runDigest` with the `file` source and the rules analyzer) over real threads.
 *
 *  1. Input. 1x: the r/LocalLLaMA export as it is (SIGNALS_SHARED_DATA, default
 *     /work/shared/data/reddit-localllama: posts.jsonl.gz + comments.jsonl.gz). 10x: the same two
 *     files repeated 10 times, copy k > 0 with every id suffixed `x<k>` (post and comment ids,
 *     link_id, parent_id, permalinks, reddit urls), so that it is 10 times as many distinct
 *     threads with the same text. Built streaming (never the whole file in memory) into
 *     bench/out/pipeline-input-v<N>-x10/ and reused while INPUT_VERSION and the source files'
 *     sizes and mtimes match (`--fresh` rebuilds it). No data directory: a message, no figures.
 *  2. Each measurement runs in a child process of its own (fork), on a new temporary SQLite
 *     store (migrated, with the project, by the parent: the child opens it as the CLI opens an
 *     existing database), so its peak memory is its own and not what an earlier run left on the heap: the
 *     child reports threads, wall and CPU time, peak RSS (getrusage maxRSS) and peak V8 heap
 *     (sampled every 50 ms and at every progress callback, see child()).
 *  3. Baseline, in the same run because the machine's speed varies from run to run: the `file`
 *     source alone (iterate its threads, count them) on the same input, in a child as well. The
 *     pipeline is reported as a ratio to it, and peak RSS at 10x as a ratio to 1x.
 *  4. Two tables on stdout, progress on stderr, everything as JSON in bench/out/pipeline.json. With
 *     `--cpu-prof`, one more (profiled, unmeasured) 1x pipeline run, and where its CPU goes.
 *
 * Goals: ≥ 500 threads/s for the pipeline on one core, and memory flat as the input grows (peak
 * RSS at 10x within 1.25× of 1x). Missed goals are printed, not an exit status: the machine is
 * shared, the figures are for comparison, not for asserting.
 */
import { fork } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createGunzip, createGzip } from 'node:zlib';
import { newProjectMemory, type ProjectMemory } from '../src/domain/resources.ts';
import { runDigest } from '../src/ingest/digest/run.ts';
import { fileSource } from '../src/ingest/sources/file.ts';
import { openStore } from '../src/store/db.ts';
import { migrate } from '../src/store/migrate.ts';
import { upsertProject } from '../src/store/projects.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, 'out');
/** Bump when the way the 10x input is derived changes: the cached copy is then rebuilt. */
const INPUT_VERSION = 1;
const SCALE = 10;
const INPUT_FILES = ['posts.jsonl.gz', 'comments.jsonl.gz'];
const DATA_DIR = process.env.SIGNALS_SHARED_DATA ?? '/work/shared/data/reddit-localllama';
const WINDOW = { start: new Date('2020-01-01T00:00:00Z'), end: new Date('2030-01-01T00:00:00Z') };
const COMMUNITY = 'LocalLLaMA';
const PROJECT_ID = 'prj_bench_pipeline';
const SAMPLE_MS = 50;
const GOALS = { minThreadsPerSecond: 500, maxRssRatio: 1.25 };

const log = (line: string) => process.stderr.write(`${line}\n`);
const mb = (bytes: number) => bytes / 1e6;

// ---------------------------------------------------------------------------------------------
// Child: one measured run
// ---------------------------------------------------------------------------------------------

type Mode = 'pipeline' | 'read-only';

interface Job {
  mode: Mode;
  input: string;
  /** The temporary SQLite store of a pipeline run. */
  db: string;
  /** Profile the run (runDigest only, not start-up) into this .cpuprofile file. */
  profile?: string;
}

interface Measurement {
  mode: Mode;
  threads: number;
  seconds: number;
  threadsPerSecond: number;
  /** CPU time of the child over the run (user + system, every thread): less sensitive to neighbours than wall time. */
  cpuSeconds: number;
  threadsPerCpuSecond: number;
  /** RSS once modules are loaded and the store is ready, before the measured work. */
  startRssMB: number;
  /** RSS when the run is over: what it settled at, beside the high-water mark. */
  endRssMB: number;
  peakRssMB: number;
  /** The largest V8 heapUsed seen (garbage included), over `heapSamples` samples. */
  peakHeapMB: number;
  heapSamples: number;
  signals?: number;
  themesCreated?: number;
}

/** The project a pipeline run digests for: the watched community plus products and offers to match. */
function benchMemory(): ProjectMemory {
  return {
    ...newProjectMemory({ id: PROJECT_ID, name: 'Quantforge', url: 'https://quantforge.example.com', category: 'devtools' }),
    competitors: ['Ollama', 'LM Studio', 'vLLM', 'OpenRouter', 'llama.cpp'].map((name) => ({ name, url: 'https://example.com', description: '' })),
    offerings: [
      { name: 'Managed GGUF endpoints', description: 'Hosted llama.cpp endpoints for any GGUF quant, with an OpenAI-compatible API.' },
      { name: 'Burst GPU pools', description: 'Rent multi-GPU boxes by the minute for big models that do not fit in your VRAM.' },
    ],
    communities: [{ name: COMMUNITY, description: '' }],
    memoryStatus: 'ready',
  };
}

async function child(job: Job): Promise<Measurement> {
  let peakHeap = 0;
  let heapSamples = 0;
  const sample = () => {
    heapSamples += 1;
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  };
  // The timer alone is not enough: once the spill is read, the file source's SQLite reads and
  // Kysely's promise-wrapped better-sqlite3 calls settle as microtasks only, so the event loop
  // never reaches its timer phase until the run ends. The progress callbacks (every 500 threads,
  // every batch) sample from inside the run.
  const sampler = setInterval(sample, SAMPLE_MS);
  sample();
  try {
    if (job.mode === 'read-only') {
      const startRss = process.memoryUsage.rss();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      let threads = 0;
      const request = { communities: [COMMUNITY], since: WINDOW.start, until: WINDOW.end, onProgress: sample };
      for await (const thread of fileSource(job.input).threads(request)) {
        if (thread) threads += 1;
      }
      const seconds = (performance.now() - t0) / 1000;
      return finish({ mode: job.mode, threads, seconds, cpu: process.cpuUsage(cpu0), startRss });
    }
    const store = openStore(`sqlite:${job.db}`);
    try {
      const profiler = job.profile ? await startProfile() : undefined;
      const startRss = process.memoryUsage.rss();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const summary = await runDigest({ store, projectId: PROJECT_ID, source: fileSource(job.input), window: WINDOW, onProgress: sample });
      const seconds = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      if (profiler) writeFileSync(job.profile!, JSON.stringify((await profiler.post('Profiler.stop')).profile));
      if (summary.status !== 'complete') throw new Error(`the digest run failed: ${summary.error}`);
      const signals = summary.signalCounts.pain + summary.signalCounts.competitor + summary.signalCounts.content;
      return finish({ mode: job.mode, threads: summary.postsAnalyzed, seconds, cpu, startRss, signals, themesCreated: summary.themesCreated });
    } finally {
      await store.close();
    }
  } finally {
    clearInterval(sampler);
  }

  function finish(r: { mode: Mode; threads: number; seconds: number; cpu: NodeJS.CpuUsage; startRss: number; signals?: number; themesCreated?: number }): Measurement {
    const cpuSeconds = (r.cpu.user + r.cpu.system) / 1e6;
    sample();
    // maxRSS is in KiB: the kernel's high-water mark for this process, sampling-free.
    const peakRss = process.resourceUsage().maxRSS * 1024;
    return {
      mode: r.mode,
      threads: r.threads,
      seconds: r.seconds,
      threadsPerSecond: r.threads / r.seconds,
      cpuSeconds,
      threadsPerCpuSecond: r.threads / cpuSeconds,
      startRssMB: mb(r.startRss),
      endRssMB: mb(process.memoryUsage.rss()),
      peakRssMB: mb(peakRss),
      peakHeapMB: mb(peakHeap),
      heapSamples,
      ...(r.signals === undefined ? {} : { signals: r.signals, themesCreated: r.themesCreated }),
    };
  }
}

async function startProfile(): Promise<Session> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return session;
}

/**
 * The store a pipeline run starts from, made by this process and closed: the child finds it as
 * `signals digest run` finds a project's database, opened by the service before. Migrating in the
 * child would both load better-auth there (about 40 MB no CLI run holds) and hide the planner
 * statistics a store records when it opens (docs/performance.md, "Statistics that follow a backfill").
 */
async function prepareStore(db: string): Promise<void> {
  const store = openStore(`sqlite:${db}`);
  try {
    await migrate(store);
    await upsertProject(store.db, { id: PROJECT_ID, ownerId: 'bench', memory: benchMemory(), createdAt: new Date().toISOString() });
  } finally {
    await store.close();
  }
}

/** Runs `job` in a new process. */
async function measure(job: Omit<Job, 'db'>): Promise<Measurement> {
  mkdirSync(OUT, { recursive: true });
  const db = join(OUT, `pipeline-tmp-${process.pid}-${randomBytes(4).toString('hex')}.db`);
  if (job.mode === 'pipeline') await prepareStore(db);
  const proc = fork(fileURLToPath(import.meta.url), ['--child', JSON.stringify({ ...job, db } satisfies Job)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    let result: Measurement | undefined;
    let failure: string | undefined;
    proc.on('message', (message: { type: 'result'; result: Measurement } | { type: 'error'; error: string }) => {
      if (message.type === 'result') result = message.result;
      else failure = message.error;
    });
    const code = await new Promise<number | null>((resolve) => proc.once('exit', (c) => resolve(c)));
    if (failure) throw new Error(`${job.mode} child: ${failure}`);
    if (!result || code !== 0) throw new Error(`${job.mode} child exited with status ${code} and no result`);
    return result;
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// 10x input
// ---------------------------------------------------------------------------------------------

/** Post ids → `${id}x${k}` in a reddit path or URL (`/comments/<post>/slug/<comment>/`). */
function rewritePath(value: unknown, postId: string, commentId: string | undefined, k: number): unknown {
  if (typeof value !== 'string') return value;
  let out = value.replace(`/comments/${postId}/`, `/comments/${postId}x${k}/`);
  if (commentId !== undefined) out = out.replace(new RegExp(`/${commentId}/?$`), `/${commentId}x${k}/`);
  return out;
}

function rewriteLine(line: string, k: number): string {
  const r = JSON.parse(line) as Record<string, unknown>;
  const id = String(r.id);
  if (typeof r.link_id === 'string') {
    const postId = r.link_id.replace(/^t3_/, '');
    r.id = `${id}x${k}`;
    r.link_id = `t3_${postId}x${k}`;
    if (typeof r.parent_id === 'string' && /^t[13]_/.test(r.parent_id)) r.parent_id = `${r.parent_id}x${k}`;
    r.permalink = rewritePath(r.permalink, postId, id, k);
  } else {
    r.id = `${id}x${k}`;
    r.permalink = rewritePath(r.permalink, id, undefined, k);
    // Link posts point elsewhere (i.redd.it, github.com, …) and stay; self posts' url is their permalink.
    r.url = rewritePath(r.url, id, undefined, k);
  }
  return JSON.stringify(r);
}

/** `copies` copies of a gzipped JSONL file, streaming, written to a temp name then renamed. */
async function writeScaled(source: string, target: string, copies: number): Promise<void> {
  const temp = `${target}.tmp-${process.pid}`;
  async function* lines(): AsyncGenerator<string> {
    for (let k = 0; k < copies; k++) {
      const input = createInterface({ input: createReadStream(source).pipe(createGunzip()), crlfDelay: Infinity });
      // Lines are handed to gzip in ~64 KB chunks: one write per line would cost more than the copy.
      let chunk = '';
      for await (const line of input) {
        if (line.trim() === '') continue;
        chunk += `${k === 0 ? line : rewriteLine(line, k)}\n`;
        if (chunk.length >= 65_536) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk !== '') yield chunk;
    }
  }
  try {
    await pipeline(lines, createGzip({ level: 6 }), createWriteStream(temp));
    renameSync(temp, target);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** The 10x directory, built unless a copy of this version from the same source files is there. */
async function scaledInput(dataDir: string, fresh: boolean): Promise<{ dir: string; cached: boolean }> {
  const dir = join(OUT, `pipeline-input-v${INPUT_VERSION}-x${SCALE}`);
  const metaFile = join(dir, 'source.json');
  const sourceId = INPUT_FILES.map((f) => {
    const s = statSync(join(dataDir, f));
    return { file: join(dataDir, f), size: s.size, mtimeMs: s.mtimeMs };
  });
  const meta = JSON.stringify({ version: INPUT_VERSION, scale: SCALE, source: sourceId });
  if (!fresh && existsSync(metaFile) && readFileSync(metaFile, 'utf8') === meta) {
    log(`Reusing ${dir} (input v${INPUT_VERSION}; --fresh rebuilds it).`);
    return { dir, cached: true };
  }
  mkdirSync(OUT, { recursive: true });
  for (const stale of readdirSync(OUT).filter((f) => f.startsWith('pipeline-input-'))) rmSync(join(OUT, stale), { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  for (const f of INPUT_FILES) {
    log(`Writing ${SCALE} copies of ${f} into ${dir} …`);
    await writeScaled(join(dataDir, f), join(dir, f), SCALE);
  }
  // Written last: a run interrupted while copying leaves no meta, so the next run rebuilds.
  writeFileSync(metaFile, meta);
  log(`  built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { dir, cached: false };
}

// ---------------------------------------------------------------------------------------------
// CPU profile (--cpu-prof)
// ---------------------------------------------------------------------------------------------

/** Where a profile sample's self time goes, by the JS function it was taken in. */
function category(functionName: string, url: string): string {
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return 'V8 (program)';
  if (url.includes('/better-sqlite3/') || url.includes('/kysely/dist/esm/dialect/sqlite/')) return 'store: SQLite (native calls)';
  if (url.includes('/node_modules/kysely/')) return 'store: Kysely (build, compile)';
  // JSON.parse of the input lines is inlined into spill() and shows up here.
  if (url.endsWith('/src/ingest/sources/file.ts')) return 'file source: JS (JSON.parse, lines, trees)';
  if (url.includes('/src/ingest/analyze/')) return 'analyzer (rules)';
  if (url.endsWith('/src/ingest/digest/themes.ts') || url.endsWith('/src/ingest/digest/terms.ts')) return 'theme grouping (TF-IDF)';
  if (url.includes('/src/ingest/')) return 'digest (run, rows, brief)';
  if (url.includes('/src/store/') || url.includes('/src/domain/')) return 'store: our code (rows, ids, JSON)';
  if (url.includes('zlib')) return 'file source: gunzip';
  if (url.includes('readline') || url.includes('streams') || url.includes('string_decoder')) return 'file source: readline, streams';
  if (url.startsWith('node:') || url === '') return 'Node internals, promises';
  return 'other';
}

/** Built-ins the file source calls directly: its spill database and its JSON. */
const SPILL_CALLS = new Set(['run', 'all', 'iterate', 'exec', 'prepare', 'pragma', 'get', 'next']);

/**
 * Self time by category. A built-in without a URL (JSON.parse, better-sqlite3's `run`, a RegExp
 * exec) counts for the nearest JS caller, so the work lands with the code that asked for it.
 */
function profileCategories(file: string): Record<string, number> {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
    samples: number[];
    timeDeltas: number[];
  };
  const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const parents = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id);
  const categoryOf = (id: number): string | undefined => {
    const frame = nodes.get(id);
    if (!frame || frame.functionName === '(idle)' || frame.functionName === '(root)') return undefined;
    if (frame.url !== '' || frame.functionName.startsWith('(')) return category(frame.functionName, frame.url);
    for (let up = parents.get(id); up !== undefined; up = parents.get(up)) {
      const caller = nodes.get(up)!;
      if (caller.url === 'node:inspector' || caller.url === 'node:inspector/promises') return undefined;
      if (caller.url === '') continue;
      if (caller.url.endsWith('/src/ingest/sources/file.ts')) {
        if (frame.functionName === 'parse') return 'file source: JSON.parse';
        if (frame.functionName === 'stringify') return 'file source: JSON.stringify (spill)';
        if (SPILL_CALLS.has(frame.functionName)) return 'file source: spill SQLite (native calls)';
      }
      return category(caller.functionName, caller.url);
    }
    return category(frame.functionName, frame.url);
  };
  const out: Record<string, number> = {};
  profile.samples.forEach((id, i) => {
    const c = categoryOf(id);
    if (c) out[c] = (out[c] ?? 0) + (profile.timeDeltas[i] ?? 0) / 1e6;
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r, ri) => r.map((cell, i) => (i === 0 || ri === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')).join('\n');
}

async function main(): Promise<number> {
  const { values: flags } = parseArgs({ options: { fresh: { type: 'boolean', default: false }, 'cpu-prof': { type: 'boolean', default: false } } });
  const started = Date.now();
  const loadAtStart = loadavg();
  const missing = INPUT_FILES.filter((f) => !existsSync(join(DATA_DIR, f)));
  if (missing.length > 0) {
    log(
      `bench pipeline: skipped: no ${missing.join(', ')} in ${DATA_DIR} (the r/LocalLLaMA export; ` +
        'set SIGNALS_SHARED_DATA to the directory that holds posts.jsonl.gz and comments.jsonl.gz).',
    );
    return 0;
  }
  const scaled = await scaledInput(DATA_DIR, flags.fresh!);
  const inputs = [
    { scale: 1, dir: DATA_DIR },
    { scale: SCALE, dir: scaled.dir },
  ];
  const results: { scale: number; readOnly: Measurement; pipeline: Measurement }[] = [];
  for (const input of inputs) {
    log(`${input.scale}x: file source alone …`);
    const readOnly = await measure({ mode: 'read-only', input: input.dir });
    log(`  ${readOnly.threads} threads in ${readOnly.seconds.toFixed(1)} s, peak RSS ${readOnly.peakRssMB.toFixed(0)} MB`);
    log(`${input.scale}x: digest pipeline …`);
    const pipe = await measure({ mode: 'pipeline', input: input.dir });
    log(`  ${pipe.threads} threads in ${pipe.seconds.toFixed(1)} s, peak RSS ${pipe.peakRssMB.toFixed(0)} MB`);
    // Both children must have seen the same threads, or the ratio compares different work.
    if (pipe.threads !== readOnly.threads) throw new Error(`${input.scale}x: the pipeline analysed ${pipe.threads} threads, the source gave ${readOnly.threads}`);
    results.push({ scale: input.scale, readOnly, pipeline: pipe });
  }
  const [one, ten] = results as [(typeof results)[0], (typeof results)[0]];
  if (ten.pipeline.threads !== SCALE * one.pipeline.threads) {
    throw new Error(`the ${SCALE}x input gave ${ten.pipeline.threads} threads, not ${SCALE} × ${one.pipeline.threads}: its ids are not distinct`);
  }

  const rssRatio = ten.pipeline.peakRssMB / one.pipeline.peakRssMB;
  const heapRatio = ten.pipeline.peakHeapMB / one.pipeline.peakHeapMB;
  const readOnlyRssRatio = ten.readOnly.peakRssMB / one.readOnly.peakRssMB;
  const speed = [['input', 'threads', 'signals', 'pipeline s', 'threads/s', 'threads/CPU-s', 'read-only threads/s', 'read-only threads/CPU-s', '÷ read-only', '÷ read-only (CPU)', `goal ≥ ${GOALS.minThreadsPerSecond}/s`]];
  const memory = [['input', 'RSS start MB', 'RSS peak MB', 'RSS end MB', 'peak heap MB', 'read-only RSS peak MB', 'read-only peak heap MB']];
  for (const { scale, pipeline: p, readOnly: ro } of results) {
    speed.push([
      `${scale}x`,
      String(p.threads),
      String(p.signals ?? 0),
      p.seconds.toFixed(1),
      p.threadsPerSecond.toFixed(0),
      p.threadsPerCpuSecond.toFixed(0),
      ro.threadsPerSecond.toFixed(0),
      ro.threadsPerCpuSecond.toFixed(0),
      (p.threadsPerSecond / ro.threadsPerSecond).toFixed(2),
      (p.threadsPerCpuSecond / ro.threadsPerCpuSecond).toFixed(2),
      p.threadsPerSecond >= GOALS.minThreadsPerSecond ? 'pass' : 'FAIL',
    ]);
    memory.push([`${scale}x`, p.startRssMB.toFixed(0), p.peakRssMB.toFixed(0), p.endRssMB.toFixed(0), p.peakHeapMB.toFixed(0), ro.peakRssMB.toFixed(0), ro.peakHeapMB.toFixed(0)]);
  }
  const load = (l: number[]) => l.map((x) => x.toFixed(1)).join(' ');
  const out = [
    '',
    `bench pipeline — ${new Date().toISOString()} — runDigest (file source, rules analyzer, SQLite store), window ${WINDOW.start.toISOString().slice(0, 10)} – ${WINDOW.end.toISOString().slice(0, 10)}`,
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Linux ${release()}, Node ${process.version}; load average ${load(loadAtStart)} at the start, ${load(loadavg())} at the end`,
    `input: 1x = ${DATA_DIR}; ${SCALE}x = ${scaled.dir}${scaled.cached ? ' (cached)' : ''}`,
    '',
    table(speed),
    '',
    table(memory),
    '',
    `peak RSS ${SCALE}x ÷ 1x: pipeline ${rssRatio.toFixed(2)} (peak heap ${heapRatio.toFixed(2)}), read-only ${readOnlyRssRatio.toFixed(2)} ` +
      `— goal ≤ ${GOALS.maxRssRatio} (pipeline): ${rssRatio <= GOALS.maxRssRatio ? 'pass' : 'FAIL'}`,
    `goals: pipeline ≥ ${GOALS.minThreadsPerSecond} threads/s on one core; peak RSS flat as the input grows (${SCALE}x within ${GOALS.maxRssRatio}× of 1x)`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);

  // After the measured runs, so that the profiler's overhead is in no figure above.
  let profile: { file: string; seconds: Record<string, number> } | undefined;
  if (flags['cpu-prof']) {
    const dir = join(OUT, 'profiles-pipeline');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    log('1x: digest pipeline under the CPU profiler …');
    const file = join(dir, 'pipeline-1x.cpuprofile');
    await measure({ mode: 'pipeline', input: DATA_DIR, profile: file });
    const seconds = profileCategories(file);
    profile = { file, seconds };
    const total = Object.values(seconds).reduce((t, v) => t + v, 0);
    const byTime = Object.entries(seconds).sort((a, b) => b[1] - a[1]);
    process.stdout.write(
      `\nWhere the 1x pipeline's CPU time goes (self time by category, profiler on; ${file}):\n\n` +
        `${table([['category', 'CPU s', 'share'], ...byTime.map(([c, s]) => [c, s.toFixed(2), `${((100 * s) / total).toFixed(0)}%`]), ['total', total.toFixed(2), '100%']])}\n`,
    );
  }

  mkdirSync(OUT, { recursive: true });
  const resultFile = join(OUT, 'pipeline.json');
  writeFileSync(
    resultFile,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        command: `node --import tsx bench/pipeline.ts ${process.argv.slice(2).join(' ')}`.trim(),
        machine: { cpus: cpus().length, model: cpus()[0]?.model, memGiB: totalmem() / 2 ** 30, kernel: release(), node: process.version },
        window: { start: WINDOW.start.toISOString(), end: WINDOW.end.toISOString() },
        inputs: { [`1x`]: DATA_DIR, [`${SCALE}x`]: scaled.dir, scaledCached: scaled.cached, inputVersion: INPUT_VERSION },
        loadAverage: { start: loadAtStart, end: loadavg() },
        results: results.map((r) => ({
          ...r,
          ratioToReadOnly: r.pipeline.threadsPerSecond / r.readOnly.threadsPerSecond,
          cpuRatioToReadOnly: r.pipeline.threadsPerCpuSecond / r.readOnly.threadsPerCpuSecond,
        })),
        peakRssRatio: rssRatio,
        peakHeapRatio: heapRatio,
        readOnlyPeakRssRatio: readOnlyRssRatio,
        goals: GOALS,
        profile,
        wallSeconds: (Date.now() - started) / 1000,
      },
      null,
      2,
    ),
  );
  log(`Saved ${resultFile}; wall time ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  return 0;
}

if (process.argv[2] === '--child') {
  const job = JSON.parse(process.argv[3]!) as Job;
  child(job).then(
    (result) => process.send!({ type: 'result', result }, () => process.exit(0)),
    (err: unknown) => process.send!({ type: 'error', error: (err as Error).stack ?? String(err) }, () => process.exit(1)),
  );
} else {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`bench pipeline: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
