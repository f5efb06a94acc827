/**
 * The bundle of DESIGN §5: one JSON document holding whole projects, read by `signals import` and
 * written by `signals export`. Validation is total (shape, bounds, timestamps, references) so that
 * a bad bundle is refused before anything is written, with the path of the first fault.
 */
import { z } from 'zod';
import { LIMITS } from '../domain/limits.ts';
import { MEMORY_STATUSES, RUN_STATUSES, SIGNAL_KINDS, THEME_TYPES } from '../domain/resources.ts';
import { isIsoTimestamp } from '../domain/time.ts';
import { normalizePermalinkKey } from '../domain/permalink.ts';
import type { ProjectMemory } from '../domain/resources.ts';

export const BUNDLE_FORMAT = 'project-signals-bundle';
export const BUNDLE_VERSION = 1;

const str = (max: number) => z.string().max(max);
const timestamp = z.string().refine(isIsoTimestamp, 'must be a timestamp like 2026-11-01T09:00:00.000Z');
const httpUrl = str(LIMITS.url).refine((v) => /^https?:\/\/[^\s]+$/i.test(v), 'must be an http(s) URL');
const id = z.string().min(1).max(LIMITS.idLength);
const move = z.strictObject({ title: str(LIMITS.name), body: str(LIMITS.text) });

export interface BundleComment {
  id: string;
  author: string;
  body: string;
  score: number;
  createdAt: string;
  replies: BundleComment[];
}

const comment: z.ZodType<BundleComment> = z.lazy(() =>
  z.strictObject({
    id,
    author: str(LIMITS.name),
    body: str(LIMITS.postText),
    score: z.number().int(),
    createdAt: timestamp,
    replies: z.array(comment),
  }),
);

const post = z.strictObject({
  id,
  url: httpUrl,
  permalink: str(LIMITS.permalinkLength).startsWith('/'),
  community: str(LIMITS.name),
  title: str(LIMITS.text),
  selftext: str(LIMITS.postText),
  author: str(LIMITS.name),
  score: z.number().int(),
  postCreatedAt: timestamp,
  comments: z.array(comment),
});

const theme = z.strictObject({
  id,
  type: z.enum(THEME_TYPES),
  title: str(LIMITS.name),
  summary: str(LIMITS.text),
  updatedAt: timestamp,
});

const signal = z.strictObject({
  id,
  postId: id,
  kind: z.enum(SIGNAL_KINDS),
  quote: str(LIMITS.quote),
  author: str(LIMITS.name),
  themeId: id.nullable(),
  competitor: str(LIMITS.name).nullable(),
  seenAt: timestamp,
  moves: z.record(z.string().max(LIMITS.name), move),
});

const item = z.strictObject({
  origin: str(LIMITS.name),
  surfaced: z.strictObject({
    summary: str(LIMITS.text),
    quote: z.strictObject({ text: str(LIMITS.quote), who: str(LIMITS.name), sub: str(LIMITS.name) }).optional(),
  }),
  move,
  sources: z.array(z.strictObject({ title: str(LIMITS.text), url: httpUrl, sub: str(LIMITS.name) })),
});

const brief = z.strictObject({
  id,
  window: str(LIMITS.name),
  windowStart: timestamp,
  windowEnd: timestamp,
  createdAt: timestamp,
  sections: z.array(z.strictObject({ kind: str(LIMITS.name), title: str(LIMITS.name), items: z.array(item) })),
});

const run = z.strictObject({
  id,
  windowStart: timestamp,
  windowEnd: timestamp,
  status: z.enum(RUN_STATUSES),
  signalCounts: z.record(z.string().max(LIMITS.name), z.number().int().min(0)),
  postsAnalyzed: z.number().int().min(0),
});

const named = z.strictObject({ name: str(LIMITS.name).min(1), description: str(LIMITS.text) });

const project = z.strictObject({
  owner: z.string().email(),
  id,
  name: str(LIMITS.name).min(1),
  url: httpUrl,
  category: str(LIMITS.name),
  description: str(LIMITS.text),
  idealCustomer: str(LIMITS.text),
  competitors: z.array(z.strictObject({ name: str(LIMITS.name).min(1), url: httpUrl, description: str(LIMITS.text) })),
  offerings: z.array(named),
  communities: z.array(named).max(LIMITS.communities),
  filterRules: z.array(str(LIMITS.rule).min(1)),
  memoryStatus: z.enum(MEMORY_STATUSES),
  memoryRefreshRequestedAt: timestamp.nullable(),
  createdAt: timestamp,
  posts: z.array(post),
  themes: z.array(theme),
  signals: z.array(signal),
  briefs: z.array(brief),
  runs: z.array(run),
});

export const bundleSchema = z.strictObject({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(BUNDLE_VERSION),
  projects: z.array(project),
});

export type Bundle = z.infer<typeof bundleSchema>;
export type BundleProject = Bundle['projects'][number];
export type BundlePost = BundleProject['posts'][number];
export type BundleTheme = BundleProject['themes'][number];
export type BundleSignal = BundleProject['signals'][number];
export type BundleBrief = BundleProject['briefs'][number];
export type BundleRun = BundleProject['runs'][number];

export class BundleError extends Error {}

/** `projects[0].signals[12].postId` from a Zod issue path. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    out += typeof part === 'number' ? `[${part}]` : out === '' ? String(part) : `.${String(part)}`;
  }
  return out || '(root)';
}

/** Parses and cross-checks a bundle; throws BundleError naming the first fault. */
export function parseBundle(raw: unknown): Bundle {
  const parsed = bundleSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new BundleError(`${formatPath(issue.path)}: ${issue.message}`);
  }
  const bundle = parsed.data;
  const seenProjects = new Set<string>();
  bundle.projects.forEach((p, i) => {
    const at = `projects[${i}]`;
    if (seenProjects.has(p.id)) throw new BundleError(`${at}.id: duplicate project id "${p.id}"`);
    seenProjects.add(p.id);
    const postIds = unique(p.posts, (x) => x.id, `${at}.posts`, 'post');
    unique(p.posts, (x) => normalizePermalinkKey(x.permalink), `${at}.posts`, 'permalink', 'permalink');
    const themeTypes = new Map(p.themes.map((t) => [t.id, t.type]));
    unique(p.themes, (x) => x.id, `${at}.themes`, 'theme');
    unique(p.signals, (x) => x.id, `${at}.signals`, 'signal');
    unique(p.briefs, (x) => x.id, `${at}.briefs`, 'brief');
    unique(p.runs, (x) => x.id, `${at}.runs`, 'run');
    p.signals.forEach((s, j) => {
      const sat = `${at}.signals[${j}]`;
      if (!postIds.has(s.postId)) throw new BundleError(`${sat}.postId: no such post "${s.postId}"`);
      if (s.themeId !== null) {
        const type = themeTypes.get(s.themeId);
        if (type === undefined) throw new BundleError(`${sat}.themeId: no such theme "${s.themeId}"`);
        if (s.kind === 'content') throw new BundleError(`${sat}.themeId: a content signal belongs to no theme`);
        // DESIGN §4: a competitor theme holds complaints about one product, both competitor
        // signals and pain signals naming it (other tools' bundles file them so); a pain theme
        // holds pains only.
        if (s.kind === 'competitor' && type !== 'competitor') throw new BundleError(`${sat}.themeId: a competitor signal belongs to a competitor theme`);
      }
      if (s.kind === 'competitor' && !s.competitor?.trim()) {
        throw new BundleError(`${sat}.competitor: a competitor signal names its product`);
      }
    });
  });
  return bundle;
}

function unique<T>(rows: T[], key: (row: T) => string, at: string, what: string, field = 'id'): Set<string> {
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    const k = key(row);
    if (seen.has(k)) throw new BundleError(`${at}[${i}].${field}: duplicate ${what} "${k}"`);
    seen.add(k);
  });
  return seen;
}

/** The project memory a bundle project holds (its other fields are the project's data). */
export function memoryOf(p: BundleProject): ProjectMemory {
  return {
    id: p.id,
    name: p.name,
    url: p.url,
    category: p.category,
    description: p.description,
    idealCustomer: p.idealCustomer,
    competitors: p.competitors,
    offerings: p.offerings,
    communities: p.communities,
    filterRules: p.filterRules,
    memoryStatus: p.memoryStatus,
    memoryRefreshRequestedAt: p.memoryRefreshRequestedAt,
  };
}
