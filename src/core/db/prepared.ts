import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import { type Db, isPostgres } from './database';

export type PreparedQuery<Params, Row> = {
  all(db: Db, params: Params): Promise<Row[]>;
  first(db: Db, params: Params): Promise<Row | undefined>;
  /** The first row of a query that always yields one (an aggregate, `returning` on a locked row). */
  one(db: Db, params: Params): Promise<Row>;
  /** Runs a write and answers how many rows it changed. */
  run(db: Db, params: Params): Promise<number>;
};

/**
 * A query that Kysely builds and compiles once per engine and shape, then runs with each call's
 * values. Kysely building and compiling every query afresh was most of the 15 % of the server's time
 * it took in the rush; the hot statements of orders, tables and idempotency keys go through here.
 *
 * `build` receives stand-ins for the values: it may branch on which values are present (undefined or
 * not) and on array lengths, which are part of the shape, but never on the values themselves, and it
 * must pass them to Kysely as values (not `sql.lit` or identifiers).
 *
 * A constant of the query itself (`is_deleted = 0`, `is_live = 1`, a job's unfinished states) is the
 * opposite: it is written into the SQL with `sql.lit`, here and in every query. SQLite plans a
 * statement again on each run whose bound values could match a partial index's condition, and those
 * columns are in ours: the principal's lookup took 91 µs that way and 19 µs with the literal, the
 * order with its plates 126 and 33 (docs/benchmarks.md, the census).
 */
export function prepared<Params extends object, Row>(
  build: (db: Db, params: Params) => Compilable<Row>,
): PreparedQuery<Params, Row> {
  const plans = new Map<string, Plan>();
  const execute = (db: Db, params: Params): Promise<QueryResult<Row>> => {
    const { shape, values } = flatten(params);
    const key = `${isPostgres(db) ? 'postgres' : 'sqlite'} ${shape}`;
    let plan = plans.get(key);
    if (!plan) {
      plan = compilePlan(db, params, build);
      if (plans.size >= MAX_SHAPES_PER_QUERY) plans.delete(plans.keys().next().value as string);
      plans.set(key, plan);
    }
    return db.executeQuery<Row>({
      sql: plan.compiled.sql,
      query: plan.compiled.query,
      queryId: plan.compiled.queryId,
      parameters: bind(plan.slots, values),
    });
  };
  return {
    all: async (db, params) => (await execute(db, params)).rows,
    first: async (db, params) => (await execute(db, params)).rows[0],
    one: async (db, params) => {
      const [row] = (await execute(db, params)).rows;
      if (row === undefined) throw new Error('a query that always yields a row yielded none');
      return row;
    },
    run: async (db, params) => Number((await execute(db, params)).numAffectedRows ?? 0),
  };
}

/** Shapes differ only by array lengths and absent values, so a query sees a handful; this bounds abuse. */
const MAX_SHAPES_PER_QUERY = 64;
/** Stand-ins start with a character no real value of ours contains, so they cannot be mistaken. */
const STAND_IN = '\u0000prepared-value:';

function bind(slots: Slot[], values: unknown[]): unknown[] {
  const parameters = new Array(slots.length);
  for (let index = 0; index < slots.length; index++) {
    const slot = slots[index] as Slot;
    parameters[index] = slot.valueIndex === undefined ? slot.constant : values[slot.valueIndex];
  }
  return parameters;
}

type Slot = { valueIndex: number; constant?: undefined } | { valueIndex?: undefined; constant: unknown };
type Plan = { compiled: CompiledQuery; slots: Slot[] };

function compilePlan<Params extends object>(
  db: Db,
  params: Params,
  build: (db: Db, params: Params) => Compilable<unknown>,
): Plan {
  let count = 0;
  const standIns = mapValues(params, () => `${STAND_IN}${count++}`) as Params;
  const compiled = build(db, standIns).compile();
  if (compiled.sql.includes(STAND_IN)) {
    throw new Error(`a prepared query put a value into its SQL text instead of a parameter: ${compiled.sql}`);
  }
  const slots = compiled.parameters.map((parameter): Slot => {
    if (typeof parameter === 'string' && parameter.startsWith(STAND_IN)) {
      return { valueIndex: Number(parameter.slice(STAND_IN.length)) };
    }
    return { constant: parameter };
  });
  return { compiled, slots };
}

type Flattened = { shape: string; values: unknown[] };

/** The values of `params` in a fixed order, and a key that is equal for params of the same shape. */
function flatten(params: object): Flattened {
  const flattened = { shape: '', values: [] };
  visit(params, flattened);
  return flattened;
}

function visit(value: unknown, into: Flattened): void {
  if (Array.isArray(value)) {
    into.shape += `[${value.length}`;
    for (const item of value) visit(item, into);
    into.shape += ']';
  } else if (isPlainObject(value)) {
    into.shape += '{';
    for (const key in value) {
      into.shape += `${key}:`;
      visit(value[key], into);
    }
    into.shape += '}';
  } else if (value === undefined) {
    into.shape += 'u,';
  } else {
    into.shape += 'v,';
    into.values.push(value);
  }
}

/** A copy of `params` with every defined value replaced, visited in the same order as `flatten`. */
function mapValues(value: unknown, replace: () => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => mapValues(item, replace));
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapValues(item, replace)]));
  }
  return value === undefined ? undefined : replace();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
