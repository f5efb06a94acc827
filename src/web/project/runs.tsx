/* The JSX runtime is named here, not only in tsconfig.json (see ../layout.tsx). */
/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * /projects/:id/runs (DESIGN §9): the project's digest runs, newest first — status, window,
 * counts, the error of a failed run and what each watched community gave (docs/sources.md,
 * "What a run records") — with "Run now".
 *
 * There is no `runs.list` capability, so this page reads the runs table through the store
 * (`listProjectRuns`), for a project `projectPage` has already checked is the owner's.
 *
 * "Run now" posts here; the launcher records the run before answering, and the page is answered
 * with a redirect to itself (POST-redirect-GET): a reload shows the run, it never starts another.
 * While a run is queued or running, the page reloads itself every few seconds. A page rendered
 * as the answer to a post (a refused run) never does: a reload of it must not post again.
 */
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { FIRST_RUN_DAYS, RUN_NOW_HOURS } from '../../ingest/digest/launcher.ts';
import { DigestBusyError, DigestError } from '../../ingest/digest/run.ts';
import type { CommunityOutcome } from '../../ingest/sources/source.ts';
import { lastCompleteWindowEnd, listProjectRuns, type ProjectRun } from '../../store/runs.ts';
import { CsrfField } from '../layout.tsx';
import type { WebEnv } from '../security.ts';
import { count, dailyHour, ProjectFrame, projectPage, projectPath, projectPost, renderPage, when, type ProjectPageDeps, type ProjectView } from './context.tsx';

/** Runs listed: a few weeks of daily runs. */
const RUNS_SHOWN = 20;
/** While a run is queued or running, the page reloads itself this often. */
const REFRESH_SECONDS = 5;
/** The kinds of signal, in the order a run's counts are shown (others, if any, after them). */
const KINDS = ['pain', 'competitor', 'content'] as const;

/** Why "Run now" did not start a run. */
type Refusal = { kind: 'busy' } | { kind: 'no-community' } | { kind: 'no-launcher' } | { kind: 'other'; message: string };

export function runsRoutes(app: Hono<WebEnv>, deps: ProjectPageDeps): void {
  const { store } = deps;

  async function page(c: Context, view: ProjectView, refusal?: Refusal, status: ContentfulStatusCode = 200) {
    const id = view.project.memory.id;
    const [runs, lastComplete] = await Promise.all([listProjectRuns(store.db, id, RUNS_SHOWN), lastCompleteWindowEnd(store.db, id)]);
    return renderPage(
      c,
      <RunsPage view={view} runs={runs} hasComplete={lastComplete !== undefined} canRun={deps.launcher !== undefined} refusal={refusal} reload={refusal === undefined} dailyHour={dailyHour(deps)} />,
      status,
    );
  }

  app.get('/projects/:id/runs', async (c) => {
    const view = await projectPage(c, deps);
    if (view instanceof Response) return view;
    return page(c, view);
  });

  app.post('/projects/:id/runs', async (c) => {
    const post = await projectPost(c, deps);
    if (post instanceof Response) return post;
    const view: ProjectView = { who: post.who, project: post.project };
    if (!deps.launcher) return page(c, view, { kind: 'no-launcher' }, 503);
    try {
      await deps.launcher.start(view.project.memory.id);
    } catch (err) {
      if (err instanceof DigestBusyError) return page(c, view, { kind: 'busy' }, 409);
      if (err instanceof DigestError) {
        // The one refusal a person can fix here; the others are said as the pipeline says them.
        const refusal: Refusal = view.project.memory.communities.length === 0 ? { kind: 'no-community' } : { kind: 'other', message: err.message };
        return page(c, view, refusal, 400);
      }
      throw err;
    }
    return c.redirect(projectPath(view.project, '/runs'), 303);
  });
}

function RunsPage(props: { view: ProjectView; runs: ProjectRun[]; hasComplete: boolean; canRun: boolean; refusal: Refusal | undefined; reload: boolean; dailyHour: string }) {
  const { view, runs } = props;
  const active = runs.some((r) => r.status === 'queued' || r.status === 'running');
  const watches = view.project.memory.communities.length > 0;
  return (
    <ProjectFrame view={view} tab="runs" title={`Runs · ${view.project.memory.name}`} refreshSeconds={props.reload && active ? REFRESH_SECONDS : undefined}>
      {props.refusal ? <RefusalBox view={view} refusal={props.refusal} /> : null}
      <section>
        <RunNow view={view} canRun={props.canRun} hasComplete={props.hasComplete} watches={watches} dailyHour={props.dailyHour} />
      </section>
      <h2>Digest runs</h2>
      <section>
        {runs.length === 0 ? (
          <p>
            No digest has run yet. The first runs daily at {props.dailyHour}{props.canRun && watches ? ' — or run it now.' : '.'}
          </p>
        ) : (
          <>
            {active && props.reload ? <p class="hint">A run is in progress: this page reloads itself every {REFRESH_SECONDS} seconds until it ends.</p> : null}
            <ul class="items">
              {runs.map((run) => (
                <RunItem run={run} />
              ))}
            </ul>
            {runs.length === RUNS_SHOWN ? <p class="hint">The {RUNS_SHOWN} newest runs are shown.</p> : null}
          </>
        )}
      </section>
    </ProjectFrame>
  );
}

/** The memory page's "Watched communities" editor. */
function CommunitiesLink(props: { view: ProjectView }) {
  return <a href={`${projectPath(props.view.project)}#communities`}>the project memory</a>;
}

function RefusalBox(props: { view: ProjectView; refusal: Refusal }) {
  const { refusal } = props;
  return (
    <p class="error" role="alert">
      {refusal.kind === 'busy' ? (
        'A run of this project is already in progress: it is listed below. Start another once it has ended.'
      ) : refusal.kind === 'no-community' ? (
        <>
          No run was started: this project watches no community yet, and a run needs at least one. Add one in{' '}
          <CommunitiesLink view={props.view} />, then run it again.
        </>
      ) : refusal.kind === 'no-launcher' ? (
        'This server does not run digests: runs start from signals serve.'
      ) : (
        `No run was started: ${refusal.message}.`
      )}
    </p>
  );
}

function RunNow(props: { view: ProjectView; canRun: boolean; hasComplete: boolean; watches: boolean; dailyHour: string }) {
  const { view } = props;
  const reach = props.hasComplete ? `the last ${RUN_NOW_HOURS} hours` : `the last ${FIRST_RUN_DAYS} days, as this project has no complete run yet`;
  return (
    <>
      <p>
        A digest run collects the last {RUN_NOW_HOURS} hours (the last {FIRST_RUN_DAYS} days for a project's first run) from the watched
        communities, finds the pains, competitor complaints and content ideas in them, and writes a brief. It runs daily at {props.dailyHour}.
      </p>
      {!props.watches ? (
        <p class="notice">
          A run needs at least one watched community, and this project watches none yet. Add one in <CommunitiesLink view={view} />.
        </p>
      ) : !props.canRun ? (
        <p class="hint">
          Runs start from <code>signals serve</code>: this server does not run them, so there is no “Run now” here.
        </p>
      ) : (
        <form method="post" action={projectPath(view.project, '/runs')}>
          <CsrfField token={view.who.csrf} />
          <p class="hint">Run now collects {reach}.</p>
          <button type="submit">Run now</button>
        </form>
      )}
    </>
  );
}

function RunItem(props: { run: ProjectRun }) {
  const { run } = props;
  const finished = run.status === 'complete' || run.status === 'failed';
  return (
    <li class="overflow">
      <p>
        <span class={`status ${run.status}`}>{run.status}</span> <strong>{`${when(run.windowStart)} – ${when(run.windowEnd)}`}</strong>{' '}
        <span class="muted mono">{run.id}</span>
      </p>
      <p class="hint">
        Started {when(run.createdAt)}; {finished ? 'ended' : 'updated'} {when(run.updatedAt)}.
      </p>
      <p>
        {count(run.postsAnalyzed, 'post')} analyzed{finished ? '' : ' so far'}. Signals: {signalCounts(run.signalCounts)}.
      </p>
      {run.status === 'failed' ? <p class="error">Failed: {run.error ?? 'no reason was recorded'}</p> : null}
      <Communities run={run} finished={finished} />
    </li>
  );
}

/** `3 pain, 1 competitor, 0 content`: every kind, even at 0, so runs compare at a glance. */
function signalCounts(counts: Record<string, number>): string {
  const others = Object.keys(counts)
    .filter((k) => !(KINDS as readonly string[]).includes(k))
    .sort();
  return [...KINDS, ...others].map((k) => `${(counts[k] ?? 0).toLocaleString('en-US')} ${k}`).join(', ');
}

function Communities(props: { run: ProjectRun; finished: boolean }) {
  const { run } = props;
  if (run.communities.length === 0) {
    return <p class="hint">{props.finished ? 'No per-community outcome was recorded (a file source reads a dump, not the communities).' : 'What each community gave shows once the run ends.'}</p>;
  }
  return (
    <table>
      <thead>
        <tr>
          <th>Community</th>
          <th>Source</th>
          <th>Outcome</th>
          <th>Threads</th>
          <th>Requests</th>
          <th>Details</th>
        </tr>
      </thead>
      <tbody>
        {run.communities.map((o) => (
          <CommunityRow outcome={o} />
        ))}
      </tbody>
    </table>
  );
}

function CommunityRow(props: { outcome: CommunityOutcome }) {
  const o = props.outcome;
  const notes = o.notes ?? [];
  return (
    <tr>
      <td class="mono">{o.community}</td>
      <td>{o.source ?? 'no source'}</td>
      <td>
        <span class={`status ${o.status}`}>{o.status}</span>
      </td>
      {/* Counted words, not bare numbers: on a phone the table's headings are hidden. */}
      <td>{count(o.threads, 'thread')}</td>
      <td>{count(o.requests, 'request')}</td>
      <td>
        {o.error !== undefined ? <p>{o.error}</p> : null}
        {notes.map((n) => (
          <p class="muted">{n}</p>
        ))}
      </td>
    </tr>
  );
}
