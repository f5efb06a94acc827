/**
 * Stack Overflow and the other Stack Exchange sites through the Stack Exchange API 2.3
 * (DESIGN §8.1, `stackoverflow: tag, tag` and `stackexchange:SITE: tag, tag`).
 *
 * What it reads. For each tag, one `/questions` query sorted by activity, newest first, with
 * `min`/`max` set to the window (they apply to the sort field, `last_activity_date`): questions
 * asked, answered or edited in the window. One query per tag, because `tagged=a;b` means "both
 * tags". The questions found are deduplicated across tags, and each is then read whole: its
 * answers (`/questions/{ids}/answers`), the comments on the question (`/questions/{ids}/comments`)
 * and those on its answers (`/answers/{ids}/comments`), all with `filter=withbody`, each with its
 * own author, score and creation time. A question seen again brings its new answers; its older
 * ones are known signals and add nothing twice. Stack Exchange does not count a comment as
 * activity, so a comment on an otherwise quiet question is read when the question next moves.
 *
 * The thread: the question is the post (`se:SITE:ID`); answers (`a<id>`) and the question's
 * comments (`c<id>`) are its top-level comments; an answer's comments are replies to it.
 *
 * Cost per run (requests, each one unit of the daily quota):
 *   tags × question pages (1, at most MAX_PAGES while `has_more`)
 *   + ⌈questions with answers / 100⌉ × answer pages
 *   + ⌈questions / 100⌉ × question-comment pages
 *   + ⌈answers / 100⌉ × answer-comment pages
 * Typically tags + 3 (one tag, a quiet day: 4). Bounds: MAX_QUESTIONS per run (the most recently
 * active kept, with a note), MAX_PAGES per query (a note when reached), MAX_COMMENTS_PER_THREAD
 * per thread (nestComments, with a note).
 *
 * Politeness. The API allows 300 requests a day per IP without a key and 10,000 with one
 * (`STACKEXCHANGE_KEY`, sent as `key=` on every request), and at most 30 a second. Every answer is
 * the common wrapper `{items, has_more, quota_max, quota_remaining, backoff?, error_*?}`:
 * - `backoff` (seconds): no request to the API before it has passed (holdHost; a wait longer than
 *   a run waits fails the community, saying how long);
 * - `quota_remaining` 0: the next request would be refused, so the community stops with a `quota`
 *   failure saying when the quota resets (midnight UTC) and that a key raises it;
 * - an error wrapper (HTTP 400, or 200 from a proxy): `throttle_violation` is `rate-limited`,
 *   an unknown site is `not-found`, anything else a clear `http` failure, never retried blindly.
 * Requests are spaced MIN_INTERVAL_MS apart, well under the 30-a-second limit.
 */
import { SourceError } from '../../net/polite.ts';
import type { Collect } from './live.ts';
import type { SourceThread } from './source.ts';
import { authorName, finiteNumber, numericId, decodeEntities, htmlToText, isoFromSeconds, nestComments, postText, titleText, type FlatComment } from './thread.ts';

const PAGE_SIZE = 100;
/** Ids per vectorized call (the API's own limit). */
const IDS_PER_CALL = 100;
/** Pages read per query (questions of one tag, answers or comments of one batch of ids). */
const MAX_PAGES = 5;
const MAX_QUESTIONS = 100;
const MIN_INTERVAL_MS = 100;
/** A hundred long answers with code can be a few megabytes. */
const MAX_BYTES = 16_000_000;

interface Wrapper {
  items?: unknown;
  has_more?: unknown;
  quota_max?: unknown;
  quota_remaining?: unknown;
  backoff?: unknown;
  error_id?: unknown;
  error_name?: unknown;
  error_message?: unknown;
}

interface Owner {
  display_name?: unknown;
  user_type?: unknown;
}

interface Post {
  question_id?: unknown;
  answer_id?: unknown;
  comment_id?: unknown;
  post_id?: unknown;
  owner?: Owner;
  score?: unknown;
  creation_date?: unknown;
  last_activity_date?: unknown;
  answer_count?: unknown;
  link?: unknown;
  title?: unknown;
  body?: unknown;
}

export async function* collectStackExchange(collect: Collect, site: string, tags: readonly string[]): AsyncGenerator<SourceThread> {
  if (tags.length === 0) throw new SourceError('not-found', `${site}: no tags to read (name them, as stackoverflow: postgresql)`);
  const api = apiOf(collect, site);
  const window = { min: String(Math.floor(collect.after.getTime() / 1000)), max: String(Math.floor(collect.until.getTime() / 1000)) };

  // Questions active in the window, each once, the most recently active first.
  const questions = new Map<string, Post>();
  let capped = false;
  for (const tag of tags) {
    const found = await api.list('questions', { tagged: tag, sort: 'activity', order: 'desc', ...window }, `questions tagged [${tag}]`, MAX_QUESTIONS);
    capped ||= found.cut;
    for (const q of found.items) {
      const id = numericId(q.question_id);
      if (id !== undefined && !questions.has(id)) questions.set(id, q);
    }
  }
  let chosen = [...questions.values()].sort((a, b) => (finiteNumber(b.last_activity_date) ?? 0) - (finiteNumber(a.last_activity_date) ?? 0));
  if (chosen.length > MAX_QUESTIONS) {
    capped = true;
    chosen = chosen.slice(0, MAX_QUESTIONS);
  }
  if (capped) collect.note(`more than ${MAX_QUESTIONS} questions were active in the window; the ${MAX_QUESTIONS} most recently active were read`);
  const ids = chosen.map((q) => numericId(q.question_id)!);
  if (ids.length === 0) return;

  // Answers (only for questions that have some), then comments on questions and on answers.
  const flat = new Map<string, FlatComment[]>(ids.map((id) => [id, []]));
  const answered = chosen.filter((q) => typeof q.answer_count !== 'number' || q.answer_count > 0).map((q) => numericId(q.question_id)!);
  const questionOfAnswer = new Map<string, string>();
  for (const a of await api.byIds('questions', answered, 'answers')) {
    const aid = numericId(a.answer_id);
    const qid = numericId(a.question_id);
    const comment = aid !== undefined && qid !== undefined ? commentOf(a, `a${aid}`, null) : undefined;
    if (!comment || !flat.has(qid!) || questionOfAnswer.has(aid!)) continue;
    questionOfAnswer.set(aid!, qid!);
    flat.get(qid!)!.push(comment);
  }
  for (const c of await api.byIds('questions', ids, 'comments')) {
    const cid = numericId(c.comment_id);
    const qid = numericId(c.post_id);
    const comment = cid !== undefined ? commentOf(c, `c${cid}`, null) : undefined;
    if (comment && qid !== undefined && flat.has(qid)) flat.get(qid)!.push(comment);
  }
  for (const c of await api.byIds('answers', [...questionOfAnswer.keys()], 'comments')) {
    const cid = numericId(c.comment_id);
    const aid = numericId(c.post_id);
    const qid = aid === undefined ? undefined : questionOfAnswer.get(aid);
    const comment = cid !== undefined ? commentOf(c, `c${cid}`, `a${aid}`) : undefined;
    if (comment && qid !== undefined) flat.get(qid)!.push(comment);
  }

  let unusable = 0;
  for (const q of chosen) {
    const id = numericId(q.question_id)!;
    const thread = threadOf(q, site, flat.get(id)!, (n) => collect.note(`question ${id}: ${n} answers and comments past the per-thread bound were left out`));
    if (thread) yield thread;
    else unusable += 1;
  }
  if (unusable > 0) collect.note(`${unusable} questions came without a link or creation time and were left out`);
}

/** The API calls of one collection: the wrapper checked, backoff and quota obeyed, pages followed. */
function apiOf(collect: Collect, site: string) {
  const base = collect.settings.stackexchangeApiUrl;
  const host = new URL(base).host;
  const key = collect.settings.stackexchangeKey;
  let quota: { max: number; remaining: number } | undefined;
  let backoffMs = 0;

  const call = async (path: string, params: Record<string, string>, page: number): Promise<Wrapper & { items: Post[] }> => {
    if (quota !== undefined && quota.remaining <= 0) throw quotaSpent(host, quota.max, key !== undefined);
    if (backoffMs > 0) collect.http.holdHost(host, backoffMs, 'sent backoff');
    backoffMs = 0;
    const url = new URL(`${base}/2.3/${path}`);
    url.searchParams.set('site', site);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    url.searchParams.set('filter', 'withbody');
    url.searchParams.set('pagesize', String(PAGE_SIZE));
    url.searchParams.set('page', String(page));
    if (key !== undefined) url.searchParams.set('key', key);
    // The API answers its errors (400, 502 throttle_violation, …) with the error wrapper as the body.
    const { data } = await collect.http.json<Wrapper>(url.href, {
      operatorHost: true,
      maxBytes: MAX_BYTES,
      minIntervalMs: MIN_INTERVAL_MS,
      apiError: (_status, text) => {
        const wrapper = wrapperIn(text);
        return wrapper && apiError(host, site, wrapper, key !== undefined);
      },
    });
    if (typeof data !== 'object' || data === null) throw new SourceError('malformed', `${host} answered ${path} with something other than the API's wrapper object`);
    if (data.error_id !== undefined || data.error_name !== undefined) throw apiError(host, site, data, key !== undefined);
    if (!Array.isArray(data.items)) throw new SourceError('malformed', `${host} answered ${path} without "items"`);
    if (typeof data.quota_remaining === 'number') quota = { max: typeof data.quota_max === 'number' ? data.quota_max : 0, remaining: data.quota_remaining };
    if (typeof data.backoff === 'number' && data.backoff > 0) backoffMs = Math.ceil(data.backoff * 1000);
    collect.read(data.items.length);
    return { ...data, items: (data.items as unknown[]).filter((i): i is Post => typeof i === 'object' && i !== null) };
  };

  /**
   * Every page of one query while `has_more`, up to MAX_PAGES (noted) or until `limit` items
   * (`cut`: more were there).
   */
  const list = async (path: string, params: Record<string, string>, what: string, limit = Infinity): Promise<{ items: Post[]; cut: boolean }> => {
    const items: Post[] = [];
    for (let page = 1; ; page++) {
      const data = await call(path, params, page);
      items.push(...data.items);
      if (data.has_more !== true) return { items, cut: false };
      if (items.length >= limit) return { items, cut: true };
      if (page === MAX_PAGES) {
        collect.note(`${what}: more than ${MAX_PAGES} pages; the first ${MAX_PAGES} were read`);
        return { items, cut: false };
      }
    }
  };

  /** A vectorized call (`/questions/1;2;3/answers`) in batches of IDS_PER_CALL ids. */
  const byIds = async (kind: 'questions' | 'answers', ids: readonly string[], what: 'answers' | 'comments'): Promise<Post[]> => {
    const out: Post[] = [];
    for (let i = 0; i < ids.length; i += IDS_PER_CALL) {
      const batch = ids.slice(i, i + IDS_PER_CALL);
      const label = `${what} on ${batch.length} ${kind === 'questions' ? 'question' : 'answer'}${batch.length === 1 ? '' : 's'}`;
      out.push(...(await list(`${kind}/${batch.join(';')}/${what}`, {}, label)).items);
    }
    return out;
  };

  return { list, byIds };
}

/** An answer or comment as a flat comment; undefined without a creation time. */
function commentOf(post: Post, id: string, parentId: string | null): FlatComment | undefined {
  const createdAt = isoFromSeconds(post.creation_date);
  if (createdAt === undefined) return undefined;
  return {
    id,
    parentId,
    author: ownerName(post.owner),
    body: postText(htmlToText(typeof post.body === 'string' ? post.body : '')),
    score: typeof post.score === 'number' ? Math.trunc(post.score) : 0,
    createdAt,
  };
}

/** A question with its answers and comments as a stored thread; undefined without link or time. */
export function threadOf(q: Post, site: string, flat: readonly FlatComment[], onDropped: (n: number) => void): SourceThread | undefined {
  const id = numericId(q.question_id);
  const created = isoFromSeconds(q.creation_date);
  const link = urlOf(q.link);
  if (id === undefined || created === undefined || link === null) return undefined;
  const { comments, dropped } = nestComments(flat);
  if (dropped > 0) onDropped(dropped);
  return {
    id: `se:${site}:${id}`,
    url: link.href,
    permalink: `/${site}/questions/${id}`,
    community: site === 'stackoverflow' ? 'Stack Overflow' : link.host,
    title: titleText(decodeEntities(typeof q.title === 'string' ? q.title : '')),
    selftext: postText(htmlToText(typeof q.body === 'string' ? q.body : '')),
    author: ownerName(q.owner),
    score: typeof q.score === 'number' ? Math.trunc(q.score) : 0,
    postCreatedAt: created,
    comments,
  };
}

/** The owner's display name as shown (the API escapes entities); no owner is `[deleted]`. */
function ownerName(owner: Owner | undefined): string {
  const name = typeof owner?.display_name === 'string' ? decodeEntities(owner.display_name) : undefined;
  return authorName(name);
}

function quotaSpent(host: string, max: number, keyed: boolean): SourceError {
  const spent = `${host}: the daily request quota${max > 0 ? ` (${max})` : ''} ${keyed ? 'of STACKEXCHANGE_KEY' : 'for this IP'} is spent; it resets at midnight UTC`;
  return new SourceError('quota', keyed ? spent : `${spent}. Setting STACKEXCHANGE_KEY (a free app key from stackapps.com) raises it from 300 to 10,000 requests a day`);
}

/** The error wrapper an error answer's body holds, if it is one. */
function wrapperIn(text: string): Wrapper | undefined {
  try {
    const parsed = JSON.parse(text) as Wrapper;
    if (typeof parsed === 'object' && parsed !== null && (parsed.error_id !== undefined || parsed.error_name !== undefined)) return parsed;
  } catch {
    // Not the API's wrapper (a proxy's page, a truncated body): the client's own handling applies.
  }
  return undefined;
}

/** An API error wrapper as a failure a user can act on. */
function apiError(host: string, site: string, w: Wrapper, keyed: boolean): SourceError {
  const name = typeof w.error_name === 'string' ? w.error_name : 'error';
  const id = typeof w.error_id === 'number' ? w.error_id : undefined;
  const message = typeof w.error_message === 'string' ? w.error_message.trim() : '';
  const code = `${name}${id !== undefined ? ` (error ${id})` : ''}`;
  if (name === 'throttle_violation' || id === 502) {
    const wait = /available in (\d+) seconds/.exec(message)?.[1];
    const hours = wait === undefined ? '' : ` (about ${Math.max(1, Math.round(Number(wait) / 3600))} h)`;
    const hint = keyed ? '' : '; setting STACKEXCHANGE_KEY raises the daily quota from 300 to 10,000 requests';
    return new SourceError('rate-limited', `${host} refused to answer: ${code}${message ? `: ${message}` : ''}${hours}${hint}`);
  }
  if (name === 'bad_parameter' && (message === 'site' || /no site found/i.test(message))) return new SourceError('not-found', `${host} has no Stack Exchange site "${site}" (${code}); name it as the API does, as stackexchange:superuser: windows-11`);
  if (name === 'bad_parameter' && /^`?key\b/.test(message)) return new SourceError('http', `${host} refused STACKEXCHANGE_KEY (${code}); check the key, or unset it`);
  return new SourceError(id === 404 ? 'not-found' : 'http', `${host} refused the request: ${code}${message ? `: ${message}` : ''}`);
}

function urlOf(value: unknown): URL | null {
  if (typeof value !== 'string' || !/^https?:\/\//i.test(value)) return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
