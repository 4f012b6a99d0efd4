import { authorizeApprovable } from '../approvals/approvals.api';
import { recordAudit } from '../audit/audit.api';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { TICKET_STATUS } from '../core/db/ticket-status';
import { BadRequestError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { newId } from '../core/ids';
import { fromCents, toCents } from '../core/money';
import { totalFromLastPage } from '../core/paging';
import { recordEvent } from '../events/events.api';
import * as orders from '../orders/orders.api';
import { findBilledDishIds, findLiveOrderWithDishes, refreshSalesFacts } from '../orders/orders.api';
import { authorize } from '../permissions/permissions.api';
import { cancelLockedTicket } from './bill-cancellation';
import { discountCents } from './discounts';
import { toTicketView, viewOf } from './ticket-views';
import * as tickets from './tickets.repo';
import type { TicketBody, TicketsQuery, TicketView } from './tickets.schemas';

export const NOTHING_LEFT_TO_BILL = 'Nothing left to bill';
const EXCEEDS_UNBILLED = 'Amount exceeds the unbilled balance';

/**
 * Creates a bill, or one per seat. The order's row lock serialises every bill of the order, so what
 * is still unbilled is read and claimed in one step; the partial unique index on live dish links and
 * the check `billed_cents <= total_cents` on the order hold even if that reasoning were ever wrong.
 */
export async function createTicket(
  ctx: AppContext,
  principal: Principal,
  orderId: string,
  input: TicketBody,
  claim: IdempotencyClaim | undefined,
): Promise<{ id: string; ids?: string[] }> {
  authorize(principal, 'tickets.write');
  if (input.order_dish_ids && input.amount !== undefined) {
    throw new BadRequestError('Send either order_dish_ids or amount, not both');
  }
  if (input.by_seat && (input.order_dish_ids || input.amount !== undefined)) {
    throw new BadRequestError('Send by_seat without order_dish_ids or amount');
  }
  // An amount off several bills would have to be shared out by some rule nobody asked for.
  if (input.by_seat && input.discount?.type === 'amount') {
    throw new BadRequestError('Bills by seat take a percent discount only');
  }
  const now = ctx.clock.now();
  return inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, (trx) =>
    createTicketIn(trx, principal, orderId, input, now),
  );
}

/** createTicket inside the caller's transaction, for a flow that bills as one of several steps. */
export async function createTicketIn(
  trx: Db,
  principal: Principal,
  orderId: string,
  input: TicketBody,
  now: number,
): Promise<{ id: string; ids?: string[] }> {
  const order = await orders.lockLiveOrder(trx, orderId);
  if (!order) throw new NotFoundError();
  if (order.status === 'cancelled') throw new BadRequestError('Cannot bill a cancelled order');
  const found = await findLiveOrderWithDishes(trx, orderId);
  // A voided dish is off the order's total, so it is not there to bill either.
  const orderDishes = (found?.dishes ?? []).filter((dish) => dish.status !== 'voided');
  if (orderDishes.length === 0) throw new BadRequestError('Cannot bill an order without dishes');
  const unbilledCents = Number(order.total_cents) - Number(order.billed_cents);
  if (unbilledCents <= 0) throw new BadRequestError(NOTHING_LEFT_TO_BILL);

  const billed = await findBilledDishIds(trx, orderId);
  const bills = input.by_seat
    ? billsBySeat(orderDishes, billed, unbilledCents)
    : [whatToBill(input, orderDishes, billed, unbilledCents)];
  // The caller's role, or a manager's approval for this order (and these plates, when it names
  // them) that these bills spend; given back if the write fails.
  const billedDishIds = bills.flatMap((bill) => bill.dishIds);
  const approver = input.discount
    ? await authorizeApprovable(trx, principal, 'discountBill', { orderId, orderDishIds: billedDishIds }, now)
    : null;
  const ids: string[] = [];
  for (const [index, bill] of bills.entries()) {
    if (bill.subtotalCents <= 0) throw new BadRequestError(NOTHING_LEFT_TO_BILL);
    if (bill.subtotalCents > unbilledCents) throw new BadRequestError(EXCEEDS_UNBILLED);
    // Bills list by creation time, then by a random id: a millisecond apart, bills by seat keep
    // the seats' order, in which the till numbers them.
    const at = now + index;
    ids.push(await insertBill(trx, { principal, orderId, bill, discount: input.discount, approver, at }));
  }
  // Even a pending bill moves the facts: its dishes leave the pool an amount-split bill is shared over.
  await refreshSalesFacts(trx, orderId);
  const [id] = ids as [string];
  return input.by_seat ? { id, ids } : { id };
}

type BillPlan = { subtotalCents: number; dishIds: string[] };

async function insertBill(
  trx: Db,
  args: {
    principal: Principal;
    orderId: string;
    bill: BillPlan;
    discount: TicketBody['discount'];
    approver: { id: string } | null;
    at: number;
  },
): Promise<string> {
  const { principal, orderId, bill, at: now } = args;
  const { subtotalCents } = bill;
  const discount = args.discount ? discountCents(subtotalCents, args.discount) : 0;
  const totalCents = subtotalCents - discount;
  // A bill discounted to nothing owes nothing: it is paid the moment it exists.
  const isPaid = totalCents === 0;

  const id = newId();
  await tickets.insertTicket(trx, {
    id,
    order_id: orderId,
    status: isPaid ? TICKET_STATUS.paid : TICKET_STATUS.pending,
    subtotal_cents: subtotalCents,
    discount_cents: discount,
    discount_type: args.discount?.type ?? null,
    discount_value: args.discount?.value ?? null,
    discount_reason: args.discount?.reason ?? null,
    discount_approved_by: args.approver?.id ?? null,
    total_cents: totalCents,
    created_by: principal.id,
    created_at: now,
    updated_at: now,
    paid_at: isPaid ? now : null,
    canceled_at: null,
  });
  await tickets.insertTicketDishes(trx, id, bill.dishIds);
  await tickets.addToOrderBilled(trx, orderId, { subtotalCents, discountCents: discount }, now);
  const view = await viewOf(trx, id);
  await recordEvent(trx, { type: 'ticket.created', data: view, at: now });
  if (isPaid) await recordEvent(trx, { type: 'ticket.paid', data: view, at: now });
  if (args.discount) {
    await recordAudit(trx, {
      at: now,
      actor: principal,
      action: 'ticket.discounted',
      target: { type: 'ticket', id },
      before: { order_id: orderId, subtotal: fromCents(subtotalCents) },
      after: { ...view, approved_by: args.approver },
    });
  }
  return id;
}

/**
 * One bill per seat with unbilled plates, by seat number, and the plates without a seat on one more.
 * After a split by amount the unbilled balance is money no plate can be said to be in, so no seat
 * can be billed its plates.
 */
function billsBySeat(
  orderDishes: { id: string; price_at_order_cents: number; seat: number | null }[],
  billed: Set<string>,
  unbilledCents: number,
): BillPlan[] {
  const unbilledDishes = orderDishes.filter((dish) => !billed.has(dish.id));
  if (sumOf(unbilledDishes) !== unbilledCents) {
    throw new BadRequestError('After a split by amount the rest cannot be billed by seat');
  }
  const bySeat = new Map<number | null, typeof unbilledDishes>();
  for (const dish of unbilledDishes) bySeat.set(dish.seat, [...(bySeat.get(dish.seat) ?? []), dish]);
  const seats = [...bySeat.keys()].sort((a, b) => (a === null ? 1 : b === null ? -1 : a - b));
  return seats.map((seat) => {
    const dishes = bySeat.get(seat) ?? [];
    return { subtotalCents: sumOf(dishes), dishIds: dishes.map((dish) => dish.id) };
  });
}

/** `{}` bills the rest, `order_dish_ids` exactly those dishes, `amount` a share of the rest. */
function whatToBill(
  input: TicketBody,
  orderDishes: { id: string; price_at_order_cents: number }[],
  billed: Set<string>,
  unbilledCents: number,
): BillPlan {
  if (input.amount !== undefined) return { subtotalCents: toCents(input.amount), dishIds: [] };
  if (!input.order_dish_ids) {
    // The rest covers the dishes not yet on a bill when it is exactly them; after a split by amount
    // it is only money, and no dish can be said to be on it.
    const unbilledDishes = orderDishes.filter((dish) => !billed.has(dish.id));
    const isExactlyTheseDishes = sumOf(unbilledDishes) === unbilledCents;
    return {
      subtotalCents: unbilledCents,
      dishIds: isExactlyTheseDishes ? unbilledDishes.map((dish) => dish.id) : [],
    };
  }
  const prices = new Map(orderDishes.map((dish) => [dish.id, dish.price_at_order_cents]));
  let subtotalCents = 0;
  for (const id of input.order_dish_ids) {
    const price = prices.get(id);
    if (price === undefined) throw new BadRequestError(`Order dish with ID: ${id} is not on this order`);
    if (billed.has(id)) throw new BadRequestError(`Order dish with ID: ${id} is already on a bill`);
    subtotalCents += Number(price);
  }
  return { subtotalCents, dishIds: input.order_dish_ids };
}

function sumOf(dishes: { price_at_order_cents: number }[]): number {
  return dishes.reduce((sum, dish) => sum + Number(dish.price_at_order_cents), 0);
}

/**
 * Cancels a bill on which nothing is paid; its dishes and amount become billable again. Refunded
 * money counts as not paid, so a bill whose payments were all refunded can be cancelled too.
 */
export async function cancelTicket(ctx: AppContext, id: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const ticket = await lockTicketWithOrder(trx, id);
    if (Number(ticket.status) === TICKET_STATUS.canceled)
      throw new BadRequestError('Ticket is already canceled');
    if (Number(ticket.paid_cents) > 0) throw new BadRequestError('Ticket has payments: refund them first');
    await cancelLockedTicket(trx, ticket, now);
  });
}

/**
 * Locks the bill's order, then the bill: every writer of an order's bills and payments takes the
 * locks in that order, so they queue instead of deadlocking. 404 when there is no such bill.
 */
export async function lockTicketWithOrder(trx: Db, id: string): Promise<tickets.TicketRow> {
  await orders.lockLiveOrderOfBill(trx, id);
  const ticket = await tickets.lockTicket(trx, id);
  if (!ticket) throw new NotFoundError();
  return ticket;
}

export function getTicket(ctx: AppContext, id: string): Promise<TicketView> {
  return viewOf(ctx.db, id);
}

export async function listOrderTickets(ctx: AppContext, orderId: string): Promise<TicketView[]> {
  if (!(await orders.findLiveOrder(ctx.db, orderId))) throw new NotFoundError();
  const rows = await tickets.findTicketsOfOrder(ctx.db, orderId);
  return (await tickets.withDishes(ctx.db, rows)).map(toTicketView);
}

export async function listTickets(
  ctx: AppContext,
  query: TicketsQuery,
): Promise<{ items: TicketView[]; totalCount: number }> {
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
    throw new BadRequestError('from must not be after to');
  }
  const filter = { status: query.status, orderId: query.order_id, from: query.from, to: query.to };
  const rows = await tickets.listTickets(ctx.db, filter, query);
  const totalCount = totalFromLastPage(query, rows.length) ?? (await tickets.countTickets(ctx.db, filter));
  return { items: (await tickets.withDishes(ctx.db, rows)).map(toTicketView), totalCount };
}
