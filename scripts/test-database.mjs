// Creates or drops a PostgreSQL database for a test run: `node scripts/test-database.mjs create|drop NAME`.
// Uses the `pg` package (no psql needed) against ADMIN_DATABASE_URL (default: local server, user postgres).
import pg from 'pg';

const [action, name] = process.argv.slice(2);
if (!['create', 'drop'].includes(action) || !/^[a-z0-9_]+$/.test(name ?? '')) {
  console.error('usage: node scripts/test-database.mjs create|drop NAME (lowercase letters, digits, _)');
  process.exit(2);
}
const admin = process.env.ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const client = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 5000 });
try {
  await client.connect();
  if (action === 'create') await client.query(`create database ${name}`);
  else await client.query(`drop database if exists ${name} with (force)`);
} catch (err) {
  console.error(`test-database ${action} ${name}: ${err.message}`);
  process.exit(1);
} finally {
  await client.end().catch(() => {});
}
