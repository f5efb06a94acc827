/**
 * A fresh, empty database per test suite: a temporary SQLite file always, and a new PostgreSQL
 * database on TEST_DATABASE_URL's server when that variable is set (dropped again afterwards).
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Dialect } from '../../src/store/db.ts';

export const DIALECTS: Dialect[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase {
  url: string;
  dialect: Dialect;
  drop(): Promise<void>;
}

export function freshDatabase(dialect: Dialect): Promise<TestDatabase> {
  return newDatabase(dialect);
}

/**
 * A new database holding what `template` holds (its store must be closed: PostgreSQL copies a
 * database nobody is connected to, and a closed SQLite file has its log checkpointed into it).
 * Building data once and copying it is how a suite gives several tests the same starting state
 * when building it is slow (the demo's digest runs).
 */
export function copyDatabase(template: TestDatabase): Promise<TestDatabase> {
  return newDatabase(template.dialect, template);
}

async function newDatabase(dialect: Dialect, template?: TestDatabase): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'signals-test-'));
    const file = join(dir, 'test.db');
    if (template) copyFileSync(template.url.slice('sqlite:'.length), file);
    return { url: `sqlite:${file}`, dialect, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `signals_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(base, `create database ${name}${template ? ` template ${new URL(template.url).pathname.slice(1)}` : ''}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), dialect, drop: () => adminQuery(base, `drop database if exists ${name} with (force)`) };
}

async function adminQuery(base: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
