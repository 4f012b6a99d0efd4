import type { FastifyInstance, InjectOptions } from 'fastify';
import { type Selectable, sql } from 'kysely';
import { type Db, openDatabase } from '../../src/core/db/database';
import type { Database } from '../../src/core/db/schema';
import { newId } from '../../src/core/ids';
import { applyMovement } from '../../src/inventory/stock.repo';
import { insertCategory } from './factories';

const NOW = Date.UTC(2026, 10, 22, 18, 0, 0);

export async function insertIngredient(
  db: Db,
  overrides: Partial<{ name: string; categoryId: string }> = {},
): Promise<{ id: string; categoryId: string }> {
  const categoryId = overrides.categoryId ?? (await insertCategory(db, { type: 'ingredient' })).id;
  const id = newId();
  await db
    .insertInto('ingredients')
    .values({
      id,
      name: overrides.name ?? 'Flour',
      category_id: categoryId,
      unit: 'kg',
      created_at: NOW,
      updated_at: NOW,
    })
    .execute();
  await applyMovement(db, openingStock('ingredient', id, 2500));
  return { id, categoryId };
}

export async function insertProduct(
  db: Db,
  overrides: Partial<{ name: string; sku: string; categoryId: string; isDeleted: boolean }> = {},
): Promise<{ id: string; sku: string; categoryId: string }> {
  const categoryId = overrides.categoryId ?? (await insertCategory(db, { type: 'product' })).id;
  const product = { id: newId(), sku: overrides.sku ?? `SKU-${newId().slice(0, 8)}`, categoryId };
  await db
    .insertInto('products')
    .values({
      id: product.id,
      name: overrides.name ?? 'Cola',
      sku: product.sku,
      price_cents: 2500,
      category_id: categoryId,
      is_deleted: overrides.isDeleted ? 1 : 0,
      created_at: NOW,
      updated_at: NOW,
    })
    .execute();
  await applyMovement(db, openingStock('product', product.id, 24));
  return product;
}

/** Stock arrives as the API gives it, by a movement: an item's stock is always the sum of its movements. */
function openingStock(itemType: 'ingredient' | 'product', itemId: string, delta: number) {
  return { itemType, itemId, delta, reason: 'count' as const, userId: null, note: 'Opening stock', now: NOW };
}

/** Every row of a table in a stable order: compare before and after a refused request. */
export function allRows<T extends keyof Database>(db: Db, table: T) {
  // biome-ignore lint/suspicious/noExplicitAny: any table of the schema has an `id` column.
  return (db as any).selectFrom(table).selectAll().orderBy('id').execute() as Promise<
    Selectable<Database[T]>[]
  >;
}

/** `request('POST', '/spaces', body)` as the logged-in user whose cookies are given. */
export function asUser(app: FastifyInstance, cookies: string) {
  // async, so the lazy inject chain starts at once: a test can hold the promise while it does other work.
  return async (method: InjectOptions['method'], url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { cookie: cookies },
      ...(payload !== undefined && { payload: payload as object }),
    });
}

/** Starts the app on a real port and fires `count` requests at once, for races the database must settle. */
export async function fireConcurrently(
  app: FastifyInstance,
  cookies: string,
  requests: { method: string; url: string; body?: unknown }[],
): Promise<{ status: number; body: string }[]> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return Promise.all(
    requests.map(async ({ method, url, body }) => {
      const response = await fetch(`${address}${url}`, {
        method,
        headers: { cookie: cookies, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: await response.text() };
    }),
  );
}

/**
 * PostgreSQL only: holds a row lock from a connection of its own while `work` runs. `work` gets the
 * locking transaction and `untilWaiting(sessions, ...requests)`, which resolves once that many
 * sessions of this database wait on a lock (the holder's or one another's) or one of the requests
 * has answered without waiting, so a test can interleave requests with a concurrent writer exactly
 * where it wants, every run.
 */
export async function withRowLockHeld(
  databaseUrl: string,
  table: 'categories' | 'spaces' | 'dining_tables' | 'orders' | 'ingredients',
  id: string,
  work: (
    trx: Db,
    untilWaiting: (sessions?: number, ...requests: Promise<unknown>[]) => Promise<void>,
  ) => Promise<void>,
): Promise<void> {
  const holder = openDatabase(databaseUrl);
  try {
    await holder.db.transaction().execute(async (trx) => {
      await trx.selectFrom(table).select('id').where('id', '=', id).forUpdate().execute();
      const untilWaiting = async (sessions = 1, ...requests: Promise<unknown>[]) => {
        let answered = false;
        for (const request of requests)
          request.then(
            () => {
              answered = true;
            },
            () => {
              answered = true;
            },
          );
        for (let attempt = 0; attempt < 1000; attempt++) {
          const waiting = await sql<{ count: number }>`
            select count(*)::int as count from pg_stat_activity
            where datname = current_database() and cardinality(pg_blocking_pids(pid)) > 0
          `.execute(holder.db);
          if ((waiting.rows[0]?.count ?? 0) >= sessions || answered) return;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        throw new Error(`${sessions} sessions never waited on a lock`);
      };
      await work(trx, untilWaiting);
    });
  } finally {
    await holder.close();
  }
}
