/**
 * `npm run bench`: read throughput and latency of the service on a large generated project.
 *
 *  1. Generate the project (bench/generate.ts) and import it, measuring the import rate. SQLite:
 *     into a temp file under bench/out/, kept as a cache (bench/out/bench-v<N>-<posts>.db) that
 *     later runs reuse while the generator version and size match (`--fresh` rebuilds it).
 *     PostgreSQL (`--dialect postgres`): a database of its own on BENCH_DATABASE_URL's server,
 *     created for the run and dropped after it.
 *  2. Start bench/server.ts as a child process (the real app plus a bare route, see there).
 *  3. Check every target once (status 200 and the expected shape), warm each one up, then measure
 *     with autocannon at 10 connections, in rounds: every target gets duration/rounds seconds per
 *     round, round-robin, so that a noisy neighbour weighs on all targets alike. Every response
 *     is counted: any non-2xx answer, socket error or timeout fails the run (exit status 1).
 *  4. Print a table (req/s, p50, p99, server CPU per request, ratio to the bare route, goals)
 *     and save it as JSON in bench/out/results-<dialect>.json.
 *
 * Besides the bare route (the ceiling) and the reads under test, one diagnostic target is
 * measured: project.list, the cheapest invoke call (auth, body, envelope, one small query), the
 * floor that every capability pays before its own work.
 *
 * MCP: for one cheap and one realistic capability (briefs.get, pains.list page 1), the same call
 * as an MCP `tools/call` POST to /api/mcp in both protocol revisions the endpoint serves (a plain
 * stateless 2025-11-25 JSON-RPC request; the 2026-07-28 `_meta` envelope with the
 * MCP-Protocol-Version / Mcp-Method / Mcp-Name headers). Every MCP answer's body is checked too:
 * a 200 carrying a JSON-RPC error or an `isError` tool result fails the run like a non-2xx. They
 * are reported as a ratio to the invoke target of the same capability (goal ≥ 0.2, p99 < 10 ms).
 *
 * Flags: --duration S (measured seconds per target, default 10), --rounds N (default 4),
 * --warmup S (default 2), --connections N (default 10), --dialect sqlite|postgres, --fresh,
 * --posts N (a smaller project, for trying things out), --only a,b (target names; `mcp` = the MCP
 * targets and the invoke targets they are compared with; `pipeline` = the digest pipeline bench,
 * see below; ceiling and floor always run), --cpu-prof (after the measured rounds, profile the
 * server child under each target's load and print where its CPU time goes, by category: SQLite,
 * Kysely, JSON, Zod, Hono, Node's HTTP stack, GC …).
 *
 * Latency percentiles are computed from every response time autocannon reports (float ms), not
 * from its histogram, which rounds to whole milliseconds.
 *
 * Then the digest pipeline bench (bench/pipeline.ts, its own process: runDigest over the real
 * r/LocalLLaMA export at 1x and 10x, threads/s and peak memory; SQLite whatever --dialect; it
 * skips itself when the data is missing). `--only pipeline` runs only it, `--only a,b` without
 * `pipeline` leaves it out; --fresh (rebuild its cached 10x input) and --cpu-prof pass through.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, release } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { sql } from 'kysely';
import { createApiKey } from '../src/auth/api-keys.ts';
import { openAuth } from '../src/auth/better-auth.ts';
import { createUser, findUserByEmail } from '../src/auth/users.ts';
import { parseBundle } from '../src/ingest/bundle.ts';
import { importBundle } from '../src/ingest/import.ts';
import { openStore, type Dialect } from '../src/store/db.ts';
import { migrate } from '../src/store/migrate.ts';
import { authSecret } from '../src/store/settings.ts';
import { BENCH_OWNER, bundleChunks, DEFAULT_OPTIONS, GENERATOR_VERSION, planProject, type BenchTargets, type GenerateOptions } from './generate.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, 'out');

/** The goals of the issue that asked for this bench. */
const GOALS = { minRatio: 0.4, maxP99Ms: 10, maxDeepRatio: 1.5, minMcpRatio: 0.2 };

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    dialect: { type: 'string', default: 'sqlite' },
    fresh: { type: 'boolean', default: false },
    posts: { type: 'string' },
    only: { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const duration = positive(flags.duration!, '--duration');
const warmup = Number(flags.warmup);
const rounds = Math.round(positive(flags.rounds!, '--rounds'));
const connections = positive(flags.connections!, '--connections');
const dialect = flags.dialect as Dialect;
if (dialect !== 'sqlite' && dialect !== 'postgres') usage('--dialect is sqlite or postgres');

function positive(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) usage(`${flag} must be a positive number`);
  return n;
}

function usage(message: string): never {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

const log = (line: string) => process.stderr.write(`${line}\n`);

function generateOptions(): GenerateOptions {
  if (!flags.posts) return DEFAULT_OPTIONS;
  const scale = positive(flags.posts, '--posts') / DEFAULT_OPTIONS.posts;
  return {
    ...DEFAULT_OPTIONS,
    posts: Math.round(DEFAULT_OPTIONS.posts * scale),
    painThemes: Math.max(1, Math.round(DEFAULT_OPTIONS.painThemes * scale)),
    competitorThemes: Math.max(1, Math.round(DEFAULT_OPTIONS.competitorThemes * scale)),
    signals: Math.round(DEFAULT_OPTIONS.signals * scale),
    chunkPosts: Math.min(DEFAULT_OPTIONS.chunkPosts, Math.round(DEFAULT_OPTIONS.posts * scale)),
  };
}

// ---------------------------------------------------------------------------------------------
// 1. Data
// ---------------------------------------------------------------------------------------------

interface ImportStats {
  chunks: number;
  posts: number;
  signals: number;
  themes: number;
  bytes: number;
  generateSeconds: number;
  /** JSON.parse + parseBundle (validation) + importBundle, over all chunks. */
  importSeconds: number;
  parseSeconds: number;
  validateSeconds: number;
  writeSeconds: number;
  /** The write time of the first and last chunk: growth shows work done over the whole project. */
  firstChunkWriteSeconds: number;
  lastChunkWriteSeconds: number;
  postsPerSecond: number;
  measuredAt: string;
}

interface Dataset {
  url: string;
  targets: BenchTargets;
  importStats: ImportStats;
  cached: boolean;
  drop?: () => Promise<void>;
}

async function buildDatabase(url: string, options: GenerateOptions): Promise<{ targets: BenchTargets; importStats: ImportStats }> {
  const store = openStore(url);
  try {
    await migrate(store);
    if (!(await findUserByEmail(store, BENCH_OWNER))) {
      await createUser(await openAuth(store, { secret: await authSecret(store), publicUrl: 'http://localhost:8080' }), BENCH_OWNER);
    }
    const plan = planProject(options);
    const stats: ImportStats = {
      chunks: 0, posts: 0, signals: 0, themes: options.painThemes + options.competitorThemes, bytes: 0,
      generateSeconds: 0, importSeconds: 0, parseSeconds: 0, validateSeconds: 0, writeSeconds: 0,
      firstChunkWriteSeconds: 0, lastChunkWriteSeconds: 0, postsPerSecond: 0, measuredAt: new Date().toISOString(),
    };
    const chunks = bundleChunks(plan);
    for (;;) {
      const g0 = performance.now();
      const next = chunks.next();
      if (next.done) break;
      const chunk = next.value;
      // What `signals import FILE` reads: the chunk as one JSON document.
      const text = JSON.stringify(chunk.bundle);
      const t0 = performance.now();
      const raw: unknown = JSON.parse(text);
      const t1 = performance.now();
      const bundle = parseBundle(raw);
      const t2 = performance.now();
      await importBundle(store, bundle);
      const t3 = performance.now();
      const write = (t3 - t2) / 1000;
      stats.generateSeconds += (t0 - g0) / 1000;
      stats.parseSeconds += (t1 - t0) / 1000;
      stats.validateSeconds += (t2 - t1) / 1000;
      stats.writeSeconds += write;
      if (chunk.index === 0) stats.firstChunkWriteSeconds = write;
      stats.lastChunkWriteSeconds = write;
      stats.chunks += 1;
      stats.posts += chunk.posts;
      stats.signals += chunk.signals;
      stats.bytes += Buffer.byteLength(text);
      log(
        `  chunk ${chunk.index + 1}/${chunk.count}: ${chunk.posts} posts, ${chunk.signals} signals, ${mb(Buffer.byteLength(text))}; ` +
          `parse ${ms(t1 - t0)}, validate ${ms(t2 - t1)}, import ${ms(t3 - t2)}`,
      );
    }
    stats.importSeconds = stats.parseSeconds + stats.validateSeconds + stats.writeSeconds;
    stats.postsPerSecond = stats.posts / stats.importSeconds;
    return { targets: plan.targets, importStats: stats };
  } finally {
    await store.close();
  }
}

async function sqliteDataset(options: GenerateOptions): Promise<Dataset> {
  mkdirSync(OUT, { recursive: true });
  const base = join(OUT, `bench-v${GENERATOR_VERSION}-${options.posts}`);
  const file = `${base}.db`;
  const metaFile = `${base}.json`;
  if (!flags.fresh && existsSync(file) && existsSync(metaFile)) {
    const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as { version: number; options: GenerateOptions; targets: BenchTargets; importStats: ImportStats };
    if (meta.version === GENERATOR_VERSION && JSON.stringify(meta.options) === JSON.stringify(options)) {
      log(`Reusing ${file} (generator v${meta.version}; --fresh rebuilds it).`);
      return { url: `sqlite:${file}`, targets: meta.targets, importStats: meta.importStats, cached: true };
    }
  }
  for (const stale of readdirSync(OUT).filter((f) => f.startsWith('bench-') && f.includes(`-${options.posts}.`))) rmSync(join(OUT, stale), { force: true });
  const temp = join(OUT, `tmp-${process.pid}-${randomBytes(4).toString('hex')}.db`);
  log(`Generating ${options.posts} posts, ${options.signals} signals, ${options.painThemes + options.competitorThemes} themes into ${temp} …`);
  try {
    const built = await buildDatabase(`sqlite:${temp}`, options);
    renameSync(temp, file);
    writeFileSync(metaFile, JSON.stringify({ version: GENERATOR_VERSION, options, ...built }, null, 2));
    return { url: `sqlite:${file}`, ...built, cached: false };
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(temp + suffix, { force: true });
  }
}

async function postgresDataset(options: GenerateOptions): Promise<Dataset> {
  const admin = process.env.BENCH_DATABASE_URL;
  if (!admin) usage('--dialect postgres needs BENCH_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/postgres');
  const name = `signals_bench_${randomBytes(5).toString('hex')}`;
  const adminQuery = async (text: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await adminQuery(`create database ${name}`);
  const drop = () => adminQuery(`drop database if exists ${name} with (force)`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  try {
    log(`Generating ${options.posts} posts into PostgreSQL database ${name} …`);
    const built = await buildDatabase(url.toString(), options);
    // Fresh statistics for the planner, as autovacuum would gather them in time.
    const store = openStore(url.toString());
    await sql`analyze`.execute(store.db);
    await store.close();
    return { url: url.toString(), ...built, cached: false, drop };
  } catch (err) {
    await drop();
    throw err;
  }
}

/** A key for this run; earlier runs' keys on a cached database are removed first. */
async function benchKey(url: string): Promise<string> {
  const store = openStore(url);
  try {
    const user = await findUserByEmail(store, BENCH_OWNER);
    if (!user) throw new Error(`no ${BENCH_OWNER} account in the bench database`);
    await store.db.deleteFrom('api_keys').where('user_id', '=', user.id).where('name', '=', 'bench').execute();
    return (await createApiKey(store.db, { userId: user.id, projectId: null, name: 'bench' })).key;
  } finally {
    await store.close();
  }
}

// ---------------------------------------------------------------------------------------------
// 2. Server child
// ---------------------------------------------------------------------------------------------

interface Server {
  child: ChildProcess;
  base: string;
  bareBytes: number;
  /** The child's CPU time so far, in µs. */
  cpu(): Promise<number>;
  /** Runs `work` with the child's CPU profiler on; the profile goes to `file`. */
  profile<T>(file: string, work: () => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

async function startServer(url: string): Promise<Server> {
  const execArgv = ['--import', 'tsx'];
  const child = fork(join(HERE, 'server.ts'), [url], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = await new Promise<{ port: number; bareBytes: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the bench server did not start within 60 s')), 60_000);
    child.on('message', (message: { type?: string; port?: number; bareBytes?: number }) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve({ port: message.port!, bareBytes: message.bareBytes! });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the bench server exited (status ${code}) before it was ready`));
    });
  });
  return {
    child,
    base: `http://127.0.0.1:${ready.port}`,
    bareBytes: ready.bareBytes,
    cpu: () =>
      new Promise<number>((resolve) => {
        const onMessage = (message: { type?: string; micros?: number }) => {
          if (message.type !== 'cpu') return;
          child.off('message', onMessage);
          resolve(message.micros!);
        };
        child.on('message', onMessage);
        child.send({ type: 'cpu' });
      }),
    async profile(file, work) {
      const reply = (type: string) =>
        new Promise<{ error?: string }>((resolve) => {
          const onMessage = (message: { type?: string; error?: string }) => {
            if (message.type !== type) return;
            child.off('message', onMessage);
            resolve(message);
          };
          child.on('message', onMessage);
        });
      const started = reply('profile-started');
      child.send({ type: 'profile-start' });
      await started;
      const result = await work();
      const stopped = reply('profile-stopped');
      child.send({ type: 'profile-stop', file });
      const { error } = await stopped;
      if (error) throw new Error(`CPU profile: ${error}`);
      return result;
    },
    async stop() {
      if (child.exitCode === null) {
        child.send({ type: 'stop' });
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// 3. Targets and measurement
// ---------------------------------------------------------------------------------------------

interface Target {
  name: string;
  label: string;
  /**
   * The bare route (the ceiling), a capability read held to the goals, or a diagnostic: the
   * cheapest invoke call, to split a read's cost into "any invoke" and "this capability".
   */
  role: 'ceiling' | 'read' | 'diagnostic' | 'mcp';
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** Extra request headers (the MCP targets' Accept and protocol headers). */
  headers?: Record<string, string>;
  /** MCP targets: the invoke target of the same capability, which their ratio is taken to. */
  of?: string;
  /**
   * MCP targets: every response body is checked with this (a 200 carrying a JSON-RPC error or
   * an `isError` tool result is a failure too); autocannon counts a false as a mismatch.
   */
  verifyBody?: (body: string) => boolean;
  /** Throws when a 200 answer does not look like what was asked: a wrong target measures nothing. */
  check: (json: any) => void;
}

function expect(condition: boolean, what: string): void {
  if (!condition) throw new Error(`unexpected answer: ${what}`);
}

function targetsFor(t: BenchTargets): Target[] {
  const invoke = (name: string, label: string, capability: string, input: unknown, check: Target['check']): Target => ({
    name,
    label,
    role: 'read',
    method: 'POST',
    path: '/api/v1/invoke',
    body: JSON.stringify({ capability, input }),
    check,
  });
  const pageCount = Math.ceil(t.painThemeCount / 25);
  const deep = Math.max(1, pageCount - 1);
  const page = (sort: 'recent' | 'posts', n: number) => (d: any) => {
    const rows = Math.min(25, t.painThemeCount - (n - 1) * 25);
    expect(d.data.page === n && d.data.sort === sort && d.data.rows.length === rows, `pains.list page ${n} ${sort}: ${d.data.rows.length} rows`);
    expect(d.data.totalCount === t.painThemeCount, `totalCount ${d.data.totalCount}`);
  };
  const targets: Target[] = [
    { name: 'bare', label: 'bare Hono route (ceiling)', role: 'ceiling', method: 'GET', path: '/bench/bare', check: (d) => expect(Array.isArray(d.data.rows), 'bare body') },
    {
      ...invoke('floor', 'invoke floor: project.list', 'project.list', {}, (d) => expect(d.data.projects.length === 1, `project.list ${d.data.projects.length}`)),
      role: 'diagnostic',
    },
    invoke('briefs.get', `briefs.get n=${t.briefN}`, 'briefs.get', { n: t.briefN }, (d) => expect(d.data.n === t.briefN, `briefs.get n ${d.data.n}`)),
    invoke('pains.list.p1.recent', 'pains.list p1 recent', 'pains.list', { type: 'pain', page: 1, sort: 'recent' }, page('recent', 1)),
    invoke('pains.list.deep.recent', `pains.list p${deep} recent`, 'pains.list', { type: 'pain', page: deep, sort: 'recent' }, page('recent', deep)),
    invoke('pains.list.p1.posts', 'pains.list p1 posts', 'pains.list', { type: 'pain', page: 1, sort: 'posts' }, page('posts', 1)),
    invoke('pains.list.deep.posts', `pains.list p${deep} posts`, 'pains.list', { type: 'pain', page: deep, sort: 'posts' }, page('posts', deep)),
    invoke('pains.get', `pains.get (${t.painThemeSignals} signals)`, 'pains.get', { sovId: t.painThemeId }, (d) =>
      expect(d.data.id === t.painThemeId && d.data.pains.length === t.painThemeSignals, `pains.get ${d.data.pains?.length} pains`),
    ),
    invoke('posts.get', `posts.get permalink (${t.permalinkComments} comments)`, 'posts.get', { permalink: t.permalink }, (d) =>
      expect(d.data.post.permalink === t.permalink, `posts.get ${d.data.post?.permalink}`),
    ),
    invoke('competitors.list', 'competitors.list', 'competitors.list', {}, (d) =>
      expect(d.data.competitors.length === t.competitorEntries, `competitors.list ${d.data.competitors.length} entries`),
    ),
  ];
  // MCP `tools/call` for the same capability as an invoke target (one cheap, one realistic), in
  // both protocol revisions the endpoint serves: 2025-11-25 (a plain stateless JSON-RPC POST, no
  // initialize) and 2026-07-28 (the per-request `_meta` envelope and the Mcp-Method / Mcp-Name
  // headers). The answer's structuredContent is the invoke answer's `data`, checked alike.
  const mcp = (of: string, tool: string, args: Record<string, unknown>): Target[] => {
    const base = targets.find((x) => x.name === of)!;
    const check: Target['check'] = (d) => {
      expect(d.jsonrpc === '2.0' && d.id === 1 && d.error === undefined, `JSON-RPC error ${JSON.stringify(d.error)}`);
      expect(d.result?.isError !== true && d.result?.content?.[0]?.type === 'text', `tool error ${JSON.stringify(d.result?.content)}`);
      base.check({ data: d.result.structuredContent });
    };
    // Cheap enough for every response (a JSON.parse per answer would load the client): the SDK
    // writes `{"result":{…},"jsonrpc":"2.0","id":1}`; a JSON-RPC error has no `result`, a tool
    // error carries `"isError":true`.
    const verifyBody = (body: string) => body.startsWith('{"result":{') && !body.includes('"isError":true');
    const common = { role: 'mcp' as const, method: 'POST' as const, path: '/api/mcp', of, check, verifyBody };
    const accept = { accept: 'application/json, text/event-stream' };
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    return [
      {
        ...common,
        name: `mcp2025.${of}`,
        label: `MCP 2025-11-25 ${tool}`,
        headers: accept,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }),
      },
      {
        ...common,
        name: `mcp2026.${of}`,
        label: `MCP 2026-07-28 ${tool}`,
        headers: { ...accept, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': tool },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args, _meta: meta } }),
      },
    ];
  };
  return [
    ...targets,
    ...mcp('briefs.get', 'briefs_get', { n: t.briefN }),
    ...mcp('pains.list.p1.recent', 'pains_list', { type: 'pain', page: 1, sort: 'recent' }),
  ];
}

interface Measurement {
  name: string;
  label: string;
  role: Target['role'];
  responseBytes: number;
  requests: number;
  seconds: number;
  rps: number;
  /** req/s of each round, to show how much the machine moved under the figures. */
  roundRps: number[];
  p50: number;
  p99: number;
  mean: number;
  /** Server CPU time per request (µs): less sensitive to a noisy neighbour than req/s. */
  cpuMicros: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  statusCodes: Record<string, number>;
}

async function check(server: Server, key: string, target: Target): Promise<number> {
  const res = await fetch(server.base + target.path, request(key, target));
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${target.label}: HTTP ${res.status}: ${text.slice(0, 300)}`);
  target.check(JSON.parse(text));
  return Buffer.byteLength(text);
}

function request(key: string, target: Target): { method: string; headers: Record<string, string>; body?: string } {
  const headers: Record<string, string> = target.method === 'POST' ? { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...target.headers } : {};
  return target.body === undefined ? { method: target.method, headers } : { method: target.method, headers, body: target.body };
}

/** One autocannon run against one target: every response time and status, and the server's CPU time. */
interface Slice {
  latencies: number[];
  statusCodes: Record<string, number>;
  seconds: number;
  cpuMicros: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** 2xx answers whose body failed the target's verifyBody (MCP: a JSON-RPC or tool error). */
  mismatches: number;
}

async function slice(server: Server, key: string, target: Target, seconds: number): Promise<Slice> {
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const cpuBefore = await server.cpu();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.base + target.path,
        connections,
        duration: seconds,
        ...request(key, target),
        ...(target.verifyBody ? { verifyBody: target.verifyBody } : {}),
      } as autocannon.Options,
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    });
  });
  return {
    latencies,
    statusCodes,
    seconds: result.duration,
    cpuMicros: (await server.cpu()) - cpuBefore,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
  };
}

const failures = (s: Slice) => s.non2xx + s.errors + s.timeouts + s.mismatches;

function summarise(target: Target, responseBytes: number, slices: Slice[]): Measurement {
  const latencies = slices.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  const seconds = slices.reduce((t, s) => t + s.seconds, 0);
  const statusCodes: Record<string, number> = {};
  for (const s of slices) for (const [code, n] of Object.entries(s.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  return {
    name: target.name,
    label: target.label,
    role: target.role,
    responseBytes,
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    roundRps: slices.map((s) => s.latencies.length / s.seconds),
    p50: at(0.5),
    p99: at(0.99),
    mean: latencies.reduce((t, x) => t + x, 0) / Math.max(1, latencies.length),
    cpuMicros: slices.reduce((t, s) => t + s.cpuMicros, 0) / Math.max(1, latencies.length),
    non2xx: slices.reduce((t, s) => t + s.non2xx, 0),
    errors: slices.reduce((t, s) => t + s.errors, 0),
    timeouts: slices.reduce((t, s) => t + s.timeouts, 0),
    mismatches: slices.reduce((t, s) => t + s.mismatches, 0),
    statusCodes,
  };
}

// ---------------------------------------------------------------------------------------------
// 4. Report
// ---------------------------------------------------------------------------------------------

const ms = (x: number) => `${x.toFixed(0)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r, ri) => r.map((cell, i) => (i === 0 || ri === 0 ? pad(cell, widths[i]!) : lpad(cell, widths[i]!))).join('  ')).join('\n');
}

/** Where a profile sample's self time goes, by the function it was taken in. */
function category(functionName: string, url: string): string {
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return 'V8 (program)';
  if (url.includes('/better-sqlite3/') || url.includes('/kysely/dist/esm/dialect/sqlite/')) return 'SQLite (native calls)';
  if (url.includes('/kysely/dist/esm/dialect/postgres/') || /\/node_modules\/(pg|pg-[a-z-]+|postgres-[a-z-]+)\//.test(url)) return 'PostgreSQL client (pg)';
  if (url.includes('/node_modules/kysely/')) return 'Kysely (build, compile)';
  if (url.includes('/node_modules/zod/')) return 'Zod (validation)';
  if (url.includes('/node_modules/@modelcontextprotocol/')) return 'MCP SDK';
  if (url.endsWith('/src/store/json.ts')) return 'JSON.parse (stored JSON)';
  if (url.includes('/hono/dist/context.js') && functionName === 'json') return 'JSON.stringify (answer)';
  if (url.includes('/node_modules/hono/') || url.includes('/node_modules/@hono/')) return 'Hono + node-server';
  if (url.includes('/node_modules/pino')) return 'logging (pino)';
  if (url.startsWith('node:internal/crypto') || functionName === 'Hash' || functionName === 'digest') return 'crypto (key hash, ids)';
  if (url.startsWith('node:internal/modules') || url.includes('/node_modules/tsx/')) return 'module loading';
  if (url.startsWith('node:') || url === '') return 'Node HTTP, sockets, promises';
  if (url.includes('/src/domain/thread.ts')) return 'thread Markdown';
  if (url.includes('/src/')) return 'service code (src/)';
  return 'other';
}

/**
 * µs of CPU per request, by category, from one target's CPU profile. A native or built-in
 * function (no URL: better-sqlite3's `all`, JSON.parse, …) counts for the JS function that
 * called it, so SQLite's own work lands in "SQLite" and not in a bin of unnamed natives.
 */
function profileCategories(file: string, requests: number): Record<string, number> {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
    samples: number[];
    timeDeltas: number[];
  };
  const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const parents = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parents.set(child, n.id);
  const SOCKET_WRITES = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'writeAsciiString']);
  const categoryOf = (id: number): string | undefined => {
    const frame = nodes.get(id);
    if (!frame || frame.functionName === '(idle)' || frame.functionName === '(root)') return undefined;
    if (frame.url !== '' || frame.functionName.startsWith('(') || SOCKET_WRITES.has(frame.functionName)) return category(frame.functionName, frame.url);
    for (let up = parents.get(id); up !== undefined; up = parents.get(up)) {
      const caller = nodes.get(up)!;
      // The profiler's own traffic is not the service's work.
      if (caller.url === 'node:inspector') return undefined;
      if (caller.url !== '') return category(caller.functionName, caller.url);
    }
    return category(frame.functionName, frame.url);
  };
  const out: Record<string, number> = {};
  profile.samples.forEach((id, i) => {
    const c = categoryOf(id);
    if (c) out[c] = (out[c] ?? 0) + (profile.timeDeltas[i] ?? 0) / Math.max(1, requests);
  });
  return out;
}

function profileTable(profiles: { label: string; cpu: Record<string, number> }[]): string {
  const totals = new Map<string, number>();
  for (const p of profiles) for (const [c, v] of Object.entries(p.cpu)) totals.set(c, (totals.get(c) ?? 0) + v);
  const columns = [...totals].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]).map(([c]) => c);
  const rows = [['µs CPU per request', 'total', ...columns]];
  for (const p of profiles) {
    const total = Object.values(p.cpu).reduce((t, v) => t + v, 0);
    rows.push([p.label, total.toFixed(0), ...columns.map((c) => (p.cpu[c] ?? 0).toFixed(0))]);
  }
  return table(rows);
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const started = Date.now();
  const options = generateOptions();
  const dataset = dialect === 'postgres' ? await postgresDataset(options) : await sqliteDataset(options);
  let server: Server | undefined;
  try {
    const s = dataset.importStats;
    log(
      `Import${dataset.cached ? ` (measured ${s.measuredAt} when the cache was built)` : ''}: ${s.posts} posts, ${s.signals} signals in ${s.chunks} bundle(s), ` +
        `${mb(s.bytes)} of JSON: ${s.importSeconds.toFixed(1)} s = ${Math.round(s.postsPerSecond)} posts/s ` +
        `(parse ${s.parseSeconds.toFixed(1)} s, validate ${s.validateSeconds.toFixed(1)} s, write ${s.writeSeconds.toFixed(1)} s; generation ${s.generateSeconds.toFixed(1)} s not counted)`,
    );
    const key = await benchKey(dataset.url);
    server = await startServer(dataset.url);

    let targets = targetsFor(dataset.targets);
    if (flags.only) {
      // Names of targets; `mcp` stands for every MCP target plus the invoke targets they are
      // compared with; an MCP target also comes along when its invoke target is named.
      const wanted = new Set(flags.only.split(','));
      const mcpBases = new Set(targets.filter((t) => t.role === 'mcp').map((t) => t.of!));
      targets = targets.filter(
        (t) =>
          t.role === 'ceiling' ||
          t.role === 'diagnostic' ||
          wanted.has(t.name) ||
          (wanted.has('mcp') && (t.role === 'mcp' || mcpBases.has(t.name))) ||
          (t.role === 'mcp' && wanted.has(t.of!)),
      );
    }
    const sizes = new Map<string, number>();
    for (const target of targets) sizes.set(target.name, await check(server, key, target));

    // Each target is warmed up once, then measured in `rounds` slices, round-robin over all the
    // targets: a noisy neighbour then weighs on every target alike instead of on whichever one
    // happened to run at the bad moment, and the ratios to the ceiling compare like with like.
    for (const target of targets) {
      if (warmup <= 0) break;
      const w = await slice(server, key, target, warmup);
      if (failures(w) > 0) throw new Error(`${target.label}: warm-up got ${JSON.stringify(w.statusCodes)}, ${w.errors} errors, ${w.timeouts} timeouts, ${w.mismatches} error bodies`);
    }
    const slices = new Map<string, Slice[]>(targets.map((t) => [t.name, []]));
    for (let round = 1; round <= rounds; round++) {
      for (const target of targets) {
        const sl = await slice(server, key, target, duration / rounds);
        slices.get(target.name)!.push(sl);
        if (failures(sl) > 0) log(`  ${target.label}: ${JSON.stringify(sl.statusCodes)}, ${sl.errors} errors, ${sl.timeouts} timeouts, ${sl.mismatches} error bodies`);
      }
      log(`  round ${round}/${rounds} done`);
    }
    const results = targets.map((t) => summarise(t, sizes.get(t.name)!, slices.get(t.name)!));

    const bad = results.filter((r) => r.non2xx > 0 || r.errors > 0 || r.timeouts > 0 || r.mismatches > 0 || r.requests === 0);
    const bare = results.find((r) => r.role === 'ceiling')!;
    const ceiling = bare.rps;
    const bareCpu = bare.cpuMicros;
    const reads = results.filter((r) => r.role === 'read');
    const p99Goal = dialect === 'sqlite';
    const rows: string[][] = [['target', 'req/s', 'p50 ms', 'p99 ms', 'cpu µs/req', 'cpu ×bare', 'bytes', 'ratio', 'goal']];
    for (const r of results) {
      const ratio = r.rps / ceiling;
      let goal = '-';
      if (r.role === 'read') {
        const misses = [
          ...(ratio < GOALS.minRatio ? [`ratio<${GOALS.minRatio}`] : []),
          ...(p99Goal && r.p99 >= GOALS.maxP99Ms ? [`p99>=${GOALS.maxP99Ms}`] : []),
        ];
        goal = misses.length === 0 ? 'pass' : `FAIL ${misses.join(' ')}`;
      }
      rows.push([
        r.label,
        r.rps.toFixed(0),
        r.p50.toFixed(2),
        r.p99.toFixed(2),
        r.cpuMicros.toFixed(0),
        (r.cpuMicros / bareCpu).toFixed(1),
        String(r.responseBytes),
        ratio.toFixed(2),
        goal,
      ]);
    }
    const deepRatios = (['recent', 'posts'] as const).flatMap((sort) => {
      const p1 = reads.find((r) => r.name === `pains.list.p1.${sort}`);
      const deep = reads.find((r) => r.name === `pains.list.deep.${sort}`);
      if (!p1 || !deep) return [];
      const ratio = p1.rps / deep.rps;
      return [{ sort, ratio, p50Ratio: deep.p50 / p1.p50, cpuRatio: deep.cpuMicros / p1.cpuMicros, pass: ratio <= GOALS.maxDeepRatio }];
    });

    const out: string[] = [];
    out.push('');
    out.push(
      `npm run bench — ${new Date().toISOString()} — ${dialect}, ${connections} connections, ${duration} s per target ` +
        `(${rounds} interleaved rounds) after ${warmup} s warm-up`,
    );
    out.push(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Linux ${release()}, Node ${process.version}`);
    out.push(
      `data: ${options.posts} posts, ${options.painThemes + options.competitorThemes} themes (${options.painThemes} pain), ${options.signals} signals, ${options.briefs} briefs; ` +
        `import ${Math.round(dataset.importStats.postsPerSecond)} posts/s${dataset.cached ? ` (from the cache build, ${dataset.importStats.measuredAt})` : ''} ` +
        `(${dataset.importStats.chunks} bundles; write ${dataset.importStats.firstChunkWriteSeconds.toFixed(1)} s for the first, ${dataset.importStats.lastChunkWriteSeconds.toFixed(1)} s for the last)`,
    );
    out.push(
      `ceiling: bare route ${ceiling.toFixed(0)} req/s (rounds: ${bare.roundRps.map((r) => r.toFixed(0)).join(', ')}), ` +
        `${bareCpu.toFixed(0)} µs server CPU per request, ${server.bareBytes} bytes`,
    );
    out.push('');
    out.push(table(rows));
    out.push('');
    for (const d of deepRatios) {
      out.push(
        `pains.list deep page / page 1 (${d.sort}): ${d.ratio.toFixed(2)}× by req/s, ${d.p50Ratio.toFixed(2)}× by p50, ${d.cpuRatio.toFixed(2)}× by CPU ` +
          `— goal ≤ ${GOALS.maxDeepRatio}× (by req/s): ${d.pass ? 'pass' : 'FAIL'}`,
      );
    }
    const mcpRows = results
      .filter((r) => r.role === 'mcp')
      .map((r) => {
        const of = targets.find((t) => t.name === r.name)!.of!;
        const invoke = results.find((x) => x.name === of);
        const ratio = invoke ? r.rps / invoke.rps : NaN;
        const misses = [
          ...(!(ratio >= GOALS.minMcpRatio) ? [`ratio<${GOALS.minMcpRatio}`] : []),
          ...(p99Goal && r.p99 >= GOALS.maxP99Ms ? [`p99>=${GOALS.maxP99Ms}`] : []),
        ];
        return { name: r.name, label: r.label, of, rps: r.rps, invokeRps: invoke?.rps ?? NaN, ratio, p50: r.p50, p99: r.p99, cpuMicros: r.cpuMicros, invokeCpuMicros: invoke?.cpuMicros ?? NaN, pass: misses.length === 0, misses };
      });
    if (mcpRows.length > 0) {
      const rowsMcp: string[][] = [['MCP tools/call', 'req/s', 'p50 ms', 'p99 ms', 'cpu µs/req', 'invoke req/s', 'invoke cpu µs', '× invoke', 'goal']];
      for (const m of mcpRows) {
        rowsMcp.push([
          m.label,
          m.rps.toFixed(0),
          m.p50.toFixed(2),
          m.p99.toFixed(2),
          m.cpuMicros.toFixed(0),
          m.invokeRps.toFixed(0),
          m.invokeCpuMicros.toFixed(0),
          m.ratio.toFixed(2),
          m.pass ? 'pass' : `FAIL ${m.misses.join(' ')}`,
        ]);
      }
      out.push(table(rowsMcp));
      out.push(`MCP goals: tools/call ≥ ${GOALS.minMcpRatio * 100}% of the invoke req/s for the same capability${p99Goal ? `, p99 < ${GOALS.maxP99Ms} ms` : ''}`);
      out.push('');
    }
    out.push(`goals: every read ≥ ${GOALS.minRatio * 100}% of the ceiling${p99Goal ? `, p99 < ${GOALS.maxP99Ms} ms` : ' (p99 goal is for SQLite only)'}; deep page ≤ ${GOALS.maxDeepRatio}× page 1`);
    process.stdout.write(`${out.join('\n')}\n`);

    // Profiles come after the measured rounds, so the profiler's overhead is in no figure above.
    const profiles: { name: string; label: string; file: string; cpu: Record<string, number> }[] = [];
    if (flags['cpu-prof']) {
      const dir = join(OUT, `profiles-${dialect}`);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      for (const target of targets) {
        const file = join(dir, `${target.name}.cpuprofile`);
        const sl = await server.profile(file, () => slice(server!, key, target, Math.max(3, duration / rounds)));
        profiles.push({ name: target.name, label: target.label, file, cpu: profileCategories(file, sl.latencies.length) });
      }
      process.stdout.write(
        `\nWhere the server's CPU time goes (V8 CPU profile of each target, self time by category; profiler on, so totals run higher than above; files in ${dir}):\n\n${profileTable(profiles)}\n`,
      );
    }
    await server.stop();
    server = undefined;

    mkdirSync(OUT, { recursive: true });
    const resultFile = join(OUT, `results-${dialect}.json`);
    writeFileSync(
      resultFile,
      JSON.stringify(
        {
          date: new Date().toISOString(),
          command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
          dialect,
          connections,
          duration,
          rounds,
          warmup,
          machine: { cpus: cpus().length, model: cpus()[0]?.model, memGiB: totalmem() / 2 ** 30, kernel: release(), node: process.version },
          options,
          targets: dataset.targets,
          importStats: dataset.importStats,
          importCached: dataset.cached,
          ceiling,
          results,
          deepRatios,
          mcp: mcpRows,
          profiles,
          wallSeconds: (Date.now() - started) / 1000,
        },
        null,
        2,
      ),
    );
    log(`Saved ${resultFile}; wall time ${((Date.now() - started) / 1000).toFixed(0)} s.`);

    if (bad.length > 0) {
      for (const r of bad) {
        process.stderr.write(
          `bench: ${r.label}: ${r.requests} responses, non-2xx ${r.non2xx} ${JSON.stringify(r.statusCodes)}, errors ${r.errors}, timeouts ${r.timeouts}, JSON-RPC/tool error bodies ${r.mismatches}\n`,
        );
      }
      process.stderr.write('bench: FAILED: some requests did not get a 2xx answer (or got an MCP error), so the figures above mean nothing.\n');
      return 1;
    }
    return 0;
  } finally {
    await server?.stop();
    await dataset.drop?.();
  }
}

/** bench/pipeline.ts in a process of its own: it forks its own children and exits when done. */
function pipelineBench(): Promise<number> {
  const args = [...(flags.fresh ? ['--fresh'] : []), ...(flags['cpu-prof'] ? ['--cpu-prof'] : [])];
  const child = fork(join(HERE, 'pipeline.ts'), args, { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

const only = flags.only?.split(',');
const runHttp = !only || only.some((name) => name !== 'pipeline');
const runPipeline = !only || only.includes('pipeline');
(async () => {
  const code = runHttp ? await main() : 0;
  return runPipeline ? Math.max(code, await pipelineBench()) : code;
})().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`bench: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
