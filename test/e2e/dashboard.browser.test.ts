/**
 * End to end in a real browser: headless Chromium (Debian's, driven by playwright-core) against
 * the real `signals serve` process. A person signs up, creates a project (and lands on its page),
 * creates an API key (shown once on the dashboard after the redirect; a reload neither shows it
 * again nor creates another), copies the key with the page's copy button, uses it against the HTTP
 * API, revokes it, and is refused afterwards. Then an OAuth client (a loopback redirect URI served by the test) sends the browser
 * through sign-in and the consent screen, gets tokens that read the chosen project over MCP, and
 * is cut off when the person revokes it on the dashboard. Every page visited is saved as a
 * screenshot under test-artifacts/screenshots/.
 *
 * Chromium comes from Debian (`apt-get install chromium`; .ci/run installs it). Without it the
 * suite fails under CI=true and is skipped, loudly, elsewhere.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cimdHostEnv, startCimdHost, type CimdHost } from '../helpers/cimd-host.ts';
import { freePort, waitForHealth } from '../helpers/process.ts';
import { chromium, type Browser, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = new URL('../../test-artifacts/screenshots/', import.meta.url).pathname;
const ROOT = new URL('../../', import.meta.url).pathname;
const available = existsSync(CHROMIUM);

if (!available && process.env.CI === 'true') throw new Error(`Chromium is missing at ${CHROMIUM}: .ci/run installs it (apt-get install chromium)`);

describe('dashboard in a real browser', { skip: available ? false : `no Chromium at ${CHROMIUM}` }, () => {
  let dir: string;
  let server: ChildProcess;
  let browser: Browser;
  let page: Page;
  let base: string;
  let cimdHost: CimdHost;
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
    cimdHost = await startCimdHost();
    server = spawn(process.execPath, [join(ROOT, 'bin/signals.mjs'), 'serve'], {
      env: { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'e2e.db')}`, PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn', ...cimdHostEnv(cimdHost) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitForHealth(base, server);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // As root in a container, without a GPU, and with no network beyond loopback.
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const context = await browser.newContext({ viewport: { width: 420, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    server?.kill('SIGTERM');
    await cimdHost?.close();
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
    // POST-redirect-GET: a new project opens on its own page, which says what happens next.
    await page.waitForURL(new RegExp(`^${base}/projects/prj_[A-Za-z0-9_-]+$`));
    assert.match((await page.textContent('h1')) ?? '', /Acme Analytics/);
    await shot('project-created');
    await page.goto(`${base}/dashboard`);
    assert.match((await page.textContent('body')) ?? '', /Acme Analytics/);

    await page.fill('form:has(select) input[name=name]', 'laptop');
    await page.click('form:has(select) button[type=submit]');
    // The key rides the redirect in a sealed cookie and is shown once, on the dashboard.
    await page.waitForURL(`${base}/dashboard#new-key-notice`);
    await shot('key-shown-once');
    const shown = await page.inputValue('#new-key-notice input[readonly][value^="sgk_"]');
    assert.match(shown, /^sgk_[a-z2-7]{32}$/);
    // The copy button (shown by the page's script) puts the key on the clipboard.
    await page.click('button[data-copy="new-key"]');
    await page.waitForSelector('button[data-copy="new-key"]:has-text("Copied")');
    const key = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(key, shown);

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

    // A reload of the page that showed the key neither creates a second key nor shows the key again.
    await page.reload();
    await page.waitForLoadState();
    assert.equal(await page.locator('#new-key-notice').count(), 0, 'the key notice is shown again after a reload');
    assert.ok(!((await page.content()).includes(key)), 'the full key is in the page after a reload');
    assert.equal(await page.locator('form[action^="/dashboard/keys/"][action$="/revoke"]').count(), 1, 'a reload created another key');
    await shot('key-reloaded');

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

  test('an OAuth client: sign-in and consent in the browser, MCP with its token, then the app revoked', async () => {
    // The client's side: a loopback redirect URI (as a desktop MCP client registers), served here.
    const callback = await listenForCallback();
    try {
      const redirectUri = `${callback.base}/callback`;
      const registered = await fetch(`${base}/api/auth/oauth2/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Browser Test Agent', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
      });
      assert.equal(registered.status, 201);
      const clientId = ((await registered.json()) as { client_id: string }).client_id;
      const verifier = randomBytes(32).toString('base64url');
      const authorize = authorizationUrl(base, { clientId, redirectUri, verifier, state: 'browser-state', scope: 'signals:read offline_access' });

      // Signed out after the first test: the authorization goes through the sign-in page.
      await page.goto(authorize.toString());
      await page.waitForURL(/\/login\?/);
      assert.match((await page.textContent('.notice')) ?? '', /Browser Test Agent/);
      await shot('oauth-sign-in');
      await page.fill('input[name=email]', 'eve@example.com');
      await page.fill('input[name=password]', 'a-good-password');
      await page.click('form[action="/login"] button[type=submit]');
      await page.waitForURL(/\/consent\?/);
      const consentText = (await page.textContent('main')) ?? '';
      assert.match(consentText, /Browser Test Agent wants to read your Project Signals data/);
      assert.match(consentText, new RegExp(`sent back to ${callback.host.replace('.', '\\.')}`));
      await page.selectOption('select[name=project]', { label: 'Only Acme Analytics' });
      await shot('oauth-consent');
      await page.click('button[name=decision][value=allow]');
      await page.waitForURL(new RegExp(`^${redirectUri}\\?`));
      await shot('oauth-client-callback');
      const landed = new URL(page.url());
      assert.equal(landed.searchParams.get('state'), 'browser-state');
      assert.equal(landed.searchParams.get('iss'), `${base}/api/auth`);
      const code = landed.searchParams.get('code');
      assert.ok(code);

      const tokenRes = await fetch(`${base}/api/auth/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier }),
      });
      assert.equal(tokenRes.status, 200);
      const tokens = (await tokenRes.json()) as { access_token: string };
      const mcp = () =>
        fetch(`${base}/api/mcp`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'project_memory', arguments: {} } }),
        });
      const read = await mcp();
      assert.equal(read.status, 200);
      const result = ((await read.json()) as { result: { structuredContent: { memory: { name: string } } } }).result;
      assert.equal(result.structuredContent.memory.name, 'Acme Analytics');

      await page.goto(`${base}/dashboard`);
      const apps = (await page.textContent('table:below(h2:has-text("Connected apps"))')) ?? '';
      assert.match(apps, /Browser Test Agent/);
      await shot('dashboard-connected-app');
      await page.click('form[action^="/dashboard/apps/"] button');
      await page.waitForURL(`${base}/dashboard`);
      await shot('app-revoked');
      assert.match((await page.textContent('body')) ?? '', /No applications connected yet\./);
      assert.equal((await mcp()).status, 401, 'the client is cut off at once');
    } finally {
      await callback.close();
    }
  });
  test('a client identified by a metadata document: no registration, consent names it and its host, tokens read over MCP', async () => {
    const callback = await listenForCallback();
    try {
      const redirectUri = `${callback.base}/callback`;
      const clientId = cimdHost.url('/agent/client.json');
      cimdHost.serve('/agent/client.json', { client_id: clientId, client_name: 'Metadata Document Agent', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] });
      const verifier = randomBytes(32).toString('base64url');
      const authorize = authorizationUrl(base, { clientId, redirectUri, verifier, state: 'cimd-state', scope: 'signals:read' });

      await page.goto(authorize.toString());
      if (/\/login\?/.test(page.url())) {
        await page.fill('input[name=email]', 'eve@example.com');
        await page.fill('input[name=password]', 'a-good-password');
        await page.click('form[action="/login"] button[type=submit]');
      }
      await page.waitForURL(/\/consent\?/);
      const consentText = (await page.textContent('main')) ?? '';
      assert.match(consentText, /Metadata Document Agent wants to read your Project Signals data/);
      assert.match(consentText, new RegExp(`It describes itself at localhost:${cimdHost.port}`));
      await shot('oauth-cimd-consent');
      await page.click('button[name=decision][value=allow]');
      await page.waitForURL(new RegExp(`^${redirectUri}\\?`));
      const landed = new URL(page.url());
      assert.equal(landed.searchParams.get('state'), 'cimd-state');
      const code = landed.searchParams.get('code');
      assert.ok(code);
      assert.ok(cimdHost.fetched.includes('/agent/client.json'), 'the service read the document');

      const tokenRes = await fetch(`${base}/api/auth/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier }),
      });
      assert.equal(tokenRes.status, 200, await tokenRes.clone().text());
      const tokens = (await tokenRes.json()) as { access_token: string };
      const read = await fetch(`${base}/api/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'project_list', arguments: {} } }),
      });
      assert.equal(read.status, 200);
      const result = ((await read.json()) as { result: { isError?: boolean } }).result;
      assert.notEqual(result.isError, true);
    } finally {
      await callback.close();
    }
  });
});

/** An authorization request as an MCP client sends it: PKCE S256 and the MCP resource. */
function authorizationUrl(base: string, r: { clientId: string; redirectUri: string; verifier: string; state: string; scope: string }): URL {
  const url = new URL(`${base}/api/auth/oauth2/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: r.clientId,
    redirect_uri: r.redirectUri,
    scope: r.scope,
    state: r.state,
    code_challenge: createHash('sha256').update(r.verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: `${base}/api/mcp`,
  })) url.searchParams.set(k, v);
  return url;
}

/** The OAuth client's redirect URI: a loopback page that says the connection is done. */
async function listenForCallback(): Promise<{ base: string; host: string; close(): Promise<void> }> {
  const server: Server = createHttpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Connected</title><p>Connected. You can close this window.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
