/**
 * Opens the one database the service runs on: embedded SQLite by default, PostgreSQL for several
 * processes. Both dialects run the same Kysely queries; the few places that differ ask `dialect`.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Schema } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Schema>;

export interface Store {
  db: Db;
  dialect: Dialect;
  /** A human-readable description of where the data lives, without credentials. */
  location: string;
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
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database }) });
  return {
    db,
    dialect: 'sqlite',
    location: `sqlite:${path}`,
    close: () => db.destroy(),
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
    close: () => db.destroy(),
  };
}
