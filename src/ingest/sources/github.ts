/**
 * A GitHub repository's issues through the REST API (DESIGN §8.1, `github: owner/repo`): a
 * competitor's issue tracker is where its users write down what hurts.
 *
 * What it reads: `GET /repos/OWNER/REPO/issues?state=all&sort=updated&direction=desc&since=…`,
 * the issues (open and closed) with activity since the window's start, most recently active
 * first, following the `Link: <…>; rel="next"` pages. The listing mixes in pull requests (items
 * with a `pull_request` key): they are skipped. For each issue with comments, its comments are
 * read from `/repos/OWNER/REPO/issues/N/comments` (GitHub issue comments are flat: every comment
 * is a reply to the issue). Bodies are Markdown and kept as written: Markdown may hold HTML tags
 * and entities, but what a user typed is the text an analyzer quotes, so it is not converted.
 *
 * Cost per run: one request per 100 issues and pull requests active in the window (at most
 * MAX_ISSUE_PAGES), plus one request per 100 comments of each issue that has comments (at most
 * MAX_COMMENT_PAGES per issue, MAX_ISSUES issues): at most 5 + 100 × 3 = 305 requests, usually
 * 1 + the number of active issues with comments. Unauthenticated, GitHub allows 60 requests an
 * hour per IP; with `GITHUB_TOKEN`, 5,000 an hour.
 *
 * Politeness: the API's own headers (`Accept: application/vnd.github+json`,
 * `X-GitHub-Api-Version`), the token only in `Authorization` (never in a URL or a message). After
 * every answer `x-ratelimit-remaining`/`x-ratelimit-reset` are read: when the hour's budget is
 * spent and more requests are needed, the host is held until the reset, which fails the community
 * at once (saying when it resets) if that is longer than a run waits. GitHub's secondary rate
 * limit answers 403 with `retry-after` (or with `x-ratelimit-remaining: 0`): the polite client
 * waits and retries it like a 429, until `x-ratelimit-reset` when there is no `retry-after`.
 */
import { headerText, SourceError, type PoliteResponse } from '../../net/polite.ts';
import type { Collect } from './live.ts';
import type { SourceThread } from './source.ts';
import { authorName, isoFromText, nestComments, postText, titleText, type FlatComment } from './thread.ts';

const PER_PAGE = 100;
/** The listing counts pull requests too, so a few pages may be needed for 100 issues. */
const MAX_ISSUE_PAGES = 5;
const MAX_ISSUES = 100;
const MAX_COMMENT_PAGES = 3;
const API_VERSION = '2022-11-28';

interface User {
  login?: unknown;
}

interface Reactions {
  '+1'?: unknown;
}

interface Issue {
  number?: unknown;
  html_url?: unknown;
  title?: unknown;
  body?: unknown;
  user?: User | null;
  comments?: unknown;
  created_at?: unknown;
  updated_at?: unknown;
  reactions?: Reactions;
  pull_request?: unknown;
}

interface Comment {
  id?: unknown;
  body?: unknown;
  user?: User | null;
  created_at?: unknown;
  reactions?: Reactions;
}

export async function* collectGithub(collect: Collect, owner: string, repo: string): AsyncGenerator<SourceThread> {
  const name = `${owner}/${repo}`;
  // The address allows dots in names; `..` would climb out of /repos/ on the API host.
  if (/^\.+$/.test(owner) || /^\.+$/.test(repo)) throw new SourceError('not-found', `github: "${name}" is not a repository name`);
  const base = collect.settings.githubApiUrl;
  const origin = new URL(base).origin;
  const host = new URL(base).host;
  const token = collect.settings.githubToken;
  const limitHint = token
    ? 'the token allows 5,000 requests an hour'
    : 'set GITHUB_TOKEN to raise the limit from 60 to 5,000 requests/hour';
  const repoPath = `${base}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;

  // The budget spent (remaining 0) as the last answer said, and when it comes back.
  let spent: { resetMs: number; nowMs: number } | undefined;
  // The reset a rate-limited answer named, for the message when the wait is too long.
  let limitedReset: number | undefined;
  const resetText = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

  const request = async <T>(url: string): Promise<{ data: T; next: string | undefined }> => {
    limitedReset = undefined;
    if (spent) {
      const wait = spent.resetMs - spent.nowMs;
      const resets = resetText(spent.resetMs);
      spent = undefined;
      if (wait > 0) collect.http.holdHost(host, wait, `rate limit spent (it resets at ${resets}; ${limitHint})`);
    }
    let answer: { data: T; response: PoliteResponse };
    try {
      answer = await collect.http.json<T>(url, {
        operatorHost: true,
        headers: {
          accept: 'application/vnd.github+json',
          'x-github-api-version': API_VERSION,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        // Secondary rate limits: 403 with retry-after, or 403 with the hour's budget spent.
        rateLimited: (status, headers) => status === 403 && (headers['retry-after'] !== undefined || headers['x-ratelimit-remaining'] === '0'),
        waitHint: (headers, now) => {
          const reset = resetMsOf(headers['x-ratelimit-reset']);
          if (reset === undefined) return undefined;
          limitedReset = reset;
          return Math.max(0, reset - now);
        },
      });
    } catch (err) {
      if (!(err instanceof SourceError)) throw err;
      if (err.reason === 'rate-limited') {
        const resets = limitedReset !== undefined ? `it resets at ${resetText(limitedReset)}; ` : '';
        throw new SourceError('rate-limited', `${err.message} (${resets}${limitHint})`);
      }
      if (err.reason === 'http' && /answered 401\b/.test(err.message)) {
        throw new SourceError('http', `${host} refused GITHUB_TOKEN (401 Bad credentials): check or renew the token`);
      }
      throw err;
    }
    const { data, response } = answer;
    const remaining = headerText(response.headers['x-ratelimit-remaining']);
    const reset = resetMsOf(response.headers['x-ratelimit-reset']);
    if (remaining === '0' && reset !== undefined) {
      // Measured against the server's own clock, so a skewed local clock does not matter.
      const date = Date.parse(headerText(response.headers.date) ?? '');
      spent = { resetMs: reset, nowMs: Number.isFinite(date) ? date : Date.now() };
    }
    return { data, next: nextLink(response.headers.link, origin, host) };
  };

  const after = collect.after.getTime();
  const until = collect.until.getTime();
  const list = new URL(`${repoPath}/issues`);
  list.searchParams.set('state', 'all');
  list.searchParams.set('sort', 'updated');
  list.searchParams.set('direction', 'desc');
  list.searchParams.set('since', resetText(Math.floor(after / 1000) * 1000));
  list.searchParams.set('per_page', String(PER_PAGE));

  let url: string | undefined = list.href;
  let issues = 0;
  for (let page = 0; url !== undefined; page++) {
    if (page === MAX_ISSUE_PAGES) {
      collect.note(`${name}: more than ${MAX_ISSUE_PAGES * PER_PAGE} issues and pull requests were active in the window; the most recently active were read`);
      break;
    }
    let answer: { data: Issue[]; next: string | undefined };
    try {
      answer = await request<Issue[]>(url);
    } catch (err) {
      if (err instanceof SourceError && err.reason === 'not-found' && page === 0) {
        throw new SourceError('not-found', `github: ${name} was not found: no such repository, a private one${token ? ' the token cannot read' : ' (set GITHUB_TOKEN to read it)'}, or one with issues turned off`);
      }
      throw err;
    }
    if (!Array.isArray(answer.data)) throw new SourceError('malformed', `${host} answered the issue list of ${name} with something other than a list`);
    collect.read(answer.data.length);
    url = answer.next;
    for (const issue of answer.data) {
      if (typeof issue !== 'object' || issue === null) throw new SourceError('malformed', `${host} sent an issue of ${name} that is not an object`);
      if ('pull_request' in issue) continue;
      const number = issue.number;
      if (typeof number !== 'number' || !Number.isSafeInteger(number) || number <= 0) throw new SourceError('malformed', `${host} sent an issue of ${name} without a number`);
      const updated = Date.parse(typeof issue.updated_at === 'string' ? issue.updated_at : '');
      if (!Number.isFinite(updated)) throw new SourceError('malformed', `issue ${name}#${number} has no update time`);
      // Active after the window: the next run's. At or before its start: the last run's.
      if (updated > until || updated <= after) continue;
      if (issues === MAX_ISSUES) {
        collect.note(`${name}: more than ${MAX_ISSUES} issues were active in the window; the ${MAX_ISSUES} most recently active were read`);
        return;
      }
      issues += 1;
      const comments = typeof issue.comments === 'number' && issue.comments > 0 ? await readComments(number, issue.comments) : [];
      yield threadOf(issue, owner, repo, comments, (n) => collect.note(`${name}#${number}: ${n} comments past the per-thread bound were left out`));
    }
  }

  async function readComments(number: number, count: number): Promise<FlatComment[]> {
    const first = new URL(`${repoPath}/issues/${number}/comments`);
    first.searchParams.set('per_page', String(PER_PAGE));
    if (count > MAX_COMMENT_PAGES * PER_PAGE) {
      // Too many to read whole: the window's own comments (GitHub lists them oldest first).
      first.searchParams.set('since', resetText(Math.floor(after / 1000) * 1000));
      collect.note(`${name}#${number} has ${count} comments; only those active in the window were read`);
    }
    const flat: FlatComment[] = [];
    let url: string | undefined = first.href;
    for (let page = 0; url !== undefined; page++) {
      if (page === MAX_COMMENT_PAGES) {
        collect.note(`${name}#${number}: more than ${MAX_COMMENT_PAGES * PER_PAGE} comments to read; the oldest were read`);
        break;
      }
      let answer: { data: Comment[]; next: string | undefined };
      try {
        answer = await request<Comment[]>(url);
      } catch (err) {
        // Deleted or moved to another repository between the listing and now.
        if (err instanceof SourceError && err.reason === 'not-found') {
          collect.note(`${name}#${number}: its comments could not be read (the issue was deleted or transferred)`);
          return flat;
        }
        throw err;
      }
      if (!Array.isArray(answer.data)) throw new SourceError('malformed', `${host} answered the comments of ${name}#${number} with something other than a list`);
      collect.read(answer.data.length);
      for (const c of answer.data) {
        const id = typeof c?.id === 'number' && Number.isSafeInteger(c.id) ? String(c.id) : undefined;
        const at = isoFromText(c?.created_at);
        if (id === undefined || at === undefined) continue;
        flat.push({ id, parentId: null, author: login(c.user), body: markdown(c.body), score: plusOnes(c.reactions), createdAt: at });
      }
      url = answer.next;
    }
    return flat;
  }
}

/** One issue with its comments as a stored thread. */
export function threadOf(issue: Issue, owner: string, repo: string, flat: readonly FlatComment[], onDropped: (n: number) => void): SourceThread {
  const number = issue.number as number;
  const created = isoFromText(issue.created_at);
  if (created === undefined) throw new SourceError('malformed', `issue ${owner}/${repo}#${number} has no creation time`);
  if (typeof issue.html_url !== 'string' || !/^https?:\/\/\S+$/i.test(issue.html_url)) throw new SourceError('malformed', `issue ${owner}/${repo}#${number} has no web address`);
  const { comments, dropped } = nestComments(flat);
  if (dropped > 0) onDropped(dropped);
  return {
    id: `gh:${owner}/${repo}#${number}`,
    url: issue.html_url,
    permalink: `/${owner}/${repo}/issues/${number}`,
    community: `github.com/${owner}/${repo}`,
    title: titleText(typeof issue.title === 'string' ? issue.title : ''),
    selftext: markdown(issue.body),
    author: login(issue.user),
    score: plusOnes(issue.reactions),
    postCreatedAt: created,
    comments,
  };
}

/** A Markdown body as written (line endings as `\n`: the web editor sends `\r\n`); null → ''. */
function markdown(body: unknown): string {
  return postText(typeof body === 'string' ? body.replace(/\r\n?/g, '\n') : '');
}

/** A removed account is shown by GitHub as `user: null` or as the `ghost` user. */
function login(user: User | null | undefined): string {
  const name = typeof user?.login === 'string' ? user.login : '';
  return name.toLowerCase() === 'ghost' ? '[deleted]' : authorName(name);
}

function plusOnes(reactions: Reactions | undefined): number {
  const n = reactions?.['+1'];
  return typeof n === 'number' && Number.isFinite(n) ? Math.trunc(n) : 0;
}

/** `x-ratelimit-reset` (epoch seconds) → epoch milliseconds. */
function resetMsOf(value: string | string[] | undefined): number | undefined {
  const text = headerText(value)?.trim();
  return text !== undefined && /^\d{1,12}$/.test(text) ? Number(text) * 1000 : undefined;
}

/**
 * The `rel="next"` target of a `Link` header (`<https://…?page=2>; rel="next", <…>; rel="last"`),
 * followed only on the configured API's own origin: a next page elsewhere is not the API's and
 * would carry the token there.
 */
export function nextLink(header: string | string[] | undefined, origin: string, host: string): string | undefined {
  const text = Array.isArray(header) ? header.join(', ') : header;
  if (text === undefined || text.trim() === '') return undefined;
  for (const part of text.split(/,(?=\s*<)/)) {
    const m = /^\s*<([^>]*)>\s*((?:;\s*[^;]*)*)$/.exec(part);
    if (!m) continue;
    const rels = [...m[2]!.matchAll(/;\s*rel\s*=\s*"?([^";]*)"?/gi)].flatMap((r) => r[1]!.trim().toLowerCase().split(/\s+/));
    if (!rels.includes('next')) continue;
    let next: URL;
    try {
      next = new URL(m[1]!);
    } catch {
      throw new SourceError('malformed', `${host} sent a next-page link that is not a URL`);
    }
    if (next.origin !== origin) throw new SourceError('malformed', `${host} sent a next-page link to ${next.origin}, not the configured API (${origin}); not followed`);
    return next.href;
  }
  return undefined;
}
