/**
 * The live source (DESIGN §8 "Collect"): each watched community's address picks an adapter; the
 * adapters run one after the other with one polite HTTP client, and what each community gave is
 * recorded, failure included. One community failing (a 404 repository, a rate limit that will
 * not clear in time, a forum that answers with a login page) never stops the others: the run
 * completes with what could be read and says which community failed and why.
 *
 * Cursors. Each (project, community) remembers the span already collected. A run asks a
 * community only for what came after that span (less a small overlap, for search indexes that
 * lag), and moves the cursor only in `commit()`, which the run calls once every thread it was
 * given is stored: a run that fails mid-way asks again next time, and the signals' derived ids
 * make the second reading add nothing twice.
 */
import type { SourceSettings } from '../../config.ts';
import { PoliteClient, type PoliteOptions } from '../../net/polite.ts';
import type { Db } from '../../store/db.ts';
import { cursorsOf, saveCursors, type SourceCursor } from '../../store/cursors.ts';
import { parseAddress, type Address } from './address.ts';
import { collectDiscourse } from './discourse.ts';
import { collectGithub } from './github.ts';
import { collectHn } from './hn.ts';
import { collectRedditApi } from './reddit-api.ts';
import { collectRedditRss } from './reddit-rss.ts';
import type { CollectRequest, CommunityOutcome, Source, SourceThread } from './source.ts';
import { collectStackExchange } from './stackexchange.ts';

export type LiveSourceName = 'reddit-rss' | 'reddit-api' | 'hn' | 'stackexchange' | 'github' | 'discourse';

/** What an adapter is given for one collection. */
export interface Collect {
  http: PoliteClient;
  settings: SourceSettings;
  /** Items created (or, for activity-sorted sources, active) after this instant… */
  after: Date;
  /** …and at or before this one. */
  until: Date;
  /** The project's name and tracked competitors (Hacker News searches for them by default). */
  project: { name: string; competitors: readonly string[] };
  signal?: AbortSignal;
  /** Counts items read from the API (progress). */
  read(items: number): void;
  /** Something the run should say that is not a failure (a limit reached, comments dropped). */
  note(text: string): void;
}

export type Collector = (collect: Collect) => AsyncIterable<SourceThread>;

interface Unit {
  source: LiveSourceName;
  /** The memory's community names this unit collects (several for Reddit's one multireddit). */
  communities: string[];
  collect: Collector;
}

/** Search indexes (Algolia, Stack Exchange) show items a little after they are made. */
const CURSOR_OVERLAP_MS = 10 * 60_000;

export interface LiveSourceOptions {
  db: Db;
  settings: SourceSettings;
  /** Tests: pacing and retry clocks, retry counts. */
  http?: PoliteOptions;
  now?: () => Date;
}

export function liveSource(options: LiveSourceOptions): Source {
  const outcomes: CommunityOutcome[] = [];
  let pending: { projectId: string; cursors: SourceCursor[] } | undefined;
  const now = options.now ?? (() => new Date());
  return {
    name: 'live',
    outcomes: () => outcomes.map((o) => ({ ...o, ...(o.notes ? { notes: [...o.notes] } : {}) })),
    async commit() {
      if (pending) await saveCursors(options.db, pending.projectId, pending.cursors, now().toISOString());
      pending = undefined;
    },
    async *threads(request: CollectRequest) {
      const project = request.project;
      if (!project) throw new Error('a live collection needs the project (id, name, competitors)');
      outcomes.length = 0;
      pending = { projectId: project.id, cursors: [] };
      const { units, skipped } = planUnits(request.communities, options.settings);
      outcomes.push(...skipped);
      const cursors = await cursorsOf(options.db, project.id);
      const http = new PoliteClient({ ...options.http, allowHosts: options.settings.fetchAllowHosts, signal: request.signal });
      const seen = new Set<string>();
      let itemsRead = 0;
      let handedOut = 0;
      const until = new Date(Math.min(request.until.getTime(), now().getTime()));
      for (const unit of units) {
        const outcome: CommunityOutcome = { community: unit.communities.join(', '), source: unit.source, status: 'ok', threads: 0, requests: 0 };
        const perCommunity = unit.communities.map((c) => ({ ...outcome, community: c }));
        outcomes.push(...perCommunity);
        const after = new Date(Math.min(...unit.communities.map((c) => lowerBound(cursors.get(c), request.since).getTime())));
        const before = http.requests;
        const notes: string[] = [];
        const sync = () => {
          for (const o of perCommunity) {
            o.requests = http.requests - before;
            if (notes.length > 0) o.notes = [...notes];
          }
        };
        if (after.getTime() >= until.getTime()) {
          for (const c of unit.communities) pending.cursors.push(advance(cursors.get(c), unit.source, c, request.since, until));
          continue;
        }
        try {
          const collect: Collect = {
            http,
            settings: options.settings,
            after,
            until,
            project: { name: project.name, competitors: project.competitors },
            signal: request.signal,
            read: (items) => {
              itemsRead += items;
              request.onProgress?.({ stage: 'reading', itemsRead, threads: handedOut });
            },
            note: (text) => notes.push(text),
          };
          for await (const thread of unit.collect(collect)) {
            request.signal?.throwIfAborted();
            if (seen.has(thread.id)) continue;
            seen.add(thread.id);
            handedOut += 1;
            for (const o of perCommunity) {
              if (unit.communities.length === 1 || sameCommunity(o.community, thread.community)) o.threads += 1;
            }
            sync();
            yield thread;
          }
          sync();
          for (const c of unit.communities) pending.cursors.push(advance(cursors.get(c), unit.source, c, request.since, until));
        } catch (err) {
          if (request.signal?.aborted) throw err;
          sync();
          for (const o of perCommunity) {
            o.status = 'failed';
            o.error = err instanceof Error ? err.message : String(err);
          }
        }
      }
      request.onProgress?.({ stage: 'threads', itemsRead, threads: handedOut });
    },
  };
}

/** The communities as collection units, and the outcomes of those no source reads. */
export function planUnits(communities: readonly string[], settings: SourceSettings): { units: Unit[]; skipped: CommunityOutcome[] } {
  const units: Unit[] = [];
  const skipped: CommunityOutcome[] = [];
  const reddit: { community: string; subreddit: string }[] = [];
  for (const community of communities) {
    const address = parseAddress(community);
    if (address.kind === 'unknown') {
      skipped.push({ community, source: null, status: 'skipped', threads: 0, requests: 0, error: address.reason });
    } else if (address.kind === 'reddit') {
      reddit.push({ community, subreddit: address.subreddit });
    } else {
      units.push(unitOf(community, address));
    }
  }
  if (reddit.length > 0) {
    const subreddits = reddit.map((r) => r.subreddit);
    const api = settings.redditClientId !== undefined && settings.redditClientSecret !== undefined;
    units.unshift({
      source: api ? 'reddit-api' : 'reddit-rss',
      communities: reddit.map((r) => r.community),
      collect: api ? (c) => collectRedditApi(c, subreddits) : (c) => collectRedditRss(c, subreddits),
    });
  }
  return { units, skipped };
}

function unitOf(community: string, address: Exclude<Address, { kind: 'unknown' | 'reddit' }>): Unit {
  switch (address.kind) {
    case 'hn':
      return { source: 'hn', communities: [community], collect: (c) => collectHn(c, address.terms) };
    case 'stackexchange':
      return { source: 'stackexchange', communities: [community], collect: (c) => collectStackExchange(c, address.site, address.tags) };
    case 'github':
      return { source: 'github', communities: [community], collect: (c) => collectGithub(c, address.owner, address.repo) };
    case 'discourse':
      return { source: 'discourse', communities: [community], collect: (c) => collectDiscourse(c, address.base, address.category) };
  }
}

/**
 * Where a community's collection starts: just before the end of its cursor when the window starts
 * inside the span already collected (the overlap re-asks what a lagging index may have added
 * late), else the window's own start.
 */
export function lowerBound(cursor: SourceCursor | undefined, since: Date): Date {
  if (!cursor) return since;
  const from = Date.parse(cursor.collectedFrom);
  const through = Date.parse(cursor.collectedThrough);
  if (from > since.getTime() || through < since.getTime()) return since;
  return new Date(through - CURSOR_OVERLAP_MS);
}

/** The cursor after collecting `since`…`until`: one span when it touches the old one, else a new one. */
function advance(cursor: SourceCursor | undefined, source: string, community: string, since: Date, until: Date): SourceCursor {
  const contiguous = cursor !== undefined && Date.parse(cursor.collectedFrom) <= since.getTime() && Date.parse(cursor.collectedThrough) >= since.getTime();
  const from = contiguous ? cursor.collectedFrom : since.toISOString();
  const through = contiguous && Date.parse(cursor.collectedThrough) > until.getTime() ? cursor.collectedThrough : until.toISOString();
  return { community, source, collectedFrom: from, collectedThrough: through };
}

/** A Reddit thread's subreddit against a watched name (`r/SaaS`, `SaaS`). */
function sameCommunity(watched: string, subreddit: string): boolean {
  const address = parseAddress(watched);
  return address.kind === 'reddit' && address.subreddit.toLowerCase() === subreddit.toLowerCase();
}
