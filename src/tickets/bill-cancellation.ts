import type { Principal } from '../core/auth-guard';
import type { Db } from '../core/db/database';
import { TICKET_STATUS } from '../core/db/ticket-status';
import { BadRequestError, ConflictError } from '../core/errors';
import { recordEvent } from '../events/events.api';
import { findLiveTicketsOfOrder, refreshSalesFacts } from '../orders/orders.api';
import { authorizeAction } from '../permissions/permissions.api';
import { viewOf } from './ticket-views';
import * as tickets from './tickets.repo';

/*
 * Cancelling bills under an order's lock, apart from the bills service: the orders service cancels an
 * order's bills with the order, and the bills service locks orders, so each imports this module
 * instead of the other service.
 */

const INVOICE_PENDING = 'Ticket has a pending Lightning invoice: wait until it is paid or expires';

/**
 * Cancels a bill whose order the caller has locked, alone or with its order (cancelBillsOfOrder).
 * Refused (409) while one of its Lightning invoices can still be paid: phoenixd cannot withdraw an
 * invoice, so the customer could pay a bill that no longer exists. The lock on the order is the one
 * an invoice is reserved under, so none can appear between this check and the cancel. A payment for
 * an invoice that had expired but still reached the node (paid at its last instant) settles onto the
 * cancelled bill, which then shows a negative balance and is listed in the open balances for a refund.
 */
export async function cancelLockedTicket(trx: Db, ticket: tickets.TicketRow, now: number): Promise<void> {
  if (await tickets.hasPayableInvoice(trx, ticket.id, now)) throw new ConflictError(INVOICE_PENDING);
  await tickets.updateTicket(trx, ticket.id, {
    status: TICKET_STATUS.canceled,
    canceled_at: now,
    updated_at: now,
  });
  await tickets.releaseTicketDishes(trx, ticket.id);
  const released = {
    subtotalCents: -Number(ticket.subtotal_cents),
    discountCents: -Number(ticket.discount_cents),
  };
  await tickets.addToOrderBilled(trx, ticket.order_id, released, now);
  await tickets.refreshRefundedAfterSale(trx, ticket.order_id);
  // A Paid bill whose payments were all refunded can be cancelled: it leaves the reports; any bill's
  // dishes go back to the pool an amount-split bill is shared over.
  await refreshSalesFacts(trx, ticket.order_id);
  await recordEvent(trx, { type: 'ticket.canceled', data: await viewOf(trx, ticket.id), at: now });
}

/**
 * Before an order is cancelled or deleted: refused while one of its bills is paid or has money on
 * it; its pending bills are cancelled with it, which is cancelling bills: the caller's role must
 * allow that too. The caller holds the order's lock.
 */
export async function cancelBillsOfOrder(
  trx: Db,
  principal: Principal,
  orderId: string,
  now: number,
): Promise<void> {
  const live = await findLiveTicketsOfOrder(trx, orderId);
  if (live.length > 0) authorizeAction(principal, 'cancelBillsWithOrder');
  if (live.some((ticket) => Number(ticket.status) === TICKET_STATUS.paid || Number(ticket.paid_cents) > 0)) {
    throw new BadRequestError('Order has paid bills: refund and cancel them first');
  }
  for (const ticket of live) await cancelLockedTicket(trx, ticket, now);
}
