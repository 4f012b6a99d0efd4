/**
 * The statements our tickets and payments services run for the rush's checkout (read from
 * src/tickets/tickets.repo.ts, src/payments/payments.repo.ts and src/events/events.repo.ts), written
 * once with `?` placeholders; `numbered` turns them into PostgreSQL's `$n`.
 */
export const CHECKOUT_SQL = {
  billedDishIds: `select ticket_dishes.order_dish_id from ticket_dishes
    inner join order_dishes on order_dishes.id = ticket_dishes.order_dish_id
    where order_dishes.order_id = ? and ticket_dishes.is_live = ?`,
  insertTicket: `insert into tickets (id, order_id, status, subtotal_cents, discount_cents, discount_type,
    discount_value, discount_reason, total_cents, created_by, created_at, updated_at, paid_at, canceled_at)
    values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  addToOrderBilled:
    'update orders set billed_cents = billed_cents + ?, discount_cents = discount_cents + ?, updated_at = ? where id = ?',
  findTicket: 'select * from tickets where id = ?',
  ticketDishes: `select ticket_dishes.ticket_id, ticket_dishes.order_dish_id from ticket_dishes
    inner join order_dishes on order_dishes.id = ticket_dishes.order_dish_id
    where ticket_dishes.ticket_id in (?) order by order_dishes.created_at, order_dishes.id`,
  paymentMethod: 'select * from payment_methods where code = ?',
  openShift: 'select id from shifts where user_id = ? and closed_at is null',
  settings: 'select * from business_settings where id = ?',
  insertPayment: `insert into payments (id, ticket_id, method, amount_cents, tip_cents, tendered_cents,
    change_cents, status, created_by, created_at, settled_at, amount_sat, rate, payment_hash, invoice, expires_at,
    received_sat, shift_id) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  addSettledToTicket: `update tickets set paid_cents = paid_cents + ?, tips_cents = tips_cents + ?,
    status = case when status = 1 and paid_cents + ? >= total_cents then 2 else status end,
    paid_at = case when status = 1 and paid_cents + ? >= total_cents then ? else paid_at end,
    updated_at = ? where id = ?`,
  addToOrderPaid: 'update orders set paid_cents = paid_cents + ?, updated_at = ? where id = ?',
  findPayment: 'select * from payments where id = ?',
  insertEvent: 'insert into events (type, topic, payload, created_at) values (?, ?, ?, ?)',
} as const;

export function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

export function insertTicketDishesSql(count: number): string {
  return `insert into ticket_dishes (ticket_id, order_dish_id) values ${Array(count).fill('(?, ?)').join(', ')}`;
}

export type CashPayment = { amountCents: number; tenderedCents: number };

/** The values of SQL.insertTicket for a Pending bill of the whole unbilled balance, no discount. */
export function wholeBillValues(
  id: string,
  orderId: string,
  cents: number,
  userId: string,
  now: number,
): unknown[] {
  return [id, orderId, 1, cents, 0, null, null, null, cents, userId, now, now, null, null];
}

/** The values of SQL.insertPayment for a settled cash payment taken outside any shift when `shiftId` is null. */
export function cashPaymentValues(
  payment: CashPayment & { id: string; ticketId: string; userId: string; shiftId: string | null },
  now: number,
): unknown[] {
  const { id, ticketId, amountCents, tenderedCents, userId, shiftId } = payment;
  const change = tenderedCents - amountCents;
  const lightningColumns = [null, null, null, null, null, null];
  return [
    id,
    ticketId,
    'cash',
    amountCents,
    0,
    tenderedCents,
    change,
    'settled',
    userId,
    now,
    now,
    ...lightningColumns,
    shiftId,
  ];
}

/** Undefined when the order or bill is not there or has nothing to take: the route answers 400/404. */
export type CheckoutStatements = {
  billWholeOrder(orderId: string, userId: string, now: number): Promise<string | undefined>;
  payCash(ticketId: string, userId: string, payment: CashPayment, now: number): Promise<string | undefined>;
};

type TicketRow = Record<string, unknown> & {
  total_cents: number;
  paid_cents: number;
  status: number;
  created_at: number;
  paid_at: number | null;
};

/** A bill as our events show it (src/tickets/ticket-views.ts), from SQL.findTicket and SQL.ticketDishes. */
export function ticketView(row: TicketRow, links: { order_dish_id: string }[]) {
  const total = Number(row.total_cents);
  const paid = Number(row.paid_cents);
  return {
    id: row.id,
    order_id: row.order_id,
    status: Number(row.status),
    subtotal: Number(row.subtotal_cents) / 100,
    discount: Number(row.discount_cents) / 100,
    total: total / 100,
    paid: paid / 100,
    tips: Number(row.tips_cents) / 100,
    balance: ((Number(row.status) === 3 ? 0 : total) - paid) / 100,
    order_dish_ids: links.map((link) => link.order_dish_id),
    created_at: new Date(Number(row.created_at)).toISOString(),
    paid_at: row.paid_at === null ? null : new Date(Number(row.paid_at)).toISOString(),
  };
}

/** What the services put in the outbox: the record as its GET shows it. */
export function eventPayload(type: string, data: unknown, at: number): string {
  return JSON.stringify({ type, at, data });
}
