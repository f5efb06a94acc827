/**
 * The `signals` command (DESIGN §3). Every command reads DATABASE_URL; `--json` prints exactly one
 * JSON object on stdout. Exit 0 on success, 1 on a user error (one line on stderr, nothing
 * written), 2 on bad usage.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createApiKey, listKeysForCli, revokeApiKey } from '../auth/api-keys.ts';
import { createUser, findUserByEmail, setPassword } from '../auth/users.ts';
import { ConfigError, loadConfig, parsePort } from '../config.ts';
import { newId } from '../domain/ids.ts';
import { LIMITS } from '../domain/limits.ts';
import { givenFields, newProjectMemory } from '../domain/resources.ts';
import { ServiceError } from '../domain/errors.ts';
import { BundleError, parseBundle } from '../ingest/bundle.ts';
import { exportBundle } from '../ingest/export.ts';
import { importBundle } from '../ingest/import.ts';
import { openStore, type Store } from '../store/db.ts';
import { migrate } from '../store/migrate.ts';
import { authSecret } from '../store/settings.ts';
import { createProject, ownersOfProjectsLike, selectProject } from '../store/projects.ts';
import { requestMemoryRefresh } from '../store/memory-builds.ts';
import { UsageError, UserError } from './errors.ts';

const USAGE = `Usage: signals <command> [options]  (add --json for one JSON object on stdout)

  serve [--port N]                         run the HTTP service
  migrate                                  apply database migrations
  user create --email E [--password P]     create an account
  project create --owner E --name N --url U [--category C]
  project refresh P                        rebuild project P's memory from its site now (P: id or URL)
  key create --owner E [--project P] [--name N]   P: project id or URL; the key is shown once
  key revoke ID                            revoke a key at once
  key list [--owner E]                     list keys: id, name, project, last four characters, last use
  user password --email E [--password P]   set an account's password (read from stdin when not given)
  import FILE                              import a bundle (FILE "-" reads stdin); all or nothing
  export [--project P]                     print a bundle that import reads back
  demo                                     create demo account, projects and data; print a key
  digest run --project P [--since 24h|DATE] [--until DATE] [--source file:DIR]
                                           collect (live from the watched communities, or from a
                                           file: dump), analyze and brief one window

Environment: DATABASE_URL (default sqlite:./data/signals.db), PORT, HOST, PUBLIC_URL, LOG_LEVEL,
DIGEST_SOURCE, DIGEST_HOUR_UTC (see docs/pipeline.md), FETCH_ALLOW_HOSTS (see docs/memory.md),
REDDIT_CLIENT_ID/SECRET, GITHUB_TOKEN, STACKEXCHANGE_KEY and the sources' base URLs (see docs/sources.md).`;

interface Out {
  json: boolean;
  print(data: unknown, human: string): void;
}

type Options = Record<string, string | boolean | undefined>;

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        port: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        owner: { type: 'string' },
        name: { type: 'string' },
        url: { type: 'string' },
        category: { type: 'string' },
        project: { type: 'string' },
        since: { type: 'string' },
        until: { type: 'string' },
        source: { type: 'string' },
      },
    });
  } catch (err) {
    process.stderr.write(`signals: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const out: Out = {
    json: values.json === true,
    print(data, human) {
      process.stdout.write(`${this.json ? JSON.stringify(data) : human}\n`);
    },
  };
  try {
    await dispatch(positionals, values, out);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`signals: ${err.message}\n${USAGE}\n`);
      return 2;
    }
    if (err instanceof UserError || err instanceof BundleError || err instanceof ServiceError || err instanceof ConfigError) {
      process.stderr.write(`signals: ${err.message}\n`);
      return 1;
    }
    const database = databaseProblem(err);
    if (database !== undefined) {
      process.stderr.write(`signals: ${database}\n`);
      return 1;
    }
    // better-auth reports refused sign-ups (duplicate email, short password) as APIError.
    if (err instanceof Error && err.name === 'APIError') {
      process.stderr.write(`signals: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

async function dispatch(positionals: string[], values: Options, out: Out): Promise<void> {
  const [command, sub, ...rest] = positionals;
  const wants = (name: string, args: number) => {
    if (positionals.length !== args) throw new UsageError(`"${name}" takes ${args - 1} argument(s)`);
  };
  // The server, the digest pipeline (its analyzer loads wink-nlp, compromise and the word
  // vectors), the demo and the memory builder are imported by the commands that use them: loaded
  // up front they made every command, `key list` included, take seconds longer to start.
  // (better-auth too is loaded only where needed: by migrate() on a database not yet migrated.)
  switch (`${command} ${sub ?? ''}`.trim()) {
    case 'serve': {
      wants('serve', 1);
      const config = loadConfig(process.env, values.port !== undefined ? { port: parsePort(String(values.port)) } : {});
      const { runServer, StartError } = await import('../http/server.ts');
      try {
        return await runServer(config);
      } catch (err) {
        if (err instanceof StartError) throw new UserError(err.message);
        throw err;
      }
    }
    case 'migrate':
      wants('migrate', 1);
      // No migration before the work here: it would leave nothing for the command to report.
      return withStore(async (store) => {
        const applied = await migrate(store);
        out.print({ applied }, applied.length === 0 ? 'Database is up to date.' : `Applied: ${applied.join(', ')}`);
      }, { migrate: false });
    case 'user create':
      wants('user create', 2);
      return withStore(async (store) => {
        const email = parseWith(z.string().trim().email(), required(values, 'email'), '--email');
        if (await findUserByEmail(store, email)) throw new UserError(`an account with email ${email} already exists`);
        // Checked here as better-auth does, so the refusal is our one line (better-auth also logs it).
        const given = optional(values, 'password');
        const password = given === undefined ? undefined : parseWith(z.string().min(8, 'must be at least 8 characters').max(256, 'must be at most 256 characters'), given, '--password');
        const user = await createUser(await authFor(store), email, password);
        out.print({ id: user.id, email: user.email }, `Created account ${user.email} (${user.id}).`);
      });
    case 'project create':
      wants('project create', 2);
      return withStore(async (store) => {
        const owner = await ownerOf(store, required(values, 'owner'));
        const name = parseWith(z.string().trim().min(1).max(LIMITS.name), required(values, 'name'), '--name');
        const url = parseWith(z.string().trim().max(LIMITS.url).regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL'), required(values, 'url'), '--url');
        const category = parseWith(z.string().trim().max(LIMITS.name), optional(values, 'category') ?? '', '--category');
        const id = newId('prj');
        const now = new Date().toISOString();
        await createProject(store.db, {
          id,
          ownerId: owner.id,
          createdAt: now,
          memory: newProjectMemory({ id, name, url, category }),
          editedFields: givenFields({ category }),
        });
        out.print({ id, name, url }, `Created project ${name} (${id}). Its memory is built from ${url} by signals serve, or now by: signals project refresh ${id}`);
      });
    case 'project refresh':
      wants('project refresh', 3);
      return withStore(async (store) => {
        const id = await projectOfAnyOwner(store, rest[0]!);
        const config = loadConfig();
        await requestMemoryRefresh(store.db, id, new Date().toISOString());
        const [{ buildMemory }, { summarizerFromEnv }, { LlmConfigError }] = await Promise.all([
          import('../ingest/memory/build.ts'),
          import('../ingest/memory/summary.ts'),
          import('../ingest/analyze/llm.ts'),
        ]);
        let summarize;
        try {
          summarize = summarizerFromEnv(process.env);
        } catch (err) {
          if (err instanceof LlmConfigError) throw new UserError(err.message);
          throw err;
        }
        const result = await buildMemory(store, id, { fetch: { allowHosts: config.fetchAllowHosts }, ...(summarize ? { summarize } : {}) });
        if (!result) throw new UserError(`no project "${rest[0]}"`);
        const human =
          result.memoryStatus === 'ready'
            ? `Memory of ${id} rebuilt from its site (ready).`
            : result.memoryStatus === 'failed'
              ? `Memory of ${id} could not be built: ${result.error}`
              : `Memory of ${id} is ${result.memoryStatus}: ${result.error ?? ''}`.trimEnd();
        out.print({ id, memoryStatus: result.memoryStatus, ...(result.error ? { error: result.error } : {}) }, human);
      });
    case 'key create':
      wants('key create', 2);
      return withStore(async (store) => {
        const owner = await ownerOf(store, required(values, 'owner'));
        const projectRef = optional(values, 'project');
        const projectId = projectRef === undefined ? null : await projectOf(store, owner.id, projectRef);
        const name = parseWith(z.string().trim().min(1).max(LIMITS.name), optional(values, 'name') ?? 'cli', '--name');
        const created = await createApiKey(store.db, { userId: owner.id, projectId, name });
        out.print(created, `API key ${created.id}${projectId ? ` for project ${projectId}` : ''} (shown once):\n${created.key}`);
      });
    case 'key list':
      wants('key list', 2);
      return withStore(async (store) => {
        const ownerRef = optional(values, 'owner');
        const owner = ownerRef === undefined ? undefined : await ownerOf(store, ownerRef);
        const keys = await listKeysForCli(store.db, owner?.id);
        const human = keys.length === 0 ? 'No API keys.' : keys.map((k) => `${k.id}  …${k.last4}  ${k.name}  ${k.projectId ?? '(any project)'}  last used ${k.lastUsedAt ?? 'never'}${k.revokedAt ? `  REVOKED ${k.revokedAt}` : ''}`).join('\n');
        out.print({ keys }, human);
      });
    case 'user password':
      wants('user password', 2);
      return withStore(async (store) => {
        const user = await ownerOf(store, required(values, 'email'));
        const given = optional(values, 'password') ?? (await readStdin()).replace(/\r?\n$/, '');
        const password = parseWith(z.string().min(8, 'must be at least 8 characters').max(256, 'must be at most 256 characters'), given, optional(values, 'password') === undefined ? 'the password on stdin' : '--password');
        await setPassword(await authFor(store), user.id, password);
        out.print({ id: user.id, email: user.email }, `Password of ${user.email} set; its browser sessions are signed out.`);
      });
    case 'key revoke':
      if (positionals.length === 2) throw new UsageError('"key revoke" needs the key id (signals key list shows them)');
      wants('key revoke', 3);
      return withStore(async (store) => {
        const revoked = await revokeApiKey(store.db, rest[0] ?? '');
        if (!revoked) throw new UserError(`no key with id "${rest[0]}"`);
        out.print(revoked, `Revoked key ${revoked.id} at ${revoked.revokedAt}.`);
      });
    case 'import':
      throw new UsageError('"import" needs FILE: the bundle to read, or - for stdin');
    case 'digest':
      throw new UsageError('"digest" needs a subcommand: did you mean "digest run --project P"?');
    case `import ${sub}`:
      if (positionals.length !== 2 || sub === undefined) throw new UsageError('"import" takes one FILE (or - for stdin)');
      return withStore(async (store) => {
        const bundle = parseBundle(await readJson(sub));
        const counts = await importBundle(store, bundle);
        out.print(counts, `Imported ${describeCounts(counts)}.`);
      });
    case 'export':
      wants('export', 1);
      return withStore(async (store) => {
        const ref = optional(values, 'project');
        const ids = ref === undefined ? undefined : [await projectOfAnyOwner(store, ref)];
        process.stdout.write(`${JSON.stringify(await exportBundle(store.db, ids))}\n`);
      });
    case 'demo':
      wants('demo', 1);
      return withStore(async (store) => {
        const result = await createDemo(store);
        out.print(result, `Demo account ${result.email}, projects ${result.projects.join(', ')}.\nAPI key (shown once): ${result.key}`);
      });
    case 'digest run': {
      wants('digest run', 2);
      if (typeof values.project !== 'string') throw new UsageError('"digest run" needs --project P (a project id or URL)');
      const project = values.project;
      const { digestRun } = await import('./digest.ts');
      return withStore(async (store) => {
        const { summary, human } = await digestRun(store, {
          projectId: await projectOfAnyOwner(store, project),
          since: values.since as string | undefined,
          until: values.until as string | undefined,
          source: values.source as string | undefined,
          json: out.json,
        });
        out.print(summary, human);
      });
    }
    default:
      if (command === 'digest') throw new UsageError(`unknown command "${positionals.join(' ')}": did you mean "digest run --project P"?`);
      throw new UsageError(`unknown command "${positionals.join(' ')}"`);
  }
}

export const DEMO_EMAIL = 'demo@example.com';

/** Idempotent: the account and data are created once (later runs add nothing); each run mints a key. */
async function createDemo(store: Store) {
  const auth = await authFor(store);
  if (!(await findUserByEmail(store, DEMO_EMAIL))) await createUser(auth, DEMO_EMAIL, 'demo-password');
  const user = (await findUserByEmail(store, DEMO_EMAIL))!;
  const { loadDemo } = await import('../ingest/demo.ts');
  const { projects } = await loadDemo(store, user.id);
  const key = await createApiKey(store.db, { userId: user.id, projectId: null, name: 'demo' });
  return { email: DEMO_EMAIL, key: key.key, projects };
}

async function withStore(work: (store: Store) => Promise<void>, options: { migrate?: boolean } = {}): Promise<void> {
  const store = openStore(loadConfig().databaseUrl);
  try {
    if (options.migrate !== false) await migrate(store);
    await work(store);
  } finally {
    await store.close();
  }
}

async function authFor(store: Store) {
  const { openAuth } = await import('../auth/better-auth.ts');
  return openAuth(store, { secret: await authSecret(store), publicUrl: loadConfig().publicUrl });
}

async function ownerOf(store: Store, email: string) {
  const user = await findUserByEmail(store, email);
  if (!user) throw new UserError(`no account with email ${email} (create it with: signals user create --email ${email})`);
  return user;
}

/** A project of this owner, picked as the API picks it (DESIGN §4): its id, or a part of its URL. */
async function projectOf(store: Store, ownerId: string, ref: string): Promise<string> {
  const found = await selectProject(store.db, ownerId, ref);
  if (!found) throw new UserError(`the account has no project "${ref}" (give a project id or a part of its URL)`);
  return found.memory.id;
}

/**
 * A project of any account, for the operator's commands that name no owner: an exact id; else,
 * when the projects whose URL contains `ref` all belong to one account, the one the API would
 * pick for that account. Matches in several accounts are ambiguous: the id decides.
 */
async function projectOfAnyOwner(store: Store, ref: string): Promise<string> {
  const byId = await store.db.selectFrom('projects').select('id').where('id', '=', ref).executeTakeFirst();
  if (byId) return byId.id;
  const owners = await ownersOfProjectsLike(store.db, ref);
  if (owners.length === 0) throw new UserError(`no project "${ref}" (give a project id or a part of its URL)`);
  if (owners.length > 1) throw new UserError(`"${ref}" matches projects of ${owners.length} accounts: give the project id (signals export lists them)`);
  return projectOf(store, owners[0]!, ref);
}

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
  } catch (err) {
    throw new UserError(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(`${file === '-' ? 'stdin' : file} is not valid JSON: ${(err as Error).message}`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function required(values: Options, name: string): string {
  const value = values[name];
  if (typeof value !== 'string') throw new UsageError(`--${name} is required`);
  return value;
}

function optional(values: Options, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

function parseWith<T>(schema: z.ZodType<T>, value: string, flag: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new UserError(`${flag}: ${result.error.issues[0]?.message ?? 'invalid value'}`);
  return result.data;
}

/** `1 project, 12 posts`: the counts' keys are plural nouns; one of a thing is singular. */
function describeCounts(c: object): string {
  return Object.entries(c)
    .map(([k, v]) => `${v} ${v === 1 ? k.replace(/s$/, '') : k}`)
    .join(', ');
}

/**
 * A database that cannot be opened, as the one line a person can act on; undefined for any
 * other error. (pg and better-sqlite3 report these with codes, not classes.)
 */
function databaseProblem(err: unknown): string | undefined {
  const code = (err as { code?: unknown })?.code;
  const message = err instanceof Error ? err.message : String(err);
  const where = redactedDatabaseUrl();
  switch (code) {
    case '3D000':
      return `the database does not exist (${message}): create it, or fix DATABASE_URL (${where})`;
    case '28P01':
    case '28000':
      return `the database refused the credentials in DATABASE_URL (${where}): ${message}`;
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'ETIMEDOUT':
      return `cannot reach the database at ${where} (${code}): is PostgreSQL running there?`;
    case 'SQLITE_CANTOPEN':
      return `cannot open the SQLite database ${where}: ${message} (does its directory exist and can this user write there?)`;
    default:
      if (err instanceof TypeError && /directory does not exist/i.test(message)) return `cannot open the SQLite database ${where}: ${message}`;
      return undefined;
  }
}

/** DATABASE_URL without its password, for messages. */
function redactedDatabaseUrl(): string {
  const url = process.env.DATABASE_URL ?? 'sqlite:./data/signals.db';
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
