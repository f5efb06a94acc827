/**
 * The scale-data generator of `npm run bench`: one project owned by a bench account, with (by
 * default) 100,000 posts and their comment threads, 5,000 themes, 200,000 signals and 30 briefs,
 * in the bundle format of DESIGN §5.
 *
 * Deterministic: every number comes from a seeded PRNG (sfc32). The plan (which post each
 * signal comes from, its kind, theme and product, every theme's id and last update) is drawn from
 * one stream; each post's text, thread and signals are drawn from a stream of their own, seeded
 * by (seed, post index). So the data does not depend on how it is split into chunks, and the same
 * seed and version always give the same bytes.
 *
 * Why chunks rather than one bundle. At realistic text lengths a post with its thread is ~3–4 KB
 * of JSON and a signal ~0.5 KB, so the whole project as one JSON document is ~450 MB: close to
 * V8's maximum string length (2^29 − 24 ≈ 537 M characters on 64-bit Node 20), and parsing it at
 * once would need several GB of heap. So the generator yields the project as a sequence of
 * bundles (by default 10 × 10,000 posts) that all carry the same project id: each holds a slice
 * of the posts, the signals on those posts and the themes those signals belong to (a bundle must
 * be self-contained: `parseBundle` checks every reference inside it); the first also carries the
 * briefs and runs. Importing them one after another is the supported way to load a large project
 * (imports upsert by id), and the bench measures the import rate over all of them together.
 * Streaming one document was the alternative; `signals import` reads whole documents, so
 * chunks measure the code path users actually run.
 *
 * Run alone to write the chunks as files that `signals import` reads:
 *   node --import tsx bench/generate.ts [--out DIR] [--posts N] [--seed S]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  type Bundle,
  type BundleBrief,
  type BundleComment,
  type BundlePost,
  type BundleProject,
  type BundleRun,
  type BundleSignal,
  type BundleTheme,
} from '../src/ingest/bundle.ts';

/** Bump whenever the generated data changes: cached bench databases of another version are rebuilt. */
export const GENERATOR_VERSION = 3;

export const BENCH_OWNER = 'bench@example.com';
export const BENCH_PROJECT_ID = 'prj_bench';

export interface GenerateOptions {
  seed: number;
  posts: number;
  painThemes: number;
  competitorThemes: number;
  signals: number;
  briefs: number;
  /** Posts per bundle chunk. */
  chunkPosts: number;
}

export const DEFAULT_OPTIONS: GenerateOptions = {
  seed: 20261120,
  posts: 100_000,
  painThemes: 4_800,
  competitorThemes: 200,
  signals: 200_000,
  briefs: 30,
  chunkPosts: 10_000,
};

/** What the bench asks for, chosen while generating so that each target means what it says. */
export interface BenchTargets {
  projectId: string;
  owner: string;
  /** Items numbered across the 5 newest briefs, and the one in the middle. */
  briefItems: number;
  briefN: number;
  painThemeCount: number;
  competitorThemeCount: number;
  /** A pain theme with about 40 signals, and its exact signal count. */
  painThemeId: string;
  painThemeSignals: number;
  /** A post from the middle of the project with a thread of typical size. */
  permalink: string;
  permalinkComments: number;
  /** Products with at least one mention, and the entries competitors.list answers (those plus tracked silent ones). */
  products: number;
  competitorEntries: number;
}

// ---------------------------------------------------------------------------------------------
// Randomness
// ---------------------------------------------------------------------------------------------

export type Rng = () => number;

/**
 * sfc32 (128-bit state): fast, and with 2^128 states the streams of 100,000 posts never overlap,
 * so ids drawn from them do not repeat (a 32-bit generator such as mulberry32 would: its streams
 * are windows on one 2^32 cycle). A float in [0, 1).
 */
export function sfc32(a: number, b: number, c: number, d: number): Rng {
  return () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4_294_967_296;
  };
}

/** splitmix32: spreads one 32-bit value into well-mixed words. */
function splitmix32(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  let z = x;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** The generator of stream `stream`, item `index`: independent of every other (seed, stream, index). */
export function streamRng(seed: number, stream: number, index: number): Rng {
  const a = splitmix32(seed ^ 0x243f6a88);
  const b = splitmix32(a ^ Math.imul(stream + 1, 0x9e3779b1));
  const c = splitmix32(b ^ index);
  const d = splitmix32(c ^ 0x13198a2e);
  const rng = sfc32(a, b, c, d);
  for (let i = 0; i < 12; i++) rng(); // let the state mix before use
  return rng;
}

const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const gaussian = (rng: Rng) => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
/** Log-normal with the given median; `sigma` sets the tail. */
const logNormal = (rng: Rng, median: number, sigma: number) => median * Math.exp(sigma * gaussian(rng));
function poisson(rng: Rng, lambda: number): number {
  const limit = Math.exp(-lambda);
  let k = 0;
  let p = rng();
  while (p > limit) {
    k += 1;
    p *= rng();
  }
  return k;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
/** `prefix_` + 26 base32 characters, like the service's own ids (DESIGN §4). */
function randomId(rng: Rng, prefix: string): string {
  let out = `${prefix}_`;
  for (let i = 0; i < 26; i++) out += BASE32[Math.floor(rng() * 32)];
  return out;
}

/** Index into cumulative weights `cum` (last entry = total) for a uniform draw. */
function weighted(rng: Rng, cum: Float64Array): number {
  const x = rng() * cum[cum.length - 1]!;
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function cumulative(weights: number[]): Float64Array {
  const cum = new Float64Array(weights.length);
  let total = 0;
  weights.forEach((w, i) => {
    total += w;
    cum[i] = total;
  });
  return cum;
}

// ---------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------

const WORDS = (
  'the a to and of in for is it that with on this we our my you your they their be are was have has ' +
  'but not just so if when what how why can do does dont cant really still every all any some more ' +
  'most only also than then now again after before because while into out about over one two three ' +
  'customers users team clients leads trial plan pricing price invoice invoices billing subscription ' +
  'churn onboarding signup dashboard report reports export import sync integration integrations api ' +
  'webhook webhooks email emails inbox calendar booking spreadsheet csv workflow automation zapier ' +
  'crm pipeline deal deals contact contacts support ticket tickets chat feature features roadmap ' +
  'release bug bugs update updates mobile app apps desktop browser extension login password account ' +
  'accounts data database backup migration setup config settings permissions roles admin seats ' +
  'month months week weeks day days hour hours minute minutes year tool tools product products ' +
  'startup founder founders saas agency freelancer small business revenue mrr growth marketing seo ' +
  'content post posts newsletter landing page ads budget cost costs cheaper expensive free paid tier ' +
  'slow fast broken missing confusing annoying manual tedious painful easy simple clunky reliable ' +
  'switched tried tested built using used need needs want wanted wish hate love looking trying ' +
  'figure support answer answers reply replies keeps kept breaks broke stopped started lost lose ' +
  'time money hours nobody everyone someone anyone thing things way ways problem problems issue issues'
).split(/\s+/);

const OPENERS = [
  'Honestly',
  'For context',
  'Quick question',
  'Long story short',
  'Not sure if this is the right place but',
  'Update',
  'Edit',
  'In my experience',
  'We tried this last year and',
  'Same here',
  'This',
  'Genuinely curious',
];

/** One sentence of 5–28 words, capitalised, with a full stop or a question mark. */
function sentence(rng: Rng): string {
  const n = Math.min(28, Math.max(5, Math.round(logNormal(rng, 13, 0.4))));
  let s = rng() < 0.12 ? `${pick(rng, OPENERS)}, ` : '';
  for (let i = 0; i < n; i++) s += (i === 0 ? '' : ' ') + pick(rng, WORDS);
  s = s.charAt(0).toUpperCase() + s.slice(1);
  return s + (rng() < 0.15 ? '?' : '.');
}

/** `count` sentences in paragraphs of 1–4, collected in `into` so quotes can be cut verbatim. */
function paragraphs(rng: Rng, count: number, into: string[]): string {
  const out: string[] = [];
  let paragraph: string[] = [];
  for (let i = 0; i < count; i++) {
    const s = sentence(rng);
    into.push(s);
    paragraph.push(s);
    if (paragraph.length >= int(rng, 1, 4)) {
      out.push(paragraph.join(' '));
      paragraph = [];
    }
  }
  if (paragraph.length > 0) out.push(paragraph.join(' '));
  return out.join('\n\n');
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ro', 'ta', 'vu', 'zen', 'dev', 'ops', 'max', 'byte', 'data', 'cat', 'sun', 'pix', 'ash', 'kit', 'fox', 'jo'];
/** Reddit-like handles: a fixed pool so authors recur across threads. */
const AUTHORS: string[] = (() => {
  const rng = streamRng(0x5eed, 9, 0);
  const names = new Set<string>();
  while (names.size < 20_000) {
    const base = `${pick(rng, SYLLABLES)}${pick(rng, SYLLABLES)}${rng() < 0.5 ? pick(rng, SYLLABLES) : ''}`;
    names.add(rng() < 0.6 ? `${base}${int(rng, 1, 9999)}` : `${base}_${pick(rng, SYLLABLES)}`);
  }
  return [...names];
})();

const COMMUNITIES = [
  { name: 'SaaS', description: 'r/SaaS: founders building and selling software as a service.' },
  { name: 'startups', description: 'r/startups: early-stage founders.' },
  { name: 'smallbusiness', description: 'r/smallbusiness: owners of small businesses.' },
  { name: 'Entrepreneur', description: 'r/Entrepreneur: people starting and running companies.' },
  { name: 'sales', description: 'r/sales: sales reps and managers.' },
];
const COMMUNITY_WEIGHTS = cumulative([40, 25, 15, 12, 8]);

/** Products the communities name; the first 7 are tracked in memory, as is one never mentioned. */
const PRODUCTS = [
  'HubFlow', 'PipeDeck', 'Closely', 'Salesgrid', 'Leadwell', 'Mailrobin', 'Trackory', 'Bookwise', 'Invoicely',
  'Zapline', 'Formbee', 'Churnzero', 'Notepilot', 'Deskhero', 'Chatloop', 'Seatly', 'Metricly', 'Sheetsync',
  'Calendo', 'Replydesk', 'Growthkit', 'Quotely', 'Taskwing', 'Onboardly', 'Pagecraft', 'Adspring', 'Fieldnote',
  'Supportly', 'Dealroomy', 'Billfox',
];
const UNMENTIONED_PRODUCT = 'Quietcart';
const TRACKED = 7;

const THEME_TOPICS = [
  'CSV imports', 'invoice reminders', 'calendar sync', 'seat-based pricing', 'onboarding emails', 'webhook retries',
  'CRM data entry', 'report exports', 'trial conversions', 'support ticket triage', 'mobile app lag', 'SSO setup',
  'permission roles', 'churn tracking', 'Zapier limits', 'data migration', 'duplicate contacts', 'API rate limits',
  'email deliverability', 'booking no-shows', 'annual billing', 'usage-based pricing', 'dashboard load times',
  'lead scoring', 'landing page tests', 'SEO reporting', 'backup restores', 'team handoffs', 'time tracking',
  'quote approvals',
];
const THEME_PROBLEMS = [
  'break silently', 'take hours every week', 'cost too much for small teams', 'confuse new users', 'lose data',
  'need manual cleanup', 'lag behind competitors', 'fail without an error', 'are missing basic options',
  'do not scale past a few hundred records', 'need a developer to set up', 'keep getting worse after updates',
];

// ---------------------------------------------------------------------------------------------
// The plan: counts, kinds, themes and times, without any text
// ---------------------------------------------------------------------------------------------

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Newest moment in the data; the posts span the year before it. */
const END = Date.UTC(2026, 10, 20, 6, 0, 0);
const SPAN = 365 * DAY;
const iso = (ms: number) => new Date(ms).toISOString();

const KIND_PAIN = 0;
const KIND_COMPETITOR = 1;
const KIND_CONTENT = 2;
const KIND_NAMES = ['pain', 'competitor', 'content'] as const;

export interface Plan {
  options: GenerateOptions;
  themeIds: string[];
  themeTypes: ('pain' | 'competitor')[];
  themeTitles: string[];
  themeSummaries: string[];
  themeUpdatedAt: number[];
  themeSignals: Int32Array;
  /** Signals sorted by post: the signals of post i are firstSignal[i] .. firstSignal[i + 1] − 1. */
  firstSignal: Int32Array;
  signalKind: Uint8Array;
  signalTheme: Int32Array;
  signalProduct: Int16Array;
  signalSeenAt: Float64Array;
  targets: BenchTargets;
}

const postTime = (options: GenerateOptions, i: number) => END - SPAN + Math.floor(((i + 0.5) / options.posts) * SPAN);

export function planProject(options: GenerateOptions = DEFAULT_OPTIONS): Plan {
  const rng = streamRng(options.seed, 0, 0);
  const themeCount = options.painThemes + options.competitorThemes;
  if (options.signals < themeCount) throw new Error('need at least one signal per theme');

  const themeIds: string[] = [];
  const themeTypes: ('pain' | 'competitor')[] = [];
  const themeTitles: string[] = [];
  const themeSummaries: string[] = [];
  /** The product a competitor-type theme is about. */
  const themeProduct: number[] = [];
  for (let t = 0; t < themeCount; t++) {
    const pain = t < options.painThemes;
    themeIds.push(randomId(rng, 'sov'));
    themeTypes.push(pain ? 'pain' : 'competitor');
    const topic = pick(rng, THEME_TOPICS);
    const problem = pick(rng, THEME_PROBLEMS);
    const product = int(rng, 0, PRODUCTS.length - 1);
    themeProduct.push(pain ? -1 : product);
    themeTitles.push(pain ? `${topic.charAt(0).toUpperCase()}${topic.slice(1)} that ${problem} (${t + 1})` : `${PRODUCTS[product]}: ${topic} ${problem} (${t + 1})`);
    themeSummaries.push(`${sentence(rng)} ${sentence(rng)}`);
  }

  // Kinds: 75% pains, 12.5% competitor mentions, 12.5% content ideas; at least one per theme.
  const n = options.signals;
  const kind = new Uint8Array(n);
  const theme = new Int32Array(n).fill(-1);
  const product = new Int16Array(n).fill(-1);
  for (let j = 0; j < n; j++) {
    const x = rng();
    kind[j] = x < 0.75 ? KIND_PAIN : x < 0.875 ? KIND_COMPETITOR : KIND_CONTENT;
  }
  // Theme sizes are log-normal: most themes have a few dozen signals, a few have hundreds.
  const painCum = cumulative(Array.from({ length: options.painThemes }, () => Math.exp(0.9 * gaussian(rng))));
  const compCum = cumulative(Array.from({ length: options.competitorThemes }, () => Math.exp(0.9 * gaussian(rng))));
  // Products are Zipf-like: a few are named everywhere, the tail now and then.
  const productCum = cumulative(PRODUCTS.map((_, k) => 1 / (k + 1) ** 1.1));
  for (let t = 0; t < themeCount; t++) {
    // Seed every theme with one signal of its type so none is empty.
    const j = t * Math.floor(n / themeCount);
    kind[j] = t < options.painThemes ? KIND_PAIN : KIND_COMPETITOR;
    theme[j] = t;
    if (t >= options.painThemes) product[j] = themeProduct[t]!;
  }
  for (let j = 0; j < n; j++) {
    if (theme[j] !== -1) continue;
    if (kind[j] === KIND_PAIN) theme[j] = weighted(rng, painCum);
    else if (kind[j] === KIND_COMPETITOR) {
      // Half of the competitor mentions voice a weakness that one of the competitor themes groups.
      if (options.competitorThemes > 0 && rng() < 0.5) {
        const t = options.painThemes + weighted(rng, compCum);
        theme[j] = t;
        product[j] = themeProduct[t]!;
      } else {
        product[j] = weighted(rng, productCum);
      }
    }
  }

  // Posts: a signal lands on a random post; busier threads (lower rank in a skewed draw) get more.
  const postOf = new Int32Array(n);
  for (let j = 0; j < n; j++) postOf[j] = Math.min(options.posts - 1, Math.floor(rng() ** 1.15 * options.posts));
  // Counting sort by post, so each post's signals are contiguous (and chunks take whole posts).
  const firstSignal = new Int32Array(options.posts + 1);
  for (let j = 0; j < n; j++) firstSignal[postOf[j]! + 1]! += 1;
  for (let i = 0; i < options.posts; i++) firstSignal[i + 1]! += firstSignal[i]!;
  const fill = firstSignal.slice(0, options.posts);
  const order = new Int32Array(n);
  for (let j = 0; j < n; j++) order[fill[postOf[j]!]!++] = j;
  const sortedKind = new Uint8Array(n);
  const sortedTheme = new Int32Array(n);
  const sortedProduct = new Int16Array(n);
  const seenAt = new Float64Array(n);
  const themeSignals = new Int32Array(themeCount);
  const themeUpdated = new Array<number>(themeCount).fill(0);
  for (let k = 0; k < n; k++) {
    const j = order[k]!;
    sortedKind[k] = kind[j]!;
    sortedTheme[k] = theme[j]!;
    sortedProduct[k] = product[j]!;
    // Seen when the digest after the post ran: 1 to 30 hours later, at a millisecond of its own.
    seenAt[k] = Math.min(END, postTime(options, postOf[j]!) + HOUR + Math.floor(rng() * 29 * HOUR));
    const t = theme[j]!;
    if (t >= 0) {
      themeSignals[t]! += 1;
      themeUpdated[t] = Math.max(themeUpdated[t]!, seenAt[k]!);
    }
  }

  // pains.get target: the pain theme whose size is nearest 40 (the first such).
  let target = 0;
  for (let t = 1; t < options.painThemes; t++) {
    if (Math.abs(themeSignals[t]! - 40) < Math.abs(themeSignals[target]! - 40)) target = t;
  }

  // competitors.list: every mentioned product, then the tracked ones nobody mentions.
  const mentioned = new Set<number>();
  for (let k = 0; k < n; k++) if (sortedKind[k] === KIND_COMPETITOR) mentioned.add(sortedProduct[k]!);
  const silentTracked = 1 + PRODUCTS.slice(0, TRACKED).filter((_, p) => !mentioned.has(p)).length;

  return {
    options,
    themeIds,
    themeTypes,
    themeTitles,
    themeSummaries,
    themeUpdatedAt: themeUpdated,
    themeSignals,
    firstSignal,
    signalKind: sortedKind,
    signalTheme: sortedTheme,
    signalProduct: sortedProduct,
    signalSeenAt: seenAt,
    targets: {
      projectId: BENCH_PROJECT_ID,
      owner: BENCH_OWNER,
      briefItems: 0,
      briefN: 0,
      painThemeCount: options.painThemes,
      competitorThemeCount: options.competitorThemes,
      painThemeId: themeIds[target]!,
      painThemeSignals: themeSignals[target]!,
      permalink: '',
      permalinkComments: 0,
      products: mentioned.size,
      competitorEntries: mentioned.size + silentTracked,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Posts, threads and signals
// ---------------------------------------------------------------------------------------------

interface GeneratedPost {
  post: BundlePost;
  signals: BundleSignal[];
  comments: number;
}

/** Reddit-like base36 post id, unique per index. */
const postId = (i: number) => `b${(i + 1_000_000).toString(36)}`;

function comments(rng: Rng, postAt: number, depth: number, count: number, sentences: string[], authors: string[], ids: { next: number; post: number }): BundleComment[] {
  const out: BundleComment[] = [];
  for (let c = 0; c < count; c++) {
    const author = pick(rng, AUTHORS);
    authors.push(author);
    const at = postAt + Math.floor(rng() * 48 * HOUR) + depth * 10 * 60_000;
    // Replies thin out with depth: at most five levels of nesting.
    const replies = depth < 4 ? poisson(rng, [0.8, 0.5, 0.3, 0.15][depth]!) : 0;
    out.push({
      id: `${(ids.post * 4096 + ids.next++).toString(36)}`,
      author,
      body: paragraphs(rng, Math.max(1, Math.round(logNormal(rng, 1.6, 0.6))), sentences),
      score: Math.max(-5, Math.round(logNormal(rng, 3, 1.1)) - 1),
      createdAt: iso(Math.min(END, at)),
      replies: comments(rng, at, depth + 1, replies, sentences, authors, ids),
    });
  }
  return out;
}

function generatePost(plan: Plan, i: number): GeneratedPost {
  const { options } = plan;
  const rng = streamRng(options.seed, 1, i);
  const at = postTime(options, i);
  const community = COMMUNITIES[weighted(rng, COMMUNITY_WEIGHTS)]!.name;
  const sentences: string[] = [];
  const authors: string[] = [];
  const title = sentence(rng).slice(0, 300);
  const id = postId(i);
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').split('_').slice(0, 8).join('_');
  const permalink = `/r/${community}/comments/${id}/${slug}/`;
  // One post in ten is a link or title-only post; the others have a body of a few paragraphs.
  const selftext = rng() < 0.1 ? '' : paragraphs(rng, Math.max(1, Math.round(logNormal(rng, 4, 0.7))), sentences);
  const author = pick(rng, AUTHORS);
  authors.push(author);
  const ids = { next: 0, post: i };
  const thread = comments(rng, at, 0, Math.min(60, Math.round(logNormal(rng, 3, 0.9)) - 1), sentences, authors, ids);
  const post: BundlePost = {
    id,
    url: `https://www.reddit.com${permalink}`,
    permalink,
    community,
    title,
    selftext,
    author,
    score: Math.max(0, Math.round(logNormal(rng, 8, 1.3))),
    postCreatedAt: iso(at),
    comments: thread,
  };

  const signals: BundleSignal[] = [];
  for (let k = plan.firstSignal[i]!; k < plan.firstSignal[i + 1]!; k++) {
    const kind = plan.signalKind[k]!;
    const t = plan.signalTheme[k]!;
    const p = plan.signalProduct[k]!;
    // A quote is a verbatim sentence of the thread (or the title), as the analyzers produce;
    // the random text names no product, so a competitor mention gets a lead-in that does.
    let quote = sentences.length > 0 ? pick(rng, sentences) : title;
    if (kind === KIND_COMPETITOR) {
      // Mentions spell the product as people do: mostly as written, sometimes in lower case.
      const name = PRODUCTS[p]!;
      const spelled = rng() < 0.2 ? name.toLowerCase() : name;
      quote = `Switched away from ${spelled} because ${quote.charAt(0).toLowerCase()}${quote.slice(1)}`;
      signals.push(signal(rng, id, 'competitor', quote, pick(rng, authors), t, spelled, plan.signalSeenAt[k]!, plan));
    } else {
      signals.push(signal(rng, id, KIND_NAMES[kind]!, quote, pick(rng, authors), t, null, plan.signalSeenAt[k]!, plan));
    }
  }
  return { post, signals, comments: ids.next };
}

function signal(rng: Rng, postId: string, kind: BundleSignal['kind'], quote: string, author: string, theme: number, competitor: string | null, seenAt: number, plan: Plan): BundleSignal {
  const moves: BundleSignal['moves'] =
    kind === 'competitor' && rng() < 0.5
      ? {}
      : { content: { title: sentence(rng).slice(0, 120), body: `${sentence(rng)} ${sentence(rng)} ${sentence(rng)}` } };
  return {
    id: randomId(rng, 'sig'),
    postId,
    kind,
    quote,
    author,
    themeId: theme >= 0 ? plan.themeIds[theme]! : null,
    competitor,
    seenAt: iso(seenAt),
    moves,
  };
}

// ---------------------------------------------------------------------------------------------
// Briefs and runs
// ---------------------------------------------------------------------------------------------

function briefsAndRuns(plan: Plan, rng: Rng): { briefs: BundleBrief[]; runs: BundleRun[] } {
  const { options } = plan;
  const briefs: BundleBrief[] = [];
  const runs: BundleRun[] = [];
  const fmt = (ms: number) => new Date(ms).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  /** A post of the brief's window (regenerated from its own stream: the same post as in its chunk). */
  const postIn = (from: number, to: number): BundlePost => {
    const index = (t: number) => Math.max(0, Math.min(options.posts - 1, Math.floor(((t - (END - SPAN)) / SPAN) * options.posts)));
    return generatePost(plan, int(rng, index(from), index(to))).post;
  };
  const item = (origin: string, from: number, to: number) => {
    const source = postIn(from, to);
    return {
      origin,
      surfaced: {
        summary: sentence(rng),
        quote: { text: sentence(rng), who: pick(rng, AUTHORS), sub: source.community },
      },
      move: { title: sentence(rng).slice(0, 120), body: `${sentence(rng)} ${sentence(rng)}` },
      sources: [source, ...Array.from({ length: int(rng, 0, 2) }, () => postIn(from, to))].map((s) => ({ title: s.title, url: s.url, sub: s.community })),
    };
  };
  let numbered = 0;
  for (let b = 0; b < plan.options.briefs; b++) {
    const windowEnd = END - b * DAY;
    const windowStart = windowEnd - DAY;
    const content = Array.from({ length: int(rng, 3, 6) }, () => item('pain', windowStart, windowEnd));
    const offers = Array.from({ length: int(rng, 1, 4) }, () => item('pain', windowStart, windowEnd));
    if (b < 5) numbered += content.length + offers.length;
    briefs.push({
      id: randomId(rng, 'brf'),
      window: `${fmt(windowStart)} – ${fmt(windowEnd)}`,
      windowStart: iso(windowStart),
      windowEnd: iso(windowEnd),
      createdAt: iso(windowEnd + 20 * 60_000),
      sections: [
        { kind: 'content', title: 'Content ideas', items: content },
        { kind: 'offers', title: 'Offers', items: offers },
      ],
    });
    runs.push({
      id: randomId(rng, 'run'),
      windowStart: iso(windowStart),
      windowEnd: iso(windowEnd),
      status: 'complete',
      signalCounts: { pain: int(rng, 100, 600), competitor: int(rng, 10, 90), content: int(rng, 10, 90) },
      postsAnalyzed: int(rng, 150, 400),
    });
  }
  plan.targets.briefItems = numbered;
  plan.targets.briefN = Math.ceil(numbered / 2);
  return { briefs, runs };
}

// ---------------------------------------------------------------------------------------------
// Bundles
// ---------------------------------------------------------------------------------------------

function projectShell(): Omit<BundleProject, 'posts' | 'themes' | 'signals' | 'briefs' | 'runs'> {
  const competitor = (name: string) => ({
    name,
    url: `https://${name.toLowerCase()}.example.com`,
    description: `${name} is a tool our customers compare us with.`,
  });
  return {
    owner: BENCH_OWNER,
    id: BENCH_PROJECT_ID,
    name: 'Benchmark Project',
    url: 'https://bench.example.com',
    category: 'Sales software',
    description: 'A CRM and billing tool for small service businesses: pipeline, quotes, invoices and reminders in one place.',
    idealCustomer: 'Owners of service businesses with 2 to 20 people who run sales and billing from spreadsheets today.',
    competitors: [...PRODUCTS.slice(0, TRACKED), UNMENTIONED_PRODUCT].map(competitor),
    offerings: [
      { name: 'Pipeline', description: 'Deals, follow-ups and reminders that fill themselves from email.' },
      { name: 'Invoicing', description: 'Quotes that turn into invoices, with automatic payment reminders.' },
    ],
    communities: COMMUNITIES,
    filterRules: ['Ignore job postings.', 'Exclude self-promotion threads.'],
    memoryStatus: 'ready',
    memoryRefreshRequestedAt: null,
    createdAt: iso(END - SPAN - DAY),
  };
}

export interface Chunk {
  index: number;
  count: number;
  bundle: Bundle;
  posts: number;
  signals: number;
}

/**
 * The project as a sequence of self-contained bundles (see the top of this file). Fills
 * `plan.targets` (brief number, permalink) as it goes; they are complete after the last chunk.
 */
export function* bundleChunks(plan: Plan): Generator<Chunk> {
  const { options } = plan;
  const count = Math.ceil(options.posts / options.chunkPosts);
  const middle = Math.floor(options.posts / 2);
  for (let c = 0; c < count; c++) {
    const from = c * options.chunkPosts;
    const to = Math.min(options.posts, from + options.chunkPosts);
    const posts: BundlePost[] = [];
    const signals: BundleSignal[] = [];
    const themes = new Set<number>();
    for (let i = from; i < to; i++) {
      const generated = generatePost(plan, i);
      posts.push(generated.post);
      signals.push(...generated.signals);
      for (let k = plan.firstSignal[i]!; k < plan.firstSignal[i + 1]!; k++) {
        if (plan.signalTheme[k]! >= 0) themes.add(plan.signalTheme[k]!);
      }
      // posts.get target: from the middle of the project on, the first post with a typical
      // thread (a body and 8–12 comments).
      if (plan.targets.permalink === '' && i >= middle && generated.post.selftext !== '' && generated.comments >= 8 && generated.comments <= 12) {
        plan.targets.permalink = generated.post.permalink;
        plan.targets.permalinkComments = generated.comments;
      }
    }
    const bundleThemes: BundleTheme[] = [...themes]
      .sort((a, b) => a - b)
      .map((t) => ({
        id: plan.themeIds[t]!,
        type: plan.themeTypes[t]!,
        title: plan.themeTitles[t]!,
        summary: plan.themeSummaries[t]!,
        // The last change is the newest signal, a few minutes after it was seen.
        updatedAt: iso(plan.themeUpdatedAt[t]! + (t % 600) * 1000),
      }));
    const extras = c === 0 ? briefsAndRuns(plan, streamRng(options.seed, 2, 0)) : { briefs: [], runs: [] };
    yield {
      index: c,
      count,
      posts: posts.length,
      signals: signals.length,
      bundle: {
        format: BUNDLE_FORMAT,
        version: BUNDLE_VERSION,
        projects: [{ ...projectShell(), posts, themes: bundleThemes, signals, ...extras }],
      },
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Stand-alone: write the chunks as bundle files
// ---------------------------------------------------------------------------------------------

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { out: { type: 'string', default: 'bench/out/bundles' }, posts: { type: 'string' }, seed: { type: 'string' } },
  });
  const scale = values.posts ? Number(values.posts) / DEFAULT_OPTIONS.posts : 1;
  const options: GenerateOptions = {
    ...DEFAULT_OPTIONS,
    seed: values.seed ? Number(values.seed) : DEFAULT_OPTIONS.seed,
    posts: Math.round(DEFAULT_OPTIONS.posts * scale),
    painThemes: Math.max(1, Math.round(DEFAULT_OPTIONS.painThemes * scale)),
    competitorThemes: Math.max(1, Math.round(DEFAULT_OPTIONS.competitorThemes * scale)),
    signals: Math.round(DEFAULT_OPTIONS.signals * scale),
  };
  mkdirSync(values.out!, { recursive: true });
  const plan = planProject(options);
  for (const chunk of bundleChunks(plan)) {
    const file = join(values.out!, `bundle-${String(chunk.index + 1).padStart(2, '0')}-of-${chunk.count}.json`);
    writeFileSync(file, JSON.stringify(chunk.bundle));
    process.stderr.write(`${file}: ${chunk.posts} posts, ${chunk.signals} signals\n`);
  }
  process.stdout.write(`${JSON.stringify(plan.targets)}\n`);
}
