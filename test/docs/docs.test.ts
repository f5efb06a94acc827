/**
 * Documentation that cannot drift.
 *
 * - docs/api.md must be exactly what scripts/gen-api-docs.ts renders from the registry, so a
 *   capability change without regenerating the file fails here.
 * - README.md must keep its two quick-start commands verbatim and show a curl example for every
 *   registry capability.
 * - Every curl example in README.md and docs/api.md must work against a service holding the demo
 *   data of `signals demo` (whose ids are deterministic), on every database.
 *
 * How examples are found (the pattern README and the generator follow):
 *   a curl example is a line starting with `curl ` inside a ```sh block, with `\` line
 *   continuations. Its URL is `http://localhost:8080/…`, headers are `-H '…'` or `-H "…"`, and the
 *   invoke body is ONE `-d '<compact JSON>'` argument whose JSON holds `"capability":"<name>"`.
 *   `$KEY` stands for the demo key.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { openAuth } from '../../src/auth/better-auth.ts';
import { createUser, findUserByEmail } from '../../src/auth/users.ts';
import { capabilities, findCapability } from '../../src/capabilities/registry.ts';
import type { Capability } from '../../src/capabilities/types.ts';
import { DEMO_EMAIL } from '../../src/cli/main.ts';
import { loadDemo } from '../../src/ingest/demo.ts';
import { openStore } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';
import { authSecret } from '../../src/store/settings.ts';
import {
  API_DOCS_PATH,
  CAPABILITY_FACTS,
  EXAMPLE_BASE_URL,
  exampleBody,
  factsProblems,
  renderApiDocs,
} from '../../scripts/gen-api-docs.ts';
import { DIALECTS, freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';

const ROOT = new URL('../../', import.meta.url);
const README = readFileSync(new URL('README.md', ROOT), 'utf8');
const API_MD = readFileSync(API_DOCS_PATH, 'utf8');

const QUICK_START_SERVICE = 'npm ci && npx signals demo && npm start';
const QUICK_START_TESTS = 'npm ci && npm test';

interface CurlExample {
  /** The command as written, continuations joined. */
  command: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** Every curl example of a Markdown document, parsed (see the header comment for the pattern). */
function curlExamples(markdown: string): CurlExample[] {
  const examples: CurlExample[] = [];
  for (const block of markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    const joined = block[1]!.replace(/\\\n\s*/g, ' ');
    for (const line of joined.split('\n')) {
      if (!line.startsWith('curl ')) continue;
      const url = /\s(https?:\/\/\S+)/.exec(line)?.[1];
      assert.ok(url, `no URL in: ${line}`);
      const headers: Record<string, string> = {};
      for (const h of line.matchAll(/-H (?:'([^']*)'|"([^"]*)")/g)) {
        const [name, ...value] = (h[1] ?? h[2]!).split(':');
        headers[name!.trim().toLowerCase()] = value.join(':').trim();
      }
      const bodies = [...line.matchAll(/-d '([^']*)'/g)].map((m) => m[1]!);
      assert.ok(bodies.length <= 1, `more than one -d in: ${line}`);
      examples.push({ command: line, url, headers, body: bodies[0] });
    }
  }
  return examples;
}

const invokeEnvelope = z.strictObject({
  capability: z.string(),
  input: z.record(z.string(), z.unknown()).optional(),
  project: z.string().optional(),
  render: z.literal('text').optional(),
});

/** The invoke bodies of a document's examples, checked against the envelope and the capability's schema. */
function invokeBodies(markdown: string): { example: CurlExample; request: z.infer<typeof invokeEnvelope>; capability: Capability }[] {
  return curlExamples(markdown)
    .filter((e) => e.body !== undefined)
    .map((example) => {
      const request = invokeEnvelope.parse(JSON.parse(example.body!));
      const capability = findCapability(request.capability);
      assert.ok(capability, `unknown capability in example: ${example.command}`);
      const parsed = capability.input.safeParse(request.input ?? {});
      assert.ok(parsed.success, `example input fails ${capability.name}'s schema: ${example.body}`);
      return { example, request, capability };
    });
}

describe('docs/api.md', () => {
  test('is exactly what scripts/gen-api-docs.ts renders from the registry (regenerate it when this fails)', () => {
    assert.equal(API_MD, renderApiDocs());
  });

  test('has one section per registry capability, in registry order', () => {
    const section = API_MD.slice(API_MD.indexOf('\n## Capabilities\n'));
    const headings = [...section.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(
      headings,
      capabilities.map((c) => c.name),
    );
  });

  test('every error code of the closed set is listed with its HTTP status', () => {
    for (const [code, status] of [
      ['invalid', 400],
      ['forbidden', 403],
      ['not_found', 404],
      ['limit', 409],
      ['internal', 500],
    ] as const) {
      assert.ok(API_MD.includes(`| \`${code}\` | ${status} |`), `no row for ${code}`);
    }
  });

  test('holds the generator example of every capability', () => {
    for (const c of capabilities) {
      assert.ok(API_MD.includes(`-d '${exampleBody(c.name, CAPABILITY_FACTS[c.name]!.example)}'`), `no example for ${c.name}`);
    }
  });

  test('the generator refuses a registry capability that has no entry in CAPABILITY_FACTS', () => {
    const extra = { ...capabilities[0]!, name: 'widgets.list' } as Capability;
    assert.throws(() => renderApiDocs([...capabilities, extra]), /capability "widgets\.list" has no entry in CAPABILITY_FACTS/);
  });

  test('the generator refuses an entry in CAPABILITY_FACTS for a capability the registry lacks', () => {
    assert.deepEqual(factsProblems(capabilities.slice(1), CAPABILITY_FACTS), [
      `CAPABILITY_FACTS has an entry for "${capabilities[0]!.name}", which is not in the registry`,
    ]);
    assert.deepEqual(factsProblems(capabilities, CAPABILITY_FACTS), []);
  });

  test('the generator refuses an example input that fails the capability schema', () => {
    const facts = { ...CAPABILITY_FACTS, 'briefs.get': { example: { input: { n: 0 } } } };
    assert.throws(() => renderApiDocs(capabilities, facts), /the example input of "briefs\.get" fails its own schema/);
  });

  test('`gen-api-docs.ts --check` exits 0 on the committed file', async () => {
    const run = promisify(execFile);
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/gen-api-docs.ts', '--check'], {
      cwd: new URL('.', ROOT).pathname,
    });
    assert.equal(stdout, '');
    assert.equal(stderr, '');
  });
});

describe('README.md', () => {
  test('holds the two quick-start commands verbatim, each on its own line of a sh block', () => {
    const shLines = [...README.matchAll(/^```sh\n([\s\S]*?)^```/gm)].flatMap((m) => m[1]!.split('\n'));
    assert.ok(shLines.includes(QUICK_START_SERVICE), `missing: ${QUICK_START_SERVICE}`);
    assert.ok(shLines.includes(QUICK_START_TESTS), `missing: ${QUICK_START_TESTS}`);
  });

  test('has a curl example for every registry capability', () => {
    const shown = new Set(invokeBodies(README).map((b) => b.request.capability));
    for (const c of capabilities) {
      assert.ok(shown.has(c.name), `README.md has no curl example with "capability":"${c.name}"`);
      assert.ok(README.includes(`"capability":"${c.name}"`));
    }
  });

  test('shows the discovery call and a render text example', () => {
    const examples = curlExamples(README);
    assert.ok(examples.some((e) => e.url === `${EXAMPLE_BASE_URL}/api/v1/capabilities` && e.body === undefined));
    assert.ok(invokeBodies(README).some((b) => b.request.render === 'text' && b.capability.text));
  });

  test('every curl example sends the key and, with a body, JSON to the invoke endpoint', () => {
    for (const e of [...curlExamples(README), ...curlExamples(API_MD)]) {
      assert.equal(e.headers.authorization, 'Bearer $KEY', e.command);
      if (e.body !== undefined) {
        assert.equal(e.url, `${EXAMPLE_BASE_URL}/api/v1/invoke`, e.command);
        assert.equal(e.headers['content-type'], 'application/json', e.command);
      }
    }
  });

  test('links the documents it names, and those documents exist', () => {
    for (const link of ['docs/api.md', 'docs/operations.md', 'docs/performance.md', 'docs/decisions/']) {
      assert.ok(README.includes(`](${link})`), `no link to ${link}`);
    }
    // docs/performance.md is written with the benchmarks (bench/), not here: only its link is checked.
    for (const path of ['docs/api.md', 'docs/operations.md', 'docs/decisions/']) {
      assert.ok(existsSync(new URL(path, ROOT)), `${path} is missing`);
    }
  });
});

describe('docs/decisions', () => {
  test('holds numbered records, each with context, decision, consequences and alternatives', () => {
    const dir = new URL('docs/decisions/', ROOT);
    const files = readdirSync(dir).filter((f) => f.endsWith('.md')).sort();
    assert.ok(files.length >= 7, `only ${files.length} records`);
    files.forEach((file, i) => {
      assert.match(file, new RegExp(`^${String(i + 1).padStart(4, '0')}-[a-z0-9-]+\\.md$`), 'records are numbered 0001, 0002, … without gaps');
      const text = readFileSync(new URL(file, dir), 'utf8');
      assert.match(text, new RegExp(`^# ${String(i + 1).padStart(4, '0')}\\. `), `${file}: title`);
      for (const heading of ['## Context', '## Decision', '## Consequences', '## Alternatives']) {
        assert.ok(text.includes(`\n${heading}\n`), `${file}: no "${heading}" section`);
      }
    });
  });
});

/**
 * What `signals demo` creates, built once per dialect (its digest runs are most of this suite's
 * time) and copied for every service that needs it untouched: the examples edit the memory.
 */
const demoTemplates = new Map<string, Promise<TestDatabase>>();
function demoTemplate(dialect: (typeof DIALECTS)[number]): Promise<TestDatabase> {
  let template = demoTemplates.get(dialect);
  if (!template) {
    template = (async () => {
      const database = await freshDatabase(dialect);
      const store = openStore(database.url);
      try {
        await migrate(store);
        const auth = await openAuth(store, { secret: await authSecret(store), publicUrl: 'http://localhost:8080' });
        const user = await createUser(auth, DEMO_EMAIL, 'demo-password');
        await loadDemo(store, user.id);
      } finally {
        await store.close();
      }
      return database;
    })();
    demoTemplates.set(dialect, template);
  }
  return template;
}
after(async () => {
  for (const template of demoTemplates.values()) await (await template).drop();
});

/** A service holding exactly what `signals demo` creates, and the demo account's key. */
async function demoService(dialect: (typeof DIALECTS)[number]): Promise<{ svc: TestService; key: string }> {
  const svc = await startService(dialect, { bundle: false, template: await demoTemplate(dialect) });
  const user = (await findUserByEmail(svc.store, DEMO_EMAIL))!;
  const { key } = await createApiKey(svc.store.db, { userId: user.id, projectId: null, name: 'demo' });
  return { svc, key };
}

async function runExample(svc: TestService, key: string, e: CurlExample) {
  const path = e.url.slice(EXAMPLE_BASE_URL.length);
  const headers = Object.fromEntries(Object.entries(e.headers).map(([k, v]) => [k, v.replace('$KEY', key)]));
  const init: RequestInit = e.body === undefined ? { headers } : { method: 'POST', headers, body: e.body };
  return svc.request(path, init);
}

for (const dialect of DIALECTS) {
  for (const [name, markdown] of [
    ['README.md', README],
    ['docs/api.md', API_MD],
  ] as const) {
    describe(`${name} examples against the demo data (${dialect})`, () => {
      let svc: TestService;
      let key: string;
      before(async () => {
        ({ svc, key } = await demoService(dialect));
      });
      after(() => svc.close());

      test('every curl example answers 200 with data, and text exactly when asked for and supported', async () => {
        const examples = curlExamples(markdown);
        assert.ok(examples.length >= capabilities.length, `only ${examples.length} examples`);
        for (const e of examples) {
          const res = await runExample(svc, key, e);
          assert.equal(res.status, 200, `${e.command}\n→ ${JSON.stringify(res.body)}`);
          if (e.body === undefined) {
            assert.deepEqual(
              res.body.capabilities.map((c: { name: string }) => c.name),
              capabilities.map((c) => c.name),
            );
            continue;
          }
          const request = JSON.parse(e.body);
          const capability = findCapability(request.capability)!;
          assert.deepEqual(Object.keys(res.body).sort(), request.render === 'text' && capability.text ? ['data', 'text'] : ['data'], e.command);
          // The output schema is the published contract: the example's answer must satisfy it.
          assert.ok(capability.output.safeParse(res.body.data).success, `${capability.name} answer fails its output schema`);
        }
      });

      if (name === 'README.md') {
        test('the answers README shows are the real ones', async () => {
          const list = await svc.invoke(key, { capability: 'project.list', render: 'text' });
          assert.equal(list.status, 200);
          assert.ok(README.includes(`\`\`\`\n${list.body.text}\n\`\`\``), `README should show:\n${list.body.text}`);
          // The README's "run twice" answer: whether or not the edit ran before, a repeat is refused.
          const edit = invokeBodies(README).find((b) => b.capability.name === 'memory.edit')!;
          await svc.invoke(key, edit.request);
          const again = await svc.invoke(key, edit.request);
          assert.equal(again.status, 400);
          assert.equal(again.body.error.code, 'invalid');
          assert.ok(README.includes(`\`${again.body.error.message}\``), `README should quote: ${again.body.error.message}`);
        });

        test('the memory.edit answer README shows is the real one', async () => {
          const fresh = await demoService(dialect);
          try {
            const edit = invokeBodies(README).find((b) => b.capability.name === 'memory.edit')!;
            const res = await fresh.svc.invoke(fresh.key, edit.request);
            assert.equal(res.status, 200);
            assert.ok(README.includes(`It answers \`${JSON.stringify(res.body)}\``), `README should show: ${JSON.stringify(res.body)}`);
          } finally {
            await fresh.svc.close();
          }
        });
      }
    });
  }
}
