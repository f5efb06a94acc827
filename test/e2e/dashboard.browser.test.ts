/**
 * End to end in a real browser: headless Chromium (Debian's, driven by playwright-core) against
 * the real `signals serve` process. A person signs up, creates a project and an API key, copies
 * the key from the page, uses it against the HTTP API, revokes it, and is refused afterwards.
 * Every page visited is saved as a screenshot under test-artifacts/screenshots/.
 *
 * Chromium comes from Debian (`apt-get install chromium`; .ci/run installs it). Without it the
 * suite fails under CI=true and is skipped, loudly, elsewhere.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = new URL('../../test-artifacts/screenshots/', import.meta.url).pathname;
const ROOT = new URL('../../', import.meta.url).pathname;
const available = existsSync(CHROMIUM);

if (!available && process.env.CI === 'true') throw new Error(`Chromium is missing at ${CHROMIUM}: .ci/run installs it (apt-get install chromium)`);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base: string, child: ChildProcess): Promise<void> {
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

describe('dashboard in a real browser', { skip: available ? false : `no Chromium at ${CHROMIUM}` }, () => {
  let dir: string;
  let server: ChildProcess;
  let browser: Browser;
  let page: Page;
  let base: string;
  let step = 0;

  const shot = async (name: string) => {
    step += 1;
    await page.screenshot({ path: join(SHOTS, `${String(step).padStart(2, '0')}-${name}.png`), fullPage: true });
  };

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'signals-e2e-'));
    const port = await freePort();
    base = `http://localhost:${port}`;
    server = spawn(process.execPath, [join(ROOT, 'bin/signals.mjs'), 'serve'], {
      env: { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'e2e.db')}`, PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitForHealth(base, server);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // As root in a container, without a GPU, and with no network beyond loopback.
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const context = await browser.newContext({ viewport: { width: 420, height: 900 } });
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    server?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  test('sign up, create a project and a key, use it, revoke it', async () => {
    await page.goto(`${base}/signup`);
    await shot('signup');
    await page.fill('input[name=email]', 'eve@example.com');
    await page.fill('input[name=password]', 'a-good-password');
    await page.fill('input[name=confirm]', 'a-good-password');
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/dashboard`);
    await shot('dashboard-empty');
    assert.equal(await page.inputValue('#mcp-url'), `${base}/api/mcp`);

    await page.fill('input[name=url]', 'https://acme.example.com');
    await page.fill('form:has(input[name=url]) input[name=name]', 'Acme Analytics');
    await page.click('form:has(input[name=url]) button[type=submit]');
    await page.waitForURL(`${base}/dashboard`);
    assert.match(await page.textContent('body') ?? '', /Acme Analytics/);

    await page.fill('form:has(select) input[name=name]', 'laptop');
    await page.click('form:has(select) button[type=submit]');
    await page.waitForLoadState();
    await shot('key-shown-once');
    const key = await page.inputValue('input[readonly][value^="sgk_"]');
    assert.match(key, /^sgk_[a-z2-7]{32}$/);

    // The key works against the HTTP API, as curl would use it.
    const call = () =>
      fetch(`${base}/api/v1/invoke`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ capability: 'project.memory', input: { field: 'product' } }),
      });
    const ok = await call();
    assert.equal(ok.status, 200);
    assert.equal((await ok.json()).data.memory.name, 'Acme Analytics');

    // Shown once: the dashboard lists it by its last four characters only.
    await page.goto(`${base}/dashboard`);
    const body = (await page.textContent('body')) ?? '';
    assert.ok(!body.includes(key), 'the full key is shown again');
    assert.ok(body.includes(key.slice(-4)));
    await shot('dashboard-with-key');

    await page.click('form[action*="revoke"] button');
    await page.waitForURL(`${base}/dashboard`);
    await shot('key-revoked');
    assert.equal((await call()).status, 403);

    await page.goto(`${base}/logout`);
    await page.click('form button[type=submit]');
    await page.waitForLoadState();
    await page.goto(`${base}/dashboard`);
    assert.match(page.url(), /\/login/);
    await shot('signed-out');
  });
});
