import { sql } from 'kysely';
import type { Db } from './database';
import { prepared } from './prepared';

const lastOrdinalOf = (table: 'order_dishes' | 'stock_movements') =>
  prepared((db, _params: Record<string, never>) => {
    const query = sql<{ last: number | string | null }>`select max(ordinal) as last from ${sql.table(table)}`;
    return { compile: () => query.compile(db) };
  });

// Each plate and stock movement asks: built and compiled once per table.
const LAST_ORDINAL = {
  order_dishes: lastOrdinalOf('order_dishes'),
  stock_movements: lastOrdinalOf('stock_movements'),
};

/**
 * The `ordinal` of the next row of a table whose lists keep the order rows were entered in (plates,
 * stock movements), since ids are UUID v4 and say nothing of it: one more than the largest so far,
 * read in the writing transaction, so a batch written together keeps its order. Two transactions
 * writing at once on PostgreSQL may draw the same ordinal; their rows were not entered in any order,
 * and the lists break the tie by id.
 */
export async function nextOrdinal(db: Db, table: 'order_dishes' | 'stock_movements'): Promise<number> {
  const { last } = await LAST_ORDINAL[table].one(db, {});
  return Number(last ?? 0) + 1;
}
