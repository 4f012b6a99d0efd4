import { openDatabase } from '../../src/core/db/database';
import type { MoneyLedger } from './money-ledger';
import type { Findings } from './verify';

const MONEY_IN = new Set(['settled', 'refunded', 'partially_refunded']);

/** Also what the card provider made: a charge made or settled twice is money taken twice. */
export type MoneyFindings = Findings & { settledTwice: string[] };

/**
 * Straight from the tables, after the last restart: every acknowledged payment, refund, send, move,
 * merge and close is there exactly as acknowledged; every invoice the payer paid at the node and every
 * card tapped at a terminal is settled once (one payment row, one provider order: `terminalOrders`
 * counts the provider's orders by external reference); and the sums that must agree do (bill paid =
 * its payments' money in − processed refunds, order paid = its bills', each item's stock = its
 * movements, each sent plate's sale movements).
 */
export async function verifyMoneyInDatabase(
  databaseUrl: string,
  ledger: MoneyLedger,
  provider: { terminalOrders?: ReadonlyMap<string, number> } = {},
): Promise<MoneyFindings> {
  const { db, close } = openDatabase(databaseUrl);
  const findings: MoneyFindings = { lost: [], halfWritten: [], settledTwice: [] };
  const lost = (finding: string) => findings.lost.push(finding);
  const halfWritten = (finding: string) => findings.halfWritten.push(finding);
  const settledTwice = (finding: string) => findings.settledTwice.push(finding);
  try {
    const payments = await db.selectFrom('payments').selectAll().execute();
    const paymentById = new Map(payments.map((payment) => [payment.id, payment]));
    for (const [id, acked] of ledger.payments) {
      const stored = paymentById.get(id);
      if (!stored) lost(`payment ${id} (${acked.method}) not in the database`);
      else if (Number(stored.amount_cents) !== acked.amountCents || stored.ticket_id !== acked.ticketId)
        lost(
          `payment ${id}: stored ${stored.amount_cents} on ${stored.ticket_id}, acknowledged ${acked.amountCents}`,
        );
    }
    const byHash = new Map<string, typeof payments>();
    for (const payment of payments)
      if (payment.payment_hash)
        byHash.set(payment.payment_hash, [...(byHash.get(payment.payment_hash) ?? []), payment]);
    for (const [hash, paid] of ledger.paidInvoices) {
      const rows = byHash.get(hash) ?? [];
      if (rows.length !== 1)
        lost(`invoice ${hash.slice(0, 12)} paid at the node: ${rows.length} payment rows`);
      else if (!MONEY_IN.has(rows[0]?.status ?? ''))
        lost(`invoice ${hash.slice(0, 12)} paid at the node, still ${rows[0]?.status}`);
      else if (rows[0]?.id !== paid.paymentId)
        lost(`invoice ${hash.slice(0, 12)} settled on another payment`);
    }

    for (const [id, tapped] of ledger.tappedCharges) {
      const row = paymentById.get(id);
      if (!row) continue; // reported above, with the other acknowledged payments
      if (row.method !== 'card_terminal' || row.terminal_id !== tapped.terminalId)
        lost(
          `terminal charge ${id}: stored as ${row.method} on ${row.terminal_id}, tapped on ${tapped.terminalId}`,
        );
      else if (!MONEY_IN.has(row.status))
        lost(`terminal charge ${id} tapped at the terminal, still ${row.status}`);
      const rows = payments.filter(
        (payment) =>
          payment.provider_order_id !== null && payment.provider_order_id === row.provider_order_id,
      );
      if (rows.length !== 1)
        settledTwice(
          `terminal charge ${id}: ${rows.length} payment rows for its order ${row.provider_order_id}`,
        );
      const orders = provider.terminalOrders && (provider.terminalOrders.get(id) ?? 0);
      if (orders !== undefined && orders !== 1)
        settledTwice(`terminal charge ${id}: ${orders} orders at the provider for it`);
    }

    const refunds = await db.selectFrom('refunds').selectAll().execute();
    const refundById = new Map(refunds.map((refund) => [refund.id, refund]));
    for (const [id, acked] of ledger.refunds) {
      const stored = refundById.get(id);
      if (
        !stored ||
        Number(stored.amount_cents) !== acked.amountCents ||
        stored.payment_id !== acked.paymentId
      )
        lost(`refund ${id} of ${acked.amountCents} not in the database as acknowledged`);
    }
    // A provider's refund is pending until it processes it (or fails): only then does money leave the bill.
    const refundedOf = new Map<string, number>();
    for (const refund of refunds.filter((candidate) => candidate.status === 'processed'))
      refundedOf.set(
        refund.payment_id,
        (refundedOf.get(refund.payment_id) ?? 0) + Number(refund.amount_cents),
      );
    const paidOfTicket = new Map<string, number>();
    for (const payment of payments) {
      if (Number(payment.refunded_cents) !== (refundedOf.get(payment.id) ?? 0))
        halfWritten(
          `payment ${payment.id}: refunded_cents ${payment.refunded_cents} ≠ its refunds ${refundedOf.get(payment.id) ?? 0}`,
        );
      if (MONEY_IN.has(payment.status))
        paidOfTicket.set(
          payment.ticket_id,
          (paidOfTicket.get(payment.ticket_id) ?? 0) +
            Number(payment.amount_cents) -
            Number(payment.refunded_cents),
        );
    }

    const tickets = await db.selectFrom('tickets').selectAll().execute();
    const paidOfOrder = new Map<string, number>();
    for (const ticket of tickets) {
      const expected = paidOfTicket.get(ticket.id) ?? 0;
      if (Number(ticket.paid_cents) !== expected)
        halfWritten(
          `bill ${ticket.id}: paid ${ticket.paid_cents} but its payments less refunds are ${expected}`,
        );
      // A refund after the sale lowers paid, not the status: Paid means the money once reached the total.
      if (
        Number(ticket.status) === 2 &&
        Number(ticket.paid_cents) + refundsOfTicket(ticket.id) < Number(ticket.total_cents)
      )
        halfWritten(`bill ${ticket.id}: Paid with money short of its total`);
      paidOfOrder.set(ticket.order_id, (paidOfOrder.get(ticket.order_id) ?? 0) + Number(ticket.paid_cents));
    }
    function refundsOfTicket(ticketId: string): number {
      return payments
        .filter((payment) => payment.ticket_id === ticketId)
        .reduce((sum, payment) => sum + Number(payment.refunded_cents), 0);
    }

    const orders = await db.selectFrom('orders').select(['id', 'status', 'table_id', 'paid_cents']).execute();
    const orderById = new Map(orders.map((order) => [order.id, order]));
    for (const order of orders) {
      if (Number(order.paid_cents) !== (paidOfOrder.get(order.id) ?? 0))
        halfWritten(
          `order ${order.id}: paid ${order.paid_cents} but its bills' paid sum to ${paidOfOrder.get(order.id) ?? 0}`,
        );
    }
    for (const [orderId, where] of ledger.tables) {
      const order = orderById.get(orderId);
      if (!order) lost(`order ${orderId} not in the database`);
      else if (ledger.merged.has(orderId)) continue;
      else if (order.table_id !== where.acknowledged && !where.unanswered.includes(order.table_id ?? ''))
        lost(`order ${orderId}: at table ${order.table_id}, acknowledged at ${where.acknowledged}`);
    }
    for (const orderId of ledger.closed)
      if (orderById.get(orderId)?.status !== 'completed')
        lost(`order ${orderId}: closed but ${orderById.get(orderId)?.status}`);

    const plates = await db.selectFrom('order_dishes').select(['id', 'order_id', 'status']).execute();
    const plateById = new Map(plates.map((plate) => [plate.id, plate]));
    for (const [from, merge] of ledger.merged) {
      if (orderById.get(from)?.status !== 'cancelled')
        lost(`merged order ${from} is ${orderById.get(from)?.status}`);
      for (const plate of merge.plateIds)
        if (plateById.get(plate)?.order_id !== merge.into)
          lost(`plate ${plate} merged into ${merge.into} is not there`);
    }
    const movements = await db
      .selectFrom('stock_movements')
      .select(['item_type', 'item_id', 'seq', 'delta', 'stock_after', 'reason', 'order_dish_id'])
      .orderBy('seq')
      .execute();
    const salesOf = new Map<string, number>();
    for (const movement of movements)
      if (movement.reason === 'sale' && movement.order_dish_id)
        salesOf.set(movement.order_dish_id, (salesOf.get(movement.order_dish_id) ?? 0) + 1);
    for (const plate of ledger.sentPlates) {
      const stored = plateById.get(plate);
      if (!stored || stored.status === 'pending')
        lost(`plate ${plate}: sent but ${stored?.status ?? 'missing'}`);
    }
    for (const plate of plates) {
      const sales = salesOf.get(plate.id) ?? 0;
      // The recipe takes one ingredient and one product: a plate sent moves both, a pending one neither.
      const expected = plate.status === 'pending' ? 0 : 2;
      if (sales !== expected && (plate.status === 'pending' || ledger.sentPlates.has(plate.id)))
        halfWritten(`plate ${plate.id} (${plate.status}): ${sales} sale movements`);
    }
    for (const table of ['ingredients', 'products'] as const) {
      const items = await db.selectFrom(table).select(['id', 'stock', 'stock_moves']).execute();
      for (const item of items) {
        const own = movements.filter((movement) => movement.item_id === item.id);
        let stock = own.length > 0 ? Number(own[0]?.stock_after) - Number(own[0]?.delta) : Number(item.stock);
        for (const movement of own) {
          stock += Number(movement.delta);
          if (stock !== Number(movement.stock_after))
            halfWritten(
              `${table} ${item.id}: movement ${movement.seq} says ${movement.stock_after}, the chain ${stock}`,
            );
        }
        if (own.length > 0 && stock !== Number(item.stock))
          halfWritten(`${table} ${item.id}: stock ${item.stock} but its movements end at ${stock}`);
        if (own.length !== Number(item.stock_moves))
          halfWritten(`${table} ${item.id}: ${own.length} movements, stock_moves ${item.stock_moves}`);
      }
    }
    return findings;
  } finally {
    await close();
  }
}
