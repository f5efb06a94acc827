/* The JSX runtime is named here, not only in tsconfig.json (see ../layout.tsx). */
/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * `/projects/:id` (DESIGN §9): the project's memory with an editor for every field, its memory
 * status with "Rebuild from site", rename and delete.
 *
 * Every memory change goes through the `memory.edit` capability (one edit per form), so the
 * page has the API's rules and errors: an error is shown next to the form that caused it, with
 * what was typed kept. A change that worked ends in a redirect (POST-redirect-GET).
 */
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { memoryEdit } from '../../capabilities/memory-edit.ts';
import { ProjectBusyError, removeProject } from '../../auth/project-removal.ts';
import type { Edit } from '../../domain/edits.ts';
import { ServiceError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { requestMemoryRefresh, memoryBuildState } from '../../store/memory-builds.ts';
import { renameProject } from '../../store/projects.ts';
import { lastCompleteWindowEnd } from '../../store/runs.ts';
import { CsrfField } from '../layout.tsx';
import { str } from '../pages.tsx';
import type { WebEnv } from '../security.ts';
import { dailyHour, ExternalLink, invokeFor, ProjectFrame, projectPage, projectPath, projectPost, renderPage, type ProjectPageDeps, type ProjectView } from './context.tsx';

/** The editor's forms; each posts one memory.edit operation (or a rename / delete). */
const SECTIONS = ['product', 'icp', 'competitors', 'offerings', 'communities', 'filterRules', 'rename', 'delete'] as const;
type Section = (typeof SECTIONS)[number];

/** Which form an operation belongs to, so its error shows there. */
const SECTION_OF: Record<Edit['op'], Section> = {
  set_product: 'product',
  set_icp: 'icp',
  add_competitor: 'competitors',
  remove_competitor: 'competitors',
  add_offering: 'offerings',
  remove_offering: 'offerings',
  add_community: 'communities',
  remove_community: 'communities',
  add_filter_rule: 'filterRules',
  remove_filter_rule: 'filterRules',
};

/** The fields each operation's form sends, by the names memory.edit takes. */
const FIELDS_OF: Record<Edit['op'], readonly string[]> = {
  set_product: ['text'],
  set_icp: ['text'],
  add_competitor: ['name', 'url', 'description'],
  remove_competitor: ['name'],
  add_offering: ['name', 'description'],
  remove_offering: ['name'],
  add_community: ['name', 'description'],
  remove_community: ['name'],
  add_filter_rule: ['rule'],
  remove_filter_rule: ['rule'],
};

const isOp = (op: string): op is Edit['op'] => Object.hasOwn(SECTION_OF, op);

interface Problem {
  section: Section;
  message: string;
  /** What the person typed, shown again in the form. */
  draft: Record<string, string>;
}

interface PageState {
  problem?: Problem;
  saved?: Section;
}


export function memoryRoutes(app: Hono<WebEnv>, deps: ProjectPageDeps): void {
  const { store } = deps;

  async function page(c: Context, view: ProjectView, state: PageState = {}, status: ContentfulStatusCode = 200) {
    const id = view.project.memory.id;
    const [build, lastRun] = await Promise.all([memoryBuildState(store.db, id), lastCompleteWindowEnd(store.db, id)]);
    const saved = state.saved ?? savedSection(c.req.query('saved'));
    return renderPage(
      c,
      <MemoryPage view={view} buildError={build?.error ?? null} hasRun={lastRun !== undefined} dailyHour={dailyHour(deps)} state={{ ...state, ...(saved ? { saved } : {}) }} />,
      status,
    );
  }

  app.get('/projects/:id', async (c) => {
    const view = await projectPage(c, deps);
    if (view instanceof Response) return view;
    return page(c, view);
  });

  app.post('/projects/:id/memory', async (c) => {
    const post = await projectPost(c, deps);
    if (post instanceof Response) return post;
    const op = str(post.form.op);
    if (!isOp(op)) return page(c, post, { problem: { section: 'product', message: 'This form is out of date: reload the page and try again.', draft: {} } }, 400);
    const draft: Record<string, string> = {};
    for (const field of FIELDS_OF[op]) draft[field] = str(post.form[field]);
    const edit = { op, ...draft } as Edit;
    try {
      await invokeEdit(post, edit);
    } catch (err) {
      if (!(err instanceof ServiceError) || err.code === 'internal') throw err;
      const status = err.code === 'limit' ? 409 : err.code === 'not_found' ? 404 : 400;
      return page(c, post, { problem: { section: SECTION_OF[op], message: readable(err.message), draft } }, status);
    }
    return c.redirect(`${projectPath(post.project)}?saved=${SECTION_OF[op]}#${SECTION_OF[op]}`, 303);
  });

  const invokeEdit = (view: ProjectView, edit: Edit) => invokeFor(store, view, memoryEdit, { edits: [edit] });

  const newName = z
    .string()
    .trim()
    .min(1, 'Give the project a name.')
    .max(LIMITS.name, `The name must be at most ${LIMITS.name} characters.`);

  app.post('/projects/:id/rename', async (c) => {
    const post = await projectPost(c, deps);
    if (post instanceof Response) return post;
    const given = str(post.form.name);
    const parsed = newName.safeParse(given);
    if (!parsed.success) return page(c, post, { problem: { section: 'rename', message: parsed.error.issues[0]?.message ?? 'Check the name.', draft: { name: given } } }, 400);
    if (parsed.data !== post.project.memory.name) await renameProject(store.db, post.project.memory.id, parsed.data);
    return c.redirect(`${projectPath(post.project)}?saved=rename#rename`, 303);
  });

  app.post('/projects/:id/refresh', async (c) => {
    const post = await projectPost(c, deps);
    if (post instanceof Response) return post;
    await requestMemoryRefresh(store.db, post.project.memory.id, new Date().toISOString());
    return c.redirect(projectPath(post.project), 303);
  });

  app.post('/projects/:id/delete', async (c) => {
    const post = await projectPost(c, deps);
    if (post instanceof Response) return post;
    const typed = str(post.form.confirm);
    // The name, as shown on the page: a slip of the finger on another project's page deletes nothing.
    if (typed.trim() !== post.project.memory.name.trim()) {
      return page(c, post, { problem: { section: 'delete', message: `Type the project's name, ${post.project.memory.name}, to delete it.`, draft: { confirm: typed } } }, 400);
    }
    try {
      await removeProject(store, post.who.userId, post.project.memory.id);
    } catch (err) {
      if (!(err instanceof ProjectBusyError)) throw err;
      return page(c, post, { problem: { section: 'delete', message: 'A digest run of this project is in progress. Delete the project when it has finished (see Runs).', draft: { confirm: typed } } }, 409);
    }
    return c.redirect('/dashboard?deleted=1', 303);
  });
}

function savedSection(value: string | undefined): Section | undefined {
  return SECTIONS.find((s) => s === value);
}

/** `input.edits[0].name: name must not be empty` → `Name must not be empty.` */
function readable(message: string): string {
  const bare = message.replace(/^(input\.)?edits\[\d+\](\.\w+)?:\s*/, '');
  const sentence = bare.charAt(0).toUpperCase() + bare.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

// --- the page ----------------------------------------------------------------------------------

function MemoryPage(props: { view: ProjectView; buildError: string | null; hasRun: boolean; dailyHour: string; state: PageState }) {
  const { view, state } = props;
  const memory = view.project.memory;
  const csrf = view.who.csrf;
  const working = memory.memoryStatus === 'pending' || memory.memoryStatus === 'building';
  const problem = (section: Section) => (state.problem?.section === section ? state.problem : undefined);
  const draft = (section: Section, field: string, fallback = '') => problem(section)?.draft[field] ?? fallback;
  const action = projectPath(view.project, '/memory');
  return (
    <ProjectFrame view={view} tab="memory" refreshSeconds={working ? 5 : undefined}>
      <NextSteps view={view} hasRun={props.hasRun} dailyHour={props.dailyHour} />

      <h2 id="status">Memory</h2>
      <section>
        <p>
          <span class={`status ${memory.memoryStatus}`}>{memory.memoryStatus}</span> <StatusNote status={memory.memoryStatus} url={memory.url} error={props.buildError} />
        </p>
        {memory.category ? (
          <p>
            <strong>Category:</strong> {memory.category}
          </p>
        ) : null}
        {working ? null : (
          <form method="post" action={projectPath(view.project, '/refresh')}>
            <CsrfField token={csrf} />
            <button type="submit" class="secondary">
              Rebuild from site
            </button>
            <p class="hint">Reads {memory.url} again. Fields you edited here are kept.</p>
          </form>
        )}
      </section>

      <h2 id="product">Product</h2>
      <section>
        <Saved show={state.saved === 'product'} />
        <form method="post" action={action}>
          <CsrfField token={csrf} />
          <input type="hidden" name="op" value="set_product" />
          <label for="product-text">What the product does</label>
          <textarea id="product-text" name="text" maxlength={LIMITS.text} required {...invalidIf(problem('product'), 'product-error')}>
            {draft('product', 'text', memory.description)}
          </textarea>
          <FieldError id="product-error" problem={problem('product')} />
          <button type="submit">Save product</button>
        </form>
      </section>

      <h2 id="icp">Ideal customer</h2>
      <section>
        <Saved show={state.saved === 'icp'} />
        <form method="post" action={action}>
          <CsrfField token={csrf} />
          <input type="hidden" name="op" value="set_icp" />
          <label for="icp-text">Who the product is for</label>
          <textarea id="icp-text" name="text" maxlength={LIMITS.text} required {...invalidIf(problem('icp'), 'icp-error')}>
            {draft('icp', 'text', memory.idealCustomer)}
          </textarea>
          <FieldError id="icp-error" problem={problem('icp')} />
          <button type="submit">Save ideal customer</button>
        </form>
      </section>

      <h2 id="competitors">Competitors</h2>
      <section>
        <Saved show={state.saved === 'competitors'} />
        <p class="hint">Tracked competitors are always recognised in threads, and complaints about them get their own themes.</p>
        {memory.competitors.length === 0 ? (
          <p class="muted">No competitors tracked yet.</p>
        ) : (
          <ul class="items">
            {memory.competitors.map((comp) => (
              <li>
                <strong>{comp.name}</strong> <ExternalLink href={comp.url}>{comp.url}</ExternalLink>
                <div class="overflow">{comp.description}</div>
                <RemoveButton action={action} csrf={csrf} op="remove_competitor" field="name" value={comp.name} label={`Remove competitor ${comp.name}`} />
              </li>
            ))}
          </ul>
        )}
        <form method="post" action={action}>
          <CsrfField token={csrf} />
          <input type="hidden" name="op" value="add_competitor" />
          <label for="competitor-name">Name</label>
          <input id="competitor-name" name="name" required maxlength={LIMITS.name} value={draft('competitors', 'name')} {...invalidIf(problem('competitors'), 'competitors-error')} />
          <label for="competitor-url">Website</label>
          <input id="competitor-url" name="url" type="url" required maxlength={LIMITS.url} placeholder="https://…" value={draft('competitors', 'url')} />
          <label for="competitor-description">What it is</label>
          <input id="competitor-description" name="description" required maxlength={LIMITS.text} value={draft('competitors', 'description')} />
          <FieldError id="competitors-error" problem={problem('competitors')} />
          <button type="submit">Add competitor</button>
        </form>
      </section>

      <h2 id="offerings">Offerings</h2>
      <section>
        <Saved show={state.saved === 'offerings'} />
        <p class="hint">What you sell: a pain one of them answers becomes an “offer” item in the brief.</p>
        {memory.offerings.length === 0 ? (
          <p class="muted">No offerings yet.</p>
        ) : (
          <ul class="items">
            {memory.offerings.map((o) => (
              <li>
                <strong>{o.name}</strong>
                <div class="overflow">{o.description}</div>
                <RemoveButton action={action} csrf={csrf} op="remove_offering" field="name" value={o.name} label={`Remove offering ${o.name}`} />
              </li>
            ))}
          </ul>
        )}
        <form method="post" action={action}>
          <CsrfField token={csrf} />
          <input type="hidden" name="op" value="add_offering" />
          <label for="offering-name">Name</label>
          <input id="offering-name" name="name" required maxlength={LIMITS.name} value={draft('offerings', 'name')} {...invalidIf(problem('offerings'), 'offerings-error')} />
          <label for="offering-description">What it does for the customer</label>
          <input id="offering-description" name="description" required maxlength={LIMITS.text} value={draft('offerings', 'description')} />
          <FieldError id="offerings-error" problem={problem('offerings')} />
          <button type="submit">Add offering</button>
        </form>
      </section>

      <h2 id="communities">Watched communities</h2>
      <section>
        <Saved show={state.saved === 'communities'} />
        <p class="hint">
          Every digest collects what is new in these ({memory.communities.length} of {LIMITS.communities}).
        </p>
        {memory.communities.length === 0 ? (
          <p class="muted">No community watched yet: a digest needs at least one.</p>
        ) : (
          <ul class="items">
            {memory.communities.map((community) => (
              <li>
                <strong class="mono">{community.name}</strong>
                <div class="overflow">{community.description}</div>
                <RemoveButton action={action} csrf={csrf} op="remove_community" field="name" value={community.name} label={`Stop watching ${community.name}`} />
              </li>
            ))}
          </ul>
        )}
        <form method="post" action={action}>
          <CsrfField token={csrf} />
          <input type="hidden" name="op" value="add_community" />
          <label for="community-name">Address</label>
          <input id="community-name" name="name" required maxlength={LIMITS.name} placeholder="r/SaaS" value={draft('communities', 'name')} {...invalidIf(problem('communities'), 'communities-error')} />
          <AddressHelp />
          <label for="community-description">Why you watch it</label>
          <input id="community-description" name="description" required maxlength={LIMITS.text} placeholder="founders asking how to find customers" value={draft('communities', 'description')} />
          <FieldError id="communities-error" problem={problem('communities')} />
          <button type="submit">Watch community</button>
        </form>
      </section>

      <h2 id="filterRules">Filter rules</h2>
      <section>
        <Saved show={state.saved === 'filterRules'} />
        <p class="hint">Rules steering what counts as a signal, e.g. “ignore job postings”.</p>
        {memory.filterRules.length === 0 ? (
          <p class="muted">No filter rules.</p>
        ) : (
          <ul class="items">
            {memory.filterRules.map((rule) => (
              <li>
                <span class="overflow">{rule}</span>
                <RemoveButton action={action} csrf={csrf} op="remove_filter_rule" field="rule" value={rule} label={`Remove rule ${rule}`} />
              </li>
            ))}
          </ul>
        )}
        <form method="post" action={action}>
          <CsrfField token={csrf} />
          <input type="hidden" name="op" value="add_filter_rule" />
          <label for="filter-rule">Rule</label>
          <input id="filter-rule" name="rule" required maxlength={LIMITS.rule} value={draft('filterRules', 'rule')} {...invalidIf(problem('filterRules'), 'filterRules-error')} />
          <FieldError id="filterRules-error" problem={problem('filterRules')} />
          <button type="submit">Add rule</button>
        </form>
      </section>

      <h2 id="rename">Rename</h2>
      <section>
        <Saved show={state.saved === 'rename'} />
        <form method="post" action={projectPath(view.project, '/rename')}>
          <CsrfField token={csrf} />
          <label for="project-name">Project name</label>
          <input id="project-name" name="name" required maxlength={LIMITS.name} value={draft('rename', 'name', memory.name)} {...invalidIf(problem('rename'), 'rename-error')} />
          <FieldError id="rename-error" problem={problem('rename')} />
          <button type="submit">Rename</button>
        </form>
      </section>

      <h2 id="delete">Delete</h2>
      <section>
        <p>
          Deletes the project with everything it found: posts, signals, themes, briefs and runs. API keys and connected apps limited to this project
          are revoked. This cannot be undone.
        </p>
        <form method="post" action={projectPath(view.project, '/delete')}>
          <CsrfField token={csrf} />
          <label for="delete-confirm">
            Type <strong>{memory.name}</strong> to confirm
          </label>
          <input id="delete-confirm" name="confirm" required autocomplete="off" maxlength={LIMITS.name + 10} value={draft('delete', 'confirm')} {...invalidIf(problem('delete'), 'delete-error')} />
          <FieldError id="delete-error" problem={problem('delete')} />
          <button type="submit" class="destructive">
            Delete project
          </button>
        </form>
      </section>
    </ProjectFrame>
  );
}

/** What a new project waits for, in the order it happens. */
function NextSteps(props: { view: ProjectView; hasRun: boolean; dailyHour: string }) {
  const memory = props.view.project.memory;
  if (props.hasRun) return null;
  const runs = projectPath(props.view.project, '/runs');
  return (
    <section class="notice" aria-label="Next steps">
      <p>
        <strong>Getting started</strong>
      </p>
      <ol>
        <li>
          {memory.memoryStatus === 'ready' ? 'Your memory was built from your site: check it below.' : memory.memoryStatus === 'failed' ? 'Your site could not be read: fill in the memory below yourself.' : `Your memory is being built from ${memory.url}: this page updates by itself.`}
        </li>
        <li>{memory.communities.length === 0 ? <a href="#communities">Add the communities to watch</a> : `Watching ${memory.communities.length} ${memory.communities.length === 1 ? 'community' : 'communities'}.`}</li>
        <li>
          The daily digest runs at {props.dailyHour} — or <a href={runs}>run it now</a>. Its brief appears under Briefs.
        </li>
      </ol>
    </section>
  );
}

function StatusNote(props: { status: string; url: string; error: string | null }) {
  switch (props.status) {
    case 'pending':
    case 'building':
      return <span>Reading {props.url} to fill in the product, category and competitors. This takes a few seconds.</span>;
    case 'failed':
      return <span>Could not read {props.url}{props.error ? `: ${props.error}` : ''}. Fill in the fields yourself or rebuild.</span>;
    default:
      return <span>Built from {props.url}.</span>;
  }
}

function AddressHelp() {
  return (
    <div class="hint">
      <p>An address names the community and where it is read:</p>
      <ul>
        <li>
          <code>r/NAME</code> a subreddit
        </li>
        <li>
          <code>hn: term, term</code> Hacker News stories and comments mentioning the terms (<code>hn</code> alone: your product and competitors)
        </li>
        <li>
          <code>stackoverflow: tag, tag</code> or <code>stackexchange:SITE: tag</code> Stack Exchange questions
        </li>
        <li>
          <code>github: owner/repo</code> a repository's issues
        </li>
        <li>
          <code>discourse: https://forum.example.com</code> a public Discourse forum
        </li>
      </ul>
    </div>
  );
}

function Saved(props: { show: boolean }) {
  return props.show ? (
    <p class="notice" role="status">
      Saved.
    </p>
  ) : null;
}

function FieldError(props: { id: string; problem: Problem | undefined }) {
  return props.problem ? (
    <p class="field-error" id={props.id} role="alert">
      {props.problem.message}
    </p>
  ) : null;
}

function invalidIf(problem: Problem | undefined, errorId: string): Record<string, string> {
  return problem ? { 'aria-invalid': 'true', 'aria-describedby': errorId } : {};
}

function RemoveButton(props: { action: string; csrf: string; op: Edit['op']; field: string; value: string; label: string }) {
  return (
    <form method="post" action={props.action} class="inline">
      <CsrfField token={props.csrf} />
      <input type="hidden" name="op" value={props.op} />
      <input type="hidden" name={props.field} value={props.value} />
      <button type="submit" class="danger" aria-label={props.label}>
        Remove
      </button>
    </form>
  );
}
