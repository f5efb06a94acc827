/* The JSX runtime is named here, not only in tsconfig.json: `npx signals` run from another
   directory transpiles with tsx without finding our tsconfig, and would fall back to React. */
/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * What every page handler shares: the session behind a request (with its CSRF token), the checks
 * of a signed-in form post, rendering, and the refusal page.
 */
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Auth } from '../auth/better-auth.ts';
import type { Store } from '../store/db.ts';
import { Layout } from './layout.tsx';
import { sameOrigin, sameToken, sessionCsrfToken } from './security.ts';

export interface SessionInfo {
  userId: string;
  sessionId: string;
  email: string;
  csrf: string;
}

export type SignedInPost = { who: SessionInfo; form: Record<string, unknown> } | Response;

/** What every group of signed-in pages is given (consent, project pages). */
export interface PageDeps {
  store: Store;
  publicUrl: string;
  session(c: Context): Promise<SessionInfo | undefined>;
  signedInPost(c: Context): Promise<SignedInPost>;
}

export function sessionHelpers(auth: Auth, publicUrl: string) {
  const secret = auth.$context.then((ctx) => ctx.secret);

  async function session(c: Context): Promise<SessionInfo | undefined> {
    const found = await auth.api.getSession({ headers: c.req.raw.headers });
    if (!found) return undefined;
    return { userId: found.user.id, sessionId: found.session.id, email: found.user.email, csrf: sessionCsrfToken(await secret, found.session.id) };
  }

  /** The same-origin and session-CSRF checks of every signed-in POST. */
  async function signedInPost(c: Context): Promise<SignedInPost> {
    if (!sameOrigin(c, publicUrl)) return refused(c);
    const who = await session(c);
    if (!who) return c.redirect('/login?next=/dashboard', 303);
    const form = await c.req.parseBody();
    if (!sameToken(form.csrf, who.csrf)) return refused(c);
    return { who, form };
  }

  return { session, signedInPost };
}

/** `2026-05-01 14:03 UTC`: stable, locale-free, short enough for a phone; `never` for null. */
export function when(iso: string | null): string {
  return iso === null ? 'never' : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export async function render(c: Context, page: Child, status: ContentfulStatusCode = 200): Promise<Response> {
  // A JSX node renders through toString(), which is async when a component is.
  const html = await (page as { toString(): string | Promise<string> }).toString();
  return c.html(`<!doctype html>${html}`, status);
}

export function refused(c: Context, message = 'This form was sent from another site or has expired. Go back, reload the page and try again.'): Promise<Response> {
  return render(
    c,
    <Layout title="Request refused">
      <p class="error">{message}</p>
    </Layout>,
    403,
  );
}

/** better-auth's Set-Cookie lines (session set or cleared), onto our redirect. */
export function forwardCookies(c: Context, res: Response): void {
  for (const cookie of res.headers.getSetCookie()) c.header('Set-Cookie', cookie, { append: true });
}
