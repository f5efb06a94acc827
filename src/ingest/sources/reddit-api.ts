/**
 * Reddit through its Data API (DESIGN §8.1, `r/NAME` when REDDIT_CLIENT_ID and
 * REDDIT_CLIENT_SECRET are set; without them `reddit-rss` reads the feeds instead).
 *
 * What it reads. An approved app signs in app-only (OAuth client credentials: `POST
 * {REDDIT_URL}/api/v1/access_token`), then, at REDDIT_API_URL with the bearer token:
 * - the project's subreddits as one multireddit, newest first (`/r/a+b/new?limit=100`), paging
 *   with `after=t3_…` while the page's oldest post is still inside the window; posts created in
 *   the window are kept (the listing has no time filter, so newer posts are skipped, not asked
 *   away);
 * - each kept post that has comments, whole (`/comments/ID?limit=500&depth=10&sort=old`): the
 *   nested tree, each comment with its own author, time and score; the `more` stubs of a large
 *   thread are expanded with `/api/morechildren` (100 ids a call), up to a bound per thread.
 * Bodies are Reddit's Markdown (`raw_json=1`: no legacy `&amp;` escaping) with entities decoded,
 * since Markdown renders them (the rich-text editor writes `&#x200B;` and `&nbsp;`); HTML a
 * person typed stays as typed, which is what Reddit shows. Ids are Reddit's own without the
 * `t3_`/`t1_` prefix, the same as the `file:` source's, so a backfill and a live run agree.
 *
 * Cost per run: 1 token request + P listing pages (1 ≤ P ≤ MAX_LISTING_PAGES) + one comments
 * request per post in the window that has comments (at most MAX_POSTS) + M `morechildren` calls
 * (at most MAX_MORE_CALLS_PER_THREAD per thread and MAX_MORE_CALLS_PER_RUN in all), + 1 token and
 * 1 repeat per 401 (an expired token). At most 1 + 5 + 100 + 100 = 206 requests.
 *
 * Politeness. Reddit allows 100 requests a minute per client and says how much is left in
 * `X-Ratelimit-Remaining` / `-Used` / `-Reset` (seconds until the window resets) on every answer:
 * when nothing remains, the API host is held until the reset, so the next request waits (or, when
 * the reset is longer than a run waits, the run stops there with what it has). A 429 without
 * `Retry-After` waits for that reset too. Every request sends the User-Agent Reddit requires,
 * `<platform>:<app id>:<version> (by /u/<name>)`: REDDIT_USER_AGENT, else one naming this service.
 *
 * Failures. Bad credentials, a private/quarantined (403) or missing/banned (404) subreddit, a
 * malformed listing, a spent rate budget: the whole multireddit fails (one unit for all of a
 * project's subreddits), with a message saying which. A post whose comments cannot be read (5xx
 * after retries, a timeout, a malformed or truncated answer, a post deleted meanwhile) is still
 * handed out with the comments that were read, and the run notes it: failing the whole
 * multireddit for one thread would throw away every other thread of the run. (The cursor still
 * moves past that post, so its missing comments are not asked again; the note says which post.)
 */
import { USER_AGENT } from '../../net/fetch.ts';
import { headerText, SourceError, type PoliteResponse } from '../../net/polite.ts';
import type { Collect } from './live.ts';
import type { SourceThread } from './source.ts';
import { authorName, finiteNumber, decodeEntities, isoFromSeconds, nestComments, postText, titleText, type FlatComment } from './thread.ts';

const PAGE_SIZE = 100;
const MAX_LISTING_PAGES = 5;
const MAX_POSTS = 100;
const MORE_IDS_PER_CALL = 100;
const MAX_MORE_CALLS_PER_THREAD = 5;
const MAX_MORE_CALLS_PER_RUN = 100;
/** 500 comments with their Markdown and Reddit's many fields are a few megabytes. */
const COMMENTS_MAX_BYTES = 16_000_000;
const VERSION = USER_AGENT.slice(USER_AGENT.indexOf('/') + 1);
const DEFAULT_USER_AGENT = `server:project-signals-service:${VERSION} (by /u/unknown)`;
const ID = /^[a-z0-9]{1,12}$/i;

/** A Reddit "thing": `{kind: "t3" | "t1" | "more" | "Listing", data}`. */
interface Thing {
  kind?: unknown;
  data?: Record<string, unknown>;
}

interface Post {
  id: string;
  subreddit: string;
  title: string;
  selftext: string;
  author: string;
  score: number;
  created: number;
  permalink: string;
  numComments: number;
}

export async function* collectRedditApi(collect: Collect, subreddits: readonly string[]): AsyncGenerator<SourceThread> {
  const names = [...new Map(subreddits.map((s) => [s.toLowerCase(), s])).values()];
  if (names.length === 0) return;
  const reddit = new RedditApi(collect);
  const multi = names.join('+');
  const after = collect.after.getTime() / 1000;
  const until = collect.until.getTime() / 1000;

  // The window's posts, newest first.
  const posts: Post[] = [];
  const seen = new Set<string>();
  let capped = false;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LISTING_PAGES; page++) {
    const listing = await reddit.api(`/r/${multi}/new?limit=${PAGE_SIZE}&raw_json=1${cursor ? `&after=${cursor}` : ''}`, (err) => listingFailure(err, multi));
    const children = childrenOf(listing, `the listing of r/${multi}`);
    collect.read(children.length);
    let oldest = Infinity;
    for (const child of children) {
      if (child.kind !== 't3') continue;
      const post = postOf(child.data);
      oldest = Math.min(oldest, post.created);
      if (post.created <= after || post.created > until || seen.has(post.id)) continue;
      seen.add(post.id);
      if (posts.length >= MAX_POSTS) capped = true;
      else posts.push(post);
    }
    const next = (listing as Thing).data?.after;
    if (capped || oldest <= after || typeof next !== 'string' || !/^t3_[a-z0-9]{1,12}$/i.test(next)) break;
    if (page + 1 === MAX_LISTING_PAGES) collect.note(`r/${multi}: ${MAX_LISTING_PAGES} listing pages did not reach the window's start; older posts in the window were not read`);
    cursor = next;
  }
  if (capped) collect.note(`r/${multi}: more than ${MAX_POSTS} posts in the window; the ${MAX_POSTS} newest were read`);

  let deepStubs = 0;
  for (const post of posts) {
    const comments = post.numComments > 0 ? await readComments(reddit, post, collect) : { flat: [], deep: 0 };
    deepStubs += comments.deep;
    const { comments: tree, dropped } = nestComments(comments.flat);
    if (dropped > 0) collect.note(`post ${post.id}: ${dropped} comments past the per-thread bound were left out`);
    yield threadOf(post, tree);
  }
  if (deepStubs > 0) collect.note(`${deepStubs} reply chains deeper than 10 levels ("continue this thread") were not read`);
  if (reddit.moreCalls >= MAX_MORE_CALLS_PER_RUN) collect.note(`the run's bound of ${MAX_MORE_CALLS_PER_RUN} "load more comments" expansions was reached; later threads have only their first comments`);
}

/**
 * One post's comments, flat with parent links: the tree of `/comments/ID`, then its `more` stubs
 * expanded. A failure that concerns this post only keeps what was read and notes it; one that
 * will stop every later request too (credentials, rate budget, a block, the request budget) fails
 * the collection.
 */
async function readComments(reddit: RedditApi, post: Post, collect: Collect): Promise<{ flat: FlatComment[]; deep: number }> {
  const byId = new Map<string, FlatComment>();
  const queue: string[] = [];
  const queued = new Set<string>();
  let deep = 0;
  const walk = (things: Thing[]) => {
    for (const thing of things) {
      const data = thing?.data;
      if (typeof data !== 'object' || data === null) continue;
      if (thing.kind === 't1') {
        const comment = commentOf(data);
        if (comment && !byId.has(comment.id)) byId.set(comment.id, comment);
        const replies = data.replies as Thing | undefined;
        if (typeof replies === 'object' && replies !== null && Array.isArray(replies.data?.children)) walk(replies.data.children as Thing[]);
      } else if (thing.kind === 'more') {
        const ids = Array.isArray(data.children) ? data.children.filter((c): c is string => typeof c === 'string' && ID.test(c)) : [];
        // A "continue this thread" stub (id `_`, no children) needs a request per chain: not read.
        if (ids.length === 0) deep += 1;
        for (const id of ids) {
          if (queued.has(id) || byId.has(id)) continue;
          queued.add(id);
          queue.push(id);
        }
      }
    }
  };
  try {
    const answer = await reddit.api(`/comments/${post.id}?limit=500&depth=10&sort=old&raw_json=1`, undefined, COMMENTS_MAX_BYTES);
    if (!Array.isArray(answer) || answer.length < 2) throw new SourceError('malformed', `the comments answer for post ${post.id} is not [post, comments] listings`);
    const things = childrenOf(answer[1], `the comments of post ${post.id}`);
    collect.read(things.length);
    walk(things);
    let calls = 0;
    while (queue.length > 0 && calls < MAX_MORE_CALLS_PER_THREAD && reddit.moreCalls < MAX_MORE_CALLS_PER_RUN) {
      const batch = queue.splice(0, MORE_IDS_PER_CALL);
      calls += 1;
      reddit.moreCalls += 1;
      const more = (await reddit.api(`/api/morechildren?api_type=json&link_id=t3_${post.id}&children=${batch.join(',')}&raw_json=1`, undefined, COMMENTS_MAX_BYTES)) as { json?: { errors?: unknown; data?: { things?: unknown } } };
      const errors = more?.json?.errors;
      if (Array.isArray(errors) && errors.length > 0) throw new SourceError('malformed', `Reddit refused to expand more comments of post ${post.id}: ${JSON.stringify(errors).slice(0, 160)}`);
      const found = more?.json?.data?.things;
      if (!Array.isArray(found)) throw new SourceError('malformed', `the "more comments" answer for post ${post.id} has no things`);
      collect.read(found.length);
      walk(found as Thing[]);
    }
    const left = queue.filter((id) => !byId.has(id)).length;
    if (left > 0 && calls >= MAX_MORE_CALLS_PER_THREAD) collect.note(`post ${post.id}: ${left} comments behind "load more comments" were not read (at most ${MAX_MORE_CALLS_PER_THREAD} expansions per thread)`);
  } catch (err) {
    if (!(err instanceof SourceError) || err instanceof RefusedError || STOPS_ALL.has(err.reason)) throw err;
    collect.note(`post ${post.id}: its comments could not all be read (${err.message}); kept with the ${byId.size} that were`);
  }
  return { flat: [...byId.values()], deep };
}

/** Failures that every later request would meet too. */
const STOPS_ALL = new Set<string>(['rate-limited', 'budget', 'blocked', 'quota', 'address']);

/** Reddit said no to the credentials or the token: nothing more can be read this run. */
class RefusedError extends SourceError {}

/** The app's session: its token, the User-Agent, and Reddit's rate budget. */
class RedditApi {
  moreCalls = 0;
  private token: string | undefined;
  /** A rate-budget wait longer than a run sits out: the next request fails with it. */
  private held: SourceError | undefined;
  private readonly userAgent: string;

  constructor(private readonly collect: Collect) {
    this.userAgent = collect.settings.redditUserAgent ?? DEFAULT_USER_AGENT;
  }

  /** A GET at REDDIT_API_URL, with a new token and one repeat after a 401 (the token expired). */
  async api(path: string, failure?: (err: SourceError) => SourceError, maxBytes?: number): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      if (this.held) throw this.held;
      this.token ??= await this.newToken();
      try {
        const { data, response } = await this.collect.http.json(`${this.collect.settings.redditApiUrl}${path}`, {
          operatorHost: true,
          maxBytes,
          headers: { 'user-agent': this.userAgent, authorization: `bearer ${this.token}` },
          // A 429 without Retry-After: wait for the rate window to reset.
          waitHint: (headers) => {
            const reset = secondsOf(headers['x-ratelimit-reset']);
            return reset !== undefined && reset > 0 ? reset * 1000 : undefined;
          },
        });
        this.spend(response);
        return data;
      } catch (err) {
        if (!(err instanceof SourceError)) throw err;
        if (statusOf(err) === 401) {
          this.token = undefined;
          if (attempt === 0) continue;
          throw new RefusedError('http', `Reddit refused the app's access token twice (401); check the app's credentials (REDDIT_CLIENT_ID/SECRET) and that it is still approved`);
        }
        throw failure ? failure(err) : err;
      }
    }
  }

  private async newToken(): Promise<string> {
    const { redditUrl, redditClientId, redditClientSecret } = this.collect.settings;
    const refused = (what: string) =>
      new RefusedError('http', `Reddit refused the app credentials (REDDIT_CLIENT_ID/SECRET): the token request ${what}. Check the app's id and secret at https://www.reddit.com/prefs/apps (a "script" or "web app"; an "installed app" has no secret)`);
    let data: { access_token?: unknown; token_type?: unknown; error?: unknown };
    try {
      ({ data } = await this.collect.http.json<typeof data>(`${redditUrl}/api/v1/access_token`, {
        operatorHost: true,
        method: 'POST',
        headers: {
          'user-agent': this.userAgent,
          authorization: `Basic ${Buffer.from(`${redditClientId ?? ''}:${redditClientSecret ?? ''}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      }));
    } catch (err) {
      const status = err instanceof SourceError ? statusOf(err) : undefined;
      if (status === 401 || status === 403) throw refused(`answered ${status}`);
      throw err;
    }
    if (typeof data !== 'object' || data === null) throw new SourceError('malformed', 'the Reddit token answer is not a JSON object');
    // `{"error": "invalid_grant"}` comes with status 200.
    if (data.error !== undefined) throw refused(`answered "${String(data.error).slice(0, 40)}"`);
    if (typeof data.access_token !== 'string' || data.access_token === '' || String(data.token_type).toLowerCase() !== 'bearer') {
      throw new SourceError('malformed', 'the Reddit token answer has no bearer access_token');
    }
    return data.access_token;
  }

  /** Reads Reddit's rate headers: when nothing remains, the host waits until the window resets. */
  private spend(response: PoliteResponse): void {
    const remaining = secondsOf(response.headers['x-ratelimit-remaining']);
    const reset = secondsOf(response.headers['x-ratelimit-reset']);
    if (remaining === undefined || reset === undefined || remaining >= 1) return;
    const used = secondsOf(response.headers['x-ratelimit-used']);
    try {
      this.collect.http.holdHost(new URL(response.url).host, reset * 1000, `rate budget spent${used !== undefined ? ` (${used} requests used)` : ''}`);
    } catch (err) {
      if (err instanceof SourceError) this.held = err;
      else throw err;
    }
  }
}

function listingFailure(err: SourceError, multi: string): SourceError {
  const reason = /"reason"\s*:\s*"([a-z_]+)"/i.exec(err.message)?.[1];
  if (statusOf(err) === 403) {
    return new SourceError('http', `Reddit refused to list r/${multi} (403${reason ? ` ${reason}` : ''}): a private or quarantined subreddit is among them; remove it from the watched communities`);
  }
  if (err.reason === 'not-found') return new SourceError('not-found', `Reddit has no listing for r/${multi} (404${reason ? ` ${reason}` : ''}): a subreddit among them does not exist or was banned`);
  return err;
}

/** The HTTP status of a failed answer; undefined for what never became one (timeouts, blocks). */
function statusOf(err: SourceError): number | undefined {
  return err.status;
}

function childrenOf(listing: unknown, what: string): Thing[] {
  const thing = listing as Thing;
  if (typeof thing !== 'object' || thing === null || thing.kind !== 'Listing' || !Array.isArray(thing.data?.children)) {
    throw new SourceError('malformed', `${what} is not a Reddit Listing`);
  }
  return thing.data.children as Thing[];
}

function postOf(data: Record<string, unknown> | undefined): Post {
  const id = typeof data?.id === 'string' && ID.test(data.id) ? data.id : undefined;
  const created = finiteNumber(data?.created_utc);
  const subreddit = typeof data?.subreddit === 'string' ? data.subreddit : '';
  if (!data || id === undefined || created === undefined || subreddit === '') throw new SourceError('malformed', 'the listing has a post without id, subreddit or created_utc');
  const permalink = typeof data.permalink === 'string' && data.permalink.startsWith('/') ? data.permalink : `/r/${subreddit}/comments/${id}/`;
  return {
    id,
    subreddit,
    title: typeof data.title === 'string' ? data.title : '',
    selftext: typeof data.selftext === 'string' ? data.selftext : '',
    author: authorName(data.author),
    score: Math.trunc(finiteNumber(data.score) ?? 0),
    created,
    permalink,
    numComments: finiteNumber(data.num_comments) ?? 1,
  };
}

/** A `t1` as a flat comment; undefined when it has no id or time. */
function commentOf(data: Record<string, unknown>): FlatComment | undefined {
  const id = typeof data.id === 'string' && ID.test(data.id) ? data.id : undefined;
  const createdAt = isoFromSeconds(data.created_utc);
  if (id === undefined || createdAt === undefined) return undefined;
  const parent = typeof data.parent_id === 'string' && data.parent_id.startsWith('t1_') ? data.parent_id.slice(3) : null;
  return {
    id,
    parentId: parent,
    author: authorName(data.author),
    // '[deleted]' and '[removed]' bodies are kept as Reddit shows them.
    body: postText(decodeEntities(typeof data.body === 'string' ? data.body : '')),
    score: Math.trunc(finiteNumber(data.score) ?? 0),
    createdAt,
  };
}

function threadOf(post: Post, comments: SourceThread['comments']): SourceThread {
  return {
    id: post.id,
    url: `https://www.reddit.com${post.permalink}`,
    permalink: post.permalink,
    community: post.subreddit,
    title: titleText(decodeEntities(post.title)),
    selftext: postText(decodeEntities(post.selftext)),
    author: post.author,
    score: post.score,
    postCreatedAt: isoFromSeconds(post.created)!,
    comments,
  };
}

/** A rate header (`"598.0"`) as a number. */
function secondsOf(value: string | string[] | undefined): number | undefined {
  const text = headerText(value);
  if (text === undefined || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}
