import { api } from '../../api/client';

/**
 * What this till shows its customer display (PUT /displays/till). Sent one after the other, so
 * the last state the till had is the one the server keeps; a till without a display, or a lost
 * request, never stops a payment: the display is a courtesy.
 */
let shown: { ticketId: string | null; paymentId: string | null } = { ticketId: null, paymentId: null };
let queue: Promise<unknown> = Promise.resolve();

function send(next: typeof shown): void {
  if (next.ticketId === shown.ticketId && next.paymentId === shown.paymentId) return;
  shown = next;
  const body = { ticket_id: next.ticketId, payment_id: next.paymentId };
  queue = queue.then(() => api.PUT('/displays/till', { body }).catch(() => undefined));
}

/** The bill being paid, or none; any payment of the bill before goes with it. */
export function showBill(ticketId: string | null): void {
  send({ ticketId, paymentId: ticketId === shown.ticketId ? shown.paymentId : null });
}

/**
 * The payment of the bill shown that the guest pays at the counter: a Lightning invoice (its QR) or a
 * charge on the card terminal ("Pague en la terminal"); null takes it off.
 */
export function showPayment(ticketId: string, paymentId: string | null): void {
  // A payment panel closing after another bill was opened must not take that bill off the display.
  if (paymentId === null && shown.ticketId !== ticketId) return;
  send({ ticketId, paymentId });
}
