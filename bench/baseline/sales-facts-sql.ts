import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { Database } from '../../src/core/db/schema';
import { refreshSalesFacts } from '../../src/orders/sales-facts';

/** A statement our services run for an order, its values with that order's id put in. */
export type OrderStatement = { sql: string; values: (orderId: string) => unknown[] };

const ORDER_ID = '\u0000bench-order-id';

/**
 * The statements `refreshSalesFacts` runs for one order (a cash payment runs it), taken from our own
 * code through a driver that records them instead of running them, so the baseline executes exactly
 * our SQL without a copy of it to keep in step.
 */
export async function salesFactsStatements(engine: 'sqlite' | 'postgres'): Promise<OrderStatement[]> {
  const recorded: CompiledQuery[] = [];
  const connection: DatabaseConnection = {
    executeQuery: async (query) => {
      recorded.push(query);
      return { rows: [] };
    },
    streamQuery: () => {
      throw new Error('not recorded');
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const isSqlite = engine === 'sqlite';
  const dialect: Dialect = {
    createAdapter: () => (isSqlite ? new SqliteAdapter() : new PostgresAdapter()),
    createDriver: () => driver,
    createIntrospector: (db) => (isSqlite ? new SqliteIntrospector(db) : new PostgresIntrospector(db)),
    createQueryCompiler: () => (isSqlite ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
  };
  const db = new Kysely<Database>({ dialect });
  await refreshSalesFacts(db, ORDER_ID);
  await db.destroy();
  return recorded.map((query) => ({
    sql: query.sql,
    values: (orderId) => query.parameters.map((value) => (value === ORDER_ID ? orderId : value)),
  }));
}
