/**
 * Opens the one database the service runs on: embedded SQLite by default, PostgreSQL for several
 * processes. Both dialects run the same Kysely queries; the few places that differ ask `dialect`.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { Schema } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Schema>;

export interface Store {
  db: Db;
  dialect: Dialect;
  /** A human-readable description of where the data lives, without credentials. */
  location: string;
  /**
   * Brings the query planner's statistics up to date after many rows were written: after each of
   * a digest run's batches, and before it reads what it wrote. Cheap when nothing changed much
   * (0.14 ms on the export's database; only a table that grew or shrank tenfold is analyzed again).
   */
  refreshStatistics(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Called when the PostgreSQL pool loses an idle connection; the pool replaces it. */
  onPoolError?: (error: Error) => void;
}

export function parseDatabaseUrl(url: string): { dialect: Dialect; target: string } {
  if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: 'postgres', target: url };
  const path = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : url;
  if (path === '') throw new Error('DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:./data/signals.db');
  return { dialect: 'sqlite', target: path };
}

export function openStore(databaseUrl: string, options: OpenOptions = {}): Store {
  const { dialect, target } = parseDatabaseUrl(databaseUrl);
  return dialect === 'postgres' ? openPostgres(target, options) : openSqlite(target);
}

function openSqlite(path: string): Store {
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  const database = new Database(path);
  // WAL lets readers run beside the one writer; FULL makes a committed write survive power loss;
  // the busy timeout makes a second process wait for the write lock instead of failing at once.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  // SQLite plans with table statistics only once ANALYZE has gathered them; without them, the
  // brief's "unthemed pains of the window" query walked every post of the window and, for each,
  // every pooled pain of the project (0.9 s of a 3,747-thread backfill; 3 ms with statistics).
  // `optimize` with 0x10000 checks every table and analyzes those that never were or have grown
  // many times since (SQLite bounds the work itself): recommended when a connection opens and
  // after large changes. docs/performance.md, "Digest pipeline".
  try {
    database.pragma('optimize=0x10002');
  } catch {
    // Statistics only speed queries up: a database another process holds busy (or a read-only
    // file) opens without them, and the next digest run's refresh gathers them.
  }
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  return {
    db,
    dialect: 'sqlite',
    location: `sqlite:${path}`,
    // Through Kysely, which hands out the one connection to one user at a time: run directly, the
    // ANALYZE could land inside another caller's open transaction.
    refreshStatistics: async () => {
      await sql`pragma optimize=0x10002`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/**
 * Kysely's SQLite driver prepares every statement anew (SQLite parses and plans it each time),
 * while the service runs the same few dozen statements over and over: keep the prepared ones,
 * by SQL text. Long statements (the batched upserts of an import) are not kept, and a statement
 * that is still being iterated (a streamed query) is never handed out a second time.
 */
function withStatementCache(database: Database.Database, max = 200): SqliteDatabase {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      const cached = cache.get(sql);
      if (cached && !cached.busy) {
        // Least recently used goes first: re-inserting keeps the Map in use order.
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      if (!cached && sql.length <= 4_000) {
        cache.set(sql, statement);
        if (cache.size > max) cache.delete(cache.keys().next().value!);
      }
      return statement;
    },
  };
}

function openPostgres(url: string, options: OpenOptions): Store {
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.PG_POOL_MAX ?? 10) });
  // Without a listener, an idle client's error (server restart, network cut) is an unhandled
  // 'error' event that kills the process; the pool already drops the broken client.
  pool.on('error', (error) => options.onPoolError?.(error));
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  const parsed = new URL(url);
  return {
    db,
    dialect: 'postgres',
    location: `postgres://${parsed.host}${parsed.pathname}`,
    // PostgreSQL's autovacuum analyzes tables as they change, and its planner estimates row
    // counts from the table's size meanwhile; an ANALYZE per run would queue behind every other
    // run's on the same shared tables.
    refreshStatistics: async () => {},
    close: () => db.destroy(),
  };
}
