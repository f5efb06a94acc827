/**
 * For the end-to-end suites that run the real `signals serve` process: a free loopback port, and
 * waiting until the process answers its health check (or fails fast when it exits).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function waitForHealth(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`signals serve exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('signals serve did not answer /healthz within 30 s');
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const BIN = fileURLToPath(new URL('../../bin/signals.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A real `signals` process on `databaseUrl`; `done` settles when it exits. */
export function spawnSignals(databaseUrl: string, args: string[], options: { env?: Record<string, string>; stdin?: string } = {}) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  child.stdin.end(options.stdin ?? '');
  return { child, done };
}
