/**
 * For the live-source suites: one collection through the real live source (address parsing,
 * polite client, adapter, cursors) against replay servers, with a clock and a sleep that record
 * every wait instead of sitting it out, so a 429 with `Retry-After: 30` is a test of what the
 * client decided, not thirty seconds of CI.
 */
import { loadSourceSettings, type SourceSettings } from '../../src/config.ts';

import { liveSource } from '../../src/ingest/sources/live.ts';
import type { CommunityOutcome, SourceThread } from '../../src/ingest/sources/source.ts';
import { resetPacing, type PoliteOptions } from '../../src/net/polite.ts';
import { openStore, type Store } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';
import { freshDatabase, type TestDatabase } from './database.ts';

export interface LiveRun {
  threads: SourceThread[];
  outcomes: CommunityOutcome[];
  /** Every wait the client asked for, in milliseconds, in order. */
  waits: number[];
}

export interface LiveCase {
  communities: string[];
  since: Date;
  until: Date;
  /** Environment as `signals` reads it (base URLs pointing at the replay servers, keys). */
  env?: NodeJS.ProcessEnv;
  project?: { id?: string; name?: string; competitors?: string[] };
  http?: PoliteOptions;
  /** Move the cursors after collecting (what a completed run does). */
  commit?: boolean;
}

/** A migrated SQLite store for cursors, dropped by `close()`. */
export async function cursorStore(): Promise<{ store: Store; close(): Promise<void> }> {
  const database: TestDatabase = await freshDatabase('sqlite');
  const store = openStore(database.url);
  await migrate(store);
  return {
    store,
    close: async () => {
      await store.close();
      await database.drop();
    },
  };
}

export function settingsFrom(env: NodeJS.ProcessEnv = {}): SourceSettings {
  return loadSourceSettings({ REDDIT_FEED_INTERVAL_SECONDS: '0', ...env });
}

export async function collectLive(store: Store, c: LiveCase): Promise<LiveRun> {
  resetPacing();
  const waits: number[] = [];
  let clock = c.until.getTime();
  const source = liveSource({
    db: store.db,
    settings: settingsFrom(c.env),
    now: () => new Date(clock),
    http: {
      retryBaseMs: 1_000,
      timeoutMs: 1_000,
      ...c.http,
      now: () => clock,
      random: () => 0.5,
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
    },
  });
  const threads: SourceThread[] = [];
  for await (const thread of source.threads({
    communities: c.communities,
    since: c.since,
    until: c.until,
    project: { id: c.project?.id ?? 'prj_live', name: c.project?.name ?? 'Quantforge', competitors: c.project?.competitors ?? [] },
  })) {
    threads.push(thread);
  }
  if (c.commit) await source.commit!();
  return { threads, outcomes: source.outcomes!(), waits };
}

/** Every comment of a thread, depth first, with its depth (0 = a reply to the post). */
export function flatten(thread: SourceThread): { id: string; author: string; body: string; createdAt: string; depth: number }[] {
  const out: { id: string; author: string; body: string; createdAt: string; depth: number }[] = [];
  const walk = (list: SourceThread['comments'], depth: number) => {
    for (const c of list) {
      out.push({ id: c.id, author: c.author, body: c.body, createdAt: c.createdAt, depth });
      walk(c.replies, depth + 1);
    }
  };
  walk(thread.comments, 0);
  return out;
}
