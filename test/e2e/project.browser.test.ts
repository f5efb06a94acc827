/**
 * A project's whole life in a real browser (DESIGN §9; issue 12, item 5): headless Chromium
 * (Debian's, driven by playwright-core) against the real `signals serve` process, on SQLite and,
 * when TEST_DATABASE_URL is set, on PostgreSQL. A person signs up, creates a project whose URL is
 * a local test site (reached through FETCH_ALLOW_HOSTS) and watches its memory being built from
 * it; edits every memory field and meets the communities limit; runs a digest from the runs page
 * over a file source (the shipped real r/LocalLLaMA threads, moved to the last days); reads the
 * briefs, themes (both sorts, both types, one theme) and competitors; renames the project and
 * deletes it. Every page visited is saved as a full-page screenshot at phone width (and some at
 * desktop width) under test-artifacts/screenshots/, named `project-DIALECT-NN-what.png`.
 *
 * Chromium comes from Debian (`apt-get install chromium`; .ci/run installs it). Without it the
 * suite fails under CI=true and is skipped, loudly, elsewhere.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { DIALECTS, freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { freePort, waitForHealth } from '../helpers/process.ts';
import { writeRedditExport, type RedditExport } from '../helpers/reddit-export.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = new URL('../../test-artifacts/screenshots/', import.meta.url).pathname;
const ROOT = new URL('../../', import.meta.url).pathname;
const available = existsSync(CHROMIUM);

if (!available && process.env.CI === 'true') throw new Error(`Chromium is missing at ${CHROMIUM}: .ci/run installs it (apt-get install chromium)`);

const PHONE = { width: 420, height: 900 };
const DESKTOP = { width: 1280, height: 900 };

/** What the memory builder reads from the test site: the JSON-LD product's description and category. */
const SITE_DESCRIPTION = 'Quantforge quantizes open-weights LLMs & serves them on your own GPU, with an OpenAI-compatible API.';
const SITE_PAGE = `<!doctype html><html lang="en"><head>
  <meta charset="utf-8">
  <title>Quantforge — quantize and serve local LLMs</title>
  <meta name="description" content="Quantization and serving for local LLMs.">
  <meta property="og:site_name" content="Quantforge">
  <meta property="og:title" content="Quantforge">
  <meta property="og:description" content="Quantforge turns any open-weights model into a fast local server.">
  <script type="application/ld+json">{ "@context": "https://schema.org", "@type": "SoftwareApplication", "name": "Quantforge",
    "applicationCategory": "DeveloperApplication",
    "description": "Quantforge quantizes open-weights LLMs &amp; serves them on your own GPU, with an OpenAI-compatible API." }</script>
</head><body><h1>Quantforge</h1><p>Run any model on your own hardware.</p></body></html>`;

/** The site answers after this long, so that the project page is seen before its memory is ready. */
const SITE_DELAY_MS = 1_500;

const PROJECT_NAME = 'Quantforge';
const NEW_NAME = 'Quantforge Cloud';
const COMPETITORS = [
  { name: 'Ollama', url: 'https://ollama.com', description: 'Runs open models locally behind a simple CLI and REST API.' },
  { name: 'LM Studio', url: 'https://lmstudio.ai', description: 'Desktop app to download and chat with local models.' },
  { name: 'vLLM', url: 'https://docs.vllm.ai', description: 'High-throughput inference server for GPUs.' },
];
/** Added, then removed again. */
const DROPPED_COMPETITOR = { name: 'Acme Inference', url: 'https://acme-inference.example.com', description: 'A made-up hosted inference API.' };
const OFFERINGS = [
  { name: 'Managed GGUF endpoints', description: 'Hosted llama.cpp endpoints for any GGUF quant, with an OpenAI-compatible API and no VRAM limits.' },
  { name: 'Burst GPU pools', description: 'Multi-GPU boxes by the minute for models too big for your own VRAM.' },
];
/** The first is the community of the thread dump; the limit is 5. */
const COMMUNITIES = [
  { name: 'r/LocalLLaMA', description: 'People running open-weight models on their own hardware.' },
  { name: 'r/ollama', description: 'Ollama users and their problems.' },
  { name: 'hn: llama.cpp, local llm', description: 'Hacker News threads on local inference.' },
  { name: 'stackoverflow: llama-cpp, ollama', description: 'Programmers stuck on local inference.' },
  { name: 'github: ollama/ollama', description: 'Issues people open against Ollama.' },
];
const SIXTH_COMMUNITY = { name: 'r/MachineLearning', description: 'Researchers and practitioners.' };

for (const dialect of DIALECTS) {
  describe(`a project in a real browser (${dialect})`, { skip: available ? false : `no Chromium at ${CHROMIUM}` }, () => {
    let database: TestDatabase;
    let site: Server;
    let siteUrl: string;
    let dump: RedditExport;
    let server: ChildProcess;
    let browser: Browser;
    let page: Page;
    let base: string;
    let projectPath: string;
    let step = 0;
    let started = Date.now();
    const timings: string[] = [];
    const overflows: string[] = [];

    /** A full-page screenshot at phone width (and, with `desktop`, one at 1280 px too). */
    const shot = async (name: string, options: { desktop?: boolean } = {}) => {
      step += 1;
      const file = `project-${dialect}-${String(step).padStart(2, '0')}-${name}`;
      await page.screenshot({ path: join(SHOTS, `${file}.png`), fullPage: true });
      // Wider than the phone: something forces a sideways scroll (the suite's last test fails on it).
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (wide > 0) overflows.push(`${file}.png: ${wide}px wider than the ${PHONE.width}px viewport`);
      if (options.desktop) {
        await page.setViewportSize(DESKTOP);
        await page.screenshot({ path: join(SHOTS, `${file}-desktop.png`), fullPage: true });
        await page.setViewportSize(PHONE);
      }
    };

    /** Clicks a submit button and waits for the page the post leads to (a redirect or a page with an error). */
    const submit = async (button: Locator) => {
      const [response] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), button.click()]);
      return response;
    };

    /** The form on the memory page that holds `field`. */
    const formOf = (field: string) => page.locator(`form:has(${field})`);

    const lap = (what: string) => timings.push(`${what} at ${((Date.now() - started) / 1000).toFixed(1)} s`);

    before(async () => {
      started = Date.now();
      mkdirSync(SHOTS, { recursive: true });
      // This suite's screenshots of an earlier run go, so that the folder shows this run only.
      for (const f of readdirSync(SHOTS)) if (f.startsWith(`project-${dialect}-`) && f.endsWith('.png')) rmSync(join(SHOTS, f));
      database = await freshDatabase(dialect);
      site = createHttpServer((req, res) => {
        if (req.url !== '/') {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('not found');
          return;
        }
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(SITE_PAGE);
        }, SITE_DELAY_MS);
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      const sitePort = (site.address() as AddressInfo).port;
      siteUrl = `http://127.0.0.1:${sitePort}/`;
      // The shipped real threads of r/LocalLLaMA, moved so the newest is an hour old: a first run
      // (the last 30 days) collects most of them.
      dump = writeRedditExport({ shiftTo: new Date(Date.now() - 3_600_000) });

      const port = await freePort();
      base = `http://localhost:${port}`;
      const env: NodeJS.ProcessEnv = {};
      // The rules analyzer and no LLM summary, whatever the developer's shell has set.
      for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('LLM_')) env[k] = v;
      server = spawn(process.execPath, [join(ROOT, 'bin/signals.mjs'), 'serve'], {
        env: {
          ...env,
          DATABASE_URL: database.url,
          PORT: String(port),
          PUBLIC_URL: base,
          LOG_LEVEL: 'warn',
          FETCH_ALLOW_HOSTS: `127.0.0.1:${sitePort}`,
          DIGEST_SOURCE: `file:${dump.dir}`,
          // The scheduler's first pass is at start (no projects yet); no second one during the
          // suite, so the only run is the one started from the runs page.
          DIGEST_TICK_SECONDS: '3600',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      await waitForHealth(base, server);
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        // As root in a container, without a GPU, and with no network beyond loopback.
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
      const context = await browser.newContext({ viewport: PHONE });
      page = await context.newPage();
      page.setDefaultTimeout(20_000);
      lap('serve and Chromium up');
    });

    after(async () => {
      await browser?.close();
      if (server && server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        const stuck = setTimeout(() => server.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(stuck);
      }
      site?.closeAllConnections();
      site?.close();
      dump?.remove();
      await database?.drop();
      lap('done');
      console.log(`project e2e (${dialect}): ${timings.join('; ')}`);
    });

    test('sign up, create a project, its memory is built from the site', async () => {
      // A visitor lands on / and finds what the service does and the way in.
      await page.goto(`${base}/`);
      await shot('landing', { desktop: true });
      assert.match((await page.textContent('main')) ?? '', /turns what is new into a short brief/);
      await page.click('a[href="/signup"]');
      await page.waitForURL(`${base}/signup`);
      await shot('signup');
      await page.fill('#email', 'pat@example.com');
      await page.fill('#password', 'a-good-password');
      await page.fill('#confirm', 'a-good-password');
      await submit(page.locator('form[action="/signup"] button[type=submit]'));
      assert.equal(page.url(), `${base}/dashboard`);
      await shot('dashboard-empty');

      await page.fill('#project-name', PROJECT_NAME);
      await page.fill('#project-url', siteUrl);
      await submit(page.locator('form[action="/dashboard/projects"] button[type=submit]'));
      assert.match(page.url(), new RegExp(`^${base}/projects/prj_[A-Za-z0-9_-]+$`), 'a new project opens on its own page');
      projectPath = new URL(page.url()).pathname;
      assert.equal(await page.textContent('h1'), PROJECT_NAME);
      // The site answers slowly: the memory is still being built, and the page reloads itself.
      assert.match((await page.textContent('#status + section .status')) ?? '', /^(pending|building)$/);
      assert.equal(await page.getAttribute('meta[http-equiv=refresh]', 'content'), '5');
      assert.match((await page.textContent('section[aria-label="Next steps"]')) ?? '', /Your memory is being built from/);
      await shot('project-building');

      // No reload of ours: the page's own refresh brings the built memory.
      await page.waitForSelector('#status + section .status:is(.ready, .failed)', { timeout: 30_000 });
      assert.equal(await page.textContent('#status + section .status'), 'ready', (await page.textContent('#status + section')) ?? '');
      lap('memory ready');
      assert.equal(await page.locator('meta[http-equiv=refresh]').count(), 0, 'a ready page stops reloading');
      assert.equal(await page.inputValue('#product-text'), SITE_DESCRIPTION, 'the description comes from the site');
      assert.match((await page.textContent('#status + section')) ?? '', new RegExp(`Built from ${siteUrl.replace(/[.]/g, '\\.')}`));
      assert.match((await page.textContent('#status + section')) ?? '', /Category: Developer application/);
      await shot('project-ready', { desktop: true });

      await page.goto(`${base}/dashboard`);
      const row = page.locator('tr', { has: page.locator(`a[href="${projectPath}"]`) });
      assert.equal(await row.locator('a').textContent(), PROJECT_NAME);
      assert.equal(await row.locator('.status').textContent(), 'ready');
      await shot('dashboard-with-project', { desktop: true });
    });

    test('edit every memory field; a sixth community is refused with what was typed kept', async () => {
      await page.goto(`${base}${projectPath}`);

      const product = 'Quantforge turns any open-weights model into a quantized, OpenAI-compatible server on your own GPU or ours.';
      await page.fill('#product-text', product);
      await submit(formOf('#product-text').locator('button[type=submit]'));
      assert.equal(page.url(), `${base}${projectPath}?saved=product#product`);
      assert.equal(await page.inputValue('#product-text'), product);
      assert.equal(await page.locator('#product + section [role=status]').textContent(), 'Saved.');

      const icp = 'Developers and small teams running open-weight LLMs who hit VRAM limits, slow quantization or flaky local servers.';
      await page.fill('#icp-text', icp);
      await submit(formOf('#icp-text').locator('button[type=submit]'));
      assert.equal(page.url(), `${base}${projectPath}?saved=icp#icp`);
      assert.equal(await page.inputValue('#icp-text'), icp);

      for (const c of [...COMPETITORS, DROPPED_COMPETITOR]) {
        await page.fill('#competitor-name', c.name);
        await page.fill('#competitor-url', c.url);
        await page.fill('#competitor-description', c.description);
        await submit(formOf('#competitor-name').locator('button[type=submit]'));
        assert.equal(page.url(), `${base}${projectPath}?saved=competitors#competitors`);
      }
      const competitorNames = () => page.locator('#competitors + section ul.items > li > strong').allTextContents();
      assert.deepEqual(await competitorNames(), [...COMPETITORS, DROPPED_COMPETITOR].map((c) => c.name));
      assert.match((await page.textContent('#competitors + section')) ?? '', /A made-up hosted inference API\./);
      await shot('memory-competitors-added');
      await submit(page.locator(`button[aria-label="Remove competitor ${DROPPED_COMPETITOR.name}"]`));
      assert.equal(page.url(), `${base}${projectPath}?saved=competitors#competitors`);
      assert.deepEqual(await competitorNames(), COMPETITORS.map((c) => c.name));

      for (const o of OFFERINGS) {
        await page.fill('#offering-name', o.name);
        await page.fill('#offering-description', o.description);
        await submit(formOf('#offering-name').locator('button[type=submit]'));
        assert.equal(page.url(), `${base}${projectPath}?saved=offerings#offerings`);
      }
      assert.deepEqual(await page.locator('#offerings + section ul.items > li > strong').allTextContents(), OFFERINGS.map((o) => o.name));

      for (const c of COMMUNITIES) {
        await page.fill('#community-name', c.name);
        await page.fill('#community-description', c.description);
        await submit(formOf('#community-name').locator('button[type=submit]'));
        assert.equal(page.url(), `${base}${projectPath}?saved=communities#communities`, `adding ${c.name}`);
      }
      assert.deepEqual(await page.locator('#communities + section ul.items > li > strong').allTextContents(), COMMUNITIES.map((c) => c.name));
      assert.match((await page.textContent('#communities + section .hint')) ?? '', /\(5 of 5\)/);

      // The sixth: memory.edit's `limit` error (409), next to the community field, the typed value kept.
      await page.fill('#community-name', SIXTH_COMMUNITY.name);
      await page.fill('#community-description', SIXTH_COMMUNITY.description);
      const refused = await submit(formOf('#community-name').locator('button[type=submit]'));
      assert.equal(refused?.status(), 409);
      assert.equal(await page.textContent('#communities-error'), 'A project watches at most 5 communities; remove one first.');
      assert.equal(await page.getAttribute('#community-name', 'aria-invalid'), 'true');
      assert.equal(await page.getAttribute('#community-name', 'aria-describedby'), 'communities-error');
      assert.equal(await page.inputValue('#community-name'), SIXTH_COMMUNITY.name);
      assert.equal(await page.inputValue('#community-description'), SIXTH_COMMUNITY.description);
      // The other forms are untouched by the error.
      assert.equal(await page.locator('.field-error').count(), 1);
      assert.equal(await page.inputValue('#product-text'), product);
      await page.locator('#communities-error').scrollIntoViewIfNeeded();
      await shot('memory-community-limit-error');
      await page.screenshot({ path: join(SHOTS, `project-${dialect}-${String(step).padStart(2, '0')}-memory-community-limit-error-viewport.png`) });

      for (const rule of ['ignore job postings', 'ignore memes']) {
        await page.fill('#filter-rule', rule);
        await submit(formOf('#filter-rule').locator('button[type=submit]'));
        assert.equal(page.url(), `${base}${projectPath}?saved=filterRules#filterRules`);
      }
      const rules = () => page.locator('#filterRules + section ul.items > li > span').allTextContents();
      assert.deepEqual(await rules(), ['ignore job postings', 'ignore memes']);
      await submit(page.locator('button[aria-label="Remove rule ignore memes"]'));
      assert.equal(page.url(), `${base}${projectPath}?saved=filterRules#filterRules`);
      assert.deepEqual(await rules(), ['ignore job postings']);
      assert.match((await page.textContent('section[aria-label="Next steps"]')) ?? '', /Watching 5 communities\./);
      await shot('memory-edited', { desktop: true });
      lap('memory edited');
    });

    test('a digest run from the runs page, over the file source', async () => {
      await page.click(`nav.tabs a[href="${projectPath}/runs"]`);
      await page.waitForURL(`${base}${projectPath}/runs`);
      assert.match((await page.textContent('main')) ?? '', /No digest has run yet/);
      assert.match((await page.textContent('form[action$="/runs"] .hint')) ?? '', /the last 30 days, as this project has no complete run yet/);
      await shot('runs-empty');

      await submit(page.locator('form[action$="/runs"] button[type=submit]'));
      assert.equal(page.url(), `${base}${projectPath}/runs`, 'Run now answers with a redirect to the runs page');
      assert.equal(await page.locator('ul.items > li').count(), 1);
      const state = (await page.textContent('ul.items > li .status')) ?? '';
      if (state !== 'complete') {
        assert.match(state, /^(queued|running)$/);
        assert.equal(await page.getAttribute('meta[http-equiv=refresh]', 'content'), '5');
        await shot('runs-in-progress');
      }
      // The page's own refresh shows the end of the run.
      await page.waitForSelector('ul.items > li .status:is(.complete, .failed)', { timeout: 90_000 });
      const run = (await page.textContent('ul.items > li')) ?? '';
      assert.equal(await page.textContent('ul.items > li .status'), 'complete', run);
      lap('digest complete');
      assert.equal(await page.locator('ul.items > li').count(), 1, 'one run only');
      const analyzed = /([\d,]+) posts? analyzed/.exec(run);
      assert.ok(analyzed && Number(analyzed[1]!.replace(/,/g, '')) > 50, `posts analyzed: ${run}`);
      const signals = /Signals: ([\d,]+) pain, ([\d,]+) competitor, ([\d,]+) content\./.exec(run);
      assert.ok(signals, run);
      assert.ok(Number(signals[1]!.replace(/,/g, '')) > 0 && Number(signals[2]!.replace(/,/g, '')) > 0, run);
      assert.match(run, /a file source reads a dump/);
      assert.equal(await page.locator('meta[http-equiv=refresh]').count(), 0, 'a finished run stops the reloading');
      assert.match((await page.textContent('form[action$="/runs"] .hint')) ?? '', /Run now collects the last 24 hours\./);
      await shot('runs-complete', { desktop: true });
    });

    test('briefs, themes (both sorts, both types, one theme) and competitors', async () => {
      await page.click(`nav.tabs a[href="${projectPath}/briefs"]`);
      await page.waitForURL(`${base}${projectPath}/briefs`);
      const items = page.locator('li[id^="item-"]');
      assert.ok((await items.count()) > 0, 'the brief has items');
      assert.equal(await items.first().locator('.item-n').textContent(), '#1');
      assert.equal(await page.locator('h2.brief-window').count(), 1);
      assert.ok((await page.locator('li[id^="item-"] blockquote').count()) > 0, 'items quote the threads');
      assert.match((await page.textContent('main')) ?? '', /Suggested move:/);
      const sourceLink = page.locator('ul.sources a').first();
      assert.match((await sourceLink.getAttribute('href')) ?? '', /^https:\/\/www\.reddit\.com\/r\/LocalLLaMA\/comments\//);
      assert.equal(await sourceLink.getAttribute('rel'), 'noopener noreferrer nofollow');
      await shot('briefs', { desktop: true });

      await page.click(`nav.tabs a[href="${projectPath}/themes"]`);
      await page.waitForURL(`${base}${projectPath}/themes`);
      const current = (label: string) => page.textContent(`nav[aria-label="${label}"] [aria-current]`);
      assert.equal(await current('Type'), 'Customer pains');
      assert.equal(await current('Sort'), 'Most recent');
      assert.ok((await page.locator('ul.items > li').count()) > 0, 'pain themes are listed');
      assert.match((await page.textContent('main')) ?? '', /rows 1–\d+ of \d+ · [\d,]+ posts in all/);
      await shot('themes', { desktop: true });

      await submit(page.locator('nav[aria-label="Sort"] a', { hasText: 'Most posts' }));
      assert.equal(new URL(page.url()).searchParams.get('sort'), 'posts');
      assert.equal(await current('Sort'), 'Most posts');
      const postCounts = (await page.locator('ul.items > li .hint').allTextContents()).map((t) => Number(/^([\d,]+) posts?/.exec(t)![1]!.replace(/,/g, '')));
      assert.deepEqual(postCounts, [...postCounts].sort((a, b) => b - a), 'most posts first');
      await shot('themes-most-posts');
      if ((await page.locator('a[rel=next]').count()) > 0) {
        await submit(page.locator('a[rel=next]'));
        assert.equal(new URL(page.url()).searchParams.get('page'), '2');
        assert.match((await page.textContent('nav[aria-label=Pages]')) ?? '', /page 2 of \d+/);
        await shot('themes-page-2');
      }

      await submit(page.locator('nav[aria-label="Type"] a', { hasText: 'Competitor weaknesses' }));
      assert.equal(new URL(page.url()).searchParams.get('type'), 'competitor');
      assert.equal(new URL(page.url()).searchParams.get('sort'), 'posts', 'the sort is kept');
      assert.equal(await current('Type'), 'Competitor weaknesses');
      const competitorThemes = await page.locator('ul.items > li a strong').allTextContents();
      assert.ok(competitorThemes.length > 0, 'competitor themes are listed');
      await shot('themes-competitors');

      // One theme: every quote with its author, community, date and thread.
      const first = page.locator('ul.items > li > a').first();
      const title = (await first.textContent()) ?? '';
      await submit(first);
      assert.match(new URL(page.url()).pathname, new RegExp(`^${projectPath}/themes/[^/]+$`));
      assert.equal(await page.textContent('h1'), title);
      const quotes = page.locator('li[id^="signal-"]');
      assert.ok((await quotes.count()) > 0, 'the theme has quotes');
      assert.match((await page.textContent('main h2')) ?? '', /^\d+ quotes?, newest first$/);
      for (const quote of (await quotes.all()).slice(0, 5)) {
        assert.notEqual(((await quote.locator('blockquote').textContent()) ?? '').trim(), '');
        assert.notEqual(((await quote.locator('.quote-author').textContent()) ?? '').trim(), '');
        assert.match((await quote.locator('.quote-community').textContent()) ?? '', /LocalLLaMA/);
        assert.match((await quote.locator('time').getAttribute('datetime')) ?? '', /^\d{4}-\d\d-\d\dT/);
        const link = quote.locator('a[target=_blank]');
        assert.match((await link.getAttribute('href')) ?? '', /^https:\/\/www\.reddit\.com\/r\/LocalLLaMA\/comments\//);
        assert.equal(await link.getAttribute('rel'), 'noopener noreferrer nofollow');
      }
      await shot('theme', { desktop: true });
      await submit(page.locator('a', { hasText: '← All themes' }));
      assert.equal(new URL(page.url()).pathname, `${projectPath}/themes`);
      await shot('themes-back');

      await page.click(`nav.tabs a[href="${projectPath}/competitors"]`);
      await page.waitForURL(`${base}${projectPath}/competitors`);
      // Read in one go: the page lists every product mentioned, each with its newest mentions.
      const entries = await page.$$eval('main > section > ul.items > li', (lis) =>
        lis.map((li) => ({
          name: li.querySelector(':scope > p.item-head > strong')?.textContent ?? '',
          head: li.querySelector(':scope > p.item-head')?.textContent ?? '',
          tracked: li.querySelector(':scope > p.item-head > .status')?.textContent ?? '',
          href: li.querySelector(':scope > p.mono > a')?.getAttribute('href') ?? null,
        })),
      );
      const names = entries.map((e) => e.name);
      for (const c of COMPETITORS) assert.ok(names.includes(c.name), `${c.name} is listed: ${names.join(', ')}`);
      assert.ok(!names.includes(DROPPED_COMPETITOR.name));
      const at = names.indexOf('Ollama');
      const ollama = entries[at]!;
      assert.equal(ollama.tracked, 'tracked');
      const mentions = Number(/([\d,]+) mentions?/.exec(ollama.head)?.[1]?.replace(/,/g, '') ?? '0');
      assert.ok(mentions > 0, `Ollama is mentioned in the threads: ${ollama.head}`);
      assert.equal(ollama.href, 'https://ollama.com');
      const ollamaItem = page.locator('main > section > ul.items > li').nth(at);
      await ollamaItem.locator('details > summary').click();
      assert.ok(await ollamaItem.locator('details blockquote').first().isVisible());
      await ollamaItem.scrollIntoViewIfNeeded();
      await shot('competitors', { desktop: true });
      lap('pages read');
    });

    test('rename the project, then delete it', async () => {
      await page.click(`nav.tabs a[href="${projectPath}"]`);
      await page.waitForURL(`${base}${projectPath}`);
      await page.fill('#project-name', NEW_NAME);
      await submit(formOf('#project-name').locator('button[type=submit]'));
      assert.equal(page.url(), `${base}${projectPath}?saved=rename#rename`);
      assert.equal(await page.textContent('h1'), NEW_NAME);
      assert.equal(await page.locator('#rename + section [role=status]').textContent(), 'Saved.');
      assert.match((await page.textContent('.crumbs')) ?? '', new RegExp(`› ${NEW_NAME}`));
      await shot('project-renamed');

      await page.click('.crumbs a[href="/dashboard"]');
      await page.waitForURL(`${base}/dashboard`);
      assert.equal(await page.textContent(`a[href="${projectPath}"]`), NEW_NAME);
      assert.ok(!((await page.textContent('main')) ?? '').includes(`${PROJECT_NAME}\n`));
      assert.deepEqual(await page.locator('main table a[href^="/projects/"]').allTextContents(), [NEW_NAME]);
      await shot('dashboard-renamed');

      await page.click(`a[href="${projectPath}"]`);
      await page.waitForURL(`${base}${projectPath}`);
      // A confirmation that is not the name deletes nothing.
      await page.fill('#delete-confirm', PROJECT_NAME);
      const wrong = await submit(formOf('#delete-confirm').locator('button[type=submit]'));
      assert.equal(wrong?.status(), 400);
      assert.equal(await page.textContent('#delete-error'), `Type the project's name, ${NEW_NAME}, to delete it.`);
      assert.equal(await page.inputValue('#delete-confirm'), PROJECT_NAME);
      await page.locator('#delete-error').scrollIntoViewIfNeeded();
      await shot('delete-wrong-name');

      await page.fill('#delete-confirm', NEW_NAME);
      await submit(formOf('#delete-confirm').locator('button[type=submit]'));
      assert.equal(page.url(), `${base}/dashboard?deleted=1`);
      assert.equal(await page.textContent('main [role=status]'), 'The project was deleted.');
      assert.equal(await page.locator(`a[href^="/projects/"]`).count(), 0, 'the project is gone from the dashboard');
      assert.match((await page.textContent('main')) ?? '', /No projects yet\./);
      await shot('dashboard-deleted');

      const gone = await page.goto(`${base}${projectPath}/themes`);
      assert.equal(gone?.status(), 404);
      assert.equal(await page.textContent('h1'), 'Project not found');
      await shot('project-gone');
      lap('renamed and deleted');
    });

    test('no page visited is wider than the phone', () => {
      assert.ok(step > 20, 'the pages were visited');
      assert.deepEqual(overflows, [], `pages that scroll sideways at ${PHONE.width}px`);
    });
  });
}
