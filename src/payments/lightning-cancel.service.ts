import { recordAudit } from '../audit/audit.api';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { BadRequestError, ConflictError, NotFoundError } from '../core/errors';
import { recordEvent } from '../events/events.api';
import { authorize } from '../permissions/permissions.api';
import { lockTicketWithOrder } from '../tickets/tickets.api';
import { CARD_TERMINAL } from './card-terminal.repo';
import { cancelTerminalCharge } from './card-terminal.service';
import * as lightning from './lightning.repo';
import { reconcile } from './lightning-settlement.service';
import { toPaymentView } from './payment-views';
import * as payments from './payments.repo';
import type { PaymentView } from './payments.schemas';

export const NOT_PENDING = 'This Lightning invoice is no longer pending';

/**
 * The till withdraws a pending Lightning invoice (a guest's left open on a phone, or its own) so the
 * rest of the bill can be asked for. phoenixd cannot withdraw an invoice, so it stops counting here:
 * it becomes `expired`, no longer holds part of the balance, and a guest page polling it says so.
 * The node is asked first, so an invoice already paid settles instead; one paid anyway later is
 * still recorded (the sweep and the catch-up look at expired invoices) and the bill shows it overpaid.
 */
export async function cancelLightningPayment(
  ctx: AppContext,
  principal: Principal,
  paymentId: string,
): Promise<PaymentView> {
  authorize(principal, 'payments.take');
  const found = await payments.findPayment(ctx.db, paymentId);
  if (!found) throw new NotFoundError();
  if (found.method === CARD_TERMINAL) return cancelTerminalCharge(ctx, principal, found);
  if (found.method !== 'lightning') {
    throw new BadRequestError('Only a Lightning invoice or a card-terminal charge can be canceled');
  }
  if (found.status !== 'pending' || found.payment_hash === null) throw new ConflictError(NOT_PENDING);
  await reconcile(ctx, found);
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    await lockTicketWithOrder(trx, found.ticket_id);
    if (!(await lightning.markExpired(trx, paymentId))) throw new ConflictError(NOT_PENDING);
    const row = await payments.findPayment(trx, paymentId);
    if (!row) throw new NotFoundError();
    const view = toPaymentView(row);
    await recordEvent(trx, { type: 'payment.expired', data: view, at: now });
    await recordAudit(trx, {
      at: now,
      actor: principal,
      action: 'payment.canceled',
      target: { type: 'payment', id: paymentId },
      before: toPaymentView(found),
      after: view,
    });
    return view;
  });
}
