/* The JSX runtime is named here, not only in tsconfig.json (see ../layout.tsx). */
/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * /projects/:id/briefs (DESIGN §9): the five newest briefs through `briefs.list`, grouped by
 * brief (its window label) and section, each item under the number briefs.get takes.
 */
import type { Hono } from 'hono';
import { briefsList } from '../../capabilities/briefs-list.ts';
import { LIMITS } from '../../domain/limits.ts';
import type { NumberedBrief } from '../../domain/resources.ts';
import type { WebEnv } from '../security.ts';
import { ExternalLink, invokeFor, projectPage, projectPath, ProjectFrame, renderPage, type ProjectPageDeps, type ProjectView } from './context.tsx';

type NumberedItem = NumberedBrief['brief']['sections'][number]['items'][number];

export function briefsRoutes(app: Hono<WebEnv>, deps: ProjectPageDeps): void {
  app.get('/projects/:id/briefs', async (c) => {
    const view = await projectPage(c, deps);
    if (view instanceof Response) return view;
    const { briefs } = await invokeFor(deps, view, briefsList, { limit: LIMITS.numberedBriefs });
    return renderPage(c, <BriefsPage view={view} briefs={briefs} />);
  });
}

function BriefsPage(props: { view: ProjectView; briefs: NumberedBrief[] }) {
  const { view, briefs } = props;
  return (
    <ProjectFrame view={view} tab="briefs" title={`Briefs · ${view.project.memory.name}`}>
      {briefs.length === 0 ? (
        <section>
          <p>No brief yet.</p>
          <p class="muted">
            The first brief appears after the daily digest has read this project's communities.{' '}
            <a href={projectPath(view.project, '/runs')}>Run it now</a>.
          </p>
        </section>
      ) : (
        <>
          <p class="hint">The {briefs.length === 1 ? 'newest brief' : `${briefs.length} newest briefs`}, newest first. An item's number is the one an assistant asks briefs.get for.</p>
          {briefs.map((b) => (
            <section>
              <h2 class="brief-window">{b.window}</h2>
              {b.brief.sections.length === 0 ? <p class="muted">This brief is empty.</p> : null}
              {b.brief.sections.map((s) => (
                <>
                  <h3>{s.title}</h3>
                  {s.items.length === 0 ? (
                    <p class="muted">{s.kind === 'offers' ? 'No post in this window asks for what your offerings do, and none complains about a competitor you track.' : 'Nothing in this section.'}</p>
                  ) : (
                    <ul class="items">
                      {s.items.map((item) => (
                        <BriefItem item={item} />
                      ))}
                    </ul>
                  )}
                </>
              ))}
            </section>
          ))}
        </>
      )}
    </ProjectFrame>
  );
}

function BriefItem(props: { item: NumberedItem }) {
  const { item } = props;
  const quote = item.surfaced.quote;
  return (
    <li id={`item-${item.n}`} class="overflow">
      <p class="item-head">
        <span class="item-n">#{item.n}</span> <strong>{item.surfaced.summary}</strong>
      </p>
      {quote && quote.text !== '' ? (
        <blockquote>
          <p>{quote.text}</p>
          <p class="muted">
            {quote.who !== '' ? <>— {quote.who}</> : null}
            {quote.sub !== '' ? <> in {quote.sub}</> : null}
          </p>
        </blockquote>
      ) : null}
      {item.move.title !== '' || item.move.body !== '' ? (
        <p>
          <span class="muted">Suggested move: </span>
          <strong>{item.move.title}</strong>
          {item.move.body !== '' ? <> {item.move.body}</> : null}
        </p>
      ) : null}
      {item.sources.length > 0 ? (
        <ul class="sources">
          {item.sources.map((s) => (
            <li>
              <ExternalLink href={s.url}>{s.title !== '' ? s.title : s.url}</ExternalLink>
              {s.sub !== '' ? <span class="muted"> · {s.sub}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
