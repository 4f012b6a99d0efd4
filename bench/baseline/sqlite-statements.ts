import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { WalSync } from '../../src/core/db/wal-sync';
import { totalFromLastPage } from '../../src/core/paging';
import {
  type CashPayment,
  cashPaymentValues,
  eventPayload,
  insertTicketDishesSql,
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

/** better-sqlite3 directly, with the pragmas and the group commit of src/core/db/database.ts. */
export function sqliteStatements(path: string, salesFacts: OrderStatement[]): OrdersStatements {
  const db = new SQLite(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const walSync = new WalSync(`${path}-wal`);
  const committed =
    <Args extends unknown[], Result>(transaction: (...args: Args) => Result) =>
    (...args: Args): Result => {
      const result = transaction(...args);
      walSync.noteCommit();
      return result;
    };

  const cached = new Map<string, SQLite.Statement>();
  const prepare = (sql: string) => {
    let statement = cached.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      cached.set(sql, statement);
    }
    return statement;
  };

  /** priceDishEntries' reads: the dishes, their group links and, when the entries name some, the options. */
  const pricedPlates = (entries: DishEntry[]): Plate[] => {
    const { dishIds, optionIds } = menuQueries(entries);
    const menu: MenuRows = {
      dishes: prepare(SIZED_SQL.dishPrices(dishIds.length)).all(...dishIds, 0) as MenuRows['dishes'],
      links: prepare(SIZED_SQL.dishGroupLinks(dishIds.length)).all(0, ...dishIds) as MenuRows['links'],
      options:
        optionIds.length === 0
          ? []
          : (prepare(SIZED_SQL.optionsByIds(optionIds.length)).all(...optionIds) as MenuRows['options']),
    };
    return pricePlates(entries, menu);
  };
  /** insertOrderDishes: the plates, then their options in one insert when there are any. */
  const insertPlates = (orderId: string, plates: Plate[], now: number) => {
    prepare(SIZED_SQL.insertOrderDishes(plates.length)).run(...orderDishValues(orderId, plates, now));
    const choices = modifierCount(plates);
    if (choices > 0) prepare(SIZED_SQL.insertModifiers(choices)).run(...modifierValues(plates));
  };
  const lockLiveOrder = (id: string) => prepare(ORDERS_SQL.lockOrder).get(id, 0) as OrderRow | undefined;
  const insertEvent = (type: string, topic: string, data: unknown, now: number) =>
    prepare(SQL.insertEvent).run(type, topic, eventPayload(type, data, now), now);
  /** findLiveOrderWithDishes: the join, then the plates' options when it found plates. */
  const orderWithDishes = (orderId: string) => {
    const rows = prepare(ORDERS_SQL.orderWithDishes).all(orderId, 0) as OrderWithDishRow[];
    const modifiers = hasDishes(rows)
      ? (prepare(ORDERS_SQL.modifiersOfOrder).all(orderId) as ModifierRow[])
      : [];
    return groupOrderWithDishes(orderId, rows, modifiers);
  };

  const createOrder = committed(
    db.transaction(
      (
        order: Parameters<OrdersStatements['createOrderWithDishes']>[0],
        plates: Plate[],
        id: string,
        now: number,
      ) => {
        const total = plates.reduce((sum, plate) => sum + plate.priceCents, 0);
        const row = prepare(ORDERS_SQL.insertOrder).get(...newOrderValues(id, order, total, now)) as OrderRow;
        insertPlates(id, plates, now);
        insertEvent('order.created', 'orders', orderView(row), now);
        if (order.tableId) {
          const table = prepare(ORDERS_SQL.occupyTable).get('occupied', id, now, order.tableId, 0);
          insertEvent('table.updated', 'tables', tableView(table as Record<string, unknown>), now);
        }
      },
    ),
  );
  const addDishes = committed(
    db.transaction((orderId: string, plates: Plate[], now: number) => {
      if (!lockLiveOrder(orderId)) return false;
      insertPlates(orderId, plates, now);
      prepare(ORDERS_SQL.recalculateTotal).get(orderId, now, orderId);
      const found = orderWithDishes(orderId);
      if (found) insertEvent('order.dishes_changed', 'orders', completeView(found), now);
      return true;
    }),
  );
  /** sendOrder: the pending plates to the kitchen, their chits (no printer), their sales off the stock. */
  const sendOrder = committed(
    db.transaction((orderId: string, userId: string, now: number) => {
      if (!lockLiveOrder(orderId)) return undefined;
      const pending = (orderWithDishes(orderId)?.dishes ?? []).filter((dish) => dish.status === 'pending');
      const sent = prepare(SEND_SQL.sendPending).run('sent', now, orderId, 'pending').changes;
      if (sent === 0) return 0;
      const found = orderWithDishes(orderId);
      if (found) insertEvent('order.dishes_changed', 'orders', completeView(found), now);
      prepare(SEND_SQL.kitchenPrinters).all('kitchen');
      const plateIds = pending.map((dish) => dish.id);
      const lines = [
        ...prepare(PLATE_RECIPES_SQL.fromDishes(plateIds.length)).all(...plateIds),
        ...prepare(PLATE_RECIPES_SQL.fromOptions(plateIds.length)).all(...plateIds),
      ] as RecipeRow[];
      const changes = new StockChanges();
      for (const movement of saleMovements(lines)) {
        const moved = prepare(SEND_SQL.moveIngredient).get(
          movement.delta,
          now,
          now,
          movement.itemId,
        ) as MovedRow;
        const last = prepare(SEND_SQL.lastMovementOrdinal).get() as { last: number | null };
        prepare(SEND_SQL.insertMovement).run(...movementValues(movement, moved, userId, last));
        changes.add(movement, moved);
      }
      for (const event of changes.events()) insertEvent(event.type, 'inventory', event.data, now);
      return sent;
    }),
  );
  const moveOrder = committed(
    db.transaction((orderId: string, status: string, now: number) => {
      const current = lockLiveOrder(orderId);
      if (!current) return false;
      const row = prepare(ORDERS_SQL.moveOrder).get(...moveOrderValues(current, status, now)) as OrderRow;
      insertEvent('order.updated', 'orders', orderView(row), now);
      if (current.table_id && FINAL_STATUSES.has(status)) {
        const table = prepare(ORDERS_SQL.freeTable).get('available', null, now, current.table_id, orderId);
        if (table) insertEvent('table.updated', 'tables', tableView(table as Record<string, unknown>), now);
      }
      return true;
    }),
  );

  const ticketView = (id: string) =>
    toTicketView(
      prepare(SQL.findTicket).get(id) as Parameters<typeof toTicketView>[0],
      prepare(SQL.ticketDishes).all(id) as { order_dish_id: string }[],
    );
  const billWholeOrder = committed(
    db.transaction((orderId: string, userId: string, now: number) => {
      const order = lockLiveOrder(orderId) as (OrderRow & { billed_cents: number }) | undefined;
      if (!order) return undefined;
      const found = orderWithDishes(orderId);
      const unbilledCents = Number(order.total_cents) - Number(order.billed_cents);
      if (unbilledCents <= 0) return undefined;
      const billed = new Set(
        (prepare(SQL.billedDishIds).all(orderId, 1) as { order_dish_id: string }[]).map(
          (row) => row.order_dish_id,
        ),
      );
      const dishIds = (found?.dishes ?? []).flatMap((dish) => (billed.has(dish.id) ? [] : [dish.id]));
      const id = randomUUID();
      prepare(SQL.insertTicket).run(...wholeBillValues(id, orderId, unbilledCents, userId, now));
      if (dishIds.length > 0) {
        prepare(insertTicketDishesSql(dishIds.length)).run(...dishIds.flatMap((dishId) => [id, dishId]));
      }
      prepare(SQL.addToOrderBilled).run(unbilledCents, 0, now, orderId);
      for (const statement of salesFacts) prepare(statement.sql).run(...statement.values(orderId));
      insertEvent('ticket.created', 'tickets', ticketView(id), now);
      return id;
    }),
  );
  const payCash = committed(
    db.transaction((ticketId: string, userId: string, payment: CashPayment, now: number) => {
      const found = prepare(SQL.findTicket).get(ticketId) as { order_id: string } | undefined;
      if (!found || !lockLiveOrder(found.order_id)) return undefined;
      const ticket = prepare(SQL.findTicket).get(ticketId) as {
        status: number;
        total_cents: number;
        paid_cents: number;
      };
      const method = prepare(SQL.paymentMethod).get('cash');
      if (!method || Number(ticket.status) !== 1) return undefined;
      const shift = prepare(SQL.openShift).get(userId) as { id: string } | undefined;
      if (!shift) prepare(SQL.settings).get(1);
      if (payment.amountCents > Number(ticket.total_cents) - Number(ticket.paid_cents)) return undefined;
      const id = randomUUID();
      prepare(SQL.insertPayment).run(
        ...cashPaymentValues({ ...payment, id, ticketId, userId, shiftId: shift?.id ?? null }, now),
      );
      const amount = payment.amountCents;
      prepare(SQL.addSettledToTicket).run(amount, 0, amount, amount, now, now, ticketId);
      prepare(SQL.addToOrderPaid).run(amount, now, found.order_id);
      for (const statement of salesFacts) prepare(statement.sql).run(...statement.values(found.order_id));
      insertEvent('payment.settled', 'payments', prepare(SQL.findPayment).get(id), now);
      const view = ticketView(ticketId);
      if (Number(view.status) === 2) insertEvent('ticket.paid', 'tickets', view, now);
      return id;
    }),
  );

  return {
    billWholeOrder: async (orderId, userId, now) => billWholeOrder(orderId, userId, now),
    payCash: async (ticketId, userId, payment, now) => payCash(ticketId, userId, payment, now),
    anyUser: async () =>
      prepare("select id, name from users where role = 'admin' and is_deleted = 0 limit 1").get() as {
        id: string;
        name: string;
      },
    createOrderWithDishes: async (order, now) => {
      const id = randomUUID();
      createOrder(order, pricedPlates(order.dishes), id, now);
      return id;
    },
    addDishes: async (orderId, entries, now) => {
      const plates = pricedPlates(entries);
      return addDishes(orderId, plates, now) ? plates.map((plate) => plate.id) : undefined;
    },
    findOrderWithDishes: async (orderId) => orderWithDishes(orderId),
    listTables: async () =>
      prepare('select * from dining_tables where is_deleted = ? order by name, id').all(0),
    sendOrder: async (orderId, userId, now) => sendOrder(orderId, userId, now),
    moveOrder: async (orderId, status, now) => moveOrder(orderId, status, now),
    listOrders: async (status, limit, offset) => {
      const rows = prepare(
        'select * from orders where is_deleted = ? and status = ? order by created_at desc, id desc limit ? offset ?',
      ).all(0, status, limit, offset) as OrderRow[];
      const shown = totalFromLastPage({ limit, offset }, rows.length);
      if (shown !== undefined) return { rows, count: shown };
      const count = prepare('select count(*) as count from orders where is_deleted = ? and status = ?').get(
        0,
        status,
      ) as { count: number };
      return { rows, count: count.count };
    },
    hasUnflushedCommits: () => walSync.hasPending(),
    flushCommits: () => walSync.flush(),
    close: async () => {
      await walSync.close();
      db.close();
    },
  };
}
