/* The JSX runtime is named here, not only in tsconfig.json (see ../layout.tsx). */
/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * /projects/:id/competitors (DESIGN §9): `competitors.list`, most-mentioned first, each product
 * with its mention count, its link when tracked in memory, and its newest mentions (post, quote).
 * Products tracked in the project memory are marked as such.
 */
import type { Hono } from 'hono';
import { competitorsList } from '../../capabilities/competitors-list.ts';
import { LIMITS } from '../../domain/limits.ts';
import type { CompetitorEntry } from '../../domain/resources.ts';
import type { WebEnv } from '../security.ts';
import { count, ExternalLink, Pager, pageParam, invokeFor, projectPage, projectPath, ProjectFrame, renderPage, type ProjectPageDeps, type ProjectView } from './context.tsx';

/** As competitors.list groups products: case-insensitively, ignoring surrounding spaces. */
const keyOf = (name: string) => name.trim().toLowerCase();

export function competitorsRoutes(app: Hono<WebEnv>, deps: ProjectPageDeps): void {
  app.get('/projects/:id/competitors', async (c) => {
    const view = await projectPage(c, deps);
    if (view instanceof Response) return view;
    // The most competitors.list gives (DESIGN §11): past that, a product is a rare mention.
    const { competitors } = await invokeFor(deps, view, competitorsList, { limit: LIMITS.competitorsListMax });
    const pageCount = Math.max(1, Math.ceil(competitors.length / COMPETITORS_PAGE_SIZE));
    const page = Math.min(pageParam(c.req.query('page')).value, pageCount);
    const shown = competitors.slice((page - 1) * COMPETITORS_PAGE_SIZE, page * COMPETITORS_PAGE_SIZE);
    return renderPage(c, <CompetitorsPage view={view} competitors={shown} total={competitors.length} page={page} pageCount={pageCount} />);
  });
}

/** A busy community names hundreds of products: a page shows the most-mentioned first, 30 at a time. */
export const COMPETITORS_PAGE_SIZE = 30;

function CompetitorsPage(props: { view: ProjectView; competitors: CompetitorEntry[]; total: number; page: number; pageCount: number }) {
  const { view, competitors } = props;
  const tracked = new Map(view.project.memory.competitors.map((c) => [keyOf(c.name), c]));
  return (
    <ProjectFrame view={view} tab="competitors" title={`Competitors · ${view.project.memory.name}`}>
      {competitors.length === 0 ? (
        <section>
          <p>No competitors yet.</p>
          <p class="muted">
            Products appear here when the digest finds them mentioned in this project's communities, and when you track one in the{' '}
            <a href={projectPath(view.project)}>project memory</a>.
          </p>
        </section>
      ) : (
        <section>
          <p class="hint">Most-mentioned first. Products tracked in the project memory are marked “tracked” and listed even without a mention.</p>
          <ul class="items">
            {competitors.map((entry) => {
              const memo = tracked.get(keyOf(entry.name));
              return (
                <li class="overflow">
                  <p class="item-head">
                    <strong>{entry.name}</strong> {memo ? <span class="status ok">tracked</span> : null}{' '}
                    <span class="muted">{count(entry.mentions, 'mention')}</span>
                  </p>
                  {entry.url !== null ? (
                    <p class="mono">
                      <ExternalLink href={entry.url}>{entry.url}</ExternalLink>
                    </p>
                  ) : null}
                  {memo && memo.description !== '' ? <p>{memo.description}</p> : null}
                  {entry.sources.length > 0 ? (
                    <details>
                      <summary>
                        {entry.mentions > entry.sources.length
                          ? `The ${entry.sources.length} newest of ${entry.mentions} mentions`
                          : entry.sources.length === 1
                            ? 'The mention'
                            : `The ${entry.sources.length} mentions`}
                      </summary>
                      <ul class="items">
                        {entry.sources.map((s) => (
                          <li>
                            {s.quote !== '' ? (
                              <blockquote>
                                <p>{s.quote}</p>
                              </blockquote>
                            ) : null}
                            <p class="hint">
                              <ExternalLink href={s.url}>{s.title !== '' ? s.title : s.url}</ExternalLink>
                            </p>
                          </li>
                        ))}
                      </ul>
                    </details>
                  ) : null}
                </li>
              );
            })}
          </ul>
          {props.pageCount > 1 ? (
            <Pager page={props.page} pageCount={props.pageCount} href={(page) => projectPath(view.project, `/competitors?page=${page}`)} suffix={` (${count(props.total, 'product')})`} />
          ) : null}
          {props.total === LIMITS.competitorsListMax ? <p class="hint">The {LIMITS.competitorsListMax} most-mentioned products are listed.</p> : null}
          {competitors.some((e) => e.mentions > LIMITS.competitorSources) ? (
            <p class="hint">At most the {LIMITS.competitorSources} newest mentions of a product are listed.</p>
          ) : null}
        </section>
      )}
    </ProjectFrame>
  );
}
