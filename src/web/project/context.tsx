/* The JSX runtime is named here, not only in tsconfig.json (see ../layout.tsx). */
/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * What every project page shares (DESIGN §9): the signed-in owner and their project, reads
 * through the capability handlers (the API's own path: same input schemas, same project
 * selection, same errors), and the page frame with the project's tabs.
 *
 * Another account's project id, a malformed id and a deleted project all get the same 404 page,
 * so that a page never tells whether someone else's project exists.
 */
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { z } from 'zod';
import { invokeCapability } from '../../capabilities/invoke.ts';
import type { Caller, ProjectCapability } from '../../capabilities/types.ts';
import { LIMITS } from '../../domain/limits.ts';
import type { DigestLauncher } from '../../ingest/digest/launcher.ts';
import type { Logger } from '../../logger.ts';
import type { Store } from '../../store/db.ts';
import { selectProject, type ProjectRecord } from '../../store/projects.ts';
import { Layout } from '../layout.tsx';
import { render, type PageDeps, type SessionInfo } from '../pages.tsx';

export interface ProjectPageDeps extends PageDeps {
  logger: Logger;
  /** Absent when the app runs without `signals serve`'s background work (some tests). */
  launcher?: DigestLauncher;
  /** The hour (UTC) the daily digest window closes (DIGEST_HOUR_UTC). */
  digestHourUtc: number;
}

/** `06:00 UTC`: when the daily digest runs. */
export function dailyHour(deps: Pick<ProjectPageDeps, 'digestHourUtc'>): string {
  return `${String(deps.digestHourUtc).padStart(2, '0')}:00 UTC`;
}

export interface ProjectView {
  who: SessionInfo;
  project: ProjectRecord;
}

const PROJECT_ID = /^prj_[A-Za-z0-9_-]+$/;

/** The owner's project named by the path's `:id`, or undefined for anything else. */
async function ownProject(store: Store, who: SessionInfo, id: string): Promise<ProjectRecord | undefined> {
  if (id.length > LIMITS.idLength || !PROJECT_ID.test(id)) return undefined;
  // An exact id selects the project (DESIGN §4); a URL-part match must not stand in for it here.
  const project = await selectProject(store.db, who.userId, id);
  return project?.memory.id === id ? project : undefined;
}

/** For a GET: the session and the project, or the response to send instead (sign-in, 404). */
export async function projectPage(c: Context, deps: ProjectPageDeps): Promise<ProjectView | Response> {
  const who = await deps.session(c);
  if (!who) return c.redirect(`/login?next=${encodeURIComponent(c.req.path)}`, 303);
  const project = await ownProject(deps.store, who, c.req.param('id') ?? '');
  if (!project) return projectNotFound(c, who);
  return { who, project };
}

/** For a POST: the same-origin, session and CSRF checks, then the project (or a 404 page). */
export async function projectPost(c: Context, deps: ProjectPageDeps): Promise<(ProjectView & { form: Record<string, unknown> }) | Response> {
  const checked = await deps.signedInPost(c);
  if (checked instanceof Response) return checked;
  const project = await ownProject(deps.store, checked.who, c.req.param('id') ?? '');
  if (!project) return projectNotFound(c, checked.who);
  return { who: checked.who, project, form: checked.form };
}

export function projectNotFound(c: Context, who: SessionInfo): Promise<Response> {
  return render(
    c,
    <Layout title="Project not found" email={who.email} csrf={who.csrf}>
      <section>
        <p>No project of yours has this address. It may have been deleted.</p>
        <p>
          <a href="/dashboard">Back to your projects</a>
        </p>
      </section>
    </Layout>,
    404,
  );
}

/** The signed-in owner as a capability caller: a session reads all of its own projects. */
function callerOf(who: SessionInfo): Caller {
  return { userId: who.userId, tiedProjectId: null, keyId: null };
}

/** Reads (or writes) through a capability's handler, exactly as POST /api/v1/invoke would. */
export async function invokeFor<I extends z.ZodType, O>(deps: Pick<PageDeps, 'store' | 'publicUrl'>, view: ProjectView, capability: ProjectCapability<I, O>, input: z.input<I>): Promise<O> {
  const result = await invokeCapability(deps.store, callerOf(view.who), capability as unknown as ProjectCapability, { project: view.project.memory.id, input }, deps.publicUrl);
  return result.data as O;
}

export type ProjectTab = 'memory' | 'briefs' | 'themes' | 'competitors' | 'runs';

const TABS: { tab: ProjectTab; label: string; path: string }[] = [
  { tab: 'memory', label: 'Memory', path: '' },
  { tab: 'briefs', label: 'Briefs', path: '/briefs' },
  { tab: 'themes', label: 'Themes', path: '/themes' },
  { tab: 'competitors', label: 'Competitors', path: '/competitors' },
  { tab: 'runs', label: 'Runs', path: '/runs' },
];

export function projectPath(project: ProjectRecord, path = ''): string {
  return `/projects/${encodeURIComponent(project.memory.id)}${path}`;
}

/** The frame of every project page: the project's name, its tabs, then the page. */
export function ProjectFrame(props: { view: ProjectView; tab: ProjectTab; title?: string; refreshSeconds?: number; children?: Child }) {
  const { who, project } = props.view;
  return (
    <Layout title={props.title ?? project.memory.name} email={who.email} csrf={who.csrf} refreshSeconds={props.refreshSeconds}>
      <p class="crumbs">
        <a href="/dashboard">Projects</a> › <span>{project.memory.name}</span> <span class="muted mono">{project.memory.url}</span>
      </p>
      <nav class="tabs" aria-label="Project">
        {TABS.map((t) => (
          <a href={projectPath(project, t.path)} aria-current={t.tab === props.tab ? 'page' : undefined}>
            {t.label}
          </a>
        ))}
      </nav>
      {props.children}
    </Layout>
  );
}

/** A link to a community thread or site: never a referrer, never an opener, never endorsed. */
export function ExternalLink(props: { href: string; children?: Child }) {
  // Only http(s) links are shown as links: a `javascript:` URL from an imported bundle is text.
  if (!/^https?:\/\//i.test(props.href)) return <span>{props.children}</span>;
  return (
    <a href={props.href} rel="noopener noreferrer nofollow" target="_blank">
      {props.children}
    </a>
  );
}

export { render as renderPage, when } from '../pages.tsx';

/** `May 1, 2026` for dates where the hour does not matter. */
export function day(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

/** A `page` query value: 1 when absent; `ok: false` (and 1) when it is not a page number. */
export function pageParam(value: string | undefined): { value: number; ok: boolean } {
  if (value === undefined) return { value: 1, ok: true };
  if (!/^[0-9]{1,7}$/.test(value)) return { value: 1, ok: false };
  const n = Number(value);
  return n >= 1 && n <= LIMITS.pageMax ? { value: n, ok: true } : { value: 1, ok: false };
}

/** Previous / "page N of M" / next; the previous of a page past the end is the last page. */
export function Pager(props: { page: number; pageCount: number; href: (page: number) => string; suffix?: string }) {
  const { page, pageCount } = props;
  return (
    <nav class="pager" aria-label="Pages">
      {page > 1 ? (
        <a rel="prev" href={props.href(Math.min(page - 1, pageCount))}>
          ← Previous
        </a>
      ) : (
        <span class="muted">← Previous</span>
      )}
      <span>
        page {page} of {pageCount}
        {props.suffix ?? ''}
      </span>
      {page < pageCount ? (
        <a rel="next" href={props.href(page + 1)}>
          Next →
        </a>
      ) : (
        <span class="muted">Next →</span>
      )}
    </nav>
  );
}

/** "1 post", "3 posts". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
