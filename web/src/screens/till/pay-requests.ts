import { api, createOnce } from '../../api/client';
import { fromCents } from '../../core/cents';

/** A settled payment of `amountCents` of the bill, with the tip on top and, for cash, what was handed over. */
export function recordPayment(
  ticketId: string,
  payment: { method: string; amountCents: number; tipCents: number; tenderedCents?: number },
) {
  const body = {
    method: payment.method,
    amount: fromCents(payment.amountCents),
    ...(payment.tipCents > 0 && { tip: fromCents(payment.tipCents) }),
    ...(payment.tenderedCents !== undefined && { tendered: fromCents(payment.tenderedCents) }),
  };
  return createOnce((key) =>
    api.POST('/tickets/{id}/payments', {
      params: { header: { 'idempotency-key': key }, path: { id: ticketId } },
      body,
    }),
  );
}
