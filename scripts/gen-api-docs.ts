/**
 * Renders docs/api.md from the capability registry, so the API reference cannot drift from the
 * code: every capability section (kind, scope, text form, input table, output schema) is computed
 * from src/capabilities/registry.ts; the error table from ERROR_CODES and statusOf; the limits
 * from LIMITS. The prose below says only what the registry cannot (endpoints, rules, auth).
 *
 *   node --import tsx scripts/gen-api-docs.ts           write docs/api.md
 *   node --import tsx scripts/gen-api-docs.ts --check   exit 1 when docs/api.md is out of date
 *
 * test/docs/docs.test.ts fails when docs/api.md differs from what this script renders, and runs
 * every example below against a service holding the demo data.
 *
 * Adding a capability: add it to the registry, add its entry to CAPABILITY_FACTS (the script
 * refuses to run without one), then run the script.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { capabilities as registryCapabilities, discovery, inputJsonSchema, outputJsonSchema } from '../src/capabilities/registry.ts';
import type { Capability } from '../src/capabilities/types.ts';
import { ERROR_CODES, type ErrorCode } from '../src/domain/errors.ts';
import { LIMITS } from '../src/domain/limits.ts';
import { statusOf } from '../src/http/errors.ts';

export const API_DOCS_PATH = fileURLToPath(new URL('../docs/api.md', import.meta.url));

/** The base URL used by every example: where `npm start` listens by default. */
export const EXAMPLE_BASE_URL = 'http://localhost:8080';

/** One example request to /api/v1/invoke, minus `capability`. */
export interface ExampleRequest {
  input?: Record<string, unknown>;
  project?: string;
  render?: 'text';
}

/**
 * What the registry cannot say about a capability: which lookups can miss (`not_found`), which
 * limits it can hit, extra `invalid` cases, and one example request that works against the demo
 * data of `signals demo` (ids there are deterministic). One entry per registry capability, no more.
 */
export interface CapabilityFacts {
  /** When this capability answers `not_found` beyond "no project yet". */
  notFound?: string;
  /** When it answers `limit`. */
  limit?: string;
  /** `invalid` cases beyond "input failing the schema". */
  invalid?: string;
  example: ExampleRequest;
}

const DEMO_THEME = 'sov_bjnv23qwe4d5vhicbpijhsjflu';

export const CAPABILITY_FACTS: Record<string, CapabilityFacts> = {
  'project.memory': { example: { input: { field: 'competitors' } } },
  'project.list': { example: { render: 'text' } },
  'briefs.list': { example: { input: { limit: 1 } } },
  'briefs.get': {
    notFound: '`n` is beyond the last item of the 5 newest briefs',
    example: { input: { n: 1 }, render: 'text' },
  },
  'pains.list': { example: { input: { type: 'pain', sort: 'posts', pageSize: 5 } } },
  'pains.get': {
    notFound: '`sovId` is not a theme of the selected project',
    example: { input: { sovId: DEMO_THEME } },
  },
  'pains.sources': {
    notFound: 'one of `sovIds` is not a theme of the selected project (the message names it)',
    example: { input: { sovIds: [DEMO_THEME] } },
  },
  'posts.get': {
    invalid: 'neither `permalink` nor `id` is given',
    notFound: 'no post of the selected project has this `id` or `permalink`',
    example: { input: { permalink: 'https://www.reddit.com/r/LocalLLaMA/comments/1mk26rk/llamacpp_now_supports_glm_45_air/' } },
  },
  'runs.get': {
    notFound: '`runId` is not a run of any of your projects',
    example: { input: { runId: 'run_zzfwzknnaarykwwmehe7ymytfq' } },
  },
  'competitors.list': { example: { project: 'evalkit', render: 'text' } },
  search: {
    invalid: '`query` holds no word (letters or digits)',
    example: { input: { query: 'context length slow', limit: 3 } },
  },
  fetch: {
    notFound: '`id` is not a `search` result id of the selected project',
    example: { input: { id: 'post:1mk26rk' } },
  },
  'memory.edit': {
    invalid: 'a malformed edit, or an edit that changes nothing (adding a name already present, removing one that is absent, setting a text to its current value); the message names the edit, e.g. `edits[0]: competitor "Foo" is not tracked`',
    limit: `an \`add_community\` would make more than ${LIMITS.communities} watched communities`,
    example: {
      input: {
        edits: [
          { op: 'add_competitor', name: 'Together AI', url: 'https://www.together.ai', description: 'Serverless and dedicated inference for open models.' },
          { op: 'add_filter_rule', rule: 'Ignore hardware buying advice without a model in mind.' },
        ],
      },
    },
  },
};

/** When each error code is given; the script fails when ERROR_CODES gains a code without one. */
const ERROR_WHEN: Record<ErrorCode, string> = {
  invalid:
    'missing `capability`; a body that is not a JSON object sent as `application/json`, or larger than the body limit; an unknown request field; `input` failing the capability\'s schema (unknown properties included); in memory.edit a malformed edit or one that changes nothing',
  forbidden: 'no `Authorization: Bearer` key, an unrecognized or revoked key, or a `project` that matches none of your projects',
  not_found:
    'unknown capability; a project-scoped capability called by an account with no project yet; the requested item does not exist (or is not yours); unknown route under `/api/`',
  limit: `a usage limit was hit: in memory.edit, an edit that would make more than ${LIMITS.communities} watched communities`,
  internal: 'a fault on the service side; the message is generic, the cause is only in the log under the request id',
};

/** What each limit bounds; the script fails when LIMITS gains a key without one. */
const LIMIT_DOCS: Record<keyof typeof LIMITS, string> = {
  name: 'memory.edit: a competitor, offering or community name (characters)',
  text: 'memory.edit: a product or ideal-customer text, or a description (characters)',
  rule: 'memory.edit: a filter rule (characters)',
  url: 'memory.edit: a competitor URL, http or https (characters); also the `project` request field',
  communities: 'watched communities per project (memory.edit `add_community` beyond it: `limit`)',
  editsPerCall: 'memory.edit: most edits in one call (at least 1)',
  briefsListMax: 'briefs.list: largest `limit`',
  briefsListDefault: 'briefs.list: `limit` when omitted',
  numberedBriefs: 'briefs: how many of the newest briefs share one item numbering',
  pageSizeMax: 'pains.list: largest `pageSize`',
  pageMax: 'pains.list: largest `page`',
  pageSizeDefault: 'pains.list: `pageSize` when omitted',
  sovIdsMax: 'pains.sources: most `sovIds` in one call (at least 1)',
  competitorSources: 'competitors.list: most `sources` per competitor (newest first)',
  competitorsListMax: 'competitors.list: largest `limit`',
  competitorsListDefault: 'competitors.list: `limit` when omitted',
  threadCommentsMax: 'pains.sources: largest `commentsPerThread`',
  threadCommentsDefault: 'pains.sources: `commentsPerThread` when omitted (the newest comments of each thread)',
  idLength: 'any id in input (`sovId`, `runId`, post `id`) (characters)',
  searchQuery: 'search: `query` (characters)',
  searchResultsMax: 'search: largest `limit`',
  searchResultsDefault: 'search: `limit` when omitted',
  documentId: 'fetch: `id` (characters)',
  permalinkLength: 'posts.get: `permalink` (characters)',
  bodyBytes: 'request body of /api/v1/invoke (bytes)',
  bearerToken: 'the `Authorization: Bearer` credential: an API key or an OAuth access token (characters)',
  postText: 'bundle import: a post or comment body (characters)',
  quote: 'bundle import: a signal quote (characters)',
};

// -----------------------------------------------------------------------------------------------
// Rendering
// -----------------------------------------------------------------------------------------------

type JsonSchema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
};

/** Checks that CAPABILITY_FACTS covers the capabilities exactly; returns the problems found. */
export function factsProblems(caps: readonly Pick<Capability, 'name'>[], facts: Record<string, CapabilityFacts>): string[] {
  const names = new Set(caps.map((c) => c.name));
  const problems: string[] = [];
  for (const c of caps) if (!facts[c.name]) problems.push(`capability "${c.name}" has no entry in CAPABILITY_FACTS (scripts/gen-api-docs.ts)`);
  for (const name of Object.keys(facts)) if (!names.has(name)) problems.push(`CAPABILITY_FACTS has an entry for "${name}", which is not in the registry`);
  return problems;
}

/** The JSON body of the example request of a capability, compact, as sent with curl -d. */
export function exampleBody(name: string, example: ExampleRequest): string {
  return JSON.stringify({ capability: name, ...example });
}

export function renderApiDocs(caps: readonly Capability[] = registryCapabilities, facts: Record<string, CapabilityFacts> = CAPABILITY_FACTS): string {
  const problems = factsProblems(caps, facts);
  for (const code of ERROR_CODES) if (!ERROR_WHEN[code]) problems.push(`error code "${code}" has no entry in ERROR_WHEN`);
  for (const key of Object.keys(LIMITS)) if (!(key in LIMIT_DOCS)) problems.push(`LIMITS.${key} has no entry in LIMIT_DOCS`);
  for (const c of caps) {
    const example = facts[c.name]?.example;
    if (example && !c.input.safeParse(example.input ?? {}).success) problems.push(`the example input of "${c.name}" fails its own schema`);
  }
  if (problems.length > 0) throw new Error(`gen-api-docs:\n  ${problems.join('\n  ')}`);

  const described = new Map(discovery.capabilities.map((d) => [d.name, d]));
  const out: string[] = [];
  out.push(intro(caps, described));
  for (const c of caps) out.push(capabilitySection(c, facts[c.name]!, described.get(c.name)));
  return `${out.join('\n').trimEnd()}\n`;
}

type Described = (typeof discovery.capabilities)[number];

function intro(caps: readonly Capability[], described: Map<string, Described>): string {
  const rows = caps.map((c) => {
    const d = described.get(c.name);
    return row([
      `[\`${c.name}\`](#${anchor(c)})`,
      c.title,
      c.kind,
      c.scope,
      c.text ? 'yes' : 'no',
      String(d?.agentInvokable ?? c.kind === 'read'),
    ]);
  });
  const errorRows = ERROR_CODES.map((code) => row([`\`${code}\``, String(statusOf(code)), ERROR_WHEN[code]]));
  const limitRows = (Object.keys(LIMITS) as (keyof typeof LIMITS)[]).map((key) =>
    row([`\`${key}\``, LIMITS[key].toLocaleString('en-US'), LIMIT_DOCS[key]]),
  );
  const projectScoped = caps.filter((c) => c.scope === 'project').map((c) => `\`${c.name}\``);
  const userScoped = caps.filter((c) => c.scope === 'user').map((c) => `\`${c.name}\``);
  const withText = caps.filter((c) => c.text).map((c) => `\`${c.name}\``);

  return `# Project Signals Service: HTTP API reference

<!-- Generated by scripts/gen-api-docs.ts from src/capabilities/registry.ts. Do not edit by hand:
     run \`node --import tsx scripts/gen-api-docs.ts\` (test/docs/docs.test.ts fails when stale). -->

The service holds, per project, market signals derived from community posts: daily briefs of
numbered signal items, pain themes, competitors, source posts with their full threads, digest runs
and a project memory. Callers read (and edit the memory) through **one invoke endpoint** by naming
a capability; a **discovery endpoint** lists every capability with its JSON Schema. Adding a
capability never changes the shape of the invoke request.

- Base URL: wherever the service runs (\`PUBLIC_URL\`; \`${EXAMPLE_BASE_URL}\` by default). The
  examples below use it and an API key in \`$KEY\` (\`npx signals demo\` prints one), and they work
  against the demo data.
- Version: part of the path, \`/api/v1/\`.
- Contents: [Authentication](#authentication) ·
  [POST /api/v1/invoke](#post-apiv1invoke) · [GET /api/v1/capabilities](#get-apiv1capabilities) ·
  [Errors](#errors) · [Limits](#limits) · [Identifiers and timestamps](#identifiers-and-timestamps) ·
  [Capabilities](#capabilities)

## Capabilities at a glance

| capability | title | kind | scope | \`render: "text"\` | agentInvokable |
|---|---|---|---|---|---|
${rows.join('\n')}

## Authentication

Every request to \`/api/v1/\` carries an API key:

\`\`\`
Authorization: Bearer sgk_…
\`\`\`

- A key is \`sgk_\` followed by 32 lowercase base32 characters (130 random bits and a checksum). It is
  shown once when created (\`signals key create\`, \`signals demo\`); the service stores only its
  SHA-256 hash.
- A key may be **tied to one project** when created: that project is then always used and the
  \`project\` request field is ignored. An untied key reads any of its account's projects.
- A missing key, a malformed, unrecognized or revoked key, and a \`project\` that is not one of
  yours all give **403 \`forbidden\`** (the same answer, so nothing leaks about other accounts).
  Revoking a key (\`signals key revoke ID\`) takes effect on the next request.

## POST /api/v1/invoke

Runs one capability. Headers: \`Authorization: Bearer <key>\`, \`Content-Type: application/json\`.
The body is a JSON object of at most ${LIMITS.bodyBytes.toLocaleString('en-US')} bytes (1 MiB):

| field | type | required | rule |
|---|---|---|---|
| \`capability\` | string | yes | a capability name, e.g. \`briefs.list\` (see [Capabilities](#capabilities)) |
| \`input\` | object | no | the capability's input; defaults to \`{}\`; checked against the capability's schema, unknown properties refused |
| \`project\` | string | no | part of one of your projects' URLs, selecting that project (see below); ignored by user-scoped capabilities and by tied keys |
| \`render\` | \`"text"\` | no | also return a plain-text rendering, for capabilities that have one; ignored by the others |

Any other field in the body is \`invalid\`.

**Response** (200): \`{ "data": <the capability's output> }\`. With \`"render": "text"\` and a
capability that has a text form (${withText.join(', ')}), also \`"text"\`: plain text, one bullet
line (\`- …\`) per item, lines joined by \`\\n\`, no Markdown tables. Capabilities without a text
form ignore \`render\` and answer \`{ "data": … }\` only.

### Project selection

- **Project-scoped** capabilities (${projectScoped.join(', ')}) read one project of the caller.
- **User-scoped** capabilities (${userScoped.join(', ')}) span the caller's whole account and
  ignore \`project\`.
- A key tied to a project always uses that project; \`project\` is ignored.
- Otherwise a \`project\` that is exactly one of the caller's project ids (\`prj_…\`) selects that
  project. Any other value matches, case-insensitively, as a substring of the URLs of the caller's
  projects. Several matches: the most recently created of them. No match: \`forbidden\` (the same
  answer as someone else's project, whose id is no match either). \`signals\` commands that take
  \`--project\` select the same way, so one value names one project everywhere.
- Within one account a project URL is unique, compared without scheme case, \`www.\`, trailing
  slash, query or fragment: creating a second project with the same URL (dashboard, \`signals
  project create\`, \`signals import\`) is refused as \`invalid\`, so that no project hides another.
  Another path (\`https://acme.com/docs\`) or another subdomain is another URL.
- Without \`project\`: the caller's most recently created project.
- A caller with no project at all gets \`not_found\` ("No project yet") from project-scoped
  capabilities.
- Write capabilities (memory.edit) use the same endpoint and the same ownership check as reads.

\`\`\`sh
curl -s ${EXAMPLE_BASE_URL}/api/v1/invoke \\
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\
  -d '{"capability":"pains.list","input":{"type":"competitor"},"project":"evalkit"}'
\`\`\`

## GET /api/v1/capabilities

Lists every capability, reads and writes, in registry order (the order of this document):

\`\`\`
{ "capabilities": [ { "name", "kind", "scope", "agentInvokable", "description", "inputSchema" } ] }
\`\`\`

\`kind\` is \`read\` or \`write\`; \`scope\` is \`project\` or \`user\`; \`agentInvokable\` is true for reads
and false for writes (an agent should not change a project's memory on its own). \`inputSchema\`
is JSON Schema 2020-12, \`type: object\`, with \`required\`, \`enum\`, \`minimum\`/\`maximum\`,
\`default\`, \`additionalProperties: false\` and a description per property. The same key rules
apply.

\`\`\`sh
curl -s ${EXAMPLE_BASE_URL}/api/v1/capabilities -H "Authorization: Bearer $KEY"
\`\`\`

## Errors

Every error uses one envelope with the matching HTTP status:

\`\`\`json
{ "error": { "code": "not_found", "message": "no theme \\"sov_x\\" in this project" } }
\`\`\`

The set of codes is closed:

| code | HTTP status | when |
|---|---|---|
${errorRows.join('\n')}

Messages are for people and may change; program against \`code\`. Validation messages name the
offending place, e.g. \`input.pageSize: …\`, \`input: unknown property "foo"\`, \`edits[2]: …\`.
Unknown routes under \`/api/\` answer 404 \`not_found\` in the same envelope (after the key check
under \`/api/v1/\`).

Every response carries a \`Request-Id\` header, also written on the request's log line. A request
may send its own \`Request-Id\` (8 to 64 characters of \`A-Z a-z 0-9 . _ : -\`), which is then kept;
otherwise the service makes one (\`req_…\`).

## Limits

| limit | value | applies to |
|---|---|---|
${limitRows.join('\n')}

Rate limits and spend limits: none are enforced by this version.

## Identifiers and timestamps

- Identifiers are opaque strings. Those the service generates carry a type prefix and 128 random
  bits: \`prj_\` (project), \`sov_\` (theme), \`sig_\` (signal), \`run_\` (digest run), \`brf_\`
  (brief), \`key_\` (API key id). Post ids are the source's own (for Reddit, e.g. \`1abcde\`).
- Timestamps are ISO 8601 UTC strings with milliseconds: \`YYYY-MM-DDTHH:MM:SS.mmmZ\`.
- \`memoryStatus\` is one of \`pending\`, \`building\`, \`ready\`, \`failed\`; a digest run's \`status\`
  is one of \`queued\`, \`running\`, \`complete\`, \`failed\`. Both only move forward.

## Capabilities

Each section below is generated from the capability's definition. Input tables list the
properties of \`input\`; the output schema is what \`data\` holds.
`;
}

function capabilitySection(c: Capability, facts: CapabilityFacts, d: Described | undefined): string {
  const input = (d?.inputSchema ?? inputJsonSchema(c)) as JsonSchema;
  const output = outputJsonSchema(c) as JsonSchema;
  const lines: string[] = [];
  lines.push(`### ${c.name}`, '');
  lines.push(`**${c.title}.** ${d?.description ?? c.description}`, '');
  lines.push(
    `| kind | scope | agentInvokable | \`render: "text"\` |`,
    '|---|---|---|---|',
    row([c.kind, c.scope, String(d?.agentInvokable ?? c.kind === 'read'), c.text ? 'yes' : 'no (ignored)']),
    '',
  );

  lines.push('**Input**', '');
  lines.push(...inputTable(input));

  lines.push('**Errors**', '');
  lines.push(...errorList(c, facts));

  lines.push('**Example**', '');
  lines.push(
    '```sh',
    `curl -s ${EXAMPLE_BASE_URL}/api/v1/invoke \\`,
    `  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\`,
    `  -d '${exampleBody(c.name, facts.example)}'`,
    '```',
    '',
  );

  lines.push(
    '<details><summary>Output JSON Schema (<code>data</code>)</summary>',
    '',
    '```json',
    JSON.stringify(output, null, 2),
    '```',
    '',
    '</details>',
    '',
  );
  return lines.join('\n');
}

function inputTable(schema: JsonSchema): string[] {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) return ['None: send `{}` or leave `input` out. Unknown properties are `invalid`.', ''];
  const required = new Set(schema.required ?? []);
  const lines = ['| property | type | required | default | bounds | description |', '|---|---|---|---|---|---|'];
  const variants: string[] = [];
  for (const [name, prop] of properties) {
    lines.push(
      row([
        `\`${name}\``,
        typeName(prop),
        required.has(name) ? 'yes' : 'no',
        prop.default === undefined ? '' : `\`${JSON.stringify(prop.default)}\``,
        bounds(prop).join('; '),
        prop.description ?? '',
      ]),
    );
    const union = prop.type === 'array' ? prop.items?.oneOf : undefined;
    if (union) variants.push(...variantTable(`${name}[]`, union));
  }
  lines.push('', 'Unknown properties are `invalid`.', '', ...variants);
  return lines;
}

/** A table for an array of tagged objects (memory.edit's edits): one row per tag value. */
function variantTable(where: string, union: JsonSchema[]): string[] {
  const tag = Object.keys(union[0]?.properties ?? {}).find((key) => union.every((v) => v.properties?.[key]?.const !== undefined));
  if (!tag) return [];
  const lines = [`Each element of \`${where}\` is an object selected by \`${tag}\`:`, '', `| \`${tag}\` | effect | fields (all required) |`, '|---|---|---|'];
  for (const variant of union) {
    const tagSchema = variant.properties![tag]!;
    const fields = Object.entries(variant.properties ?? {})
      .filter(([key]) => key !== tag)
      .map(([key, prop]) => `\`${key}\` (${[typeName(prop), ...bounds(prop)].join(', ')})`);
    lines.push(row([`\`${String(tagSchema.const)}\``, tagSchema.description ?? '', fields.join('; ')]));
  }
  lines.push('');
  return lines;
}

function typeName(schema: JsonSchema): string {
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  const union = schema.oneOf ?? schema.anyOf;
  if (union) return union.map(typeName).join(' or ');
  if (schema.type === 'array') {
    const items = schema.items;
    if (!items) return 'array';
    if (items.oneOf) return 'array of objects';
    return `array of ${typeName(items)}`;
  }
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  return schema.type ?? 'any';
}

const SAFE = Number.MAX_SAFE_INTEGER;

function bounds(schema: JsonSchema): string[] {
  const parts: string[] = [];
  if (schema.enum) parts.push(`one of ${schema.enum.map((v) => `\`${String(v)}\``).join(', ')}`);
  const min = typeof schema.minimum === 'number' && schema.minimum > -SAFE ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' && schema.maximum < SAFE ? schema.maximum : undefined;
  if (min !== undefined && max !== undefined) parts.push(`${min} to ${max.toLocaleString('en-US')}`);
  else if (min !== undefined) parts.push(`≥ ${min}`);
  else if (max !== undefined) parts.push(`≤ ${max.toLocaleString('en-US')}`);
  parts.push(...range(schema.minLength, schema.maxLength, 'characters'));
  parts.push(...range(schema.minItems, schema.maxItems, 'items'));
  if (typeof schema.pattern === 'string') parts.push(`pattern \`${schema.pattern}\``);
  if (schema.type === 'array' && schema.items && !schema.items.oneOf) {
    const each = bounds(schema.items);
    if (each.length > 0) parts.push(`each ${each.join(', ')}`);
  }
  return parts;
}

function range(min: unknown, max: unknown, unit: string): string[] {
  const lo = typeof min === 'number' ? min : undefined;
  const hi = typeof max === 'number' ? max : undefined;
  if (lo !== undefined && hi !== undefined) return [`${lo} to ${hi.toLocaleString('en-US')} ${unit}`];
  if (lo !== undefined) return [`at least ${lo} ${unit}`];
  if (hi !== undefined) return [`at most ${hi.toLocaleString('en-US')} ${unit}`];
  return [];
}

function errorList(c: Capability, facts: CapabilityFacts): string[] {
  const status = (code: ErrorCode) => `\`${code}\` (${statusOf(code)})`;
  const lines = [
    `- ${status('invalid')}: malformed body or input failing the schema${facts.invalid ? `; ${facts.invalid}` : ''}.`,
    c.scope === 'project'
      ? `- ${status('forbidden')}: missing, unrecognized or revoked key; \`project\` matches none of your projects; the project a tied key names is gone.`
      : `- ${status('forbidden')}: missing, unrecognized or revoked key (\`project\` is ignored).`,
  ];
  const missing = [c.scope === 'project' ? 'the account has no project yet' : undefined, facts.notFound].filter((s): s is string => Boolean(s));
  if (missing.length > 0) lines.push(`- ${status('not_found')}: ${missing.join('; ')}.`);
  if (facts.limit) lines.push(`- ${status('limit')}: ${facts.limit}.`);
  lines.push('');
  return lines;
}

/** GitHub's heading anchor for `### name`: lower-case, dots dropped. */
function anchor(c: Capability): string {
  return c.name.toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-');
}

function row(cells: string[]): string {
  return `| ${cells.map(cell).join(' | ')} |`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

// -----------------------------------------------------------------------------------------------
// Command line
// -----------------------------------------------------------------------------------------------

function main(argv: string[]): number {
  const check = argv.includes('--check');
  const unknown = argv.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    process.stderr.write(`gen-api-docs: unknown argument ${unknown.join(' ')}\nUsage: node --import tsx scripts/gen-api-docs.ts [--check]\n`);
    return 2;
  }
  const rendered = renderApiDocs();
  let current: string | undefined;
  try {
    current = readFileSync(API_DOCS_PATH, 'utf8');
  } catch {
    current = undefined;
  }
  if (check) {
    if (current === rendered) return 0;
    process.stderr.write('docs/api.md is out of date: run `node --import tsx scripts/gen-api-docs.ts` and commit the result.\n');
    return 1;
  }
  if (current !== rendered) writeFileSync(API_DOCS_PATH, rendered);
  process.stdout.write(`${current === rendered ? 'docs/api.md is up to date' : 'wrote docs/api.md'}\n`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
