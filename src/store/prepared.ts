/**
 * Precompiled queries: build and compile a Kysely query once, then run it again and again with
 * new parameter values.
 *
 * Kysely builds an operation tree and compiles it to SQL on every call (about 18–25 µs per query
 * on the bench machine, several queries per API call), although the hot reads of this service
 * always produce the same SQL text and differ only in their parameter values. A prepared query
 * is compiled the first time it runs on a Kysely instance, with placeholder ("sentinel") values
 * for its arguments; the compiled parameter positions that hold the sentinels are recorded, and
 * every later call copies the compiled parameters, puts the call's values in those positions and
 * hands `{ ...compiled, parameters }` to `db.executeQuery`. The SQL text is byte for byte the one
 * Kysely compiles for the same values, so SQLite's statement cache (db.ts) still finds it.
 *
 *     const byId = prepareQuery({ projectId: 'string', id: 'string' }, (db, a) =>
 *       db.selectFrom('posts').selectAll().where('project_id', '=', a.projectId).where('id', '=', a.id));
 *     const row = await byId.executeTakeFirst(db, { projectId, id }); // typed as the builder's row
 *
 * Only scalar arguments (strings and numbers) can be parameters. A query whose SQL depends on a
 * value (an `in (...)` list, a direction, an optional filter) is not one query: keep it dynamic,
 * or prepare one query per variant. To make such mistakes loud, the first compile builds the
 * query twice with two different sets of sentinels and refuses (throws) unless
 *   - the two SQL texts are identical (no argument was inlined or changed the query's shape),
 *   - every argument appears among the compiled parameters, at the same positions both times,
 *   - every other parameter (a constant of the builder, e.g. `limit(1)`) is the same both times.
 * Each call checks its values' types, so an array or `undefined` never reaches the SQL.
 *
 * Compiled queries are kept per Kysely instance (a WeakMap): SQLite and PostgreSQL compile
 * differently, each Store has its own instance, and a transaction (`trx`) is an instance of its
 * own whose executor holds the transaction's connection, so a prepared query run with `trx` runs
 * on that transaction (it is compiled once per transaction, which costs what a dynamic query
 * does). Instances with Kysely plugins are refused: a plugin may keep per-query state keyed by
 * the query id, which a replayed compile would not honour.
 */
import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './db.ts';

/** The type of one argument: a parameter of the SQL, never an array or an identifier. */
export type ArgKind = 'string' | 'number';
export type Signature = Readonly<Record<string, ArgKind>>;
export type Args<S extends Signature> = { readonly [K in keyof S]: S[K] extends 'number' ? number : string };

export interface PreparedQuery<S extends Signature, R> {
  /** Every row, as the builder's `.execute()` would return them. */
  execute(db: Db, args: Args<S>): Promise<R[]>;
  /** The first row or undefined, as the builder's `.executeTakeFirst()`. */
  executeTakeFirst(db: Db, args: Args<S>): Promise<R | undefined>;
}

interface Template {
  compiled: CompiledQuery;
  /** [parameter position, argument name]: an argument used twice has two slots. */
  slots: Array<[number, string]>;
}

let sentinelSerial = 0;

/**
 * Sentinel values for one compile. Strings carry a NUL and a serial, so no constant of a query
 * can equal one; numbers are large negative integers, never a real limit, offset or count.
 */
function sentinels(signature: Signature): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const [name, kind] of Object.entries(signature)) {
    sentinelSerial += 1;
    values[name] = kind === 'number' ? -(2 ** 50) - sentinelSerial : `\u0000prepared:${name}:${sentinelSerial}`;
  }
  return values;
}

function positionsOf(parameters: readonly unknown[], value: unknown): number[] {
  const found: number[] = [];
  parameters.forEach((p, i) => {
    if (p === value) found.push(i);
  });
  return found;
}

function compileTemplate<S extends Signature>(
  db: Db,
  signature: S,
  build: (db: Db, args: Args<S>) => Compilable<unknown>,
): Template {
  if (db.getExecutor().plugins.length > 0) throw new Error('prepareQuery: Kysely instances with plugins are not supported');
  const a = sentinels(signature);
  const b = sentinels(signature);
  const first = build(db, a as Args<S>).compile();
  const second = build(db, b as Args<S>).compile();
  if (first.sql !== second.sql || first.parameters.length !== second.parameters.length) {
    throw new Error(`prepareQuery: the SQL depends on an argument's value, so it cannot be prepared:\n${first.sql}`);
  }
  const slots: Array<[number, string]> = [];
  const taken = new Set<number>();
  for (const name of Object.keys(signature)) {
    const at = positionsOf(first.parameters, a[name]);
    const atSecond = positionsOf(second.parameters, b[name]);
    if (at.length === 0) throw new Error(`prepareQuery: argument "${name}" is not a parameter of:\n${first.sql}`);
    if (at.join() !== atSecond.join()) throw new Error(`prepareQuery: argument "${name}" moves between compiles of:\n${first.sql}`);
    for (const i of at) {
      slots.push([i, name]);
      taken.add(i);
    }
  }
  first.parameters.forEach((p, i) => {
    if (!taken.has(i) && p !== second.parameters[i]) {
      throw new Error(`prepareQuery: parameter ${i + 1} is neither an argument nor a constant in:\n${first.sql}`);
    }
  });
  return { compiled: first, slots };
}

/**
 * A query compiled once per Kysely instance and re-run with new values. `signature` names the
 * arguments and their kinds; `build` must use them only as values (see the top of this file).
 */
export function prepareQuery<S extends Signature, R>(
  signature: S,
  build: (db: Db, args: Args<S>) => Compilable<R>,
): PreparedQuery<S, R> {
  const templates = new WeakMap<Db, Template>();
  const names = Object.keys(signature);

  function compiledFor(db: Db, args: Args<S>): CompiledQuery<R> {
    for (const name of names) {
      // The types already say so; this keeps a cast or an `any` from smuggling in an array.
      if (typeof args[name] !== signature[name]) {
        throw new TypeError(`prepared query: argument "${name}" must be a ${signature[name]}, got ${Array.isArray(args[name]) ? 'an array' : typeof args[name]}`);
      }
    }
    let template = templates.get(db);
    if (!template) {
      template = compileTemplate(db, signature, build);
      templates.set(db, template);
    }
    const parameters = template.compiled.parameters.slice();
    for (const [i, name] of template.slots) parameters[i] = args[name];
    return { ...template.compiled, parameters } as CompiledQuery<R>;
  }

  return {
    async execute(db, args) {
      return (await db.executeQuery(compiledFor(db, args))).rows;
    },
    async executeTakeFirst(db, args) {
      return (await db.executeQuery(compiledFor(db, args))).rows[0];
    },
  };
}
