import { sql } from 'kysely';
import { openDatabase } from '../../src/core/db/database';
import type { ApiSession } from '../lib/api';
import { type DishLine, isAcceptableDishSet, type Ledger, type OrderRecord } from './ledger';

export type Findings = { lost: string[]; halfWritten: string[] };

type StoredOrder = { totalCents: number; dishes: (DishLine & { id: string })[] };

/** Every acknowledged order, read back through GET /orders/{id}/complete. */
export async function verifyThroughApi(session: ApiSession, ledger: Ledger): Promise<Findings> {
  const findings: Findings = { lost: [], halfWritten: [] };
  const orders = [...ledger.orders.values()];
  const readers = Array.from({ length: 8 }, async (_, reader) => {
    for (let index = reader; index < orders.length; index += 8) {
      const order = orders[index] as OrderRecord;
      const reply = await session.request('GET', `/orders/${order.id}/complete`);
      if (reply.status !== 200) {
        findings.lost.push(`${order.id}: GET /orders/{id}/complete answered ${reply.status}`);
        continue;
      }
      const body = reply.body as {
        order: { total: number };
        dishes: { id: string; dish_id: string; price_at_order: number }[];
      };
      judge(order, toStored(body), findings);
    }
  });
  await Promise.all(readers);
  return findings;
}

function toStored(body: {
  order: { total: number };
  dishes: { id: string; dish_id: string; price_at_order: number }[];
}): StoredOrder {
  return {
    totalCents: Math.round(body.order.total * 100),
    dishes: body.dishes.map((dish) => ({
      id: dish.id,
      dishId: dish.dish_id,
      priceCents: Math.round(dish.price_at_order * 100),
    })),
  };
}

/**
 * Straight from the tables: the acknowledged orders as above, plus the whole database for what no
 * client was told about (an order without dishes, a total that is not the sum of its dishes).
 */
export async function verifyInDatabase(databaseUrl: string, ledger: Ledger): Promise<Findings> {
  const { db, dialect, close } = openDatabase(databaseUrl);
  try {
    const findings: Findings = { lost: [], halfWritten: [] };
    const orders = await db.selectFrom('orders').select(['id', 'total_cents', 'status']).execute();
    const dishes = await db
      .selectFrom('order_dishes')
      .select(['id', 'order_id', 'dish_id', 'price_at_order_cents'])
      .execute();
    const stored = new Map<string, StoredOrder>(
      orders.map((order) => [order.id, { totalCents: Number(order.total_cents), dishes: [] }]),
    );
    // An order merged into another gave it every plate and was cancelled: empty by design.
    const cancelled = new Set(
      orders.filter((order) => order.status === 'cancelled').map((order) => order.id),
    );
    for (const dish of dishes) {
      const order = stored.get(dish.order_id);
      if (!order) findings.halfWritten.push(`order dish ${dish.id} of a missing order ${dish.order_id}`);
      order?.dishes.push({
        id: dish.id,
        dishId: dish.dish_id,
        priceCents: Number(dish.price_at_order_cents),
      });
    }
    for (const [id, order] of stored) {
      const sum = order.dishes.reduce((total, dish) => total + dish.priceCents, 0);
      if (order.dishes.length === 0) {
        if (!cancelled.has(id)) findings.halfWritten.push(`${id}: an order without its dishes`);
      } else if (sum !== order.totalCents) {
        findings.halfWritten.push(`${id}: total ${order.totalCents} but its dishes sum to ${sum}`);
      }
    }
    for (const order of ledger.orders.values()) {
      const found = stored.get(order.id);
      if (found) judge(order, found, findings);
      else findings.lost.push(`${order.id}: not in the database`);
    }
    if (dialect === 'sqlite') {
      const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
      if (rows[0]?.integrity_check !== 'ok')
        findings.halfWritten.push(`integrity_check: ${JSON.stringify(rows)}`);
    }
    return findings;
  } finally {
    await close();
  }
}

function judge(order: OrderRecord, stored: StoredOrder, findings: Findings): void {
  const storedIds = new Set(stored.dishes.map((dish) => dish.id));
  const missingIds = order.acknowledgedDishIds.filter((id) => !storedIds.has(id));
  if (missingIds.length > 0)
    findings.lost.push(`${order.id}: acknowledged dishes missing: ${missingIds.join(', ')}`);
  else if (!isAcceptableDishSet(order, stored.dishes)) {
    findings.lost.push(`${order.id}: dishes differ from what was acknowledged`);
  }
  const sum = stored.dishes.reduce((total, dish) => total + dish.priceCents, 0);
  if (sum !== stored.totalCents)
    findings.halfWritten.push(`${order.id}: total ${stored.totalCents} ≠ sum ${sum}`);
}
