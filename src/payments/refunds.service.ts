import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { BadRequestError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { newId } from '../core/ids';
import { toCents } from '../core/money';
import { recordEvent } from '../events/record-event';
import { lockTicketWithOrder } from '../tickets/tickets.service';
import { toPaymentView } from './payment-views';
import * as payments from './payments.repo';
import type { RefundBody } from './payments.schemas';

const REFUNDABLE = new Set(['settled', 'partially_refunded']);

/**
 * Records money given back on a payment by cash, card or another recorded method: at most what is
 * left of the payment's amount (tips are the staff's and are not refunded here). The bill's and the
 * order's `paid` fall in the same transaction; refunds of one payment queue on its order's lock, so
 * two refunds cannot together give back more than was paid.
 */
export async function refundPayment(
  ctx: AppContext,
  principal: Principal,
  paymentId: string,
  input: RefundBody,
  claim: IdempotencyClaim | undefined,
): Promise<{ id: string; payment_status: 'refunded' | 'partially_refunded' }> {
  const now = ctx.clock.now();
  return inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
    const found = await payments.findPayment(trx, paymentId);
    if (!found) throw new NotFoundError();
    const ticket = await lockTicketWithOrder(trx, found.ticket_id);
    const payment = await payments.findPayment(trx, paymentId);
    if (!payment) throw new NotFoundError();
    if (payment.payment_hash !== null) {
      throw new BadRequestError('Refunds of Lightning payments are not supported yet');
    }
    if (!REFUNDABLE.has(payment.status)) {
      throw new BadRequestError(`A ${payment.status} payment cannot be refunded`);
    }
    const leftCents = Number(payment.amount_cents) - Number(payment.refunded_cents);
    const cents = input.amount === undefined ? leftCents : toCents(input.amount);
    if (cents > leftCents) throw new BadRequestError('Amount exceeds what is left of the payment');
    const id = newId();
    await payments.insertRefund(trx, {
      id,
      payment_id: paymentId,
      amount_cents: cents,
      reason: input.reason,
      created_by: principal.id,
      created_at: now,
      amount_sat: null,
      invoice: null,
      payment_hash: null,
      node_payment_id: null,
      fees_sat: null,
    });
    const status = cents === leftCents ? 'refunded' : 'partially_refunded';
    await payments.subtractRefund(
      trx,
      { id: paymentId, ticketId: ticket.id, orderId: ticket.order_id },
      { cents, status },
      now,
    );
    await recordEvent(trx, {
      type: 'payment.refunded',
      data: toPaymentView({ ...payment, status }),
      at: now,
    });
    return { id, payment_status: status };
  });
}
