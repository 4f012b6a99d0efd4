import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { TICKET_STATUS, type TicketStatus } from '../core/db/ticket-status';
import { BadRequestError, NotFoundError, ServiceUnavailableError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { newId } from '../core/ids';
import { fromCents, toCents } from '../core/money';
import { recordEvent } from '../events/events.api';
import { refreshSalesFacts } from '../orders/orders.api';
import { authorize } from '../permissions/permissions.api';
import { loadSettings } from '../settings/settings.api';
import { shiftForRecording } from '../shifts/shifts.api';
import {
  closeOrderIfDone,
  findTicket,
  lockTicketWithOrder,
  viewOfRow as ticketViewOfRow,
} from '../tickets/tickets.api';
import { reconcile } from './lightning-settlement.service';
import { toPaymentView } from './payment-views';
import * as payments from './payments.repo';
import type { PaymentBody, PaymentView } from './payments.schemas';

/** Settled by the Lightning node, never by a cashier's word. */
const LIGHTNING = 'lightning';
const CASH = 'cash';
/** The delivery apps charged the customer themselves: their payments come with their orders, never from a till. */
const CHANNEL_METHODS: ReadonlySet<string> = new Set(['ubereats', 'rappi']);

export type RecordedPayment = { id: string; ticket_status: TicketStatus; change: number };

/**
 * Records money received by any method but Lightning; it is settled when recorded. The bill's and
 * the order's paid sums move in the same transaction, and the bill becomes Paid when its balance
 * reaches 0. Each bill's payments queue on its order's lock, so two tills cannot both take the
 * last of a balance.
 */
export async function recordPayment(
  ctx: AppContext,
  principal: Principal,
  ticketId: string,
  input: PaymentBody,
  claim: IdempotencyClaim | undefined,
): Promise<RecordedPayment> {
  authorize(principal, 'payments.take');
  if (input.method === LIGHTNING) {
    throw new BadRequestError(`Lightning payments are requested with POST /tickets/${ticketId}/lightning`);
  }
  if (input.method === 'card_terminal') {
    throw new BadRequestError(
      `Card-terminal payments are charged with POST /tickets/${ticketId}/card-terminal`,
    );
  }
  if (CHANNEL_METHODS.has(input.method)) {
    throw new BadRequestError(`Payments by ${input.method} are recorded when its delivery order is accepted`);
  }
  const now = ctx.clock.now();
  return inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, (trx) =>
    recordPaymentIn(trx, principal, ticketId, input, now),
  );
}

/**
 * recordPayment inside the caller's transaction, for a flow that pays as one of several steps (a
 * delivery app's order is paid by the platform when accepted). `closePaidOrders` false keeps the
 * order open although paid, where the flow closes it later itself.
 */
export async function recordPaymentIn(
  trx: Db,
  principal: Principal,
  ticketId: string,
  input: PaymentBody,
  now: number,
  options: { closePaidOrders?: boolean } = {},
): Promise<RecordedPayment> {
  const amountCents = toCents(input.amount);
  const tipCents = toCents(input.tip ?? 0);
  const changeCents = changeOf(input, amountCents + tipCents);
  const ticket = await lockTicketWithOrder(trx, ticketId);
  const method = await payments.findPaymentMethodByCode(trx, input.method);
  if (!method || Number(method.is_active) !== 1) {
    throw new BadRequestError(`Unknown or inactive payment method: ${input.method}`);
  }
  if (Number(ticket.status) === TICKET_STATUS.canceled) throw new BadRequestError('Ticket is canceled');
  if (Number(ticket.status) === TICKET_STATUS.paid) throw new BadRequestError('Ticket is already paid');
  if (amountCents > Number(ticket.total_cents) - Number(ticket.paid_cents)) {
    throw new BadRequestError('Amount exceeds the balance');
  }
  const settings = await loadSettings(trx);
  const shiftId = await shiftForRecording(
    trx,
    principal.id,
    method.code === CASH && settings.requireShiftForCash,
  );
  const payment = await payments.insertPayment(trx, {
    id: newId(),
    ticket_id: ticketId,
    method: method.code,
    amount_cents: amountCents,
    tip_cents: tipCents,
    tendered_cents: input.tendered === undefined ? null : toCents(input.tendered),
    change_cents: input.tendered === undefined ? null : changeCents,
    status: 'settled',
    created_by: principal.id,
    created_at: now,
    settled_at: now,
    amount_sat: null,
    rate: null,
    payment_hash: null,
    invoice: null,
    expires_at: null,
    received_sat: null,
    shift_id: shiftId,
  });
  const settled = await payments.addSettledToTicket(trx, ticket, { amountCents, tipCents }, now);
  const isPaid = Number(settled.ticket.status) === TICKET_STATUS.paid;
  // The sales facts are the Paid bills': a payment leaving its bill unpaid changes none of them.
  if (isPaid) await refreshSalesFacts(trx, ticket.order_id);
  await recordEvent(trx, { type: 'payment.settled', data: toPaymentView(payment), at: now });
  if (isPaid) {
    await recordEvent(trx, {
      type: 'ticket.paid',
      data: await ticketViewOfRow(trx, settled.ticket),
      at: now,
    });
    await closeOrderIfDone(trx, settled.order, now, {
      closePaidOrders: settings.closePaidOrders && options.closePaidOrders !== false,
    });
  }
  return {
    id: payment.id,
    ticket_status: Number(settled.ticket.status) as TicketStatus,
    change: fromCents(changeCents),
  };
}

/** Cash the customer handed over must cover what is paid; other methods take exactly what is asked. */
function changeOf(input: PaymentBody, dueCents: number): number {
  if (input.tendered === undefined) return 0;
  if (input.method !== CASH) throw new BadRequestError('Only cash takes tendered');
  const tenderedCents = toCents(input.tendered);
  if (tenderedCents < dueCents) throw new BadRequestError('Tendered must cover amount and tip');
  return tenderedCents - dueCents;
}

/**
 * A pending Lightning payment is first checked with the node, so a client polling it sees it settle
 * even when the webhook was lost. A node that cannot be asked leaves the stored state to answer.
 */
export async function getPayment(ctx: AppContext, id: string): Promise<PaymentView> {
  const row = await payments.findPayment(ctx.db, id);
  if (!row) throw new NotFoundError();
  if (row.status !== 'pending' || row.payment_hash === null) return toPaymentView(row);
  try {
    await reconcile(ctx, row);
  } catch (error) {
    if (!(error instanceof ServiceUnavailableError)) throw error;
  }
  const reconciled = await payments.findPayment(ctx.db, id);
  if (!reconciled) throw new NotFoundError();
  return toPaymentView(reconciled);
}

export async function listTicketPayments(ctx: AppContext, ticketId: string): Promise<PaymentView[]> {
  if (!(await findTicket(ctx.db, ticketId))) throw new NotFoundError();
  return (await payments.findPaymentsOfTicket(ctx.db, ticketId)).map(toPaymentView);
}
