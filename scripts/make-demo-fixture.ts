/**
 * Builds `fixtures/localllama-threads.json.gz`, the real r/LocalLLaMA threads that `signals demo`
 * replays (src/ingest/demo.ts) and that the quality labels of test/fixtures/quality describe, and
 * `fixtures/localllama-demo-days.json.gz`, more threads of the demo's daily windows, which only the
 * demo reads. Users have no ../shared, so the slices ship inside the repo; each must stay small
 * (≤ 2 MB) and be byte-identical on every run.
 *
 *   node --import tsx scripts/make-demo-fixture.ts [/path/to/reddit-localllama]
 */
import { createReadStream, mkdirSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip, gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DEFAULT_SOURCE = '/work/shared/data/reddit-localllama';
const OUTPUT = fileURLToPath(new URL('../fixtures/localllama-threads.json.gz', import.meta.url));
const DAYS_OUTPUT = fileURLToPath(new URL('../fixtures/localllama-demo-days.json.gz', import.meta.url));

/** Tuned so the gzipped fixture lands around 1–1.5 MB. */
const TARGET_THREADS = 240;
/** The digest demo shows seven daily briefs, so the last days need threads of their own. */
const RECENT_DAYS = 8;
const PER_RECENT_DAY = 12;
/**
 * More threads for each of those days, beside the labelled ones: with 12 a day the demo's daily
 * windows had few themes, and its briefs filled with single reports (19 of 35 content items, 0
 * with these; docs/quality.md, "The demo's daily briefs").
 */
const MORE_PER_RECENT_DAY = 28;
const MAX_COMMENTS = 48;
const MIN_COMMENTS = 6;
const MAX_SELFTEXT = 5_000;
const MAX_COMMENT_BODY = 2_500;
const MAX_BYTES = 2 * 1024 * 1024;
/** Older stragglers would predate the demo projects by months; six weeks reads as one story. */
const MAX_AGE_DAYS = 42;

interface RawPost {
  id: string;
  subreddit: string;
  title: string;
  selftext: string;
  author: string;
  score: number;
  num_comments: number;
  created_utc: number;
  permalink: string;
  url: string;
  link_flair_text: string | null;
  is_self: boolean;
}

interface RawComment {
  id: string;
  link_id: string;
  parent_id: string;
  author: string;
  body: string;
  score: number;
  created_utc: number;
}

interface FixtureComment {
  id: string;
  author: string;
  body: string;
  score: number;
  createdAt: string;
  replies: FixtureComment[];
}

interface FixtureThread {
  id: string;
  permalink: string;
  url: string;
  community: string;
  title: string;
  selftext: string;
  author: string;
  score: number;
  postCreatedAt: string;
  comments: FixtureComment[];
}

const PRODUCTS: RegExp[] = [
  /\bollama\b/i,
  /\bllama\.?cpp\b|\bllama-server\b/i,
  /\blm ?studio\b/i,
  /\bvllm\b/i,
  /\bclaude\b/i,
  /\bchatgpt\b/i,
  /\bopen ?router\b/i,
  /\bkobold(?:cpp)?\b/i,
  /\boobabooga\b|\btext-generation-webui\b/i,
  /\bexllama(?:v2|v3)?\b|\bexl[23]\b/i,
  /\bmlx\b/i,
  /\bjan\.ai\b|\bJan app\b/,
  /\bgpt4all\b/i,
];

const COMPLAINT =
  /frustrat|annoy|doesn'?t work|does not work|can'?t get|cannot get|\bslow|crash|\bOOM\b|out of memory|\bwish\b|struggl|problem|issue|broken|\bbug|fail|terrible|awful|useless|unusable|nightmare|headache|stuck|disappoint|confus|hard to|not working/i;
const HELP_TITLE = /\?|\bhelp\b|\bhow (?:do|to|can)\b|\bstruggl|\bissue|\bproblem|\bvs\.?\b|\bversus\b|\bcompar|\balternative/i;
const SKIP_FLAIRS = new Set(['Funny', 'Generation']);
const GONE = new Set(['[deleted]', '[removed]']);

async function* readJsonl<T>(path: string): AsyncGenerator<T> {
  const lines = createInterface({ input: createReadStream(path).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) if (line.trim() !== '') yield JSON.parse(line) as T;
}

/** Reddit's API escapes exactly these three in markdown bodies; the demo shows plain text. */
function unescapeReddit(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Cuts at a word boundary so a truncated body never ends mid-word. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.search(/\s\S*$/);
  return `${(space > max * 0.8 ? cut.slice(0, space) : cut).trimEnd()} …`;
}

const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();
const byScoreThenId = (a: { score: number; id: string }, b: { score: number; id: string }) =>
  b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The best comments by score, each with its chain of ancestors so the kept tree stays connected.
 * Comments are added whole-chain at a time until the cap is reached.
 */
function pruneComments(comments: RawComment[]): RawComment[] {
  const byId = new Map(comments.map((c) => [c.id, c]));
  const kept = new Set<string>();
  const candidates = comments.filter((c) => !GONE.has(c.body) && !GONE.has(c.author)).sort(byScoreThenId);
  for (const c of candidates) {
    if (kept.size >= MAX_COMMENTS) break;
    const chain: string[] = [];
    for (let at: RawComment | undefined = c; at && !kept.has(at.id); ) {
      chain.push(at.id);
      at = at.parent_id.startsWith('t1_') ? byId.get(at.parent_id.slice(3)) : undefined;
    }
    chain.forEach((id) => kept.add(id));
  }
  return comments.filter((c) => kept.has(c.id));
}

function buildTree(postId: string, comments: RawComment[]): FixtureComment[] {
  const children = new Map<string, RawComment[]>();
  for (const c of comments) {
    const list = children.get(c.parent_id) ?? [];
    list.push(c);
    children.set(c.parent_id, list);
  }
  const grow = (parent: string): FixtureComment[] =>
    (children.get(parent) ?? []).sort(byScoreThenId).map((c) => ({
      id: c.id,
      author: c.author,
      body: truncate(unescapeReddit(c.body), MAX_COMMENT_BODY),
      score: c.score,
      createdAt: iso(c.created_utc),
      replies: grow(`t1_${c.id}`),
    }));
  return grow(`t3_${postId}`);
}

function toThread(post: RawPost, comments: RawComment[]): FixtureThread {
  return {
    id: post.id,
    permalink: post.permalink,
    url: `https://www.reddit.com${post.permalink}`,
    community: post.subreddit,
    title: unescapeReddit(post.title),
    selftext: truncate(unescapeReddit(post.selftext), MAX_SELFTEXT),
    author: post.author,
    score: post.score,
    postCreatedAt: iso(post.created_utc),
    comments: buildTree(post.id, pruneComments(comments)),
  };
}

function walk(comments: FixtureComment[], visit: (c: FixtureComment) => void): void {
  for (const c of comments) {
    visit(c);
    walk(c.replies, visit);
  }
}

/**
 * How useful a thread is for the demo: products named, complaints voiced, help-seeking or
 * comparing. Integer arithmetic only, so the ranking cannot wobble between runs.
 */
function demoScore(post: RawPost, thread: FixtureThread): number {
  const texts = [thread.title, thread.selftext];
  walk(thread.comments, (c) => texts.push(c.body));
  const all = texts.join('\n');
  const products = PRODUCTS.filter((re) => re.test(all)).length;
  const complaints = texts.filter((t) => COMPLAINT.test(t)).length;
  let score = 4 * Math.min(products, 6) + Math.min(complaints, 20);
  if (post.link_flair_text === 'Question | Help') score += 6;
  if (post.link_flair_text === 'Discussion') score += 3;
  if (HELP_TITLE.test(post.title)) score += 4;
  return score;
}

/** Self posts, or link posts that drew a real discussion; memes and image dumps are left out. */
function isCandidate(post: RawPost, commentCount: number): boolean {
  if (SKIP_FLAIRS.has(post.link_flair_text ?? '') || GONE.has(post.author)) return false;
  if (commentCount < MIN_COMMENTS) return false;
  return post.is_self ? !GONE.has(post.selftext) : commentCount >= 15;
}

/** A quota per recent day first (the brief windows), then the best of everything else. */
function select(ranked: { thread: FixtureThread; score: number; day: string }[]): FixtureThread[] {
  const days = [...new Set(ranked.map((r) => r.day))].sort().slice(-RECENT_DAYS);
  const picked = new Set<FixtureThread>();
  for (const day of days) {
    ranked.filter((r) => r.day === day).slice(0, PER_RECENT_DAY).forEach((r) => picked.add(r.thread));
  }
  for (const r of ranked) {
    if (picked.size >= TARGET_THREADS) break;
    picked.add(r.thread);
  }
  return newestFirst([...picked]);
}

/** The next best threads of each recent day, beside those `select` picked. */
function selectMore(ranked: { thread: FixtureThread; day: string }[], picked: readonly FixtureThread[]): FixtureThread[] {
  const taken = new Set(picked.map((t) => t.id));
  const days = [...new Set(ranked.map((r) => r.day))].sort().slice(-RECENT_DAYS);
  const more = days.flatMap((day) => ranked.filter((r) => r.day === day && !taken.has(r.thread.id)).slice(0, MORE_PER_RECENT_DAY).map((r) => r.thread));
  return newestFirst(more);
}

function newestFirst(threads: FixtureThread[]): FixtureThread[] {
  return threads.sort((a, b) => (a.postCreatedAt === b.postCreatedAt ? (a.id < b.id ? -1 : 1) : a.postCreatedAt < b.postCreatedAt ? 1 : -1));
}

function write(path: string, threads: FixtureThread[]): void {
  const gz = gzipSync(Buffer.from(JSON.stringify(threads)), { level: 9 });
  if (gz.length > MAX_BYTES) throw new Error(`${path} is ${gz.length} bytes, over the ${MAX_BYTES}-byte cap`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, gz);
  let commentCount = 0;
  threads.forEach((t) => walk(t.comments, () => commentCount++));
  console.log(`${path}: ${threads.length} threads, ${commentCount} comments, ${gz.length} bytes`);
}

async function main(): Promise<void> {
  const source = process.argv[2] ?? DEFAULT_SOURCE;
  const posts: RawPost[] = [];
  for await (const p of readJsonl<RawPost>(join(source, 'posts.jsonl.gz'))) posts.push(p);
  const comments = new Map<string, RawComment[]>();
  for await (const c of readJsonl<RawComment>(join(source, 'comments.jsonl.gz'))) {
    const postId = c.link_id.replace(/^t3_/, '');
    const list = comments.get(postId) ?? [];
    list.push(c);
    comments.set(postId, list);
  }

  const newest = Math.max(...posts.map((p) => p.created_utc));
  const oldest = newest - MAX_AGE_DAYS * 86_400;
  const ranked = posts
    .filter((p) => p.created_utc >= oldest && isCandidate(p, comments.get(p.id)?.length ?? 0))
    .map((p) => {
      const thread = toThread(p, comments.get(p.id) ?? []);
      return { thread, score: demoScore(p, thread), day: thread.postCreatedAt.slice(0, 10), id: p.id };
    })
    .sort(byScoreThenId);
  const threads = select(ranked);
  write(OUTPUT, threads);
  write(DAYS_OUTPUT, selectMore(ranked, threads));
}

await main();
