/**
 * Reddit through its public Atom feeds (DESIGN §8.1, `r/NAME` when no Reddit app credentials are
 * set): the source that needs no account, and the slowest one.
 *
 * What it reads. Reddit answers unauthenticated `.json` listings with 403 but still serves Atom
 * feeds, throttled to about one request per minute per client. So a run reads ONE multireddit feed
 * for all the project's subreddits, `/r/a+b+c/new/.rss?limit=100` (the 100 newest posts), keeps the
 * posts published in the window (after, until], and then reads the comment feed of each of them,
 * `/r/SUB/comments/ID/.rss?limit=100`, oldest post first. Threads are handed out oldest first.
 *
 * What feeds cannot give, and what is stored instead:
 * - Comments come flat: a comment feed entry has no parent link, so every comment is a reply to
 *   the post (parentId null), each with its own author and time (`<updated>`; feeds have no
 *   `<published>` for comments).
 * - Scores are absent from feeds: posts and comments are stored with score 0.
 * - Only new posts are seen: a comment in the window on a post older than the window is not read.
 * - A post's body is the text of its `div.md` (never the "submitted by … [link] [comments]" tail
 *   Reddit appends); a link post has none and gets an empty body.
 * Post ids are Reddit's bare base-36 ids (`1p2zq9x`, no `t3_`), comment ids likewise: the same ids
 * the `file:` source gives for dumps, so a backfill and live collection deduplicate.
 *
 * Cost per run: 1 + min(P, MAX_COMMENT_FEEDS) requests to REDDIT_URL, P being the posts in the
 * window; every request waits REDDIT_FEED_INTERVAL_SECONDS (default 60) after the previous one to
 * that host from this process, so a busy day costs up to about half an hour of waiting per run.
 *
 * Bounds: 100 posts per run (one feed; a full feed whose oldest post is still in the window is
 * noted: older posts were missed), comments of at most MAX_COMMENT_FEEDS posts (the rest are
 * handed out without comments, noted), 100 comments per post (Reddit's feed limit, noted).
 *
 * Politeness: the pacing above (kept per host per process by the polite client, so two projects'
 * runs in one process are still one request a minute), `Retry-After` on 429 honoured, and the
 * answers Reddit gives clients it refuses (403, or an HTML "blocked" page with status 200) fail the
 * collection with a message that says so, rather than being read as an empty feed.
 */
import { Parser } from 'htmlparser2';
import { SourceError } from '../../net/polite.ts';
import type { Collect } from './live.ts';
import type { SourceThread } from './source.ts';
import { authorName, decodeEntities, htmlToText, isoFromText, nestComments, postText, titleText, type FlatComment } from './thread.ts';

/** Reddit's largest feed page. */
const FEED_LIMIT = 100;
/** Comment feeds read per run: each costs one feed interval (a minute by default). */
export const MAX_COMMENT_FEEDS = 30;

const POST_ID = /^t3_([a-z0-9]{1,13})$/;
const COMMENT_ID = /^t1_([a-z0-9]{1,13})$/;

/** One `<entry>` of an Atom feed, as text (entities of the XML decoded once). */
export interface AtomEntry {
  id: string;
  title: string;
  /** `<content type="html">`: the HTML, still to be turned into text. */
  content: string;
  author: string | undefined;
  /** `<category term>`: the subreddit as Reddit spells it. */
  category: string | undefined;
  link: string | undefined;
  published: string;
  updated: string;
}

interface Post {
  thread: SourceThread;
  at: string;
}

export async function* collectRedditRss(collect: Collect, subreddits: readonly string[]): AsyncGenerator<SourceThread> {
  const names = [...new Map(subreddits.map((s) => [s.toLowerCase(), s])).values()];
  if (names.length === 0) throw new SourceError('not-found', 'reddit-rss: no subreddits to read');
  const base = collect.settings.redditUrl;
  const multi = names.join('+');
  const entries = await readFeed(collect, `${base}/r/${multi}/new/.rss?limit=${FEED_LIMIT}`, `r/${multi}`);
  collect.read(entries.length);

  const after = collect.after.getTime();
  const until = collect.until.getTime();
  const posts = new Map<string, Post>();
  let oldest = Infinity;
  for (const entry of entries) {
    const post = postOf(entry);
    if (!post) continue;
    oldest = Math.min(oldest, Date.parse(post.at));
    const at = Date.parse(post.at);
    if (at > after && at <= until && !posts.has(post.thread.id)) posts.set(post.thread.id, post);
  }
  if (entries.length >= FEED_LIMIT && oldest > after) {
    collect.note(`r/${multi}: all ${FEED_LIMIT} posts of the feed are in the window; older posts of the window were missed (a feed gives at most ${FEED_LIMIT}: collect more often, or set up Reddit app credentials)`);
  }

  const ordered = [...posts.values()].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.thread.id < b.thread.id ? -1 : 1));
  if (ordered.length > MAX_COMMENT_FEEDS) {
    collect.note(`comments of ${ordered.length - MAX_COMMENT_FEEDS} posts not read: the feed budget (${MAX_COMMENT_FEEDS} comment feeds a run, one a minute); those posts were kept without comments`);
  }
  for (const [index, { thread }] of ordered.entries()) {
    if (index < MAX_COMMENT_FEEDS) thread.comments = await commentsOf(collect, thread);
    yield thread;
  }
}

/** A post entry of the listing as a thread without comments; undefined for anything else. */
function postOf(entry: AtomEntry): Post | undefined {
  const id = POST_ID.exec(entry.id.trim())?.[1];
  if (id === undefined) return undefined;
  const at = isoFromText(entry.published.trim()) ?? isoFromText(entry.updated.trim());
  if (at === undefined) throw new SourceError('malformed', `the feed's post t3_${id} has no publication time`);
  const community = entry.category?.trim() || /\/r\/([^/]+)\//.exec(entry.link ?? '')?.[1];
  if (!community) throw new SourceError('malformed', `the feed's post t3_${id} names no subreddit`);
  const url = webUrl(entry.link) ?? new URL(`/r/${community}/comments/${id}/`, 'https://www.reddit.com');
  return {
    at,
    thread: {
      id,
      url: url.href,
      permalink: url.pathname,
      community,
      title: titleText(decodeEntities(entry.title)),
      selftext: postText(mdText(entry.content) ?? ''),
      author: userOf(entry.author),
      score: 0,
      postCreatedAt: at,
      comments: [],
    },
  };
}

/** The comments of one post from its comment feed, flat (feeds carry no parent links). */
async function commentsOf(collect: Collect, thread: SourceThread): Promise<SourceThread['comments']> {
  const url = `${collect.settings.redditUrl}/r/${encodeURIComponent(thread.community)}/comments/${thread.id}/.rss?limit=${FEED_LIMIT}`;
  let entries: AtomEntry[];
  try {
    entries = await readFeed(collect, url, `the comments of post ${thread.id}`);
  } catch (err) {
    // A post removed since the listing: keep the post, say so, and go on with the others.
    if (err instanceof SourceError && err.reason === 'not-found') {
      collect.note(`post ${thread.id}: its comment feed answered 404 (removed?); kept without comments`);
      return [];
    }
    throw err;
  }
  collect.read(entries.length);
  const flat: FlatComment[] = [];
  for (const entry of entries) {
    // The feed's first entry is often the post itself (t3_): not a comment.
    const id = COMMENT_ID.exec(entry.id.trim())?.[1];
    const at = isoFromText(entry.updated.trim()) ?? isoFromText(entry.published.trim());
    if (id === undefined || at === undefined) continue;
    flat.push({ id, parentId: null, author: userOf(entry.author), body: postText(mdText(entry.content) ?? htmlToText(entry.content)), score: 0, createdAt: at });
  }
  if (flat.length >= FEED_LIMIT) collect.note(`post ${thread.id}: its comment feed gives at most ${FEED_LIMIT} comments; the rest were not read`);
  const { comments, dropped } = nestComments(flat);
  if (dropped > 0) collect.note(`post ${thread.id}: ${dropped} comments past the per-thread bound were left out`);
  return comments;
}

/** One paced feed request, its entries, and the answers Reddit gives refused clients made plain. */
async function readFeed(collect: Collect, url: string, what: string): Promise<AtomEntry[]> {
  const host = new URL(url).host;
  let text: string;
  try {
    ({ text } = await collect.http.get(url, { expect: 'xml', operatorHost: true, minIntervalMs: collect.settings.redditFeedIntervalMs }));
  } catch (err) {
    if (err instanceof SourceError && err.reason === 'http' && /answered 403\b/.test(err.message)) {
      throw new SourceError(
        'blocked',
        `${host} answered 403 Forbidden for ${what}: Reddit refuses this client (its network address or User-Agent is blocked) or the subreddit is private; try again later, or set REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET to read through Reddit's Data API`,
      );
    }
    if (err instanceof SourceError && err.reason === 'not-found' && what.startsWith('r/')) {
      throw new SourceError('not-found', `${host} answered 404 for ${what}: a subreddit there does not exist, is banned or is private`);
    }
    throw err;
  }
  return parseAtom(text, `${host} (${what})`);
}

/**
 * The entries of an Atom feed. Only what Reddit's feeds use: `<entry>` children `id`, `title`,
 * `content`, `updated`, `published`, `author/name`, `category@term`, `link@href`. A document that
 * is not a `<feed>`, or that ends before `</feed>` (a truncated answer), is malformed.
 */
export function parseAtom(xml: string, where: string): AtomEntry[] {
  const entries: AtomEntry[] = [];
  const stack: string[] = [];
  let root: string | undefined;
  let closed = false;
  let entry: AtomEntry | undefined;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        stack.push(name);
        if (stack.length === 1) root ??= name;
        if (root !== 'feed') return;
        if (stack.length === 2 && name === 'entry') {
          entry = { id: '', title: '', content: '', author: undefined, category: undefined, link: undefined, published: '', updated: '' };
        } else if (entry && stack.length === 3) {
          if (name === 'category') entry.category ??= attributes.term;
          if (name === 'link' && (attributes.rel === undefined || attributes.rel === 'alternate')) entry.link ??= attributes.href;
        }
      },
      ontext(text) {
        if (!entry) return;
        switch (stack.slice(2).join('>')) {
          case 'id':
            entry.id += text;
            break;
          case 'title':
            entry.title += text;
            break;
          case 'content':
            entry.content += text;
            break;
          case 'published':
            entry.published += text;
            break;
          case 'updated':
            entry.updated += text;
            break;
          case 'author>name':
            entry.author = (entry.author ?? '') + text;
            break;
        }
      },
      onclosetag(name, implied) {
        if (stack.length === 2 && name === 'entry' && entry) {
          entries.push(entry);
          entry = undefined;
        }
        // Self-closing tags are "implied" closes too; only an explicit `</feed>` ends the feed.
        if (stack.length === 1 && name === root && !implied) closed = true;
        stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  if (root === undefined || (root === 'feed' && !closed)) throw new SourceError('malformed', `${where} sent a feed that ends early (truncated?)`);
  if (root !== 'feed') throw new SourceError('malformed', `${where} sent XML that is not an Atom feed (<${root}>)`);
  return entries;
}

/**
 * The text of the first `<div class="md">` of an entry's HTML (the post or comment as written),
 * or undefined when there is none (a link post: a thumbnail table and the "submitted by" tail).
 */
export function mdText(html: string): string | undefined {
  let start = -1;
  let end = -1;
  let depth = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name !== 'div' || end >= 0) return;
        if (start >= 0) depth += 1;
        else if ((attributes.class ?? '').split(/\s+/).includes('md')) {
          start = parser.endIndex + 1;
          depth = 1;
        }
      },
      onclosetag(name, implied) {
        if (name !== 'div' || start < 0 || end >= 0) return;
        depth -= 1;
        if (depth === 0) end = implied ? html.length : parser.startIndex;
      },
    },
    { decodeEntities: false },
  );
  parser.write(html);
  parser.end();
  if (start < 0) return undefined;
  return htmlToText(html.slice(start, end >= 0 ? end : html.length));
}

/** `/u/NAME` → `NAME`; no author element, or `/u/[deleted]`, → `[deleted]`. */
function userOf(name: string | undefined): string {
  return authorName((name ?? '').trim().replace(/^\/?u\//, ''));
}

function webUrl(href: string | undefined): URL | undefined {
  if (href === undefined) return undefined;
  try {
    const url = new URL(href.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}
