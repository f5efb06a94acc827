/* The JSX runtime is named here, not only in tsconfig.json: `npx signals` run from another
   directory transpiles with tsx without finding our tsconfig, and would fall back to React. */
/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * /consent (DESIGN §7): the allow-access screen an OAuth client's authorization ends on. It names
 * the client and where it will return to, lists what it asks for, and lets the user allow all
 * their projects or one (which ties the grant like a tied key). The decision goes to
 * better-auth's consent endpoint, which answers with the client's redirect URI (code or
 * access_denied); the project choice is recorded first, in `oauth_grants`.
 */
import { Hono, type Context } from 'hono';
import type { Auth } from '../auth/better-auth.ts';
import { isMetadataDocumentUrl } from '../auth/cimd.ts';
import { recordGrant } from '../auth/oauth-grants.ts';
import type { ProjectSummary } from '../domain/resources.ts';
import { listProjectSummaries } from '../store/projects.ts';
import { CsrfField, ErrorBox, Layout } from './layout.tsx';
import { nextLocation, oauthQueryField, oauthQueryOf, pendingAuthorization, type OAuthRequestView } from './oauth-flow.ts';
import { refused, render, str, type PageDeps, type SessionInfo } from './pages.tsx';
import type { WebEnv } from './security.ts';

export interface ConsentDeps extends PageDeps {
  auth: Auth;
}

/** What each scope lets the client do, in the user's words. */
const SCOPE_TEXT: Record<string, string> = {
  'signals:read': 'Read your projects: briefs, signals, pain themes, competitors, source threads, runs and project memory.',
  offline_access: 'Stay connected for up to 30 days without asking you again.',
};

const EXPIRED = 'This request has expired or is not valid. Start the connection again from your application.';

export function consentRoutes(deps: ConsentDeps): Hono<WebEnv> {
  const { store, auth } = deps;
  const app = new Hono<WebEnv>();

  const pending = (c: Context<WebEnv>, query: string | undefined) => pendingAuthorization(c, store.db, query);

  app.get('/consent', async (c) => {
    const query = oauthQueryOf(c);
    if (query === undefined) return refused(c, EXPIRED);
    const who = await deps.session(c);
    if (!who) return c.redirect(`/login?${query}`, 303);
    const view = await pending(c, query);
    if (!view) return refused(c, EXPIRED);
    const projects = await listProjectSummaries(store.db, who.userId);
    return render(c, <ConsentPage who={who} view={view} projects={projects} />);
  });

  app.post('/consent', async (c) => {
    const checked = await deps.signedInPost(c);
    if (checked instanceof Response) return checked;
    const { who, form } = checked;
    const view = await pending(c, oauthQueryField(form.oauth_query));
    if (!view) return refused(c, EXPIRED);
    const accept = str(form.decision) === 'allow';

    if (accept) {
      const projects = await listProjectSummaries(store.db, who.userId);
      const choice = str(form.project);
      const projectId = choice === 'all' ? null : (projects.find((p) => p.id === choice)?.id ?? undefined);
      if (projectId === undefined) {
        return render(c, <ConsentPage who={who} view={view} projects={projects} error="Choose all projects or one of yours." />, 400);
      }
      // Before the code exists, so a client can never hold a token without its project choice.
      await recordGrant(store.db, { userId: who.userId, clientId: view.client.clientId, projectId });
    }

    const res = await auth.api.oauth2Consent({
      body: { accept, oauth_query: view.query },
      headers: c.req.raw.headers,
      // better-auth's authorize step (run inside the consent endpoint) reads the request itself.
      request: c.req.raw,
      asResponse: true,
    });
    const location = res.ok || (res.status >= 300 && res.status < 400) ? await nextLocation(res, deps.publicUrl) : undefined;
    if (!location) return refused(c, EXPIRED);
    return c.redirect(location, 303);
  });

  return app;
}

function ConsentPage(props: { who: SessionInfo; view: OAuthRequestView; projects: ProjectSummary[]; error?: string }) {
  const { who, view, projects } = props;
  return (
    <Layout title="Allow access?" email={who.email} csrf={who.csrf}>
      <section>
        <p>
          <strong>{view.client.name}</strong> wants to read your Project Signals data.
        </p>
        {/* A Client ID Metadata Document's name is what its publisher says: the host that
            published it is the part a person can check (cimd.ts). */}
        {isMetadataDocumentUrl(view.client.clientId) ? (
          <p>
            It describes itself at <strong class="mono">{new URL(view.client.clientId).host}</strong>.
          </p>
        ) : null}
        <p>
          After you decide, you will be sent back to <strong class="mono">{view.redirectHost}</strong>. Only allow applications you started
          connecting yourself.
        </p>
        <p>It asks to:</p>
        <ul>
          {view.scopes.map((scope) => (
            <li>{SCOPE_TEXT[scope] ?? scope}</li>
          ))}
        </ul>
      </section>
      <section>
        <form method="post" action="/consent">
          <CsrfField token={who.csrf} />
          <input type="hidden" name="oauth_query" value={view.query} />
          <ErrorBox message={props.error} />
          <label for="consent-project">Projects it may read</label>
          <select id="consent-project" name="project">
            <option value="all">All my projects</option>
            {projects.map((p) => (
              <option value={p.id}>Only {p.name}</option>
            ))}
          </select>
          <div class="actions">
            <button type="submit" name="decision" value="allow">
              Allow access
            </button>
            <button type="submit" name="decision" value="deny" class="secondary">
              Deny
            </button>
          </div>
        </form>
      </section>
      <p class="muted">You can revoke this access at any time from your dashboard, under “Connected apps”.</p>
    </Layout>
  );
}
