// Hot query shapes, built with Kysely (typed) and compiled once, then run with new values. Building,
// compiling and preparing a query per request cost two thirds of a request's time; a prepared shape
// costs only its execution. Outside a transaction a shape runs directly: on SQLite synchronously on the
// read-only connection (WAL: it sees the last committed state, never a transaction still open on the
// writer), on PostgreSQL as a named prepared statement. Inside a transaction (or on any Kysely that is
// not the database's own) it runs through Kysely on that transaction's connection, like any query.
import {
  PostgresAdapter,
  sql,
  type Compilable,
  type CompiledQuery,
  type Expression,
  type SqlBool,
} from 'kysely';
import type { Executor } from './types.ts';

/** Runs a compiled read outside any transaction. */
export interface DirectReader {
  all(name: string, sql: string, parameters: unknown[]): unknown[] | Promise<unknown[]>;
}

/** Makes the row object of one result shape from the driver's array of values. */
export type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/**
 * An object literal per result shape: about twice as fast on rows of 20–40 columns as the drivers' own
 * objects, which they fill one property at a time. The names are our own column aliases, quoted by
 * JSON.stringify; a repeated name keeps its last value, as the drivers do.
 */
export function rowBuilder(names: readonly string[]): RowBuilder {
  const properties = names.map((name, index) => `${JSON.stringify(name)}: values[${index}]`);
  return new Function('values', `return { ${properties.join(', ')} };`) as RowBuilder;
}

/**
 * Compiles `(row) => ({ project: { id: row.p_id, … }, namespace: { id: row.n_id, … } })`: splits a joined
 * row into one object per column prefix. A loop over built key names cost more than the statement itself.
 */
export function rowSplitter<K extends string>(
  groups: Record<K, { prefix: string; columns: readonly string[] }>,
): (row: Record<string, unknown>) => Record<K, Record<string, unknown>> {
  const parts = Object.entries<{ prefix: string; columns: readonly string[] }>(groups).map(
    ([group, { prefix, columns }]) => {
      const fields = columns.map((c) => `${JSON.stringify(c)}: row[${JSON.stringify(prefix + c)}]`);
      return `${JSON.stringify(group)}: { ${fields.join(', ')} }`;
    },
  );
  return new Function('row', `return { ${parts.join(', ')} };`) as never;
}

const readers = new WeakMap<object, DirectReader>();

/** Lets prepared shapes run directly when executed on this (root, non-transaction) Kysely instance. */
export function attachDirectReader(kysely: Executor, reader: DirectReader): void {
  readers.set(kysely, reader);
}

/** A named value of a shape, replaced by the caller's value at each execution. */
class Slot {
  constructor(readonly name: string) {}
}

interface Compiled {
  query: CompiledQuery;
  /** For each parameter: the name of its slot, or undefined when it is a constant of the shape. */
  slots: Array<string | undefined>;
  /** SQLite takes a list as one JSON text (json_each); PostgreSQL takes the array itself (= any). */
  listsAsJson: boolean;
}

function isPostgres(db: Executor): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * `column` is one of the values of a list slot: one statement shape whatever the list's length (an `in`
 * list of n placeholders is a new statement for every n). PostgreSQL: `column = any($1)` with the array;
 * SQLite: `column in (select value from json_each(?))` with the array as JSON text, which SQLite reads
 * as a list of rowid or index lookups.
 */
export function inList(db: Executor, column: string, list: readonly unknown[]): Expression<SqlBool> {
  return isPostgres(db)
    ? sql<SqlBool>`${sql.ref(column)} = any(${list})`
    : sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${list}))`;
}

let shapes = 0;

export class PreparedQuery<P extends object, R> {
  readonly #name = `labrador_${++shapes}`;
  readonly #build: (db: Executor, slot: <K extends keyof P & string>(name: K) => P[K]) => Compilable<R>;
  /** One compilation per dialect (keyed by the dialect adapter, which transactions share with their root). */
  readonly #compiled = new WeakMap<object, Compiled>();

  constructor(build: (db: Executor, slot: <K extends keyof P & string>(name: K) => P[K]) => Compilable<R>) {
    this.#build = build;
  }

  #compile(db: Executor): Compiled {
    const adapter = db.getExecutor().adapter;
    let compiled = this.#compiled.get(adapter);
    if (!compiled) {
      const query = this.#build(db, (name) => new Slot(name) as never).compile();
      const slots = query.parameters.map((value) => (value instanceof Slot ? value.name : undefined));
      compiled = { query, slots, listsAsJson: !isPostgres(db) };
      this.#compiled.set(adapter, compiled);
    }
    return compiled;
  }

  /** Every row for these values. */
  async all(db: Executor, values: P): Promise<R[]> {
    const { query, slots, listsAsJson } = this.#compile(db);
    const parameters = query.parameters.map((value, index) => {
      const slot = slots[index];
      if (slot === undefined) return value;
      const given = values[slot as keyof P];
      return listsAsJson && Array.isArray(given) ? JSON.stringify(given) : given;
    });
    const reader = readers.get(db);
    if (reader) return (await reader.all(this.#name, query.sql, parameters)) as R[];
    const result = await db.executeQuery<R>({ ...query, parameters });
    return result.rows;
  }

  /** The first row for these values, if any. */
  async first(db: Executor, values: P): Promise<R | undefined> {
    const rows = await this.all(db, values);
    return rows[0];
  }
}

/**
 * A query shape with named slots: `prepared<{ token: string }>()((db, slot) => db.selectFrom('users')
 * .selectAll().where('authentication_token', '=', slot('token')))`. Only reads: a shape may run on the
 * read-only connection. A slot stands for one scalar value, or for a list when used through inList.
 */
export function prepared<P extends object>() {
  return <R>(build: (db: Executor, slot: <K extends keyof P & string>(name: K) => P[K]) => Compilable<R>) =>
    new PreparedQuery<P, R>(build);
}
