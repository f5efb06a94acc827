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
import type { Child } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { memoryEdit } from '../../capabilities/memory-edit.ts';
import { ProjectBusyError, removeProject } from '../../auth/project-removal.ts';
import { EDIT_FIELDS, type Edit } from '../../domain/edits.ts';
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

const isOp = (op: string): op is Edit['op'] => Object.hasOwn(SECTION_OF, op);

interface Problem {
  section: Section;
  message: string;
  /** The form field the error is about, when memory.edit names one (`edits[0].url: …`). */
  field?: string;
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
    for (const field of EDIT_FIELDS[op]) draft[field] = str(post.form[field]);
    const edit = { op, ...draft } as Edit;
    try {
      await invokeEdit(post, edit);
    } catch (err) {
      if (!(err instanceof ServiceError) || err.code === 'internal') throw err;
      const status = err.code === 'limit' ? 409 : err.code === 'not_found' ? 404 : 400;
      const field = /^(?:input\.)?edits\[\d+\]\.(\w+):/.exec(err.message)?.[1];
      return page(c, post, { problem: { section: SECTION_OF[op], message: readable(err.message), draft, ...(field ? { field } : {}) } }, status);
    }
    return c.redirect(`${projectPath(post.project)}?saved=${SECTION_OF[op]}#${SECTION_OF[op]}`, 303);
  });

  const invokeEdit = (view: ProjectView, edit: Edit) => invokeFor(deps, view, memoryEdit, { edits: [edit] });

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
  // Each form posts to an address ending in its own section: when the answer is the page again
  // with an error, the browser scrolls to the form that has it.
  const action = (section: Section) => `${projectPath(view.project, '/memory')}#${section}`;
  const common = (section: Section) => ({ section, action: action(section), csrf, problem: problem(section), saved: state.saved === section });
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

      <TextEditor {...common('product')} title="Product" op="set_product" label="What the product does" text={draft('product', 'text', memory.description)} submit="Save product" />
      <TextEditor {...common('icp')} title="Ideal customer" op="set_icp" label="Who the product is for" text={draft('icp', 'text', memory.idealCustomer)} submit="Save ideal customer" />

      <ListEditor
        {...common('competitors')}
        title="Competitors"
        hint="Tracked competitors are always recognised in threads, and complaints about them get their own themes."
        empty="No competitors tracked yet."
        items={memory.competitors.map((comp) => ({
          key: comp.name,
          removeLabel: `Remove competitor ${comp.name}`,
          body: (
            <>
              <strong>{comp.name}</strong> <ExternalLink href={comp.url}>{comp.url}</ExternalLink>
              <div class="overflow">{comp.description}</div>
            </>
          ),
        }))}
        remove={{ op: 'remove_competitor', field: 'name' }}
        add={{ op: 'add_competitor', submit: 'Add competitor' }}
        fields={[
          { name: 'name', id: 'competitor-name', label: 'Name', max: LIMITS.name },
          { name: 'url', id: 'competitor-url', label: 'Website', max: LIMITS.url, type: 'url', placeholder: 'https://…' },
          { name: 'description', id: 'competitor-description', label: 'What it is', max: LIMITS.text },
        ]}
      />

      <ListEditor
        {...common('offerings')}
        title="Offerings"
        hint="What you sell. The brief proposes an offering beside a post that says what the offering is for, so describe the problem it solves in the words your customers use."
        empty="No offerings yet."
        items={memory.offerings.map((o) => ({
          key: o.name,
          removeLabel: `Remove offering ${o.name}`,
          body: (
            <>
              <strong>{o.name}</strong>
              <div class="overflow">{o.description}</div>
            </>
          ),
        }))}
        remove={{ op: 'remove_offering', field: 'name' }}
        add={{ op: 'add_offering', submit: 'Add offering' }}
        fields={[
          { name: 'name', id: 'offering-name', label: 'Name', max: LIMITS.name },
          { name: 'description', id: 'offering-description', label: 'What it does for the customer', max: LIMITS.text, placeholder: 'retries failed payouts so nobody files a ticket' },
        ]}
      />

      <ListEditor
        {...common('communities')}
        title="Watched communities"
        hint={`Every digest collects what is new in these (${memory.communities.length} of ${LIMITS.communities}).`}
        empty="No community watched yet: a digest needs at least one."
        items={memory.communities.map((community) => ({
          key: community.name,
          removeLabel: `Stop watching ${community.name}`,
          body: (
            <>
              <strong class="mono">{community.name}</strong>
              <div class="overflow">{community.description}</div>
            </>
          ),
        }))}
        remove={{ op: 'remove_community', field: 'name' }}
        add={{ op: 'add_community', submit: 'Watch community' }}
        fields={[
          { name: 'name', id: 'community-name', label: 'Address', max: LIMITS.name, placeholder: 'r/SaaS', help: <AddressHelp /> },
          { name: 'description', id: 'community-description', label: 'Why you watch it', max: LIMITS.text, placeholder: 'founders asking how to find customers' },
        ]}
      />

      <ListEditor
        {...common('filterRules')}
        title="Filter rules"
        hint="Rules steering what counts as a signal, e.g. “ignore job postings”."
        empty="No filter rules."
        items={memory.filterRules.map((rule) => ({ key: rule, removeLabel: `Remove rule ${rule}`, body: <span class="overflow">{rule}</span> }))}
        remove={{ op: 'remove_filter_rule', field: 'rule' }}
        add={{ op: 'add_filter_rule', submit: 'Add rule' }}
        fields={[{ name: 'rule', id: 'filter-rule', label: 'Rule', max: LIMITS.rule }]}
      />

      <h2 id="rename">Rename</h2>
      <section>
        <Saved show={state.saved === 'rename'} />
        <form method="post" action={`${projectPath(view.project, '/rename')}#rename`}>
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
          {/* No #delete on the action: a browser keeps an action's fragment on the redirect that
              follows (to the dashboard); a refused delete focuses its field instead. */}
          <CsrfField token={csrf} />
          <label for="delete-confirm">
            Type <strong>{memory.name}</strong> to confirm
          </label>
          <input id="delete-confirm" name="confirm" required autocomplete="off" maxlength={LIMITS.name + 10} value={draft('delete', 'confirm')} {...invalidIf(problem('delete'), 'delete-error')} {...(problem('delete') ? { autofocus: true } : {})} />
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

/** A text field of the memory (product, ideal customer): one `set_*` edit replaces it. */
function TextEditor(props: { section: Section; action: string; csrf: string; problem: Problem | undefined; saved: boolean; title: string; op: Edit['op']; label: string; text: string; submit: string }) {
  const id = `${props.section}-text`;
  const errorId = `${props.section}-error`;
  return (
    <>
      <h2 id={props.section}>{props.title}</h2>
      <section>
        <Saved show={props.saved} />
        <form method="post" action={props.action}>
          <CsrfField token={props.csrf} />
          <input type="hidden" name="op" value={props.op} />
          <label for={id}>{props.label}</label>
          <textarea id={id} name="text" maxlength={LIMITS.text} required {...invalidIf(props.problem, errorId)}>
            {props.text}
          </textarea>
          <FieldError id={errorId} problem={props.problem} />
          <button type="submit">{props.submit}</button>
        </form>
      </section>
    </>
  );
}

interface ListField {
  name: string;
  id: string;
  label: string;
  max: number;
  type?: 'url';
  placeholder?: string;
  /** Shown under the field (the community address syntax). */
  help?: Child;
}

/**
 * A list field of the memory (competitors, offerings, communities, filter rules): its entries,
 * each with a Remove button (one `remove_*` edit), and a form adding one (one `add_*` edit).
 */
function ListEditor(props: {
  section: Section;
  action: string;
  csrf: string;
  problem: Problem | undefined;
  saved: boolean;
  title: string;
  hint: string;
  empty: string;
  items: { key: string; removeLabel: string; body: Child }[];
  remove: { op: Edit['op']; field: string };
  add: { op: Edit['op']; submit: string };
  fields: ListField[];
}) {
  const errorId = `${props.section}-error`;
  return (
    <>
      <h2 id={props.section}>{props.title}</h2>
      <section>
        <Saved show={props.saved} />
        <p class="hint">{props.hint}</p>
        {props.items.length === 0 ? (
          <p class="muted">{props.empty}</p>
        ) : (
          <ul class="items">
            {props.items.map((item) => (
              <li>
                {item.body}
                <RemoveButton action={props.action} csrf={props.csrf} op={props.remove.op} field={props.remove.field} value={item.key} label={item.removeLabel} />
              </li>
            ))}
          </ul>
        )}
        <form method="post" action={props.action}>
          <CsrfField token={props.csrf} />
          <input type="hidden" name="op" value={props.add.op} />
          {props.fields.map((field, i) => {
            // The error goes under the field it is about (the first one when it names none).
            const here = props.problem !== undefined && (props.problem.field === field.name || (i === 0 && !props.fields.some((f) => f.name === props.problem?.field)));
            return (
            <>
              <label for={field.id}>{field.label}</label>
              <input
                id={field.id}
                name={field.name}
                {...(field.type ? { type: field.type } : {})}
                required
                maxlength={field.max}
                {...(field.placeholder ? { placeholder: field.placeholder } : {})}
                value={props.problem?.draft[field.name] ?? ''}
                {...(here ? invalidIf(props.problem, errorId) : {})}
              />
              {here ? <FieldError id={errorId} problem={props.problem} /> : null}
              {field.help ?? null}
            </>
            );
          })}
          <button type="submit">{props.add.submit}</button>
        </form>
      </section>
    </>
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
