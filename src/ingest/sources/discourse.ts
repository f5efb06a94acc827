/**
 * A Discourse forum's public JSON (DESIGN §8.1, `discourse: https://forum.example.com[/c/category]`).
 *
 * What it reads: the forum's topic list sorted by activity (`/latest.json?order=activity`, or
 * `/c/CATEGORY/l/latest.json?order=activity` for one category, CATEGORY being `slug` or
 * `slug/id`), page after page (`&page=N`, while the list says there are more and its last
 * unpinned topic was still active after the window's start: the list is sorted by `bumped_at`,
 * so once one is older, all after it are). Topics whose last post is in the window are kept;
 * pinned topics (the "About the X category" topic, announcements) sit at the top of the first
 * page whatever their age, so they count only when they had a post in the window too. Each kept
 * topic is read from `/t/ID.json`: its first 20 posts and the ids of all of them
 * (`post_stream.stream`); the others come from `/t/ID/posts.json?post_ids[]=…`, 20 per request.
 * Post 1 is the topic's body; every other post is a comment under the post it replies to
 * (`reply_to_post_number`), each with its own author and time. Bodies are Discourse's rendered
 * HTML (`cooked`) as plain text; a quote (`<aside class="quote">`) stays as the quoted text.
 *
 * Cost per run: one request per list page (at most MAX_PAGES) plus, for each topic active in the
 * window (at most MAX_TOPICS), 1 + ceil(min(posts beyond the first 20, MAX_EXTRA_POSTS) / 20):
 * usually 1 + the number of active topics, at most 5 + 50 × 8 = 405 requests (within the per-host
 * budget of one run).
 *
 * Politeness: the address is a user's, so it is fetched as a public address only (a forum on a
 * private or loopback address needs its host:port in FETCH_ALLOW_HOSTS). Requests to one forum
 * are spaced MIN_INTERVAL_MS apart, below Discourse's default per-IP limits (200 a minute, 50 per
 * 10 s). Discourse's 429 carries `Retry-After` (and `extras.wait_seconds` in its JSON body, which
 * says the same): the polite client waits that long, or backs off with jitter when the header is
 * missing. Only what an anonymous visitor sees is read: no cookies, no API key. A forum or
 * category that needs a login (403 JSON, 404 JSON, or a redirect to its HTML login page) fails
 * the community with a message saying so.
 */
import { SourceError } from '../../net/polite.ts';
import type { Collect } from './live.ts';
import type { SourceThread } from './source.ts';
import { authorName, numericId, decodeEntities, htmlToText, isoFromText, nestComments, postText, titleText, type FlatComment } from './thread.ts';

const MAX_PAGES = 5;
const MAX_TOPICS = 50;
/** What `/t/ID.json` carries and what `/t/ID/posts.json` is asked for at a time (Discourse's chunk size). */
const POSTS_PER_REQUEST = 20;
/** Posts read beyond a topic's first 20: the newest ones, where a long topic's new activity is. */
const MAX_EXTRA_POSTS = 140;
/** At most 2.5 requests a second to one forum. */
const MIN_INTERVAL_MS = 400;
/** Discourse's "like" post action. */
const LIKE_ACTION = 2;
/** `post_type` of "closed the topic", "pinned globally" and other action lines: no one wrote them. */
const SMALL_ACTION = 3;

interface ListTopic {
  id?: unknown;
  slug?: unknown;
  created_at?: unknown;
  last_posted_at?: unknown;
  bumped_at?: unknown;
  pinned?: unknown;
  pinned_globally?: unknown;
}

interface TopicList {
  topic_list?: { topics?: unknown; more_topics_url?: unknown };
}

interface Post {
  id?: unknown;
  username?: unknown;
  created_at?: unknown;
  cooked?: unknown;
  post_number?: unknown;
  post_type?: unknown;
  reply_to_post_number?: unknown;
  actions_summary?: unknown;
  user_deleted?: unknown;
  deleted_at?: unknown;
}

interface Topic {
  id?: unknown;
  title?: unknown;
  slug?: unknown;
  created_at?: unknown;
  post_stream?: { posts?: unknown; stream?: unknown };
  details?: { created_by?: { username?: unknown } };
}

interface Forum {
  root: string;
  host: string;
  category: string | null;
}

export async function* collectDiscourse(collect: Collect, base: string, category: string | null): AsyncGenerator<SourceThread> {
  let origin: URL;
  try {
    origin = new URL(base);
  } catch {
    throw new SourceError('not-found', `discourse: "${base}" is not a forum URL`);
  }
  const forum: Forum = { root: base.replace(/\/+$/, ''), host: origin.host, category };
  const topics = await activeTopics(collect, forum);
  for (const topic of topics) {
    const thread = await readTopic(collect, forum, topic);
    if (thread) yield thread;
  }
}

/** The ids and slugs of the topics with a post in the window, newest activity first. */
async function activeTopics(collect: Collect, forum: Forum): Promise<{ id: string; slug: string }[]> {
  const after = collect.after.getTime();
  const until = collect.until.getTime();
  const chosen = new Map<string, string>();
  let capped = false;
  const path = forum.category === null ? '/latest.json' : `/c/${forum.category}/l/latest.json`;
  for (let page = 0; page < MAX_PAGES && !capped; page++) {
    const url = new URL(forum.root + path);
    url.searchParams.set('order', 'activity');
    if (page > 0) url.searchParams.set('page', String(page));
    const data = await listPage(collect, forum, url);
    const list = data?.topic_list;
    if (typeof list !== 'object' || list === null || !Array.isArray(list.topics)) {
      throw new SourceError('malformed', `${forum.host} answered ${url.pathname} without "topic_list.topics" (is it a Discourse forum?)`);
    }
    const topics = list.topics as ListTopic[];
    collect.read(topics.length);
    let stillActive = false;
    for (const topic of topics) {
      const id = numericId(topic?.id);
      const last = timeOf(topic?.last_posted_at) ?? timeOf(topic?.created_at);
      if (id === undefined || last === undefined) continue;
      const pinned = topic.pinned === true || topic.pinned_globally === true;
      // Pinned topics head the first page whatever their age: they say nothing about the rest.
      if (!pinned) stillActive = Math.max(last, timeOf(topic.bumped_at) ?? 0) > after;
      if (last <= after || last > until || chosen.has(id)) continue;
      if (chosen.size >= MAX_TOPICS) {
        capped = true;
        break;
      }
      chosen.set(id, typeof topic.slug === 'string' ? topic.slug : '');
    }
    if (!stillActive || typeof list.more_topics_url !== 'string' || list.more_topics_url === '') break;
    if (page + 1 === MAX_PAGES) collect.note(`${forum.host}: the topic list still had activity in the window after ${MAX_PAGES} pages; the newest were read`);
  }
  if (capped) collect.note(`${forum.host}: more than ${MAX_TOPICS} topics were active in the window; the ${MAX_TOPICS} with the newest activity were read`);
  return [...chosen].map(([id, slug]) => ({ id, slug }));
}

/**
 * One page of the topic list. The first request is where a forum that is not public, not
 * Discourse or not reachable shows it: those failures get a message a user can act on.
 */
async function listPage(collect: Collect, forum: Forum, url: URL): Promise<TopicList> {
  try {
    return (await collect.http.json<TopicList>(url.href, { minIntervalMs: MIN_INTERVAL_MS })).data;
  } catch (err) {
    if (!(err instanceof SourceError)) throw err;
    const what = forum.category === null ? 'forum' : `category "${forum.category}"`;
    if (err.reason === 'not-found') {
      throw new SourceError('not-found', `${forum.host} has no public ${what} at ${url.pathname} (404): it does not exist, is not a Discourse forum, or needs a login`);
    }
    if (err.reason === 'http' && /answered 403\b/.test(err.message)) {
      const said = /"errors":\s*\["([^"]{1,200})"/.exec(err.message)?.[1];
      throw new SourceError('blocked', `${forum.host}: the ${what} needs a login (403${said ? `: ${said}` : ''}); only public Discourse forums can be watched`);
    }
    if (err.reason === 'blocked') {
      throw new SourceError('blocked', `${err.message}; a forum that needs a login sends its login page: only public Discourse forums can be watched`);
    }
    if (err.reason === 'address') {
      throw new SourceError('address', `${err.message}; a forum on an intranet needs its host:port in FETCH_ALLOW_HOSTS (set by the operator)`);
    }
    throw err;
  }
}

/** One topic with all its posts (within the bound) as a thread; undefined when it went away meanwhile. */
async function readTopic(collect: Collect, forum: Forum, listed: { id: string; slug: string }): Promise<SourceThread | undefined> {
  const { id } = listed;
  let topic: Topic;
  try {
    topic = (await collect.http.json<Topic>(`${forum.root}/t/${id}.json`, { minIntervalMs: MIN_INTERVAL_MS })).data;
  } catch (err) {
    // Deleted, moved to a private category or unlisted between the list and now: not the forum failing.
    if (err instanceof SourceError && (err.reason === 'not-found' || (err.reason === 'http' && /answered 403\b/.test(err.message)))) {
      collect.note(`topic ${id} could not be read (deleted or made private since it was listed); skipped`);
      return undefined;
    }
    throw err;
  }
  const stream = topic?.post_stream;
  if (typeof topic !== 'object' || topic === null || numericId(topic.id) !== id || typeof stream !== 'object' || stream === null || !Array.isArray(stream.posts)) {
    throw new SourceError('malformed', `the answer for topic ${id} of ${forum.host} is not that topic with its posts`);
  }
  const posts = new Map<string, Post>();
  for (const post of stream.posts as Post[]) {
    const pid = numericId(post?.id);
    if (pid !== undefined) posts.set(pid, post);
  }
  collect.read(posts.size);
  const all = Array.isArray(stream.stream) ? [...new Set((stream.stream as unknown[]).map(numericId).filter((p): p is string => p !== undefined))] : [];
  let missing = all.filter((p) => !posts.has(p));
  if (missing.length > MAX_EXTRA_POSTS) {
    collect.note(`topic ${id}: ${missing.length - MAX_EXTRA_POSTS} older replies past the per-topic bound of ${POSTS_PER_REQUEST + MAX_EXTRA_POSTS} posts were left out`);
    missing = missing.slice(-MAX_EXTRA_POSTS);
  }
  for (let i = 0; i < missing.length; i += POSTS_PER_REQUEST) {
    const chunk = missing.slice(i, i + POSTS_PER_REQUEST);
    const url = `${forum.root}/t/${id}/posts.json?${chunk.map((p) => `post_ids[]=${p}`).join('&')}`;
    const { data } = await collect.http.json<{ post_stream?: { posts?: unknown } }>(url, { minIntervalMs: MIN_INTERVAL_MS });
    const more = data?.post_stream?.posts;
    if (!Array.isArray(more)) throw new SourceError('malformed', `${forum.host} answered the posts of topic ${id} without "post_stream.posts"`);
    collect.read(more.length);
    for (const post of more as Post[]) {
      const pid = numericId(post?.id);
      if (pid !== undefined) posts.set(pid, post);
    }
  }
  return threadOf(forum, topic, listed.slug, [...posts.values()], (n) => collect.note(`topic ${id}: ${n} comments past the per-thread bound were left out`));
}

/** A topic and its posts as a stored thread: post 1 is the body, the others comments. */
function threadOf(forum: Forum, topic: Topic, listedSlug: string, posts: readonly Post[], onDropped: (n: number) => void): SourceThread {
  const id = numericId(topic.id)!;
  const first = posts.find((p) => p.post_number === 1);
  const created = isoFromText(topic.created_at) ?? isoFromText(first?.created_at);
  if (created === undefined) throw new SourceError('malformed', `topic ${id} of ${forum.host} has no creation time`);
  // Post numbers → our comment ids, for the reply links.
  const byNumber = new Map<number, string>();
  for (const post of posts) {
    const pid = numericId(post.id);
    if (pid !== undefined && typeof post.post_number === 'number') byNumber.set(post.post_number, `p${pid}`);
  }
  const flat: FlatComment[] = [];
  for (const post of posts) {
    const pid = numericId(post.id);
    const at = isoFromText(post.created_at);
    if (post === first || pid === undefined || at === undefined || post.post_type === SMALL_ACTION) continue;
    const replyTo = typeof post.reply_to_post_number === 'number' && post.reply_to_post_number !== 1 ? byNumber.get(post.reply_to_post_number) : undefined;
    flat.push({ id: `p${pid}`, parentId: replyTo ?? null, author: authorOf(post), body: bodyOf(post), score: likesOf(post), createdAt: at });
  }
  const { comments, dropped } = nestComments(flat);
  if (dropped > 0) onDropped(dropped);
  const slugText = typeof topic.slug === 'string' && topic.slug !== '' ? topic.slug : listedSlug;
  const slug = /^[\w%-]{1,200}$/.test(slugText) ? slugText : 'topic';
  const category = forum.category?.replace(/\/\d+$/, '');
  return {
    id: `dc:${forum.host}:${id}`,
    url: `${forum.root}/t/${slug}/${id}`,
    permalink: `/${forum.host}/t/${id}`,
    community: category ? `${forum.host} / ${category}` : forum.host,
    title: titleText(decodeEntities(typeof topic.title === 'string' ? topic.title : '')),
    selftext: first ? bodyOf(first) : '',
    author: first ? authorOf(first) : authorName(topic.details?.created_by?.username),
    score: first ? likesOf(first) : 0,
    postCreatedAt: created,
    comments,
  };
}

/** Withdrawn by its author (`user_deleted`) or deleted by staff (`deleted_at`): no author, no body. */
function deleted(post: Post): boolean {
  return post.user_deleted === true || (typeof post.deleted_at === 'string' && post.deleted_at !== '');
}

function authorOf(post: Post): string {
  return deleted(post) ? '[deleted]' : authorName(post.username);
}

function bodyOf(post: Post): string {
  return deleted(post) ? '[deleted]' : postText(htmlToText(typeof post.cooked === 'string' ? post.cooked : ''));
}

function likesOf(post: Post): number {
  if (!Array.isArray(post.actions_summary)) return 0;
  const like = (post.actions_summary as { id?: unknown; count?: unknown }[]).find((a) => a?.id === LIKE_ACTION);
  return typeof like?.count === 'number' && Number.isFinite(like.count) ? Math.max(0, Math.trunc(like.count)) : 0;
}

function timeOf(value: unknown): number | undefined {
  const iso = isoFromText(value);
  return iso === undefined ? undefined : Date.parse(iso);
}
