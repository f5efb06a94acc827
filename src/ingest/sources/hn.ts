/**
 * Hacker News through Algolia's HN search API (DESIGN §8.1, `hn` and `hn: term, term`).
 *
 * Hacker News has no communities to list, so a project watches it through terms: those the
 * address names, else the project's own name and its tracked competitors' names. For each term,
 * `search_by_date` with `tags=(story,comment)` finds the stories and comments made in the window
 * that mention it; every story they belong to is then read whole from `/api/v1/items/ID` (the
 * story with its nested comment tree, each comment with its own author and time). A story found
 * through a new comment is read again whole: its older comments are known signals already and
 * add nothing twice.
 *
 * Cost per run: one search request per term per 100 hits (at most MAX_PAGES pages), plus one
 * request per story (at most MAX_STORIES). Algolia asks for at most 10,000 requests an hour per IP.
 */
import { SourceError } from '../../net/polite.ts';
import type { Collect } from './live.ts';
import type { SourceThread } from './source.ts';
import { authorName, numericId, htmlToText, isoFromSeconds, isoFromText, nestComments, postText, titleText, type FlatComment } from './thread.ts';

const HITS_PER_PAGE = 100;
const MAX_PAGES = 5;
const MAX_STORIES = 100;
/** A front-page thread with 2,000 comments is about 3 MB of JSON. */
const ITEM_MAX_BYTES = 16_000_000;

interface Hit {
  objectID?: unknown;
  story_id?: unknown;
  created_at_i?: unknown;
  _tags?: unknown;
}

interface SearchPage {
  hits?: unknown;
  nbPages?: unknown;
  page?: unknown;
}

interface Item {
  id?: unknown;
  type?: unknown;
  author?: unknown;
  title?: unknown;
  text?: unknown;
  points?: unknown;
  parent_id?: unknown;
  created_at?: unknown;
  created_at_i?: unknown;
  children?: unknown;
}

export async function* collectHn(collect: Collect, addressTerms: readonly string[]): AsyncGenerator<SourceThread> {
  const terms = addressTerms.length > 0 ? addressTerms : [collect.project.name, ...collect.project.competitors].filter((t) => t.trim() !== '');
  if (terms.length === 0) throw new SourceError('not-found', 'hn: no terms to search for (name them, as hn: term, term)');
  const base = collect.settings.hnAlgoliaUrl;
  const after = Math.floor(collect.after.getTime() / 1000);
  const until = Math.floor(collect.until.getTime() / 1000);
  // Story ids in the order they were first found (newest activity first).
  const stories = new Map<string, number>();
  let capped = false;
  for (const term of terms) {
    for (let page = 0; page < MAX_PAGES; page++) {
      const url = new URL(`${base}/api/v1/search_by_date`);
      url.searchParams.set('query', term);
      url.searchParams.set('tags', '(story,comment)');
      url.searchParams.set('numericFilters', `created_at_i>${after},created_at_i<=${until}`);
      url.searchParams.set('hitsPerPage', String(HITS_PER_PAGE));
      url.searchParams.set('page', String(page));
      const { data } = await collect.http.json<SearchPage>(url.href, { operatorHost: true });
      if (!Array.isArray(data?.hits)) throw new SourceError('malformed', `${url.host} answered a search without "hits"`);
      const hits = data.hits as Hit[];
      collect.read(hits.length);
      for (const hit of hits) {
        const tags = Array.isArray(hit._tags) ? hit._tags : [];
        const story = tags.includes('story') ? numericId(hit.objectID) : numericId(hit.story_id);
        if (story === undefined || stories.has(story)) continue;
        if (stories.size >= MAX_STORIES) {
          capped = true;
          continue;
        }
        stories.set(story, stories.size);
      }
      const pages = typeof data.nbPages === 'number' ? data.nbPages : 0;
      if (page + 1 >= pages) break;
      if (page + 1 === MAX_PAGES) collect.note(`"${term}": more than ${MAX_PAGES * HITS_PER_PAGE} mentions in the window; the newest were read`);
    }
  }
  if (capped) collect.note(`more than ${MAX_STORIES} stories matched; the ${MAX_STORIES} with the newest activity were read`);
  for (const id of stories.keys()) {
    const { data } = await collect.http.json<Item>(`${base}/api/v1/items/${id}`, { operatorHost: true, maxBytes: ITEM_MAX_BYTES });
    collect.read(1);
    const thread = threadOf(data, id, (n) => collect.note(`story ${id}: ${n} comments past the per-thread bound were left out`));
    if (thread) yield thread;
  }
}

/** One story item with its comment tree as a stored thread; undefined for a deleted story. */
export function threadOf(item: Item, id: string, onDropped: (n: number) => void): SourceThread | undefined {
  if (typeof item !== 'object' || item === null || numericId(item.id) !== id) throw new SourceError('malformed', `the item answer for story ${id} is not that story`);
  const created = isoFromSeconds(item.created_at_i) ?? isoFromText(item.created_at);
  if (created === undefined) throw new SourceError('malformed', `story ${id} has no creation time`);
  const flat: FlatComment[] = [];
  const walk = (children: unknown, parent: string | null) => {
    if (!Array.isArray(children)) return;
    for (const child of children as Item[]) {
      const cid = numericId(child?.id);
      const at = isoFromSeconds(child?.created_at_i) ?? isoFromText(child?.created_at);
      if (cid === undefined || at === undefined) continue;
      const deleted = child.author === null && child.text === null;
      flat.push({
        id: cid,
        parentId: parent,
        author: authorName(child.author),
        body: deleted ? '[deleted]' : postText(htmlToText(typeof child.text === 'string' ? child.text : '')),
        score: typeof child.points === 'number' ? Math.trunc(child.points) : 0,
        createdAt: at,
      });
      walk(child.children, cid);
    }
  };
  walk(item.children, null);
  const { comments, dropped } = nestComments(flat);
  if (dropped > 0) onDropped(dropped);
  return {
    id: `hn:${id}`,
    url: `https://news.ycombinator.com/item?id=${id}`,
    permalink: `/hn/item/${id}`,
    community: 'Hacker News',
    title: titleText(typeof item.title === 'string' ? item.title : ''),
    selftext: postText(htmlToText(typeof item.text === 'string' ? item.text : '')),
    author: authorName(item.author),
    score: typeof item.points === 'number' ? Math.trunc(item.points) : 0,
    postCreatedAt: created,
    comments,
  };
}
