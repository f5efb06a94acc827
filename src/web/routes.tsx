/* The JSX runtime is named here, not only in tsconfig.json: `npx signals` run from another
   directory transpiles with tsx without finding our tsconfig, and would fall back to React. */
/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * The pages of DESIGN §7 that need no OAuth: /signup, /login, /logout, /dashboard. Server-rendered,
 * usable without JavaScript; every POST is same-origin- and CSRF-checked, then answered with a
 * redirect (post/redirect/get), except the key creation whose answer shows the new key once.
 *
 * Sign-up, sign-in and sign-out go through better-auth's server API with the request's headers
 * and `asResponse: true`, so its session cookie (HttpOnly, SameSite=Lax, Secure on https) is
 * forwarded as it made it.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { createApiKey, listApiKeys, revokeOwnApiKey, type ApiKeySummary } from '../auth/api-keys.ts';
import type { Auth } from '../auth/better-auth.ts';
import { listGrants, revokeGrant, type GrantSummary } from '../auth/oauth-grants.ts';
import { newId } from '../domain/ids.ts';
import { LIMITS } from '../domain/limits.ts';
import { givenFields, newProjectMemory, type ProjectSummary } from '../domain/resources.ts';
import type { Logger } from '../logger.ts';
import type { Store } from '../store/db.ts';
import { createProject, listProjectSummaries } from '../store/projects.ts';
import { ServiceError } from '../domain/errors.ts';
import type { DigestLauncher } from '../ingest/digest/launcher.ts';
import { setNewKeyFlash, takeNewKeyFlash } from './key-flash.ts';
import { projectRoutes } from './project/routes.tsx';
import { LandingPage } from './landing.tsx';
import { APP_CSS, COPY_JS } from './assets.ts';
import { consentRoutes } from './consent.tsx';
import { CsrfField, ErrorBox, Layout } from './layout.tsx';
import { nextLocation, oauthQueryField, oauthQueryOf, pendingAuthorization, type OAuthRequestView } from './oauth-flow.ts';
import { forwardCookies, refused, render, sessionHelpers, str, when, type SessionInfo } from './pages.tsx';
import { SignInThrottle } from './throttle.ts';
import { checkPreSessionToken, pageHeaders, preSessionToken, safeNext, sameOrigin, type WebEnv } from './security.ts';

export interface WebDeps {
  store: Store;
  logger: Logger;
  auth: Auth;
  publicUrl: string;
  /** Failed sign-ins per account (default: 10 per 15 minutes). */
  signInThrottle?: SignInThrottle;
  /** Starts "Run now" digests (inside `signals serve`). */
  launcher?: DigestLauncher;
  /** DIGEST_HOUR_UTC, shown where pages say when the daily digest runs (default 6). */
  digestHourUtc?: number;
}

const email = z.string().trim().toLowerCase().max(254).email();
const password = z.string().min(8).max(256);
// A memory field holds up to 4,000 characters: URL-encoded multi-byte text is up to 9 bytes each.
const FORM_BYTES = 64 * 1024;

export function webRoutes(deps: WebDeps): Hono {
  const { store, auth, publicUrl } = deps;
  const app = new Hono();
  const { session, signedInPost } = sessionHelpers(auth, publicUrl);
  const throttle = deps.signInThrottle ?? new SignInThrottle();
  const secret = auth.$context.then((ctx) => ctx.secret);

  app.get('/assets/app.css', (c) => c.body(APP_CSS, 200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=3600' }));
  app.get('/assets/copy.js', (c) => c.body(COPY_JS, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600' }));

  const pages = new Hono<WebEnv>();
  pages.use(pageHeaders());
  // Forms are small; a bigger body is refused before it is read.
  pages.use(bodyLimit({ maxSize: FORM_BYTES, onError: (c) => c.text('Form too large', 413) }));

  const oauthContext = (c: Context<WebEnv>, query: string | undefined) => pendingAuthorization(c, store.db, query);

  /**
   * Signs in or up through better-auth. With `oauth_query`, its after-hook continues the
   * authorization (to /consent, or straight back to the client when consent was given before);
   * that needs the request itself, not only its headers (its authorize step reads `ctx.request`).
   */
  async function continueAfterSession(c: Context, res: Response, fallback: string): Promise<Response> {
    forwardCookies(c, res);
    const next = (await nextLocation(res, publicUrl)) ?? fallback;
    return c.redirect(next, 303);
  }

  pages.get('/', async (c) => render(c, <LandingPage who={await session(c)} />));

  // --- sign-up -------------------------------------------------------------------------------
  pages.get('/signup', async (c) => {
    const oauth = await oauthContext(c, oauthQueryOf(c));
    if (!oauth && (await session(c))) return c.redirect('/dashboard', 303);
    return render(c, <SignupPage csrf={preSessionToken(c, publicUrl)} oauth={oauth} />);
  });

  pages.post('/signup', async (c) => {
    if (!sameOrigin(c, publicUrl)) return refused(c);
    const form = await c.req.parseBody();
    if (!checkPreSessionToken(c, publicUrl, form.csrf)) return refused(c);
    const oauthQuery = oauthQueryField(form.oauth_query);
    const oauth = await oauthContext(c, oauthQuery);
    const csrf = preSessionToken(c, publicUrl);
    const given = str(form.email);
    const again = (error: string) => render(c, <SignupPage csrf={csrf} email={given} error={error} oauth={oauth} />, 400);
    const parsedEmail = email.safeParse(given);
    if (!parsedEmail.success) return again('Enter a valid email address.');
    const pw = str(form.password);
    if (!password.safeParse(pw).success) return again('The password must be 8 to 256 characters long.');
    if (pw !== str(form.confirm)) return again('The two passwords do not match.');
    const res = await auth.api.signUpEmail({
      body: { email: parsedEmail.data, password: pw, name: parsedEmail.data.split('@')[0] ?? parsedEmail.data, ...(oauth ? { oauth_query: oauth.query } : {}) },
      headers: c.req.raw.headers,
      request: c.req.raw,
      asResponse: true,
    });
    if (!res.ok && !isRedirect(res)) {
      // The one refusal left after our checks is an email already in use. Saying so is the usual
      // sign-up trade-off (without email verification there is no way around it); sign-in itself
      // never tells which part was wrong.
      return again('An account with this email cannot be created. If it is yours, sign in instead.');
    }
    return continueAfterSession(c, res, '/dashboard');
  });

  // --- sign-in -------------------------------------------------------------------------------
  pages.get('/login', async (c) => {
    const next = safeNext(c.req.query('next'));
    const query = oauthQueryOf(c);
    // Opened by an OAuth client's authorization: the form is shown even to a signed-in user,
    // since better-auth sends one here only without a session or when the client asked for a
    // fresh sign-in (prompt=login).
    if (query !== undefined) {
      const oauth = await oauthContext(c, query);
      if (!oauth) return refused(c, 'This sign-in link has expired or is not valid. Start again from your application.');
      return render(c, <LoginPage csrf={preSessionToken(c, publicUrl)} next={next} oauth={oauth} />);
    }
    if (await session(c)) return c.redirect(next, 303);
    return render(c, <LoginPage csrf={preSessionToken(c, publicUrl)} next={next} />);
  });

  pages.post('/login', async (c) => {
    if (!sameOrigin(c, publicUrl)) return refused(c);
    const form = await c.req.parseBody();
    if (!checkPreSessionToken(c, publicUrl, form.csrf)) return refused(c);
    const next = safeNext(str(form.next));
    const oauth = await oauthContext(c, oauthQueryField(form.oauth_query));
    const given = str(form.email);
    const parsedEmail = email.safeParse(given);
    const pw = str(form.password);
    const account = parsedEmail.success ? parsedEmail.data : given.trim().toLowerCase();
    const wait = throttle.retryAfterMs(account);
    if (wait > 0) {
      const minutes = Math.ceil(wait / 60_000);
      c.header('Retry-After', String(Math.ceil(wait / 1000)));
      const error = `Too many failed sign-ins for this account. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
      return render(c, <LoginPage csrf={preSessionToken(c, publicUrl)} next={next} email={given} error={error} oauth={oauth} />, 429);
    }
    const res =
      parsedEmail.success && pw.length > 0 && pw.length <= 256
        ? await auth.api.signInEmail({
            body: { email: parsedEmail.data, password: pw, ...(oauth ? { oauth_query: oauth.query } : {}) },
            headers: c.req.raw.headers,
            request: c.req.raw,
            asResponse: true,
          })
        : undefined;
    if (!res || (!res.ok && !isRedirect(res))) {
      const csrf = preSessionToken(c, publicUrl);
      const expired = res?.status === 400 && oauth !== undefined;
      if (!expired) throttle.fail(account);
      const error = expired ? 'This sign-in request has expired. Start again from your application.' : 'Email or password is incorrect.';
      return render(c, <LoginPage csrf={csrf} next={next} email={given} error={error} oauth={oauth} />, expired ? 400 : 401);
    }
    throttle.succeed(account);
    return continueAfterSession(c, res, next);
  });

  // --- sign-out ------------------------------------------------------------------------------
  pages.get('/logout', async (c) => {
    const who = await session(c);
    if (!who) return c.redirect('/login', 303);
    return render(
      c,
      <Layout title="Sign out">
        <section>
          <p>Signed in as {who.email}.</p>
          <form method="post" action="/logout">
            <CsrfField token={who.csrf} />
            <button type="submit">Sign out</button>
          </form>
        </section>
      </Layout>,
    );
  });

  pages.post('/logout', async (c) => {
    const checked = await signedInPost(c);
    if (checked instanceof Response) return checked;
    const res = await auth.api.signOut({ headers: c.req.raw.headers, asResponse: true });
    forwardCookies(c, res);
    return c.redirect('/login', 303);
  });

  // --- dashboard -----------------------------------------------------------------------------
  async function dashboard(c: Context, who: SessionInfo, extra: DashboardExtra = {}, status: ContentfulStatusCode = 200) {
    const newKey = extra.newKey ?? takeNewKeyFlash(c, publicUrl, await secret, who.sessionId);
    if (newKey) extra = { ...extra, newKey };
    if (c.req.method === 'GET' && c.req.query('deleted') === '1') extra = { ...extra, deleted: true };
    const [projects, keys, apps] = await Promise.all([listProjectSummaries(store.db, who.userId), listApiKeys(store.db, who.userId), listGrants(store.db, who.userId)]);
    return render(c, <DashboardPage who={who} projects={projects} keys={keys} apps={apps} mcpUrl={`${publicUrl}/api/mcp`} {...extra} />, status);
  }

  pages.get('/dashboard', async (c) => {
    const who = await session(c);
    if (!who) return c.redirect('/login?next=/dashboard', 303);
    return dashboard(c, who);
  });

  const projectForm = z.object({
    name: z.string().trim().min(1, 'Give the project a name.').max(LIMITS.name, `The name must be at most ${LIMITS.name} characters.`),
    url: z.string().trim().max(LIMITS.url, `The URL must be at most ${LIMITS.url} characters.`).regex(/^https?:\/\/\S+$/i, 'The URL must start with http:// or https://.'),
    category: z.string().trim().max(LIMITS.name, `The category must be at most ${LIMITS.name} characters.`),
  });

  pages.post('/dashboard/projects', async (c) => {
    const checked = await signedInPost(c);
    if (checked instanceof Response) return checked;
    const { who, form } = checked;
    const parsed = projectForm.safeParse({ name: str(form.name), url: str(form.url), category: str(form.category) });
    if (!parsed.success) {
      return dashboard(c, who, { projectError: parsed.error.issues[0]?.message ?? 'Check the project fields.', projectDraft: { name: str(form.name), url: str(form.url), category: str(form.category) } }, 400);
    }
    // As `signals project create`: a blank memory, pending until `signals serve` builds it from the site.
    const id = newId('prj');
    try {
      await createProject(store.db, { id, ownerId: who.userId, createdAt: new Date().toISOString(), memory: newProjectMemory({ id, ...parsed.data }), editedFields: givenFields(parsed.data) });
    } catch (err) {
      if (!(err instanceof ServiceError) || err.code !== 'invalid') throw err;
      return dashboard(c, who, { projectError: err.message, projectDraft: { name: str(form.name), url: str(form.url), category: str(form.category) } }, 400);
    }
    // Straight to the new project: its page says what happens next.
    return c.redirect(`/projects/${encodeURIComponent(id)}`, 303);
  });

  const keyForm = z.object({
    name: z.string().trim().min(1, 'Give the key a name.').max(LIMITS.name, `The name must be at most ${LIMITS.name} characters.`),
    project: z.string().max(LIMITS.idLength),
  });

  pages.post('/dashboard/keys', async (c) => {
    const checked = await signedInPost(c);
    if (checked instanceof Response) return checked;
    const { who, form } = checked;
    const parsed = keyForm.safeParse({ name: str(form.name), project: str(form.project) });
    if (!parsed.success) return dashboard(c, who, { keyError: parsed.error.issues[0]?.message ?? 'Check the key fields.' }, 400);
    let projectId: string | null = null;
    if (parsed.data.project !== '') {
      const own = await store.db.selectFrom('projects').select('id').where('id', '=', parsed.data.project).where('owner_id', '=', who.userId).executeTakeFirst();
      if (!own) return dashboard(c, who, { keyError: 'Choose one of your projects, or all projects.' }, 400);
      projectId = own.id;
    }
    const created = await createApiKey(store.db, { userId: who.userId, projectId, name: parsed.data.name });
    // POST-redirect-GET: the key rides to the next page in a sealed, session-bound cookie, so a
    // reload shows the dashboard again instead of creating another key.
    setNewKeyFlash(c, publicUrl, await secret, who.sessionId, { key: created.key, name: parsed.data.name });
    return c.redirect('/dashboard#new-key-notice', 303);
  });

  pages.post('/dashboard/keys/:id/revoke', async (c) => {
    const checked = await signedInPost(c);
    if (checked instanceof Response) return checked;
    const revoked = await revokeOwnApiKey(store.db, checked.who.userId, c.req.param('id'));
    if (!revoked) return dashboard(c, checked.who, { keyError: 'No such key.' }, 404);
    return c.redirect('/dashboard', 303);
  });

  pages.post('/dashboard/apps/:clientId/revoke', async (c) => {
    const checked = await signedInPost(c);
    if (checked instanceof Response) return checked;
    const revoked = await revokeGrant(store.db, checked.who.userId, c.req.param('clientId'));
    if (!revoked) return dashboard(c, checked.who, { appError: 'No such connected application.' }, 404);
    return c.redirect('/dashboard', 303);
  });

  pages.route('/', consentRoutes({ store, auth, publicUrl, session, signedInPost }));
  pages.route('/', projectRoutes({ store, logger: deps.logger, publicUrl, session, signedInPost, digestHourUtc: deps.digestHourUtc ?? 6, ...(deps.launcher ? { launcher: deps.launcher } : {}) }));
  app.route('/', pages);
  return app;
}

// --- helpers -----------------------------------------------------------------------------------

function isRedirect(res: Response): boolean {
  return res.status >= 300 && res.status < 400 && res.headers.has('location');
}

// --- pages -------------------------------------------------------------------------------------

/** "Sign in to connect Claude": shown above the form when an OAuth client sent the user here. */
function ConnectingNote(props: { oauth: OAuthRequestView | undefined }) {
  if (!props.oauth) return null;
  return (
    <p class="notice">
      <strong>{props.oauth.client.name}</strong> ({props.oauth.redirectHost}) wants to connect to your Project Signals account. Sign in to
      continue; you will choose what it may read next.
    </p>
  );
}

function OAuthQueryField(props: { oauth: OAuthRequestView | undefined }) {
  return props.oauth ? <input type="hidden" name="oauth_query" value={props.oauth.query} /> : null;
}

function SignupPage(props: { csrf: string; email?: string; error?: string; oauth?: OAuthRequestView | undefined }) {
  const carry = props.oauth ? `?${props.oauth.query}` : '';
  return (
    <Layout title="Create an account">
      <ConnectingNote oauth={props.oauth} />
      <section>
        <ErrorBox message={props.error} />
        <form method="post" action="/signup">
          <CsrfField token={props.csrf} />
          <OAuthQueryField oauth={props.oauth} />
          <label for="email">Email</label>
          <input id="email" name="email" type="email" required maxlength={254} autocomplete="email" value={props.email ?? ''} />
          <label for="password">Password (at least 8 characters)</label>
          <input id="password" name="password" type="password" required minlength={8} maxlength={256} autocomplete="new-password" />
          <label for="confirm">Password again</label>
          <input id="confirm" name="confirm" type="password" required minlength={8} maxlength={256} autocomplete="new-password" />
          <button type="submit">Create account</button>
        </form>
      </section>
      <p>
        Already have an account? <a href={`/login${carry}`}>Sign in</a>.
      </p>
    </Layout>
  );
}

function LoginPage(props: { csrf: string; next: string; email?: string; error?: string; oauth?: OAuthRequestView | undefined }) {
  const carry = props.oauth ? `?${props.oauth.query}` : '';
  return (
    <Layout title="Sign in">
      <ConnectingNote oauth={props.oauth} />
      <section>
        <ErrorBox message={props.error} />
        <form method="post" action="/login">
          <CsrfField token={props.csrf} />
          <OAuthQueryField oauth={props.oauth} />
          <input type="hidden" name="next" value={props.next} />
          <label for="email">Email</label>
          <input id="email" name="email" type="email" required maxlength={254} autocomplete="email" value={props.email ?? ''} />
          <label for="password">Password</label>
          <input id="password" name="password" type="password" required maxlength={256} autocomplete="current-password" />
          <button type="submit">Sign in</button>
        </form>
      </section>
      <p>
        No account yet? <a href={`/signup${carry}`}>Create one</a>.
      </p>
    </Layout>
  );
}

interface DashboardExtra {
  newKey?: { key: string; name: string };
  deleted?: boolean;
  keyError?: string;
  appError?: string;
  projectError?: string;
  projectDraft?: { name: string; url: string; category: string };
}

function DashboardPage(props: { who: SessionInfo; projects: ProjectSummary[]; keys: ApiKeySummary[]; apps: GrantSummary[]; mcpUrl: string } & DashboardExtra) {
  const { who, projects, keys, apps } = props;
  const projectName = new Map(projects.map((p) => [p.id, p.name]));
  const draft = props.projectDraft ?? { name: '', url: '', category: '' };
  return (
    <Layout title="Dashboard" email={who.email} csrf={who.csrf}>
      {props.deleted ? (
        <p class="notice" role="status">
          The project was deleted.
        </p>
      ) : null}
      {props.newKey ? (
        <section class="notice" id="new-key-notice">
          <p>
            <strong>New API key “{props.newKey.name}”.</strong> Copy it now: it is shown only this once.
          </p>
          <input id="new-key" class="secret" type="text" readonly value={props.newKey.key} aria-label="New API key" />
          <button type="button" data-copy="new-key" hidden>
            Copy
          </button>
        </section>
      ) : null}

      <h2>Connect an MCP client</h2>
      <section>
        <p>Paste this URL into your MCP client:</p>
        <input id="mcp-url" class="mono" type="text" readonly value={props.mcpUrl} aria-label="MCP URL" />
        <button type="button" data-copy="mcp-url" hidden>
          Copy
        </button>
        <p class="muted">
          Clients that sign in (Claude, ChatGPT) open this site and ask you to approve access. Clients that take a header send an API key as
          “Authorization: Bearer sgk_…”.
        </p>
      </section>

      <h2>Projects</h2>
      <section>
        {projects.length === 0 ? (
          <p class="muted">No projects yet. Name your product and give its website: its memory is built from the site, then you choose the communities to watch.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>URL</th>
                <th>Memory</th>
              </tr>
            </thead>
            <tbody>
              {projects.map((p) => (
                <tr>
                  <td>
                    <a href={`/projects/${encodeURIComponent(p.id)}`}>{p.name}</a>
                  </td>
                  <td class="mono">{p.url}</td>
                  <td data-label="Memory">
                    <span class={`status ${p.memoryStatus}`} title={MEMORY_STATUS_HELP[p.memoryStatus]}>
                      {p.memoryStatus}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <h3>New project</h3>
        <form method="post" action="/dashboard/projects">
          <CsrfField token={who.csrf} />
          <ErrorBox message={props.projectError} />
          <label for="project-name">Name</label>
          <input id="project-name" name="name" required maxlength={LIMITS.name} value={draft.name} />
          <label for="project-url">URL</label>
          <input id="project-url" name="url" type="url" required maxlength={LIMITS.url} placeholder="https://example.com" value={draft.url} />
          <label for="project-category">Category (optional)</label>
          <input id="project-category" name="category" maxlength={LIMITS.name} value={draft.category} />
          <button type="submit">Create project</button>
        </form>
      </section>

      <h2>API keys</h2>
      <section>
        {keys.length === 0 ? (
          <p class="muted">No API keys yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Project</th>
                <th>Key</th>
                <th>Created</th>
                <th>Last used</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr>
                  <td>{k.name}</td>
                  <td data-label="Project">{k.projectId === null ? 'all projects' : (projectName.get(k.projectId) ?? k.projectId)}</td>
                  <td class="mono" data-label="Key">…{k.last4}</td>
                  <td data-label="Created">{when(k.createdAt)}</td>
                  <td data-label="Last used">{when(k.lastUsedAt)}</td>
                  <td>
                    <RevokeButton action={`/dashboard/keys/${encodeURIComponent(k.id)}/revoke`} csrf={who.csrf} label={`Revoke key ${k.name}`} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <h3>New API key</h3>
        <form method="post" action="/dashboard/keys">
          <CsrfField token={who.csrf} />
          <ErrorBox message={props.keyError} />
          <label for="key-name">Name</label>
          <input id="key-name" name="name" required maxlength={LIMITS.name} placeholder="laptop" />
          <label for="key-project">Project</label>
          <select id="key-project" name="project">
            <option value="">All projects</option>
            {projects.map((p) => (
              <option value={p.id}>{p.name}</option>
            ))}
          </select>
          <button type="submit">Create API key</button>
        </form>
      </section>

      <h2>Connected apps</h2>
      <section>
        <ErrorBox message={props.appError} />
        {apps.length === 0 ? (
          <p class="muted">No applications connected yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Application</th>
                <th>Returns to</th>
                <th>Projects</th>
                <th>Connected</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              {apps.map((a) => (
                <tr>
                  <td>{a.name}</td>
                  <td class="mono" data-label="Returns to">{a.redirectHost}</td>
                  <td data-label="Projects">{a.projectId === null ? 'all projects' : (projectName.get(a.projectId) ?? a.projectId)}</td>
                  <td data-label="Connected">{when(a.updatedAt)}</td>
                  <td>
                    <RevokeButton action={`/dashboard/apps/${encodeURIComponent(a.clientId)}/revoke`} csrf={who.csrf} label={`Revoke access for ${a.name}`} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </Layout>
  );
}

/** What each memory status means, for the dashboard's tooltip. */
const MEMORY_STATUS_HELP: Record<string, string> = {
  pending: 'Waiting to be built from the project site (within seconds while the service runs).',
  building: 'Being built from the project site now.',
  ready: 'Built from the project site; edit it on the project page.',
  failed: 'The project site could not be read; the project page says why.',
};

/** A table row's revoke button: its own small form, CSRF-protected like every post. */
function RevokeButton(props: { action: string; csrf: string; label: string }) {
  return (
    <form method="post" action={props.action}>
      <CsrfField token={props.csrf} />
      <button type="submit" class="danger" aria-label={props.label}>
        Revoke
      </button>
    </form>
  );
}
