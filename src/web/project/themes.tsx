/* The JSX runtime is named here, not only in tsconfig.json (see ../layout.tsx). */
/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * /projects/:id/themes (DESIGN §9): `pains.list` a page at a time, either sort, either type; and
 * /projects/:id/themes/:sovId: `pains.get`, every quote with its author, community, date and thread.
 *
 * The list's query (`type`, `sort`, `page`) is read leniently: a value that is not one the page
 * offers (`page=abc`, `page=0`, `type=zzz`) falls back to its default and the page says so, rather
 * than failing; a page past the end is an empty page with a way back.
 */
import type { Context, Hono } from 'hono';
import { painsGet } from '../../capabilities/pains-get.ts';
import { painsList } from '../../capabilities/pains-list.ts';
import { ServiceError } from '../../domain/errors.ts';
import { THEME_TYPES, type ThemeFull, type ThemeRow, type ThemeType } from '../../domain/resources.ts';
import type { WebEnv } from '../security.ts';
import {
  count,
  Pager,
  pageParam,
  day,
  ExternalLink,
  invokeFor,
  projectNotFound,
  projectPage,
  projectPath,
  ProjectFrame,
  renderPage,
  type ProjectPageDeps,
  type ProjectView,
} from './context.tsx';

export const THEMES_PAGE_SIZE = 20;

const SORTS = ['recent', 'posts'] as const;
type Sort = (typeof SORTS)[number];

interface ThemeQuery {
  type: ThemeType;
  sort: Sort;
  page: number;
  /** Some value in the address was not understood and its default was used instead. */
  fellBack: boolean;
}

const TYPE_LABELS: Record<ThemeType, string> = { pain: 'Customer pains', competitor: 'Competitor weaknesses' };
const SORT_LABELS: Record<Sort, string> = { recent: 'Most recent', posts: 'Most posts' };

function oneOf<T extends string>(allowed: readonly T[], value: string | undefined, fallback: T): { value: T; ok: boolean } {
  if (value === undefined) return { value: fallback, ok: true };
  return (allowed as readonly string[]).includes(value) ? { value: value as T, ok: true } : { value: fallback, ok: false };
}

function themeQuery(c: Context): ThemeQuery {
  const type = oneOf(THEME_TYPES, c.req.query('type'), 'pain');
  const sort = oneOf(SORTS, c.req.query('sort'), 'recent');
  const page = pageParam(c.req.query('page'));
  return { type: type.value, sort: sort.value, page: page.value, fellBack: !(type.ok && sort.ok && page.ok) };
}

export function themesRoutes(app: Hono<WebEnv>, deps: ProjectPageDeps): void {
  app.get('/projects/:id/themes', async (c) => {
    const view = await projectPage(c, deps);
    if (view instanceof Response) return view;
    const query = themeQuery(c);
    const data = await invokeFor(deps, view, painsList, { type: query.type, sort: query.sort, page: query.page, pageSize: THEMES_PAGE_SIZE });
    return renderPage(c, <ThemesPage view={view} query={query} data={data} />);
  });

  app.get('/projects/:id/themes/:sovId', async (c) => {
    const view = await projectPage(c, deps);
    if (view instanceof Response) return view;
    let theme: ThemeFull;
    try {
      theme = await invokeFor(deps, view, painsGet, { sovId: c.req.param('sovId') });
    } catch (err) {
      // Another project's theme, an unknown id and a malformed one all look the same: not here.
      if (err instanceof ServiceError && (err.code === 'not_found' || err.code === 'invalid')) return projectNotFound(c, view.who);
      throw err;
    }
    // The list the person came from (its type, sort and page ride along on the theme's link).
    const from = themeQuery(c);
    return renderPage(c, <ThemePage view={view} theme={theme} back={listHref(view, from)} />);
  });
}

// --- the list ----------------------------------------------------------------------------------

interface ListData {
  rows: ThemeRow[];
  totalCount: number;
  totalPostCount: number;
  page: number;
  pageCount: number;
  rangeStart: number;
  rangeEnd: number;
}

function listHref(view: ProjectView, q: { type: ThemeType; sort: Sort; page: number }): string {
  const params = new URLSearchParams({ type: q.type, sort: q.sort });
  if (q.page !== 1) params.set('page', String(q.page));
  return projectPath(view.project, `/themes?${params.toString()}`);
}

/** One theme's page, remembering the list it was opened from. */
function themeHref(view: ProjectView, sovId: string, from: { type: ThemeType; sort: Sort; page: number }): string {
  const list = listHref(view, from);
  const query = list.slice(list.indexOf('?'));
  return projectPath(view.project, `/themes/${encodeURIComponent(sovId)}${query}`);
}

/** A choice among a few values: the current one as text, the others as links. */
function Switch<T extends string>(props: { label: string; values: readonly T[]; current: T; labels: Record<T, string>; href: (v: T) => string }) {
  return (
    <nav class="switch" aria-label={props.label}>
      <span class="muted">{props.label}:</span>
      {props.values.map((v) =>
        v === props.current ? (
          <strong aria-current="true">{props.labels[v]}</strong>
        ) : (
          <a href={props.href(v)}>{props.labels[v]}</a>
        ),
      )}
    </nav>
  );
}

function ThemesPage(props: { view: ProjectView; query: ThemeQuery; data: ListData }) {
  const { view, query, data } = props;
  const here = { type: query.type, sort: query.sort };
  const kind = query.type === 'pain' ? 'pain themes' : 'competitor themes';
  return (
    <ProjectFrame view={view} tab="themes" title={`Themes · ${view.project.memory.name}`}>
      {query.fellBack ? <p class="notice">Part of this address was not understood, so the defaults are shown instead.</p> : null}
      <Switch label="Type" values={THEME_TYPES} current={query.type} labels={TYPE_LABELS} href={(type) => listHref(view, { type, sort: query.sort, page: 1 })} />
      <Switch label="Sort" values={SORTS} current={query.sort} labels={SORT_LABELS} href={(sort) => listHref(view, { type: query.type, sort, page: 1 })} />
      <section>
        {data.totalCount === 0 ? (
          <>
            <p>No {kind} yet.</p>
            <p class="muted">
              Themes appear after the first digest run has read this project's communities.{' '}
              <a href={projectPath(view.project, '/runs')}>See the runs</a>.
            </p>
          </>
        ) : data.rows.length === 0 ? (
          <>
            <p>
              No {kind} on page {data.page}: there {data.pageCount === 1 ? 'is 1 page' : `are ${data.pageCount} pages`}.
            </p>
            <p>
              <a href={listHref(view, { ...here, page: data.pageCount })}>Go to the last page</a>
            </p>
          </>
        ) : (
          <>
            <p class="muted">
              rows {data.rangeStart}–{data.rangeEnd} of {data.totalCount} · {count(data.totalPostCount, 'post')} in all
            </p>
            <ul class="items">
              {data.rows.map((r) => (
                <li class="overflow">
                  <a href={themeHref(view, r.id, query)}>
                    <strong>{r.title}</strong>
                  </a>
                  <p class="theme-summary">{r.summary}</p>
                  <p class="hint">
                    {count(r.postCount, 'post')} · last updated <time datetime={r.lastUpdatedAt}>{day(r.lastUpdatedAt)}</time>
                  </p>
                </li>
              ))}
            </ul>
          </>
        )}
        {data.totalCount > 0 && data.pageCount > 1 ? (
          <Pager page={data.page} pageCount={data.pageCount} href={(page) => listHref(view, { ...here, page })} />
        ) : null}
      </section>
    </ProjectFrame>
  );
}

// --- one theme ---------------------------------------------------------------------------------

function ThemePage(props: { view: ProjectView; theme: ThemeFull; back: string }) {
  const { view, theme } = props;
  return (
    <ProjectFrame view={view} tab="themes" title={theme.title}>
      <p>
        <a href={props.back}>← All themes</a>
      </p>
      <section>
        <p class="overflow">{theme.summary}</p>
        <p class="hint">
          {count(theme.postCount, 'post')} · first seen <time datetime={theme.firstSeenAt}>{day(theme.firstSeenAt)}</time> · last seen{' '}
          <time datetime={theme.lastSeenAt}>{day(theme.lastSeenAt)}</time>
        </p>
      </section>
      <h2>{theme.pains.length === 1 ? '1 quote' : `${theme.pains.length} quotes`}, newest first</h2>
      <section>
        {theme.pains.length === 0 ? (
          <p class="muted">No quotes in this theme yet.</p>
        ) : (
          <ul class="items">
            {theme.pains.map((p) => (
              <li class="overflow" id={`signal-${p.signalId}`}>
                <blockquote>
                  <p>{p.quote}</p>
                </blockquote>
                <p class="hint">
                  <span class="quote-author">{p.author}</span> in <span class="quote-community">{p.community}</span> ·{' '}
                  <time datetime={p.seenAt}>{day(p.seenAt)}</time> · <ExternalLink href={p.postUrl}>{p.postTitle !== '' ? p.postTitle : 'the thread'}</ExternalLink>
                </p>
                {Object.entries(p.moves).map(([moveKind, move]) => (
                  <p>
                    <span class="muted">Suggested {moveKind} move: </span>
                    <strong>{move.title}</strong>
                    {move.body !== '' ? <> {move.body}</> : null}
                  </p>
                ))}
              </li>
            ))}
          </ul>
        )}
      </section>
    </ProjectFrame>
  );
}
