import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Selectable } from 'kysely';
import type { Db } from '../../src/core/db/database';
import type { Database } from '../../src/core/db/schema';
import { newId } from '../../src/core/ids';
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
      quantity: 2.5,
      unit: 'kg',
      created_at: NOW,
      updated_at: NOW,
    })
    .execute();
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
      quantity: 24,
      category_id: categoryId,
      is_deleted: overrides.isDeleted ? 1 : 0,
      created_at: NOW,
      updated_at: NOW,
    })
    .execute();
  return product;
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
  return (method: InjectOptions['method'], url: string, payload?: unknown) =>
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
