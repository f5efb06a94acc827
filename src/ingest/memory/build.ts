/**
 * Builds a project's memory from its site (DESIGN §8 "Project memory"): claim the build, fetch
 * the project URL (public addresses only, 1 MB, 10 s: net/fetch.ts), read the description and
 * category from the page (site.ts), and end in `ready` or `failed` with a reason a person can act
 * on. `signals project refresh` runs one build now; inside `signals serve`, startMemoryBuilder
 * builds new projects and refresh requests as they appear.
 */
import type { Logger } from '../../logger.ts';
import type { MemoryStatus } from '../../domain/resources.ts';
import { FetchError, fetchPublic, type FetchOptions } from '../../net/fetch.ts';
import type { Store } from '../../store/db.ts';
import { claimMemoryBuild, finishMemoryBuild, memoryBuildState, projectsNeedingMemory, type BuildOutcome } from '../../store/memory-builds.ts';
import { readSite } from './site.ts';
import type { Summarizer } from './summary.ts';
import { startTicker, type Ticker } from '../ticker.ts';

export interface MemoryBuildResult {
  id: string;
  memoryStatus: MemoryStatus;
  /** Why the build failed (memoryStatus `failed`), or why none ran (another process holds it). */
  error: string | null;
}

export interface BuildOptions {
  fetch?: Omit<FetchOptions, 'accept'>;
  /** The `llm` analyzer's summary of the page (when an LLM is configured). */
  summarize?: Summarizer;
  now?: () => Date;
}

/**
 * One build of a project's memory, if it is claimable (pending, refresh requested, or abandoned).
 * Returns the project's memory status afterwards; undefined when the project does not exist.
 */
export async function buildMemory(store: Store, projectId: string, options: BuildOptions = {}): Promise<MemoryBuildResult | undefined> {
  const now = options.now ?? (() => new Date());
  const startedAt = now().toISOString();
  if (await claimMemoryBuild(store.db, projectId, startedAt)) {
    const claimed = await memoryBuildState(store.db, projectId);
    if (!claimed) return undefined;
    const outcome = await readProjectSite(claimed.url, options.fetch, options.summarize && { summarize: options.summarize, projectName: claimed.name });
    // Stopped (the service is shutting down): the build stays claimed and is taken over once
    // stale, rather than recorded as a failure of the site.
    if (options.fetch?.signal?.aborted) return { id: projectId, memoryStatus: 'building', error: 'the build was stopped' };
    await finishMemoryBuild(store, projectId, startedAt, outcome, now().toISOString());
  }
  const state = await memoryBuildState(store.db, projectId);
  if (!state) return undefined;
  const error = state.memoryStatus === 'failed' ? state.error : state.memoryStatus === 'building' ? 'another process is building this memory now' : null;
  return { id: projectId, memoryStatus: state.memoryStatus, error };
}

/** Competitors the summary suggests are tracked with this description, so a user knows where they came from. */
export const SUGGESTED_COMPETITOR = 'Suggested by the LLM from the project site when the memory was built; remove it with memory.edit if it is not a competitor.';

/**
 * The site's facts, or why they could not be read. Never throws. With a summarizer, the model's
 * description and category win over the page's metadata, and its competitors with a home page
 * are suggested; without an answer from it, the metadata stands.
 */
export async function readProjectSite(url: string, fetchOptions: BuildOptions['fetch'] = {}, llm?: { summarize: Summarizer; projectName: string }): Promise<BuildOutcome> {
  try {
    const page = await fetchPublic(url, { ...fetchOptions, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' });
    if (page.status >= 400) return { status: 'failed', error: `${url} answered HTTP ${page.status}` };
    if (page.status < 200 || page.status >= 300) return { status: 'failed', error: `${url} answered HTTP ${page.status} without a page` };
    const type = String(page.headers['content-type'] ?? '');
    if (type !== '' && !/html/i.test(type)) return { status: 'failed', error: `${page.url} is not a web page (${type.split(';')[0]})` };
    const html = decode(page.body, type);
    const facts = readSite(html);
    const summary = llm ? await llm.summarize({ projectName: llm.projectName, url: page.url, html, facts }, fetchOptions.signal) : undefined;
    const description = summary?.description ?? facts.description ?? facts.name;
    if (description === undefined) return { status: 'failed', error: `${page.url} has no title, description or structured data to read` };
    const category = summary?.category ?? facts.category;
    const competitors = (summary?.competitors ?? []).flatMap((c) => (c.url === null ? [] : [{ name: c.name, url: c.url, description: SUGGESTED_COMPETITOR }]));
    return { status: 'ready', facts: { description, ...(category ? { category } : {}), ...(competitors.length > 0 ? { competitors } : {}) } };
  } catch (err) {
    if (err instanceof FetchError) return { status: 'failed', error: err.message };
    return { status: 'failed', error: `could not read ${url}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** The body as text in the charset the server names (UTF-8 when it names none or one we cannot decode). */
function decode(body: Buffer, contentType: string): string {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Projects built per pass: a burst of sign-ups waits a few passes, never blocks the process. */
const PER_TICK = 5;

/** Inside `signals serve`: builds pending memories and refresh requests every `tickMs`. */
export function startMemoryBuilder(options: { store: Store; logger: Logger; tickMs?: number; fetch?: BuildOptions['fetch']; summarize?: Summarizer }): Ticker {
  const log = options.logger.child({ component: 'memory-builder' });
  const abort = new AbortController();
  const pass = async () => {
    for (const id of await projectsNeedingMemory(options.store.db, new Date().toISOString(), PER_TICK)) {
      if (abort.signal.aborted) return;
      const result = await buildMemory(options.store, id, { fetch: { ...options.fetch, signal: abort.signal }, ...(options.summarize ? { summarize: options.summarize } : {}) });
      if (result?.memoryStatus === 'failed') log.warn({ projectId: id, reason: result.error }, 'project memory build failed');
      else if (result) log.info({ projectId: id, memoryStatus: result.memoryStatus }, 'project memory built');
    }
  };
  const ticker = startTicker(pass, options.tickMs ?? 5_000, (err) => log.error({ err }, 'memory builder pass failed'));
  return {
    tick: ticker.tick,
    async stop() {
      abort.abort(new Error('the service is shutting down'));
      await ticker.stop();
    },
  };
}
