import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { postgresPoolConfig } from '../../src/core/db/database';
import { totalFromLastPage } from '../../src/core/paging';
import {
  type CashPayment,
  cashPaymentValues,
  eventPayload,
  insertTicketDishesSql,
  numbered,
  CHECKOUT_SQL as SQL,
  ticketView as toTicketView,
  wholeBillValues,
} from './checkout-sql';
import {
  completeView,
  type MenuRows,
  menuQueries,
  modifierCount,
  modifierValues,
  moveOrderValues,
  newOrderValues,
  ORDERS_SQL,
  orderDishValues,
  orderView,
  type Plate,
  pricePlates,
  SIZED_SQL,
  tableView,
} from './orders-sql';
import type { OrderStatement } from './sales-facts-sql';
import {
  type DishEntry,
  FINAL_STATUSES,
  groupOrderWithDishes,
  hasDishes,
  type ModifierRow,
  type OrderRow,
  type OrdersStatements,
  type OrderWithDishRow,
} from './statements';
import {
  type MovedRow,
  movementValues,
  PLATE_RECIPES_SQL,
  type RecipeRow,
  SEND_SQL,
  StockChanges,
  saleMovements,
} from './stock-sql';

/** pg directly, with the pool size and number parsing src/core/db/database.ts uses. */
export function postgresStatements(url: string, salesFacts: OrderStatement[]): OrdersStatements {
  const pool = new pg.Pool(postgresPoolConfig(url));
  const inTransaction = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
  };
  const query = async <Row = Record<string, unknown>>(
    client: pg.PoolClient,
    sql: string,
    values: unknown[],
  ) => (await client.query(numbered(sql), values)).rows as Row[];
  const ticketView = async (client: pg.PoolClient, id: string) => {
    const [ticket] = await query<Parameters<typeof toTicketView>[0]>(client, SQL.findTicket, [id]);
    const links = await query<{ order_dish_id: string }>(client, SQL.ticketDishes, [id]);
    return toTicketView(ticket as Parameters<typeof toTicketView>[0], links);
  };
  const insertEvent = (client: pg.PoolClient, type: string, topic: string, data: unknown, now: number) =>
    query(client, SQL.insertEvent, [type, topic, eventPayload(type, data, now), now]);
  const lockLiveOrder = async (client: pg.PoolClient, id: string) =>
    (await query<OrderRow>(client, `${ORDERS_SQL.lockOrder} for update`, [id, 0]))[0];
  /** lockTables: PostgreSQL locks the order's table before an order takes or leaves it. */
  const lockTable = (client: pg.PoolClient, id: string | null) =>
    id === null ? undefined : query(client, ORDERS_SQL.lockTable, [id]);
  /** priceDishEntries' reads, at once on the pool as ours are: dishes, group links, options when named. */
  const pricedPlates = async (entries: DishEntry[]): Promise<Plate[]> => {
    const { dishIds, optionIds } = menuQueries(entries);
    const select = async <Row>(sql: string, values: unknown[]) =>
      (await pool.query(numbered(sql), values)).rows as Row[];
    const [dishes, links, options] = await Promise.all([
      select<MenuRows['dishes'][number]>(SIZED_SQL.dishPrices(dishIds.length), [...dishIds, 0]),
      select<MenuRows['links'][number]>(SIZED_SQL.dishGroupLinks(dishIds.length), [0, ...dishIds]),
      optionIds.length === 0
        ? []
        : select<MenuRows['options'][number]>(SIZED_SQL.optionsByIds(optionIds.length), optionIds),
    ]);
    return pricePlates(entries, { dishes, links, options });
  };
  /** insertOrderDishes: the plates, then their options in one insert when there are any. */
  const insertPlates = async (client: pg.PoolClient, orderId: string, plates: Plate[], now: number) => {
    await query(client, SIZED_SQL.insertOrderDishes(plates.length), orderDishValues(orderId, plates, now));
    const choices = modifierCount(plates);
    if (choices > 0) await query(client, SIZED_SQL.insertModifiers(choices), modifierValues(plates));
  };
  /** findLiveOrderWithDishes: the join, then the plates' options when it found plates. */
  const orderWithDishes = async (client: pg.Pool | pg.PoolClient, orderId: string) => {
    const rows = (await client.query<OrderWithDishRow>(numbered(ORDERS_SQL.orderWithDishes), [orderId, 0]))
      .rows;
    const modifiers = hasDishes(rows)
      ? (await client.query<ModifierRow>(numbered(ORDERS_SQL.modifiersOfOrder), [orderId])).rows
      : [];
    return groupOrderWithDishes(orderId, rows, modifiers);
  };

  return {
    billWholeOrder: (orderId, userId, now) =>
      inTransaction(async (client) => {
        const order = (await lockLiveOrder(client, orderId)) as
          | (OrderRow & { billed_cents: number })
          | undefined;
        if (!order) return undefined;
        const found = await orderWithDishes(client, orderId);
        const unbilledCents = Number(order.total_cents) - Number(order.billed_cents);
        if (unbilledCents <= 0) return undefined;
        const billedRows = await query<{ order_dish_id: string }>(client, SQL.billedDishIds, [orderId, 1]);
        const billed = new Set(billedRows.map((row) => row.order_dish_id));
        const dishIds = (found?.dishes ?? []).flatMap((dish) => (billed.has(dish.id) ? [] : [dish.id]));
        const id = randomUUID();
        await query(client, SQL.insertTicket, wholeBillValues(id, orderId, unbilledCents, userId, now));
        if (dishIds.length > 0) {
          await query(
            client,
            insertTicketDishesSql(dishIds.length),
            dishIds.flatMap((dishId) => [id, dishId]),
          );
        }
        await query(client, SQL.addToOrderBilled, [unbilledCents, 0, now, orderId]);
        for (const statement of salesFacts) await client.query(statement.sql, statement.values(orderId));
        await insertEvent(client, 'ticket.created', 'tickets', await ticketView(client, id), now);
        return id;
      }),
    payCash: (ticketId, userId, payment: CashPayment, now) =>
      inTransaction(async (client) => {
        const [found] = await query<{ order_id: string }>(client, SQL.findTicket, [ticketId]);
        if (!found || !(await lockLiveOrder(client, found.order_id))) return undefined;
        const [ticket] = await query<{ status: number; total_cents: number; paid_cents: number }>(
          client,
          `${SQL.findTicket} for update`,
          [ticketId],
        );
        const [method] = await query(client, SQL.paymentMethod, ['cash']);
        if (!ticket || !method || Number(ticket.status) !== 1) return undefined;
        if (payment.amountCents > Number(ticket.total_cents) - Number(ticket.paid_cents)) return undefined;
        const [shift] = await query<{ id: string }>(client, `${SQL.openShift} for share`, [userId]);
        if (!shift) await query(client, SQL.settings, [1]);
        const id = randomUUID();
        const amount = payment.amountCents;
        await query(
          client,
          SQL.insertPayment,
          cashPaymentValues({ ...payment, id, ticketId, userId, shiftId: shift?.id ?? null }, now),
        );
        await query(client, SQL.addSettledToTicket, [amount, 0, amount, amount, now, now, ticketId]);
        await query(client, SQL.addToOrderPaid, [amount, now, found.order_id]);
        for (const statement of salesFacts)
          await client.query(statement.sql, statement.values(found.order_id));
        const [paymentRow] = await query(client, SQL.findPayment, [id]);
        await insertEvent(client, 'payment.settled', 'payments', paymentRow, now);
        const view = await ticketView(client, ticketId);
        if (Number(view.status) === 2) await insertEvent(client, 'ticket.paid', 'tickets', view, now);
        return id;
      }),
    anyUser: async () =>
      (
        await pool.query<{ id: string; name: string }>(
          "select id, name from users where role = 'admin' and is_deleted = 0 limit 1",
        )
      ).rows[0] as { id: string; name: string },
    createOrderWithDishes: async (order, now) => {
      const plates = await pricedPlates(order.dishes);
      const id = randomUUID();
      const total = plates.reduce((sum, plate) => sum + plate.priceCents, 0);
      await inTransaction(async (client) => {
        await lockTable(client, order.tableId);
        const [row] = await query<OrderRow>(
          client,
          ORDERS_SQL.insertOrder,
          newOrderValues(id, order, total, now),
        );
        await insertPlates(client, id, plates, now);
        await insertEvent(client, 'order.created', 'orders', orderView(row as OrderRow), now);
        if (order.tableId) {
          const [table] = await query(client, ORDERS_SQL.occupyTable, [
            'occupied',
            id,
            now,
            order.tableId,
            0,
          ]);
          await insertEvent(client, 'table.updated', 'tables', tableView(table ?? {}), now);
        }
      });
      return id;
    },
    addDishes: async (orderId, entries, now) => {
      const plates = await pricedPlates(entries);
      return inTransaction(async (client) => {
        if (!(await lockLiveOrder(client, orderId))) return undefined;
        await insertPlates(client, orderId, plates, now);
        await query(client, ORDERS_SQL.recalculateTotal, [orderId, now, orderId]);
        const found = await orderWithDishes(client, orderId);
        if (found) await insertEvent(client, 'order.dishes_changed', 'orders', completeView(found), now);
        return plates.map((plate) => plate.id);
      });
    },
    findOrderWithDishes: (orderId) => orderWithDishes(pool, orderId),
    listTables: async () =>
      (await pool.query('select * from dining_tables where is_deleted = $1 order by name, id', [0])).rows,
    sendOrder: (orderId, userId, now) =>
      inTransaction(async (client) => {
        if (!(await lockLiveOrder(client, orderId))) return undefined;
        const pending = ((await orderWithDishes(client, orderId))?.dishes ?? []).filter(
          (dish) => dish.status === 'pending',
        );
        const updated = await client.query(numbered(SEND_SQL.sendPending), ['sent', now, orderId, 'pending']);
        const sent = updated.rowCount ?? 0;
        if (sent === 0) return 0;
        const found = await orderWithDishes(client, orderId);
        if (found) await insertEvent(client, 'order.dishes_changed', 'orders', completeView(found), now);
        await query(client, `${SEND_SQL.kitchenPrinters} for update`, ['kitchen']);
        const plateIds = pending.map((dish) => dish.id);
        const lines = [
          ...(await query<RecipeRow>(client, PLATE_RECIPES_SQL.fromDishes(plateIds.length), plateIds)),
          ...(await query<RecipeRow>(client, PLATE_RECIPES_SQL.fromOptions(plateIds.length), plateIds)),
        ];
        const changes = new StockChanges();
        for (const movement of saleMovements(lines)) {
          const [moved] = await query<MovedRow>(client, SEND_SQL.moveIngredient, [
            movement.delta,
            now,
            now,
            movement.itemId,
          ]);
          const [last] = await query<{ last: string | null }>(client, SEND_SQL.lastMovementOrdinal, []);
          await query(
            client,
            SEND_SQL.insertMovement,
            movementValues(movement, moved as MovedRow, userId, last),
          );
          changes.add(movement, moved as MovedRow);
        }
        for (const event of changes.events())
          await insertEvent(client, event.type, 'inventory', event.data, now);
        return sent;
      }),
    moveOrder: (orderId, status, now) =>
      inTransaction(async (client) => {
        const current = await lockLiveOrder(client, orderId);
        if (!current) return false;
        await lockTable(client, current.table_id);
        const [row] = await query<OrderRow>(
          client,
          ORDERS_SQL.moveOrder,
          moveOrderValues(current, status, now),
        );
        await insertEvent(client, 'order.updated', 'orders', orderView(row as OrderRow), now);
        if (current.table_id && FINAL_STATUSES.has(status)) {
          const [table] = await query(client, ORDERS_SQL.freeTable, [
            'available',
            null,
            now,
            current.table_id,
            orderId,
          ]);
          if (table) await insertEvent(client, 'table.updated', 'tables', tableView(table), now);
        }
        return true;
      }),
    listOrders: async (status, limit, offset) => {
      const { rows } = await pool.query<OrderRow>(
        'select * from orders where is_deleted = $1 and status = $2 order by created_at desc, id desc limit $3 offset $4',
        [0, status, limit, offset],
      );
      const shown = totalFromLastPage({ limit, offset }, rows.length);
      if (shown !== undefined) return { rows, count: shown };
      const count = await pool.query<{ count: number }>(
        'select count(*) as count from orders where is_deleted = $1 and status = $2',
        [0, status],
      );
      return { rows, count: Number(count.rows[0]?.count ?? 0) };
    },
    // COMMIT on PostgreSQL returns once the commit is durable.
    hasUnflushedCommits: () => false,
    flushCommits: async () => {},
    close: () => pool.end(),
  };
}
